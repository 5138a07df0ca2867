"""Graph walks shared by the read APIs: filters, ancestors, projection onto a visible set.

All functions take a synced ``Graph`` and must run under the store lock. Edge order is always the
store's order (``Edge.ord``), which is what Luker's array order becomes here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

from memgraph_gui.core.domain.model import HIERARCHY_EDGE_TYPES, SYMMETRIC_RELATIONS, Edge, Node
from memgraph_gui.core.graph.graph import Graph

_SPACES = re.compile(r"\s+")
_ORD = attrgetter("ord")


def normalize_text(value: str) -> str:
    """Collapse whitespace runs to one space and trim (Luker's ``normalizeText``)."""
    return _SPACES.sub(" ", value).strip()


def relation_of(edge: Edge) -> str:
    """The edge's relation as projection sees it: normalised, lower-cased, default ``related``."""
    return _relation(edge.type)


@lru_cache(maxsize=4096)
def _relation(kind: str) -> str:
    return normalize_text(kind).lower() or "related"


def is_recall_diagnostic(node: Node) -> bool:
    """Luker's recall diagnostic nodes (type ``recall`` or ``recall_*``), hidden from recall reads."""
    kind = node.type.strip().lower()
    return kind == "recall" or kind.startswith("recall_")


def view_level(node: Node) -> str:
    return "semantic" if node.level == "semantic" else "episodic"


def edges_in_order(graph: Graph) -> list[Edge]:
    """Every edge in store order."""
    return graph.derived("edges_by_ord", lambda: sorted(graph.edges.values(), key=lambda e: e.ord))


def incident_edges(graph: Graph, node_id: str) -> list[Edge]:
    """Edges touching ``node_id``, in store order."""
    return sorted(graph.edges_of(node_id), key=_ORD)


def live_children(graph: Graph, node: Node) -> list[Node]:
    """Children that exist and are not archived, in ``childrenIds`` order (Luker ``getChildren``)."""
    out = []
    for child_id in node.children_ids:
        child = graph.nodes.get(child_id)
        if child is not None and not child.archived:
            out.append(child)
    return out


def nearest_visible(graph: Graph, node_id: str, visible: frozenset[str] | set[str]) -> str:
    """Walk up from ``node_id`` (itself included) to the first id in ``visible``; '' if none.

    An archived or missing node on the way blocks the walk. Cycle-safe.
    """
    current, guard = node_id.strip(), set()
    while current and current not in guard:
        guard.add(current)
        node = graph.nodes.get(current)
        if node is None or node.archived:
            return ""
        if current in visible:
            return current
        current = node.parent_id.strip()
    return ""


def live_path(graph: Graph, node_id: str) -> list[str]:
    """The ids ``nearest_visible`` tests, in its order: ``node_id`` (trimmed) and its ancestors
    (parent ids trimmed), up to the first missing or archived node (left out), a blank parent
    or a repeat. ``nearest_visible`` is the first of them in ``visible`` ('' if none)."""
    out: list[str] = []
    current, guard = node_id.strip(), set()
    while current and current not in guard:
        guard.add(current)
        node = graph.nodes.get(current)
        if node is None or node.archived:
            break
        out.append(current)
        current = node.parent_id.strip()
    return out


def edge_seq(graph: Graph, edge: Edge) -> int:
    """An edge's recency: its own ``seqTo``, else the larger endpoint ``seqTo``."""
    if edge.seq_to is not None and math.isfinite(edge.seq_to):
        return max(0, math.floor(edge.seq_to))
    ends = [graph.nodes[i].seq_to for i in (edge.from_id, edge.to_id) if i in graph.nodes]
    return max([0, *ends])


@dataclass(slots=True)
class Projected:
    """A projected edge being merged: endpoints rolled up to visible nodes."""

    from_id: str
    to_id: str
    type: str
    weight: int
    seq: int
    symmetric: bool


def project(
    graph: Graph,
    edges: Iterable[Edge],
    visible: frozenset[str],
    relation_types: frozenset[str] | None,
    exclude_internal: bool,
    roll_up: Callable[[str], str] | None = None,
) -> list[Projected]:
    """Luker's ``buildProjectedEdges`` over ``edges`` (in the order given).

    Both ends roll up to their nearest visible ancestor; edges with an end outside the visible set or
    collapsing onto one node are dropped; same ``(from, to, type)`` merge with summed ``weight``.
    """
    lift = roll_up or (lambda i: nearest_visible(graph, i, visible))
    merged: dict[tuple[str, str, str], Projected] = {}
    for edge in edges:
        relation = relation_of(edge)
        if exclude_internal and relation in HIERARCHY_EDGE_TYPES:
            continue
        if relation_types is not None and relation not in relation_types:
            continue
        src, dst = lift(edge.from_id), lift(edge.to_id)
        if not src or not dst or src == dst:
            continue
        symmetric = relation in SYMMETRIC_RELATIONS
        if symmetric and js_string_gt(src, dst):
            src, dst = dst, src
        seq = edge_seq(graph, edge)
        found = merged.get((src, dst, relation))
        if found is None:
            merged[(src, dst, relation)] = Projected(src, dst, relation, 1, seq, symmetric)
        else:
            found.weight += 1
            found.seq = max(found.seq, seq)
    return list(merged.values())


def js_string_gt(a: str, b: str) -> bool:
    """JavaScript's ``a > b`` on strings (UTF-16 code units): how symmetric relations are ordered."""
    if a.isascii() and b.isascii():
        return a > b
    return a.encode("utf-16-be") > b.encode("utf-16-be")


def ancestors(graph: Graph, node_id: str) -> Iterable[Node]:
    """Parents of ``node_id`` upward (the node itself excluded); stops at a cycle or missing id."""
    node = graph.nodes.get(node_id)
    guard = {node_id}
    while node is not None and node.parent_id and node.parent_id not in guard:
        guard.add(node.parent_id)
        node = graph.nodes.get(node.parent_id)
        if node is not None:
            yield node


def descendants(graph: Graph, root: Node, *, active_only: bool, max_depth: float) -> list[Node]:
    """BFS over ``childrenIds`` (level by level), root excluded, each node once."""
    out: list[Node] = []
    seen = {root.id}
    frontier, depth = [root], 0
    while frontier and depth < max_depth:
        depth += 1
        nxt: list[Node] = []
        for node in frontier:
            for child_id in node.children_ids:
                child = graph.nodes.get(child_id)
                if child is None or child_id in seen or (active_only and child.archived):
                    continue
                seen.add(child_id)
                out.append(child)
                nxt.append(child)
        frontier = nxt
    return out

"""Recall primitives: the visible candidate pool, exposure, edge summaries, expansion.

Faithful to Luker's ``collectRootCandidates`` / ``buildEdgeSummary`` / ``expandRouteCandidates``;
edge work is done locally around the node (same result as Luker's whole-graph projection, filtered
to the node) so that a brief costs well under a millisecond on a 50k-node store.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from memgraph_gui.core.collation import key_function
from memgraph_gui.core.graph import Graph
from memgraph_gui.core.model import Edge, Node
from memgraph_gui.core.topology import (
    Projected,
    edges_in_order,
    live_children,
    nearest_visible,
    project,
)
from memgraph_gui.core.views import EdgeSummary, RelationCount, SampleNeighbor

DEFAULT_EXPAND_RELATIONS = frozenset(
    {
        "related",
        "involved_in",
        "mentions",
        "evidence",
        "contains",
        "updates",
        "advances",
        "occurred_at",
    }
)


def recency_sorted(nodes: list[Node]) -> list[Node]:
    """``compareNodesByRecency``: seqTo desc, semanticDepth desc, id by localeCompare."""
    key = key_function([n.id for n in nodes])
    ordered = sorted(nodes, key=lambda n: key(n.id))
    ordered.sort(key=lambda n: (n.seq_to, n.semantic_depth), reverse=True)
    return ordered


def candidate_pool(graph: Graph) -> list[Node]:
    """The route LLM's candidate pool in recency order (cached until the next change).

    Active semantic non-diagnostic nodes; for a type with hierarchical compression only the
    top-most active same-type ancestor of each leaf (so a rollup stands for its children).
    """

    def build() -> list[Node]:
        ids = graph.index("candidates", lambda: PoolIndex(graph)).ids()
        return recency_sorted([graph.nodes[i] for i in ids])

    return graph.derived("candidate_pool", build)


def default_visible(graph: Graph) -> frozenset[str]:
    """The recorded ``visibleIds`` (the seed's default: empty until recall has run once)."""
    return graph.injection.visible_ids


def _kind(node: Node) -> str:
    return node.type.strip().lower()


def _eligible(node: Node) -> bool:
    """Active, semantic and not a recall diagnostic."""
    kind = _kind(node)
    return (
        node.level == "semantic"
        and not node.archived
        and kind != "recall"
        and not kind.startswith("recall_")
    )


class PoolIndex:
    """The candidate pool's ids, kept per type across writes (see ``Graph.index``).

    A flat type's members change one node at a time. A hierarchical type's tops are recomputed
    only when its own hierarchy changed, except for the common case of a new parentless,
    childless node (an extracted event), which is simply its own top.
    """

    def __init__(self, graph: Graph) -> None:
        self._graph = graph
        self._hierarchical = {s.id for s in graph.schema.types if s.hierarchical}
        self._members: dict[str, set[str]] = {}
        self._dirty: set[str] = set()
        for node in graph.nodes.values():
            self._dirty.add(_kind(node))

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        for node in (old, new):
            if node is not None and _kind(node) not in self._hierarchical:
                members = self._members.setdefault(_kind(node), set())
                if node is new and _eligible(node):
                    members.add(node.id)
                else:
                    members.discard(node.id)
        hierarchical = {_kind(n) for n in (old, new) if n is not None} & self._hierarchical
        if not hierarchical:
            return
        if old is not None and new is not None and _structure_key(old) == _structure_key(new):
            return
        if old is None and new is not None and not new.parent_id and not new.children_ids:
            if _kind(new) not in self._dirty and _eligible(new):
                self._members.setdefault(_kind(new), set()).add(new.id)
            return
        self._dirty |= hierarchical

    def ids(self) -> set[str]:
        """Every candidate id (recomputing the types whose hierarchy changed)."""
        if self._dirty:
            grouped: dict[str, list[Node]] = {kind: [] for kind in self._dirty}
            for node in self._graph.nodes.values():
                group = grouped.get(_kind(node))
                if group is not None and _eligible(node):
                    group.append(node)
            for kind, nodes in grouped.items():
                tops = (
                    _hierarchy_tops(self._graph, nodes, kind)
                    if kind in self._hierarchical
                    else nodes
                )
                self._members[kind] = {n.id for n in tops}
            self._dirty.clear()
        return set().union(*self._members.values())


def _structure_key(node: Node) -> tuple[object, ...]:
    return (node.parent_id, node.children_ids, node.archived, node.type, node.level)


def _hierarchy_tops(graph: Graph, nodes: list[Node], kind: str) -> list[Node]:
    """For each leaf, the highest ancestor reachable through active parents of the same type."""
    everything = graph.nodes
    same: dict[str, bool] = {}

    def same_kind(node: Node) -> bool:
        found = same.get(node.type)
        if found is None:
            found = same[node.type] = node.type.lower() == kind
        return found

    def parent_of(node: Node) -> Node | None:
        parent = everything.get(node.parent_id) if node.parent_id else None
        return parent if parent is not None and not parent.archived and same_kind(parent) else None

    top_of: dict[str, Node] = {}
    tops: dict[str, Node] = {}
    for node in nodes:
        if any(
            (c := everything.get(i)) is not None and not c.archived and same_kind(c)
            for i in node.children_ids
        ):
            continue
        path: list[str] = []
        current, top = node, None
        while top is None:
            top = top_of.get(current.id)
            if top is not None:
                break
            parent = parent_of(current)
            if parent is None or parent.id in path or parent.id == node.id:
                top = current
                break
            path.append(current.id)
            current = parent
        for node_id in (*path, current.id):
            top_of[node_id] = top
        tops.setdefault(top.id, top)
    return list(tops.values())


def covered_seq(graph: Graph) -> int:
    """Luker's ``getStoreCoveredSeqTo``: highest seq the store covers (never below 0)."""

    def compute() -> int:
        best = max(0, graph.counter("appliedSeqTo"), graph.counter("loggedSeqTo"))
        for node in graph.nodes.values():
            if node.level == "semantic" and not node.archived:
                best = max(best, node.seq_to)
        return best

    return graph.derived("covered_seq", compute)


def in_recent_window(node: Node, latest: int, exclude: int) -> bool:
    """True when ``node`` lies in the last ``exclude`` seqs (``isNodeInRecentExcludeWindow``)."""
    return exclude > 0 and latest >= 0 and node.seq_to >= latest - exclude + 1


def exposure(graph: Graph, node: Node) -> str:
    """``high_only`` for non-semantic nodes and hierarchical types, else ``full``."""
    if node.level != "semantic":
        return "high_only"
    spec = graph.schema.get(node.type.lower())
    return "high_only" if spec is not None and spec.hierarchical else "full"


def _members(graph: Graph, node: Node, visible: frozenset[str]) -> list[str]:
    """``node`` plus every descendant whose nearest visible ancestor is ``node``."""
    out, frontier = [node.id], [node]
    while frontier:
        nxt = []
        for parent in frontier:
            for child_id in parent.children_ids:
                child = graph.nodes.get(child_id)
                if (
                    child is None
                    or child.archived
                    or child.parent_id != parent.id
                    or child_id in visible
                ):
                    continue
                out.append(child_id)
                nxt.append(child)
        frontier = nxt
    return out


def _local_edges(graph: Graph, member_ids: Iterable[str]) -> list[Edge]:
    edges: dict[tuple[str, str, str], Edge] = {}
    for member in member_ids:
        for edge in graph.edges_of(member):
            edges[edge.key] = edge
    return sorted(edges.values(), key=lambda e: e.ord)


_LOCAL_EDGE_LIMIT = 2_000
_LOCAL_CALLS = 24  # after this many summaries in one graph version, project the whole graph once


@dataclass(slots=True)
class _Tally:
    """Edge-summary counts for one node under one visible set."""

    degree: int = 0
    by_relation: dict[tuple[str, str], int] = field(default_factory=dict)
    neighbor_seq: dict[str, int] = field(default_factory=dict)

    def add(self, graph: Graph, pe: Projected, node_id: str) -> None:
        if pe.from_id == node_id:
            other, direction = pe.to_id, "symmetric" if pe.symmetric else "out"
        elif pe.to_id == node_id:
            other, direction = pe.from_id, "symmetric" if pe.symmetric else "in"
        else:
            return
        neighbor = graph.nodes.get(other)
        if neighbor is None or neighbor.archived:
            return
        self.degree += pe.weight
        self.neighbor_seq[other] = max(self.neighbor_seq.get(other, pe.seq), pe.seq)
        key = (pe.type, direction)
        self.by_relation[key] = self.by_relation.get(key, 0) + pe.weight


def edge_summary(
    graph: Graph,
    node_id: str,
    visible: frozenset[str],
    relation_types: frozenset[str] | None,
    limit: int,
) -> EdgeSummary:
    """Luker's ``buildEdgeSummary`` for one node; a zero summary when it is not visible.

    Small neighbourhoods are projected locally; a node standing for a big subtree (a top rollup)
    is read from a whole-graph projection cached per visible set. Both give the same answer.
    """
    node = graph.nodes.get(node_id)
    if node is None or node.archived or node_id not in visible:
        return EdgeSummary()
    tallies: OrderedDict[Any, dict[str, _Tally]] = graph.derived("tallies", OrderedDict)
    cached = tallies.get((visible, relation_types))
    edges = [] if cached is not None else _local_edges(graph, _members(graph, node, visible))
    local_calls = graph.derived("local_summaries", lambda: [0])
    local_calls[0] += 1
    if cached is not None or len(edges) > _LOCAL_EDGE_LIMIT or local_calls[0] > _LOCAL_CALLS:
        tally = _global_tallies(graph, visible, relation_types).get(node_id, _Tally())
    else:
        memo: dict[str, str] = {}

        def lift(i: str) -> str:
            if i not in memo:
                memo[i] = nearest_visible(graph, i, visible)
            return memo[i]

        tally = _Tally()
        for pe in project(graph, edges, visible, relation_types, False, lift):
            tally.add(graph, pe, node_id)
    return _summary(graph, tally.degree, tally.by_relation, tally.neighbor_seq, limit)


def _global_tallies(
    graph: Graph, visible: frozenset[str], relation_types: frozenset[str] | None
) -> dict[str, _Tally]:
    """Tallies of every visible node from one projection of all edges (cached, 4 sets kept)."""
    cache: OrderedDict[Any, dict[str, _Tally]] = graph.derived("tallies", OrderedDict)
    key = (visible, relation_types)
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    memo: dict[str, str] = {}

    def lift(i: str) -> str:
        if i not in memo:
            memo[i] = nearest_visible(graph, i, visible)
        return memo[i]

    tallies: dict[str, _Tally] = {}
    for pe in project(graph, edges_in_order(graph), visible, relation_types, False, lift):
        for end in (pe.from_id, pe.to_id):
            tallies.setdefault(end, _Tally()).add(graph, pe, end)
    cache[key] = tallies
    while len(cache) > 4:
        cache.popitem(last=False)
    return tallies


def _summary(
    graph: Graph,
    degree: int,
    by_relation: dict[tuple[str, str], int],
    neighbor_seq: dict[str, int],
    limit: int,
) -> EdgeSummary:
    relations = sorted(by_relation.items(), key=lambda kv: -kv[1])
    key = key_function(neighbor_seq)
    samples = sorted(neighbor_seq.items(), key=lambda kv: key(kv[0]))
    samples.sort(key=lambda kv: -kv[1])
    return EdgeSummary(
        degree=degree,
        relations=tuple(
            RelationCount(rel, "in" if d == "in" else "out", count) for (rel, d), count in relations
        ),
        sample_neighbors=tuple(
            SampleNeighbor(i, graph.nodes[i].type, graph.nodes[i].title, max(0, seq))
            for i, seq in samples[: max(1, limit)]
        ),
    )


def expand(
    graph: Graph,
    seeds: list[str],
    *,
    hops: int,
    relations: frozenset[str],
    include_children: bool,
    pool: frozenset[str] | None,
) -> list[Node]:
    """Luker's ``expandRouteCandidates`` BFS: seeds, then what each discovers, in BFS order.

    Edge hops reach only nodes in ``pool`` or already found (``pool=None``: the whole store).
    """
    found: dict[str, Node] = {}
    for seed in seeds:
        seed_node = graph.nodes.get(seed)
        if seed_node is None:
            continue
        found.setdefault(seed, seed_node)
        seen, frontier = {seed}, [seed]
        for _ in range(hops):
            if not frontier:
                break
            allowed = None if pool is None else pool | frozenset(found)
            frontier = _expand_hop(
                graph, frontier, seen, found, relations, include_children, allowed
            )
    return list(found.values())


def _expand_hop(
    graph: Graph,
    frontier: list[str],
    seen: set[str],
    found: dict[str, Node],
    relations: frozenset[str],
    include_children: bool,
    allowed: frozenset[str] | None,
) -> list[str]:
    nxt: list[str] = []

    def admit(node: Node) -> None:
        seen.add(node.id)
        found.setdefault(node.id, node)
        nxt.append(node.id)

    for current in frontier:
        node = graph.nodes.get(current)
        if node is None or node.archived:
            continue
        if include_children:
            for child in live_children(graph, node):
                if child.id not in seen:
                    admit(child)
        for other in _hop_neighbors(graph, node, relations, allowed):
            neighbor = graph.nodes.get(other)
            if other not in seen and neighbor is not None and not neighbor.archived:
                admit(neighbor)
    return nxt


def _hop_neighbors(
    graph: Graph, node: Node, relations: frozenset[str], allowed: frozenset[str] | None
) -> list[str]:
    """Neighbours of ``node`` over projected edges (raw when ``allowed`` is None)."""
    if allowed is None:
        edges = sorted(graph.edges_of(node.id), key=lambda e: e.ord)
        visible = frozenset(graph.nodes)
        projected = project(graph, edges, visible, relations, False, lambda i: i)
    else:
        visible = allowed | {node.id}
        edges = _local_edges(graph, _members(graph, node, visible))
        projected = project(graph, edges, visible, relations, False)
    out = []
    for pe in projected:
        if pe.from_id == node.id:
            out.append(pe.to_id)
        elif pe.to_id == node.id:
            out.append(pe.from_id)
    return out


def always_inject_nodes(graph: Graph) -> list[Node]:
    """Luker's ``collectAlwaysInjectNodes``: active nodes of always-inject types (hierarchical
    types contribute their top rollups), in timeline order."""
    kinds = {s.id.lower(): s for s in graph.schema.types if s.always_inject}
    chosen: dict[str, Node] = {}
    for node in candidate_pool(graph):
        if node.type.lower() in kinds:
            chosen[node.id] = node
    timeline = {node_id: i for i, node_id in enumerate(graph.timeline_ids())}
    return sorted(chosen.values(), key=lambda n: timeline[n.id])

"""Compaction: which groups may be rolled up (a read), and building a rollup (inside a write)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from memgraph_gui.core.domain.collation import key_function
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.freeze import freeze
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.domain.results import CompactionGroup, CompactionGroups
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.topology import normalize_text
from memgraph_gui.core.graph.tx import Tx

_ORDINAL = re.compile(r"#(\d+)\s*$")


def compaction_candidates(graph: Graph, type_id: str, depth: int) -> CompactionGroups:
    """Consecutive ``fanIn``-sized groups of parentless active nodes at ``depth``, oldest first.

    Empty for unknown or non-hierarchical types, below ``threshold`` (after holding back the
    ``keepRecentLeaves`` newest leaves at depth 0) or at/above ``maxDepth``. A group's ``depth`` is
    the tier its rollup would get (``depth + 1``) and ``fanIn`` its size.
    """
    kind = type_id.strip().lower()
    spec = graph.schema.get(kind) if kind else None
    if spec is None or not spec.hierarchical:
        return CompactionGroups()
    cfg = spec.compression
    if depth >= int(cfg["maxDepth"]):
        return CompactionGroups()
    import numpy as np  # (here: an import-luker never loads numpy)

    from memgraph_gui.core.graph.structure_index import graph_arrays

    arrays = graph_arrays(graph)  # the active nodes with no parent among every node, in numpy
    roots = arrays.nodes[np.flatnonzero((arrays.parent < 0) & ~arrays.archived)].tolist()
    candidates = [  # (a parent id naming no node also reads -1 there: checked here)
        n
        for n in roots
        if n is not None
        and n.level == "semantic"
        and n.type.lower() == kind
        and n.semantic_depth == depth
        and not n.parent_id.strip()
    ]
    key = key_function([n.id for n in candidates])
    candidates.sort(key=lambda n: (n.seq_to, key(n.id)))
    keep = int(cfg["keepRecentLeaves"])
    if depth == 0 and keep > 0 and len(candidates) > keep:
        candidates = candidates[: len(candidates) - keep]
    if len(candidates) < int(cfg["threshold"]):
        return CompactionGroups()
    fan_in = int(cfg["fanIn"])
    groups = [
        tuple(n.id for n in candidates[i : i + fan_in])
        for i in range(0, len(candidates) - fan_in + 1, fan_in)
    ]
    return CompactionGroups(tuple(CompactionGroup(depth + 1, g, len(g)) for g in groups))


def check_children(tx: Tx, type_id: str, child_ids: list[str]) -> list[Node]:
    """The children to roll up, or ``CHILD_NOT_FOUND`` / ``CHILD_HAS_PARENT`` (same-type parent)."""
    return children_to_roll_up(tx.node, type_id, child_ids)


def children_to_roll_up(
    node: Callable[[str], Node | None], type_id: str, child_ids: list[str]
) -> list[Node]:
    """``check_children`` over any node lookup (a write's staged view, or a graph for a check
    before the write)."""
    children: list[Node] = []
    for child_id in dict.fromkeys(child_ids):
        child = node(child_id)
        if child is None:
            raise MemgraphError(
                "CHILD_NOT_FOUND", f"compactNodes: child {child_id} is not in the store"
            )
        children.append(child)
    for child in children:
        parent = node(child.parent_id) if child.parent_id else None
        if parent is not None and parent.type.lower() == type_id.lower():
            raise MemgraphError(
                "CHILD_HAS_PARENT",
                f"compactNodes: child {child.id} already has rollup parent {parent.id}",
            )
    return children


def next_rollup_ordinal(graph: Graph, type_id: str, depth: int) -> int:
    """Luker's ``#k`` for a new rollup title: after the highest ``#N`` among its tier, else count+1."""
    kind = type_id.lower()
    tier = [
        n
        for n in graph.nodes.values()
        if not n.archived
        and n.level == "semantic"
        and n.type.lower() == kind
        and n.semantic_depth == depth
    ]
    numbers = [int(m.group(1)) for n in tier if (m := _ORDINAL.search(n.title))]
    best = max(numbers, default=0)
    return best + 1 if best > 0 else len(tier) + 1


def build_rollup(
    tx: Tx,
    node_id: str,
    type_id: str,
    children: list[Node],
    summary: str,
    fields: dict[str, Any],
    *,
    made_before: int = 0,
) -> Node:
    """Stage the rollup node, reparent ``children`` under it and add its hierarchy edges.
    ``made_before`` counts the rollups of the same type and depth staged earlier in this write
    (their ``#k`` titles are not in the graph yet)."""
    depth = max(c.semantic_depth for c in children) + 1
    merged = {"summary": summary, **fields}
    merged["summary"] = normalize_text(str(merged.get("summary") or ""))
    if not merged["summary"]:
        del merged["summary"]
    ranges = [c.floor_range for c in children if c.floor_range is not None]
    seq = max(c.seq_to for c in children)
    ordinal = next_rollup_ordinal(tx.graph, type_id, depth) + made_before
    rollup = tx.put_node(
        Node(
            id=node_id,
            type=type_id,
            level="semantic",
            title=f"{type_id} Summary L{depth} #{ordinal}",
            seq_to=seq,
            fields=freeze(merged),
            children_ids=tuple(c.id for c in children),
            semantic_rollup=True,
            semantic_depth=depth,
            floor_range=(min(r[0] for r in ranges), max(r[1] for r in ranges)) if ranges else None,
        )
    )
    tx.set_meta("seqCounter", max(tx.counter("seqCounter"), seq))
    for child in children:
        detach_from_parent(tx, child)
        tx.put_node(replace(tx.node(child.id) or child, parent_id=rollup.id))
        tx.put_edge(Edge(rollup.id, child.id, "contains"))
        tx.put_edge(Edge(rollup.id, child.id, "semantic_contains"))
    return rollup


def detach_from_parent(tx: Tx, child: Node) -> None:
    """Remove ``child`` from its current parent's children and drop that parent's hierarchy edges."""
    parent = tx.node(child.parent_id) if child.parent_id else None
    if parent is None:
        return
    tx.put_node(
        replace(parent, children_ids=tuple(c for c in parent.children_ids if c != child.id))
    )
    for relation in ("contains", "semantic_contains"):
        tx.remove_edge((parent.id, relation, child.id))

"""Luker's ``buildEdgeSummary``: degree, relation counts and sample neighbours of one node.

Small neighbourhoods are projected locally; a node standing for a big subtree (a top rollup), or
any node once a few dozen summaries were asked in one graph version, is read from a whole-graph
projection cached per visible set. Both give the same answer (a test checks it).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from memgraph_gui.core.domain.collation import key_function
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.domain.results import EdgeSummary, RelationCount, SampleNeighbor
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.topology import Projected, edges_in_order, nearest_visible, project


def members_of(graph: Graph, node: Node, visible: frozenset[str]) -> list[str]:
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


def local_edges(graph: Graph, member_ids: Iterable[str]) -> list[Edge]:
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
    edges = [] if cached is not None else local_edges(graph, members_of(graph, node, visible))
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

"""The per-node edge lists behind getNodeById / getNeighbors / the drill stay equal to a scan of
every edge, through any sequence of edge writes, whether built before the writes or after."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.domain.results import NeighborView
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.topology import incident_edges

IDS = ["a", "b", "c", "d"]
_pairs = st.sampled_from([(x, y) for x in IDS for y in IDS if x != y])
_ops = st.lists(
    st.tuples(st.sampled_from(["put", "drop"]), _pairs, st.sampled_from(["knows", "mentions"])),
    max_size=40,
)


def _scan(graph: Graph, node_id: str) -> list[Edge]:
    edges = list(graph.edges.values())
    return [e for e in edges if e.from_id == node_id] + [e for e in edges if e.to_id == node_id]


@settings(max_examples=80, deadline=None)
@given(ops=_ops, eager=st.booleans())
def test_edge_lists_equal_a_scan_through_writes(ops: list, eager: bool) -> None:
    graph = Graph()
    for node_id in IDS:
        graph.put_node(Node(node_id, "event"))
    graph.loaded_edges([Edge("a", "b", "knows", None, 1), Edge("c", "a", "knows", None, 2)])
    if eager:
        graph.index_edges()
    for serial, (op, (source, target), relation) in enumerate(ops, start=3):
        if op == "put":  # a new edge, or the same key written again with a new seqTo
            graph.put_edge(Edge(source, target, relation, serial, serial))
        else:
            graph.drop_edge((source, relation, target))
    for node_id in IDS:
        assert graph.edges_of(node_id) == _scan(graph, node_id)
        ordered = sorted(_scan(graph, node_id), key=lambda e: e.ord)
        assert incident_edges(graph, node_id) == ordered
    assert graph.edges_indexed


def test_a_node_without_edges_has_an_empty_list_that_stays_empty() -> None:
    graph = Graph()
    graph.put_node(Node("a", "event"))
    graph.index_edges()
    assert graph.edges_of("a") == [] and graph.edges_of("missing") == []
    graph.put_edge(Edge("b", "c", "knows"))
    assert graph.edges_of("a") == [] and graph.edges_of("b") == [Edge("b", "c", "knows")]


def test_neighbour_views_from_columns_equal_views_made_one_by_one() -> None:
    nodes = [Node("a", "event"), Node("b", "character_sheet")]
    built = NeighborView.from_columns(nodes, ["knows", "mentions"], ["out", "in"])
    assert built == (
        NeighborView(nodes[0], "knows", "out"),
        NeighborView(nodes[1], "mentions", "in"),
    )
    assert NeighborView.from_columns([], [], []) == ()
    with pytest.raises(ValueError, match="edge_type has 1 values, not 2"):
        NeighborView.from_columns(nodes, ["knows"], ["out", "in"])

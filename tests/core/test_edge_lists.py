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


def test_a_hubs_neighbours_stay_right_through_writes_and_archiving() -> None:
    """A hub's neighbour rows are kept between calls; every write to its edges, and archiving
    a neighbour, shows in the next answer exactly as the unkept (filtered) path computes it."""
    from memgraph_gui.core import MemoryStore

    with MemoryStore.open(":memory:") as store:
        w = store.write_api()
        hub = w.create_node(type="character_sheet", title="Hub")["id"]
        ids = [
            w.create_node(type="event", title=f"E{i}", fields={"summary": f"e{i}"})["id"]
            for i in range(300)
        ]
        links = [{"target": {"id": i}, "relation": "mentions"} for i in ids]
        w.upsert_links(source={"id": hub}, links=links)
        read = store.read_api()

        def both_paths() -> tuple[list, list]:
            raw = [(v.node.id, v.edge_type, v.direction) for v in read.get_neighbors(hub)]
            kinds = ["mentions", "knows", "related"]
            general = read.get_neighbors(hub, edge_types=kinds)  # the unkept path
            return raw, [(v.node.id, v.edge_type, v.direction) for v in general]

        raw, general = both_paths()
        assert raw == general and len(raw) == 600  # bidirectional: out and in rows
        knows = [{"target": {"id": hub}, "relation": "knows", "direction": "outgoing"}]
        writes = [
            lambda: w.upsert_links(source={"id": ids[0]}, links=knows),  # an edge into the hub
            lambda: w.delete_links(
                source={"id": hub}, target={"id": ids[1]}, relation="mentions", direction="outgoing"
            ),  # an edge out of the hub
            lambda: w.delete_node(id=ids[2]),  # archived: no longer a neighbour
            store.history.undo,  # the archive
            store.history.undo,  # the removed links
        ]
        sizes = [601, 600, 598, 600, 601]
        for write, size in zip(writes, sizes, strict=True):
            write()
            raw, general = both_paths()
            assert raw == general and len(raw) == size

"""getNeighbors, getNodeById's neighbour list and listEdges of one node, answered from the node's
edges held as columns, equal Luker's per-edge loop (restated below) through any sequence of node
and edge writes (the columns are kept in step between reads: new edges appended, removed ones
dropped, an edge back in its old place rebuilds them): relation case variants, both directions,
archived and missing neighbours, parents that appear later, cycles, purges, and projections onto
visible sets with repeats, blanks and unknown ids."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.domain.results import EdgeList, NeighborRefs, Neighbors, NeighborView
from memgraph_gui.core.graph import neighbors as neighbors_module
from memgraph_gui.core.graph import topology
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.neighbors import incident_edges_of, neighbor_refs, neighbors
from memgraph_gui.core.graph.structure_index import edges_of_kinds

IDS = ["a", "b", "c", "d", "e", "f"]
KINDS = ["knows", "KNOWS", "Mentions", "mentions", "contains"]
_id = st.sampled_from(IDS)
_node_op = st.tuples(st.just("node"), _id, st.sampled_from(["", *IDS, " a ", "zz"]), st.booleans())
_drop_node = st.tuples(st.just("drop_node"), _id)
_edge_op = st.tuples(st.sampled_from(["edge", "drop_edge"]), _id, _id, st.sampled_from(KINDS))
_readd = st.tuples(st.just("readd"), st.integers(0, 20))  # an undone removal: its old place
_query = st.tuples(
    st.just("query"),
    _id,
    st.one_of(st.none(), st.frozensets(st.sampled_from(["knows", "mentions", "contains"]))),
    st.sampled_from(["both", "in", "out"]),
    st.one_of(st.none(), st.lists(st.sampled_from([*IDS, "", "nope", " b"]), max_size=6)),
)
_ops = st.lists(st.one_of(_node_op, _drop_node, _edge_op, _readd, _query), max_size=40)


def _nearest(graph: Graph, node_id: str, visible: set[str]) -> str:
    """Luker's getNearestVisibleAncestorId."""
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


def _luker(
    graph: Graph, source: str, relations: Any, way: str, visible: list[str] | None
) -> list[tuple[str, str, str]]:
    """Luker's getNeighbors: every edge in store order, projected, filtered, deduplicated."""
    allowed = None if visible is None else {v.strip() for v in visible} - {""}
    out, seen = [], set()
    for edge in sorted(graph.edges.values(), key=lambda e: e.ord):
        kind = edge.type.lower()
        if relations is not None and kind not in relations:
            continue
        if edge.from_id == source:
            other, direction = edge.to_id, "out"
        elif edge.to_id == source:
            other, direction = edge.from_id, "in"
        else:
            continue
        if way not in ("both", direction):
            continue
        if allowed is not None:
            other = _nearest(graph, other, allowed)
            if not other:
                continue
        node = graph.nodes.get(other)
        if node is None or node.archived or (other, kind, direction) in seen:
            continue
        seen.add((other, kind, direction))
        out.append((other, kind, direction))
    return out


def _refs(graph: Graph, source: str) -> list[dict[str, str]]:
    edges = sorted(graph.edges.values(), key=lambda e: e.ord)
    return [
        {"id": e.to_id if e.from_id == source else e.from_id, "edgeType": e.type}
        for e in edges
        if source in (e.from_id, e.to_id)
    ]


def _check(graph: Graph, source: str, relations: Any, way: str, visible: Any) -> None:
    got = neighbors(graph, source, relations, way, visible)
    assert [(v.node.id, v.edge_type, v.direction) for v in got] == _luker(
        graph, source, relations, way, visible
    )
    for view in got:
        assert view.node is graph.nodes[view.node.id]
    assert neighbor_refs(graph, source) == _refs(graph, source)
    ordered = sorted(graph.edges.values(), key=lambda e: e.ord)
    for internal in (True, False):  # listEdges' type filters over every edge
        picked = [
            topology.edges_in_order(graph)[i] for i in edges_of_kinds(graph, relations, internal)
        ]
        assert picked == [
            e
            for e in ordered
            if (relations is None or e.type.lower() in relations) and not (internal and e.internal)
        ]
    for outgoing in (True, False):
        mine = incident_edges_of(graph, source, outgoing=outgoing, relations=relations)
        assert list(mine) == [
            e
            for e in ordered
            if (e.from_id if outgoing else e.to_id) == source
            and (relations is None or e.type.lower() in relations)
        ]


@settings(max_examples=150, deadline=None)
@given(ops=_ops)
def test_columns_equal_lukers_loop_through_writes(ops: list) -> None:
    """Both when every node's columns are kept between calls (as a hub's are) and when each
    call makes them anew; visible ids looked up among every node's or the neighbours' ways up."""
    for kept_from, share in ((0, 0), (neighbors_module.KEPT_FROM, neighbors_module.NEAR_SHARE)):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(neighbors_module, "KEPT_FROM", kept_from)
            patch.setattr(neighbors_module, "NEAR_SHARE", share)  # 0: every visible set is read
            _run(ops)  # against the neighbours' ways up (a long one always is)


def _run(ops: list) -> None:
    graph = Graph()
    for node_id in IDS[:3]:
        graph.put_node(Node(node_id, "event", ord=len(graph.nodes)))
    graph.loaded_edges([Edge("a", "b", "knows", None, 1), Edge("c", "a", "Mentions", None, 2)])
    serial, dropped = 3, []
    for op in ops:
        if op[0] == "node":
            _, node_id, parent, archived = op
            graph.put_node(Node(node_id, "event", parent_id=parent, archived=archived))
        elif op[0] == "drop_node":
            graph.drop_node(op[1])
        elif op[0] == "edge" and op[1] != op[2]:
            serial += 1
            graph.put_edge(Edge(op[1], op[2], op[3], None, serial))
        elif op[0] == "drop_edge" and (op[1], op[3], op[2]) in graph.edges:
            dropped.append(graph.edges[(op[1], op[3], op[2])])
            graph.drop_edge((op[1], op[3], op[2]))
        elif op[0] == "readd" and dropped:
            edge = dropped.pop(op[1] % len(dropped))
            if edge.key not in graph.edges:
                graph.put_edge(edge)
        elif op[0] == "query":
            _check(graph, *op[1:])
    for source in IDS:
        _check(graph, source, None, "both", None)
        _check(graph, source, None, "both", list(IDS[::2]))


def test_a_node_without_edges_or_unknown_has_no_neighbours() -> None:
    graph = Graph()
    graph.put_node(Node("a", "event"))
    assert neighbors(graph, "a", None, "both", None) == ()
    assert neighbors(graph, "zz", None, "both", ["a"]) == []
    assert neighbor_refs(graph, "zz") == []


def test_views_read_alike_by_index_slice_iteration_and_json() -> None:
    nodes = (Node("a", "event"), Node("b", "event"), Node("c", "event"))
    views = Neighbors(nodes, ("knows", "mentions", "knows"), ("out", "in", "in"))
    made = tuple(NeighborView(n, k, d) for n, k, d in zip(nodes, *views._columns[1:], strict=True))
    assert tuple(views) == made and views == made and views == list(made)
    assert views[1] == made[1] and views[-1] == made[-1] and views[1:] == made[1:]
    assert views.to_json() == [v.to_json() for v in made]
    assert views == Neighbors(nodes, *views._columns[1:])
    with pytest.raises(ValueError, match="differ in length"):
        Neighbors(nodes, ("knows",), ("out",))
    refs = NeighborRefs(("a", "b"), ("knows", "Mentions"))
    as_list = [{"id": "a", "edgeType": "knows"}, {"id": "b", "edgeType": "Mentions"}]
    assert refs == as_list and list(refs) == as_list and refs.to_json() == as_list
    assert refs[1] == as_list[1] and refs[:1] == as_list[:1] and len(refs) == 2
    refs[0]["id"] = "changed"  # each item read is the caller's own
    assert refs[0]["id"] == "a" and refs[-1] == as_list[-1]
    with pytest.raises(IndexError):
        refs[2]


def test_a_hubs_answer_stays_as_it_was_while_its_edges_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """getNodeById's neighbours share the hub's growing columns without a copy: an answer keeps
    its own length through later edges, and a removal leaves it whole."""
    monkeypatch.setattr(neighbors_module, "KEPT_FROM", 0)
    graph = Graph()
    for node_id in IDS:
        graph.put_node(Node(node_id, "event"))
    graph.put_edge(Edge("a", "b", "knows", None, 1))
    first = neighbor_refs(graph, "a")
    graph.put_edge(Edge("c", "a", "knows", None, 2))
    second = neighbor_refs(graph, "a")
    graph.drop_edge(("a", "knows", "b"))
    third = neighbor_refs(graph, "a")
    assert first == [{"id": "b", "edgeType": "knows"}]
    assert second == [{"id": "b", "edgeType": "knows"}, {"id": "c", "edgeType": "knows"}]
    assert third == [{"id": "c", "edgeType": "knows"}]
    assert neighbors(graph, "a", None, "both", None)[0].node.id == "c"


def test_edge_lists_read_alike_and_stay_as_they_were(monkeypatch: pytest.MonkeyPatch) -> None:
    """listEdges' answer is a view over a hub's edges (or the store-order list): indexing,
    slices, iteration, equality and JSON read as the tuple it stands for, and an answer keeps
    its edges while more are added and others removed."""
    import numpy as np

    edges = [Edge("a", "b", "knows", None, 1), Edge("c", "a", "Knows", None, 2)]
    picked = EdgeList(edges, np.array([1]))
    assert picked == (edges[1],) and picked == [edges[1]] and picked[-1] is edges[1]
    assert EdgeList(edges) == tuple(edges) and EdgeList(edges, count=1)[:] == (edges[0],)
    assert EdgeList(edges).to_json() == [e.to_json() for e in edges] and len(picked) == 1
    with pytest.raises(IndexError):
        picked[1]
    monkeypatch.setattr(neighbors_module, "KEPT_FROM", 0)
    graph = Graph()
    for node_id in IDS:
        graph.put_node(Node(node_id, "event"))
    graph.put_edge(edges[0])
    graph.put_edge(edges[1])
    into = incident_edges_of(graph, "a", outgoing=False, relations=None)
    graph.put_edge(Edge("d", "a", "knows", None, 3))
    graph.drop_edge(edges[1].key)
    assert into == (edges[1],)
    assert incident_edges_of(graph, "a", outgoing=False, relations=None) == (
        Edge("d", "a", "knows", None, 3),
    )


@pytest.mark.parametrize("share", [0, 4])
def test_a_visible_id_with_spaces_counts_trimmed_unless_it_names_a_node_as_it_is(
    share: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whichever way the caller's ids are looked up (among the neighbours' ways up, or among
    every node's: ``NEAR_SHARE``), and however many unknown ids come with them."""
    monkeypatch.setattr(neighbors_module, "NEAR_SHARE", share)
    graph = Graph()
    for node_id, parent in (("top", ""), ("b", "top"), (" c", "top"), ("c", "top"), ("hub", "")):
        graph.put_node(Node(node_id, "event", parent_id=parent))
    graph.loaded_edges([Edge("hub", other, "knows", None, at) for at, other in enumerate("bc")])
    graph.loaded_edges([Edge("hub", " c", "knows", None, 3)])
    padding = [f"unknown {i}" for i in range(40)]
    for visible, expected in (
        ([" b", *padding], ["b"]),  # " b" names no node: it counts as "b"
        ([" c", *padding], [" c"]),  # " c" is a node of its own: not trimmed
        (["top", " top", *padding], ["top"]),
    ):
        got = [view.node.id for view in neighbors(graph, "hub", None, "both", visible)]
        assert got == expected, visible
    with pytest.raises(neighbors_module.NotIds):
        neighbors(graph, "hub", None, "both", [*padding, 7])

"""The structure arrays grow in place at their end (``Growing``): a turn's new nodes and edges cost
what they add, not a copy of every column; and a snapshot handed out before keeps exactly what it
had, whatever is appended, removed, undone or purged after it."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.structure_index import Growing, StructureIndex, graph_arrays

IDS = [f"n{i}" for i in range(12)]
_op = st.one_of(
    st.tuples(st.just("node"), st.sampled_from(IDS), st.sampled_from(["", *IDS]), st.booleans()),
    st.tuples(st.just("edge"), st.sampled_from(IDS), st.sampled_from(IDS), st.sampled_from("ab")),
    st.tuples(st.just("drop_edge"), st.integers(0, 50)),
    st.tuples(st.just("readd"), st.integers(0, 50)),
    st.tuples(
        st.just("purge_newest"),
    ),
    st.tuples(
        st.just("look"),
    ),
)


def _plain(arrays: Any) -> dict[str, list[Any]]:
    """Every column of a snapshot as plain lists (ids for slots)."""
    ids = arrays.ids.tolist()
    return {
        "ids": ids,
        "nodes": [None if n is None else n.id for n in arrays.nodes.tolist()],
        "parent": [ids[p] if p >= 0 else None for p in arrays.parent.tolist()],
        "archived": arrays.archived.tolist(),
        "edges": [
            (o, ids[s] if s >= 0 else None, ids[d] if d >= 0 else None, arrays.kinds[k])
            for o, s, d, k in zip(
                arrays.ord.tolist(),
                arrays.src.tolist(),
                arrays.dst.tolist(),
                arrays.kind.tolist(),
                strict=True,
            )
        ],
    }


def _same(kept: Any, fresh: Any) -> None:
    a, b = _plain(kept), _plain(fresh)
    at = {i: k for k, i in enumerate(b["ids"])}
    assert sorted(a["ids"]) == sorted(b["ids"])
    for name in ("parent", "archived"):
        assert {i: a[name][k] for k, i in enumerate(a["ids"])} == {
            i: b[name][at[i]] for i in b["ids"]
        }, name
    assert a["edges"] == b["edges"]


@settings(max_examples=200, deadline=None)
@given(ops=st.lists(_op, max_size=40))
def test_kept_arrays_equal_fresh_ones_and_old_snapshots_never_change(ops: list[Any]) -> None:
    graph = Graph()
    graph.put_node(Node("n0", "event", ord=0))
    serial, dropped, made = 0, [], ["n0"]
    handed: list[tuple[Any, dict[str, list[Any]]]] = []
    for op in ops:
        if op[0] == "node":
            _, node_id, parent, archived = op
            if node_id not in graph.nodes:
                made.append(node_id)
            graph.put_node(Node(node_id, "event", parent_id=parent, archived=archived))
        elif op[0] == "edge" and op[1] != op[2]:
            serial += 1
            graph.put_edge(Edge(op[1], op[2], op[3], None, serial))
        elif op[0] == "drop_edge" and graph.edges:
            edge = sorted(graph.edges.values(), key=lambda e: e.ord)[op[1] % len(graph.edges)]
            dropped.append(edge)
            graph.drop_edge(edge.key)
        elif op[0] == "readd" and dropped:
            edge = dropped.pop(op[1] % len(dropped))
            if edge.key not in graph.edges:
                graph.put_edge(edge)
        elif op[0] == "purge_newest" and len(made) > 1:
            newest = made.pop()
            for key in [k for k, e in graph.edges.items() if newest in (e.from_id, e.to_id)]:
                graph.drop_edge(key)
            graph.drop_node(newest)
        elif op[0] == "look":
            arrays = graph_arrays(graph)
            handed.append((arrays, _plain(arrays)))
    kept = graph_arrays(graph)
    _same(kept, StructureIndex(graph).arrays())
    for arrays, then in handed:
        assert _plain(arrays) == then  # nothing it held was written again


def test_growing_writes_only_past_the_views_it_handed_out() -> None:
    column = Growing(np.arange(3, dtype=np.int64))
    first = column.extend(np.array([3], dtype=np.int64))
    second = column.extend(np.array([4, 5], dtype=np.int64))
    third = column.extend(np.arange(6, 200, dtype=np.int64))  # past the room: a new buffer
    assert first.tolist() == [0, 1, 2, 3] and second.tolist() == [0, 1, 2, 3, 4, 5]
    assert third.tolist() == list(range(200)) and np.shares_memory(first, second)
    names = Growing(np.array(["a"], dtype=np.object_))
    assert names.extend(["b", "c"]).tolist() == ["a", "b", "c"]

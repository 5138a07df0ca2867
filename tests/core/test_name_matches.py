"""``findByName``'s answer is a view (``NodeRows``) over the name index's blocks, put in
timeline order by row orders alone: it must be exactly the answer of the plain computation it
replaced (restated below as the oracle), and behave as the tuple of those nodes."""

from __future__ import annotations

from itertools import chain
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.domain.results import NameMatches, NodeRows
from memgraph_gui.core.graph import search, timeline_order
from memgraph_gui.core.graph.graph import Graph

SCHEMA = [
    {"id": "person", "tableColumns": ["name", "role"], "primaryKeyColumns": ["name"]},
    {"id": "place", "tableColumns": ["label"], "primaryKeyColumns": ["label"]},
    {"id": "event", "tableColumns": ["summary"], "primaryKeyColumns": []},
]
TYPES = ["person", "Place", "event", "recall_trace", "unknown"]
LETTERS = st.sampled_from(["a", "b", "A", "e", " ", "\x00", "é", "艾", "😀"])
TEXT = st.text(LETTERS, max_size=5)


def oracle(graph: Graph, query: str, types: frozenset[str] | None) -> list[Node]:
    """The answer as it was computed before the view: every hit of the name index as a list
    (blocks in order, each haystack tested on its own), filtered by type, then
    ``in_timeline_order`` over the hit nodes and their row orders."""
    needle = query.strip().lower().replace("\x00", "")
    if not needle:
        return []
    index = search._name_index(graph)
    index.refresh()
    hits = [
        node
        for number in sorted(index._blocks)
        for node, text in zip(index._blocks[number].nodes, index._blocks[number].texts, strict=True)
        if needle in text
    ]
    if types is not None:
        hits = [node for node in hits if node.type.lower() in types]
    ords = np.array([node.ord for node in hits], np.int64)
    return timeline_order.in_timeline_order(graph, hits, ords)


node_specs = st.lists(
    st.tuples(
        st.sampled_from(["n1", "n2", "N3", "x", "艾琳", "é", "b", "a\x01", "a", "a\x02"]),
        st.sampled_from(TYPES),
        TEXT,  # title
        TEXT,  # the key column's value
        st.integers(0, 3),  # seq_to
        st.booleans(),  # archived
        st.integers(0, 2_000),  # ord
    ),
    max_size=40,
)


def build(specs: list[tuple[str, str, str, str, int, bool, int]], suffix: int) -> Graph:
    graph = Graph()
    graph.set_meta("schema", SCHEMA)
    used: set[int] = set()
    for at, (base, kind, title, key, seq, archived, wanted) in enumerate(specs):
        ord_ = min(set(range(wanted, wanted + len(specs) + 1)) - used)  # distinct, as in a file
        used.add(ord_)
        fields = {"name": key, "label": key, "summary": key, "role": title}
        node_id = f"{base}{at % suffix}" if suffix else base
        graph.put_node(
            Node(
                id=node_id,
                type=kind,
                title=title,
                seq_to=seq,
                fields=fields,
                archived=archived,
                ord=ord_,
            )
        )
    return graph


@pytest.mark.parametrize("few", [0, 3, timeline_order.FEW])
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)  # (the fixture only sets FEW, the same value for every example)
@given(
    specs=node_specs,
    suffix=st.integers(0, 5),
    queries=st.lists(st.tuples(TEXT, st.sampled_from([None, "person", "place,event"]))),
    edits=node_specs,
)
def test_find_by_name_is_the_oracle(
    few: int,
    specs: list[Any],
    suffix: int,
    queries: list[tuple[str, str | None]],
    edits: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(timeline_order, "FEW", few)
    graph = build(specs, suffix)
    asked = [(q, None if t is None else frozenset(t.split(","))) for q, t in queries]
    asked += [(letter, None) for letter in ("a", "e", "A ", "艾", "😀")]

    def check() -> None:
        for query, types in asked:
            found = search.find_by_name(graph, query, types)
            expected = oracle(graph, query, types)
            assert list(found) == expected, (query, types)
            assert found == expected and found == tuple(expected) and len(found) == len(expected)
            assert [found[i] for i in range(-len(found), len(found))] == expected * 2
            assert NameMatches(found).to_json() == {"matches": [n.to_json() for n in expected]}

    check()
    for base, kind, title, key, seq, archived, ord_ in edits:  # writes: blocks rebuilt
        node = Node(id=base, type=kind, title=title, seq_to=seq, fields={"name": key}, ord=ord_)
        if archived and base in graph.nodes:
            graph.drop_node(base)
        elif base not in graph.nodes and ord_ not in {n.ord for n in graph.nodes.values()}:
            graph.put_node(node)
    check()


def as_rows(
    parts: list[list[int]], picks: list[int]
) -> tuple[NodeRows, NodeRows, tuple[Node, ...]]:
    """Two views over node lists made from ``parts`` and the tuple they stand for."""
    lists = [[Node(id=f"n{v}", type="t", title=str(v)) for v in part] for part in parts]
    flat = list(chain.from_iterable(lists))
    rows = np.array([p % len(flat) for p in picks] if flat else [], np.int64)
    plain = tuple(flat[r] for r in rows.tolist())
    return NodeRows(lists, rows), NodeRows(lists, rows.copy()), plain


def hashed(value: object) -> object:
    try:
        return hash(value)
    except TypeError as error:
        return str(error)


@settings(max_examples=200, deadline=None)
@given(
    parts=st.lists(st.lists(st.integers(0, 9), max_size=4), max_size=5),
    picks=st.lists(st.integers(0, 50), max_size=12),
    probe=st.integers(-15, 15),
    window=st.tuples(st.none() | st.integers(-8, 8), st.none() | st.integers(-8, 8)),
    step=st.sampled_from([None, 1, 2, -1, -3]),
)
def test_node_rows_behave_as_the_tuple(
    parts: list[list[int]],
    picks: list[int],
    probe: int,
    window: tuple[int | None, int | None],
    step: int | None,
) -> None:
    view, fresh, plain = as_rows(parts, picks)  # fresh: nothing gathered, read item by item
    assert len(view) == len(plain) and bool(view) == bool(plain)
    if -len(plain) <= probe < len(plain):
        assert fresh[probe] is plain[probe]
    else:
        with pytest.raises(IndexError):
            fresh[probe]
    assert view[slice(*window, step)] == plain[slice(*window, step)]
    assert isinstance(view[slice(*window, step)], tuple)
    assert tuple(view) == plain and list(reversed(view)) == list(reversed(plain))
    assert view == plain and view == list(plain) and view == fresh and plain == view
    assert view != (*plain, Node(id="other", type="t"))
    assert hashed(view) == hashed(plain)  # (a node with fields is unhashable: so is the tuple)
    for node in plain[:3]:
        assert node in view and view.index(node) == plain.index(node)
        assert view.count(node) == plain.count(node)
    assert Node(id="other", type="t") not in view
    assert view.to_json() == [n.to_json() for n in plain]
    whole = NodeRows([list(plain)])
    assert whole == plain and len(whole) == len(plain) and NodeRows.of(plain) == plain


def test_node_rows_refuse_rows_past_their_parts() -> None:
    nodes = [Node(id="a", type="t"), Node(id="b", type="t")]
    with pytest.raises(ValueError, match="past"):
        NodeRows([nodes], np.array([0, 2], np.int64))
    with pytest.raises(ValueError, match="past"):
        NodeRows([nodes], np.array([-1], np.int64))
    assert NodeRows() == () and NodeRows() == [] and len(NodeRows([[], []])) == 0
    assert NodeRows([[], nodes], np.array([1, 0], np.int64))[0].id == "b"


def _titled(ord_: int, title: str) -> Node:
    return Node(id=f"n{ord_}", type="t", title=title, ord=ord_)


@settings(max_examples=100, deadline=None)
@given(
    titles=st.lists(TEXT, min_size=1, max_size=30),
    spread=st.integers(1, 40),
    edits=st.lists(st.tuples(st.integers(0, 40), st.none() | TEXT), max_size=20),
    needles=st.lists(st.text(LETTERS, min_size=1, max_size=3), min_size=1, max_size=6),
)
def test_index_hits_are_its_matches(
    titles: list[str], spread: int, edits: list[tuple[int, str | None]], needles: list[str]
) -> None:
    """``SubstringIndex.hits`` holds what ``matches`` lists (nodes and row orders), across
    blocks (``spread`` puts the nodes that far apart) and after writes."""
    from memgraph_gui.core.graph.substring_index import SubstringIndex

    nodes = {i * spread * 37: _titled(i * spread * 37, t) for i, t in enumerate(titles)}
    index = SubstringIndex(list(nodes.values()), lambda ns: [n.title for n in ns])
    if spread % 2:
        index.prepare_masks()  # (what warm_up does; else the first one-letter needle does it)

    def check() -> None:
        for needle in needles:
            hits = index.hits(needle)
            expected = list(index.matches(needle))
            assert list(NodeRows(hits.parts, hits.rows, hits.starts)) == expected
            assert hits.ords.tolist() == [n.ord for n in expected]
            assert len(hits.starts) == len(hits.parts) + 1

    check()
    for at, title in edits:
        ord_ = at * spread * 37
        old = nodes.pop(ord_, None)
        if title is not None:
            nodes[ord_] = _titled(ord_, title)
        index.node_changed(old, nodes.get(ord_))
        if at % 2:
            check()
    check()

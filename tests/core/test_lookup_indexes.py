"""The lookup indexes behind findByName and searchNodesLexical answer exactly what a plain scan
answers: after a load, writes, undo and redo, a schema change, and another process's commits."""

from __future__ import annotations

import json
from typing import Any

import pytest
from graph_builders import load_store
from graph_builders import node as stored_node
from hypothesis import given, settings
from hypothesis import strategies as st
from processes import memgraph

from memgraph_gui.core import MemoryStore, external
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.domain.text import js_string
from memgraph_gui.core.graph import search, timeline_order
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.substring_index import SubstringIndex
from memgraph_gui.core.graph.topology import is_recall_diagnostic

QUERIES = [
    "eileen",
    "Kain",
    "银月城",
    "艾琳",
    "secret deal",
    "a",
    "e ",
    "zzz-not-there",
    "qz",
    "Summary 1",
    "x\x00y",
    "quokka",
]


def plain_find_by_name(store: MemoryStore, query: str, types: Any = None) -> list[str]:
    """``findByName`` as one pass over the timeline (what the index must reproduce)."""
    needle = query.strip().lower().replace("\x00", "")
    if not needle:
        return []
    with store.reading() as graph:
        out = []
        for node_id in graph.timeline_ids():
            node = graph.nodes[node_id]
            if node.archived or is_recall_diagnostic(node):
                continue
            if types is not None and node.type.lower() not in types:
                continue
            spec = graph.schema.get(node.type.lower())
            parts = [node.title.lower()]
            for column in spec.primary_key if spec else ():
                if node.fields.get(column):
                    parts.append(js_string(node.fields[column]).lower())
            if needle in "\x00".join(parts):
                out.append(node_id)
        return out


def plain_lexical(store: MemoryStore, query: str, limit: int = 5) -> list[str]:
    """``searchNodesLexical`` as one pass over the nodes in store order."""
    needle = query.lower()
    if not query.strip():
        return []
    with store.reading() as graph:
        ordered = sorted(graph.nodes.values(), key=lambda n: n.ord)
        hits = [
            n.id for n in ordered if not n.archived and needle in search.lexical_text(n).lower()
        ]
        return hits[:limit]


def assert_exact(store: MemoryStore) -> None:
    read = store.read_api()
    for query in QUERIES:
        for types in (None, frozenset({"character_sheet"}), frozenset({"event", "thread"})):
            found = [n.id for n in read.find_by_name(query=query, types=types).matches]
            assert found == plain_find_by_name(store, query, types), (query, types)
        for limit in (5, 100_000):
            result = external.search_nodes_lexical(store, query, {"limit": limit})
            assert [i["id"] for i in result["nodes"]] == plain_lexical(store, query, limit), query


def test_indexes_match_a_plain_scan_through_writes_undo_and_redo(file_store: MemoryStore) -> None:
    load_demo(file_store, 900, seed=13)
    assert_exact(file_store)  # builds both indexes
    write, read = file_store.write_api(), file_store.read_api()
    person = read.find_by_name(query="eileen").matches[0].id
    write.edit_node(id=person, title="Quokka Keeper", set_fields={"aliases": ["艾琳 X"]})
    new = write.create_node(type="character_sheet", title="Eileen Quokka")["id"]
    event = read.list_nodes(types=["event"])[5].id
    write.edit_node(id=event, set_fields={"summary": "the quokka signs a secret deal"})
    write.delete_node(id=read.find_by_name(query="kain").matches[0].id)
    assert_exact(file_store)
    assert new in [n.id for n in read.find_by_name(query="quokka").matches]
    assert person not in [n.id for n in read.find_by_name(query="eileen").matches]
    for _ in range(4):
        file_store.history.undo()
        assert_exact(file_store)
    assert read.find_by_name(query="quokka").matches == ()
    for _ in range(4):
        file_store.history.redo()
    assert_exact(file_store)
    assert new in [n.id for n in read.find_by_name(query="quokka").matches]


def test_a_schema_change_rebuilds_the_name_haystacks(file_store: MemoryStore) -> None:
    load_demo(file_store, 300, seed=2)
    read = file_store.read_api()
    alias = next(
        js_string(n.fields["aliases"])
        for n in read.list_nodes(types=["character_sheet"])
        if n.fields.get("aliases")
    ).split(",")[0]
    assert read.find_by_name(query=alias).matches  # an alias is a primary-key column
    types = read.get_schema().to_json()["types"]
    for spec in types:
        spec["primaryKeyColumns"] = [c for c in spec["primaryKeyColumns"] if c != "aliases"]
    file_store.write_api().set_schema(types)
    assert_exact(file_store)
    assert all(alias.lower() in n.title.lower() for n in read.find_by_name(query=alias).matches)
    file_store.history.undo()
    assert read.find_by_name(query=alias).matches
    assert_exact(file_store)


def test_another_process_commits_reach_the_indexes(file_store: MemoryStore) -> None:
    load_demo(file_store, 400, seed=4)
    assert_exact(file_store)  # both indexes built before the other process writes
    read = file_store.read_api()
    renamed = read.find_by_name(query="eileen").matches[0].id
    archived = read.list_nodes(types=["thread"])[0]
    calls = [
        ("createNode", {"type": "character_sheet", "title": "Zed Quokka", "fields": {}}),
        ("editNode", {"id": renamed, "title": "Quokka Renamed"}),
        ("deleteNode", {"id": archived.id}),
    ]
    for method, options in calls:
        done = memgraph("--db", file_store.path, "call", method, json.dumps([options]))
        assert done.returncode == 0, done.stderr
    found = [n.id for n in read.find_by_name(query="quokka").matches]
    assert renamed in found and len(found) == 2
    assert archived.id not in [n.id for n in read.find_by_name(query=archived.title).matches]
    lexical = [i["id"] for i in external.search_nodes_lexical(file_store, "quokka")["nodes"]]
    assert renamed in lexical and len(lexical) == 2
    assert_exact(file_store)
    with MemoryStore.open(file_store.path, create=False) as fresh:
        assert [n.id for n in fresh.read_api().find_by_name(query="quokka").matches] == found


def test_a_hit_never_spans_two_haystacks(store: MemoryStore) -> None:
    load_store(
        store,
        [
            stored_node("n1", "character_sheet", title="abc"),
            stored_node("n2", "character_sheet", title="def"),
        ],
    )
    read = store.read_api()
    assert external.search_nodes_lexical(store, "c\x00d") == {"nodes": []}
    assert read.find_by_name(query="c\x00d").matches == ()  # the NUL is dropped: "cd"
    assert [n.id for n in read.find_by_name(query="bc").matches] == ["n1"]


# -- the substring index on its own ------------------------------------------------------------

ALPHABET = st.sampled_from(["a", "b", "A", " ", "\x00", "é", "艾", "琳", "😀", "\ud800"])


def _node(ord_: int, title: str) -> Node:
    return Node(id=f"n{ord_}", type="t", title=title, ord=ord_)


def title_texts(nodes: list[Node]) -> list[str]:
    return [n.title for n in nodes]


@settings(max_examples=60, deadline=None)
@given(
    titles=st.lists(st.text(ALPHABET, max_size=6), min_size=1, max_size=40),
    edits=st.lists(
        st.tuples(
            st.one_of(st.integers(0, 40).map(lambda i: i * 17), st.integers(0, 2_000)),
            st.one_of(st.none(), st.text(ALPHABET, max_size=6)),
        ),
        max_size=30,
    ),
    needles=st.lists(st.text(ALPHABET, min_size=1, max_size=4), min_size=1, max_size=8),
)
def test_substring_index_equals_a_scan(
    titles: list[str], edits: list[tuple[int, str | None]], needles: list[str]
) -> None:
    nodes = {i * 17: _node(i * 17, t) for i, t in enumerate(titles)}  # spread over blocks
    index = SubstringIndex(list(nodes.values()), title_texts)

    def check() -> None:
        for needle in needles:
            expected = [n for o, n in sorted(nodes.items()) if needle in n.title]
            assert list(index.matches(needle)) == expected, needle

    check()
    for ord_, title in edits:
        old = nodes.get(ord_)
        if title is None:
            nodes.pop(ord_, None)
            if old is not None:
                index.node_changed(old, None)
        else:
            nodes[ord_] = _node(ord_, title)
            index.node_changed(old, nodes[ord_])
        if ord_ % 3 == 0:
            check()  # some changes are seen one by one, others pile up
    check()


def test_substring_index_refuses_an_empty_needle() -> None:
    index = SubstringIndex([_node(1, "a")], title_texts)
    with pytest.raises(ValueError, match="empty"):
        list(index.matches(""))


def test_fields_are_parsed_together_and_damaged_text_is_left_to_the_node() -> None:
    from memgraph_gui.core.domain.freeze import LazyFields, freeze

    def with_fields(text: str) -> Node:
        return Node(id="n", type="t", fields=LazyFields(text))

    good = [with_fields('{"a": [1, {"b": null}], "s": "艾"}'), with_fields("{}")]
    frozen = Node(id="f", type="t", fields=freeze({"a": 2}))
    maps = search.field_maps([*good, frozen])
    assert maps[:2] == [{"a": [1, {"b": None}], "s": "艾"}, {}] and maps[2] is frozen.fields
    for texts in (['{"a": 1}', '{"a":'], ['{"a": 1}, {"b": 2}', '{"c": 3}'], ['{"a": 1}', "[1]"]):
        nodes = [with_fields(t) for t in texts]
        assert [m is n.fields for m, n in zip(search.field_maps(nodes), nodes, strict=True)] == [
            True,
            True,
        ]


# -- timeline order of a few hits --------------------------------------------------------------


def _graph(specs: list[tuple[str, int]]) -> Graph:
    graph = Graph()
    for ord_, (node_id, seq) in enumerate(specs, start=1):
        graph.put_node(Node(id=node_id, type="t", seq_to=seq, ord=ord_))
    return graph


@pytest.mark.parametrize("few", [0, timeline_order.FEW])
@pytest.mark.parametrize(
    "specs",
    [
        [("n_10", 1), ("n_9", 1), ("B", 2), ("a", 2), ("_x", 1), ("Z", 0)],
        [("n_10", 1), ("艾琳", 1), ("B", 2), ("a", 2), ("é", 1), ("e", 1), ("Z", 0)],
        [("a\x01", 1), ("b", 1), ("a", 1), ("a\x02", 1), ("c", 0)],  # ids that collate equal
    ],
)
def test_hits_come_in_timeline_order(
    specs: list[tuple[str, int]], few: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timeline_order, "FEW", few)
    graph = _graph(specs)
    everything = list(graph.nodes.values())
    for start in range(len(everything)):
        subset = everything[start:] + everything[: start // 2]
        chosen = {n.id for n in subset}
        expected = [i for i in graph.timeline_ids() if i in chosen]
        assert [n.id for n in timeline_order.in_timeline_order(graph, subset)] == expected


def test_order_follows_new_ids_and_seq_changes() -> None:
    graph = _graph([("b", 1), ("a", 2), ("c", 3)])
    nodes = list(graph.nodes.values())
    assert [n.id for n in timeline_order.in_timeline_order(graph, nodes)] == ["b", "a", "c"]
    counts = graph.index("timeline_order", lambda: timeline_order.TimelineOrder([]))
    assert counts.non_ascii == 0
    graph.put_node(Node(id="艾", type="t", seq_to=1, ord=9))  # now every key is a UCA key
    graph.put_node(Node(id="a", type="t", seq_to=0, ord=2))
    assert counts.non_ascii == 1
    nodes = list(graph.nodes.values())
    expected = graph.timeline_ids()
    assert [n.id for n in timeline_order.in_timeline_order(graph, nodes)] == expected
    graph.put_node(Node(id="艾", type="t", seq_to=4, ord=9))
    graph.drop_node("艾")
    assert counts.non_ascii == 0
    nodes = list(graph.nodes.values())
    assert [n.id for n in timeline_order.in_timeline_order(graph, nodes)] == ["a", "b", "c"]


def test_rank_order_survives_nodes_sharing_a_row_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timeline_order, "FEW", 0)
    graph = Graph()
    for node_id, seq in (("x", 2), ("y", 1), ("z", 3)):
        graph.put_node(Node(id=node_id, type="t", seq_to=seq, ord=7))
    nodes = list(graph.nodes.values())
    assert [n.id for n in timeline_order.in_timeline_order(graph, nodes)] == ["y", "x", "z"]


# -- id arrays ---------------------------------------------------------------------------------


def test_id_sets_read_alike_in_the_fast_and_the_general_path() -> None:
    from memgraph_gui.core.domain.errors import MemgraphError
    from memgraph_gui.core.luker import args

    class Tagged(str):
        pass

    assert args.id_set([" a ", "b", "", "  ", "a"], "x") == {"a", "b"}
    assert args.id_set([" a ", None, 7, "", "b"], "x") == {"a", "7", "b"}
    assert args.id_set((Tagged(" t "), "u"), "x") == {"t", "u"}
    assert args.id_set({"a", " b"}, "x") == {"a", "b"}
    assert args.id_set((i for i in ["g", " h"]), "x") == {"g", "h"}
    assert args.id_set(["", " "], "x") == frozenset()
    for bad in (["a", True], ["a", 1.5], ["a", {"id": 1}], "ab", 5):
        with pytest.raises(MemgraphError) as caught:
            args.id_set(bad, "projectTo")
        assert caught.value.code == "BAD_ARGS" and "projectTo" in str(caught.value)


def test_warm_up_builds_the_lazy_indexes_and_answers_stay_the_same(demo_store) -> None:  # type: ignore[no-untyped-def]
    """``warm_up`` (done by ``memgraph call -`` before serving) builds what first calls would."""
    from memgraph_gui.core import MemoryStore, external

    with MemoryStore.open(demo_store.path, index_edges=False) as cold:
        graph = cold.storage.peek_graph
        assert not graph.edges_indexed and not {"names", "lexical"} & set(graph._indexes)
        cold.warm_up()
        assert graph.edges_indexed
        assert {"names", "lexical", "keywords", "timeline_order", "structure"} <= set(
            graph._indexes
        )
        hub = max(graph.nodes, key=lambda i: sum(1 for _ in graph.edges_of(i)))
        read = cold.read_api()
        warmed = (
            external.get_node_by_id(cold.storage, hub),
            [n.node.id for n in read.get_neighbors(hub)],
            [n.id for n in read.find_by_name(query="Eileen").matches],
        )
    with MemoryStore.open(demo_store.path) as fresh:
        read = fresh.read_api()
        assert warmed == (
            external.get_node_by_id(fresh.storage, hub),
            [n.node.id for n in read.get_neighbors(hub)],
            [n.id for n in read.find_by_name(query="Eileen").matches],
        )


def test_a_plain_open_builds_the_edge_lists_and_the_window_leaves_them(demo_store) -> None:  # type: ignore[no-untyped-def]
    """``getNodeById`` / ``getNeighbors`` right after ``MemoryStore.open`` build nothing."""
    from memgraph_gui.core import MemoryStore

    with MemoryStore.open(demo_store.path) as eager:
        # (no collection is forced after the open any more: the library leaves the collector
        # to the process, issue 19; the first calls' speed is measured in bench_lookups)
        assert eager.storage.peek_graph.edges_indexed
    with MemoryStore.open(demo_store.path, index_edges=False) as lazy:
        assert not lazy.storage.peek_graph.edges_indexed
        first = [e.key for e in lazy.graph.edges_of("n_1")]
        assert lazy.storage.peek_graph.edges_indexed and first

"""The fast import path: one-pass parsing gives what the per-item validators give (errors, repairs
and stored rows alike), the bulk load leaves the schema and search index as they were, lone
surrogates are refused before anything is written, and ``import-luker`` needs no API layers.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import ImportFormatError, MemgraphError
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.luker.bulk_parse import parse_edges, parse_nodes
from memgraph_gui.core.luker.interop import (
    export_luker,
    import_luker,
    prepare_import,
    release_document,
)
from memgraph_gui.core.luker.node_parse import parse_edge, parse_node
from memgraph_gui.core.luker.repair_log import RepairLog
from memgraph_gui.core.storage.rows import node_row
from tests.core.processes import memgraph, run_python

# -- 1. the one-pass parse against the per-item validators ----------------------------------------


def oracle_nodes(raw_nodes: dict[Any, Any], log: RepairLog) -> list[Node]:
    """What ``parse_export`` did node by node before the one-pass parse."""
    out: dict[str, Node] = {}
    for key, raw in raw_nodes.items():
        node = parse_node(str(key), raw, f"nodes.{key}")
        if node is None:
            log.add("nodes dropped, level is not semantic", str(key))
        elif node.id in out:
            raise ImportFormatError(f"nodes.{key}", f"the same id as another node ({node.id!r})")
        else:
            out[node.id] = node
    return list(out.values())


def oracle_edges(items: list[Any], valid: set[str], log: RepairLog) -> list[Edge]:
    """What ``parse_export`` did edge by edge before the one-pass parse."""
    out: dict[tuple[str, str, str], Edge] = {}
    for index, item in enumerate(items):
        path = f"edges[{index}]"
        source, target, kind, seq = parse_edge(item, path)
        problem = None
        if not source or not target:
            problem = "an end is blank"
        elif source == target:
            problem = "a self-edge"
        elif source not in valid or target not in valid:
            problem = "an end names no node"
        elif (source, kind, target) in out:
            problem = "a repeat of an earlier edge"
        if problem is not None:
            log.add(f"edges dropped, {problem}", f"{path} {source or '?'} → {target or '?'}")
            continue
        out[(source, kind, target)] = Edge(source, target, kind, seq)
    return list(out.values())


def outcome(parse: Any, *args: Any) -> tuple[Any, ...]:
    """``("error", path, message)`` or ``("ok", result, repair messages)``."""
    log = RepairLog()
    try:
        result = parse(*args, log)
    except ImportFormatError as exc:
        return ("error", exc.path, exc.message)
    return ("ok", result, log.messages())


def stored(nodes: list[Node]) -> list[tuple[Any, ...]]:
    """The rows the nodes become (``fields`` and ``children_ids`` JSON, ``search_text``)."""
    return [node_row(node, i) for i, node in enumerate(nodes, start=1)]


def absent_or(*values: Any) -> st.SearchStrategy[Any]:
    return st.sampled_from(["<absent>", None, *values])


def mostly_plain(plain: dict[str, list[Any]], odd: dict[str, list[Any]]) -> st.SearchStrategy:
    """Dicts of plain values (or keys left out), at most one key given an odd value: the inline
    reading is taken often, and each odd value is met on its own."""
    base = st.fixed_dictionaries({k: st.sampled_from(["<absent>", *v]) for k, v in plain.items()})
    changes = st.lists(
        st.sampled_from(sorted(odd)).flatmap(
            lambda k: st.tuples(st.just(k), st.sampled_from(odd[k]))
        ),
        max_size=1,
    )
    return st.builds(
        lambda raw, odd_values: {
            k: v for k, v in {**raw, **dict(odd_values)}.items() if v != "<absent>"
        },
        base,
        changes,
    )


BIG = 2**53
PLAIN_NODE = {
    "level": ["semantic"],
    "type": ["event", ""],
    "title": ["Eileen", "", "艾琳 the Silver"],
    "seqTo": [0, 5, BIG - 1],
    "parentId": ["n_1", ""],
    "childrenIds": [[], ["n_1"], ["n_2", "n_3"]],
    "archived": [True, False],
    "semanticRollup": [True, False],
    "semanticDepth": [0, 2, -1],
    "floorRange": [{"start": 1, "end": 2}, {"start": 0, "end": 0}],
    "supersededBy": ["n_3", ""],
    "fields": [{}, {"a": "x", "b": ""}, {"a": "", "b": 1, "c": None, "d": True, "e": 2.0}],
}
ODD_NODE = {
    "level": [None, " semantic ", "episodic", "", 3],
    "type": [None, " event ", 5, True],
    "title": [None, "  a \t b ", "\u3000艾琳", "x" * 1000, "x" * 1001, 7],
    "seqTo": [None, -3, 2.7, BIG, True, "5"],
    "parentId": [None, " n_2 ", 3],
    "childrenIds": [None, ["n_1", " n_2 "], ["", "n_3"], [" n_2", None, 3], "n_1", [1.5]],
    "archived": [None, 0, "yes"],
    "semanticRollup": [None, 1],
    "semanticDepth": [None, 1.5, BIG, True],
    "floorRange": [
        None,
        {"start": 2, "end": 1},
        {"start": -1, "end": 2},
        {"start": 1.5, "end": 2.5},
        {"start": True, "end": 2},
        {"start": 1},
        [1, 2],
    ],
    "supersededBy": [None, 4],
    "fields": [
        None,
        {"a": ["x", {"b": 1}], "c": {"d": [1, 2.5]}},
        {"a": "x" * 100_000},
        {"a": "x" * 100_001},
        [],
        "x",
    ],
}
RAW_NODE = mostly_plain(PLAIN_NODE, ODD_NODE)
KEYS = st.sampled_from(["n_1", "n_2", " n_3 ", "", "n_\u4e00"])
ODD_EDGE = {
    "from": [" n_1 ", "", "n_404", "n_2", 3, None, True],
    "to": [" n_2", "", "n_404", "n_1", 4, None],
    "type": [None, " knows  well ", "", 5],
    "seqTo": [None, -1, 2.5, True, BIG - 1, BIG],
}
RAW_EDGE = st.one_of(
    mostly_plain(
        {"from": ["n_1", "n_2"], "to": ["n_1", "n_2"], "type": ["knows"], "seqTo": [0, 3]},
        ODD_EDGE,
    ),
    st.sampled_from([None, "edge", ["n_1", "n_2"]]),
)


def same_nodes(raw_nodes: dict[str, Any]) -> None:
    fast, slow = outcome(parse_nodes, raw_nodes), outcome(oracle_nodes, raw_nodes)
    if slow[0] == "error" or fast[0] == "error":
        assert fast == slow
        return
    assert fast[1] == slow[1] and fast[2] == slow[2]
    assert stored(fast[1]) == stored(slow[1])
    assert [n.level for n in fast[1]] == [n.level for n in slow[1]]


A_NODE = {k: v[-1] for k, v in PLAIN_NODE.items()}
AN_EDGE = {"from": "n_1", "to": "n_2", "type": "knows", "seqTo": 3}


@pytest.mark.parametrize(
    "key, value", [(k, v) for k, values in ODD_NODE.items() for v in ["<absent>", *values]]
)
def test_each_odd_node_value_parses_as_the_per_item_validator_reads_it(key, value):
    raw = {k: v for k, v in {**A_NODE, key: value}.items() if v != "<absent>"}
    same_nodes({"n_1": raw})
    same_nodes({" n_1 ": raw, "n_1": A_NODE})


@pytest.mark.parametrize(
    "key, value", [(k, v) for k, values in ODD_EDGE.items() for v in ["<absent>", *values]]
)
def test_each_odd_edge_value_parses_as_the_per_item_validator_reads_it(key, value):
    raw = {k: v for k, v in {**AN_EDGE, key: value}.items() if v != "<absent>"}
    same_edges([raw])
    same_edges([AN_EDGE, raw, raw])


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(KEYS, st.one_of(RAW_NODE, st.sampled_from([None, "x", [1]])))
def test_a_node_parses_as_the_per_item_validator_reads_it(key: str, raw: Any) -> None:
    same_nodes({key: raw})


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["n_1", "n_2", " n_2 ", "n_3"]), RAW_NODE), max_size=5))
def test_nodes_are_kept_dropped_and_refused_as_node_by_node(pairs: list[tuple[str, Any]]) -> None:
    same_nodes(dict(pairs))


def same_edges(items: list[Any]) -> None:
    valid = {"n_1", "n_2"}
    fast, slow = outcome(parse_edges, items, valid), outcome(oracle_edges, items, valid)
    assert fast == slow
    if fast[0] == "ok":
        assert [tuple(e) for e in fast[1]] == [tuple(e) for e in slow[1]]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(RAW_EDGE)
def test_an_edge_parses_as_the_per_item_validator_reads_it(item: Any) -> None:
    same_edges([item])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(RAW_EDGE, max_size=8))
def test_edges_are_kept_and_dropped_as_edge_by_edge(items: list[Any]) -> None:
    same_edges(items)


# -- 2. the bulk load ------------------------------------------------------------------------------


def schema_of(path: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
        ).fetchall()
    finally:
        conn.close()


def test_a_replacing_import_leaves_indexes_triggers_and_search_working(demo_store):
    before = schema_of(demo_store.path)
    doc = export_luker(demo_store.storage)
    import_luker(demo_store.storage, doc, replace=True, backup=False)
    assert schema_of(demo_store.path) == before
    title = next(iter(doc["nodes"].values()))["title"]
    read = demo_store.read_api()
    assert read.search_text(title) != ()
    write = demo_store.write_api()
    fields = {"status": "open", "note": "a parade"}
    created = write.create_node(type="thread", title="Quokka Parade", fields=fields)["id"]
    assert read.search_text("quokka par") == (created,)
    columns = "id, type, level, title, seq_to, fields, parent_id, children_ids, archived, "
    columns += "semantic_rollup, semantic_depth"
    copy = f"INSERT INTO nodes(ord, {columns}) SELECT ord + 10000000, {columns} FROM nodes LIMIT 1"
    with pytest.raises(MemgraphError, match=r"UNIQUE constraint failed: nodes\.id"):
        demo_store.storage.write_aside(lambda conn: conn.execute(copy))


def test_the_graph_after_an_import_is_the_graph_a_reopen_reads(demo_store):
    doc = export_luker(demo_store.storage)
    import_luker(demo_store.storage, doc, replace=True, backup=False)
    with demo_store.reading() as graph:
        mine = (
            [(n.ord, n.to_store_json(), type(n.fields).__name__) for n in graph.nodes.values()],
            list(graph.edges.values()),
            graph.meta,
        )
    with MemoryStore.open(demo_store.path) as again, again.reading() as graph:
        reread = (
            [(n.ord, n.to_store_json(), type(n.fields).__name__) for n in graph.nodes.values()],
            list(graph.edges.values()),
            graph.meta,
        )
    assert mine == reread
    assert json.dumps(export_luker(demo_store.storage)) == json.dumps(doc)


def test_repeated_ids_and_edges_in_a_bulk_load_keep_the_later_one(store):
    first, other, later = (
        Node(id="a", type="event", title="first"),
        Node(id="b", type="event", title="other"),
        Node(id="a", type="event", title="later"),
    )
    edges = [Edge("a", "b", "knows", 1), Edge("b", "a", "knows"), Edge("a", "b", "knows", 7)]
    store.replace_all([first, other, later], edges, {"schema": store.graph.meta["schema"]})
    tables = store.dump()
    assert [(r[0], r[1], r[4]) for r in tables["nodes"]] == [(2, "b", "other"), (3, "a", "later")]
    assert [(r[0], r[1], r[2], r[4]) for r in tables["edges"]] == [
        (2, "b", "a", None),
        (3, "a", "b", 7),
    ]
    assert [n.title for n in store.graph.nodes.values()] == ["other", "later"]


def test_releasing_the_document_after_preparing_it_leaves_the_prepared_import_whole(demo_store):
    """The window drops a read export a slice at a time once prepared (``release_document``):
    what ``prepare_import`` made keeps nothing of the document's nodes and links."""
    doc = export_luker(demo_store.storage)
    doc["lastRecallTrace"] = [{"kept": ["in the meta"]}]
    doc["somethingElse"] = {"kept": [1, 2]}  # kept as lukerExtra
    copy = json.loads(json.dumps(doc))
    prepared = prepare_import(doc)
    release_document(doc)
    assert doc["nodes"] == {} and doc["edges"] == []
    fresh = prepare_import(copy)
    assert prepared.parsed.nodes == fresh.parsed.nodes and len(fresh.parsed.nodes) > 100
    assert prepared.parsed.edges == fresh.parsed.edges
    assert prepared.parsed.meta == fresh.parsed.meta and "lukerExtra" in fresh.parsed.meta
    assert prepared.report == fresh.report


def test_a_failing_bulk_load_leaves_rows_schema_and_graph_as_they_were(demo_store):
    before, schema = demo_store.dump(), schema_of(demo_store.path)
    with demo_store.reading() as graph:
        nodes_before = dict(graph.nodes)
    bad = [Node(id="n_ok", type="event"), Node(id="n_bad", type="event", title="x \ud800")]
    with pytest.raises(UnicodeEncodeError):  # UTF-8 cannot hold the lone surrogate
        demo_store.replace_all(bad, [], {}, backup=False)
    assert demo_store.dump() == before and schema_of(demo_store.path) == schema
    with demo_store.reading() as graph:
        assert dict(graph.nodes) == nodes_before


# -- 3. lone surrogates are refused before anything is written ------------------------------------


@pytest.mark.parametrize(
    "text, path",
    [
        ('{"nodes": {"n_1": {"title": "a \\ud800 b"}}}', "nodes.n_1.title"),
        ('{"nodes": {"n_1": {"fields": {"x": ["ok", "\\udc00"]}}}}', "nodes.n_1.fields.x[1]"),
        ('{"nodes": {"n_\\ud83d": {}}}', "nodes.n_\\ud83d"),
        ('{"nodes": {}, "edges": [{"from": "\\ud800x", "to": "b"}]}', "edges[0].from"),
    ],
)
def test_lone_surrogates_in_a_file_are_refused_naming_the_path(tmp_path, text, path):
    source, db = tmp_path / "bad.json", tmp_path / "new.memgraph"
    source.write_text(text, encoding="utf-8")
    result = memgraph("--db", str(db), "import-luker", str(source))
    error = json.loads(result.stdout)["error"]
    assert result.returncode == 1 and error["code"] == "BAD_IMPORT", result.stdout
    assert error["path"] == path and "lone surrogate" in error["message"]
    assert not db.exists()


def test_paired_surrogate_escapes_are_text(tmp_path):
    source, db = tmp_path / "emoji.json", tmp_path / "new.memgraph"
    source.write_text('{"nodes": {"n_1": {"title": "smile \\ud83d\\ude00"}}}', encoding="utf-8")
    result = memgraph("--db", str(db), "import-luker", str(source))
    assert result.returncode == 0, result.stdout
    with MemoryStore.open(db) as store:
        assert store.graph.nodes["n_1"].title == "smile \U0001f600"


def test_lone_surrogates_in_python_documents_are_refused(demo_store):
    before = demo_store.dump()
    for doc, path in (
        ({"nodes": {"n_1": {"type": "ev\udfffent"}}}, "nodes.n_1.type"),
        ({"nodes": {"n_\udc00": {}}}, "nodes.n_\\udc00"),
    ):
        with pytest.raises(ImportFormatError) as exc:
            import_luker(demo_store.storage, doc, replace=True)
        assert exc.value.path == path and "lone surrogate" in exc.value.message
    with pytest.raises(ImportFormatError, match="lone surrogate"):
        prepare_import({"nodes": {}}, [{"id": "event", "label": "\ud800"}])
    assert demo_store.dump() == before


# -- 4. the command needs only the storage layer ---------------------------------------------------

IMPORTED = """
import runpy, sys
sys.argv = ["memgraph", *sys.argv[1:]]
try:
    runpy.run_module("memgraph_gui.cli", run_name="__main__")
except SystemExit as exc:
    assert not exc.code, exc.code
heavy = ("numpy", "sqlite_utils", "memgraph_gui.core.memory", "memgraph_gui.core.jsonapi")
print(sorted(name for name in heavy if name in sys.modules), file=sys.stderr)
"""


def test_import_luker_into_a_store_loads_no_api_layer_nor_numpy(tmp_path, demo_store):
    source = tmp_path / "export.json"
    source.write_text(json.dumps(export_luker(demo_store.storage)), encoding="utf-8")
    demo_store.close()
    process = run_python(
        IMPORTED, "--db", demo_store.path, "import-luker", str(source), "--replace"
    )
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert json.loads(out)["nodes"] > 0 and err.strip().splitlines()[-1] == "[]"

"""Import validation: non-JSON numbers, parent cycles, childrenIds repair, the opLog shape, stray
documents. Every refusal names the path and leaves the store exactly as it was.
"""

from __future__ import annotations

import io
import json
import math
from typing import Any

import pytest

from memgraph_gui.cli import main
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.luker.file_format import parse_export
from memgraph_gui.core.luker.interop import export_luker, import_luker, prepare_import
from memgraph_gui.core.storage.safe_io import read_json


def cli(*argv: str) -> tuple[int, Any]:
    out = io.StringIO()
    code = main(list(argv), stdout=out)
    lines = out.getvalue().splitlines()
    return code, json.loads(lines[-1]) if lines else None


def refused(store: Any, doc: Any, path: str, **kwargs: Any) -> ImportFormatError:
    """Import ``doc`` over ``store``; assert it is refused naming ``path`` and nothing changed."""
    before = store.dump()
    with pytest.raises(ImportFormatError) as exc:
        import_luker(store, doc, replace=True, **kwargs)
    assert exc.value.path == path and exc.value.code == "BAD_IMPORT", exc.value
    assert store.dump() == before
    return exc.value


def nodes_of(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n.id: n.to_store_json() for n in parse_export(doc).nodes}


# -- 1. NaN and Infinity are not JSON ----
@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e999", "-2.5E400"])
def test_read_json_refuses_non_finite_numbers_with_line_and_column(tmp_path, token):
    text = '{\n  "nodes": {\n    "n_1": {"title": "NaN Infinity", "seqTo": ' + token + "}\n  }\n}"
    source = tmp_path / "graph.json"
    source.write_text(text, encoding="utf-8")
    with pytest.raises(ImportFormatError) as exc:
        read_json(source)
    message = exc.value.message
    assert "graph.json" in message and token in message
    assert "line 3, column 47" in message, message


def test_read_json_keeps_nan_inside_strings_and_big_finite_numbers(tmp_path):
    source = tmp_path / "ok.json"
    source.write_text('{"a": "NaN, -Infinity \\" Infinity", "b": [1e308, -0.0, 12]}', "utf-8")
    assert read_json(source) == {"a": 'NaN, -Infinity " Infinity', "b": [1e308, -0.0, 12]}


@pytest.mark.parametrize(
    "text, problem",
    [("[" * 100_000 + "]" * 100_000, "deeply"), ('{"a": ' + "9" * 5000 + "}", "digits")],
)
def test_read_json_turns_parser_limits_into_import_errors(tmp_path, text, problem):
    source = tmp_path / "odd.json"
    source.write_text(text, encoding="utf-8")
    with pytest.raises(ImportFormatError) as exc:
        read_json(source)
    assert "odd.json" in exc.value.message and problem in exc.value.message


def test_cli_refuses_a_file_with_nan_and_writes_nothing(tmp_path, demo_store):
    source = tmp_path / "nan.json"
    source.write_text('{"nodes": {"n_1": {"fields": {"score": NaN}}}}', encoding="utf-8")
    before = demo_store.dump()
    demo_store.close()
    code, out = cli("import-luker", str(source), "--db", demo_store.path, "--replace")
    assert code == 1 and out["error"]["code"] == "BAD_IMPORT"
    assert "NaN" in out["error"]["message"] and "line 1, column 40" in out["error"]["message"]
    with MemoryStore.open(demo_store.path) as again:
        assert again.dump() == before


@pytest.mark.parametrize(
    "doc, path",
    [
        ({"nodes": {"n_3": {"fields": {"score": math.nan}}}}, "nodes.n_3.fields.score"),
        ({"nodes": {"n_3": {"fields": {"xs": [1, [2, -math.inf]]}}}}, "nodes.n_3.fields.xs[1][1]"),
        ({"nodes": {"n_3": {"seqTo": math.inf}}}, "nodes.n_3.seqTo"),
        ({"nodes": {"n_3": {"level": "episodic", "seqTo": math.nan}}}, "nodes.n_3.seqTo"),
        ({"nodes": {}, "edges": [{"from": "a", "to": "b", "seqTo": math.nan}]}, "edges[0].seqTo"),
        ({"nodes": {}, "seqCounter": -math.inf}, "seqCounter"),
        ({"nodes": {}, "lastRecallTrace": [{"score": math.nan}]}, "lastRecallTrace[0].score"),
        ({"opLog": [{"seq": math.nan, "ops": []}]}, "opLog[0].seq"),
    ],
)
def test_python_documents_with_nan_or_infinity_are_refused(demo_store, doc, path):
    error = refused(demo_store, doc, path)
    assert "finite" in error.message


def test_schema_documents_with_nan_or_infinity_are_refused(demo_store, tmp_path):
    schema = [{"id": "event", "compression": {"mode": "hierarchical", "threshold": math.inf}}]
    refused(demo_store, {"nodes": {}}, "[0].compression.threshold", schema_doc=schema)
    wrapped = {"type": "luker-memory-graph-schema", "version": 1, "schema": schema}
    refused(demo_store, {"nodes": {}}, "schema[0].compression.threshold", schema_doc=wrapped)
    with pytest.raises(ImportFormatError, match=r"compression\.threshold"):
        prepare_import({"nodes": {}}, wrapped)
    schema_file = tmp_path / "schema.json"
    schema_file.write_text('[{"id": "event", "compression": {"threshold": Infinity}}]', "utf-8")
    graph_file = tmp_path / "graph.json"
    graph_file.write_text('{"nodes": {}}', encoding="utf-8")
    before = demo_store.dump()
    demo_store.close()
    code, out = cli("import-luker", str(graph_file), "--db", demo_store.path, "--replace",
                    "--schema", str(schema_file))  # fmt: skip
    assert (
        code == 1 and "Infinity" in out["error"]["message"] and "line 1" in out["error"]["message"]
    )
    code, out = cli("schema", "import", str(schema_file), "--db", demo_store.path)
    assert code == 1 and "schema.json" in out["error"]["message"]
    with MemoryStore.open(demo_store.path) as again:
        assert again.dump() == before


# -- 2. parent cycles are refused (Luker keeps them; see the module docstring of hierarchy_repair) --
@pytest.mark.parametrize(
    "parents, path, cycle",
    [
        ({"n_1": "n_2", "n_2": "n_1"}, "nodes.n_1.parentId", "n_1 → n_2 → n_1"),
        ({"n_1": "n_2", "n_2": "n_3", "n_3": "n_1"}, "nodes.n_1.parentId", "n_1 → n_2 → n_3 → n_1"),
        ({"n_0": "n_2", "n_1": "", "n_2": "n_3", "n_3": "n_2"}, "nodes.n_2.parentId", "n_2 → n_3"),
    ],
)
def test_parent_cycles_are_refused_naming_the_nodes(demo_store, tmp_path, parents, path, cycle):
    doc = {"nodes": {k: {"title": k, "parentId": p} for k, p in parents.items()}}
    error = refused(demo_store, doc, path)
    assert cycle in error.message and "cycle" in error.message
    source = tmp_path / "cycle.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    code, out = cli("import-luker", str(source), "--db", str(tmp_path / "new.memgraph"))
    assert code == 1 and out["error"]["path"] == path
    assert not (tmp_path / "new.memgraph").exists()


# -- 3. childrenIds follow parentId ----
def test_children_lists_are_rebuilt_from_parent_ids_and_the_repairs_reported():
    doc = {
        "nodes": {
            "p": {"childrenIds": ["a", "b", "c", "a", "zz", "p"]},
            "q": {"childrenIds": ["a", "d"]},
            "a": {"parentId": "p"},  # claimed by p and q: parentId says p
            "b": {"parentId": "q"},  # listed by p, but parentId says q
            "c": {"parentId": ""},  # listed by p, parentId empty: stays a root
            "d": {"parentId": "q", "childrenIds": ["q"]},  # children cycle q ⇄ d
        }
    }
    parsed = parse_export(doc)
    nodes = {n.id: n for n in parsed.nodes}
    assert nodes["p"].children_ids == ("a",)
    assert nodes["q"].children_ids == ("d", "b")
    assert nodes["c"].parent_id == "" and nodes["d"].children_ids == ()
    assert [n.parent_id for n in parsed.nodes] == ["", "", "p", "q", "", "q"]
    text = "\n".join(parsed.warnings)
    for fragment in ("p lists a twice", "p lists zz", "p lists itself", "q lists a", "p lists b",
                     "p lists c", "d lists q", "b was missing from q"):  # fmt: skip
        assert fragment in text, (fragment, text)


def test_consistent_documents_import_without_warnings(demo_store):
    assert parse_export(export_luker(demo_store)).warnings == []


def test_cli_import_reports_the_repairs(tmp_path):
    doc = {"nodes": {"p": {"childrenIds": ["c"]}, "c": {}, "x": {"parentId": "gone"}}}
    source = tmp_path / "messy.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    code, out = cli("import-luker", str(source), "--db", str(tmp_path / "m.memgraph"))
    assert code == 0 and out["nodes"] == 3
    assert any("p lists c" in w for w in out["warnings"])
    assert any("x → gone" in w for w in out["warnings"])


@pytest.mark.parametrize(
    "doc, path",
    [
        ({"nodes": {"n_1": {}, " n_1 ": {}}}, "nodes. n_1 "),
        ({"nodes": [{"id": "n_1"}, {"id": "n_2"}, {"id": "n_1"}]}, "nodes[2].id"),
    ],
)
def test_two_nodes_with_one_id_are_refused(demo_store, doc, path):
    refused(demo_store, doc, path)


# -- 5. the opLog shape and documents that are not a memory graph ----
OPLOG = {
    "version": 8,
    "coveredSeqTo": 9,
    "sourceMessageCount": 12,
    "swipeTailCache": {"x": 1},
    "opLog": [
        {  # n_6 comes in the next entry: Luker's repair after this one drops the "early" edge
            "seq": 2,
            "ops": [
                {"type": "upsert_edge", "edge": {"from": "n_1", "to": "n_6", "type": "early"}},
                {
                    "type": "upsert_node",
                    "node": {"id": "n_1", "type": "character_sheet", "title": "Eileen", "seqTo": 2},
                },
                {
                    "type": "upsert_node",
                    "node": {
                        "id": "n_2",
                        "type": "event",
                        "seqTo": 2,
                        "fields": {"summary": "met Kain"},
                    },
                },
                {
                    "type": "upsert_edge",
                    "edge": {"from": "n_2", "to": "n_1", "type": " involved  in"},
                },
            ],
        },
        {
            "seq": 5,
            "ops": [
                {
                    "type": "upsert_node",
                    "node": {
                        "id": "n_3",
                        "type": "event",
                        "title": "rollup",
                        "semanticRollup": True,
                        "childrenIds": ["n_4"],
                    },
                },
                {
                    "type": "upsert_node",
                    "node": {"id": "n_4", "type": "event", "parentId": "n_3", "seqTo": 4},
                },
                {"type": "upsert_node", "node": {"id": "n_5", "title": "gone soon"}},
                {"type": "upsert_node", "node": {"id": "n_6", "title": "later"}},
                {"type": "upsert_edge", "edge": {"from": "n_5", "to": "n_1"}},
                {"type": "UPSERT_EDGE", "from": "n_4", "to": "n_1"},  # inline: Luker reads it too
            ],
        },
        {
            "seq": 7,
            "ops": [
                {"type": "delete_node", "nodeId": "n_3"},  # takes its child n_4 along
                {"type": "delete_node", "id": "n_5"},
                {
                    "type": "delete_edge",
                    "edge": {"from": "n_2", "to": "n_1", "type": "involved in"},
                },
                {
                    "type": "upsert_node",
                    "node": {
                        "id": "n_2",
                        "type": "event",
                        "title": "Met",
                        "seqTo": 6,
                        "floorRange": {"start": 1, "end": 6},
                    },
                },
                {"type": "upsert_edge", "edge": {"from": "n_1", "to": "n_2", "type": "knows"}},
            ],
        },
    ],
}


def test_oplog_documents_are_replayed_like_luker(store):
    parsed = parse_export(OPLOG)
    assert [n.to_store_json() for n in parsed.nodes] == [
        {"id": "n_1", "type": "character_sheet", "level": "semantic", "title": "Eileen",
         "fields": {}, "seqTo": 2, "parentId": "", "childrenIds": [], "archived": False,
         "semanticRollup": False, "semanticDepth": 0},
        {"id": "n_2", "type": "event", "level": "semantic", "title": "Met", "fields": {},
         "seqTo": 6, "parentId": "", "childrenIds": [], "archived": False,
         "semanticRollup": False, "semanticDepth": 0},
        {"id": "n_6", "type": "unknown", "level": "semantic", "title": "later", "fields": {},
         "seqTo": 0, "parentId": "", "childrenIds": [], "archived": False,
         "semanticRollup": False, "semanticDepth": 0},
    ]  # fmt: skip
    assert [e.to_store_json() for e in parsed.edges] == [
        {"from": "n_1", "to": "n_2", "type": "knows"}
    ]
    meta = parsed.meta
    assert (meta["nodeSeq"], meta["appliedSeqTo"], meta["loggedSeqTo"]) == (6, 9, 9)
    assert (meta["seqCounter"], meta["sourceMessageCount"]) == (9, 12)
    assert "lukerExtra" not in meta
    assert any("operation-log format (3 entries, 15 operations)" in w for w in parsed.warnings)
    import_luker(store, OPLOG)
    assert sorted(store.graph.nodes) == ["n_1", "n_2", "n_6"]
    assert export_luker(store)["nodes"]["n_2"]["title"] == "Met"


def test_an_empty_oplog_is_an_empty_store():
    parsed = parse_export({"version": 8, "opLog": []})
    assert parsed.nodes == [] and parsed.edges == []


@pytest.mark.parametrize(
    "doc, path",
    [
        ({"version": 8, "opLog": {"seq": 1}}, "opLog"),
        ({"opLog": [7]}, "opLog[0]"),
        ({"opLog": [{"seq": "x"}]}, "opLog[0].seq"),
        ({"opLog": [{"seq": 1, "ops": {}}]}, "opLog[0].ops"),
        ({"opLog": [{"seq": 1, "ops": ["upsert_node"]}]}, "opLog[0].ops[0]"),
        ({"opLog": [{"seq": 1, "ops": [{"type": "rename"}]}]}, "opLog[0].ops[0].type"),
        (
            {"opLog": [{"ops": [{"type": "upsert_node", "node": {"id": 5}}]}]},
            "opLog[0].ops[0].node.id",
        ),
        (
            {"opLog": [{"ops": [{"type": "upsert_node", "node": {"id": "n_1", "title": 3}}]}]},
            "opLog[0].ops[0].node.title",
        ),
        (
            {"opLog": [{"ops": [{"type": "upsert_node", "id": "n_1", "childrenIds": "n_2"}]}]},
            "opLog[0].ops[0].childrenIds",
        ),
        ({"opLog": [{"ops": [{"type": "delete_node"}]}]}, "opLog[0].ops[0].nodeId"),
        (
            {"opLog": [{"ops": [{"type": "upsert_edge", "edge": {"from": "a", "to": []}}]}]},
            "opLog[0].ops[0].edge.to",
        ),
    ],
)
def test_bad_oplog_documents_name_the_path(demo_store, doc, path):
    refused(demo_store, doc, path)


@pytest.mark.parametrize(
    "doc, fragment",
    [
        ({"type": "luker-memory-graph-schema", "version": 1, "schema": []}, "schema export"),
        ({"schema": [{"id": "event"}]}, "schema export"),
        ({"title": "Eileen", "fields": {}}, "unknown keys: fields, title"),
        ({"version": 8}, "unknown keys: version"),
    ],
)
def test_objects_that_are_not_a_memory_graph_are_refused(demo_store, doc, fragment):
    error = refused(demo_store, doc, "")
    assert fragment in error.message and "nodes" in error.message


@pytest.mark.parametrize(
    "doc", [{}, {"nodeSeq": 4, "seqCounter": 3, "lastRecallTrace": [], "memgraph": {}}]
)
def test_counters_only_documents_are_an_empty_store(store, doc):
    import_luker(store, doc)
    assert store.graph.nodes == {}
    assert export_luker(store)["nodeSeq"] == doc.get("nodeSeq", 0)


@pytest.mark.parametrize("doc", [[], "nodes", None, 3])
def test_non_objects_are_refused(demo_store, doc):
    refused(demo_store, doc, "")


def test_set_schema_refuses_infinite_and_huge_numbers_and_writes_nothing() -> None:
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.domain.errors import MemgraphError

    with MemoryStore.open(":memory:") as store:
        before = store.dump()
        for bad in (float("inf"), -float("inf"), 10**30):
            with pytest.raises(MemgraphError) as err:
                store.write_api().set_schema([{"id": "x", "compression": {"threshold": bad}}])
            assert err.value.code == "BAD_IMPORT" and "threshold" in err.value.message
        assert store.dump() == before


@pytest.mark.parametrize(
    "spec, path",
    [
        ({"id": "x", "label": "L" * 100_001}, "[0].label"),
        (
            {"id": "x", "compression": {"summarizeInstruction": "word " * 25_000}},
            "summarizeInstruction",
        ),
        ({"id": "x", "extractHint": "h" * 200_000}, "[0].extractHint"),
    ],
)
def test_set_schema_refuses_huge_texts_naming_them_and_writes_nothing(spec, path) -> None:
    from memgraph_gui.core.domain.errors import MemgraphError

    with MemoryStore.open(":memory:") as store:
        before = store.dump()
        with pytest.raises(MemgraphError) as err:
            store.write_api().set_schema([spec])
        assert err.value.code == "BAD_IMPORT" and path in err.value.message
        assert "at most 100,000" in err.value.message
        assert store.dump() == before
    ok = {"id": "x", "compression": {"summarizeInstruction": "w" * 100_000}}
    with MemoryStore.open(":memory:") as store:
        store.write_api().set_schema([ok])  # the limit itself is fine

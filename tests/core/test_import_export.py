"""Luker import/export (API and CLI), schema files, bad input, safe writes, the demo generator."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from memgraph_gui.cli import main
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import generate, load_demo
from memgraph_gui.core.domain.errors import ImportFormatError, MemgraphError
from memgraph_gui.core.luker.interop import export_luker, export_luker_file, import_luker

MESSY = {
    "nodes": {
        "n_3": {
            "type": "character_sheet",
            "title": "Eileen",
            "seqTo": 4,
            "fields": {"aliases": "艾琳"},
            "childrenIds": ["", "n_3", "n_12", "n_12", "n_404", " n_12 "],
        },
        "n_12": {
            "type": "event",
            "seqTo": 9.7,
            "parentId": "n_3",
            "fields": {"summary": "x"},
            "floorRange": {"start": 3, "end": 9},
        },
        "n_5": {
            "type": "event",
            "title": "  Orphan \n case ",
            "parentId": "n_404",
            "archived": True,
            "supersededBy": "n_3",
        },
        "n_7": {"level": "episodic", "title": "old style", "seqTo": 50},
        "n_9": {"type": "thread", "title": "Self parent", "parentId": "n_9"},
        "char_x": {"title": "", "parentId": "n_3", "unknownKey": 1},
    },
    "edges": [
        {"from": "n_3", "to": "n_12", "type": "knows"},
        {"from": "n_3", "to": "n_12", "type": "knows", "seqTo": 4},
        {"from": "n_3", "to": "n_3", "type": "self"},
        {"from": "n_3", "to": "n_404"},
        {"from": "n_7", "to": "n_3", "type": "mentions"},
        {"from": "n_5", "to": "n_3"},
        {"from": "n_5", "to": "n_3", "type": "  likes \t a lot "},
    ],
    "nodeSeq": 2,
    "seqCounter": 1,
    "extraTop": {"kept": True},
}


def cli(*argv: str) -> tuple[int, object]:
    out = io.StringIO()
    code = main(list(argv), stdout=out)
    lines = out.getvalue().splitlines()
    return code, json.loads(lines[-1]) if lines else None


def write(path: Path, data: object) -> Path:
    path.write_text(
        data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8"
    )
    return path


def node_count(path: Path) -> int:
    if not path.exists():
        return 0
    with MemoryStore.open(path, create=False) as s:
        return len(s.graph.nodes)


# -- normalisation ----
def test_import_normalises_like_luker(store):
    changes = import_luker(store, MESSY)
    assert changes.reloaded
    doc = export_luker(store)
    nodes = doc["nodes"]
    assert list(nodes) == ["n_3", "n_12", "n_5", "n_9", "char_x"]  # episodic n_7 dropped
    assert nodes["n_3"]["childrenIds"] == ["n_12", "char_x"]  # cleaned, then char_x appended
    assert nodes["n_12"]["title"] == "n_12" and nodes["char_x"]["title"] == "char_x"
    assert nodes["n_5"]["title"] == "Orphan case" and nodes["n_5"]["parentId"] == ""
    assert nodes["n_9"]["parentId"] == "" and nodes["char_x"]["parentId"] == "n_3"
    assert nodes["n_12"]["seqTo"] == 9 and nodes["char_x"]["type"] == "semantic"
    assert "unknownKey" not in nodes["char_x"]
    assert nodes["n_12"]["floorRange"] == {"start": 3, "end": 9}
    assert nodes["n_5"]["supersededBy"] == "n_3" and nodes["n_5"]["archived"] is True
    assert doc["edges"] == [
        {"from": "n_3", "to": "n_12", "type": "knows"},
        {"from": "n_5", "to": "n_3", "type": "related"},
        {"from": "n_5", "to": "n_3", "type": "likes a lot"},
    ]
    assert (doc["nodeSeq"], doc["seqCounter"]) == (12, 9)  # from n_12 and seqTo 9.7
    assert doc["appliedSeqTo"] == 9 and doc["extraTop"] == {"kept": True}
    assert store.history.depth() == (0, 0)
    assert store.write_api().create_node(type="character_sheet", title="Kain")["id"] == "n_13"


def test_import_export_import_is_lossless(demo_store, tmp_path):
    first = export_luker(demo_store)
    assert any("floorRange" in n for n in first["nodes"].values())
    assert any("supersededBy" in n for n in first["nodes"].values())
    with MemoryStore.open(tmp_path / "copy.memgraph") as copy:
        import_luker(copy, json.loads(json.dumps(first)))
        second = export_luker(copy)
        assert second == first
        assert copy.read_api().get_injection_state() == demo_store.read_api().get_injection_state()
    with MemoryStore.open(":memory:") as messy:
        import_luker(messy, MESSY)
        once = export_luker(messy)
        import_luker(messy, once, replace=True)
        assert export_luker(messy) == once


def test_import_keeps_luker_keys_and_edge_seq(store):
    doc = {
        "nodes": {
            "n_1": {
                "type": "event",
                "title": "Summary 1",
                "seqTo": 2,
                "fields": {"summary": "s"},
                "floorRange": {"start": 1, "end": 2},
            },
            "n_2": {
                "type": "event",
                "title": "Summary 2",
                "archived": True,
                "supersededBy": "n_1",
                "fields": {"summary": "t"},
            },
        },
        "edges": [{"from": "n_2", "to": "n_1", "type": "follows", "seqTo": 2}],
        "nodeSeq": 2,
        "seqCounter": 2,
        "appliedSeqTo": 2,
        "loggedSeqTo": 2,
        "sourceMessageCount": 4,
        "lastRecallTrace": [],
        "lastRecallProjection": None,
    }
    import_luker(store, doc)
    out = export_luker(store)
    assert out["edges"] == doc["edges"] and out["sourceMessageCount"] == 4
    assert out["nodes"]["n_1"]["floorRange"] == {"start": 1, "end": 2}
    assert out["nodes"]["n_2"]["supersededBy"] == "n_1"


# -- bad input ----
@pytest.mark.parametrize(
    "doc, path",
    [
        ({"nodes": {"n_1": {"title": 5}}}, "nodes.n_1.title"),
        ({"nodes": {"n_1": {"title": "t" * 5000}}}, "nodes.n_1.title"),
        ({"nodes": {"n_1": {"fields": {"summary": "s" * 200_001}}}}, "nodes.n_1.fields.summary"),
        ({"nodes": {"n_1": {"fields": "not an object"}}}, "nodes.n_1.fields"),
        ({"nodes": {"n_1": {"childrenIds": "n_2"}}}, "nodes.n_1.childrenIds"),
        ({"nodes": {"n_1": {"archived": "yes"}}}, "nodes.n_1.archived"),
        ({"nodes": {"n_1": "just text"}}, "nodes.n_1"),
        ({"nodes": "n_1"}, "nodes"),
        ({"nodes": {}, "edges": {"from": "n_1"}}, "edges"),
        ({"nodes": {"n_1": {}}, "edges": [{"from": "n_1", "to": "n_1"}, 7]}, "edges[1]"),
        (
            {"nodes": {"n_1": {}}, "edges": [{"from": "n_1", "to": "n_2", "type": 3}]},
            "edges[0].type",
        ),
        ({"nodes": {}, "seqCounter": "many"}, "seqCounter"),
    ],
)
def test_bad_documents_name_the_path_and_write_nothing(demo_store, tmp_path, doc, path):
    before = demo_store.dump()
    with pytest.raises(ImportFormatError) as exc:
        import_luker(demo_store, doc, replace=True)
    assert exc.value.path == path and exc.value.code == "BAD_IMPORT"
    assert path in exc.value.message
    assert demo_store.dump() == before
    target = tmp_path / "new.memgraph"
    code, out = cli("import-luker", str(write(tmp_path / "bad.json", doc)), "--db", str(target))
    assert code == 1 and out["error"]["path"] == path and path in out["error"]["message"]
    assert node_count(target) == 0


@pytest.mark.parametrize("text", ['{"nodes": {,}', "", "[1, 2", '{"nodes": {}} trailing'])
def test_malformed_json_is_refused_by_the_cli(tmp_path, demo_store, text):
    bad = write(tmp_path / "broken.json", text)
    before = demo_store.dump()
    demo_store.close()
    code, out = cli("import-luker", str(bad), "--db", demo_store.path, "--replace")
    assert code == 1 and out["error"]["code"] == "BAD_IMPORT"
    assert "broken.json" in out["error"]["message"] and "line" in out["error"]["message"]
    with MemoryStore.open(demo_store.path) as again:
        assert again.dump() == before


def test_import_into_a_non_empty_store_needs_replace(demo_store, tmp_path):
    before = demo_store.dump()
    with pytest.raises(MemgraphError) as exc:
        import_luker(demo_store, MESSY)
    assert exc.value.code == "STORE_NOT_EMPTY" and demo_store.dump() == before
    demo_store.close()
    source = write(tmp_path / "messy.json", MESSY)
    code, out = cli("import-luker", str(source), "--db", demo_store.path)
    assert code == 1 and out["error"]["code"] == "STORE_NOT_EMPTY"
    assert node_count(Path(demo_store.path)) == 600
    code, out = cli("import-luker", str(source), "--db", demo_store.path, "--replace")
    assert code == 0 and out["nodes"] == 5 and node_count(Path(demo_store.path)) == 5


# -- CLI import / export / schema ----
def test_cli_import_then_export(tmp_path):
    db, out_file = tmp_path / "chat.memgraph", tmp_path / "out" / "memory-graph-chat.json"
    code, info = cli("import-luker", str(write(tmp_path / "in.json", MESSY)), "--db", str(db))
    assert code == 0 and info["nodes"] == 5 and info["nodeSeq"] == 12
    code, info = cli("export-luker", str(out_file), "--db", str(db))
    assert code == 0 and Path(info["written"]) == out_file.resolve()
    exported = json.loads(out_file.read_text(encoding="utf-8"))
    with MemoryStore.open(db) as s:
        assert exported == export_luker(s)
    code, err = cli("export-luker", str(tmp_path / "x.json"), "--db", str(tmp_path / "none"))
    assert code == 1 and err["error"]["code"] == "MEMORY_STORE_MISSING"


def test_cli_schema_export_import_and_import_with_schema(tmp_path):
    db = tmp_path / "s.memgraph"
    MemoryStore.open(db).close()
    code, _ = cli("schema", "export", str(tmp_path / "g.json"), "--db", str(db))
    doc = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert code == 0 and set(doc) == {
        "type",
        "version",
        "exportedAt",
        "scope",
        "characterName",
        "schema",
    }
    assert (doc["type"], doc["version"], doc["scope"], doc["characterName"]) == (
        "luker-memory-graph-schema",
        1,
        "global",
        "",
    )
    assert doc["exportedAt"].endswith("Z")
    assert [t["id"] for t in doc["schema"]] == [
        "event",
        "character_sheet",
        "location_state",
        "thread",
    ]
    cli("schema", "export", str(tmp_path / "c.json"), "--db", str(db), "--character", "艾琳")
    char_doc = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert (char_doc["scope"], char_doc["characterName"]) == ("character", "艾琳")
    custom = [*doc["schema"][:1], {"id": "Rule Constraint", "tableColumns": ["title", "scope"]}]
    code, out = cli("schema", "import", str(write(tmp_path / "bare.json", custom)), "--db", str(db))
    assert code == 0 and out == {"types": ["event", "rule_constraint"]}
    code, out = cli("schema", "import", str(write(tmp_path / "wrapped.json", doc)), "--db", str(db))
    assert code == 0 and len(out["types"]) == 4
    code, out = cli(
        "schema", "import", str(write(tmp_path / "w.json", {**doc, "type": "x"})), "--db", str(db)
    )
    assert code == 1 and out["error"]["path"] == "type"
    target = tmp_path / "with-schema.memgraph"
    code, _ = cli(
        "import-luker",
        str(write(tmp_path / "m.json", MESSY)),
        "--db",
        str(target),
        "--schema",
        str(tmp_path / "bare.json"),
    )
    assert code == 0
    with MemoryStore.open(target) as s:
        assert [t.id for t in s.graph.schema.types] == ["event", "rule_constraint"]


# -- safe writes ----
def test_export_keeps_a_bak_and_never_leaves_the_target_missing(store, tmp_path, monkeypatch):
    target = tmp_path / "memory-graph-chat.json"
    export_luker_file(store, target)
    first = target.read_text(encoding="utf-8")
    store.write_api().create_node(type="character_sheet", title="Eileen")
    real_replace = os.replace

    def replace(src, dst):
        assert target.exists(), "the export target vanished during the write"
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    export_luker_file(store, target)
    assert (tmp_path / "memory-graph-chat.json.bak").read_text(encoding="utf-8") == first
    assert "Eileen" in target.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name, target.name + ".bak"]


def test_a_failed_export_leaves_the_old_file(store, tmp_path, monkeypatch):
    target = tmp_path / "out.json"
    export_luker_file(store, target)
    old = target.read_text(encoding="utf-8")
    store.write_api().create_node(type="character_sheet", title="Eileen")

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        export_luker_file(store, target)
    assert target.read_text(encoding="utf-8") == old
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


# -- demo generator ----
def test_demo_is_deterministic_and_sized():
    assert generate(600, 3) == generate(600, 3)
    assert generate(600, 3)[0] != generate(600, 4)[0]
    for size in (12, 50, 601, 2000):
        nodes, edges, meta = generate(size, 1)
        assert len(nodes) == size == len({n.id for n in nodes}) == meta["nodeSeq"]
        ids = {n.id for n in nodes}
        assert all(e.from_id in ids and e.to_id in ids and e.from_id != e.to_id for e in edges)


def test_demo_content_at_2000_nodes(store):
    load_demo(store, 2000, 1)
    with store.reading() as g:
        nodes, ids = list(g.nodes.values()), set(g.nodes)
        assert len(nodes) == 2000 and any(n.archived for n in nodes)
        assert {1, 2, 3} <= {n.semantic_depth for n in nodes if n.semantic_rollup}
        for n in nodes:
            if n.parent_id:
                assert n.id in g.nodes[n.parent_id].children_ids
            assert all(g.nodes[c].parent_id == n.id for c in n.children_ids)
    aliases = [str(n.fields.get("aliases", "")) for n in nodes if n.type == "character_sheet"]
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in a) for a in aliases)
    assert any(any(ch.isascii() and ch.isalpha() for ch in a) for a in aliases)
    state = store.read_api().get_injection_state()
    assert state.always_inject_ids and state.recall_selected_ids and state.visible_ids
    assert state.always_inject_ids | state.recall_selected_ids | state.visible_ids <= ids

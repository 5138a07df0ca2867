"""graph.json in and out (``core.nuggets.graph_file`` / ``note_files``, ``memgraph
import-nuggets`` / ``export-nuggets``): Nuggets' own load, byte for byte; bad files refused with
nothing written; version 2 migrated; one undo step; ``.bak`` kept; the changed-on-disk check."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.nuggets import js_json, model
from memgraph_gui.core.nuggets.graph_file import normalise_document, read_graph_file
from memgraph_gui.core.nuggets.note_files import (
    export_graph_file,
    graph_document_text,
    import_graph_file,
    install_notes,
)
from memgraph_gui.core.storage.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from boundary_helpers import make_db, run

DATA = Path(__file__).parent / "data"
NOW = "2026-11-26T05:00:00.000Z"


def _note(note_id: str, **extra: Any) -> dict[str, Any]:
    return {"id": note_id, "nuggetName": "n", "title": note_id, "tags": [], **extra}


def _write(path: Path, doc: Any) -> Path:
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def _import_text(store: Store, path: Path) -> str:
    install_notes(store, read_graph_file(path, now=NOW))
    return graph_document_text(store)[0]


# -- Nuggets' own bytes ---------------------------------------------------------------------------
ORACLE = json.loads((DATA / "graph_json_oracle.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", range(len(ORACLE["cases"])))
def test_export_of_an_import_is_what_nuggets_writes_after_loading_it(
    case: int, tmp_path: Path
) -> None:
    """150 random files (unknown keys, array-index keys, nulls, odd numbers, CJK, JS-only
    whitespace, dangling and repeated links, versions 1-3 and none): our export after import is
    ``JSON.stringify(normalizeGraph(doc), null, 2) + "\\n"`` as node computed it."""
    item = ORACLE["cases"][case]
    source = _write(tmp_path / "graph.json", item["input"])
    with Store.open(":memory:") as store:
        assert _import_text(store, source) == item["expected"]
        again = _write(tmp_path / "again.json", item["expected"])  # normal form: same bytes
        assert _import_text(store, again) == item["expected"]


def test_js_number_and_string_printing() -> None:
    cases = {
        "1.0": "1",
        "-0.0": "0",
        "1e-7": "1e-7",
        "1e-6": "0.000001",
        "1e16": "10000000000000000",
        "1e21": "1e+21",
        "12345678901234567890": "12345678901234567000",
        "1.2345678901234567e20": "123456789012345670000",
        "0.1": "0.1",
        '"a\\u0001\\u001f\\u007f\\u2028\\"\\\\\\n"': '"a\\u0001\\u001f\x7f\u2028\\"\\\\\\n"',
    }
    for text, expected in cases.items():
        assert js_json.stringify(json.loads(text)) == expected, text
    assert js_json.stringify({"b": 1, "10": 2, "2": 3, "01": 4}, None) == (
        '{"b":1,"10":2,"2":3,"01":4}'  # the printer keeps order; ``ordered`` makes JS's
    )
    assert list(js_json.ordered({"b": 1, "10": 2, "2": 3, "01": 4})) == ["2", "10", "b", "01"]


# -- the round trip --------------------------------------------------------------------------------
_TEXT = st.text(
    alphabet=st.sampled_from([*"abcXYZ :_-/.\n\t", "記", "憶", "猫", "\u3000", "\xa0", "é"]),
    max_size=12,
)
_ODD_NUMBER = st.sampled_from([0, 1, -1, 1.0, -0.0, 0.5, 1e-7, 1e21, 2**60, 0.1, 3.25, 1e16])
_JSON = st.recursive(
    st.none() | st.booleans() | _ODD_NUMBER | _TEXT,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["k", "0", "7", "中", "z"]), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def _documents(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(0, 6))
    ids = [f"note-n-{i:08x}" for i in range(count)]
    notes = []
    for note_id in ids:
        note: dict[str, Any] = {
            "id": note_id,
            "title": draw(_TEXT),
            "tags": draw(st.lists(_TEXT, max_size=4)),
        }
        optional = {
            "nuggetName": st.sampled_from(["n", "my work", "其他"]),
            "content": _TEXT,
            "kind": st.sampled_from(["fact", "note"]),
            "sourceKey": _TEXT,
            "links": st.lists(
                st.fixed_dictionaries(
                    {
                        "to": st.sampled_from([*ids, "note-gone"]),
                        "reason": _TEXT,
                        "createdAt": st.just(NOW),
                    }
                ),
                max_size=4,
            ),
            "vector": st.fixed_dictionaries(
                {"seed": _ODD_NUMBER, "basis": st.lists(_TEXT, max_size=3)}
            ),
            "hidden": st.booleans(),
            "hits": _ODD_NUMBER,
            "confidence": _ODD_NUMBER,
            "scope": st.sampled_from(["user", "self", "session", "project"]),
            "archivedAt": st.just(NOW),
            "unknownKey": _JSON,
            "12": _JSON,
        }
        for key in draw(st.lists(st.sampled_from(sorted(optional)), unique=True)):
            note[key] = draw(optional[key])
        notes.append(note)
    return {"version": draw(st.sampled_from([3, 2])), "notes": notes}


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(doc=_documents())
def test_round_trip_keeps_the_notes_and_a_normal_file_re_exports_byte_identical(
    tmp_path: Path, doc: dict[str, Any]
) -> None:
    source = _write(tmp_path / "in.json", json.dumps(doc, ensure_ascii=False))
    with Store.open(":memory:") as store:
        first = _import_text(store, source)
        exported = _write(tmp_path / "out.json", first)
        with Store.open(":memory:") as other:
            second = _import_text(other, exported)
            notes = [model.note_json(n) for n in sorted(other.graph.nodes.values(), key=_ord)]
        assert second == first  # import -> export -> import -> export: the same bytes
        kept = [model.note_json(n) for n in sorted(store.graph.nodes.values(), key=_ord)]
        assert notes == kept  # ... and the same notes
        edges = set(store.graph.edges)
    ids = {raw["id"] for raw in doc["notes"]}
    want_edges = set()
    for raw, note in zip(doc["notes"], json.loads(first)["notes"], strict=True):
        assert note["id"] == raw["id"]
        assert set(raw) <= set(note)  # every key kept (none is null here) ...
        in_js_order = [k for k in js_json.ordered(raw) if k in note]
        assert [k for k in note if k in raw] == in_js_order  # ... in its place
        for key in ("unknownKey", "12", "vector"):  # unknown keys and stored vectors as stored
            if key in raw:
                assert js_json.stringify(note[key]) == js_json.stringify(js_json.ordered(raw[key]))
        seen, links = set(), []
        for link in raw.get("links", []):
            if f"{link['to']}::{link['reason'].lower()}" not in seen:
                seen.add(f"{link['to']}::{link['reason'].lower()}")
                links.append(link)
        assert note["links"] == links  # deduped, dangling ones kept, reasons as stored
        want_edges |= {
            (raw["id"], model.LINK_EDGE, link["to"])
            for link in links
            if link["to"] in ids and link["to"] != raw["id"]
        }
    assert edges == want_edges


def _ord(node: Any) -> int:
    return int(node.ord)


# -- bad files ---------------------------------------------------------------------------------------
BAD = [
    ("", "is empty"),
    ("{", "not valid JSON"),
    ('{"version": 3, "notes": [{"id": "a", "title": "t", "tags": [], "x": NaN}]}', "NaN"),
    ("[]", "expected a JSON object"),
    ('{"version": 3, "notes": 5}', "notes: expected a list"),
    ('{"version": 3}', "notes: missing"),
    ('{"notes": [{"id": "a", "title": "\\ud800", "tags": []}]}', "notes[0].title: lone surrogate"),
    ('{"nodes": {}, "notes": null}', "notes: missing"),
    ('{"notes": [{"title": "t", "tags": []}]}', "notes[0].id: missing"),
    ('{"notes": [{"id": "a", "tags": []}]}', "notes[0].title: missing"),
    ('{"notes": [{"id": "a", "title": "t"}]}', "notes[0].tags: missing"),
    ('{"notes": [{"id": "a", "title": "t", "tags": null}]}', "notes[0].tags: missing"),
    ('{"notes": [{"id": 7, "title": "t", "tags": []}]}', "notes[0].id: expected a non-empty"),
    ('{"notes": [{"id": "a", "title": 1, "tags": []}]}', "notes[0].title: expected a string"),
    ('{"notes": [{"id": "a", "title": "t", "tags": [1]}]}', "notes[0].tags[0]: expected a"),
    ('{"notes": [1]}', "notes[0]: expected an object"),
    (
        '{"notes": [{"id": "a", "title": "t", "tags": []}, {"id": "a", "title": "u", "tags": []}]}',
        "notes[1].id: 'a' is also the id of notes[0]",
    ),
    (
        '{"notes": [{"id": "a", "title": "t", "tags": [], "links": [{"to": "b"}]}]}',
        "notes[0].links[0].reason: expected a string",
    ),
    ('{"notes": [{"id": "a", "title": "t", "tags": [], "content": 5}]}', "notes[0].content"),
    ('{"notes": [{"id": "n_1", "title": "t", "tags": []}]}', "notes[0].id: 'n_1' is the id of"),
]


@pytest.mark.parametrize(("text", "place"), BAD)
def test_a_bad_file_is_refused_naming_the_place_and_nothing_is_written(
    text: str, place: str, tmp_path: Path
) -> None:
    db = make_db(tmp_path)  # Luker nodes n_1..n_3
    good = _write(tmp_path / "good.json", {"version": 3, "notes": [_note("note-n-1")]})
    assert run(db, "import-nuggets", str(good))[0] == 0
    with MemoryStore.open(db) as store:
        tables, depth = store.dump(), store.history.depth()
    source = _write(tmp_path / "graph.json", text)
    data = source.read_bytes()
    code, lines = run(db, "import-nuggets", str(source))
    assert code == 1
    assert lines[0]["error"]["code"] == "BAD_IMPORT"
    assert place in lines[0]["error"]["message"], lines
    assert source.read_bytes() == data  # the file byte-identical
    with MemoryStore.open(db) as store:
        assert store.dump() == tables and store.history.depth() == depth  # nothing written
    if "n_1" in place:
        return  # a Luker node's id: refused by this store only
    with Store.open(":memory:") as fresh, pytest.raises(MemgraphError) as raised:
        import_graph_file(fresh, source)
    assert place in raised.value.message and source.read_bytes() == data


def test_a_bad_file_creates_no_store(tmp_path: Path) -> None:
    db = tmp_path / "new.memgraph"
    source = _write(tmp_path / "graph.json", '{"notes": [{"id": "a"}]}')
    code, lines = run(db, "import-nuggets", str(source))
    assert code == 1 and "notes[0].title: missing" in lines[0]["error"]["message"]
    assert not db.exists()


def test_nan_and_infinity_are_not_json(tmp_path: Path) -> None:
    for token in ("NaN", "Infinity", "-Infinity"):
        doc = '{"notes": [{"id": "a", "title": "t", "tags": [], "confidence": ' + token + "}]}"
        with pytest.raises(MemgraphError, match="not valid JSON"):
            read_graph_file(_write(tmp_path / "g.json", doc), now=NOW)


# -- migration -----------------------------------------------------------------------------------
def test_version_2_facts_get_a_scope_prefix_and_all_six_fields_are_inferred_again() -> None:
    stored = {"subject": "x", "scope": "galaxy", "type": "t", "source": "s", "confidence": 0.1}
    doc = {
        "version": 2,
        "notes": [
            _note("f1", kind="fact", title="favorite_drink", sourceKey="favorite_drink", **stored),
            _note("f2", kind="fact", title=" deploy cmd ", content="the server path"),
            _note("f3", kind="fact", title="project:x", sourceKey="project:x", **stored),
            _note("n1", title=" assistant persona ", **stored),
        ],
    }
    f1, f2, f3, n1 = normalise_document(doc, now=NOW)
    assert (f1["title"], f1["sourceKey"]) == ("user:favorite_drink", "user:favorite_drink")
    assert [f1[k] for k in ("subject", "scope", "type", "source", "confidence", "stability")] == [
        "user:primary",
        "user",
        "fact",
        "explicit_user",
        0.9,
        "durable",
    ]
    assert f2["title"] == "shared:deploy cmd" and "sourceKey" not in f2
    assert f2["scope"] == "shared"
    assert f3["title"] == "project:x" and f3["scope"] == "galaxy"  # prefixed: not migrated
    assert n1["title"] == "assistant persona"  # a note keeps its title ...
    assert (n1["scope"], n1["type"], n1["source"]) == ("self", "self_model", "agent_reflection")
    no_version = normalise_document({"notes": doc["notes"]}, now=NOW)
    assert no_version[0]["title"] == "favorite_drink" and no_version[0]["scope"] == "galaxy"


def test_load_defaults_and_null_is_missing() -> None:
    [note] = normalise_document(
        {
            "notes": [
                {
                    "id": "a",
                    "title": " T ",
                    "tags": [" A b ", "a-b", ""],
                    "donnaName": "legacy",
                    "hits": None,
                    "sourceKey": None,
                    "archivedAt": None,
                    "confidence": 7,
                    "scope": None,
                    "extra": {"2": 1, "1": 2},
                    "links": [
                        {"to": "x", "reason": "Same", "createdAt": NOW},
                        {"to": "x", "reason": "same", "createdAt": "later"},
                        {"to": "gone", "reason": "r", "createdAt": NOW},
                    ],
                }
            ]
        },
        now=NOW,
    )
    assert list(note)[:8] == [
        "id",
        "title",
        "tags",
        "donnaName",
        "hits",
        "confidence",
        "scope",
        "extra",
    ]
    assert note["nuggetName"] == "legacy" and note["hits"] == 0 and note["confidence"] == 1.0
    assert note["title"] == "T" and note["tags"] == ["a-b"] and note["content"] == ""
    assert [link["to"] for link in note["links"]] == ["x", "gone"]
    assert "sourceKey" not in note and "archivedAt" not in note
    assert note["createdAt"] == note["updatedAt"] == note["lastAccessedAt"] == NOW
    assert note["vector"] == {"seed": 0, "basis": []} and note["scope"] == "user"
    assert list(note["extra"]) == ["1", "2"]


# -- into a store --------------------------------------------------------------------------------
def test_import_replaces_the_notes_in_one_undo_step_and_leaves_luker_nodes(
    tmp_path: Path,
) -> None:
    db = make_db(tmp_path)
    first = _write(
        tmp_path / "a.json",
        {"notes": [_note("a", links=[{"to": "b", "reason": "r", "createdAt": NOW}]), _note("b")]},
    )
    second = _write(
        tmp_path / "b.json",
        {
            "version": 3,
            "notes": [
                _note("c", links=[{"to": "a", "reason": "r", "createdAt": NOW}]),
                _note("b", links=[{"to": "c", "reason": "r", "createdAt": NOW}]),
            ],
        },
    )
    with MemoryStore.open(db) as store:
        luker = {k: v for k, v in store.graph.nodes.items() if not model.is_note(v)}
        done = import_graph_file(store.storage, first)
        assert done.notes == 2 and done.links == 1
        assert store.history.undo_step().label == "Import graph.json (2 notes)"
        after_first = store.dump()
        result = import_graph_file(store.storage, second)
        assert (result.added, result.removed, result.links) == (1, 1, 1)  # "a" is gone
        graph = store.graph
        assert sorted(k for k, n in graph.nodes.items() if model.is_note(n)) == ["b", "c"]
        assert sorted(graph.edges) == [("b", model.LINK_EDGE, "c")]  # c -> a dangles now
        assert {k: v for k, v in graph.nodes.items() if not model.is_note(v)} == luker
        text = graph_document_text(store.storage)[0]
        assert [n["id"] for n in json.loads(text)["notes"]] == ["c", "b"]  # the file's order
        store.history.undo()
        assert store.dump() == after_first


def test_re_import_of_the_same_file_changes_nothing(tmp_path: Path) -> None:
    source = _write(tmp_path / "g.json", {"notes": [_note("a"), _note("b", confidence=1.0)]})
    with MemoryStore.open(tmp_path / "s.memgraph") as store:
        import_graph_file(store.storage, source)
        out = tmp_path / "out.json"
        export_graph_file(store.storage, out)
        again = import_graph_file(store.storage, out)
        assert again.changes is not None and again.changes.empty


# -- export -------------------------------------------------------------------------------------
def test_export_keeps_the_previous_file_as_bak_and_refuses_a_file_changed_on_disk(
    tmp_path: Path,
) -> None:
    db = tmp_path / "s.memgraph"
    graph = _write(tmp_path / "graph.json", {"version": 3, "notes": [_note("a")]})
    original = graph.read_bytes()
    assert run(db, "import-nuggets", str(graph))[0] == 0
    code, lines = run(db, "export-nuggets", str(graph))  # unchanged since: fine
    assert code == 0 and lines[0]["notes"] == 1
    assert (tmp_path / "graph.json.bak").read_bytes() == original
    written = graph.read_bytes()
    agent = json.loads(written)
    agent["notes"].append(_note("by-the-agent"))
    graph.write_text(json.dumps(agent))  # the agent writes it meanwhile
    changed = graph.read_bytes()
    code, lines = run(db, "export-nuggets", str(graph))
    assert code == 1 and lines[0]["error"]["code"] == "FILE_CHANGED_ON_DISK"
    assert "changed on disk" in lines[0]["error"]["message"]
    assert graph.read_bytes() == changed  # refused: untouched
    code, lines = run(db, "export-nuggets", str(graph), "--force")
    assert code == 0 and graph.read_bytes() == written
    assert (tmp_path / "graph.json.bak").read_bytes() == changed
    assert run(db, "export-nuggets", str(graph))[0] == 0  # in step again after the write
    other = tmp_path / "other.json"
    other.write_text("{}")
    assert run(db, "export-nuggets", str(other))[0] == 0  # never imported: no refusal


def test_export_of_an_imported_normal_file_is_byte_identical(tmp_path: Path) -> None:
    item = ORACLE["cases"][3]
    normal = _write(tmp_path / "graph.json", item["expected"])
    data = normal.read_bytes()
    db = tmp_path / "s.memgraph"
    assert run(db, "import-nuggets", str(normal))[0] == 0
    out = tmp_path / "out.json"
    assert run(db, "export-nuggets", str(out))[0] == 0
    assert out.read_bytes() == data
    assert hashlib.sha256(out.read_bytes()).hexdigest() == hashlib.sha256(data).hexdigest()


def test_export_needs_an_existing_store(tmp_path: Path) -> None:
    code, lines = run(tmp_path / "none.memgraph", "export-nuggets", str(tmp_path / "o.json"))
    assert code == 1 and lines[0]["error"]["code"] == "MEMORY_STORE_MISSING"
    assert not (tmp_path / "none.memgraph").exists()


def test_undo_and_redo_of_an_import_restore_each_side_exactly(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    source = _write(tmp_path / "g.json", {"notes": [_note("a"), _note("b", zz={"1": 2})]})
    with MemoryStore.open(db) as store:
        before = store.dump()
        import_graph_file(store.storage, source)
        after = store.dump()
        store.history.undo()
        assert store.dump()["nodes"] == before["nodes"]
        store.history.redo()
        assert store.dump()["nodes"] == after["nodes"] and store.dump()["edges"] == after["edges"]


def test_node_image_text_is_what_dumps_writes_for_the_node() -> None:
    from memgraph_gui.core.domain.freeze import LazyFields
    from memgraph_gui.core.domain.images import NodeImage, dumps, node_image
    from memgraph_gui.core.domain.model import Node

    for node in (
        Node("a", "note", fields=LazyFields('{"x":[1,"é"]}'), ord=3),
        Node("a\u2028", "fact", "nugget", 'é"\n\x01', 7, LazyFields("{}"), "p", ("c", "d")),
        Node(
            "b",
            "event",
            title='t"',
            children_ids=("c",),
            floor_range=(1, 2),
            superseded_by="z",
            archived=True,
            fields=LazyFields("{}"),
            ord=9,
        ),
    ):
        image = NodeImage(node)
        assert image.text == dumps(node_image(node))
        assert dict(image) == {**node_image(node), "fields": node.fields}


def test_another_process_importing_reaches_an_open_store(tmp_path: Path) -> None:
    """Storage, two real processes: a CLI import lands in a store another process holds open."""
    from tests.core.processes import memgraph

    db = make_db(tmp_path)
    source = _write(tmp_path / "g.json", {"version": 3, "notes": [_note("a"), _note("b")]})
    with MemoryStore.open(db) as store:
        assert not any(model.is_note(n) for n in store.graph.nodes.values())
        done = memgraph("--db", str(db), "import-nuggets", str(source))
        assert done.returncode == 0, done.stdout + done.stderr
        changes = store.sync()
        assert changes and {"a", "b"} <= changes[-1].nodes_added
        assert model.note_json(store.graph.nodes["b"])["nuggetName"] == "n"


def test_big_files_report_progress_on_stderr_and_errors_are_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memgraph_gui import cli

    monkeypatch.setattr(cli, "PROGRESS_FROM", 0)  # every file counts as big
    db = tmp_path / "s.memgraph"
    source = _write(tmp_path / "g.json", {"notes": [_note(f"n{i}") for i in range(3)]})
    assert run(db, "import-nuggets", str(source))[0] == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("memgraph import-nuggets: reading") and err[-1].endswith(": 100%")
    assert run(db, "export-nuggets", str(tmp_path / "o.json"))[0] == 0
    assert capsys.readouterr().err.splitlines()[-1] == "memgraph export-nuggets: 100%"
    _write(source, '{"notes": [{"id": "a", "title": "t", "tags": "x"}]}')
    assert run(db, "import-nuggets", str(source))[0] == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "memgraph import-nuggets: notes[0].tags: expected a list, found a string"
    )


def test_an_escaped_index_key_is_ordered_as_javascript_orders_it(tmp_path: Path) -> None:
    text = '{"notes": [{"id": "a", "title": "t", "tags": [], "z": 1, "\\u0031": 2}]}'
    with Store.open(":memory:") as store:
        exported = json.loads(_import_text(store, _write(tmp_path / "g.json", text)))
    assert list(exported["notes"][0])[:2] == ["1", "id"]


def test_a_link_to_a_note_later_in_the_file_gets_its_edge(tmp_path: Path) -> None:
    """Every note is in before any edge is made: a link to a note that comes after it in the
    file (and one into a note another import keeps) is an edge, in a fresh store and again."""
    link = {"reason": "r", "createdAt": NOW}
    doc = {
        "version": 3,
        "notes": [
            _note("first", links=[{"to": "last", **link}, {"to": "mid", **link}]),
            _note("mid", links=[{"to": "gone", **link}]),
            _note("last", links=[{"to": "first", **link}]),
        ],
    }
    path = _write(tmp_path / "g.json", doc)
    want = {
        ("first", model.LINK_EDGE, "last"),
        ("first", model.LINK_EDGE, "mid"),
        ("last", model.LINK_EDGE, "first"),
    }
    with MemoryStore.open(tmp_path / "s.memgraph") as store:
        done = import_graph_file(store.storage, path)
        assert done.links == 3 and set(store.graph.edges) == want
        doc["notes"].insert(0, _note("new", links=[{"to": "zlater", **link}]))
        doc["notes"].append(_note("zlater"))
        done = import_graph_file(store.storage, _write(tmp_path / "h.json", doc))
        assert set(store.graph.edges) == want | {("new", model.LINK_EDGE, "zlater")}
        assert done.links == 4

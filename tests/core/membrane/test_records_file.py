"""A JSON list of Membrane records in and out of a store (``core.membrane.records_file``,
``memgraph import-membrane`` / ``export-membrane``): every field comes back, a bad file is
refused naming the place with nothing written, an import is one undo step beside Luker's nodes,
the desk's edges decide the exported relations, and another process's import reaches an open
store."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.domain.model import Edge
from memgraph_gui.core.membrane.model import (
    MEMORY_TYPES,
    RECORD_LEVEL,
    RECORD_SEQ,
    SENSITIVITIES,
    record_json,
)
from memgraph_gui.core.membrane.records_file import (
    check_document,
    export_records_file,
    import_records_file,
    install_records,
    records_document,
)
from tests.core.boundary_helpers import run_process, snapshot


def record(record_id: str, type_: str = "semantic", **extra: Any) -> dict[str, Any]:
    """A small valid record in Membrane's key order."""
    out: dict[str, Any] = {
        "id": record_id,
        "type": type_,
        "sensitivity": "low",
        "confidence": 0.9,
        "salience": 0.5,
        "created_at": "2026-10-01T10:00:00Z",
        "updated_at": "2026-10-01T10:00:00Z",
        "payload": {"kind": type_},
        "audit_log": [],
    }
    out.update(extra)
    return out


def write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


def luker_store(path: Path) -> MemoryStore:
    """A store holding two Luker nodes (n_1, n_2) and a link between them."""
    store = MemoryStore.open(path)
    api = store.write_api()
    api.create_node(type="character_sheet", title="Ann")
    api.create_node(type="event", fields={"summary": "met"})
    return store


# -- the round trip --------------------------------------------------------------------------
_KNOWN = {
    *("id", "type", "sensitivity", "confidence", "salience", "scope", "tags", "created_at"),
    *("updated_at", "lifecycle", "provenance", "relations", "payload", "interpretation"),
    "audit_log",
}
_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)
_NAME = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=10)


@st.composite
def documents(draw: st.DrawFn) -> list[dict[str, Any]]:
    """1-6 records with unique ids, every optional field or not, unknown keys with any JSON
    value, relations to each other (repeats and self-relations too) with weights, stamps and
    unknown keys, keys in any order."""
    ids = draw(
        st.lists(
            _NAME.filter(lambda s: not s.startswith("n_")), min_size=1, max_size=6, unique=True
        )
    )
    out = []
    for record_id in ids:
        fields: dict[str, Any] = {
            "id": record_id,
            "type": draw(st.sampled_from(MEMORY_TYPES)),
            "sensitivity": draw(st.sampled_from(SENSITIVITIES)),
        }
        optional = {
            "salience": st.floats(0, 50) | st.integers(0, 10),
            "confidence": st.floats(0, 1),
            "scope": _TEXT,
            "tags": st.lists(_TEXT, max_size=3),
            "created_at": _TEXT,
            "updated_at": _TEXT,
            "payload": st.dictionaries(_TEXT, _JSON, max_size=3),
            "audit_log": st.lists(_JSON, max_size=2),
        }
        for key, strategy in optional.items():
            if draw(st.booleans()):
                fields[key] = draw(strategy)
        relation = st.fixed_dictionaries(
            {"predicate": _NAME, "target_id": st.sampled_from(ids)},
            optional={"weight": st.floats(0, 1), "created_at": _TEXT, "note": _JSON},
        )
        if draw(st.booleans()):
            fields["relations"] = draw(st.lists(relation, max_size=4))
        unknown = draw(st.dictionaries(_NAME.filter(lambda k: k not in _KNOWN), _JSON, max_size=3))
        fields.update(unknown)
        order = draw(st.permutations(list(fields)))
        out.append({key: fields[key] for key in order})
    return out


def dumped(value: Any) -> str:
    """Equal values with equal key order, floats and ints told apart."""
    return json.dumps(value, ensure_ascii=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_an_import_exports_every_record_back_exactly(doc: list[dict[str, Any]]) -> None:
    original = dumped(doc)
    with MemoryStore.open(":memory:") as store:
        api = store.write_api()
        api.create_node(type="character_sheet", title="Ann")  # beside a Luker node
        install_records(store.storage, check_document(json.loads(original)))
        with store.reading() as graph:
            assert dumped(records_document(graph)) == original
            records = [n for n in graph.nodes.values() if n.level == RECORD_LEVEL]
            assert [n.id for n in sorted(records, key=lambda n: n.seq_to)] == [r["id"] for r in doc]
            assert all(
                dumped(record_json(n)) == dumped(r)
                for n, r in zip(sorted(records, key=lambda n: n.seq_to), doc, strict=True)
            )
            wanted = {
                (r["id"], rel["predicate"], rel["target_id"])
                for r in doc
                for rel in r.get("relations") or ()
            }
            assert {key for key in graph.edges if key[0] in {r["id"] for r in doc}} == wanted


def test_the_exported_file_has_the_imported_files_bytes(tmp_path: Path) -> None:
    doc = [
        record("e1", "entity", scope="project-auth", tags=["person"], extra={"x": [1, 2.5]}),
        record(
            "f1",
            relations=[
                {"predicate": "subject_entity", "target_id": "e1", "weight": 1.0},
                {"predicate": "mentions_entity", "target_id": "e1", "created_at": "2026"},
                {"predicate": "subject_entity", "target_id": "e1"},  # a repeat: kept
                {"predicate": "derived_from", "target_id": "n_1"},  # a Luker node
            ],
            sensitivity="hyper",
            unknown_key={"nested": {"ü": "☃"}},
        ),
    ]
    source = write(tmp_path / "records.json", doc)
    with luker_store(tmp_path / "m.memgraph") as store:
        result = import_records_file(store.storage, source)
        assert result.to_json() == {"imported": str(source.resolve()), "records": 2, "relations": 3}
        exported = export_records_file(store.storage, tmp_path / "out.json")
    assert exported.records == 2
    assert (tmp_path / "out.json").read_bytes() == source.read_bytes()


def test_a_compact_file_exports_the_same_values(tmp_path: Path) -> None:
    doc = [record("a", salience=1e2, confidence=1), record("b", tags=None, scope=None)]
    source = tmp_path / "compact.json"
    source.write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")
    with MemoryStore.open(tmp_path / "m.memgraph") as store:
        import_records_file(store.storage, source)
        export_records_file(store.storage, tmp_path / "out.json")
    assert dumped(json.loads((tmp_path / "out.json").read_text("utf-8"))) == dumped(doc)


# -- refusals --------------------------------------------------------------------------------
LOW_LEVELS = "one of public, low, medium, high, hyper"
TYPES = "one of episodic, working, semantic, competence, plan_graph, entity"


def _without(key: str) -> dict[str, Any]:
    out = record("r9")
    del out[key]
    return out


REFUSED: list[tuple[str, Any, str]] = [
    ("not a list", {"records": []}, "expected a JSON list of Membrane records, found an object"),
    (
        "not an object",
        [record("a"), 7],
        "records[1]: expected an object (a Membrane record), found a number",
    ),
    ("no id", [_without("id")], "records[0].id: missing"),
    ("empty id", [record("")], "records[0].id: empty"),
    ("id not a string", [record(12)], "records[0].id: expected a string, found a number"),
    ("no type", [_without("type")], "records[0].type: missing"),
    (
        "type not a string",
        [record("a", ["entity"])],
        "records[0].type: expected a string, found a list",
    ),
    (
        "unknown type",
        [record("a", "procedural")],
        f"records[0].type: unknown memory type 'procedural' ({TYPES})",
    ),
    (
        "unknown sensitivity",
        [record("a"), record("b"), record("c"), record("d", sensitivity="secret")],
        f"records[3].sensitivity: unknown sensitivity 'secret' ({LOW_LEVELS})",
    ),
    (
        "no sensitivity",
        [_without("sensitivity")],
        f"records[0].sensitivity: missing ({LOW_LEVELS})",
    ),
    (
        "salience a string",
        [record("a", salience="high")],
        "records[0].salience: expected a number, found a string",
    ),
    (
        "salience negative",
        [record("a", salience=-1)],
        "records[0].salience: -1 is out of range (at least 0)",
    ),
    (
        "confidence above 1",
        [record("a", confidence=2)],
        "records[0].confidence: 2 is out of range (from 0 to 1)",
    ),
    (
        "confidence a boolean",
        [record("a", confidence=True)],
        "records[0].confidence: expected a number, found a boolean",
    ),
    (
        "tags a string",
        [record("a", tags="x")],
        "records[0].tags: expected a list of strings, found a string",
    ),
    (
        "a tag a number",
        [record("a", tags=["x", 3])],
        "records[0].tags[1]: expected a string, found a number",
    ),
    (
        "scope a number",
        [record("a", scope=5)],
        "records[0].scope: expected a string, found a number",
    ),
    (
        "payload a list",
        [record("a", payload=[])],
        "records[0].payload: expected an object, found a list",
    ),
    (
        "relations an object",
        [record("a", relations={})],
        "records[0].relations: expected a list of relations, found an object",
    ),
    (
        "relation not an object",
        [record("a", relations=["b"])],
        "records[0].relations[0]: expected an object (predicate, target_id), found a string",
    ),
    (
        "relation without predicate",
        [record("a", relations=[{"target_id": "a"}])],
        "records[0].relations[0].predicate: missing",
    ),
    (
        "relation without target",
        [record("a", relations=[{"predicate": "supports"}])],
        "records[0].relations[0].target_id: missing",
    ),
    (
        "relation to a missing record",
        [
            record("a"),
            record(
                "b",
                relations=[
                    {"predicate": "supports", "target_id": "a"},
                    {"predicate": "supports", "target_id": "zz"},
                ],
            ),
        ],
        "records[1].relations[1].target_id: 'zz' is neither a record of this file nor a node of "
        "this memory",
    ),
    (
        "two records one id",
        [record("a"), record("b"), record("a")],
        "records[2].id: 'a' is also the id of records[0]",
    ),
    (
        "an id of a record in the store",
        [record("a"), record("old")],
        "records[1].id: 'old' is already a node of this memory (a Membrane record); an import "
        "adds records, it does not overwrite them",
    ),
    (
        "an id of a Luker node",
        [record("n_2")],
        "records[0].id: 'n_2' is already a node of this memory (of type 'event'); an import adds "
        "records, it does not overwrite them",
    ),
    (
        "a control character in a predicate",
        [record("a", relations=[{"predicate": "x\x1fy", "target_id": "a"}])],
        "records[0].relations[0].predicate: holds the control character U+001F at 1 (ids and "
        "predicates are names)",
    ),
    ("a huge id", [record("x" * 1001)], "records[0].id: 1,001 characters (at most 1,000)"),
    (
        "a huge record",
        [record("a", payload={"kind": "semantic", "object": "y" * 1_000_000})],
        "records[0]: 1,000,",  # then the exact size
    ),
]


@pytest.mark.parametrize(("doc", "message"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_a_bad_file_is_refused_naming_the_place_and_nothing_is_written(
    tmp_path: Path, doc: Any, message: str
) -> None:
    db = tmp_path / "m.memgraph"
    with luker_store(db) as store:
        install_records(store.storage, check_document([record("old")]))
    before = snapshot(db)
    source = write(tmp_path / "bad.json", doc)
    with MemoryStore.open(db) as store, pytest.raises(ImportFormatError) as caught:
        import_records_file(store.storage, source)
    assert caught.value.code == "BAD_IMPORT"
    if message.endswith(","):
        assert caught.value.message.startswith(message)
        assert "characters of JSON (at most 1,000,000)" in caught.value.message
    else:
        assert caught.value.message == message
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is empty: not valid JSON"),
        ('[{"id": "a", ', "line 1"),
        ('[{"id": "a", "type": "semantic", "sensitivity": "low", "salience": NaN}]', "NaN"),
        ('[{"id": "\\ud800", "type": "semantic", "sensitivity": "low"}]', "lone surrogate"),
    ],
    ids=["empty", "malformed", "NaN", "lone surrogate"],
)
def test_a_file_that_is_not_strict_json_is_refused(tmp_path: Path, text: str, message: str) -> None:
    db = tmp_path / "m.memgraph"
    luker_store(db).close()
    before = snapshot(db)
    source = tmp_path / "bad.json"
    source.write_text(text, encoding="utf-8")
    with MemoryStore.open(db) as store, pytest.raises(ImportFormatError, match=message):
        import_records_file(store.storage, source)
    assert snapshot(db) == before


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([record("a", salience=float("inf"))], "records[0].salience: inf is out of range"),
        ([record("a", payload={"x": float("nan")})], "records[0]: holds a number JSON cannot"),
        ([record("a"), record("b", tags=["\ud800"])], "records[1].tags[0]: lone surrogate"),
    ],
    ids=["infinite salience", "NaN in the payload", "lone surrogate"],
)
def test_a_document_made_in_python_is_refused_for_what_no_json_file_holds(
    doc: list[dict[str, Any]], message: str
) -> None:
    with pytest.raises(ImportFormatError) as caught:
        check_document(doc)
    assert caught.value.message.startswith(message)


# -- the import as a step ------------------------------------------------------------------------
def test_an_import_is_one_undo_step_beside_luker_nodes_and_notes_and_undo_removes_it_whole(
    tmp_path: Path,
) -> None:
    db = tmp_path / "m.memgraph"
    with luker_store(db) as store:
        first = install_records(store.storage, check_document([record("a"), record("b")]))
        assert first.changes is not None
        store.nuggets("agent").remember("user:tea", "green")  # a Nuggets note beside them
        note = store.nuggets("agent").list_notes()[0]["id"]
        before = store.dump()
        seen: list[ChangeSet] = []
        store.subscribe(seen.append)
        doc = [
            record("c", relations=[{"predicate": "supports", "target_id": "a"}]),
            record(
                "d",
                relations=[
                    {"predicate": "mentions_entity", "target_id": "n_1"},
                    {"predicate": "supports", "target_id": "c"},
                ],
            ),
            record("e", relations=[{"predicate": "derived_from", "target_id": note}]),
        ]
        result = install_records(store.storage, check_document(doc))
        assert result.records == 3 and result.relations == 4
        changes = result.changes
        assert changes is not None and seen == [changes]
        assert changes.label == "Import 3 Membrane records"
        assert changes.nodes_added == {"c", "d", "e"}
        assert changes.edges_added == {
            ("c", "supports", "a"),
            ("d", "mentions_entity", "n_1"),
            ("d", "supports", "c"),
            ("e", "derived_from", note),
        }
        with store.reading() as graph:
            assert [graph.nodes[i].seq_to for i in "abcde"] == [1, 2, 3, 4, 5]
            assert graph.meta[RECORD_SEQ] == 5
            assert graph.nodes["n_1"].title == "Ann"
            assert graph.nodes[note].title == "user:tea"
        assert store.history.steps()[0].label == "Import 3 Membrane records"

        store.history.undo()
        assert store.dump() == before
        with store.reading() as graph:
            assert graph.meta[RECORD_SEQ] == 2
        store.history.redo()
        with store.reading() as graph:
            assert {"c", "d", "e"} <= set(graph.nodes)


def test_the_desks_edges_decide_the_exported_relations(tmp_path: Path) -> None:
    doc = [
        record("a"),
        record(
            "b",
            relations=[
                {"predicate": "supports", "target_id": "a", "weight": 0.5},
                {"predicate": "derived_from", "target_id": "a"},
                {"predicate": "mentions_entity", "target_id": "n_1"},
            ],
        ),
    ]
    with luker_store(tmp_path / "m.memgraph") as store:
        install_records(store.storage, check_document(doc))
        with store.storage.transaction(OpKind.BATCH, "desk edits") as tx:
            tx.remove_edge(("b", "derived_from", "a"))  # a link removed in the desk
            tx.put_edge(Edge("b", "n_2", "involved_in"))  # links drawn in the desk
            tx.put_edge(Edge("a", "b", "supported_by"))
            tx.put_edge(Edge("a", "n_2", "contains"))  # the hierarchy's: not a relation
            tx.remove_node("n_1")  # the relation's target is gone: kept as stored
            tx.remove_edge(("b", "mentions_entity", "n_1"))
        with store.reading() as graph:
            exported = records_document(graph)
    assert exported[0]["relations"] == [{"predicate": "supported_by", "target_id": "b"}]
    assert exported[1]["relations"] == [
        {"predicate": "supports", "target_id": "a", "weight": 0.5},
        {"predicate": "mentions_entity", "target_id": "n_1"},
        {"predicate": "involved_in", "target_id": "n_2"},
    ]
    assert list(exported[0]) == [*record("a"), "relations"]


def test_another_process_imports_while_a_store_is_open_and_the_open_store_sees_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "m.memgraph"
    source = write(
        tmp_path / "records.json",
        [
            record("a"),
            record("b", relations=[{"predicate": "supports", "target_id": "a"}]),
        ],
    )
    with luker_store(db) as store:
        arrived = threading.Event()
        seen: list[ChangeSet] = []

        def on_change(changes: ChangeSet) -> None:
            seen.append(changes)
            if changes.external and changes.nodes_added:
                arrived.set()

        store.subscribe(on_change)
        store.start_watcher()
        done = run_process(db, "import-membrane", str(source))
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == {
            "imported": str(source.resolve()),
            "records": 2,
            "relations": 1,
        }
        assert arrived.wait(5.0), seen
        external = [c for c in seen if c.external and c.nodes_added]
        assert external[0].label == "Import 2 Membrane records"
        assert external[0].nodes_added == {"a", "b"}
        with store.reading() as graph:
            assert ("b", "supports", "a") in graph.edges
            assert record_json(graph.nodes["b"]) == json.loads(source.read_text("utf-8"))[1]


# -- the command line ----------------------------------------------------------------------------
def test_the_cli_imports_exports_and_refuses_with_an_error_json(tmp_path: Path) -> None:
    db = tmp_path / "cli.memgraph"
    doc = [record("a", scope="s"), record("b", relations=[{"predicate": "p", "target_id": "a"}])]
    source = write(tmp_path / "records.json", doc)
    bad = write(tmp_path / "bad.json", [record("c", sensitivity="secret")])

    refused = run_process(db, "import-membrane", str(bad))
    assert refused.returncode == 1
    assert json.loads(refused.stdout) == {
        "error": {
            "code": "BAD_IMPORT",
            "message": f"records[0].sensitivity: unknown sensitivity 'secret' ({LOW_LEVELS})",
            "path": "records[0].sensitivity",
        }
    }
    assert b"memgraph import-membrane: records[0].sensitivity" in refused.stderr
    assert not db.exists()  # a bad file creates nothing

    done = run_process(db, "import-membrane", str(source))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "imported": str(source.resolve()),
        "records": 2,
        "relations": 1,
    }
    again = run_process(db, "import-membrane", str(source))
    assert again.returncode == 1
    assert json.loads(again.stdout)["error"]["path"] == "records[0].id"

    out = tmp_path / "out.json"
    exported = run_process(db, "export-membrane", str(out))
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout) == {
        "written": str(out.resolve()),
        "records": 2,
        "bytes": out.stat().st_size,
    }
    assert out.read_bytes() == source.read_bytes()

    missing = run_process(tmp_path / "none.memgraph", "export-membrane", str(out))
    assert missing.returncode == 1
    assert json.loads(missing.stdout)["error"]["code"] == "MEMORY_STORE_MISSING"

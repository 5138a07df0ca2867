"""``memgraph call`` with the Nuggets methods: the nugget name first, NaN / Infinity allowed in
their arguments only, strict JSON out, BAD_ARGS naming the place, refusals as null / false."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from tests.core.boundary_helpers import run, snapshot


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "n.memgraph"
    MemoryStore.open(path).close()
    return path


def _result(db: Path, method: str, args_json: str) -> Any:
    code, lines = run(db, "call", method, args_json)  # every line parsed strictly
    assert code == 0 and len(lines) == 1, lines
    return lines[0]["result"]


def _error(db: Path, method: str, args_json: str) -> str:
    before = snapshot(db)
    code, lines = run(db, "call", method, args_json)
    assert code == 1 and lines[0]["error"]["code"] == "BAD_ARGS", lines
    assert snapshot(db) == before
    return str(lines[0]["error"]["message"])


def _confidence(db: Path, key: str) -> Any:
    [note] = [n for n in _result(db, "listNotes", '["n"]') if n["title"] == key]
    return note["confidence"]


@pytest.mark.parametrize(
    ("token", "stored"),
    [("NaN", 0.7), ("Infinity", 0.7), ("-Infinity", 0.7), ("1e400", 0.7), ("2", 1), ("-0.5", 0)],
)
def test_a_confidence_is_clamped_and_a_non_finite_one_stored_as_0_7(
    db: Path, token: str, stored: float
) -> None:
    assert _result(db, "remember", f'["n", "k", "v", {{"confidence": {token}}}]') is None
    assert _confidence(db, "k") == stored
    note = _result(db, "createNote", f'["n", "t", "c", null, {{"confidence": {token}}}]')
    assert note["confidence"] == stored


def test_call_lines_take_nan_for_nuggets_methods_only(db: Path) -> None:
    lines = (
        '{"call": "remember", "args": ["n", "k", "v", {"confidence": NaN}]}\n'
        '{"call": "updateNote", "args": ["n", "nope", {"hits": Infinity}]}\n'
        '{"call": "listNodes", "args": [{"limit": NaN}]}\n'
        '{"call": "listNotes", "args": ["n"]}\n'
    )
    code, out = run(db, "call", "-", stdin=lines.encode())
    assert code == 1
    assert out[0] == {"result": None} and out[1] == {"result": None}
    assert out[2]["error"]["code"] == "BAD_ARGS" and "NaN" in out[2]["error"]["message"]
    assert [note["confidence"] for note in out[3]["result"]] == [0.7]


def test_a_non_finite_hit_count_is_stored_as_0(db: Path) -> None:
    note = _result(db, "createNote", '["n", "t", "c"]')
    updated = _result(db, "updateNote", json.dumps(["n", note["id"]])[:-1] + ', {"hits": NaN}]')
    assert updated["hits"] == 0


def test_refusals_are_null_or_false_results(db: Path) -> None:
    before = snapshot(db)
    assert _result(db, "remember", '["n", " ", "v"]') is None
    assert _result(db, "editNote", '["n", "nope", "x"]') is None
    assert _result(db, "updateNote", '["n", "nope", {}]') is None
    assert _result(db, "deleteNote", '["n", "nope", true]') is False
    assert _result(db, "addLink", '["n", "a", "b", "r"]') is False
    assert _result(db, "mergeNotes", '["n", "a", "b", "r"]') is None
    assert _result(db, "recordHit", '["n", "nope"]') is None
    assert _result(db, "getNote", '["n", "nope"]') is None
    assert _result(db, "listNotes", '["nobody", {"includeHidden": true}]') == []
    assert snapshot(db) == before


def test_every_write_method_works_through_call(db: Path) -> None:
    _result(db, "remember", '["n", "user:tea", "green"]')
    alpha = _result(db, "createNote", '["n", "Alpha", "a", ["x"], {"scope": "project"}]')
    beta = _result(db, "createNote", '["n", "Beta", "b"]')
    assert _result(db, "addLink", '["n", "alpha", "BETA", "r"]') is True
    edited = _result(db, "editNote", json.dumps(["n", alpha["id"], "a2", {"title": "A2"}]))
    assert edited["title"] == "A2" and edited["content"] == "a2"
    updated = _result(db, "updateNote", json.dumps(["n", beta["id"], {"hits": 2}]))
    assert updated["hits"] == 2
    assert _result(db, "recordHit", json.dumps(["n", beta["id"], "s"])) is None
    merged = _result(db, "mergeNotes", '["n", "A2", "beta", "dup"]')
    assert merged["id"] == alpha["id"] and merged["hits"] == 3
    assert _result(db, "deleteNote", json.dumps(["n", beta["id"], True])) is True
    assert _result(db, "getNote", json.dumps(["n", beta["id"]])) is None
    titles = [n["title"] for n in _result(db, "listNotes", '["n", {"scope": "project"}]')]
    assert titles == ["A2"]
    code, history = run(db, "call", "history")
    assert code == 0
    labels = [step["label"] for step in history[0]["result"]]
    assert labels[0] == "Delete 'Beta'" and labels[-1] == "Remember 'user:tea'"
    assert len(labels) == 9


@pytest.mark.parametrize(
    ("method", "args_json", "message"),
    [
        ("remember", "[]", "remember: args[0] must be the nugget name (a string), got nothing"),
        ("remember", '[5, "k", "v"]', "args[0] must be the nugget name (a string), got int"),
        ("remember", '["n", "k"]', "remember takes the nugget name and 2 to 3 argument(s)"),
        ("getNote", '["n", "a", "b"]', "getNote takes the nugget name and 1 argument(s), got 2"),
        ("remember", '["n", "k", 5]', "remember: args[2] must be a string, got a number"),
        ("remember", '["n", "k", NaN]', "remember: args[2] must be a string, got a number"),
        ("remember", '["n", "k", "v", {"scope": 1}]', "remember: args[3].scope must be a string"),
        ("createNote", '["n", "t", "c", "tag"]', "createNote: args[3] must be an array"),
        ("editNote", '["n", "i", "c", {"tags": [1]}]', "editNote: args[3].tags[0] must be a str"),
        ("updateNote", '["n", "i", [1]]', "updateNote: args[2] must be an object"),
        (
            "updateNote",
            '["n", "i", {"links": [{"to": "x"}]}]',
            "updateNote: args[2].links[0].reason must be a string",
        ),
        ("deleteNote", '["n", "i", "yes"]', "deleteNote: args[2] must be true or false"),
        ("addLink", '["n", "a", "b", null]', "addLink: args[3] must be a string, got null"),
        ("recordHit", '["n", "i", 3]', "recordHit: args[2] must be a string"),
        ("listNotes", '["n", {"scope": 3}]', "listNotes: args[1].scope must be a string"),
        ("listNotes", '["n", {"includeHidden": 1}]', "args[1].includeHidden must be true or false"),
        ("remember", '["n", "k\\ud800", "v"]', "args[1]: lone surrogate U+D800"),
    ],
)
def test_wrong_argument_types_are_bad_args_naming_the_place(
    db: Path, method: str, args_json: str, message: str
) -> None:
    assert message in _error(db, method, args_json)


def test_a_missing_store_is_reported_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "none.memgraph"
    code, lines = run(missing, "call", "remember", '["n", "k", "v"]')
    assert code == 1 and lines[0]["error"]["code"] == "MEMORY_STORE_MISSING"
    assert not missing.exists()
    code, lines = run(missing, "call", "remember", '["n", "k", "v"]', "--create")
    assert code == 0 and lines == [{"result": None}]

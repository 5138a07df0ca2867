"""``memgraph call retrieveGraph`` / ``retrieveByID``: positional arguments in Membrane's order
(null = left out), answers as ``{"result": ...}``, errors as ``{"error": {"code", "message"}}``,
in process, through ``call -`` and as a real process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore, jsonapi
from tests.core.boundary_helpers import error_of, run, run_process, strict
from tests.core.membrane.conftest import put, rec, trust

MEDIUM = {"max_sensitivity": "medium"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "m.memgraph"
    with MemoryStore.open(path) as store:
        put(
            store,
            [
                rec(
                    "task",
                    "entity",
                    "low",
                    0.2,
                    payload={"kind": "entity", "canonical_name": "task"},
                ),
                rec("fact", "semantic", "medium", 0.9, relations=[("mentions_entity", "task")]),
                rec("secret", "semantic", "high", 0.8, relations=[("r", "fact")]),
                rec("hyper", "semantic", "hyper", 0.99),
            ],
        )
    return path


def call(db: Path, method: str, arguments: list[Any]) -> tuple[int, list[Any]]:
    return run(db, "call", method, json.dumps(arguments))


def test_retrieve_graph_with_the_issues_arguments(db: Path) -> None:
    code, lines = call(db, "retrieveGraph", ["task", MEDIUM, None, 0, 10, 25, 100, 2])
    assert code == 0
    result = lines[0]["result"]
    with MemoryStore.open(db, create=False) as store:
        expected = store.membrane().retrieve_graph("task", MEDIUM, None, 0, 10, 25, 100, 2)
    assert result == expected
    assert result["root_ids"] == ["task", "fact", "secret"]
    assert [n["record"]["id"] for n in result["nodes"]] == ["fact", "secret", "task"]
    assert set(result["nodes"][1]["record"]) == {
        "id",
        "type",
        "sensitivity",
        "salience",
        "scope",
        "tags",
        "created_at",
        "updated_at",
    }


def test_trailing_arguments_may_be_left_out(db: Path) -> None:
    code, short = call(db, "retrieveGraph", ["task", MEDIUM])
    _, nulls = call(db, "retrieveGraph", ["task", MEDIUM, None, None, None, None, None, None])
    assert code == 0
    assert short == nulls


def test_retrieve_by_id(db: Path) -> None:
    code, lines = call(db, "retrieveByID", ["fact", MEDIUM])
    assert code == 0
    assert lines[0]["result"] == rec(
        "fact", "semantic", "medium", 0.9, relations=[("mentions_entity", "task")]
    )
    message = error_of(*call(db, "retrieveByID", ["nope", MEDIUM]), "RECORD_NOT_FOUND")
    assert "'nope'" in message
    error_of(*call(db, "retrieveByID", ["secret", MEDIUM]), "ACCESS_DENIED")
    error_of(*call(db, "retrieveByID", ["hyper", trust("medium")]), "ACCESS_DENIED")


@pytest.mark.parametrize(
    ("method", "arguments", "code"),
    [
        ("retrieveGraph", ["task"], "INVALID_ARGUMENT"),
        ("retrieveGraph", ["task", None], "INVALID_ARGUMENT"),
        ("retrieveGraph", ["task", {"max_sensitivity": "secret"}], "INVALID_ARGUMENT"),
        ("retrieveGraph", ["task", MEDIUM, ["bogus"]], "INVALID_ARGUMENT"),
        (
            "retrieveGraph",
            ["task", MEDIUM, None, None, None, None, None, None, None],
            "INVALID_ARGUMENT",
        ),
        ("retrieveByID", [], "INVALID_ARGUMENT"),
        ("retrieveByID", ["fact"], "INVALID_ARGUMENT"),
        ("retrieveByID", ["fact", MEDIUM, None], "INVALID_ARGUMENT"),
        ("retrieveByID", [7, MEDIUM], "INVALID_ARGUMENT"),
    ],
)
def test_errors_come_back_as_json(db: Path, method: str, arguments: list[Any], code: str) -> None:
    message = error_of(*call(db, method, arguments), code)
    assert message


def test_a_missing_store(tmp_path: Path) -> None:
    code, lines = run(tmp_path / "none.memgraph", "call", "retrieveByID", json.dumps(["x", MEDIUM]))
    error_of(code, lines, "MEMORY_STORE_MISSING")
    assert not (tmp_path / "none.memgraph").exists()


def test_the_methods_are_listed() -> None:
    assert {"retrieveGraph", "retrieveByID"} <= set(jsonapi.METHODS)


def test_call_stream(db: Path) -> None:
    requests = "\n".join(
        json.dumps(r)
        for r in (
            {"call": "retrieveByID", "args": ["task", MEDIUM]},
            {"call": "retrieveByID", "args": ["secret", MEDIUM]},
            {"call": "retrieveGraph", "args": ["", {"max_sensitivity": "public"}]},
        )
    )
    code, lines = run(db, "call", "-", stdin=requests + "\n")
    assert code == 1
    assert lines[0]["result"]["id"] == "task"
    assert lines[1]["error"]["code"] == "ACCESS_DENIED"
    assert lines[2]["result"] == {
        "nodes": [
            {
                "record": {
                    "id": "task",
                    "type": "entity",
                    "sensitivity": "low",
                    "salience": 0.2,
                    "scope": "",
                    "tags": [],
                    "created_at": "2026-01-01T00:00:00Z",
                    "updated_at": "2026-01-01T00:00:00Z",
                },
                "root": True,
                "hop": 0,
            }
        ],
        "edges": [],
        "root_ids": ["task"],
    }


def test_as_a_real_process(db: Path) -> None:
    done = run_process(
        db, "call", "retrieveGraph", json.dumps(["task", MEDIUM, None, 0, 10, 25, 100, 2])
    )
    assert done.returncode == 0, done.stderr
    result = strict(done.stdout.decode().strip())["result"]
    assert result["root_ids"] == ["task", "fact", "secret"]
    done = run_process(db, "call", "retrieveByID", json.dumps(["secret", MEDIUM]))
    assert done.returncode == 1
    assert strict(done.stdout.decode().strip())["error"]["code"] == "ACCESS_DENIED"

"""``editNode`` with an expectation: a write knows what it was based on and refuses
(``EDIT_CONFLICT``, writing nothing) when another writer moved the stored value on; without one it
is Luker's edit, unchanged. Checked inside the write transaction, with real second processes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from tests.core.processes import memgraph, run_python


def _made(store: Any, **fields: Any) -> str:
    return store.write_api().create_node(type="character_sheet", title="Eileen", fields=fields)[
        "id"
    ]


def _steps(store: Any) -> int:
    return len(store.history.steps())


def test_a_field_moved_on_refuses_with_all_three_values_and_writes_nothing(store: Any) -> None:
    node_id = _made(store, goal="find the sword")
    write = store.write_api()
    write.edit_node(id=node_id, set_fields={"goal": "find the shield"})  # "the agent"
    steps = _steps(store)
    answer = write.edit_node(
        id=node_id, set_fields={"goal": "mine"}, expected={"fields": {"goal": "find the sword"}}
    )
    assert answer["ok"] is False
    error = answer["error"]
    assert error["code"] == "EDIT_CONFLICT" and error["nodeId"] == node_id
    assert error["expected"] == {"fields": {"goal": "find the sword"}}
    assert error["current"] == {"fields": {"goal": "find the shield"}}
    assert error["proposed"] == {"fields": {"goal": "mine"}}
    assert "goal" in error["message"] and "Nothing was written" in error["message"]
    assert store.read_api().get_node(node_id).fields["goal"] == "find the shield"
    assert _steps(store) == steps  # no undo step either


def test_a_matching_expectation_writes_as_before(store: Any) -> None:
    node_id = _made(store, goal="a", aliases=["x"])
    write = store.write_api()
    answer = write.edit_node(
        id=node_id,
        set_fields={"goal": "b"},
        clear_fields=["aliases"],
        expected={"fields": {"goal": "a", "aliases": ["x"], "mood": None}},  # null: absent
    )
    assert answer.payload == {"ok": True, "changed": True}
    node = store.read_api().get_node(node_id)
    assert node.fields["goal"] == "b" and "aliases" not in node.fields


def test_the_title_and_a_cleared_field_conflict_too(store: Any) -> None:
    node_id = _made(store, goal="a")
    write = store.write_api()
    write.edit_node(id=node_id, title="Eileen of the North", set_fields={"goal": "b"})
    refused = write.edit_node(id=node_id, title="Mine", expected={"title": "Eileen"})
    assert refused["error"]["code"] == "EDIT_CONFLICT"
    assert refused["error"]["current"] == {"title": "Eileen of the North"}
    assert refused["error"]["proposed"] == {"title": "Mine"}
    cleared = write.edit_node(id=node_id, clear_fields=["goal"], expected={"fields": {"goal": "a"}})
    assert cleared["error"]["proposed"] == {"fields": {"goal": None}}
    node = store.read_api().get_node(node_id)
    assert node.title == "Eileen of the North" and node.fields["goal"] == "b"


def test_a_value_moved_to_exactly_mine_is_agreement(store: Any) -> None:
    node_id = _made(store, goal="a")
    write = store.write_api()
    write.edit_node(id=node_id, set_fields={"goal": "b"})
    answer = write.edit_node(
        id=node_id, set_fields={"goal": "b"}, expected={"fields": {"goal": "a"}}
    )
    assert answer.payload == {"ok": True, "changed": False, "note": "values already match"}


def test_without_an_expectation_the_last_writer_wins_as_in_luker(store: Any) -> None:
    node_id = _made(store, goal="a")
    write = store.write_api()
    write.edit_node(id=node_id, set_fields={"goal": "b"})
    assert write.edit_node(id=node_id, set_fields={"goal": "c"}).payload == {
        "ok": True,
        "changed": True,
    }


@pytest.mark.parametrize(
    "expected",
    [
        "a",
        {"field": {}},
        {"title": 3},
        {"fields": ["goal"]},
        {"fields": {"": "x"}},
    ],
)
def test_a_malformed_expectation_is_an_argument_error(store: Any, expected: Any) -> None:
    node_id = _made(store, goal="a")
    steps = _steps(store)
    with pytest.raises(MemgraphError) as raised:
        store.write_api().edit_node(id=node_id, set_fields={"goal": "b"}, expected=expected)
    assert raised.value.code == "BAD_ARGS"
    assert _steps(store) == steps


def test_a_batch_edit_with_a_stale_expectation_is_rejected_alone(store: Any) -> None:
    node_id = _made(store, goal="a")
    write = store.write_api()
    write.edit_node(id=node_id, set_fields={"goal": "b"})
    outcome = write.apply_extraction_batch(
        ops=[
            {
                "op": "edit",
                "nodeId": node_id,
                "setFields": {"goal": "c"},
                "expected": {"fields": {"goal": "a"}},
            },
            {"op": "create", "type": "character_sheet", "title": "Kain"},
        ]
    )
    assert [r["error"]["code"] for r in outcome["rejected"]] == ["EDIT_CONFLICT"]
    assert outcome["rejected"][0]["error"]["current"] == {"fields": {"goal": "b"}}
    assert len(outcome["applied"]) == 1
    assert store.read_api().get_node(node_id).fields["goal"] == "b"


# -- two processes ---------------------------------------------------------------------------
def _cli_edit(path: str, payload: dict[str, Any]) -> dict[str, Any]:
    done = memgraph("--db", path, "call", "editNode", json.dumps([payload]))
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)["result"]
    return result


def test_another_process_commit_between_my_read_and_my_write_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """My store reads the value; another process commits at the worst moment, just before my
    write transaction begins; the comparison, made inside that transaction, sees its commit."""
    path = tmp_path / "race.memgraph"
    with MemoryStore.open(path) as mine:
        node_id = _made(mine, goal="started from this")
        seen = mine.read_api().get_node(node_id).fields["goal"]
        begin = mine.storage._begin_write
        agents: list[int] = []

        def agent_commits_then_begin() -> None:
            if not agents:
                agent = run_python(
                    """
                    import sys
                    from memgraph_gui.core import MemoryStore
                    with MemoryStore.open(sys.argv[1], create=False) as s:
                        s.write_api().edit_node(id=sys.argv[2], set_fields={"goal": "the agent's"})
                    """,
                    str(path),
                    node_id,
                )
                _out, err = agent.communicate(timeout=60)
                assert agent.returncode == 0, err
                agents.append(agent.pid)
            begin()

        monkeypatch.setattr(mine.storage, "_begin_write", agent_commits_then_begin)
        answer = mine.write_api().edit_node(
            id=node_id, set_fields={"goal": "the curator's"}, expected={"fields": {"goal": seen}}
        )
        assert agents, "the other process never ran"
        assert answer["error"]["code"] == "EDIT_CONFLICT"
        assert answer["error"]["current"] == {"fields": {"goal": "the agent's"}}
        # "Keep mine": the same value, based on what is stored now, goes through.
        kept = mine.write_api().edit_node(
            id=node_id,
            set_fields={"goal": "the curator's"},
            expected={"fields": {"goal": "the agent's"}},
        )
        assert kept["ok"] is True
    with MemoryStore.open(path, create=False) as check:
        assert check.read_api().get_node(node_id).fields["goal"] == "the curator's"


def test_the_json_boundary_takes_the_expectation(tmp_path: Path) -> None:
    path = tmp_path / "cli.memgraph"
    with MemoryStore.open(path) as store:
        node_id = _made(store, goal="a")
    first = _cli_edit(
        str(path),
        {"id": node_id, "setFields": {"goal": "b"}, "expected": {"fields": {"goal": "a"}}},
    )
    assert first == {"ok": True, "changed": True}
    second = _cli_edit(
        str(path),
        {"id": node_id, "setFields": {"goal": "c"}, "expected": {"fields": {"goal": "a"}}},
    )
    assert second["ok"] is False and second["error"]["code"] == "EDIT_CONFLICT"
    assert second["error"]["expected"] == {"fields": {"goal": "a"}}
    assert second["error"]["current"] == {"fields": {"goal": "b"}}
    assert second["error"]["proposed"] == {"fields": {"goal": "c"}}
    with MemoryStore.open(path, create=False) as check:
        assert check.read_api().get_node(node_id).fields["goal"] == "b"

"""A refused undo never gets stuck: it names what changed (title, who, when, which fields), and
the step can be skipped (the one before it is undone next) or reverted anyway as a new edit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from tests.core.processes import memgraph


def _two_edits(store: MemoryStore) -> tuple[str, str]:
    """The window creates Anna and Eileen and edits both (Anna first)."""
    window = store.write_api(origin="window")
    anna = window.create_node(type="character_sheet", title="Anna")["id"]
    eileen = window.create_node(type="character_sheet", title="Eileen")["id"]
    window.edit_node(id=anna, set_fields={"goal": "the crown"})
    window.edit_node(id=eileen, set_fields={"goal": "the sea"})
    return anna, eileen


def _edit_elsewhere(path: Path, node_id: str, fields: dict[str, Any]) -> None:
    done = memgraph(
        "--db", str(path), "call", "editNode", json.dumps([{"id": node_id, "setFields": fields}])
    )
    assert done.returncode == 0, done.stderr


def _refusal(store: MemoryStore) -> MemgraphError:
    with pytest.raises(MemgraphError) as caught:
        store.history_of("window").undo()
    assert caught.value.code == "UNDO_CONFLICT"
    return caught.value


def test_a_refused_undo_names_the_title_who_when_and_which_fields(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as store:
        _, eileen = _two_edits(store)
        _edit_elsewhere(path, eileen, {"summary": "changed by an agent"})
        store.sync()
        error = _refusal(store)
        details = error.details
        assert details["action"] == "undo"
        assert details["step"]["label"] == "Edit 'Eileen'"
        (conflict,) = details["conflicts"]
        assert conflict["kind"] == "node" and conflict["key"] == eileen
        assert conflict["title"] == "Eileen" and conflict["fields"] == ["summary"]
        by = conflict["by"]
        assert by["origin"].startswith("cli.py:") and by["label"] == "Edit 'Eileen'"
        assert by["ts"] > details["step"]["ts"]
        assert conflict["overwrites"] == [
            {"field": "summary", "current": "changed by an agent", "restored": None}
        ]
        assert "“Edit 'Eileen'”" in error.message and "the node “Eileen”" in error.message
        assert f"by {by['origin']} at " in error.message and "(field summary)" in error.message
        assert eileen not in error.message  # a title, never only an id
        json.dumps(error.to_json())  # the CLI prints it as is


def test_skipping_a_refused_step_lets_the_one_before_it_be_undone(store: MemoryStore) -> None:
    anna, eileen = _two_edits(store)
    store.write_api(origin="agent").edit_node(id=eileen, set_fields={"goal": "theirs"})
    history = store.history_of("window")
    step = _refusal(store).details["step"]["batchId"]
    assert history.depth() == (4, 0)
    before = store.dump()["nodes"]
    skipped = history.skip(step)
    assert skipped.label == "Skip Edit 'Eileen'" and skipped.empty
    assert store.dump()["nodes"] == before  # skipping writes no data
    assert history.depth() == (3, 0)
    assert history.undo_step().label == "Edit 'Anna'"
    listed = history.steps(include_skipped=True)
    assert [(s.label, s.skipped) for s in listed[:2]] == [
        ("Edit 'Eileen'", True),
        ("Edit 'Anna'", False),
    ]
    assert listed[0].to_json()["skipped"] is True
    assert history.steps()[0].label == "Edit 'Anna'"
    assert history.undo().label == "Undo Edit 'Anna'"
    assert "goal" not in store.read_api().get_node(anna).fields
    assert store.read_api().get_node(eileen).fields["goal"] == "theirs"
    assert history.redo().label == "Redo Edit 'Anna'"
    assert history.undo_step().label == "Edit 'Anna'"  # the skipped step never comes back


def test_skip_is_bound_to_the_step_that_was_shown(store: MemoryStore) -> None:
    _, eileen = _two_edits(store)
    history = store.history_of("window")
    shown = history.undo_step()
    store.write_api(origin="window").edit_node(id=eileen, set_fields={"state": "new"})
    with pytest.raises(MemgraphError) as caught:
        history.skip(shown.batch_id)
    assert caught.value.code == "HISTORY_CHANGED"
    assert history.undo_step().label == "Edit 'Eileen'" and history.depth() == (5, 0)


def test_undo_anyway_overwrites_as_a_new_undoable_edit(store: MemoryStore) -> None:
    anna, eileen = _two_edits(store)
    store.write_api(origin="agent").edit_node(
        id=eileen, title="Eileen Ashford", set_fields={"goal": "theirs"}
    )
    details = _refusal(store).details
    (conflict,) = details["conflicts"]
    assert conflict["title"] == "Eileen Ashford" and conflict["fields"] == ["title", "goal"]
    assert {"field": "title", "current": "Eileen Ashford", "restored": "Eileen"} in conflict[
        "overwrites"
    ]
    history = store.history_of("window")
    changes = history.undo_anyway(details["step"]["batchId"], details["seen"])
    assert changes.label == "Revert Edit 'Eileen'" and changes.nodes_updated == {eileen}
    node = store.read_api().get_node(eileen)
    assert node.title == "Eileen" and "goal" not in node.fields
    assert [(s.label, s.skipped) for s in history.steps(include_skipped=True)[:3]] == [
        ("Revert Edit 'Eileen'", False),
        ("Edit 'Eileen'", True),
        ("Edit 'Anna'", False),
    ]
    assert history.undo().label == "Undo Revert Edit 'Eileen'"  # the agent's values come back
    node = store.read_api().get_node(eileen)
    assert node.title == "Eileen Ashford" and node.fields["goal"] == "theirs"
    assert history.redo() is not None
    history.undo()
    assert history.undo().label == "Undo Edit 'Anna'"
    assert "goal" not in store.read_api().get_node(anna).fields


def test_undo_anyway_refuses_when_rows_changed_again_after_they_were_shown(
    store: MemoryStore,
) -> None:
    _, eileen = _two_edits(store)
    agent = store.write_api(origin="agent")
    agent.edit_node(id=eileen, set_fields={"goal": "theirs"})
    shown = _refusal(store).details
    agent.edit_node(id=eileen, set_fields={"goal": "theirs, again"})
    before, depth = store.dump(), store.history_of("window").depth()
    with pytest.raises(MemgraphError) as caught:
        store.history_of("window").undo_anyway(shown["step"]["batchId"], shown["seen"])
    assert caught.value.code == "UNDO_CONFLICT"
    fresh = caught.value.details
    assert fresh["seen"] > shown["seen"]
    assert fresh["conflicts"][0]["overwrites"][0]["current"] == "theirs, again"
    assert store.dump() == before and store.history_of("window").depth() == depth
    store.history_of("window").undo_anyway(fresh["step"]["batchId"], fresh["seen"])
    assert "goal" not in store.read_api().get_node(eileen).fields


def test_undo_anyway_of_a_create_removes_the_links_made_to_it_since(store: MemoryStore) -> None:
    agent = store.write_api(origin="agent")
    base = agent.create_node(type="character_sheet", title="Eileen")["id"]
    fresh = store.write_api(origin="window").create_node(type="location_state", title="Tower")["id"]
    agent.upsert_links(source={"id": base}, links=[{"target": {"id": fresh}, "relation": "knows"}])
    error = _refusal(store)
    conflict = next(c for c in error.details["conflicts"] if c["key"].startswith(base))
    assert conflict["problem"] == "dangling" and conflict["ends"] == ["Eileen", "Tower"]
    assert conflict["by"]["origin"] == "agent"
    assert "the link “Eileen” —knows→ “Tower” was made since by agent at " in error.message
    details = error.details
    store.history_of("window").undo_anyway(details["step"]["batchId"], details["seen"])
    assert fresh not in store.graph.nodes
    assert all(fresh not in (e.from_id, e.to_id) for e in store.graph.edges.values())
    store.history_of("window").undo()  # the revert: the node and its link are back
    assert fresh in store.graph.nodes and (base, "knows", fresh) in store.graph.edges


def test_the_history_call_lists_a_skipped_step_as_skipped(store: MemoryStore) -> None:
    from memgraph_gui.core.jsonapi import call

    _, eileen = _two_edits(store)
    store.write_api(origin="agent").edit_node(id=eileen, set_fields={"goal": "theirs"})
    step = _refusal(store).details["step"]["batchId"]
    store.history_of("window").skip(step)
    listed = {s["batchId"]: s for s in call(store, "history", [])}
    assert listed[step]["skipped"] is True and listed[step]["undone"] is False
    assert all("skipped" not in s for b, s in listed.items() if b != step)

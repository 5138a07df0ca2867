"""Undo scoped to one origin (a window undoes its own edits), and conflicts with later writers."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError


def _node(store: MemoryStore) -> str:
    return store.write_api().create_node(type="character_sheet", title="Eileen")["id"]


def test_origin_history_undoes_only_its_own_steps(store: MemoryStore) -> None:
    node = _node(store)
    window, agent = store.write_api(origin="window"), store.write_api(origin="agent")
    window.edit_node(id=node, set_fields={"goal": "from the window"})
    agent.create_node(type="location_state", title="银月城")
    assert [s.label for s in store.history_of("window").steps()] == ["Edit 'Eileen'"]
    store.history_of("window").undo()
    assert "goal" not in store.read_api().get_node(node).fields
    assert store.read_api().find_by_name(query="银月城").matches  # the agent's step stays


def test_undo_refuses_to_overwrite_a_later_writer(store: MemoryStore) -> None:
    node = _node(store)
    window, agent = store.write_api(origin="window"), store.write_api(origin="agent")
    window.edit_node(id=node, set_fields={"goal": "mine"})
    agent.edit_node(id=node, set_fields={"goal": "theirs"})
    before = store.dump()
    with pytest.raises(MemgraphError) as caught:
        store.history_of("window").undo()
    assert caught.value.code == "UNDO_CONFLICT"
    assert store.dump() == before
    assert store.read_api().get_node(node).fields["goal"] == "theirs"


def test_a_new_step_ends_only_its_own_origins_redo_chain(store: MemoryStore) -> None:
    node = _node(store)
    window, agent = store.write_api(origin="window"), store.write_api(origin="agent")
    window.edit_node(id=node, set_fields={"goal": "one"})
    store.history_of("window").undo()
    agent.create_node(type="location_state", title="黑森林")
    assert store.history_of("window").redo() is not None
    assert store.read_api().get_node(node).fields["goal"] == "one"
    window.edit_node(id=node, set_fields={"goal": "two"})
    store.history_of("window").undo()
    window.edit_node(id=node, set_fields={"goal": "three"})
    assert store.history_of("window").redo() is None


def test_directions_are_case_insensitive(store: MemoryStore) -> None:
    a, b = (
        _node(store),
        store.write_api().create_node(
            type="thread", title="Oath", fields={"status": "active", "note": "n"}
        )["id"],
    )
    result = store.write_api().upsert_links(
        source={"id": a},
        links=[{"target": {"id": b}, "relation": "Mentions", "direction": " OUTGOING "}],
    )
    assert result["applied"] == 1
    assert [e.to_json() for e in store.read_api().list_edges(from_id=a)] == [
        {"from": a, "to": b, "type": "mentions"}
    ]


def test_a_bad_import_creates_no_store_file(tmp_path: Path) -> None:
    from memgraph_gui.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"nodes": {"n_1": {"title": 5}}, "edges": []}))
    target = tmp_path / "new.memgraph"
    out = io.StringIO()
    assert main(["--db", str(target), "import-luker", str(bad)], stdout=out) == 1
    error = json.loads(out.getvalue())["error"]
    assert "nodes.n_1.title" in error["message"]
    assert not target.exists()


def test_a_step_undone_before_newer_work_is_not_whole_store_redoable_later(tmp_path) -> None:
    from memgraph_gui.core import MemoryStore

    with MemoryStore.open(tmp_path / "s.memgraph") as store:
        window, agent = store.write_api(origin="window"), store.write_api(origin="agent")
        node = window.create_node(type="character_sheet", title="Eileen")["id"]
        window.edit_node(id=node, set_fields={"goal": "crown"})
        store.history_of("window").undo()  # the edit, before the agent works on top of it
        agent.create_node(type="location_state", title="Tower")
        assert store.history.depth() == (2, 0)
        store.history.undo()  # the agent's step
        store.history.undo()  # the window's create
        assert store.history.depth() == (0, 2)
        assert store.history.redo().label == "Redo Create character_sheet 'Eileen'"
        assert store.history.redo().label == "Redo Create location_state 'Tower'"
        assert store.history.redo() is None and store.history.depth() == (2, 0)
        assert "goal" not in store.graph.nodes[node].fields
        assert store.history_of("window").depth() == (1, 1)  # the window may still redo it

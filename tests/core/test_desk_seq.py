"""A hand edit keeps the node's ``seqTo`` (``editNode`` with ``keep_seq``); an agent's edit stamps
the current seq as Luker's does; "Mark as current" stamps it on request. Checked in process and
through real second processes (the desk's write and the CLI's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.jsonapi import call
from tests.core.processes import memgraph, run_python


def _old_event_then_newer(store: Any) -> str:
    """An event at seq 3, then the chat moves on to seq 40 (seqCounter 40)."""
    write = store.write_api()
    old = write.apply_extraction_batch(
        ops=[{"op": "create", "type": "event", "fields": {"summary": "Eileen finds a lettre."}}],
        max_seq=3,
    )["applied"][0]["nodeId"]
    write.apply_extraction_batch(
        ops=[{"op": "create", "type": "event", "fields": {"summary": "Rowan leaves."}}],
        max_seq=40,
    )
    assert store.read_api().get_node(old).seq_to == 3
    assert store.graph.counter("seqCounter") == 40
    return str(old)


def _seq(store: Any, node_id: str) -> int:
    return int(store.read_api().get_node(node_id).seq_to)


def test_an_agents_edit_stamps_the_current_seq_as_luker_does(store: Any) -> None:
    node_id = _old_event_then_newer(store)
    store.write_api().edit_node(id=node_id, set_fields={"summary": "Eileen finds a letter."})
    assert _seq(store, node_id) == 40


def test_a_hand_edit_with_keep_seq_keeps_the_nodes_place_in_time(store: Any) -> None:
    node_id = _old_event_then_newer(store)
    answer = store.write_api().edit_node(
        id=node_id, set_fields={"summary": "Eileen finds a letter."}, keep_seq=True
    )
    assert answer.payload == {"ok": True, "changed": True}
    node = store.read_api().get_node(node_id)
    assert node.fields["summary"] == "Eileen finds a letter." and node.seq_to == 3
    assert store.read_api().list_nodes()[0].id == node_id  # still first in the timeline


def test_keep_seq_must_be_a_bool(store: Any) -> None:
    node_id = _old_event_then_newer(store)
    with pytest.raises(MemgraphError) as exc:
        store.write_api().edit_node(id=node_id, set_fields={"summary": "x"}, keep_seq="yes")
    assert exc.value.code == "BAD_ARGS"
    assert _seq(store, node_id) == 3


def test_mark_current_stamps_the_seq_once_and_undoes(store: Any) -> None:
    node_id = _old_event_then_newer(store)
    write = store.write_api()
    first = write.mark_current(id=node_id)
    assert first.payload == {"ok": True, "changed": True, "seqTo": 40}
    assert _seq(store, node_id) == 40
    assert store.history.undo_step().label == "Mark 'Summary 1' as current"
    steps = len(store.history.steps())
    again = write.mark_current(id=node_id)
    assert again.payload == {"ok": True, "changed": False, "seqTo": 40}
    assert len(store.history.steps()) == steps  # nothing written, no undo step
    store.history.undo()
    assert _seq(store, node_id) == 3


def test_mark_current_refuses_a_missing_or_archived_node(store: Any) -> None:
    node_id = _old_event_then_newer(store)
    write = store.write_api()
    assert write.mark_current(id="n_999")["error"]["code"] == "NODE_NOT_FOUND"
    write.delete_node(id=node_id)
    assert write.mark_current(id=node_id)["error"]["code"] == "NODE_ARCHIVED"


def test_the_json_boundary_defaults_to_luker_and_takes_keep_seq(store: Any) -> None:
    node_id = _old_event_then_newer(store)
    kept = call(store, "editNode", [{"id": node_id, "setFields": {"a": 1}, "keepSeq": True}])
    assert kept == {"ok": True, "changed": True} and _seq(store, node_id) == 3
    call(store, "editNode", [{"id": node_id, "setFields": {"a": 2}}])
    assert _seq(store, node_id) == 40


DESK_EDIT = """
import sys
from memgraph_gui.core import MemoryStore
with MemoryStore.open(sys.argv[1], create=False) as store:
    answer = store.write_api(origin="desk").edit_node(
        id=sys.argv[2], set_fields={"summary": "fixed by hand"}, keep_seq=True
    )
    print(answer["ok"])
"""


def test_second_processes_desk_keeps_the_seq_cli_stamps_it(tmp_path: Path) -> None:
    path = tmp_path / "seq.memgraph"
    with MemoryStore.open(path) as store:
        node_id = _old_event_then_newer(store)
    with MemoryStore.open(path, create=False) as watcher:  # open while the others write
        desk = run_python(DESK_EDIT, str(path), node_id)
        out, err = desk.communicate(timeout=60)
        assert desk.returncode == 0, err
        assert out.strip() == "True"
        watcher.sync()
        node = watcher.read_api().get_node(node_id)
        assert node.fields["summary"] == "fixed by hand" and node.seq_to == 3
        done = memgraph(
            "--db",
            str(path),
            "call",
            "editNode",
            json.dumps([{"id": node_id, "setFields": {"summary": "agent's words"}}]),
        )
        assert done.returncode == 0, done.stderr
        watcher.sync()
        assert watcher.read_api().get_node(node_id).seq_to == 40


# -- undo labels name titles as typed, cut to a readable width -------------------------------------
def test_undo_labels_name_titles_never_ids(store: Any) -> None:
    write = store.write_api()
    events = [write.create_node(type="event", fields={"summary": f"e{i}"})["id"] for i in range(3)]
    rollup = write.compact_nodes(type="event", child_ids=events, summary="Three events.")
    rollup_id = rollup["rollupNodeId"]
    title = store.read_api().get_node(rollup_id).title
    write.dissolve_rollup(id=rollup_id)
    label = store.history.undo_step().label
    assert label == f"Dissolve rollup '{title}'" and rollup_id not in label


def test_undo_labels_keep_ampersands_and_elide_long_titles(store: Any) -> None:
    write = store.write_api()
    short = write.create_node(type="character_sheet", title="Tom & Jerry")["id"]
    write.edit_node(id=short, set_fields={"goal": "cheese"})
    assert store.history.undo_step().label == "Edit 'Tom & Jerry'"
    long_title = "The very long and winding title of a character nobody can remember"
    long_id = write.create_node(type="character_sheet", title=long_title)["id"]
    assert store.history.undo_step().label.startswith("Create character_sheet 'The very")
    write.delete_node(id=long_id)
    label = store.history.undo_step().label
    shown = label.removeprefix("Archive '").removesuffix("'")
    assert len(shown) <= 40 and shown.endswith("…") and long_title.startswith(shown[:-1])

"""The inspector's "Membrane" section: every node's sensitivity, salience, memory type, scope and
tags, each edit one undoable write with where the value comes from shown; a record's payload,
provenance and audit log read-only; conflicts with Keep mine / Take theirs; another process's
change followed live in an untouched row; unsaved attributes asked about before leaving."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.core.processes import run_python
from tests.qt_sandbox import Asked
from tests.views.test_inspector import WAIT, first, show, undo_texts

RECORD: dict[str, Any] = {
    "id": "rec-1",
    "type": "semantic",
    "sensitivity": "low",
    "confidence": 0.9,
    "salience": 0.4,
    "scope": "team",
    "tags": ["tea"],
    "created_at": "2025-01-02T03:04:05Z",
    "updated_at": "2025-01-02T03:04:05Z",
    "provenance": {"sources": [{"kind": "event", "ref": "<b>ev-1</b>"}]},
    "payload": {"kind": "semantic", "subject": "Eileen", "predicate": "likes", "object": "tea"},
    "audit_log": [
        {
            "action": "create",
            "actor": "agent",
            "timestamp": "2025-01-02T03:04:05Z",
            "rationale": "seen",
        }
    ],
}


@pytest.fixture
def app(demo_app: Any) -> Any:
    return demo_app


def put_record(app: Any, record: dict[str, Any]) -> None:
    """Store ``record`` as a record node (as the importer does)."""
    from memgraph_gui.core.domain.changes import OpKind
    from memgraph_gui.core.membrane.model import record_node

    with app.store.storage.transaction(OpKind.BATCH, "Put a record", log_history=False) as tx:
        tx.put_node(record_node(copy.deepcopy(record), 1))


def membrane_of(app: Any, node_id: str) -> dict[str, Any]:
    shown = app.membrane_attributes(node_id)
    return dict(shown.values)


def source(inspector: Any, name: str) -> str:
    return inspector.membrane.sources[name].text()


def commit(inspector: Any, name: str, value: Any) -> None:
    """Edit one Membrane row as a person would, and finish the edit."""
    editor = inspector.membrane.form.row(name).editor
    if name in ("sensitivity", "memory_type"):
        index = editor.combo.findText(value)
        editor.combo.setCurrentIndex(index)
        editor.combo.activated.emit(index)
    elif name == "salience":
        editor.spin.setValue(value)
        editor.spin.editingFinished.emit()
    elif name == "scope":
        editor.line.setText(value)
        editor.line.editingFinished.emit()
    else:
        editor._show(value)
        editor.apply()


def shown_value(inspector: Any, name: str) -> Any:
    editor = inspector.membrane.form.row(name).editor
    return editor.value()


EDITS = [
    ("sensitivity", "high", "Set sensitivity of {t} to high"),
    ("salience", 0.8, "Set salience of {t} to 0.8"),
    ("memory_type", "working", "Set memory type of {t} to working"),
    ("scope", "house", "Set scope of {t} to 'house'"),
    ("tags", ["kin", "crown"], "Set tags of {t} to kin, crown"),
]


@pytest.mark.parametrize(("name", "value", "label"), EDITS)
def test_editing_each_attribute_writes_it_and_undo_restores_it(
    qtbot: Any, app: Any, inspector: Any, name: str, value: Any, label: str
) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    before = membrane_of(app, char.id)
    assert before["memory_type"] == "entity" and before["sensitivity"] == "low"  # the mapping
    assert source(inspector, name) == "default mapping"
    assert shown_value(inspector, name) == before[name]
    commit(inspector, name, value)
    qtbot.waitUntil(lambda: membrane_of(app, char.id)[name] == value, timeout=WAIT)
    assert {k: v for k, v in membrane_of(app, char.id).items() if k != name} == {
        k: v for k, v in before.items() if k != name
    }
    assert undo_texts(app) == [label.format(t=f"'{char.title}'")]
    qtbot.waitUntil(lambda: source(inspector, name).startswith("set by you"), timeout=WAIT)
    assert shown_value(inspector, name) == value
    assert inspector.membrane.reset_button.isEnabled()
    assert not inspector.has_unsaved_edits()
    app.undo_last()
    qtbot.waitUntil(lambda: membrane_of(app, char.id) == before, timeout=WAIT)
    qtbot.waitUntil(lambda: shown_value(inspector, name) == before[name], timeout=WAIT)
    assert source(inspector, name) == "default mapping"
    assert not inspector.membrane.reset_button.isEnabled()


def test_reset_to_default_takes_back_what_was_set(qtbot: Any, app: Any, inspector: Any) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    before = membrane_of(app, char.id)
    commit(inspector, "sensitivity", "hyper")
    qtbot.waitUntil(lambda: membrane_of(app, char.id)["sensitivity"] == "hyper", timeout=WAIT)
    commit(inspector, "scope", "house")
    qtbot.waitUntil(lambda: membrane_of(app, char.id)["scope"] == "house", timeout=WAIT)
    qtbot.waitUntil(inspector.membrane.reset_button.isEnabled, timeout=WAIT)
    assert source(inspector, "sensitivity") == "set by you (default: low)"
    inspector.membrane.reset_button.click()
    qtbot.waitUntil(lambda: membrane_of(app, char.id) == before, timeout=WAIT)
    qtbot.waitUntil(lambda: shown_value(inspector, "scope") == "", timeout=WAIT)
    assert undo_texts(app)[-1] == f"Reset the Membrane attributes of '{char.title}' to the default"
    assert source(inspector, "sensitivity") == "default mapping"


def test_a_nuggets_note_gets_the_section_too(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    agent.nuggets("astra").remember("user:tea", "green")
    note = next(n for n in agent.graph.nodes.values() if n.level == "nugget")
    qtbot.waitUntil(lambda: app.node(note.id) is not None, timeout=WAIT)
    show(app, inspector, note.id)
    assert shown_value(inspector, "sensitivity") == "medium"  # a user-scoped note
    assert shown_value(inspector, "scope") == "astra"
    commit(inspector, "sensitivity", "high")
    qtbot.waitUntil(lambda: membrane_of(app, note.id)["sensitivity"] == "high", timeout=WAIT)
    assert undo_texts(app) == ["Set sensitivity of 'user:tea' to high"]


def test_a_record_shows_payload_provenance_and_audit_log_read_only(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    put_record(app, RECORD)
    qtbot.waitUntil(lambda: app.node("rec-1") is not None, timeout=WAIT)
    show(app, inspector, "rec-1")
    section = inspector.membrane
    for key in ("payload", "provenance", "audit_log"):
        box = section.record_boxes[key]
        assert box.isVisibleTo(inspector) and box.isReadOnly()
        assert json.loads(box.toPlainText()) == RECORD[key]
        assert box.toPlainText() == json.dumps(RECORD[key], indent=2, ensure_ascii=False)
    assert "<b>ev-1</b>" in section.record_boxes["provenance"].toPlainText()  # plain text
    assert not inspector.form.isVisibleTo(inspector)  # the record JSON is Membrane's
    assert not section.reset_button.isVisibleTo(inspector)
    assert source(inspector, "sensitivity") == "from the record"
    assert shown_value(inspector, "salience") == 0.4 and shown_value(inspector, "scope") == "team"
    assert inspector.header.title.line.isReadOnly()  # made from the payload
    commit(inspector, "sensitivity", "medium")
    qtbot.waitUntil(lambda: app.membrane_record("rec-1")["sensitivity"] == "medium", timeout=WAIT)
    audit = section.record_boxes["audit_log"]
    qtbot.waitUntil(lambda: '"revise"' in audit.toPlainText(), timeout=WAIT)
    entry = app.membrane_record("rec-1")["audit_log"][-1]
    assert entry["action"] == "revise" and entry["actor"] == app.origin
    assert undo_texts(app) == ["Set sensitivity of 'Eileen likes tea' to medium"]
    app.undo_last()
    qtbot.waitUntil(lambda: app.membrane_record("rec-1") == RECORD, timeout=WAIT)
    qtbot.waitUntil(lambda: '"revise"' not in audit.toPlainText(), timeout=WAIT)
    assert shown_value(inspector, "sensitivity") == "low"
    show(app, inspector, first(app, "character_sheet").id)
    assert not section.record_boxes["payload"].isVisibleTo(inspector)
    assert inspector.form.isVisibleTo(inspector)


def test_another_process_change_shows_in_an_untouched_field(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    scope = inspector.membrane.form.row("scope").editor
    scope.line.setText("typing here")  # not finished: unsaved
    script = """
        import sys
        from memgraph_gui.core import MemoryStore
        from memgraph_gui.core.membrane.write import set_attributes
        with MemoryStore.open(sys.argv[1], create=False) as store:
            set_attributes(store.storage, sys.argv[2], {"sensitivity": "hyper", "tags": ["x"]})
    """
    child = run_python(script, app.path, char.id)
    _out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    qtbot.waitUntil(lambda: shown_value(inspector, "sensitivity") == "hyper", timeout=WAIT)
    qtbot.waitUntil(lambda: shown_value(inspector, "tags") == ["x"], timeout=WAIT)
    assert source(inspector, "sensitivity").startswith("set by you")
    assert scope.line.text() == "typing here"  # the typing stays
    assert inspector.has_unsaved_edits()


def test_a_stale_edit_is_a_conflict_and_keep_mine_writes_it(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    from memgraph_gui.core.membrane.write import set_attributes

    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    row = inspector.membrane.form.row("scope")
    row.editor.line.setText("mine")
    set_attributes(agent.storage, char.id, {"scope": "theirs"}, origin="agent")
    row.editor.line.editingFinished.emit()
    qtbot.waitUntil(lambda: row.conflict.pending, timeout=WAIT)
    app.runner.wait_idle()
    assert membrane_of(app, char.id)["scope"] == "theirs"  # nothing written
    assert row.conflict.mine.toPlainText() == "mine"
    assert row.conflict.theirs.toPlainText() == "theirs"
    assert undo_texts(app) == []
    row.conflict.keep_button.click()
    qtbot.waitUntil(lambda: membrane_of(app, char.id)["scope"] == "mine", timeout=WAIT)
    qtbot.waitUntil(lambda: not row.editor.busy, timeout=WAIT)
    assert not row.conflict.pending and not row.unsaved()


def test_take_theirs_loads_the_stored_value_and_writes_nothing(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    from memgraph_gui.core.membrane.write import set_attributes

    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    row = inspector.membrane.form.row("sensitivity")
    combo = row.editor.combo
    combo.setCurrentIndex(combo.findText("public"))  # picked, not yet committed
    set_attributes(agent.storage, char.id, {"sensitivity": "medium"}, origin="agent")
    qtbot.waitUntil(lambda: source(inspector, "sensitivity").startswith("set by"), timeout=WAIT)
    assert combo.currentText() == "public"  # the choice being made stays
    combo.activated.emit(combo.currentIndex())
    qtbot.waitUntil(lambda: row.conflict.pending, timeout=WAIT)
    assert row.conflict.theirs.toPlainText() == "medium"
    stored = membrane_of(app, char.id)["sensitivity"]
    steps = len(undo_texts(app))
    row.conflict.take_button.click()
    assert shown_value(inspector, "sensitivity") == stored and not row.unsaved()
    assert len(undo_texts(app)) == steps


def test_leaving_an_unsaved_attribute_asks_and_save_writes_it(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    from memgraph_gui.views.unsaved import Choice

    char, thread = first(app, "character_sheet"), first(app, "thread")
    show(app, inspector, char.id)
    inspector.membrane.form.row("scope").editor.line.setText("house")
    asked = Asked(Choice.CANCEL)
    inspector.ask_unsaved = asked
    app.selection.select([thread.id])
    qtbot.waitUntil(lambda: bool(asked.questions), timeout=WAIT)
    assert asked.questions[0] == f"the Membrane scope of “{char.title}”"
    qtbot.waitUntil(lambda: app.selection.current == char.id, timeout=WAIT)  # Cancel: back
    asked.answer = Choice.SAVE
    app.selection.select([thread.id])
    qtbot.waitUntil(lambda: inspector.node_id == thread.id, timeout=WAIT)
    assert membrane_of(app, char.id)["scope"] == "house"


def test_a_read_only_or_archived_node_shows_the_section_read_only(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    char = first(app, "character_sheet")
    app.apply_sync(lambda w: w.delete_node(id=char.id))
    show(app, inspector, char.id)
    form = inspector.membrane.form
    assert not form.row("sensitivity").editor.combo.isEnabled()
    assert form.row("scope").editor.line.isReadOnly()
    assert form.row("salience").editor.spin.isReadOnly()


def test_a_refusal_arriving_after_moving_on_waits_for_the_return(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    from memgraph_gui.core.membrane.write import set_attributes

    char, thread = first(app, "character_sheet"), first(app, "thread")
    show(app, inspector, char.id)
    row = inspector.membrane.form.row("scope")
    row.editor.line.setText("mine")
    set_attributes(agent.storage, char.id, {"scope": "theirs"}, origin="agent")
    failed: list[Any] = []
    app.op_failed.connect(lambda error, _initiator: failed.append(error.code))
    row.editor.line.editingFinished.emit()  # in flight: based on "", refused once it lands
    show(app, inspector, thread.id)
    qtbot.waitUntil(lambda: failed == ["EDIT_CONFLICT"], timeout=WAIT)
    assert inspector.node_id == thread.id and shown_value(inspector, "scope") == ""
    assert inspector.has_unsaved_edits()  # the refused edit waits
    assert "a refused Membrane edit of" in inspector.unsaved_summary()
    show(app, inspector, char.id)
    assert row.conflict.pending and row.editor.line.text() == "mine"
    assert row.conflict.theirs.toPlainText() == "theirs"
    row.conflict.take_button.click()
    assert shown_value(inspector, "scope") == "theirs" and not inspector.has_unsaved_edits()

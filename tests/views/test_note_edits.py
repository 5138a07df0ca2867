"""Editing a note in the inspector: each edit is one Nuggets API call (``editNote`` /
``updateNote``) and one undo step, with Nuggets' result (normalised content, tag order, system
tags kept, no re-inference); another process's edit made while the person types is never
overwritten silently; and a write's result is bound to the note it was for."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.nugget_notes import note_store
from tests.views.test_note_inspector import CMD, DEPLOY, HIDDEN, show

WAIT = 5000
STYLE = "note-work-style001"


@pytest.fixture
def app(qapp: object, tmp_path: Path) -> Iterator[Any]:
    from memgraph_gui.app.app_model import AppModel

    model = AppModel(note_store(tmp_path / "notes.memgraph"))
    yield model
    model.close()


def stored(app: Any, note_id: str) -> dict[str, Any]:
    from memgraph_gui.app.notes import note_of

    app.runner.wait_idle()
    app.store.sync()
    note = note_of(app.store.graph.nodes.get(note_id))
    assert note is not None
    return note


def agent_process(method: str, args: list[Any], path: str) -> None:
    """An agent's process calls ``method`` through ``memgraph call`` (and exits)."""
    command = [sys.executable, "-m", "memgraph_gui.cli", "--db", path, "call", method]
    subprocess.run([*command, json.dumps(args)], check=True, capture_output=True, timeout=60)


def undo_texts(app: Any) -> list[str]:
    app.runner.wait_idle()
    stack = app.undo.stack
    return [stack.text(i) for i in range(stack.index())]


def settle(qtbot: Any, app: Any, inspector: Any, column: str | None) -> None:
    """Wait until the write of ``column`` (None: the title) has landed in the inspector."""
    editor = inspector.header.title if column is None else inspector.form.row(column).editor
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: not editor.busy, timeout=WAIT)


def apply_text(qtbot: Any, app: Any, inspector: Any, column: str, text: str) -> None:
    editor = inspector.form.row(column).editor
    editor.area.setPlainText(text)
    editor.apply()
    settle(qtbot, app, inspector, column)


def pick(qtbot: Any, app: Any, inspector: Any, column: str, value: str) -> None:
    combo = inspector.form.row(column).editor.combo
    combo.setCurrentIndex(combo.findText(value))
    combo.activated.emit(combo.currentIndex())
    settle(qtbot, app, inspector, column)


def type_line(qtbot: Any, app: Any, inspector: Any, column: str, text: str) -> None:
    line = inspector.form.row(column).editor.line
    line.setText(text)
    line.editingFinished.emit()
    settle(qtbot, app, inspector, column)


def test_content_is_normalised_by_nuggets_in_one_undo_step(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    show(app, inspector, DEPLOY)
    before = stored(app, DEPLOY)
    apply_text(qtbot, app, inspector, "content", "  Step one \t now \r\n\n\n\n  Step two  ")
    after = stored(app, DEPLOY)
    assert after["content"] == "Step one now\n\nStep two"
    assert inspector.form.row("content").editor.area.toPlainText() == after["content"]
    assert after["tags"] == before["tags"]  # nothing re-inferred
    assert {k: after[k] for k in ("scope", "type", "source", "confidence")} == {
        k: before[k] for k in ("scope", "type", "source", "confidence")
    }
    assert after["updatedAt"] != before["updatedAt"]
    assert len(undo_texts(app)) == 1
    app.undo_last()
    assert stored(app, DEPLOY)["content"] == before["content"]


def test_a_new_title_changes_no_metadata_and_adds_no_title_tags(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    show(app, inspector, DEPLOY)
    before = stored(app, DEPLOY)
    line = inspector.header.title.line
    line.setText("  user style preferences / reflect  ")
    line.editingFinished.emit()
    settle(qtbot, app, inspector, None)
    after = stored(app, DEPLOY)
    assert after["title"] == "user style preferences / reflect"
    assert app.node(DEPLOY).title == after["title"]
    for key in ("subject", "scope", "type", "source", "confidence", "stability", "tags"):
        assert after[key] == before[key], key
    assert len(undo_texts(app)) == 1


def test_a_facts_title_takes_its_source_key_along(qtbot: Any, app: Any, inspector: Any) -> None:
    show(app, inspector, CMD)
    line = inspector.header.title.line
    line.setText("project:release-cmd")
    line.editingFinished.emit()
    settle(qtbot, app, inspector, None)
    after = stored(app, CMD)
    assert after["title"] == after["sourceKey"] == "project:release-cmd"


def test_tags_keep_nuggets_order_and_their_system_tags(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    show(app, inspector, DEPLOY)
    editor = inspector.form.row("tags").editor
    editor.add_item("  Release  Notes ")
    editor.add_item("OPS")
    editor.list.takeItem(0)  # the nugget tag, taken out of the list by other means than Remove
    editor.list.takeItem(editor.items().index("scope:shared"))
    editor.apply()
    settle(qtbot, app, inspector, "tags")
    after = stored(app, DEPLOY)
    # the system tags stay where they were; the new tag is normalised, "OPS" is "ops" again
    assert after["tags"] == ["work", "ops", "release", "scope:shared", "type:note", "release-notes"]
    assert editor.items() == after["tags"]
    assert len(undo_texts(app)) == 1


def test_a_new_scope_adds_its_tag_and_keeps_the_old_one(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    show(app, inspector, DEPLOY)
    before = stored(app, DEPLOY)
    pick(qtbot, app, inspector, "scope", "project")
    after = stored(app, DEPLOY)
    assert after["scope"] == "project"
    assert after["tags"] == [*before["tags"], "scope:project"]
    assert after["subject"] == before["subject"] and after["type"] == before["type"]
    qtbot.waitUntil(
        lambda: inspector.form.row("tags").editor.items() == after["tags"], timeout=WAIT
    )
    assert len(undo_texts(app)) == 1


@pytest.mark.parametrize(
    ("column", "value", "kind"),
    [
        ("type", "reflection", "choice"),
        ("source", "tool_observation", "choice"),
        ("stability", "temporary", "choice"),
        ("kind", "fact", "choice"),
        ("subject", "user:primary", "line"),
        ("confidence", "0.35", "line"),
    ],
)
def test_each_metadata_field_is_one_undo_step_with_nuggets_result(
    qtbot: Any, app: Any, inspector: Any, column: str, value: str, kind: str
) -> None:
    show(app, inspector, DEPLOY)
    before = stored(app, DEPLOY)
    if kind == "choice":
        pick(qtbot, app, inspector, column, value)
    else:
        type_line(qtbot, app, inspector, column, value)
    after = stored(app, DEPLOY)
    assert after[column] == (0.35 if column == "confidence" else value)
    changed = {k for k in after if after[k] != before[k]}
    assert changed - {column, "updatedAt", "vector", "tags"} == set()
    assert len(undo_texts(app)) == 1
    app.undo_last()
    assert stored(app, DEPLOY)[column] == before[column]


def test_confidence_out_of_range_is_refused_by_the_app_layer_too(app: Any) -> None:
    from memgraph_gui.app import notes

    errors: list[Any] = []
    note = stored(app, DEPLOY)
    notes.edit_field(
        app, DEPLOY, "confidence", 1.5, expected=note["confidence"], on_error=errors.append
    )
    app.runner.wait_idle()
    assert [e.code for e in errors] == ["BAD_ARGS"]
    assert stored(app, DEPLOY)["confidence"] == note["confidence"]
    assert undo_texts(app) == []


def test_restore_brings_a_hidden_note_back_and_hide_hides_it(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    show(app, inspector, HIDDEN)
    inspector.restore_action.trigger()
    qtbot.waitUntil(lambda: not app.node(HIDDEN).archived, timeout=WAIT)
    note = stored(app, HIDDEN)
    assert note["hidden"] is False and "archivedAt" not in note  # seed: a visible note has none
    qtbot.waitUntil(lambda: inspector.form.row("content").editor.writable, timeout=WAIT)
    assert not inspector.form.row("hidden").editor.box.isChecked()
    assert len(undo_texts(app)) == 1
    inspector.archive_action.trigger()  # "Hide Note": Nuggets' deleteNote
    qtbot.waitUntil(lambda: app.node(HIDDEN).archived, timeout=WAIT)
    note = stored(app, HIDDEN)
    assert note["hidden"] is True and note["archivedAt"] == note["updatedAt"]
    assert len(undo_texts(app)) == 2


# -- another writer ---------------------------------------------------------------------------
def test_an_agents_edit_while_the_person_types_is_not_overwritten_silently(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    show(app, inspector, DEPLOY)
    row = inspector.form.row("content")
    row.editor.area.setPlainText("the curator's text")
    agent_process("editNote", ["work", DEPLOY, "the agent's text"], app.path)  # another process
    row.editor.apply()
    qtbot.waitUntil(lambda: row.conflict.pending, timeout=WAIT)
    app.runner.wait_idle()
    assert stored(app, DEPLOY)["content"] == "the agent's text"  # nothing was written
    assert row.editor.area.toPlainText() == "the curator's text"  # the typing is kept
    assert row.conflict.theirs.toPlainText() == "the agent's text"
    assert undo_texts(app) == []
    row.conflict.keep_button.click()  # the person decides: theirs is replaced, knowingly
    qtbot.waitUntil(lambda: stored(app, DEPLOY)["content"] == "the curator's text", timeout=WAIT)
    assert len(undo_texts(app)) == 1


def test_an_untouched_note_field_follows_the_agent_live(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    show(app, inspector, DEPLOY)
    inspector.form.row("subject").editor.line.setText("typing here")
    agent.nuggets("work").update_note(DEPLOY, {"content": "changed by the agent"})
    area = inspector.form.row("content").editor.area
    qtbot.waitUntil(lambda: area.toPlainText() == "changed by the agent", timeout=WAIT)
    assert inspector.form.row("subject").editor.line.text() == "typing here"


def test_a_result_for_note_a_never_lands_on_note_b(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    show(app, inspector, DEPLOY)
    b_subject = stored(app, STYLE)["subject"]
    line = inspector.form.row("subject").editor.line
    line.setText("shared:desk")
    line.editingFinished.emit()  # A's write is queued ...
    show(app, inspector, STYLE)  # ... and the person is on B before it lands
    app.runner.wait_idle()
    qtbot.wait(50)
    assert stored(app, DEPLOY)["subject"] == "shared:desk"
    assert inspector.node_id == STYLE
    assert inspector.form.row("subject").editor.line.text() == b_subject
    assert not inspector.form.row("subject").editor.busy
    assert stored(app, STYLE)["subject"] == b_subject

    # a refusal for A (the agent moved A's subject on) waits for A, B stays as it is
    show(app, inspector, DEPLOY)
    line = inspector.form.row("subject").editor.line
    line.setText("mine")
    agent.nuggets("work").update_note(DEPLOY, {"subject": "theirs"})
    line.editingFinished.emit()
    show(app, inspector, STYLE)
    app.runner.wait_idle()
    qtbot.wait(50)
    assert inspector.form.row("subject").editor.line.text() == b_subject
    assert not inspector.form.row("subject").conflict.pending
    assert inspector.has_unsaved_edits()  # A's refused edit waits for the person
    show(app, inspector, DEPLOY)
    row = inspector.form.row("subject")
    assert row.conflict.pending and row.editor.line.text() == "mine"
    assert stored(app, DEPLOY)["subject"] == "theirs"


def test_leaving_a_note_with_unsaved_typing_asks_and_save_writes_it_through_nuggets(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    from memgraph_gui.views import unsaved
    from tests.qt_sandbox import Asked

    asked = Asked(unsaved.Choice.SAVE)
    inspector.ask_unsaved = asked
    show(app, inspector, DEPLOY)
    inspector.form.row("content").editor.area.setPlainText("  kept   on leaving ")
    inspector.form.row("subject").editor.line.setText("shared:team")
    app.selection.select([STYLE])
    qtbot.waitUntil(lambda: inspector.node_id == STYLE, timeout=WAIT)
    assert len(asked.questions) == 1 and "“content”" in asked.questions[0]
    after = stored(app, DEPLOY)
    assert after["content"] == "kept on leaving" and after["subject"] == "shared:team"
    assert undo_texts(app) == ["Edit 'Deploy checklist'", "Update 'Deploy checklist'"]

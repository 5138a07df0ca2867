"""The inspector shows a Nuggets note as a note: its Nuggets fields with the seed's value sets,
system tags marked and protected, the agent's counters and stamps read-only, the confidence
range, and its links with their reasons (a dangling one shown as such). Edits go through the
Nuggets API: see ``test_note_edits.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.nugget_notes import note_store

DEPLOY = "note-work-deploy01"
CMD = "fact-work-cmd00001"
HIDDEN = "fact-work-tmp00001"


@pytest.fixture
def app(qapp: object, tmp_path: Path) -> Iterator[Any]:
    from memgraph_gui.app.app_model import AppModel

    model = AppModel(note_store(tmp_path / "notes.memgraph"))
    yield model
    model.close()


def show(app: Any, inspector: Any, node_id: str) -> None:
    from memgraph_gui.views.qt import QApplication

    app.selection.select([node_id])
    assert inspector.node_id == node_id
    QApplication.processEvents()


def test_a_note_shows_its_nuggets_fields_in_sections(app: Any, inspector: Any) -> None:
    show(app, inspector, DEPLOY)
    form = inspector.form
    assert list(form.rows)[:10] == [
        *("content", "tags", "kind", "hidden"),
        *("scope", "subject", "type", "source", "stability", "confidence"),
    ]
    assert {"hits", "lastHitSession", "createdAt", "updatedAt"} <= set(form.rows)
    assert "links" not in form.rows and "vector" not in form.rows and "id" not in form.rows
    assert [h.text() for h in form._headings] == ["Note", "Metadata", "Use"]
    assert not inspector.fields_title.isVisibleTo(inspector)
    assert inspector.header.title.line.text() == "Deploy checklist"
    content = form.row("content").editor.area.toPlainText()
    assert content.startswith("Run the migrations first.\nThen pnpm deploy")
    assert form.row("hits").editor.line.text() == "4"
    assert form.row("lastHitSession").editor.line.text() == "s-0412"
    assert not inspector.header.level_label.isVisibleTo(inspector)  # a note has no level
    assert inspector.header.id_label.full_text == DEPLOY


def test_the_metadata_choices_are_the_seeds_value_sets_and_nothing_else(
    app: Any, inspector: Any
) -> None:
    show(app, inspector, DEPLOY)
    expected = {
        "scope": ["self", "user", "shared", "project", "session"],
        "type": [
            *("fact", "note", "preference", "reflection"),
            *("self_model", "project", "relationship", "style"),
        ],
        "source": ["explicit_user", "agent_reflection", "tool_observation", "inferred", "system"],
        "stability": ["temporary", "durable"],
        "kind": ["fact", "note"],
    }
    for name, values in expected.items():
        combo = inspector.form.row(name).editor.combo
        assert [combo.itemText(i) for i in range(combo.count())] == values, name
        assert not combo.isEditable(), name  # nothing outside the set can be typed in
    assert inspector.form.row("scope").editor.combo.currentText() == "shared"


def test_read_only_fields_cannot_be_edited(app: Any, inspector: Any) -> None:
    show(app, inspector, DEPLOY)
    for name in ("hits", "lastHitSession", "createdAt", "updatedAt", "lastAccessedAt"):
        editor = inspector.form.row(name).editor
        assert editor.line.isReadOnly() and not editor.writable, name
    assert not inspector.form.row("hidden").editor.box.isEnabled()
    for name in ("content", "subject", "confidence"):
        assert inspector.form.row(name).editor.writable, name
    inspector.form.set_editable(True)  # (a refresh) never makes them editable
    assert inspector.form.row("hits").editor.line.isReadOnly()


def test_system_tags_are_marked_and_cannot_be_removed(qtbot: Any, app: Any, inspector: Any) -> None:
    from memgraph_gui.views.qt import QtCore

    show(app, inspector, DEPLOY)
    row = inspector.form.row("tags")
    editor = row.editor
    assert editor.items() == ["work", "ops", "release", "scope:shared", "type:note"]
    system = [editor.is_protected(t) for t in editor.items()]
    assert system == [True, False, False, True, True]
    first = editor.list.item(0)
    assert first.font().italic() and not first.flags() & QtCore.Qt.ItemFlag.ItemIsEditable
    assert editor.list.item(1).flags() & QtCore.Qt.ItemFlag.ItemIsEditable
    with qtbot.waitSignal(editor.input_rejected) as refused:
        editor.remove_row(3)
    assert "scope:shared" in refused.args[0]
    assert "system tag" in row.error
    assert editor.items() == ["work", "ops", "release", "scope:shared", "type:note"]
    editor.remove_row(1)  # an ordinary tag goes
    assert editor.items() == ["work", "release", "scope:shared", "type:note"]


def test_confidence_outside_its_range_is_refused_on_the_field(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    show(app, inspector, DEPLOY)
    row = inspector.form.row("confidence")
    line = row.editor.line
    assert line.placeholderText() == "0 – 1"
    steps = len(app.store.history.steps())
    for text in ("1.5", "-0.1", "", "high"):
        line.setText(text)
        with qtbot.waitSignal(row.editor.input_rejected):
            line.editingFinished.emit()
        assert row.error, text
    app.runner.wait_idle()
    assert len(app.store.history.steps()) == steps  # nothing was written
    assert app.node(DEPLOY).fields["confidence"] == 0.9


def test_links_show_their_reasons_go_to_the_target_and_dangling_ones_are_marked(
    app: Any, inspector: Any
) -> None:
    show(app, inspector, DEPLOY)
    panel = inspector.note_links
    assert panel.isVisibleTo(inspector) and not inspector.links.isVisibleTo(inspector)
    assert [(link.reason, link.to) for link in panel.links] == [
        ("uses", CMD),
        ("replaced", "note-work-gone0001"),
    ]
    assert panel.dangling() == ["note-work-gone0001"]
    assert panel.table.item(1, 1).text() == "missing: note-work-gone0001"
    assert inspector.links_title.text() == "Links (2)"
    panel.activate_row(1)  # a dangling link goes nowhere
    assert inspector.node_id == DEPLOY
    panel.table.itemClicked.emit(panel.table.item(0, 1))
    assert app.selection.current == CMD and inspector.node_id == CMD
    assert inspector.note_links.links[0].to == DEPLOY


def test_a_hidden_note_is_read_only_and_offers_restore(app: Any, inspector: Any) -> None:
    show(app, inspector, HIDDEN)
    assert inspector.form.row("hidden").editor.box.isChecked()
    assert not inspector.form.row("content").editor.writable
    assert inspector.restore_action.isEnabled() and not inspector.archive_action.isEnabled()
    assert inspector.restore_action.text() == "&Restore Note"
    assert "Hidden" in inspector.note.text()
    stamp = inspector.form.row("archivedAt").editor.line
    assert stamp.text() == "2026-11-20 09:15:00"  # short; the whole stamp is its tooltip
    assert stamp.toolTip() == "2026-11-20T09:15:00.000Z (UTC)"
    show(app, inspector, DEPLOY)
    assert inspector.archive_action.text() == "&Hide Note"
    assert inspector.archive_action.isEnabled()


def test_a_note_and_a_node_share_one_inspector(app: Any, inspector: Any) -> None:
    """Moving between a note and an ordinary node lays the form out for each."""
    from memgraph_gui.core.domain.changes import OpKind
    from memgraph_gui.core.domain.model import Node

    with app.store.storage.transaction(OpKind.BATCH, "put") as tx:
        tx.put_node(Node(id="ev1", type="event", level="semantic", title="A walk", seq_to=1))
    app.store.sync()
    show(app, inspector, "ev1")
    assert "content" not in inspector.form.rows and inspector.links.isVisibleTo(inspector)
    assert inspector.fields_title.isVisibleTo(inspector)
    assert inspector.archive_action.text() == "&Archive Node"
    show(app, inspector, DEPLOY)
    assert "content" in inspector.form.rows and not inspector.links.isVisibleTo(inspector)


def test_a_dangling_link_finds_its_note_when_that_note_arrives(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    from tests.nugget_notes import note, stage

    show(app, inspector, DEPLOY)
    assert inspector.note_links.dangling() == ["note-work-gone0001"]
    stage(app.store, [note("note-work-gone0001", "Rollback plan", "Revert the tag.")])
    qtbot.waitUntil(lambda: inspector.note_links.dangling() == [], timeout=5000)
    assert inspector.note_links.table.item(1, 1).text() == "Rollback plan"

"""The inspector / editor dock over a real AppModel (offscreen): it shows the selected node, each
edit is one Write API call and one undo step, refusals show on the field, and node text stays
plain text."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

WAIT = 5000


@pytest.fixture
def app(demo_app: Any) -> Any:
    return demo_app


def first(app: Any, node_type: str, *, with_children: bool = False) -> Any:
    nodes = sorted(app.store.graph.nodes.values(), key=lambda n: n.ord)
    return next(
        n
        for n in nodes
        if n.type == node_type and not n.archived and (n.children_ids or not with_children)
    )


def show(app: Any, inspector: Any, node_id: str) -> None:
    from memgraph_gui.views.qt import QApplication

    app.selection.select([node_id])
    assert inspector.node_id == node_id
    QApplication.processEvents()  # new rows are shown by a queued call


def undo_texts(app: Any) -> list[str]:
    """The undo labels once every queued write has reported back."""
    app.runner.wait_idle()
    stack = app.undo.stack
    return [stack.text(i) for i in range(stack.index())]


# -- showing -------------------------------------------------------------------------------------
def test_selecting_a_node_fills_the_header_fields_and_links(app: Any, inspector: Any) -> None:
    from memgraph_gui.views.inspector.field_kinds import FieldKind
    from memgraph_gui.views.inspector.link_rows import link_rows
    from memgraph_gui.views.qt import QtWidgets

    assert inspector.node_id is None and inspector.form.rows == {}
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    assert inspector.header.title.line.text() == char.title
    assert inspector.header.id_label.text() == char.id
    assert inspector.header.seq_label.text().startswith(str(char.seq_to))
    assert list(inspector.form.rows)[:3] == ["aliases", "traits", "identity"]
    assert inspector.form.row("traits").editor.line.text() == char.fields["traits"]
    aliases = inspector.form.row("aliases")
    assert aliases.column.primary_key
    assert aliases.label.findChild(QtWidgets.QLabel, "pk-badge") is not None
    assert inspector.form.row("language_sample").column.kind is FieldKind.TEXT
    expected = link_rows(char.id, app.edges_of(char.id))
    assert expected and inspector.links.rows == expected
    app.selection.clear()
    assert inspector.node_id is None and inspector.form.rows == {}


def test_required_columns_are_marked_and_choices_offered(app: Any, inspector: Any) -> None:
    from memgraph_gui.views.qt import QtWidgets

    thread = first(app, "thread")
    show(app, inspector, thread.id)
    marks = {
        name: [w.text() for w in row.label.findChildren(QtWidgets.QLabel)]
        for name, row in inspector.form.rows.items()
    }
    assert "*" in marks["status"] and "*" in marks["note"]
    combo = inspector.form.row("status").editor.combo
    assert [combo.itemText(i) for i in range(3)] == ["active", "resolved", "abandoned"]
    assert inspector.form.row("note").editor.area.toPlainText() == thread.fields["note"]


# -- edits and undo ------------------------------------------------------------------------------
def test_a_title_edit_is_one_write_and_undo_restores_it(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    line = inspector.header.title.line
    line.setText("Eileen the Brave")
    line.editingFinished.emit()
    assert line.isReadOnly()  # in flight
    qtbot.waitUntil(lambda: app.node(char.id).title == "Eileen the Brave", timeout=WAIT)
    qtbot.waitUntil(lambda: not line.isReadOnly(), timeout=WAIT)
    assert undo_texts(app) == [f"Edit '{char.title}'"]
    line.editingFinished.emit()  # leaving the field again sends nothing
    app.runner.wait_idle()
    assert len(undo_texts(app)) == 1
    app.undo_last()
    qtbot.waitUntil(lambda: app.node(char.id).title == char.title, timeout=WAIT)
    qtbot.waitUntil(lambda: line.text() == char.title, timeout=WAIT)
    assert app.undo.stack.index() == 0


def test_a_field_edit_and_its_undo(qtbot: Any, app: Any, inspector: Any) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    line = inspector.form.row("goal").editor.line
    line.setText("find the lost crown")
    line.editingFinished.emit()
    qtbot.waitUntil(lambda: app.node(char.id).fields["goal"] == "find the lost crown", timeout=WAIT)
    assert app.node(char.id).fields["traits"] == char.fields["traits"]
    assert undo_texts(app) == [f"Edit '{char.title}'"]
    app.undo_last()
    qtbot.waitUntil(lambda: app.node(char.id).fields["goal"] == char.fields["goal"], timeout=WAIT)
    qtbot.waitUntil(lambda: line.text() == char.fields["goal"], timeout=WAIT)


def test_a_long_text_field_applies_with_the_apply_button(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    event = first(app, "event")
    show(app, inspector, event.id)
    editor = inspector.form.row("summary").editor
    assert not editor.bar.apply_button.isVisible()
    editor.area.setPlainText("时间：第1天。A new summary.")
    assert editor.bar.apply_button.isVisible()
    editor.bar.apply_button.click()
    qtbot.waitUntil(
        lambda: app.node(event.id).fields["summary"] == "时间：第1天。A new summary.", timeout=WAIT
    )
    qtbot.waitUntil(lambda: not editor.bar.apply_button.isVisible(), timeout=WAIT)


def test_a_list_field_is_edited_as_a_list(qtbot: Any, app: Any, inspector: Any) -> None:
    from memgraph_gui.views.inspector.area_editors import ListEditor

    char = first(app, "character_sheet")
    app.apply_sync(lambda w: w.edit_node(id=char.id, set_fields={"aliases": ["Kain", "流亡者"]}))
    show(app, inspector, char.id)
    editor = inspector.form.row("aliases").editor
    assert isinstance(editor, ListEditor) and editor.items() == ["Kain", "流亡者"]
    editor.add_item("the Exile")
    editor.move_row(2, -2)
    editor.remove_row(2)
    editor.apply()
    qtbot.waitUntil(
        lambda: list(app.node(char.id).fields["aliases"]) == ["the Exile", "Kain"], timeout=WAIT
    )
    app.undo_last()
    qtbot.waitUntil(
        lambda: list(app.node(char.id).fields["aliases"]) == ["Kain", "流亡者"], timeout=WAIT
    )
    qtbot.waitUntil(lambda: editor.items() == ["Kain", "流亡者"], timeout=WAIT)


def test_a_refused_edit_shows_the_api_message_and_writes_nothing(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    thread = first(app, "thread")
    show(app, inspector, thread.id)
    row = inspector.form.row("note")
    row.editor.area.setPlainText("")
    row.editor.apply()
    qtbot.waitUntil(lambda: row.error != "", timeout=WAIT)
    assert "cannot be empty: note" in row.error
    assert row.status.isVisible()
    assert row.editor.area.toPlainText() == ""  # the user's text stays
    assert app.node(thread.id).fields["note"] == thread.fields["note"]
    assert undo_texts(app) == []
    row.editor.area.setPlainText("Mira keeps the crown hidden.")
    row.editor.apply()
    qtbot.waitUntil(
        lambda: app.node(thread.id).fields["note"] == "Mira keeps the crown hidden.", timeout=WAIT
    )
    # the store has it; the GUI thread learns of the success when the writer reports back
    qtbot.waitUntil(lambda: row.error == "" and not row.status.isVisible(), timeout=WAIT)


def test_a_too_long_title_is_refused_on_the_title(qtbot: Any, app: Any, inspector: Any) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    line = inspector.header.title.line
    line.setText("x" * 1001)
    line.editingFinished.emit()
    qtbot.waitUntil(lambda: inspector.header.title_error != "", timeout=WAIT)
    assert "at most 1,000" in inspector.header.title_error
    assert app.node(char.id).title == char.title and undo_texts(app) == []
    line.setText("   ")
    line.editingFinished.emit()
    assert inspector.header.title_error == "This cannot be empty."


def test_clearing_an_optional_field_uses_clear_fields(qtbot: Any, app: Any, inspector: Any) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    line = inspector.form.row("inventory").editor.line
    line.setText("")
    line.editingFinished.emit()
    qtbot.waitUntil(lambda: "inventory" not in app.node(char.id).fields, timeout=WAIT)


# -- links ---------------------------------------------------------------------------------------
def test_add_links_through_the_picker_and_remove_them(qtbot: Any, app: Any, inspector: Any) -> None:
    from memgraph_gui.views.inspector.link_rows import LinkRow

    char = first(app, "character_sheet")
    place = first(app, "location_state")
    show(app, inspector, char.id)
    picker = inspector.open_link_picker()
    picker.query.setText(place.title[:2])  # a Chinese substring
    picker.run_search()
    ids = [
        picker.results.topLevelItem(i).data(0, 0x0100)
        for i in range(picker.results.topLevelItemCount())
    ]
    assert place.id in ids and char.id not in ids
    picker.results.setCurrentItem(picker.results.topLevelItem(ids.index(place.id)))
    picker.relation.setCurrentText("guards")
    picker.direction.setCurrentIndex(1)  # incoming: place -> char
    picker.accept()
    qtbot.waitUntil(lambda: (place.id, "guards", char.id) in app.store.graph.edges, timeout=WAIT)
    link = LinkRow(place.id, "guards", "incoming")
    qtbot.waitUntil(lambda: link in inspector.links.rows, timeout=WAIT)
    assert undo_texts(app) == [f"Link '{char.title}' to 1 node(s)"]
    inspector.links.select_link(link)
    inspector.links.remove_button.click()
    qtbot.waitUntil(
        lambda: (place.id, "guards", char.id) not in app.store.graph.edges, timeout=WAIT
    )
    qtbot.waitUntil(lambda: link not in inspector.links.rows, timeout=WAIT)
    assert undo_texts(app)[-1] == "Remove link 'guards'"


def test_the_picker_finds_nodes_by_id_and_skips_archived_ones(app: Any, inspector: Any) -> None:
    char, other = sorted(
        (n for n in app.store.graph.nodes.values() if n.type == "character_sheet"),
        key=lambda n: n.ord,
    )[:2]
    app.apply_sync(lambda w: w.delete_node(id=other.id))
    show(app, inspector, char.id)
    picker = inspector.open_link_picker()
    picker.query.setText(other.title)
    picker.run_search()
    assert picker.results.topLevelItemCount() == 0 and picker.choice() is None
    event = first(app, "event")
    picker.query.setText(event.id)
    picker.run_search()
    assert picker.results.topLevelItem(0).data(0, 0x0100) == event.id


# -- archive / restore, navigation ---------------------------------------------------------------
def test_archive_and_restore(qtbot: Any, app: Any, inspector: Any) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    assert inspector.archive_action.isEnabled() and not inspector.restore_action.isEnabled()
    inspector.archive_action.trigger()
    qtbot.waitUntil(lambda: app.node(char.id).archived, timeout=WAIT)
    qtbot.waitUntil(inspector.restore_action.isEnabled, timeout=WAIT)
    assert not inspector.archive_action.isEnabled()
    assert inspector.header.title.line.isReadOnly() and inspector.note.isVisible()
    assert inspector.header.restore_button.defaultAction() is inspector.restore_action
    assert inspector.header.restore_button.isVisible()
    assert not inspector.header.archive_button.isVisible()
    assert not inspector.links.add_button.isEnabled()
    inspector.restore_action.trigger()
    qtbot.waitUntil(lambda: not app.node(char.id).archived, timeout=WAIT)
    qtbot.waitUntil(inspector.archive_action.isEnabled, timeout=WAIT)
    assert not inspector.header.title.line.isReadOnly() and not inspector.note.isVisible()
    assert undo_texts(app)[0] == f"Archive '{char.title}'"


def test_clicking_a_child_the_parent_or_a_link_selects_it(app: Any, inspector: Any) -> None:
    rollup = first(app, "event", with_children=True)
    show(app, inspector, rollup.id)
    children = inspector.header.child_list
    assert children.count() == len(rollup.children_ids)
    children.itemClicked.emit(children.item(1))
    assert app.selection.current == rollup.children_ids[1]
    assert inspector.node_id == rollup.children_ids[1]
    inspector.header.parent_button.click()
    assert app.selection.current == rollup.id == inspector.node_id
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    table = inspector.links.table
    target = inspector.links.rows[0].other_id
    table.itemActivated.emit(table.item(0, 2))
    assert app.selection.current == target == inspector.node_id


# -- other writers -------------------------------------------------------------------------------
def test_another_process_editing_the_node_reloads_it(qtbot: Any, app: Any, inspector: Any) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    goal = inspector.form.row("goal").editor.line
    goal.setText("typed but not saved")  # a field being edited keeps its text
    subprocess.run(
        [
            sys.executable,
            "-m",
            "memgraph_gui.cli",
            "--db",
            app.path,
            "call",
            "editNode",
            f'[{{"id": "{char.id}", "title": "Renamed elsewhere"}}]',
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    line = inspector.header.title.line
    qtbot.waitUntil(lambda: line.text() == "Renamed elsewhere", timeout=WAIT)
    assert goal.text() == "typed but not saved"


def test_removing_the_shown_node_clears_the_inspector(qtbot: Any, app: Any, inspector: Any) -> None:
    created = app.apply_sync(lambda w: w.create_node(type="character_sheet", title="Brief"))
    show(app, inspector, created["id"])
    app.undo_last()  # undoing the create removes the node
    qtbot.waitUntil(lambda: inspector.node_id is None, timeout=WAIT)
    assert inspector.form.rows == {} and app.selection.current is None


def test_a_read_only_store_shows_everything_and_edits_nothing(
    app: Any, inspector: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(type(app), "read_only", property(lambda _self: True))
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    assert inspector.header.title.line.text() == char.title
    assert inspector.header.title.line.isReadOnly()
    assert inspector.form.row("goal").editor.line.isReadOnly()
    assert not inspector.archive_action.isEnabled() and not inspector.restore_action.isEnabled()
    assert not inspector.links.add_button.isEnabled() and inspector.open_link_picker() is None
    assert "Read-only" in inspector.note.text() and inspector.note.isVisible()


# -- plain text ----------------------------------------------------------------------------------
def test_node_text_is_shown_as_plain_text(qtbot: Any, app: Any, inspector: Any) -> None:
    from memgraph_gui.views.qt import Qt, QtWidgets

    html = "<b>bold</b><img src=x>"
    made = app.apply_sync(
        lambda w: w.create_node(type="character_sheet", title=html, fields={"goal": html})
    )
    char = first(app, "character_sheet")
    app.apply_sync(
        lambda w: w.upsert_links(
            source={"id": char.id}, links=[{"target": {"id": made["id"]}, "relation": "knows"}]
        )
    )
    show(app, inspector, made["id"])
    assert inspector.header.title.line.text() == html
    assert inspector.form.row("goal").editor.line.text() == html
    show(app, inspector, char.id)
    titles = [inspector.links.table.item(r, 2).text() for r in range(len(inspector.links.rows))]
    assert html in titles
    labels = inspector.findChildren(QtWidgets.QLabel)
    assert labels and all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)


def test_prose_commits_when_focus_moves_on(qtbot: Any, app: Any, inspector: Any) -> None:
    thread = first(app, "thread")
    show(app, inspector, thread.id)
    inspector.activateWindow()
    area = inspector.form.row("note").editor.area
    area.setFocus()
    qtbot.waitUntil(area.hasFocus, timeout=WAIT)
    area.setPlainText("Moved on; saved anyway.")
    inspector.header.title.line.setFocus()
    qtbot.waitUntil(
        lambda: app.node(thread.id).fields["note"] == "Moved on; saved anyway.", timeout=WAIT
    )


def test_a_refusal_for_a_node_no_longer_shown_goes_to_op_failed(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    thread = first(app, "thread")
    show(app, inspector, thread.id)
    editor = inspector.form.row("note").editor
    editor.area.setPlainText("")
    with qtbot.waitSignal(app.op_failed, timeout=WAIT) as failed:
        editor.apply()
        app.selection.select([first(app, "character_sheet").id])
    assert failed.args[0].code == "SCHEMA_VIOLATION" and failed.args[1] is inspector

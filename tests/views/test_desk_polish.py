"""The desk as a new user found it (issue 20): a hand edit keeps the node's seqTo ("Mark as
current" stamps it), the Seq column says what it means, undo labels and menus show titles as
typed and cut to a readable width, long titles and ids are elided in the inspector, list fields
show enough rows, and the rollup review's status line clears when it no longer applies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.views.qt import QApplication, Qt
from tests.qt_sandbox import window_over

WAIT = 5000


@pytest.fixture
def app(demo_app: Any) -> Any:
    return demo_app


def oldest_event(app: Any) -> Any:
    events = [
        n
        for n in app.store.graph.nodes.values()
        if n.type == "event" and not n.archived and not n.semantic_rollup
    ]
    return min(events, key=lambda n: (n.seq_to, n.id))


def show(app: Any, inspector: Any, node_id: str) -> None:
    app.selection.select([node_id])
    assert inspector.node_id == node_id
    QApplication.processEvents()


# -- 1. a hand edit keeps seqTo; Mark as current stamps it -----------------------------------------
def test_an_inspector_edit_keeps_the_nodes_seq(qtbot: Any, app: Any, inspector: Any) -> None:
    event = oldest_event(app)
    assert event.seq_to < app.store.graph.counter("seqCounter")
    show(app, inspector, event.id)
    editor = inspector.form.row("summary").editor
    editor.area.setPlainText("时间：第1天。A typo fixed.")
    editor.bar.apply_button.click()
    qtbot.waitUntil(
        lambda: app.node(event.id).fields["summary"] == "时间：第1天。A typo fixed.", timeout=WAIT
    )
    assert app.node(event.id).seq_to == event.seq_to  # before: stamped with the current seq
    title = inspector.header.title.line
    title.setText("Fixed title")
    title.editingFinished.emit()
    qtbot.waitUntil(lambda: app.node(event.id).title == "Fixed title", timeout=WAIT)
    assert app.node(event.id).seq_to == event.seq_to


def test_mark_as_current_is_an_explicit_undoable_choice(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    event = oldest_event(app)
    show(app, inspector, event.id)
    action = inspector.mark_current_action
    button = inspector.header.mark_current_button
    assert action in inspector.edit_actions()
    assert action.isEnabled() and button.isVisible() and button.defaultAction() is action
    current = app.current_seq()
    button.click()
    qtbot.waitUntil(lambda: app.node(event.id).seq_to == current, timeout=WAIT)
    app.runner.wait_idle()
    assert app.undo.stack.undoText() == f"Mark '{event.title}' as current"
    qtbot.waitUntil(lambda: not action.isEnabled(), timeout=WAIT)
    assert not button.isVisible()
    app.undo_last()
    qtbot.waitUntil(lambda: app.node(event.id).seq_to == event.seq_to, timeout=WAIT)
    qtbot.waitUntil(action.isEnabled, timeout=WAIT)


def test_the_seq_column_and_the_inspector_say_what_seq_means(app: Any, inspector: Any) -> None:
    from memgraph_gui.views.qt import QtCore
    from memgraph_gui.views.timeline.model import TimelineTableModel

    model = TimelineTableModel(app)
    tip = model.headerData(0, QtCore.Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("seqTo: the last chat turn this memory covers")
    assert "keep it" in tip and "Mark as Current" in tip
    assert (
        model.headerData(1, QtCore.Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) is None
    )
    show(app, inspector, oldest_event(app).id)
    assert inspector.header.seq_label.toolTip() == tip


# -- 5. long titles and ids elided in the inspector; list fields readable ---------------------------
def test_a_long_parent_title_is_elided_and_does_not_widen_the_inspector(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    child = next(n for n in app.store.graph.nodes.values() if n.parent_id and not n.semantic_rollup)
    long_title = "A rollup whose title goes on & on " * 8
    app.apply_sync(lambda w: w.edit_node(id=child.parent_id, title=long_title))
    show(app, inspector, child.id)
    parent = inspector.header.parent_button
    stored = app.node(child.parent_id).title
    assert parent.toolTip().endswith(stored)  # "event · n_411\n<the whole title>"
    assert len(parent.text().replace("&&", "&")) <= 48 and parent.text().endswith("…")
    assert "&&" in parent.text()  # shown as typed, not as a mnemonic
    assert inspector.minimumSizeHint().width() < 500


def test_a_long_id_is_elided_with_the_whole_id_in_its_tooltip(qtbot: Any) -> None:
    from memgraph_gui.views.inspector.style import ElidedLabel

    label = ElidedLabel()
    qtbot.addWidget(label)
    label.resize(120, 20)
    label.show()
    long_id = "n_" + "7" * 300
    label.set_full_text(long_id)
    assert label.text().endswith("…") and len(label.text()) < 60
    assert label.toolTip() == long_id and label.full_text == long_id
    assert label.minimumSizeHint().width() <= 40
    label.set_full_text("n_7")
    assert label.text() == "n_7"


def test_a_list_field_shows_four_rows_at_least(qtbot: Any, app: Any, inspector: Any) -> None:
    char = next(
        n for n in app.store.graph.nodes.values() if n.type == "character_sheet" and not n.archived
    )
    app.apply_sync(lambda w: w.edit_node(id=char.id, set_fields={"aliases": ["Kain"]}))
    show(app, inspector, char.id)
    editor = inspector.form.row("aliases").editor
    row = max(editor.list.sizeHintForRow(0), 18)
    assert editor.list.height() >= 4 * row


# -- 4. undo labels and menus show titles as typed, elided -----------------------------------------
def _window(qtbot: Any, path: Path) -> tuple[Any, Any]:
    return window_over(qtbot, path, activate=False)


def test_undo_menu_shows_ampersands_and_elides_long_labels(qtbot: Any, tmp_path: Path) -> None:
    app, window = _window(qtbot, tmp_path / "s.memgraph")
    tom = app.apply_sync(lambda w: w.create_node(type="character_sheet", title="Tom & Jerry"))
    app.apply_sync(lambda w: w.edit_node(id=tom["id"], set_fields={"goal": "cheese"}))
    qtbot.waitUntil(window.undo_action.isEnabled, timeout=WAIT)
    assert window.undo_action.text() == "&Undo Edit 'Tom && Jerry'"
    assert window.undo_action.toolTip() == "Edit 'Tom & Jerry'"
    long_title = "An extremely long character name that goes on and on and on forever"
    app.apply_sync(lambda w: w.create_node(type="character_sheet", title=long_title))
    qtbot.waitUntil(lambda: "extremely" in window.undo_action.text(), timeout=WAIT)
    label = window.undo_action.text().removeprefix("&Undo ")
    assert "…" in label and len(label) <= 60
    app.undo_last()
    qtbot.waitUntil(window.redo_action.isEnabled, timeout=WAIT)
    assert "…" in window.redo_action.text() and len(window.redo_action.text()) <= 66


def test_undo_of_a_dissolve_names_the_rollups_title(qtbot: Any, tmp_path: Path) -> None:
    app, window = _window(qtbot, tmp_path / "s.memgraph")
    events = [
        app.apply_sync(lambda w, i=i: w.create_node(type="event", fields={"summary": f"e{i}"}))[
            "id"
        ]
        for i in range(3)
    ]
    made = app.apply_sync(
        lambda w: w.compact_nodes(type="event", child_ids=events, summary="Three.")
    )
    rollup = app.node(made["rollupNodeId"])
    app.apply_sync(lambda w: w.dissolve_rollup(id=rollup.id))
    qtbot.waitUntil(lambda: "Dissolve" in window.undo_action.text(), timeout=WAIT)
    assert window.undo_action.text() == f"&Undo Dissolve rollup '{rollup.title}'"
    assert rollup.id not in window.undo_action.text()


def test_recent_files_are_elided_and_show_ampersands(qtbot: Any, tmp_path: Path) -> None:
    from memgraph_gui.views.menu_text import menu_path
    from memgraph_gui.views.window_settings import remember_file

    folder = tmp_path / ("Rock & Roll " + "deep folder " * 8).strip()
    folder.mkdir()
    stored = folder / "memory.memgraph"
    stored.write_bytes(b"")
    remember_file(str(stored))
    _app, window = _window(qtbot, tmp_path / "s.memgraph")
    menu = window.files.recent_menu
    menu.aboutToShow.emit()
    (action,) = [a for a in menu.actions() if a.data()]
    text = action.text()
    assert text.endswith("memory.memgraph") and "…" in text
    assert len(text.replace("&&", "&")) <= 60
    assert text == menu_path(str(stored.resolve()))
    assert action.toolTip() == str(stored.resolve())


def test_menu_text_shows_data_literally_and_cut() -> None:
    from memgraph_gui.views.menu_text import elide_middle, menu_item, menu_path

    assert menu_item("Edit 'Tom & Jerry'") == "Edit 'Tom && Jerry'"
    assert menu_item("a\nb   c") == "a b c"
    cut = menu_item("x" * 100)
    assert len(cut) == 60 and cut.endswith("…")
    assert menu_path("/home/R&D/" + "d" * 80 + "/m.memgraph").startswith("/home/R&&D/")
    middle = elide_middle("/" + "p" * 100 + "/file.memgraph", 40)
    assert len(middle) == 40 and middle.endswith("/file.memgraph") and "…" in middle


# -- 3. the rollup review's status line clears when it no longer applies ---------------------------
def _review(qtbot: Any, app: Any) -> Any:
    from memgraph_gui.views.wizard import RollupReviewDialog

    dialog = RollupReviewDialog(app)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_a_summary_saved_in_the_review_keeps_the_rollups_seq(qtbot: Any, app: Any) -> None:
    dialog = _review(qtbot, app)
    rollup = app.node(dialog.current_id)
    assert rollup.seq_to < app.store.graph.counter("seqCounter")
    dialog.summary.setPlainText("A corrected summary.")
    dialog.save_summary()
    qtbot.waitUntil(lambda: dialog.status.text() == "Summary saved.", timeout=WAIT)
    assert app.node(rollup.id).fields["summary"] == "A corrected summary."
    assert app.node(rollup.id).seq_to == rollup.seq_to


def test_the_status_line_clears_after_undo_and_on_reopening(qtbot: Any, app: Any) -> None:
    dialog = _review(qtbot, app)
    rollup_id = dialog.current_id
    dialog.summary.setPlainText("A corrected summary.")
    dialog.save_summary()
    qtbot.waitUntil(lambda: dialog.status.text() == "Summary saved.", timeout=WAIT)
    app.undo_last()
    qtbot.waitUntil(lambda: dialog.status.text() == "", timeout=WAIT)
    assert app.node(rollup_id).fields["summary"] != "A corrected summary."

    dialog.confirm_dissolve = lambda title, n: True  # type: ignore[method-assign]
    dialog.dissolve_current()
    qtbot.waitUntil(lambda: dialog.status.text().startswith("Dissolved"), timeout=WAIT)
    dialog.reject()
    assert not dialog.isVisible()
    dialog.show()
    assert dialog.status.text() == ""

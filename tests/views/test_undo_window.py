"""Undo in the window never gets stuck: a refused undo explains itself and offers Skip / Undo
anyway, Ctrl+Z works from any widget, and the history survives a restart (offscreen)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memgraph_gui.views.qt import QApplication, Qt
from tests.core.processes import memgraph
from tests.qt_sandbox import window_over

WAIT = 10_000


def _window(qtbot: Any, path: Path) -> tuple[Any, Any]:
    return window_over(qtbot, path)


def _two_edits(app: Any) -> tuple[str, str]:
    """Anna and Eileen, each given a goal by the window (Anna first)."""
    anna = app.apply_sync(lambda w: w.create_node(type="character_sheet", title="Anna"))["id"]
    eileen = app.apply_sync(lambda w: w.create_node(type="character_sheet", title="Eileen"))["id"]
    app.apply_sync(lambda w: w.edit_node(id=anna, set_fields={"goal": "the crown"}))
    app.apply_sync(lambda w: w.edit_node(id=eileen, set_fields={"goal": "the sea"}))
    return anna, eileen


def _edit_elsewhere(qtbot: Any, app: Any, node_id: str, fields: dict[str, Any]) -> None:
    with qtbot.waitSignal(app.changes_applied, timeout=WAIT):
        done = memgraph(
            "--db",
            app.path,
            "call",
            "editNode",
            json.dumps([{"id": node_id, "setFields": fields}]),
        )
        assert done.returncode == 0, done.stderr


def _focus(qtbot: Any, widget: Any) -> None:
    widget.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget, timeout=WAIT)


def _idle(qtbot: Any, app: Any) -> None:
    """Wait until the writer reported back (Undo is disabled while it works)."""
    qtbot.waitUntil(lambda: not app.runner.busy, timeout=WAIT)


def _ctrl_z(qtbot: Any, widget: Any, *, shift: bool = False) -> None:
    modifiers = Qt.KeyboardModifier.ControlModifier
    if shift:
        modifiers |= Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(widget, Qt.Key.Key_Z, modifiers)


def _goal(app: Any, node_id: str) -> Any:
    return app.node(node_id).fields.get("goal")


def _in_sync(app: Any) -> bool:
    return app.undo.in_sync_with == app.store.history_of(app.origin).depth()


def test_a_refused_undo_offers_skip_and_the_next_ctrl_z_undoes_the_step_before(
    qtbot: Any, tmp_path: Path
) -> None:
    app, window = _window(qtbot, tmp_path / "s.memgraph")
    anna, eileen = _two_edits(app)
    _edit_elsewhere(qtbot, app, eileen, {"summary": "an agent was here"})
    _focus(qtbot, window.timeline_panel.table)
    _idle(qtbot, app)
    _ctrl_z(qtbot, window.timeline_panel.table)
    qtbot.waitUntil(lambda: window.undo_conflict is not None, timeout=WAIT)
    dialog = window.undo_conflict
    qtbot.waitUntil(dialog.isVisible, timeout=WAIT)
    text = dialog.explanation.text()
    assert text.startswith("Cannot undo “Edit 'Eileen'”:")
    assert "the node “Eileen” was changed since by cli.py:" in text
    assert "(field summary)" in text and eileen not in text
    assert _goal(app, eileen) == "the sea"  # nothing written
    dialog.skip_button.click()
    qtbot.waitUntil(lambda: app.undo.stack.undoText() == "Edit 'Anna'", timeout=WAIT)
    assert _in_sync(app)
    assert "Skipped" in window.statusBar().currentMessage()
    window.activateWindow()  # as the platform does when a dialog closes (offscreen does not)
    _focus(qtbot, window.timeline_panel.table)
    _idle(qtbot, app)
    _ctrl_z(qtbot, window.timeline_panel.table)
    qtbot.waitUntil(lambda: _goal(app, anna) is None, timeout=WAIT)
    _idle(qtbot, app)
    assert _goal(app, eileen) == "the sea" and _in_sync(app)
    app.close()


def test_undo_anyway_shows_what_it_overwrites_then_reverts_as_a_new_step(
    qtbot: Any, tmp_path: Path
) -> None:
    app, window = _window(qtbot, tmp_path / "s.memgraph")
    _, eileen = _two_edits(app)
    _edit_elsewhere(qtbot, app, eileen, {"goal": "the agent's goal"})
    _idle(qtbot, app)
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: window.undo_conflict is not None, timeout=WAIT)
    dialog = window.undo_conflict
    assert not dialog.preview.isVisible() and not dialog.overwrite_button.isVisible()
    dialog.anyway_button.click()
    assert dialog.preview.isVisible() and dialog.overwrite_button.isVisible()
    qtbot.waitUntil(lambda: dialog.height() >= dialog.sizeHint().height(), timeout=WAIT)
    lines = dialog.preview.document().blockCount()
    shown = dialog.preview.viewport().height() // dialog.preview.fontMetrics().lineSpacing()
    assert shown >= min(lines, 14), (shown, lines)  # the preview is not cut to two lines
    explanation = dialog.explanation
    assert explanation.height() >= explanation.heightForWidth(explanation.width())
    preview = dialog.preview.toPlainText()
    assert "the node “Eileen”" in preview
    assert "goal: now “the agent's goal” → after undo (empty)" in preview
    assert _goal(app, eileen) == "the agent's goal"  # still nothing written
    dialog.overwrite_button.click()
    qtbot.waitUntil(lambda: _goal(app, eileen) is None, timeout=WAIT)
    _idle(qtbot, app)
    qtbot.waitUntil(lambda: app.undo.stack.undoText() == "Revert Edit 'Eileen'", timeout=WAIT)
    assert _in_sync(app)
    _idle(qtbot, app)
    window.undo_action.trigger()  # undoing the revert brings the agent's value back
    qtbot.waitUntil(lambda: _goal(app, eileen) == "the agent's goal", timeout=WAIT)
    _idle(qtbot, app)
    app.close()


def test_ctrl_z_in_an_inspector_field_after_a_commit_undoes_the_commit(
    qtbot: Any, tmp_path: Path
) -> None:
    app, window = _window(qtbot, tmp_path / "s.memgraph")
    anna, _ = _two_edits(app)
    app.selection.select([anna])
    QApplication.processEvents()
    line = window.inspector.form.row("goal").editor.line
    qtbot.waitUntil(lambda: line.text() == "the crown", timeout=WAIT)
    _focus(qtbot, line)
    line.selectAll()
    qtbot.keyClicks(line, "a map")
    _idle(qtbot, app)
    _ctrl_z(qtbot, line)  # unsaved typing: Ctrl+Z acts on the text, as in any editor
    assert line.text() == "the crown" and _goal(app, anna) == "the crown"
    assert app.undo.stack.undoText() == "Edit 'Eileen'"  # nothing undone in the store
    _idle(qtbot, app)
    _ctrl_z(qtbot, line, shift=True)
    assert line.text() == "a map"
    qtbot.keyClick(line, Qt.Key.Key_Return)  # commit
    qtbot.waitUntil(lambda: _goal(app, anna) == "a map", timeout=WAIT)
    _idle(qtbot, app)
    qtbot.waitUntil(lambda: not line.isReadOnly() and not line.isModified(), timeout=WAIT)
    assert QApplication.focusWidget() is line
    _idle(qtbot, app)
    _ctrl_z(qtbot, line)  # the cursor is still in the field: the window undoes the commit
    qtbot.waitUntil(lambda: _goal(app, anna) == "the crown", timeout=WAIT)
    _idle(qtbot, app)
    qtbot.waitUntil(lambda: line.text() == "the crown", timeout=WAIT)
    _idle(qtbot, app)
    _ctrl_z(qtbot, line, shift=True)  # and redoes it
    qtbot.waitUntil(lambda: _goal(app, anna) == "a map", timeout=WAIT)
    _idle(qtbot, app)
    app.close()


def test_ctrl_z_works_from_the_find_box_and_the_graph(qtbot: Any, tmp_path: Path) -> None:
    app, window = _window(qtbot, tmp_path / "s.memgraph")
    anna, eileen = _two_edits(app)
    _focus(qtbot, window.find_box)
    _idle(qtbot, app)
    _ctrl_z(qtbot, window.find_box)
    qtbot.waitUntil(lambda: _goal(app, eileen) is None, timeout=WAIT)
    _idle(qtbot, app)
    qtbot.keyClicks(window.find_box, "Ann")
    _idle(qtbot, app)
    _ctrl_z(qtbot, window.find_box)  # its own typing first
    assert window.find_box.text() == "" and _goal(app, anna) == "the crown"
    graph = window.graph_view
    _focus(qtbot, graph.focusProxy() or graph)
    _idle(qtbot, app)
    _ctrl_z(qtbot, QApplication.focusWidget())
    qtbot.waitUntil(lambda: _goal(app, anna) is None, timeout=WAIT)
    _idle(qtbot, app)
    app.close()


EARLIER_RUN = """
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from memgraph_gui.views.qt import QApplication
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.core import MemoryStore
qt = QApplication([])
app = AppModel(MemoryStore.open(sys.argv[1]))
anna = app.apply_sync(lambda w: w.create_node(type="character_sheet", title="Anna"))["id"]
app.apply_sync(lambda w: w.edit_node(id=anna, set_fields={"goal": "the crown"}))
app.apply_sync(lambda w: w.edit_node(id=anna, title="Anna Ashford"))
app.close()
print(anna)
"""


def test_after_a_restart_undo_offers_the_previous_runs_steps(qtbot: Any, tmp_path: Path) -> None:
    from memgraph_gui.core import MemoryStore
    from tests.core.processes import run_python

    path = tmp_path / "s.memgraph"
    earlier = run_python(EARLIER_RUN, str(path))  # the window's previous run: another process
    out, err = earlier.communicate(timeout=120)
    assert earlier.returncode == 0, err
    anna = out.strip()
    with MemoryStore.open(path, origin="agent") as agent:  # an agent's step is not the desk's
        agent.write_api().create_node(type="location_state", title="Tower")
    app, window = _window(qtbot, path)
    assert window.undo_action.isEnabled()
    assert window.undo_action.text() == "&Undo Edit 'Anna'"
    assert app.undo.stack.count() == 3 and _in_sync(app)
    _idle(qtbot, app)
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: app.undo.in_sync_with == (2, 1), timeout=WAIT)
    qtbot.waitUntil(window.undo_action.isEnabled, timeout=WAIT)
    assert app.node(anna).title == "Anna"
    _idle(qtbot, app)
    window.undo_action.trigger()
    qtbot.waitUntil(lambda: _goal(app, anna) is None, timeout=WAIT)
    _idle(qtbot, app)
    assert _in_sync(app) and window.redo_action.isEnabled()
    assert window.undo_action.text() == "&Undo Create character_sheet 'Anna'"
    app.close()


def test_the_mirror_follows_the_desks_steps_made_in_another_window(
    qtbot: Any, tmp_path: Path
) -> None:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    path = tmp_path / "s.memgraph"
    app, window = _window(qtbot, path)
    _two_edits(app)
    other = AppModel(MemoryStore.open(path))  # a second window of this desk on the same file
    assert other.undo.in_sync_with == (4, 0)
    with qtbot.waitSignal(app.changes_applied, timeout=WAIT):
        other.undo_last()
        other.runner.wait_idle()
    qtbot.waitUntil(lambda: app.undo.in_sync_with == (3, 1), timeout=WAIT)
    assert window.undo_action.text() == "&Undo Edit 'Anna'" and _in_sync(app)
    other.close()
    app.close()


def test_the_dialog_names_links_by_their_ends_and_a_refused_redo_only_explains(
    qtbot: Any,
) -> None:
    from memgraph_gui.views.undo_conflict import UndoConflictDialog

    conflict = {
        "kind": "edge",
        "key": "n_1\x1fknows\x1fn_2",
        "title": "Eileen —knows→ Tower",
        "ends": ["Eileen", "Tower"],
        "relation": "knows",
        "problem": "dangling",
        "fields": [],
        "overwrites": [{"field": "link", "current": {"from": "n_1"}, "restored": None}],
        "by": {"seq": 9, "batchId": 4, "label": "Link 'Eileen'", "origin": "me", "ts": 0.0},
    }
    step = {"batchId": 3, "label": "Create location_state 'Tower'", "origin": "me", "ts": 0.0}
    details = {"action": "undo", "step": step, "conflicts": [conflict], "seen": 9}
    dialog = UndoConflictDialog(details, "me")
    qtbot.addWidget(dialog)
    text = dialog.explanation.text()
    assert "the link “Eileen” —knows→ “Tower” was made since by this desk at " in text
    assert "would be left without its node" in text and "n_1" not in text
    skipped: list[int] = []
    forced: list[tuple[int, int]] = []
    dialog.skip_requested.connect(skipped.append)
    dialog.force_requested.connect(lambda b, s: forced.append((b, s)))
    dialog.anyway_button.click()
    assert "removed" in dialog.preview.toPlainText()
    dialog.overwrite_button.click()
    assert forced == [(3, 9)] and skipped == []

    redo = UndoConflictDialog({**details, "action": "redo"}, "me")
    qtbot.addWidget(redo)
    assert redo.windowTitle() == "Cannot redo"
    assert redo.explanation.text().startswith("Cannot redo “Create location_state 'Tower'”:")
    assert not redo.skip_button.isVisibleTo(redo) and not redo.anyway_button.isVisibleTo(redo)


def test_ctrl_z_works_in_a_floating_dock(qtbot: Any, tmp_path: Path) -> None:
    app, window = _window(qtbot, tmp_path / "s.memgraph")
    _, eileen = _two_edits(app)
    window.timeline_dock.setFloating(True)
    window.timeline_dock.show()
    qtbot.waitExposed(window.timeline_dock)
    window.timeline_dock.activateWindow()
    table = window.timeline_panel.table
    _focus(qtbot, table)
    assert table.window() is window.timeline_dock
    _idle(qtbot, app)
    _ctrl_z(qtbot, table)
    qtbot.waitUntil(lambda: _goal(app, eileen) is None, timeout=WAIT)
    _idle(qtbot, app)
    app.close()

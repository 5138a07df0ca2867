"""Small points of the desk (issue 20): a node made at the pointer is one undo step with its
pin; the legend collapses from the keyboard (View ▸ Legend), remembered; undo labels read by
title also for history this window did not write; selecting a node elsewhere brings it into
reading range unless it is comfortably in view already. Offscreen, pytest-qt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memgraph_gui.views.qt import QApplication, Qt

WAIT = 10_000


def _window(qtbot: Any, path: Path) -> tuple[Any, Any]:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(path))
    window = MainWindow(app)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    return app, window


def _idle(qtbot: Any, app: Any) -> None:
    """Wait until the writer reported back (Undo is disabled while it works)."""
    qtbot.waitUntil(lambda: not app.runner.busy, timeout=WAIT)


def _key(
    qtbot: Any, widget: Any, key: Any, modifiers: Any = Qt.KeyboardModifier.NoModifier
) -> None:
    """Give ``widget`` the keyboard (or its focus proxy) and press ``key`` there."""
    widget.setFocus(Qt.FocusReason.OtherFocusReason)
    target = widget.focusProxy() or widget
    qtbot.waitUntil(lambda: QApplication.focusWidget() is target, timeout=WAIT)
    qtbot.keyClick(target, key, modifiers)


# -- 1. "New node here…" is one undo step: the node and its pin -----------------------------------
def test_a_node_made_at_the_pointer_is_one_undo_step_with_its_pin(
    qtbot: Any, tmp_path: Path
) -> None:
    from memgraph_gui.views.graph.new_node import NewNode

    app, window = _window(qtbot, tmp_path / "s.memgraph")
    history = app.store.history_of(app.origin)
    before = history.depth()
    window.graph_view.create_node_at(NewNode("character_sheet", "Tom & Jerry"), 12.5, -3.0)
    _idle(qtbot, app)
    made = next(n for n in app.store.graph.nodes.values() if n.title == "Tom & Jerry")
    assert app.store.pins()[made.id] == (12.5, -3.0)
    assert history.depth() == (before[0] + 1, 0)  # one step, not a create and then a pin
    assert app.undo.in_sync_with == history.depth()
    assert window.undo_action.text() == "&Undo Create character_sheet 'Tom && Jerry'"

    table = window.timeline_panel.table
    _key(qtbot, table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # one Ctrl+Z
    qtbot.waitUntil(lambda: app.node(made.id) is None, timeout=WAIT)
    _idle(qtbot, app)
    assert made.id not in app.store.pins()  # no stray pin of a node that is gone
    assert history.depth() == (before[0], 1)
    view = window.graph_view
    qtbot.waitUntil(lambda: made.id not in view.scene.index, timeout=WAIT)  # not drawn either

    redo = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    _key(qtbot, table, Qt.Key.Key_Z, redo)
    qtbot.waitUntil(lambda: app.node(made.id) is not None, timeout=WAIT)
    _idle(qtbot, app)
    assert app.store.pins()[made.id] == (12.5, -3.0)  # both back, together
    assert history.depth() == (before[0] + 1, 0)
    app.close()


# -- 2. the legend collapses from the keyboard: View ▸ Legend (L), remembered ----------------------
def test_view_legend_collapses_the_legend_from_the_keyboard_and_is_remembered(
    qtbot: Any, tmp_path: Path
) -> None:
    from memgraph_gui.app.settings import load_legend_collapsed
    from memgraph_gui.views.qt import QKeySequence

    app, window = _window(qtbot, tmp_path / "s.memgraph")
    view = window.graph_view
    action = view.graph_actions.legend
    assert action in window.view_menu.actions() and action.isCheckable()
    assert action.shortcut() == QKeySequence("L")
    others = [a for a in window.findChildren(type(action)) if a is not action]
    assert all(QKeySequence("L") not in a.shortcuts() for a in others)  # a key of its own
    assert ("L", "Legend", "View") in window.show_shortcuts().rows()  # Help ▸ Keyboard shortcuts
    window.help_dialog.close()
    window.activateWindow()  # as the platform does when a dialog closes (offscreen does not)
    assert action.isChecked() and not view.legend.collapsed
    tall = view.legend.height()

    _key(qtbot, view, Qt.Key.Key_L)
    assert view.legend.collapsed and not action.isChecked()
    assert view.legend.height() < tall / 3 and load_legend_collapsed()
    assert "(L)" in view.legend.toolTip()
    app.close()

    app, window = _window(qtbot, tmp_path / "s.memgraph")  # the next run
    view = window.graph_view
    action = view.graph_actions.legend
    assert view.legend.collapsed and not action.isChecked()
    _key(qtbot, view, Qt.Key.Key_L)
    assert not view.legend.collapsed and action.isChecked() and view.legend.height() == tall
    assert not load_legend_collapsed()
    qtbot.mouseClick(view.legend, Qt.MouseButton.LeftButton, pos=view.legend.header_rect().center())
    assert view.legend.collapsed and not action.isChecked()  # the menu follows a click
    app.close()

"""Small points of the desk (issue 20): a node made at the pointer is one undo step with its
pin; the legend collapses from the keyboard (View ▸ Legend), remembered; undo labels read by
title also for history this window did not write; selecting a node elsewhere brings it into
reading range unless it is comfortably in view already. Offscreen, pytest-qt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memgraph_gui.views.qt import QApplication, Qt
from tests.qt_sandbox import window_over
from tests.views.test_graph_view import laid_out_template, shown_view  # noqa: F401

WAIT = 10_000


def _window(qtbot: Any, path: Path) -> tuple[Any, Any]:
    return window_over(qtbot, path)


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


# -- 3. undo labels name titles, also for history this window did not write ----------------------
_OLDER_BUILD = """
import sqlite3, sys
from memgraph_gui.core import MemoryStore

path, origin = sys.argv[1], sys.argv[2]
store = MemoryStore.open(path)
write = store.write_api(origin=origin)
events = [
    write.create_node(type="event", fields={"summary": f"Ann met Bob, day {i}"})["id"]
    for i in range(3)
]
rollup = write.compact_nodes(type="event", child_ids=events, summary="Three days.")
rollup = rollup["rollupNodeId"]
write.dissolve_rollup(id=rollup)
store.close()
old = f"Dissolve rollup {rollup}"  # as a build before titles were used labelled it
with sqlite3.connect(path) as db:
    db.execute("UPDATE batches SET label = ? WHERE label LIKE 'Dissolve%'", (old,))
print(rollup)
"""


def test_history_written_before_a_restart_by_another_process_names_titles_not_ids(
    qtbot: Any, tmp_path: Path
) -> None:
    from memgraph_gui.app.undo_stack import desk_origin
    from tests.core.processes import run_python

    path = tmp_path / "s.memgraph"
    writer = run_python(_OLDER_BUILD, str(path), desk_origin())
    out, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, err
    rollup = out.strip()
    app, window = _window(qtbot, path)  # the window finds that history in the store
    steps = app.store.history_of(app.origin).steps()
    assert steps[0].label == f"Dissolve rollup {rollup}"  # an id, as stored
    title = app.node(rollup).title
    assert title and rollup not in title

    assert window.undo_action.text() == f"&Undo Dissolve rollup '{title}'"
    table = window.timeline_panel.table
    _key(qtbot, table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "Compact" in window.undo_action.text(), timeout=WAIT)
    assert window.redo_action.text() == f"&Redo Dissolve rollup '{title}'"
    assert rollup not in window.redo_action.text()
    app.close()


def test_an_agents_step_named_in_a_refused_undo_names_titles_not_ids(
    qtbot: Any, tmp_path: Path
) -> None:
    """An agent's free-form label (``applyExtractionBatch``'s ``label``, by the CLI) that
    names a node by its id reads with the node's title where the window shows it."""
    from tests.core.processes import memgraph

    app, window = _window(qtbot, tmp_path / "s.memgraph")
    ann = app.apply_sync(lambda w: w.create_node(type="character_sheet", title="Ann"))["id"]
    app.apply_sync(lambda w: w.edit_node(id=ann, set_fields={"goal": "the mill"}))
    batch = {
        "ops": [{"op": "edit", "nodeId": ann, "setFields": {"goal": "the sea"}}],
        "label": f"Fix {ann} goal",
    }
    with qtbot.waitSignal(app.changes_applied, timeout=WAIT):
        done = memgraph("--db", app.path, "call", "applyExtractionBatch", json.dumps([batch]))
        assert done.returncode == 0, done.stderr
    by_cli = app.store.history.steps()[0]
    assert by_cli.label == f"Fix {ann} goal" and by_cli.origin != app.origin  # as written
    _idle(qtbot, app)
    _key(qtbot, window.timeline_panel.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.undo_conflict is not None, timeout=WAIT)
    text = window.undo_conflict.explanation.text()
    assert text.startswith("Cannot undo “Edit 'Ann'”:")
    assert "their step: “Fix 'Ann' goal”" in text and ann not in text
    window.undo_conflict.close()
    app.close()


def test_readable_label_names_ids_and_leaves_the_rest() -> None:
    from memgraph_gui.app.undo_stack import readable_label

    names = {"n_12": "Tom & Jerry", "n_7": "x" * 80, "12": "twelve", "n_3": None}
    name_of = names.get
    assert readable_label("Dissolve rollup n_12", name_of) == "Dissolve rollup 'Tom & Jerry'"
    assert readable_label("Restore n_7", name_of) == f"Restore '{'x' * 39}…'"  # elided
    assert readable_label("Compact 12 events", name_of) == "Compact 12 events"  # a count
    assert readable_label("Edit 'n_12 and n_7'", name_of) == "Edit 'n_12 and n_7'"  # a title
    assert readable_label("Pin n_3", name_of) == "Pin n_3"  # nothing to name it by
    assert readable_label("Pin n_99", name_of) == "Pin n_99"  # no such node
    assert readable_label("Link 'Ann' to n_12 (2)", name_of) == "Link 'Ann' to 'Tom & Jerry' (2)"


# -- 4. a node selected elsewhere comes into reading range, unless comfortably in view ------------
def test_a_node_selected_elsewhere_is_centred_and_readable_unless_comfortably_in_view(
    laid_out_template: Path,  # noqa: F811
    tmp_path: Path,
    qtbot: Any,
) -> None:
    import numpy as np

    from memgraph_gui.app.overview import ALL
    from tests.qt_sandbox import app_over_copy

    source = app_over_copy(laid_out_template, tmp_path)
    app = next(source)
    view = shown_view(app, qtbot, ALL)  # fitted: every node as itself
    try:
        scene = view.scene
        (x0, x1), (y0, y1) = view.view.viewRange()
        fitted_width = x1 - x0
        centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
        row = int(np.argmax(np.hypot(*(scene.pos - centre).T) * scene.alive))  # at the edge
        elsewhere = object()  # the timeline, a link, a search or the lab
        app.selection.select([scene.ids[row]], source=elsewhere)
        (x0, x1), (y0, y1) = view.view.viewRange()
        x, y = scene.pos[row]
        w, h = x1 - x0, y1 - y0
        assert abs(x - (x0 + x1) / 2) < 0.02 * w and abs(y - (y0 + y1) / 2) < 0.02 * h
        assert w < fitted_width / 2  # zoomed in ...
        qtbot.waitUntil(lambda: row in view.labels.rows, timeout=WAIT)  # ... to read its label

        # a node comfortably in view already (near the middle, labels shown): nothing moves
        near = np.abs(scene.pos - [x, y]) < [0.3 * w, 0.3 * h]
        others = np.flatnonzero(near.all(axis=1) & view.visible & scene.alive)
        other = int(next(r for r in others if r != row))
        before = view.view.viewRange()
        app.selection.select([scene.ids[other]], source=elsewhere)
        assert view.view.viewRange() == before
        assert view.selection.rows == {other}
    finally:
        view.shutdown()
        source.close()

"""The window as a new user finds it (issue 20, "the rest of the desk"): Tab between the parts
with a visible frame, the graph's share at 1024×700, Apply / Revert that never move the form,
the timeline's filter notice, what starting opens, a failed start, an empty file, and Help."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

WAIT = 10000


def _window(qtbot: Any, path: Path | str, *, size: tuple[int, int] = (1360, 820)) -> Any:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(path))
    window = MainWindow(app)
    window.files.dialogs = False
    qtbot.addWidget(window)
    window.resize(*size)
    return app, window


def _copy(template: Path, folder: Path, name: str = "d.memgraph") -> Path:
    target = folder / name
    shutil.copy(template, target)
    return target


def _focus(qtbot: Any, widget: Any) -> None:
    widget.window().activateWindow()
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus, timeout=WAIT)


def _tab(qtbot: Any, *, back: bool = False) -> Any:
    from memgraph_gui.views.qt import QApplication, Qt

    widget = QApplication.focusWidget()
    key = Qt.Key.Key_Backtab if back else Qt.Key.Key_Tab
    modifier = Qt.KeyboardModifier.ShiftModifier if back else Qt.KeyboardModifier.NoModifier
    qtbot.keyClick(widget, key, modifier)
    return QApplication.focusWidget()


# -- 1. Tab between the parts, the focused part framed ------------------------------------------
def test_tab_moves_between_the_parts_and_frames_the_focused_one(
    qtbot: Any, demo_template: Path, tmp_path: Path
) -> None:
    app, window = _window(qtbot, _copy(demo_template, tmp_path))
    window.show()
    qtbot.waitExposed(window)
    picked = window.timeline.node_id(5)
    app.selection.select([picked])
    graph, timeline, inspector = window.graph_view, window.timeline_panel, window.inspector
    _focus(qtbot, window.find_box)
    assert window.focus_frame.part is window.find_box and window.focus_frame.shown

    assert _tab(qtbot) is timeline.table
    assert window.focus_frame.part is timeline and window.focus_frame.shown
    assert _tab(qtbot) is graph.plot  # not the next cell of the table
    assert window.focus_frame.part is graph
    assert inspector.isAncestorOf(_tab(qtbot))  # the inspector's first field
    assert window.focus_frame.part is inspector
    assert _tab(qtbot, back=True) is graph.plot
    assert _tab(qtbot, back=True) is timeline.table
    assert app.selection.ids == frozenset({picked})  # Tab never changed the selection
    frame = window.focus_frame._overlay
    assert frame.parent() is timeline and frame.geometry() == timeline.rect()
    app.close()


# -- 2. 1024×700: the graph keeps half, nothing clipped --------------------------------------------
def test_at_1024_by_700_the_graph_keeps_half_the_width_and_nothing_is_clipped(
    qtbot: Any, demo_template: Path, tmp_path: Path
) -> None:
    from memgraph_gui.views.qt import Qt, QtWidgets

    app, window = _window(qtbot, _copy(demo_template, tmp_path), size=(1024, 700))
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: window.graph_view.width() >= 512, timeout=WAIT)
    assert window.width() == 1024 and window.height() == 700
    hint = window.minimumSizeHint()
    assert hint.width() <= 1024 and hint.height() <= 700
    event = max(
        (n for n in app.store.graph.nodes.values() if n.type == "event"), key=lambda n: n.seq_to
    )
    app.selection.select([event.id])  # the inspector shows a form: none of it cut off
    scroll = window.inspector.findChild(QtWidgets.QScrollArea)

    def fits() -> bool:
        inner = scroll.widget().minimumSizeHint().width()
        return scroll.isVisible() and scroll.viewport().width() >= inner

    qtbot.waitUntil(fits, timeout=WAIT)
    qtbot.wait(100)  # (a wider form may have taken room from the graph: docks give way)
    assert window.graph_view.width() >= 512 and fits()
    for part in (window.timeline_panel, window.inspector, window.timeline_panel.filters):
        need = part.minimumSizeHint()
        assert part.width() >= need.width() and part.height() >= need.height(), part
    # a character sheet's form (a list field's controls and Apply / Revert beside the longest
    # label) once needed ~440 px and took them from the graph
    character = next(n for n in app.store.graph.nodes.values() if n.type == "character_sheet")
    app.selection.select([character.id])
    qtbot.waitUntil(fits, timeout=WAIT)
    qtbot.wait(100)
    assert window.graph_view.width() >= 512 and fits()

    # a layout saved wider (docks 700 + 500 px) gives way when the window is made smaller
    window.resize(1700, 900)
    window.resizeDocks(
        [window.timeline_dock, window.inspector_dock], [700, 500], Qt.Orientation.Horizontal
    )
    qtbot.wait(20)
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.graph_view.width() >= 512, timeout=WAIT)
    app.close()


# -- 3. Apply / Revert never move the fields below ----------------------------------------------------
def test_apply_and_revert_appear_and_go_without_moving_the_fields_below(
    qtbot: Any, demo_app: Any
) -> None:
    from memgraph_gui.views.inspector import NodeInspector
    from memgraph_gui.views.qt import QApplication, QtCore

    QPoint = QtCore.QPoint

    app = demo_app
    inspector = NodeInspector(app)
    qtbot.addWidget(inspector)
    inspector.resize(380, 900)
    inspector.show()
    event = next(
        n for n in sorted(app.store.graph.nodes.values(), key=lambda n: n.ord) if n.type == "event"
    )
    app.selection.select([event.id])
    QApplication.processEvents()
    below = inspector.links_title  # what follows the form (summary is an event's last field)
    editor = inspector.form.row("summary").editor

    def top() -> int:
        for _ in range(3):
            QApplication.processEvents()  # layouts settle through posted events
        return below.mapTo(inspector, QPoint(0, 0)).y()

    start = top()
    editor.area.setPlainText(editor.area.toPlainText() + " ")  # same height, now unsaved
    assert editor.bar.apply_button.isVisible()
    assert top() == start
    editor.bar.apply_button.click()  # in flight, then saved: the buttons go
    assert top() == start
    qtbot.waitUntil(lambda: not editor.bar.apply_button.isVisible(), timeout=WAIT)
    assert top() == start
    editor.area.setPlainText(editor.area.toPlainText() + "!")
    assert top() == start
    editor.bar.revert_button.click()
    assert not editor.bar.revert_button.isVisible() and top() == start


# -- 4. the timeline's filter says what it hides -----------------------------------------------------
def test_a_filter_that_hides_rows_says_so_also_after_opening_another_file(
    qtbot: Any, demo_template: Path, tmp_path: Path
) -> None:
    from memgraph_gui.core import MemoryStore

    app, window = _window(qtbot, _copy(demo_template, tmp_path))
    panel = window.timeline_panel
    assert panel.shown_note.isHidden()
    window.find_box.setText("zzz-no-such-node")
    qtbot.waitUntil(lambda: panel.model.filter.text == "zzz-no-such-node", timeout=WAIT)
    qtbot.waitUntil(lambda: not panel.shown_note.isHidden(), timeout=WAIT)
    assert panel.shown_note.text().startswith("0 of 600 shown — ")
    assert "clear filter" in panel.shown_note.text()
    assert not panel.table.empty_note.isHidden()
    assert panel.table.empty_note.text() == "No matches"

    qtbot.waitUntil(window.settled, timeout=WAIT)
    other = tmp_path / "other.memgraph"
    with MemoryStore.open(other) as s:
        for title in ("Ada", "Bea", "Cy"):
            s.write_api().create_node(type="character_sheet", title=title)
    window.open_path(str(other))
    qtbot.waitUntil(lambda: app.path == str(other) and not window.files.opening, timeout=WAIT)
    qtbot.waitUntil(lambda: panel.shown_note.text().startswith("0 of 3 shown"), timeout=WAIT)
    assert not panel.shown_note.isHidden() and not panel.table.empty_note.isHidden()

    panel.shown_note.linkActivated.emit("clear")  # the "clear filter" link
    assert window.find_box.text() == "" and not panel.model.filter.active
    assert window.timeline.rowCount() == 3
    assert panel.shown_note.isHidden() and panel.table.empty_note.isHidden()
    app.close()


def test_the_type_filter_stays_open_while_several_types_are_ticked(qtbot: Any) -> None:
    from memgraph_gui.views.qt import Qt, QtCore
    from memgraph_gui.views.timeline.filter_bar import FilterBar

    QPoint = QtCore.QPoint

    bar = FilterBar()
    qtbot.addWidget(bar)
    bar.set_choices(["event", "character_sheet", "location_state"], [], (0, 10))
    bar.show()
    menu = bar.types.menu()
    menu.popup(bar.mapToGlobal(QPoint(0, 0)))
    qtbot.waitUntil(menu.isVisible, timeout=WAIT)
    first, second = menu.actions()[:2]
    with qtbot.waitSignal(bar.filter_changed, timeout=WAIT):
        pos = menu.actionGeometry(first).center()
        qtbot.mouseMove(menu, pos)
        qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=pos)
    assert menu.isVisible() and not first.isChecked()
    pos = menu.actionGeometry(second).center()
    qtbot.mouseMove(menu, pos)
    qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=pos)
    assert menu.isVisible() and not second.isChecked()
    assert bar.current().types == frozenset({"location_state"})
    assert bar.types.text() == "1 of 3 types"
    menu.hide()


def test_counts_take_the_plural_through_tr(qapp: Any) -> None:
    from memgraph_gui.views.qt import tr_n

    assert tr_n("%n group(s)", 1) == "1 group"
    assert tr_n("%n group(s)", 2) == "2 groups"
    assert tr_n("Review %n group(s)", 0) == "Review 0 groups"


def test_a_translation_supplies_the_plural_forms(qapp: Any) -> None:
    """``tr_n`` goes through Qt's numerus translation: a translator's forms win."""
    from memgraph_gui.views.qt import QtCore, tr_n

    class Plurals(QtCore.QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):  # type: ignore[no-untyped-def]
            if source == "%n group(s)":
                return "%n Gruppe" if n == 1 else "%n Gruppen"
            return ""

    translator = Plurals()
    QtCore.QCoreApplication.installTranslator(translator)
    try:
        assert tr_n("%n group(s)", 1) == "1 Gruppe"
        assert tr_n("%n group(s)", 5) == "5 Gruppen"
    finally:
        QtCore.QCoreApplication.removeTranslator(translator)


def test_the_rollup_reviews_count_follows_its_filter(qtbot: Any, demo_app: Any) -> None:
    from memgraph_gui.views.wizard.rollup_review import RollupReviewDialog

    dialog = RollupReviewDialog(demo_app)
    qtbot.addWidget(dialog)
    dialog.refresh()
    total = dialog.rollups.rowCount()
    assert total > 1 and dialog.count_label.text() == f"{total} rollups"
    title = dialog.rollups.index(0, 0).data()
    dialog.filter.setText(title)
    shown = dialog.proxy.rowCount()
    assert 0 < shown < total
    assert dialog.count_label.text() == f"{shown} of {total} rollups"
    dialog.filter.setText("zzz-no-such-rollup")
    assert dialog.count_label.text() == f"0 of {total} rollups"
    dialog.filter.clear()
    assert dialog.count_label.text() == f"{total} rollups"


# -- 5. what starting opens; a failed start; an empty file -------------------------------------------
def test_starting_with_no_file_opens_the_last_file_or_else_the_demo(
    qtbot: Any, demo_template: Path, tmp_path: Path
) -> None:
    app, window = _window(qtbot, ":memory:")
    demos: list[bool] = []
    window.files.open_demo = lambda: demos.append(True)  # (building the 2k demo is slow)
    window.files.open_start()
    assert demos == [True]  # the first time: the demo

    path = _copy(demo_template, tmp_path)
    window.open_path(str(path))
    qtbot.waitUntil(lambda: app.path == str(path) and not window.files.opening, timeout=WAIT)
    window.close()
    app.close()

    app, window = _window(qtbot, ":memory:")  # the next run
    window.files.open_demo = lambda: demos.append(True)
    window.files.open_start()
    qtbot.waitUntil(lambda: app.path == str(path) and not window.files.opening, timeout=WAIT)
    assert demos == [True]
    app.close()


def test_a_failed_open_at_start_leaves_no_editable_empty_window(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph_gui.views import file_actions

    monkeypatch.setattr(file_actions, "show_problem", lambda *_args: None)  # never blocks
    bad = tmp_path / "bad.memgraph"
    bad.write_text("just some notes\n" * 100)
    app, window = _window(qtbot, ":memory:")  # as ``memgraph-gui bad.memgraph`` starts
    window.files.dialogs = True
    asked: list[Any] = []
    window.files.ask_start = lambda _parent, problem: asked.append(problem) or "demo"
    demos: list[bool] = []
    window.files.open_demo = lambda: demos.append(True)
    window.open_path(str(bad))
    qtbot.waitUntil(lambda: not window.files.opening, timeout=WAIT)
    [problem] = asked
    assert problem.code == "NOT_A_STORE" and str(bad) in problem.message
    assert demos == [True]  # the offer taken: the demo opens
    assert window.no_memory
    for part in (window.graph_view, window.timeline_panel, window.inspector, window.find_box):
        assert not part.isEnabled()
    assert window.windowTitle().startswith("no memory open")

    good = tmp_path / "good.memgraph"
    window.files.open_path(str(good), create=True)  # as File ▸ New… does
    qtbot.waitUntil(lambda: app.path == str(good) and not window.files.opening, timeout=WAIT)
    assert not window.no_memory and window.graph_view.isEnabled()
    assert window.inspector.isEnabled() and window.timeline_panel.isEnabled()
    app.close()


@pytest.mark.parametrize("answer", [False, True])
def test_file_open_on_an_empty_file_asks_before_making_it_a_store(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: bool
) -> None:
    from memgraph_gui.views import file_actions

    empty = tmp_path / "empty.memgraph"
    empty.write_bytes(b"")
    start = tmp_path / "start.memgraph"
    app, window = _window(qtbot, start)
    monkeypatch.setattr(file_actions, "ask_file", lambda *_args, **_kw: str(empty))
    asked: list[str] = []
    window.files.ask_empty = lambda _parent, path: asked.append(path) or answer
    window.files.open.trigger()  # File ▸ Open…
    assert asked == [str(empty)]
    if answer:
        qtbot.waitUntil(lambda: app.path == str(empty) and not window.files.opening, timeout=WAIT)
        assert empty.stat().st_size > 0
    else:
        assert not window.files.opening and app.path == str(start)
        assert empty.stat().st_size == 0
    app.close()


# -- 6. Help ------------------------------------------------------------------------------------------
def test_f1_lists_every_shortcut_of_the_windows_actions(
    qtbot: Any, demo_template: Path, tmp_path: Path
) -> None:
    from memgraph_gui.views.qt import QKeySequence, QMenu

    app, window = _window(qtbot, _copy(demo_template, tmp_path))
    assert window.shortcuts_action.shortcut() == QKeySequence("F1")
    assert window.shortcuts_action in window.help_menu.actions()
    dialog = window.show_shortcuts()
    rows = dialog.rows()

    def every(menu: QMenu) -> list[Any]:
        out = []
        for action in menu.actions():
            sub = action.menu()
            out += every(sub) if isinstance(sub, QMenu) else [action]
        return out

    menus = [a.menu() for a in window.menuBar().actions() if isinstance(a.menu(), QMenu)]
    keyed = [a for m in menus for a in every(m) if not a.shortcut().isEmpty()]
    assert len(keyed) >= 10
    listed = {keys for keys, _command, _where in rows}
    for action in keyed:
        native = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        assert any(native in keys.split(", ") for keys in listed), action.text()
    assert ("F1", "Keyboard shortcuts", "Help") in rows
    assert any(c == "Open" and w == "File" for _k, c, w in rows)
    window.graph_view.graph_actions.fit.setShortcut(QKeySequence("Ctrl+Shift+F"))
    rows = window.show_shortcuts().rows()  # built from the actions: it follows them
    fit = window.graph_view.graph_actions.fit.text().replace("&", "").rstrip(".…")
    assert any(k == QKeySequence("Ctrl+Shift+F").toString() and c == fit for k, c, _w in rows)
    app.close()


def test_about_names_the_version_and_the_open_store(
    qtbot: Any, demo_template: Path, tmp_path: Path
) -> None:
    from importlib.metadata import version

    path = _copy(demo_template, tmp_path)
    app, window = _window(qtbot, path)
    assert window.about_action in window.help_menu.actions()
    box = window.show_about()
    assert version("memgraph-gui") in box.text()
    assert str(path) in box.text()
    app.close()

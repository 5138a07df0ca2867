"""The Recall lab dock in the main window: View ▸ Recall Lab (Ctrl+Shift+L) shows it; a
message typed fills the four rankings side by side, each marked on the graph in its own ring;
vectorSearch without a profile says so and what to do; clicking a ranked node selects it (the
inspector shows it, the graph centres it); an edit in the inspector runs the rankings again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.views.qt import QKeySequence, Qt
from tests.app.test_recall_lab import MESSAGE, lab_store
from tests.qt_sandbox import window_over


@pytest.fixture
def shown(qtbot: Any, tmp_path: Path) -> Any:
    path = tmp_path / "lab.memgraph"
    lab_store(path).close()
    app, window = window_over(qtbot, path)
    qtbot.waitUntil(lambda: window.graph_view.scene is not None and window.settled())
    yield app, window
    window.close()
    app.close()


def _open_lab(qtbot: Any, window: Any) -> Any:
    dock = window.recall_lab_dock
    toggle = dock.toggleViewAction()
    assert dock.isHidden() and toggle in window.view_menu.actions()
    assert toggle.shortcut() == QKeySequence("Ctrl+Shift+L")
    toggle.trigger()
    qtbot.waitUntil(dock.isVisible)
    return window.recall_lab


def _ask(qtbot: Any, app: Any, panel: Any, message: str = MESSAGE) -> Any:
    with qtbot.waitSignal(app.recall_lab.result_changed, timeout=10_000):
        panel.set_message(message)
    return app.recall_lab.result


def test_every_pane_filled_and_marked(qtbot: Any, shown: Any) -> None:
    app, window = shown
    panel = _open_lab(qtbot, window)
    assert panel.message.hasFocus()
    panel.nugget.setCurrentIndex(panel.nugget.findData("work"))
    result = _ask(qtbot, app, panel)
    columns = panel.columns
    assert list(columns) == ["keyword", "vector", "notes", "retrieve"]
    keyword = columns["keyword"]
    assert keyword.ids() == list(result.rankings["keyword"].ids)
    assert keyword.titles()[:2] == ["Deploy checklist", "Deploy steps (old)"]
    assert keyword.table.topLevelItem(0).text(2) == "1.00"
    assert columns["notes"].ids() == list(result.rankings["notes"].ids)
    assert columns["notes"].note.text() == "in nugget work"
    assert columns["retrieve"].ids() and columns["retrieve"].note.text().startswith(
        "full trust (no lens)"
    )
    assert "ms" in panel.status.text()
    graph = window.graph_view
    scene = graph.scene
    drawn = {scene.ids[r] for r in range(scene.n) if graph.visible[r]}
    assert "fact-work-tmp00001" not in drawn  # a hidden note: ranked, but not drawn
    for key in ("keyword", "notes", "retrieve"):
        marked = {scene.ids[r] for r in graph.recall_marks.rows(key)}
        assert marked == set(result.rankings[key].ids) & drawn and marked
    assert graph.recall_marks.rows("vector") == set()
    looks = {
        (ring.item.opts["symbol"], ring.style.pen.color().name(), ring.style.pad)
        for ring in graph.recall_marks.rings.values()
    }
    assert len({look[0] for look in looks}) == len({look[1] for look in looks}) == 5
    assert len({look[2] for look in looks}) == 5  # nested: every ring round a node shows
    window.recall_lab_dock.toggleViewAction().trigger()  # hidden: the graph marks nothing
    qtbot.waitUntil(lambda: not graph.recall_marks.rows("keyword"))


def test_no_embedding_profile_is_said_plainly(qtbot: Any, shown: Any) -> None:
    app, window = shown
    panel = _open_lab(qtbot, window)
    _ask(qtbot, app, panel)
    vector = panel.columns["vector"]
    assert vector.problem.isVisible() and not vector.table.isVisible()
    assert vector.ids() == []
    text = vector.problem.text()
    assert "No embedding profile" in text and "memgraph --db FILE embed" in text
    assert "Tools ▸ Embedding profile…" in text
    assert vector.problem.textFormat() == Qt.TextFormat.PlainText


def test_clicking_a_result_selects_and_reveals_it(qtbot: Any, shown: Any) -> None:
    app, window = shown
    panel = _open_lab(qtbot, window)
    result = _ask(qtbot, app, panel)
    table = panel.columns["keyword"].table
    second = table.topLevelItem(1)
    node_id = result.rankings["keyword"].ids[1]
    rect = table.visualItemRect(second)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert app.selection.current == node_id
    assert window.inspector.node_id == node_id
    graph = window.graph_view
    row = graph.scene.index[node_id]
    (x0, x1), (y0, y1) = graph.view.viewRange()
    x, y = graph.scene.pos[row]
    assert x0 <= x <= x1 and y0 <= y <= y1  # in view (centred unless already comfortable)


def test_an_edit_runs_the_rankings_again(qtbot: Any, shown: Any) -> None:
    app, window = shown
    panel = _open_lab(qtbot, window)
    result = _ask(qtbot, app, panel, "Eileen")
    (node_id,) = [h.node_id for h in result.rankings["keyword"].hits if h.title == "Eileen"]
    with qtbot.waitSignal(app.recall_lab.result_changed, timeout=10_000):
        app.apply_sync(lambda w: w.edit_node(id=node_id, title="Eileen Marsh"))
    assert "Eileen Marsh" in panel.columns["keyword"].titles()


def test_the_dock_fits_a_small_window_and_tab_reaches_it(qtbot: Any, shown: Any) -> None:
    app, window = shown
    window.resize(1024, 700)
    panel = _open_lab(qtbot, window)
    _ask(qtbot, app, panel)
    qtbot.wait(50)
    for column in panel.columns.values():
        assert column.width() >= column.minimumSizeHint().width()
        assert column.visibleRegion().boundingRect().width() == column.width()
    tops = {c.table.mapTo(panel, c.table.rect().topLeft()).y() for c in panel.columns.values()}
    assert len(tops) == 1  # the four side by side, aligned
    assert panel.message.visibleRegion().boundingRect().height() == panel.message.height()
    stops = window.tab_stops()
    assert panel.message in stops and panel.columns["retrieve"].table in stops
    at = stops.index(panel.message)
    tables = [c.table for c in panel.columns.values() if c.table.isVisible()]
    order = [panel.message, panel.nugget, panel.tabs.tabBar(), *tables]  # (vectorSearch's
    # says why it is empty)
    assert [s for s in stops[at:] if s in order] == order


def test_the_lab_gives_way_to_the_graph_in_a_shorter_window(qtbot: Any, shown: Any) -> None:
    _app, window = shown
    window.resize(1500, 960)
    _open_lab(qtbot, window)
    dock = window.recall_lab_dock
    qtbot.waitUntil(lambda: dock.height() > 300)  # its first share of the height
    qtbot.wait(200)  # (the window's own resize settled)
    window.resizeDocks([dock], [560], Qt.Orientation.Vertical)  # left tall by the person
    qtbot.waitUntil(lambda: dock.height() > 520)
    qtbot.wait(100)
    assert dock.height() > 520  # the person's height stays while the window keeps its size
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.graph_view.height() >= 0.4 * window.height() - 30)
    assert dock.isVisible() and dock.height() >= dock.minimumSizeHint().height()


def test_the_dock_is_remembered_with_the_window_layout(qtbot: Any, shown: Any) -> None:
    from memgraph_gui.views.main_window import MainWindow

    app, window = shown
    _open_lab(qtbot, window)
    window.close()  # saves the layout
    again = MainWindow(app)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitUntil(again.recall_lab_dock.isVisible)
    assert again.recall_lab_dock.toggleViewAction().isChecked()
    assert app.recall_lab.marking
    again.close()

"""The graph view's deferred work is bound to what it was for: a reload or a search asked for
the open store does not land on the picture of a file that is opening."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.qt_sandbox import app_over_copy


@pytest.fixture
def app(demo_template: Path, tmp_path: Path) -> Iterator[Any]:
    yield from app_over_copy(demo_template, tmp_path)


@pytest.fixture
def view(app: Any, qtbot: Any) -> Any:
    from memgraph_gui.views.graph import GraphView

    widget = GraphView(app)
    qtbot.addWidget(widget)
    widget.resize(600, 400)
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: not widget.layout_job.running, timeout=20000)
    yield widget
    widget.shutdown()


def _other_snapshot(tmp_path: Path, titles: list[str]) -> Any:
    """The picture of another file (as a preview delivers it) and its stamp."""
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.app.graph_data import graph_snapshot
    from memgraph_gui.core import MemoryStore

    other = AppModel(MemoryStore.open(tmp_path / "other.memgraph"))
    for title in titles:
        other.apply_sync(lambda w, t=title: w.create_node(type="location_state", title=t))
    snap, stamp = graph_snapshot(other), other.stamp
    other.close()
    return snap, stamp


def test_a_reload_due_for_the_open_store_leaves_the_preview_alone(
    view: Any, app: Any, qtbot: Any, tmp_path: Path
) -> None:
    snap, stamp = _other_snapshot(tmp_path, ["Other one", "Other two"])
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        added = app.apply_sync(lambda w: w.create_node(type="location_state", title="New here"))
    new_id = added.changes.nodes_added and next(iter(added.changes.nodes_added))
    assert view._reload_timer.isActive()  # the open store's new node waits for the reload
    view.show_preview(snap, stamp)  # another file starts opening meanwhile
    preview_ids = view.scene.ids
    qtbot.wait(400)
    assert view.preview_stamp == stamp
    assert view.scene.ids == preview_ids and new_id not in view.scene.index
    assert not view.layout_job.running  # no layout of the open store over the picture


def test_a_search_due_for_the_open_store_does_not_fade_the_preview(
    view: Any, app: Any, qtbot: Any, tmp_path: Path
) -> None:
    title = next(n.title for n in app.store.graph.nodes.values() if n.title)
    snap, stamp = _other_snapshot(tmp_path, ["Other one", "Other two"])
    view.set_search(title)
    view.show_preview(snap, stamp)
    qtbot.wait(400)
    assert view.search_mask is None  # the open store's matches say nothing of this picture


def test_a_drag_begun_on_one_store_pins_nothing_in_the_next(
    view: Any, app: Any, qtbot: Any, demo_template: Path, tmp_path: Path
) -> None:
    """A node is being dragged when another file's store comes in: the drag ends with the
    picture it began on; no node of the new store is moved or pinned."""
    import shutil

    import numpy as np
    from PySide6 import QtTest

    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.layout import compute_layout
    from memgraph_gui.views.qt import QtCore

    other_path = tmp_path / "other-copy.memgraph"
    shutil.copy(demo_template, other_path)  # the same ids, another file
    with MemoryStore.open(other_path) as other:
        inp = other.layout_input()
        other.save_positions(inp.ids, compute_layout(inp, seconds=0.5))
    view.resize(900, 700)
    view.show()
    qtbot.waitExposed(view)
    view.fit()
    shown = np.flatnonzero(view.visible)  # (the overview folds some rows away)
    pos = view.scene.pos[shown]
    d2 = ((pos[:, None, :] - pos[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(d2, np.inf)
    row = int(shown[np.argmax(d2.min(axis=1))])  # a node alone on screen: can't be missed
    x, y = view.scene.pos[row]
    a = view.plot.mapFromScene(view.view.mapViewToScene(QtCore.QPointF(float(x), float(y))))
    b = a + QtCore.QPoint(60, 40)
    viewport = view.plot.viewport()
    left = QtCore.Qt.MouseButton.LeftButton
    QtTest.QTest.mousePress(viewport, left, pos=a)
    for step in range(1, 4):
        QtTest.QTest.mouseMove(viewport, a + (b - a) * step / 6)
    assert "drag" in view._moving  # the drag is under way
    app.replace_store(MemoryStore.open(other_path))
    new_pos = view.scene.pos.copy()
    for step in range(4, 7):
        QtTest.QTest.mouseMove(viewport, a + (b - a) * step / 6)
    QtTest.QTest.mouseRelease(viewport, left, pos=b)
    app.runner.wait_idle()
    assert app.store.pins() == {}
    assert np.array_equal(view.scene.pos, new_pos) and not view.scene.pinned.any()
    assert "drag" not in view._moving  # the node cache is back on

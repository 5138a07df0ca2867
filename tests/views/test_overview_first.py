"""A store whose rows have no saved position (a fresh import, a demo made without a layout):
the window lays out its overview first (the cut shown at fit zoom, merged weighted lines),
members around their shown ancestor, then refines every row from there. Rows with a saved
position never move in that first step; a store replaced meanwhile drops its result."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core.layout import layout_quality


@pytest.fixture
def fresh_path(demo_template: Path, tmp_path: Path) -> Path:
    """The 600-node demo without any saved position."""
    target = tmp_path / "fresh.memgraph"
    shutil.copy(demo_template, target)
    return target


@pytest.fixture(autouse=True)
def untimed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The overview's schedule runs to its end however busy the machine is (its time cap is
    for the window, not for what these tests check)."""
    monkeypatch.setattr("memgraph_gui.app.overview_layout.FIRST_SECONDS", 60.0)


@pytest.fixture
def fresh_app(fresh_path: Path) -> Iterator[Any]:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    app = AppModel(MemoryStore.open(fresh_path))
    assert app.store.positions() == {}
    yield app
    app.close()


def open_view(app: Any, qtbot: Any, frames: list[tuple[str, Any, np.ndarray]]) -> Any:
    """A shown ``GraphView`` over ``app``; ``frames`` gets each layout frame's stage, update
    and the scene's positions once the view has drawn it (and ``view.lines_drawn``, whether
    lines were drawn then, ``view.marks_hidden``, how many shown rows were not drawn)."""
    from memgraph_gui.views.graph import GraphView

    view = GraphView(app)
    qtbot.addWidget(view)
    view.lines_drawn, view.marks_hidden = [], []

    def seen(update: Any) -> None:
        frames.append((update.stage, update, view.scene.pos.copy()))
        view.lines_drawn.append(not view.edges.suspended and view.edges.count() > 0)
        view.marks_hidden.append(int((view.visible & ~view.nodes.data["visible"]).sum()))

    view.layout_job.frame_ready.connect(seen)
    view.resize(900, 700)
    view.show()
    return view


def test_the_overview_is_laid_out_before_the_full_layouts_first_frame(
    fresh_app: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("memgraph_gui.views.graph.view.EDGE_LIVE_LIMIT", 10)  # "big" here
    monkeypatch.setattr("memgraph_gui.views.graph.canvas.LOD_NODES", 200)  # 596 rows: "big"
    frames: list[tuple[str, Any, np.ndarray]] = []
    view = open_view(fresh_app, qtbot, frames)
    scene, folded = view.scene, view.folded
    assert folded is not None and folded.active and folded.cut.count < scene.n
    shown = np.flatnonzero(folded.cut.shown)
    index = np.full(scene.n, -1)
    index[shown] = np.arange(len(shown))
    lines = index[folded.links.pairs]  # the merged lines, as rows of the cut
    scattered = scene.pos.copy()  # the provisional spots (a disc) before any layout
    with qtbot.waitSignal(view.layout_job.saved, timeout=30000):
        pass
    stages = [stage for stage, _, _ in frames]
    # the full layout's frames (here only its last: 600 rows settle at once) come after,
    # refined from it: no PivotMDS start of its own
    assert stages[0] == "overview" and "start" not in stages and stages[-1] == "done"
    _, update, drawn = frames[0]
    assert update.ids == scene.ids
    assert np.array_equal(drawn, update.pos)  # drawn as it came
    # the cut's rows are laid out (linked rows close), not scattered on a disc
    assert layout_quality(scattered[shown], lines) > 0.85  # ~1.1 here: random
    assert layout_quality(drawn[shown], lines) < 0.7  # ~0.5 here
    # ... and drawn with its merged lines at once (a big graph's raw edges wait for the end),
    # every mark of it (the streaming level of detail thins only a picture of many marks)
    assert view.lines_drawn[0] and view.marks_hidden[0] == 0
    assert view.edges.count() == int(view.folded.kept.drawn.sum())


def test_folded_members_sit_around_their_shown_ancestor(fresh_app: Any, qtbot: Any) -> None:
    from scipy.spatial import cKDTree

    frames: list[tuple[str, Any, np.ndarray]] = []
    view = open_view(fresh_app, qtbot, frames)
    cut = view.folded.cut
    qtbot.waitUntil(lambda: bool(frames), timeout=20000)
    stage, _, pos = frames[0]
    assert stage == "overview"
    shown = np.flatnonzero(cut.shown)
    members = np.flatnonzero(~cut.shown & (cut.rep >= 0))
    assert len(members) > 100
    nearest = shown[cKDTree(pos[shown]).query(pos[members])[1]]
    assert (
        nearest == cut.rep[members]
    ).mean() > 0.8  # (0.93 here) the mark holding it is the nearest
    gap = np.linalg.norm(pos[members] - pos[cut.rep[members]], axis=1)
    spread = np.ptp(pos[shown], axis=0).max()
    assert np.median(gap) < 0.05 * spread
    view.layout_job.cancel()


def test_rows_with_saved_positions_are_not_moved_by_the_overview_step(
    fresh_path: Path, qtbot: Any
) -> None:
    """A store where a few rows have saved positions gets the overview first, and those rows
    stay exactly where they were in its picture; a store where most rows have one is not
    laid out again (an incremental run places the rest)."""
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    store = MemoryStore.open(fresh_path)
    inp = store.layout_input()
    rng = np.random.default_rng(4)
    few = np.sort(rng.choice(len(inp.ids), len(inp.ids) // 10, replace=False))
    saved = rng.normal(scale=30.0, size=(len(few), 2))
    store.save_positions([inp.ids[r] for r in few], saved)
    app = AppModel(store)
    frames: list[tuple[str, Any, np.ndarray]] = []
    view = open_view(app, qtbot, frames)
    rows = view.scene.rows([inp.ids[r] for r in few])
    qtbot.waitUntil(lambda: bool(frames), timeout=20000)
    stage, update, _ = frames[0]
    assert stage == "overview"
    assert np.array_equal(update.pos[rows], saved)
    with qtbot.waitSignal(view.layout_job.saved, timeout=30000):
        pass
    view.shutdown()
    app.close()

    # most rows placed now (all of them): nothing laid out again, no overview step
    again = AppModel(MemoryStore.open(fresh_path))
    before = again.store.positions()
    frames.clear()
    view = open_view(again, qtbot, frames)
    assert not view.layout_job.running and frames == []
    assert np.allclose([before[i] for i in view.scene.ids], view.scene.pos)
    view.shutdown()
    again.close()


def test_a_store_replaced_during_the_overview_layout_drops_its_result(
    fresh_app: Any, fresh_path: Path, tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The overview of the store left is bound to it: once another store (the same rows, no
    positions either) is shown, its late result is never drawn, and the new store's own
    overview is."""
    from memgraph_gui.app import layout_job
    from memgraph_gui.core import MemoryStore

    real = layout_job.lay_out_overview
    entered, release = threading.Event(), threading.Event()
    calls: list[int] = []
    stale = 12345.0

    def slow_first(seed: Any, **kwargs: Any) -> np.ndarray:
        calls.append(1)
        if len(calls) == 1:  # the first store's overview: held until the store is replaced
            entered.set()
            release.wait(20)
            return np.full((len(seed.ids), 2), stale)
        return real(seed, **kwargs)

    monkeypatch.setattr(layout_job, "lay_out_overview", slow_first)
    frames: list[tuple[str, Any, np.ndarray]] = []
    view = open_view(fresh_app, qtbot, frames)
    qtbot.waitUntil(entered.is_set, timeout=20000)  # (the layout starts once painted)
    first_run = view.layout_job._thread
    other = tmp_path / "other.memgraph"
    shutil.copy(fresh_path, other)
    fresh_app.replace_store(MemoryStore.open(other))
    release.set()
    first_run.join(20)
    assert not first_run.is_alive()
    with qtbot.waitSignal(view.layout_job.saved, timeout=30000):
        pass
    assert len(calls) == 2 and frames[0][0] == "overview"
    assert all((update.pos != stale).all() for _, update, _ in frames)
    assert not (view.scene.pos == stale).any()
    saved = fresh_app.store.positions()
    assert saved and not (np.array(list(saved.values())) == stale).any()
    view.shutdown()

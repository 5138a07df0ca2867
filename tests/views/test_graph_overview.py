"""The graph view's overview by rollup level: what a fitted memory shows, the merged links, the
level menu, unfolding and folding by hand and by zoom, the prompt's view, marks on folded nodes,
and clicks on marked nodes. Asserts on model state and item arrays, never pixels."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph_gui.app import overview
from tests.qt_sandbox import app_over_copy
from tests.views.test_graph_view import (  # noqa: F401
    _viewport_point,
    laid_out_template,
    shown_view,
)


@pytest.fixture
def app(laid_out_template: Path, tmp_path: Path) -> Iterator[Any]:  # noqa: F811
    yield from app_over_copy(laid_out_template, tmp_path)


@pytest.fixture
def view(app: Any, qtbot: Any) -> Any:
    widget = shown_view(app, qtbot)
    yield widget
    widget.shutdown()


def _shown(view: Any) -> set[str]:
    return {view.scene.ids[r] for r in np.flatnonzero(view.visible)}


def test_a_fitted_memory_shows_the_deepest_level_within_the_budget(view: Any) -> None:
    from memgraph_gui.views.graph.folding import mark_budget

    scene, folded = view.scene, view.folded
    assert folded.active and view.level() not in (overview.ALL, overview.TOP)
    shown = int(view.visible.sum())
    assert shown == folded.cut.count <= mark_budget(scene.n) < scene.n
    deeper = overview.cut(scene.tree(), view.level() - 1)
    assert view.level() == 1 or deeper.count > mark_budget(scene.n)
    assert np.array_equal(view.nodes.data["visible"], view.visible)
    # a folded rollup is drawn bigger than it would be alone, and its label says what it holds
    big = folded.cut.folded()
    assert (view.nodes.data["size"][big] >= scene.sizes[big]).all()
    assert (view.nodes.data["size"][big] > scene.sizes[big]).any()
    row = int(big[np.argmax(folded.cut.held[big])])
    assert f"{folded.cut.held[row]:,} memories" in view._label_of(scene.ids[row])


def test_the_drawn_lines_are_the_budgeted_merged_links_wider_for_more_edges(
    view: Any, app: Any
) -> None:
    from memgraph_gui.views.graph.items import width_class

    folded = view.folded
    drawn = folded.kept.drawn
    assert 0 < drawn.sum() <= len(folded.links.pairs)
    assert view.edges.count() == int(drawn.sum())
    assert view.edges.segments(True) == 0  # hierarchy collapses inside a cut
    widths = width_class(folded.links.counts[drawn])
    for style, width in ((False, 1), (2, 2), (3, 3), (4, 4)):
        loaded = sum(len(i.xData) // 2 for i in view.edges.chunks[style] if i.xData is not None)
        assert loaded == int((widths == width).sum())
    # every drawn line joins two shown nodes
    pairs = folded.links.pairs[drawn]
    assert view.visible[pairs].all()


def test_a_selected_node_shows_all_its_lines(view: Any, app: Any) -> None:
    folded = view.folded
    links, drawn = folded.links, folded.kept.drawn
    per_row = np.bincount(links.pairs[~drawn].ravel(), minlength=view.scene.n)
    row = int(np.argmax(per_row))
    assert per_row[row] > 0  # a node with lines left out by the budget
    app.selection.select([view.scene.ids[row]], source=view)  # as a click in the view
    mine = int((links.pairs == row).any(axis=1).sum())
    others = int((drawn & ~(links.pairs == row).any(axis=1)).sum())
    assert view.edges.count() == mine + others


def test_unfold_and_fold_by_hand_round_trip(view: Any, qtbot: Any) -> None:
    scene, folded = view.scene, view.folded
    before = _shown(view)
    row = int(folded.cut.folded()[0])
    rollup = scene.ids[row]
    view._on_node_double_clicked(row)  # double-click: unfold
    children = {scene.ids[c] for c in np.flatnonzero(scene.parents == row)}
    assert rollup not in _shown(view) and children <= _shown(view)
    view._app.selection.select([sorted(children)[0]], source=view)
    view.graph_actions.fold.trigger()  # "-": fold the child back into its rollup
    assert _shown(view) == before
    view.graph_actions.levels[overview.ALL].trigger()
    assert view.visible.sum() == scene.alive.sum() and not view.folded.active
    view.graph_actions.levels[overview.TOP].trigger()
    assert view.folded.cut.count == overview.cut(scene.tree(), overview.TOP).count


def test_zooming_in_unfolds_the_rollups_there_and_zooming_out_folds_them(
    view: Any, qtbot: Any
) -> None:
    scene, folded = view.scene, view.folded
    spread = scene.spread()
    big = folded.cut.folded()
    row = int(big[np.argmax(spread[big])])
    x, y = scene.pos[row]
    reach = spread[row] * 1.2
    view.view.setRange(xRange=(x - reach, x + reach), yRange=(y - reach, y + reach), padding=0)
    view._on_zoom_settled()
    assert not view.visible[row]  # unfolded in place...
    children = np.flatnonzero(scene.parents == row)
    assert view.visible[children].any() or not view.folded.cut.shown[row]
    assert scene.ids[row] in view.auto_opened
    view.fit()
    view._on_zoom_settled()
    assert view.visible[row] and not view.auto_opened  # ...and folded again


def test_a_click_on_a_ringed_node_selects_it(view: Any, app: Any, qtbot: Any) -> None:
    """The injection rings drawn over a node took the click, so marked nodes (946 at 50k)
    could not be selected."""
    from memgraph_gui.views.qt import Qt

    view.show_level(overview.ALL)
    rings = view.injection
    marked = sorted(rings.rows("always") | rings.rows("recall") | rings.rows("visible"))
    assert marked
    pos = view.scene.pos
    gaps = [float(np.sort(np.hypot(*(pos - pos[r]).T))[1]) for r in marked]
    row = marked[int(np.argmax(gaps))]  # the marked node farthest from any other
    x, y = pos[row]
    half = max(gaps) * 3
    view.view.setRange(xRange=(x - half, x + half), yRange=(y - half, y + half), padding=0)
    qtbot.mouseClick(
        view.plot.viewport(), Qt.MouseButton.LeftButton, pos=_viewport_point(view, row)
    )
    assert app.selection.ids == {view.scene.ids[row]}


def test_marks_and_the_selection_show_on_the_folded_node_holding_them(view: Any, app: Any) -> None:
    scene, folded = view.scene, view.folded
    hidden = np.flatnonzero(~view.visible & (folded.cut.rep >= 0))
    row = int(hidden[0])
    holder = int(folded.cut.rep[row])
    app.selection.select([scene.ids[row]], source=view)  # (as a click: no zoom to it)
    assert not view.visible[row] and view.selection.rows == {holder}
    marked = set(view.injection.rows("always")) | view.injection.rows("recall")
    marked |= view.injection.rows("visible")
    assert marked <= set(np.flatnonzero(view.visible))


def test_selecting_a_folded_away_node_zooms_to_it_and_unfolds_it(
    view: Any, app: Any, qtbot: Any
) -> None:
    scene, folded = view.scene, view.folded
    hidden = np.flatnonzero(~view.visible & (folded.cut.rep >= 0) & ~scene.rollups)
    row = int(hidden[len(hidden) // 2])
    app.selection.select([scene.ids[row]], source=object())
    assert view.visible[row]  # unfolded down to the node itself
    (x0, x1), (y0, y1) = view.view.viewRange()
    x, y = scene.pos[row]
    assert x0 < x < x1 and y0 < y < y1
    qtbot.waitUntil(lambda: view.labels.shown > 0, timeout=2000)  # zoomed in enough to read
    assert row in view.labels.rows


def test_show_as_the_prompt_sees_it_is_the_visible_set_projected(view: Any, app: Any) -> None:
    visible_ids = set(app.injection().visible_ids)
    view.graph_actions.prompt_view.setChecked(True)
    assert _shown(view) == visible_ids & set(view.scene.ids)
    read = app.read_api()
    luker = read.project_edges(visible_node_ids=sorted(visible_ids), exclude_internal=True)
    total = sum(edge.weight for edge in luker)
    assert int(view.folded.links.counts.sum()) == total
    view.graph_actions.prompt_view.setChecked(False)
    assert _shown(view) != visible_ids


def test_arrange_by_time_and_back_to_the_saved_layout(view: Any, app: Any, qtbot: Any) -> None:
    from memgraph_gui.app.graph_data import positions_by_time, stored_positions

    scene = view.scene
    saved, ids = scene.pos.copy(), list(scene.ids)
    view.graph_actions.arrange_time.setChecked(True)
    expected = positions_by_time(scene.ids, scene.parents, scene.edges)
    assert np.allclose(view.scene.pos, expected) and not view.layout_job.running
    x, y = view.nodes.getData()
    assert np.allclose(np.c_[x, y], expected)  # drawn where arranged
    stored, _pins = stored_positions(app)
    assert np.allclose([stored[i] for i in ids], saved)  # nothing saved over the layout
    # a new event lands at the end of the curve, and nothing else moves
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        app.apply_sync(
            lambda w: w.create_node(type="event", title="Latest", fields={"summary": "Rain."})
        )
    n = scene.n
    qtbot.waitUntil(lambda: view.scene.n == n + 1, timeout=5000)
    now = view.scene
    assert np.allclose(now.pos, positions_by_time(now.ids, now.parents, now.edges))
    assert not view.layout_job.running
    view.graph_actions.arrange_time.setChecked(False)
    back = view.scene
    rows = [back.index[i] for i in ids]
    assert np.allclose(back.pos[rows], [stored[i] for i in ids])


def test_an_unfold_restyles_only_the_spots_it_resizes_and_the_same_as_a_full_restyle(
    view: Any,
) -> None:
    folded = view.folded
    row = int(folded.cut.folded()[0])
    view.toggle_fold(view.scene.ids[row])
    data = view.nodes.data
    partial = data["sourceRect"].copy()
    view.nodes.restyle(view._faded())
    assert np.array_equal(data["sourceRect"], partial)


def test_overview_labels_never_overlap_one_another(view: Any, qtbot: Any) -> None:
    """A fitted overview labels its heaviest nodes, each only where it covers no other label
    (every label of the 2k demo's L2 cut at once was an unreadable heap)."""
    view._on_labels_due()
    pool = view.labels._pool
    shown = [pool[i] for i in range(view.labels.shown)]
    assert 3 <= len(shown)
    boxes = [item.mapRectToScene(item.boundingRect()) for item in shown]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap = a.intersected(b)
            assert overlap.width() * overlap.height() < 4.0, (a, b)  # a pixel's edge at most


def test_a_folded_picture_is_painted_from_its_shown_spots_only(view: Any, monkeypatch: Any) -> None:
    """pyqtgraph culls, maps and clips every spot of an item per paint, hidden ones too (at
    200k, with 7.5k of 199k spots shown, ~18 ms of each streamed layout frame): a folded
    picture's paint is given only the spots it shows, and draws the same picture as a paint
    over them all."""
    from memgraph_gui.views.graph import items
    from memgraph_gui.views.qt import pg

    read: list[int] = []
    mask_at = pg.ScatterPlotItem._maskAt

    def counting(item: Any, rect: Any) -> Any:
        if item is view.nodes:
            read.append(len(item.data))
        return mask_at(item, rect)

    monkeypatch.setattr(pg.ScatterPlotItem, "_maskAt", counting)
    view.nodes.set_cached(False)  # every grab paints the item again
    shown = int(view.visible.sum())
    assert shown < view.scene.n / 2
    ours = view.plot.viewport().grab().toImage()
    assert read and set(read) == {shown}
    assert len(view.nodes.data) == view.scene.n  # the full records are back
    monkeypatch.setattr(items, "FEW_SHOWN", -1.0)  # pyqtgraph's paint over every spot
    read.clear()
    every = view.plot.viewport().grab().toImage()
    assert set(read) == {view.scene.n}
    assert ours == every


def test_a_layout_frame_moves_the_shown_spots_and_the_hidden_ones_follow_when_read(
    view: Any, monkeypatch: Any
) -> None:
    """A layout frame over a folded picture writes only the shown spots' positions (at 200k,
    every row's took 1.3-3 ms of each frame); whatever reads the rest (the item's data and
    bounds, a change of what is shown, a paint over every spot) finds every row where the
    scene has it, and the picture is the one a paint over every spot draws."""
    from memgraph_gui.views.graph import items

    nodes, scene = view.nodes, view.scene
    shown = nodes.data["visible"].copy()
    assert 0 < shown.sum() < scene.n / 2
    start = scene.pos.copy()  # fitted in view
    scene.pos += np.random.default_rng(5).normal(size=scene.pos.shape)
    view._positions_moved(edges=False)
    data = nodes.data
    assert np.array_equal(data["x"][shown], scene.pos[shown, 0])
    assert np.array_equal(data["y"][shown], scene.pos[shown, 1])
    assert not np.array_equal(data["x"][~shown], scene.pos[~shown, 0])  # not written yet
    x, y = nodes.getData()
    assert np.array_equal(x, scene.pos[:, 0]) and np.array_equal(y, scene.pos[:, 1])

    scene.pos *= 1.5
    view._positions_moved(edges=False)
    nodes.bounds = [None, None]  # as a change of the view's transform leaves them
    low, high = nodes.dataBounds(0)
    assert low <= scene.pos[:, 0].min() and high >= scene.pos[:, 0].max()

    nodes.set_cached(False)  # every grab paints the item again
    before = view.plot.viewport().grab().toImage()
    scene.pos[:] = start + 0.02 * np.random.default_rng(6).normal(size=scene.pos.shape)
    view._positions_moved(edges=False)
    ours = view.plot.viewport().grab().toImage()
    assert ours != before and not np.array_equal(nodes.data["x"][~shown], scene.pos[~shown, 0])
    monkeypatch.setattr(items, "FEW_SHOWN", -1.0)  # pyqtgraph's paint over every spot
    every = view.plot.viewport().grab().toImage()
    assert ours == every
    assert np.array_equal(nodes.data["x"], scene.pos[:, 0])  # the full paint read them all

    monkeypatch.setattr(items, "FEW_SHOWN", 0.5)
    scene.pos += 1.0
    view._positions_moved(edges=False)
    nodes.set_visible_rows(np.ones(scene.n, bool))  # every spot shown: every row in place
    assert np.array_equal(nodes.data["x"], scene.pos[:, 0])
    assert np.array_equal(nodes.data["y"], scene.pos[:, 1])

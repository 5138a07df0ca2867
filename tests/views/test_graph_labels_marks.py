"""Labels and injection marks as a person reads them: labels drawn over the marks (a fitted 50k
memory drew them under ~1,900 marks, unreadable), clear of the recall picks and inside the view,
never taking a click from the node under them; marks drawn light where thousands crowd the view
while the recall picks stay bold; a folded rollup says how many of its members are injected,
selected or found. Asserts on item state and model state, never pixels."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph_gui.app import overview
from tests.qt_sandbox import app_over_copy
from tests.views.test_graph_view import (  # noqa: F401
    _lonely_row,
    _viewport_point,
    laid_out_template,
    shown_view,
)

WAIT = 5000


@pytest.fixture
def app(laid_out_template: Path, tmp_path: Path) -> Iterator[Any]:  # noqa: F811
    yield from app_over_copy(laid_out_template, tmp_path)


@pytest.fixture
def view(app: Any, qtbot: Any) -> Any:
    widget = shown_view(app, qtbot)  # the overview, fitted
    yield widget
    widget.shutdown()


def _inject(app: Any, qtbot: Any, **state: list[str]) -> None:
    with qtbot.waitSignal(app.changes_applied, timeout=WAIT):
        app.store.write_api().set_injection_state(
            {
                "alwaysInjectIds": state.get("always", []),
                "recallSelectedIds": state.get("recall", []),
                "visibleIds": state.get("visible", []),
            }
        )


def _mark_items(view: Any) -> list[Any]:
    rings = [*view.injection.rings.values(), view.selection.selected, view.selection.current]
    return [item for ring in rings for item in (ring.item, ring.dimmed)]


def _label_boxes(view: Any) -> list[Any]:
    """The shown labels' drawn boxes (their cards), in scene coordinates."""
    pool = view.labels._pool
    return [
        pool[i].mapRectToScene(pool[i].textItem.mapRectToParent(pool[i].textItem.boundingRect()))
        for i in range(view.labels.shown)
    ]


def test_labels_are_drawn_over_every_mark_and_take_no_pointer(view: Any) -> None:
    """Labels were drawn under the nodes and marks (z 5), so in a dense overview the marks
    hid them."""
    view._on_labels_due()
    assert view.labels.shown >= 3
    top_mark = max(item.zValue() for item in _mark_items(view))
    for item in view.labels._pool:
        assert item.zValue() > top_mark > view.nodes.zValue()
        assert item.acceptedMouseButtons() == view.labels._pool[0].acceptedMouseButtons()
        assert not item.acceptHoverEvents() and not hasattr(item, "mouseClickEvent")
    assert int(view.labels._pool[0].acceptedMouseButtons().value) == 0


def test_a_click_on_a_marked_node_under_a_label_selects_it(view: Any, app: Any, qtbot: Any) -> None:
    """A label drawn over a node and its mark lets the click through to the node."""
    from memgraph_gui.views.qt import Qt

    view.show_level(overview.ALL)
    scene = view.scene
    owner = _lonely_row(view)
    under = int(np.argmax(np.hypot(*(scene.pos - scene.pos[owner]).T)))  # the farthest
    _inject(app, qtbot, visible=[scene.ids[under]], recall=[scene.ids[owner]])
    gaps = np.sort(np.hypot(*(scene.pos - scene.pos[owner]).T))
    x, y = scene.pos[owner]
    half = float(gaps[1]) * 0.5  # zoomed in round the owner: labelled
    view.view.setRange(xRange=(x - half, x + half), yRange=(y - half, y + half), padding=0)
    view._on_labels_due()
    assert owner in view.labels.rows.tolist()
    at_label = view.labels.rows.tolist().index(owner)
    card = _label_boxes(view)[at_label]
    spot = view.view.mapSceneToView(card.center())  # move the other node under the label
    scene.pos[under] = (spot.x(), spot.y())
    view._positions_moved(edges=False)
    view._show_injection()
    assert under in view.injection.rows("visible")
    at = view.view.mapViewToScene(_qpoint(scene.pos[under]))
    assert card.contains(at)
    label = view.labels._pool[at_label]
    assert label.zValue() > view.injection.rings["visible"].item.zValue()  # drawn over both
    assert label.zValue() > view.nodes.zValue()
    qtbot.mouseClick(
        view.plot.viewport(), Qt.MouseButton.LeftButton, pos=_viewport_point(view, under)
    )
    assert app.selection.ids == {scene.ids[under]}


def test_a_folded_rollup_counts_the_injected_selected_and_found_members_it_holds(
    view: Any, app: Any, qtbot: Any
) -> None:
    scene, folded = view.scene, view.folded
    big = folded.cut.folded()
    row = int(big[np.argmax(folded.cut.held[big])])
    members = [int(r) for r in np.flatnonzero(folded.cut.rep == row) if r != row]
    assert len(members) >= 4
    ids = [scene.ids[r] for r in members]
    _inject(app, qtbot, always=ids[:1], recall=ids[1:3], visible=ids[:4])
    marks = view.injection
    assert row in marks.rows("always")  # the strongest role of its members
    assert (marks.held["always"][row], marks.held["recall"][row]) == (1, 2)
    assert marks.held["visible"][row] == 1  # the fourth: its other three are stronger
    label = view._label_of(scene.ids[row])
    assert "◆ 1 ★ 2 ○ 1" in label, label
    app.selection.select(ids[:3], source=view)
    assert view.selection.rows == {row} and view.selection.held[row] == 3
    assert "3 selected" in view._label_of(scene.ids[row])
    # the rollups holding nothing marked say nothing of marks
    other = next(int(r) for r in big if int(r) != row)
    assert "◆" not in view._label_of(scene.ids[other])
    assert "★" not in view._label_of(scene.ids[other])


def test_marks_turn_light_where_they_crowd_the_view_and_the_picks_stay_bold(
    view: Any, app: Any, qtbot: Any
) -> None:
    from memgraph_gui.views.graph.overlays import CROWDED, MARK_Z, UNDER_Z

    view.show_level(overview.ALL)
    scene = view.scene
    assert scene.n > CROWDED * 2
    everyone = list(scene.ids)
    _inject(app, qtbot, recall=everyone[:3], always=everyone[3:20], visible=everyone[20:])
    view.fit()
    view._on_labels_due()
    rings = view.injection.rings
    assert view.injection.crowded
    for key in ("always", "visible"):
        assert rings[key].item.zValue() == UNDER_Z < view.nodes.zValue()  # a rim under each
        assert rings[key].style == view.injection.light[key]
    assert rings["recall"].style == view.injection.bold["recall"]
    assert rings["recall"].item.zValue() == MARK_Z["recall"] > MARK_Z["always"]
    assert len(rings["recall"].rows) == 3
    for ring in rings.values():
        _drawn_in(ring.item, ring.style, ring.base[~ring.faded])
    # zoomed in round one node: few marks in view, drawn bold again
    x, y = scene.pos[0]
    gaps = np.sort(np.hypot(*(scene.pos - scene.pos[0]).T))
    half = float(gaps[10])
    view.view.setRange(xRange=(x - half, x + half), yRange=(y - half, y + half), padding=0)
    view._on_labels_due()
    assert not view.injection.crowded
    assert rings["visible"].style == view.injection.bold["visible"]
    assert rings["visible"].item.zValue() == MARK_Z["visible"] > view.nodes.zValue()
    for ring in rings.values():
        _drawn_in(ring.item, ring.style, ring.base[~ring.faded])


def _drawn_in(item: Any, style: Any, base: np.ndarray) -> None:
    """Every mark of ``item`` is drawn in ``style``: its size, and the pixmap pyqtgraph's own
    lookup gives for its symbol, size, pen and brush."""
    data = item.data
    assert len(data) == len(base)
    assert np.array_equal(data["size"], base + style.pad)
    assert item.opts["pen"] == style.pen and item.opts["brush"] == style.brush
    symbol = item.opts["symbol"]
    want = item.fragmentAtlas[[(symbol, float(s), style.pen, style.brush) for s in data["size"]]]
    got = [tuple(int(v) for v in rect) for rect in data["sourceRect"]]
    assert got == [tuple(int(v) for v in rect) for rect in want]


def test_overview_labels_keep_clear_of_the_picks_and_inside_the_view(
    view: Any, app: Any, qtbot: Any
) -> None:
    """An overview's labels cover no recall pick's mark (the live highlight) but their own
    and reach out of no side of the view (labels ran off the right edge)."""
    scene = view.scene
    shown = np.flatnonzero(view.visible)
    picks = shown[np.argsort(-scene.degree[shown], kind="stable")[:6]]
    _inject(app, qtbot, recall=[scene.ids[r] for r in picks])
    view.fit()
    view._on_labels_due()
    assert view.labels.shown >= 3
    assert set(picks.tolist()) & set(view.labels.rows.tolist())  # the picks are labelled
    box = view.view.sceneBoundingRect()
    boxes = _label_boxes(view)
    ring = view.injection.rings["recall"]
    star = {  # each pick's star as drawn: its spot's size and half its pen's width
        int(r): float(size) / 2 + ring.item.opts["pen"].widthF() / 2
        for r, size in zip(ring.rows.tolist(), ring.item.data["size"], strict=True)
    }
    assert set(star) == set(picks.tolist())
    for row, card in zip(view.labels.rows.tolist(), boxes, strict=True):
        assert box.adjusted(-1, -1, 1, 1).contains(card), (row, card, box)
        for pick, r in star.items():
            centre = view.view.mapViewToScene(_qpoint(scene.pos[pick]))
            mark = _rect(centre.x() - r, centre.y() - r, 2 * r, 2 * r)
            hit = card.intersected(mark)
            assert hit.width() * hit.height() < 4.0, (row, pick)  # its own star too


def _qpoint(xy: Any) -> Any:
    from memgraph_gui.views.qt import QtCore

    return QtCore.QPointF(float(xy[0]), float(xy[1]))


def _rect(x: float, y: float, w: float, h: float) -> Any:
    from memgraph_gui.views.qt import QtCore

    return QtCore.QRectF(x, y, w, h)

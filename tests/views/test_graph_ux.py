"""The graph as a person uses it: fit and focus leave room for the labels and the legend, the
focus depth refits and is remembered, the legend collapses (remembered), Find fades labels and
marks, counts its matches and steps through them (title and alias matches first), the hover
title stays, nodes are created at the pointer and unpinned, folded and unfolded from a context
menu, and no label draws under the legend. Asserts on model state and item geometry."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph_gui.app import overview
from memgraph_gui.views.graph.labels import LABEL_LIMIT
from tests.qt_sandbox import app_over_copy
from tests.views.test_graph_view import (  # noqa: F401
    _move,
    _viewport_point,
    laid_out_template,
    shown_view,
)

WAIT = 5000


@pytest.fixture
def app(laid_out_template: Path, tmp_path: Path) -> Iterator[Any]:  # noqa: F811
    yield from app_over_copy(laid_out_template, tmp_path)


def _new_view(app: Any, qtbot: Any) -> Any:
    return shown_view(app, qtbot)


@pytest.fixture
def view(app: Any, qtbot: Any) -> Iterator[Any]:
    widget = _new_view(app, qtbot)
    yield widget
    widget.shutdown()


def _legend_rect(view: Any) -> Any:
    """The legend's rectangle in the viewport's pixels."""
    from memgraph_gui.views.qt import QtCore

    geo = view.legend.geometry()
    corner = view.plot.viewport().mapFrom(view.plot, geo.topLeft())
    return QtCore.QRectF(QtCore.QPointF(corner), QtCore.QSizeF(geo.size()))


def _on_screen(view: Any, rows: np.ndarray) -> np.ndarray:
    """``(k, 2)`` viewport pixel positions of ``rows``."""
    points = [_viewport_point(view, int(r)) for r in rows]
    return np.array([(p.x(), p.y()) for p in points], dtype=float).reshape(-1, 2)


def _under(rect: Any, xy: np.ndarray, pad: float = 0.0) -> np.ndarray:
    return (
        (xy[:, 0] >= rect.left() - pad)
        & (xy[:, 0] <= rect.right() + pad)
        & (xy[:, 1] >= rect.top() - pad)
        & (xy[:, 1] <= rect.bottom() + pad)
    )


def _assert_fit_leaves_room(view: Any, qtbot: Any) -> None:
    """Every visible node is on screen and clear of the legend; every label is whole."""
    rows = np.flatnonzero(view.visible)
    xy = _on_screen(view, rows)
    viewport = view.plot.viewport().rect()
    assert (xy[:, 0] > 0).all() and (xy[:, 0] < viewport.width()).all()
    assert (xy[:, 1] > 0).all() and (xy[:, 1] < viewport.height()).all()
    assert not _under(_legend_rect(view), xy, pad=3).any()
    view._label_timer.stop()
    view._on_labels_due()  # the labels for this picture, now
    assert view.labels.shown > 0 or view.visible.sum() > LABEL_LIMIT  # (too many to label)
    for i in range(view.labels.shown):
        box = view.labels._pool[i].textItem.sceneBoundingRect()  # scene = viewport pixels
        assert box.right() <= viewport.width() + 0.5, view.labels.texts()[i]
        assert box.left() >= 0 and box.top() >= 0 and box.bottom() <= viewport.height()


def _rightmost_hub(view: Any) -> int:
    """A node with a few neighbours, one of them far right of it (its focus spans the width)."""
    scene = view.scene
    best, row = -1.0, 0
    for r in np.argsort(-scene.degree)[:60].tolist():
        mask = scene.k_hop(np.array([r]), 1) & scene.alive
        if mask.sum() > 40:
            continue
        span = float(np.ptp(scene.pos[mask, 0]))
        if span > best:
            best, row = span, r
    return row


# -- 1. fit and focus leave room for the labels and the legend ------------------------------------
def test_fit_leaves_room_for_the_labels_and_keeps_nodes_clear_of_the_legend(
    view: Any, app: Any, qtbot: Any
) -> None:
    assert view.folded.active  # the overview at fit: its heaviest rows are labelled
    _assert_fit_leaves_room(view, qtbot)
    row = _rightmost_hub(view)
    app.selection.select([view.scene.ids[row]], source=view)
    view.set_hops(1)
    view.set_focus(True)  # focus mode fits its few nodes, every one labelled
    assert view.visible.sum() < 60
    _assert_fit_leaves_room(view, qtbot)
    assert view.labels.shown == int(view.visible.sum())


def test_a_small_view_gives_the_labels_at_most_a_quarter_of_its_width(
    view: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 1024×700 the graph box is ~440 px wide: the overview's ~300 px labels once took all
    but ~100 px of it, and Fit drew the memory as a speck in a corner."""
    from memgraph_gui.views.graph.canvas import LABEL_ROOM_SHARE

    width, height = 440.0, 520.0
    with_labels = view._fit_ranges(width, height)
    monkeypatch.setattr(view, "_fit_labels", lambda _mask: [])
    without = view._fit_ranges(width, height)
    scale = (without[0][1] - without[0][0]) / (with_labels[0][1] - with_labels[0][0])
    assert scale >= 1 - LABEL_ROOM_SHARE - 0.1  # the picture keeps most of its size
    monkeypatch.setattr(view, "_fit_labels", lambda _mask: [(0.0, 400.0)])  # a huge label
    huge = view._fit_ranges(width, height)
    assert (without[0][1] - without[0][0]) / (huge[0][1] - huge[0][0]) >= 0.6


def test_changing_the_focus_depth_refits_and_the_depth_is_remembered(
    view: Any, app: Any, qtbot: Any
) -> None:
    row = _rightmost_hub(view)
    app.selection.select([view.scene.ids[row]], source=view)
    view.graph_actions.hops[1].trigger()
    view.set_focus(True)
    one_hop = view.view.viewRange()
    view.graph_actions.hops[3].trigger()  # View ▸ Focus depth ▸ 3 hops
    assert view.hops == 3 and view.visible.sum() > 0
    assert view.view.viewRange() != one_hop and view.whole_in_view()
    _assert_fit_leaves_room(view, qtbot)
    again = _new_view(app, qtbot)  # the next run
    try:
        assert again.hops == 3 and again.graph_actions.hops[3].isChecked()
    finally:
        again.shutdown()


# -- 2. the legend collapses, and never covers a node after a fit ---------------------------------
def test_the_legend_collapses_by_a_click_and_stays_collapsed(
    view: Any, app: Any, qtbot: Any
) -> None:
    from memgraph_gui.views.qt import Qt

    legend = view.legend
    tall = legend.height()
    assert not legend.collapsed
    qtbot.mouseClick(legend, Qt.MouseButton.LeftButton, pos=legend.header_rect().center())
    assert legend.collapsed and legend.height() < tall / 3
    assert legend.y() + legend.height() == view.plot.height() - 10  # still in its corner
    view.fit()
    _assert_fit_leaves_room(view, qtbot)
    again = _new_view(app, qtbot)
    try:
        assert again.legend.collapsed
        qtbot.mouseClick(
            again.legend, Qt.MouseButton.LeftButton, pos=again.legend.header_rect().center()
        )
        assert not again.legend.collapsed and again.legend.height() == tall
        _assert_fit_leaves_room(again, qtbot)  # expanding refits a fitted picture round it
    finally:
        again.shutdown()


def test_a_graph_pane_too_short_for_the_legend_shows_only_its_header(view: Any, qtbot: Any) -> None:
    """Under the Recall lab at 1024×700 the graph pane is ~300 px: the open key covered it."""
    legend = view.legend
    tall = legend.height()
    legend.set_room(int(tall / 0.6) + 10)  # room enough
    assert not legend.squeezed and legend.height() == tall
    legend.set_room(tall // 2)  # two columns would still cover most of the pane
    assert legend.squeezed and not legend.collapsed and legend.height() < tall / 3
    assert legend.header_text() == "Legend ▸"
    legend.set_room(None)  # the pane is tall again: the key as it was, nothing remembered
    assert not legend.squeezed and legend.height() == tall


# -- 3. Find: fades labels and marks, counts, steps, ranks -----------------------------------------
def _ranked_query(app: Any) -> tuple[str, set[str], set[str]]:
    """A character's title that also occurs in other nodes' fields (not their titles or
    aliases): the query, the ids it finds by name and the ids it finds elsewhere."""
    from memgraph_gui.core.domain.text import find_needle
    from memgraph_gui.core.graph.search import names_find

    nodes = [n for n in app.store.graph.nodes.values() if not n.archived]
    for node in sorted(nodes, key=lambda n: n.id):
        if node.type != "character_sheet" or len(node.title) < 3:
            continue
        hits = app.matching_ids(node.title)
        needle = find_needle(node.title)
        named = {i for i in hits if names_find(app.node(i), needle)}
        if named and hits - named:
            return node.title, named, hits - named
    raise AssertionError("the demo has no character named in other nodes' fields")


def test_find_fades_labels_and_marks_and_counts_its_matches(
    view: Any, app: Any, qtbot: Any
) -> None:
    view.show_level(overview.ALL)
    scene = view.scene
    query, named, others = _ranked_query(app)
    hit = scene.index[sorted(i for i in named if i in scene.index)[0]]
    miss = next(r for r in range(scene.n) if scene.ids[r] not in named | others)
    app.selection.select([scene.ids[hit], scene.ids[miss]], current=scene.ids[hit], source=view)
    statuses: list[str] = []
    view.find_status.connect(statuses.append)
    view.set_search(query)
    qtbot.waitUntil(lambda: bool(statuses), timeout=WAIT)
    drawn = [i for i in named | others if i in scene.index]
    assert statuses[-1] == f"{len(drawn)} matches" and len(view.matches) == len(drawn)
    assert view.selection.selected.rows_faded == {miss}  # the selection ring fades too
    rings = view.injection.rings
    marked = {r for ring in rings.values() for r in ring.rows.tolist()}
    faded = {r for ring in rings.values() for r in ring.rows_faded}
    assert faded == {r for r in marked if not view.search_mask[r]}
    # labels: zoom in round a miss next to a hit; the miss's label fades, the hit's does not
    x, y = scene.pos[hit]
    view.view.setRange(xRange=(x - 2, x + 2), yRange=(y - 2, y + 2), padding=0)
    qtbot.waitUntil(lambda: hit in view.labels.rows.tolist(), timeout=WAIT)
    opacity = dict(zip(view.labels.rows.tolist(), view.labels.opacities(), strict=True))
    assert opacity[hit] == 1.0
    assert {r for r, o in opacity.items() if o < 1.0} == {
        r for r in opacity if not view.search_mask[r]
    }
    assert any(o < 1.0 for o in opacity.values())
    view.set_search("")
    qtbot.waitUntil(lambda: statuses[-1] == "", timeout=WAIT)
    assert view.selection.selected.rows_faded == set()


def test_enter_steps_through_the_matches_title_and_alias_matches_first(
    view: Any, app: Any, qtbot: Any
) -> None:
    from memgraph_gui.views.graph.find_box import FindBox, FindStepper
    from memgraph_gui.views.qt import Qt

    query, named, others = _ranked_query(app)
    box = FindBox()
    qtbot.addWidget(box)
    stepper = FindStepper(box, view)
    box.setText(query)  # (the window applies the text after a pause; Enter does not wait)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    drawn_named = [i for i in view.matches if i in named]
    assert view.matches[: len(drawn_named)] == drawn_named  # names first ...
    assert set(view.matches[len(drawn_named) :]) <= others  # ... then the rest
    assert len(drawn_named) == len([i for i in named if i in view.scene.index])
    first = view.matches[0]
    assert app.selection.current == first and stepper.label.text() == (f"1 of {len(view.matches)}")
    (x0, x1), (y0, y1) = view.view.viewRange()  # revealed: in view, and readable
    x, y = view.scene.pos[view.scene.index[first]]
    assert x0 < x < x1 and y0 < y < y1
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert app.selection.current == view.matches[1]
    qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert app.selection.current == first
    qtbot.keyClick(box, Qt.Key.Key_Enter, Qt.KeyboardModifier.ShiftModifier)  # wraps round
    assert app.selection.current == view.matches[-1]
    assert stepper.label.text() == f"{len(view.matches)} of {len(view.matches)}"


def test_the_windows_find_box_counts_the_matches_and_enter_steps(
    laid_out_template: Path,  # noqa: F811
    tmp_path: Path,
    qtbot: Any,
) -> None:
    import shutil

    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow
    from memgraph_gui.views.qt import Qt

    path = tmp_path / "w.memgraph"
    shutil.copy(laid_out_template, path)
    app = AppModel(MemoryStore.open(path))
    try:
        window = MainWindow(app)
        qtbot.addWidget(window)
        window.show()
        query, named, others = _ranked_query(app)
        graph = window.graph_view
        window.find_box.setText(query)
        count = len([i for i in named | others if i in graph.scene.index])
        label = window.find_stepper.label
        qtbot.waitUntil(lambda: label.text() == f"{count} matches", timeout=WAIT)
        qtbot.keyClick(window.find_box, Qt.Key.Key_Return)
        assert app.selection.current == graph.matches[0] and label.text() == f"1 of {count}"
        window.find_box.setText("")
        qtbot.waitUntil(lambda: label.text() == "", timeout=WAIT)
        qtbot.wait(400)  # the timeline's own filter pause (180 ms) ends before the store closes
        window.close()
    finally:
        app.close()


def test_ranked_matches_are_the_finds_matches(app: Any) -> None:
    query, named, others = _ranked_query(app)
    ranked = app.ranked_matches(query)
    assert len(ranked) == len(set(ranked)) and set(ranked) == app.matching_ids(query)
    assert set(ranked[: len(named)]) == named and set(ranked[len(named) :]) == others
    assert app.ranked_matches("  ") == []


# -- 4. the hover title stays while the pointer is on the node -------------------------------------
def test_the_hover_title_stays_while_the_pointer_rests_on_the_node(
    view: Any, app: Any, qtbot: Any
) -> None:
    from memgraph_gui.views.qt import QApplication, QtCore, QtGui

    view.show_level(overview.ALL)
    scene = view.scene
    pos = scene.pos
    d2 = ((pos[:, None, :] - pos[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(d2, np.inf)
    row = int(np.argmax(d2.min(axis=1)))
    x, y = pos[row]
    view.view.setRange(xRange=(x - 3, x + 3), yRange=(y - 3, y + 3), padding=0)
    viewport = view.plot.viewport()
    point = _viewport_point(view, row)
    _move(viewport, point)
    title = app.node(scene.ids[row]).title
    qtbot.waitUntil(lambda: view.hover_title.text() == " ".join(title.split()), timeout=WAIT)
    # the pointer rests: Qt asks the scene for a tooltip (none of its items has one) ...
    rest = QtGui.QHelpEvent(QtCore.QEvent.Type.ToolTip, point, viewport.mapToGlobal(point))
    QApplication.sendEvent(viewport, rest)
    qtbot.wait(80)
    _move(viewport, point + QtCore.QPoint(1, 0))  # ... and it moves a little on the node
    qtbot.wait(300)
    assert view.hover_title.text() == " ".join(title.split())
    assert view.hovered_id == scene.ids[row]
    _move(viewport, QtCore.QPoint(viewport.width() - 3, 3))
    qtbot.waitUntil(lambda: view.hover_title.text() == "", timeout=WAIT)


def test_the_hover_title_follows_another_writers_rename_of_the_hovered_node(
    view: Any, app: Any, qtbot: Any
) -> None:
    """An agent renames the node under the pointer: the whole title shown over it is the new
    one (it kept the old title, over the new label, until the pointer left)."""
    from memgraph_gui.core import MemoryStore

    view.show_level(overview.ALL)
    scene = view.scene
    row = int(np.flatnonzero(view.visible)[0])
    x, y = scene.pos[row]
    view.view.setRange(xRange=(x - 3, x + 3), yRange=(y - 3, y + 3), padding=0)
    point = _viewport_point(view, row)
    _move(view.plot.viewport(), point)
    node_id = scene.ids[row]
    qtbot.waitUntil(
        lambda: view.hovered_id == node_id and bool(view.hover_title.text()), timeout=WAIT
    )
    with MemoryStore.open(app.path, create=False) as agent:
        agent.write_api().edit_node(id=node_id, title="Renamed by the agent")
    qtbot.waitUntil(lambda: view.hover_title.text() == "Renamed by the agent", timeout=WAIT)


# -- 5. context menus: a new node at the pointer, unpin, fold and unfold ---------------------------
def _background_point(view: Any) -> tuple[float, float]:
    """A view point with no node under it, inside the view."""
    from memgraph_gui.views.qt import QtCore

    (x0, x1), (y0, y1) = view.view.viewRange()
    for fx in np.linspace(0.9, 0.1, 9):
        for fy in np.linspace(0.9, 0.1, 9):
            x, y = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
            if view.nodes.row_at(QtCore.QPointF(x, y)) < 0:
                return float(x), float(y)
    raise AssertionError("no background in view")


def _texts(menu: Any) -> list[str]:
    return [a.text() for a in menu.actions() if not a.isSeparator()]


def _action(menu: Any, text: str) -> Any:
    return next(a for a in menu.actions() if a.text() == text)


def test_new_node_here_creates_a_node_pinned_where_the_menu_was_opened(
    view: Any, app: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph_gui.views.qt import QMenu, Qt, QtCore

    x, y = _background_point(view)
    opened: list[Any] = []
    monkeypatch.setattr(QMenu, "popup", lambda menu, *_a: opened.append(menu))
    point = view.view.mapViewToScene(QtCore.QPointF(x, y))
    qtbot.mouseClick(
        view.plot.viewport(), Qt.MouseButton.RightButton, pos=view.plot.mapFromScene(point)
    )
    assert len(opened) == 1 and _texts(opened[0]) == ["New node here…"]
    asked: list[dict[str, list[str]]] = []

    def answer(_parent: Any, types: Any) -> Any:
        from memgraph_gui.views.graph.new_node import NewNode

        asked.append({k: list(v) for k, v in types.items()})
        return NewNode("character_sheet", "Zed & the Wanderer")

    view.ask_new_node = answer
    menu = view.context_menu_at(x, y)
    _action(menu, "New node here…").trigger()
    assert asked[0]["character_sheet"] == [] and asked[0]["thread"] == ["status", "note"]
    assert "event" not in asked[0]  # (not editable by hand)
    app.runner.wait_idle()
    made = next(n for n in app.store.graph.nodes.values() if n.title == "Zed & the Wanderer")
    assert made.type == "character_sheet"
    assert np.allclose(app.store.pins()[made.id], (x, y))
    qtbot.waitUntil(lambda: made.id in view.scene.index, timeout=WAIT)
    row = view.scene.index[made.id]
    assert view.scene.pinned[row] and np.allclose(view.scene.pos[row], (x, y))
    qtbot.waitUntil(lambda: app.selection.current == made.id, timeout=WAIT)
    assert view.visible[row] and view.selection.rows == {row}
    x_data, y_data = view.nodes.getData()
    assert np.allclose((x_data[row], y_data[row]), (x, y))


def test_the_new_node_dialog_asks_for_the_types_required_fields(qtbot: Any) -> None:
    from memgraph_gui.views.graph.new_node import NewNode, NewNodeDialog
    from memgraph_gui.views.qt import QDialogButtonBox

    dialog = NewNodeDialog({"character_sheet": [], "thread": ["status", "note"]})
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled() and dialog.field_boxes == {}
    dialog.title_box.setText("  Errands ")
    assert ok.isEnabled()
    dialog.type_box.setCurrentIndex(1)
    assert list(dialog.field_boxes) == ["status", "note"] and not ok.isEnabled()
    dialog.field_boxes["status"].setText("open")
    dialog.field_boxes["note"].setText("bread")
    assert ok.isEnabled()
    assert dialog.answer() == NewNode("thread", "Errands", {"status": "open", "note": "bread"})


def test_a_thread_made_at_the_pointer_gets_its_required_fields(
    view: Any, app: Any, qtbot: Any
) -> None:
    from memgraph_gui.views.graph.new_node import NewNode

    x, y = _background_point(view)
    view.create_node_at(NewNode("thread", "Errands", {"status": "open", "note": "bread"}), x, y)
    app.runner.wait_idle()
    made = next(n for n in app.store.graph.nodes.values() if n.title == "Errands")
    assert made.type == "thread" and made.fields["status"] == "open"
    assert np.allclose(app.store.pins()[made.id], (x, y))


def test_a_pinned_node_is_unpinned_from_its_context_menu(view: Any, app: Any, qtbot: Any) -> None:
    from memgraph_gui.app.graph_data import pin_nodes
    from memgraph_gui.views.qt import QtCore

    view.show_level(overview.ALL)
    scene = view.scene
    row = int(np.argmax(scene.degree))
    node_id = scene.ids[row]
    x, y = scene.pos[row]
    assert "Unpin" not in _texts(view.context_menu_at(float(x), float(y)))
    pin_nodes(app, {node_id: (float(x), float(y))})
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: bool(scene.pinned[row]), timeout=WAIT)
    menu = view.context_menu_at(float(x), float(y))
    assert _texts(menu)[1:] == ["Select", "Unpin"]  # (the title first, disabled)
    _action(menu, "Unpin").trigger()
    app.runner.wait_idle()
    assert node_id not in app.store.pins() and not scene.pinned[row]
    assert np.allclose(scene.pos[row], (x, y))  # unpinned where it stands
    _action(view.context_menu_at(float(x), float(y)), "Select").trigger()
    assert app.selection.ids == {node_id}
    assert view.nodes.row_at(QtCore.QPointF(float(x), float(y))) == row


def test_folded_rollups_unfold_and_fold_from_their_context_menu(view: Any, qtbot: Any) -> None:
    from memgraph_gui.views.qt import QtCore

    scene, folded = view.scene, view.folded
    row = int(folded.cut.folded()[0])
    x, y = scene.pos[row]
    menu = view.context_menu_at(float(x), float(y))
    assert "Unfold" in _texts(menu)
    _action(menu, "Unfold").trigger()
    children = np.flatnonzero(scene.parents == row)
    assert not view.visible[row] and view.visible[children].all()
    child = int(children[0])
    cx, cy = scene.pos[child]
    assert view.nodes.row_at(QtCore.QPointF(float(cx), float(cy))) == child
    menu = view.context_menu_at(float(cx), float(cy))
    _action(menu, "Fold into rollup").trigger()
    assert view.visible[row] and not view.visible[children].any()


# -- 6. labels never draw under the legend; long titles are elided ---------------------------------
def test_no_label_draws_under_the_legend_and_long_titles_are_elided(
    view: Any, app: Any, qtbot: Any
) -> None:
    from memgraph_gui.app import ops
    from memgraph_gui.views.graph.labels import MAX_CHARS

    view.show_level(overview.ALL)
    scene = view.scene
    long_id = scene.ids[int(np.argmax(np.where(scene.rollups, -1, scene.degree)))]
    ops.edit_node(app, long_id, title="A very long title " * 8)
    app.runner.wait_idle()
    # put a node in the middle of the legend, zoomed in enough for labels
    legend = _legend_rect(view)
    row = scene.index[long_id]
    box = view.view.sceneBoundingRect()
    x, y = scene.pos[row]
    span = 2 * view._reading_half_width(row)  # view units across: labels show
    per_px = span / box.width()
    left = x - (legend.center().x() - box.left()) * per_px
    top = y + (legend.center().y() - box.top()) * per_px
    view.view.setRange(
        xRange=(left, left + span), yRange=(top - box.height() * per_px, top), padding=0
    )
    qtbot.waitUntil(lambda: view.labels.shown > 0, timeout=WAIT)
    assert _under(legend, _on_screen(view, np.array([row])))[0]  # the node is under it ...
    assert row not in view.labels.rows.tolist()  # ... and has no label
    for i in range(view.labels.shown):
        text = view.labels._pool[i].textItem.sceneBoundingRect()
        assert not text.intersects(legend), view.labels.texts()[i]
    # elsewhere the long title is elided
    view.view.setRange(xRange=(x - 2, x + 2), yRange=(y - 2, y + 2), padding=0)
    qtbot.waitUntil(lambda: row in view.labels.rows.tolist(), timeout=WAIT)
    text = view.labels.texts()[view.labels.rows.tolist().index(row)]
    assert len(text) <= MAX_CHARS and text.endswith("…")


def test_the_menu_key_opens_the_current_nodes_context_menu(
    view: Any, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph_gui.views.qt import QApplication, QMenu, QtCore, QtGui

    opened: list[Any] = []
    monkeypatch.setattr(QMenu, "popup", lambda menu, *_a: opened.append(menu))
    row = int(np.flatnonzero(view.visible)[0])
    app.selection.select([view.scene.ids[row]], source=view)
    key = QtGui.QContextMenuEvent(
        QtGui.QContextMenuEvent.Reason.Keyboard, QtCore.QPoint(5, 5), QtCore.QPoint(5, 5)
    )
    QApplication.sendEvent(view, key)
    assert len(opened) == 1 and "Select" in _texts(opened[0])
    title = opened[0].actions()[0]  # the node's title heads it (disabled)
    assert not title.isEnabled() and title.text().startswith(
        " ".join(app.node(view.scene.ids[row]).title.split())[:10].replace("&", "&&")
    )

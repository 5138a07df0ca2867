"""Small overlay items drawn over the node scatter: the three injection styles and the selection.

A highlight change calls ``setData`` on a few small items (~0.2 ms) instead of re-brushing every
node. Each overlay remembers its rows so a layout frame or a drag can move it in place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from memgraph_gui.core.domain.injection import InjectionState
from memgraph_gui.views.graph.palette import (
    clear_brush,
    halo_brush,
    ring_pen,
    selection_color,
    styles,
)
from memgraph_gui.views.graph.scene import GraphScene
from memgraph_gui.views.qt import pg

Lift = Callable[[np.ndarray], np.ndarray]
"""Rows to the shown rows standing for them (each once)."""


FADED_MARK = 0.2
"""A mark's opacity when a find does not find its node."""


@dataclass(slots=True)
class _Ring:
    """One overlay style and the scene rows it marks: ``item`` draws them, and ``dimmed`` (the
    same style, faded) those a find does not find."""

    item: pg.ScatterPlotItem
    dimmed: pg.ScatterPlotItem
    pad: float
    rows: np.ndarray
    faded: np.ndarray  # per row of ``rows``: drawn by ``dimmed``

    def show(
        self,
        scene: GraphScene,
        rows: np.ndarray,
        visible: np.ndarray,
        faded: np.ndarray | None = None,
    ) -> None:
        """Mark the ``visible`` ones of ``rows``; those ``faded`` (a mask over the scene's
        rows, None: none) faintly."""
        rows = rows[visible[rows]] if len(rows) else rows
        self.rows = rows
        dim = np.zeros(len(rows), dtype=bool)
        if faded is not None and len(rows) and len(faded) == scene.n:
            dim = faded[rows]
        self.faded = dim
        for item, part in ((self.item, rows[~dim]), (self.dimmed, rows[dim])):
            item.setData(
                x=scene.pos[part, 0], y=scene.pos[part, 1], size=scene.sizes[part] + self.pad
            )

    def follow(self, scene: GraphScene) -> None:
        """Move to the scene's current positions (in place, the rows unchanged)."""
        if len(self.faded) != len(self.rows):
            return
        for item, part in (
            (self.item, self.rows[~self.faded]),
            (self.dimmed, self.rows[self.faded]),
        ):
            if not len(part) or len(item.data) != len(part):
                continue
            item.data["x"] = scene.pos[part, 0]
            item.data["y"] = scene.pos[part, 1]
            item.prepareGeometryChange()
            item.bounds = [None, None]
            item.update()

    @property
    def rows_faded(self) -> set[int]:
        """The rows marked faintly (for tests)."""
        return {int(r) for r in self.rows[self.faded]}


class _Marks(pg.ScatterPlotItem):  # type: ignore[misc]
    """Marks drawn over the nodes that never take the pointer: a click, drag or hover on a
    marked node reaches the node itself (pyqtgraph's scatter accepts a click on any of its
    points, whatever its accepted buttons, so a ringed node could not be selected)."""

    def mouseClickEvent(self, ev: object) -> None:
        ev.ignore()  # type: ignore[attr-defined]

    def mouseDragEvent(self, ev: object) -> None:
        ev.ignore()  # type: ignore[attr-defined]

    def hoverEvent(self, ev: object) -> None:
        return


def _ring(view: pg.ViewBox, z: float, pad: float, **style: object) -> _Ring:
    items = []
    for opacity in (1.0, FADED_MARK):
        item = _Marks(pxMode=True, antialias=True, **style)
        item.setZValue(z)
        item.setOpacity(opacity)
        item.setAcceptHoverEvents(False)
        item.setAcceptedMouseButtons(pg.QtCore.Qt.MouseButton.NoButton)
        view.addItem(item, ignoreBounds=True)
        items.append(item)
    none = np.zeros(0, dtype=np.int64)
    return _Ring(items[0], items[1], pad, none, np.zeros(0, dtype=bool))


class InjectionOverlay:
    """Always-inject, recall-selected and visible-pool rings (a node shows its strongest role)."""

    def __init__(self, view: pg.ViewBox) -> None:
        self.styles = styles()
        pads = {"always": 10.0, "recall": 14.0, "visible": 8.0}
        widths = {"always": 3.0, "recall": 2.8, "visible": 2.6}
        self.rings = {
            s.key: _ring(
                view,
                20 + i,
                pads[s.key],
                symbol=s.symbol,
                pen=ring_pen(s.color, widths[s.key]),
                brush=halo_brush(s.color, 60 if s.key != "visible" else 0),
            )
            for i, s in enumerate(reversed(self.styles))
        }
        self.state = InjectionState()

    def show(
        self,
        scene: GraphScene,
        state: InjectionState,
        visible: np.ndarray,
        lift: Lift | None = None,
        faded: np.ndarray | None = None,
    ) -> None:
        """Draw ``state`` over ``scene`` (a node in several roles gets the strongest); with
        ``lift``, on the shown rows standing for the marked ones (a folded rollup holding an
        injected memory is marked); faintly on the rows ``faded`` (a find's misses)."""
        self.state = state
        always = set(state.always_inject_ids)
        recall = set(state.recall_selected_ids) - always
        pool = set(state.visible_ids) - always - recall
        taken = np.zeros(0, dtype=np.int64)
        for key, ids in (("always", always), ("recall", recall), ("visible", pool)):
            rows = scene.rows(sorted(ids))
            if lift is not None:
                rows = np.setdiff1d(lift(rows), taken)  # the strongest role wins there too
                taken = np.union1d(taken, rows)
            self.rings[key].show(scene, rows, visible, faded)

    def rows(self, key: str) -> set[int]:
        """The scene rows drawn in style ``key`` (for tests and the legend counts)."""
        return {int(r) for r in self.rings[key].rows}

    def follow(self, scene: GraphScene) -> None:
        for ring in self.rings.values():
            ring.follow(scene)


class SelectionOverlay:
    """A ring around every selected node and a bolder one around the current node."""

    def __init__(self, view: pg.ViewBox) -> None:
        color = selection_color()
        self.selected = _ring(
            view, 30, 10.0, symbol="o", pen=ring_pen(color, 2.5), brush=clear_brush()
        )
        self.current = _ring(
            view, 31, 16.0, symbol="o", pen=ring_pen(color, 3.5), brush=halo_brush(color, 50)
        )

    def show(
        self,
        scene: GraphScene,
        rows: np.ndarray,
        current: int,
        visible: np.ndarray,
        lift: Lift | None = None,
        faded: np.ndarray | None = None,
    ) -> None:
        """Ring the selected ``rows`` and the ``current`` one (with ``lift``: the shown rows
        standing for them); faintly the rows ``faded`` (a find's misses)."""
        cur = np.array([current] if current >= 0 else [], dtype=np.int64)
        if lift is not None:
            rows, cur = lift(rows), lift(cur)
        self.selected.show(scene, rows, visible, faded)
        self.current.show(scene, cur, visible, faded)

    @property
    def rows(self) -> set[int]:
        return {int(r) for r in self.selected.rows}

    def follow(self, scene: GraphScene) -> None:
        self.selected.follow(scene)
        self.current.follow(scene)

"""Small overlay items drawn over the node scatter: the three injection styles and the selection.

A highlight change calls ``setData`` on a few small items (~0.2 ms) instead of re-brushing every
node. Each overlay remembers its rows so a layout frame or a drag can move it in place. Marks are
drawn around the nodes' drawn sizes (a folded rollup is drawn bigger) and never take the pointer.

While folded, a member's mark is drawn on the shown rollup standing for it, and each overlay
counts how many members every shown row stands for (``held``; the labels say how many). When
more than ``CROWDED`` always-injected and visible-pool marks fall in view (a fitted 50k memory
has ~1,900), those two are drawn light: a thin rim under each node, so the picture is not a sea
of marks and every node keeps its colour; the recall picks (the live highlight) stay bold and
over every other mark.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
from memgraph_gui.views.qt import QColor, pg

Lift = Callable[[np.ndarray], np.ndarray]
"""Rows to the shown row standing for each (the same length; -1: none is shown)."""
Sizes = Callable[[], np.ndarray]
"""The nodes' drawn sizes in pixels, per scene row (a folded rollup's is bigger)."""

FADED_MARK = 0.2
"""A mark's opacity when a find does not find its node."""
CROWDED = 150
"""More always-injected and visible-pool marks than this in view: they are drawn light."""
MARK_Z = {"visible": 20, "always": 21, "recall": 24}
"""The recall picks over the other injection marks; the selection (30, 31) and labels over
all of them."""
_NO_ROWS = np.zeros(0, dtype=np.int64)
UNDER_Z = 9
"""Light marks: under the nodes (10), a rim round each node that leaves the node itself and
its colour in sight."""


@dataclass(frozen=True, slots=True)
class MarkStyle:
    """How a mark is drawn: its pen, its fill, how many pixels wider than its node it is, and
    its pen's width."""

    pen: object
    brush: object
    pad: float
    width: float
    under: bool = False  # drawn under the nodes (a light mark)

    @property
    def reach(self) -> float:
        """Pixels from the node's edge to the outer edge of the mark."""
        return self.pad / 2 + self.width / 2


def mark_style(
    color: str, pad: float, width: float, fill: int = 0, alpha: int = 255, under: bool = False
) -> MarkStyle:
    """A mark in ``color`` (its outline ``alpha``), ``pad`` pixels wider than its node, with a
    translucent fill of ``fill`` alpha (0: none), over its node or ``under`` it."""
    pen_color = QColor(color)
    pen_color.setAlpha(alpha)
    brush = halo_brush(color, fill) if fill else clear_brush()
    return MarkStyle(pg.mkPen(pen_color, width=width), brush, pad, width, under)


def lift_rows(rows: np.ndarray, lift: Lift | None, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The shown rows standing for ``rows`` (each once, sorted) and, per scene row (``n`` of
    them), how many of ``rows`` it stands for."""
    reps = lift(rows) if lift is not None and len(rows) else rows
    reps = reps[reps >= 0]
    return np.unique(reps), np.bincount(reps, minlength=n)[:n]


@dataclass(slots=True)
class _Ring:
    """One overlay style and the scene rows it marks: ``item`` draws them, and ``dimmed`` (the
    same style, faded) those a find does not find."""

    item: _Marks
    dimmed: _Marks
    style: MarkStyle
    rows: np.ndarray
    faded: np.ndarray  # per row of ``rows``: drawn by ``dimmed``
    base: np.ndarray  # per row of ``rows``: its node's drawn size
    z: float  # over the nodes (a light style may draw it under them)

    def show(
        self,
        scene: GraphScene,
        rows: np.ndarray,
        visible: np.ndarray,
        sizes: np.ndarray,
        faded: np.ndarray | None = None,
    ) -> None:
        """Mark the ``visible`` ones of ``rows`` round their nodes' drawn ``sizes``; those
        ``faded`` (a mask over the scene's rows, None: none) faintly."""
        rows = rows[visible[rows]] if len(rows) else rows
        self.rows = rows
        dim = np.zeros(len(rows), dtype=bool)
        if faded is not None and len(rows) and len(faded) == scene.n:
            dim = faded[rows]
        self.faded = dim
        self.base = sizes[rows].astype(float)
        for item, part in ((self.item, ~dim), (self.dimmed, dim)):
            item.set_points(
                scene.pos[rows[part], 0], scene.pos[rows[part], 1], self.base[part] + self.style.pad
            )
            item.setVisible(bool(part.any()))  # an empty item is not painted (~0.4 ms each)

    def restyle(self, style: MarkStyle) -> None:
        """Draw the same marks in ``style`` (light or bold)."""
        if style == self.style:
            return
        self.style = style
        for item, part in ((self.item, ~self.faded), (self.dimmed, self.faded)):
            item.setZValue(UNDER_Z if style.under else self.z)
            item.setPen(style.pen, update=False)
            item.setBrush(style.brush, update=False)
            data = item.data
            sized = len(data) == int(part.sum()) and len(data)
            size = self.base[part] + style.pad if sized else data["size"]
            # one pixmap lookup per distinct size (setPen, setBrush and setSize each looked
            # every mark up in Python: a restyle of thousands took ~20 ms of a frame)
            item.set_points(data["x"], data["y"], size)

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

    data: Any  # pyqtgraph's record array, one row per mark

    def mouseClickEvent(self, ev: object) -> None:
        ev.ignore()  # type: ignore[attr-defined]

    def mouseDragEvent(self, ev: object) -> None:
        ev.ignore()  # type: ignore[attr-defined]

    def hoverEvent(self, ev: object) -> None:
        return

    def set_points(self, x: np.ndarray, y: np.ndarray, size: np.ndarray) -> None:
        """``setData(x=x, y=y, size=size)`` in the item's own pen, brush and symbol, with one
        atlas lookup per distinct size (``setData`` looked each point up in Python: a fitted
        50k memory's ~2,800 marks took ~10 ms of a new picture's frame, ~20 under load)."""
        data: Any = np.empty(len(x), dtype=self.data.dtype)  # object fields start as None
        data["x"], data["y"], data["size"], data["visible"] = x, y, size, True
        if len(data):
            sizes, which = np.unique(size, return_inverse=True)
            symbol, pen, brush = self.opts["symbol"], self.opts["pen"], self.opts["brush"]
            rects = self.fragmentAtlas[[(symbol, float(s), pen, brush) for s in sizes]]
            data["sourceRect"] = np.array(rects, dtype=data.dtype["sourceRect"])[which]
        self.data = data
        self.bounds = [None, None]
        self._updateMaxSpotSizes()
        self.prepareGeometryChange()
        self.informViewBoundsChanged()
        self.invalidate()
        self.sigPlotChanged.emit(self)


def _ring(view: pg.ViewBox, z: float, style: MarkStyle, symbol: str) -> _Ring:
    items = []
    for opacity in (1.0, FADED_MARK):
        item = _Marks(pxMode=True, antialias=True, symbol=symbol, pen=style.pen, brush=style.brush)
        item.setZValue(z)
        item.setOpacity(opacity)
        item.setAcceptHoverEvents(False)
        item.setAcceptedMouseButtons(pg.QtCore.Qt.MouseButton.NoButton)
        view.addItem(item, ignoreBounds=True)
        items.append(item)
    none = np.zeros(0, dtype=np.int64)
    return _Ring(items[0], items[1], style, none, np.zeros(0, dtype=bool), np.zeros(0), z)


def _sizes_of(scene: GraphScene, sizes: Sizes | None) -> np.ndarray:
    drawn = sizes() if sizes is not None else None
    return drawn if drawn is not None and len(drawn) == scene.n else scene.sizes


def _reach(n: int, rings: list[_Ring]) -> np.ndarray:
    out = np.zeros(n)
    for ring in rings:
        rows = ring.rows[ring.rows < n]
        out[rows] = np.maximum(out[rows], ring.style.reach)
    return out


class InjectionOverlay:
    """Always-inject, recall-selected and visible-pool marks (a node shows its strongest role);
    ``sizes`` gives the nodes' drawn sizes (None: the scene's)."""

    def __init__(self, view: pg.ViewBox, sizes: Sizes | None = None) -> None:
        self.styles = styles()
        color = {s.key: s.color for s in self.styles}
        self.bold = {
            "always": mark_style(color["always"], 10.0, 3.0, fill=60),
            "recall": mark_style(color["recall"], 14.0, 2.8, fill=60),
            "visible": mark_style(color["visible"], 8.0, 2.6),
        }
        self.light = {
            **self.bold,
            "always": mark_style(color["always"], 4.0, 1.6, fill=90, under=True),
            "visible": mark_style(color["visible"], 4.0, 1.3, alpha=200, under=True),
        }
        self.rings = {
            s.key: _ring(view, MARK_Z[s.key], self.bold[s.key], s.symbol) for s in self.styles
        }
        self._sizes = sizes
        self._view = view
        self.crowded = False
        self.held = {key: np.zeros(0, dtype=np.int64) for key in self.rings}
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
        injected memory is marked, in its members' strongest role, and ``held`` counts them
        per role); faintly on the rows ``faded`` (a find's misses)."""
        self.state = state
        always = set(state.always_inject_ids)
        recall = set(state.recall_selected_ids) - always
        pool = set(state.visible_ids) - always - recall
        sizes = _sizes_of(scene, self._sizes)
        taken = np.zeros(0, dtype=np.int64)
        for key, ids in (("always", always), ("recall", recall), ("visible", pool)):
            rows, self.held[key] = lift_rows(scene.rows(sorted(ids)), lift, scene.n)
            rows = np.setdiff1d(rows, taken)  # the strongest role wins there too
            taken = np.union1d(taken, rows)
            self.rings[key].show(scene, rows, visible, sizes, faded)
        self.crowd(scene)

    def clear(self) -> None:
        """No marks: a new picture, whose marks come a moment later (its rows are not the last
        picture's)."""
        for key, ring in self.rings.items():
            ring.rows, ring.faded, ring.base = _NO_ROWS, np.zeros(0, dtype=bool), np.zeros(0)
            self.held[key] = _NO_ROWS
            for item in (ring.item, ring.dimmed):
                item.set_points(np.zeros(0), np.zeros(0), np.zeros(0))
                item.setVisible(False)

    def crowd(self, scene: GraphScene) -> bool:
        """Draw the always-injected and visible-pool marks light when more than ``CROWDED`` of
        them are in view, bold otherwise (on a zoom, a new state); True if that changed."""
        inside = 0
        if scene.n:
            (x0, x1), (y0, y1) = self._view.viewRange()
            for key in ("always", "visible"):
                rows = self.rings[key].rows
                x, y = scene.pos[rows[rows < scene.n]].T  # (only the marked rows)
                inside += int(((x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)).sum())
        crowded = inside > CROWDED
        if crowded == self.crowded:
            return False
        self.crowded = crowded
        styles_now = self.light if crowded else self.bold
        for key, ring in self.rings.items():
            ring.restyle(styles_now[key])
        return True

    def rows(self, key: str) -> set[int]:
        """The scene rows drawn in style ``key`` (for tests and the legend counts)."""
        return {int(r) for r in self.rings[key].rows}

    def reach(self, n: int) -> np.ndarray:
        """Per scene row (``n``), pixels from its node's edge to its mark's outer edge."""
        return _reach(n, list(self.rings.values()))

    def follow(self, scene: GraphScene) -> None:
        for ring in self.rings.values():
            ring.follow(scene)


class SelectionOverlay:
    """A ring around every selected node and a bolder one around the current node; ``sizes``
    gives the nodes' drawn sizes (None: the scene's)."""

    def __init__(self, view: pg.ViewBox, sizes: Sizes | None = None) -> None:
        color = selection_color()
        self.selected = _ring(
            view, 30, MarkStyle(ring_pen(color, 2.5), clear_brush(), 10.0, 2.5), "o"
        )
        self.current = _ring(
            view, 31, MarkStyle(ring_pen(color, 3.5), halo_brush(color, 50), 16.0, 3.5), "o"
        )
        self._sizes = sizes
        self.held = np.zeros(0, dtype=np.int64)

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
        standing for them, and ``held`` counts the selected each stands for); faintly the rows
        ``faded`` (a find's misses)."""
        cur = np.array([current] if current >= 0 else [], dtype=np.int64)
        rows, self.held = lift_rows(rows, lift, scene.n)
        cur, _ = lift_rows(cur, lift, scene.n)
        sizes = _sizes_of(scene, self._sizes)
        self.selected.show(scene, rows, visible, sizes, faded)
        self.current.show(scene, cur, visible, sizes, faded)

    @property
    def rows(self) -> set[int]:
        return {int(r) for r in self.selected.rows}

    def reach(self, n: int) -> np.ndarray:
        """Per scene row (``n``), pixels from its node's edge to its ring's outer edge."""
        return _reach(n, [self.selected, self.current])

    def follow(self, scene: GraphScene) -> None:
        self.selected.follow(scene)
        self.current.follow(scene)

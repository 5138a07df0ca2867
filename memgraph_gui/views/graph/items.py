"""The two big items: ``NodeScatter`` (every node, one ``ScatterPlotItem``) and ``EdgeLayer``
(one ``PlotCurveItem`` with ``connect='pairs'`` per edge style).

``NodeScatter`` does its own hit test (numpy over the position array) instead of pyqtgraph's
``pointsAt``, which builds one ``SpotItem`` per point; it reports clicks, hovers and drags as
row numbers and leaves everything else to the view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from memgraph_gui.views.graph.palette import edge_pen, node_brush, node_pen
from memgraph_gui.views.graph.scene import GraphScene
from memgraph_gui.views.qt import QtCore, QtWidgets, Signal, pg

CACHE = QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache
NO_CACHE = QtWidgets.QGraphicsItem.CacheMode.NoCache


class NodeScatter(pg.ScatterPlotItem):  # type: ignore[misc]
    """All nodes; emits ``node_clicked(row, modifiers)`` (row -1 = background),
    ``node_hovered(row)`` and ``node_dragged(row, x, y, finished)`` (row -1, finished: a drag
    cut short because the picture was replaced under it)."""

    node_clicked = Signal(int, object)
    node_hovered = Signal(int)
    node_dragged = Signal(int, float, float, bool)
    data: Any  # pyqtgraph's record array, one row per spot

    def __init__(self) -> None:
        super().__init__(pxMode=True, hoverable=False, tip=None, antialias=True)
        self.setCacheMode(CACHE)
        self.scene_data: GraphScene | None = None
        self.visible_mask = np.zeros(0, dtype=bool)
        self._hovered = -1
        self._dragging = -1

    def show_scene(self, scene: GraphScene, faded: np.ndarray | None) -> None:
        """Replace every point (on open and topology changes only), faded where ``faded``.

        The record array is filled column by column and each distinct style is rendered once:
        pyqtgraph's ``setData`` with per-spot brushes makes several Python passes over the
        spots (~0.3 s at 50k, against ~0.02 s).
        """
        self.scene_data = scene
        if self._dragging >= 0:  # its row was of the picture replaced: the drag ends here
            self._dragging = -1
            self.node_dragged.emit(-1, 0.0, 0.0, True)
        self.visible_mask = np.ones(scene.n, dtype=bool)
        data = np.zeros(scene.n, dtype=self.data.dtype)  # np.empty inits objects 8x slower
        data["symbol"] = data["item"] = None  # None: the item's default symbol; no SpotItems
        data["x"], data["y"] = scene.pos[:, 0], scene.pos[:, 1]
        data["size"] = scene.sizes
        data["visible"] = True
        data["hovered"] = False
        data["data"] = np.asarray(scene.ids, dtype=object)
        self.data = data
        self.restyle(faded)
        self.prepareGeometryChange()
        self.informViewBoundsChanged()
        self.sigPlotChanged.emit(self)

    def sync_sizes(self, faded: np.ndarray | None, first: int | None = None) -> None:
        """Take the scene's rows from ``first`` on (None: none are new), its types and sizes
        (degrees change with links), and re-render every spot."""
        scene = self.scene_data
        assert scene is not None
        if first is not None and first < scene.n:
            new = slice(first, scene.n)
            self.addPoints(
                x=scene.pos[new, 0].copy(),
                y=scene.pos[new, 1].copy(),
                size=scene.sizes[new],
                data=np.asarray(scene.ids[new], dtype=object),
            )
            grown = np.ones(scene.n - first, bool)
            self.visible_mask = np.concatenate([self.visible_mask, grown])
        self.data["size"] = scene.sizes
        self.restyle(faded)
        self.prepareGeometryChange()  # bigger spots reach further out
        self.informViewBoundsChanged()

    def restyle(self, faded: np.ndarray | None) -> None:
        """Brush every spot by its node type, faded where ``faded`` (None: nowhere)."""
        scene, data = self.scene_data, self.data
        assert scene is not None and len(data) == scene.n
        names = list(dict.fromkeys(scene.types))
        code = {name: 2 * row for row, name in enumerate(names)}
        style = np.fromiter(map(code.__getitem__, scene.types), np.intp, scene.n)
        if faded is not None:
            style += faded
        brushes, pens = np.empty(2 * len(names), object), np.empty(2 * len(names), object)
        for row, name in enumerate(names):
            for fade in (0, 1):
                brushes[2 * row + fade] = node_brush(name, bool(fade))
                pens[2 * row + fade] = node_pen(bool(fade))
        data["brush"], data["pen"] = brushes[style], pens[style]
        sizes = data["size"]
        whole = sizes == np.round(sizes)
        if whole.all() and (sizes >= 0).all() and sizes.max(initial=0) < 4096:
            looks, which = np.unique(style * 4096 + sizes.astype(np.intp), return_inverse=True)
            kinds = [(look // 4096, float(look % 4096)) for look in looks.tolist()]
        else:  # fractional sizes: the slower row-wise unique
            pairs, which = np.unique(np.column_stack([style, sizes]), axis=0, return_inverse=True)
            kinds = [(int(s), size) for s, size in pairs.tolist()]
        symbol = self.opts["symbol"]
        rects = self.fragmentAtlas[[(symbol, size, pens[s], brushes[s]) for s, size in kinds]]
        data["sourceRect"] = np.array(rects, dtype=data.dtype["sourceRect"])[which.ravel()]
        self._updateMaxSpotSizes()
        self.invalidate()

    def move_in_place(self) -> None:
        """Copy the scene's positions into the item's arrays and invalidate its bounds
        (0.4 ms at 50k, against 0.14-0.23 s for ``setData(pos=...)``)."""
        scene = self.scene_data
        if scene is None or len(self.data) != scene.n:
            return
        x, y = scene.pos[:, 0], scene.pos[:, 1]
        self.data["x"] = x
        self.data["y"] = y
        self.prepareGeometryChange()
        self.informViewBoundsChanged()
        pad = self._maxSpotWidth * 0.7072  # as ScatterPlotItem.dataBounds computes them
        bounds: list[tuple[float, float] | None] = [None, None]
        if scene.n:  # the bounds once from the contiguous arrays, not twice per paint
            bounds = [(x.min() - pad, x.max() + pad), (y.min() - pad, y.max() + pad)]
        self.bounds = bounds
        self.update()

    def set_cached(self, cached: bool) -> None:
        """Device-coordinate cache: on while the nodes stand still (pan and highlight repaint
        a pixmap, 5 ms instead of 37 ms at 50k), off while they move or the view zooms."""
        self.setCacheMode(CACHE if cached else NO_CACHE)

    def set_visible_rows(self, mask: np.ndarray) -> None:
        """Show only the rows in ``mask`` (focus mode)."""
        self.visible_mask = mask
        if len(self.data) == len(mask) and not np.array_equal(self.data["visible"], mask):
            # not setPointsVisible: it drops every spot's atlas entry (0.2-0.4 s at 50k)
            self.data["visible"] = mask
            self.invalidate()

    def row_at(self, pos: QtCore.QPointF) -> int:
        """The node under ``pos`` (item coordinates), or -1."""
        scene = self.scene_data
        view = self.getViewBox()
        if scene is None or view is None or not scene.n:
            return -1
        px, py = view.viewPixelSize()
        radius = (scene.sizes / 2 + 2) * max(px, py)
        return scene.nearest(pos.x(), pos.y(), radius, self.visible_mask)

    # -- mouse ---------------------------------------------------------------------------------------
    def mouseClickEvent(self, ev: Any) -> None:
        if ev.button() != QtCore.Qt.MouseButton.LeftButton:
            ev.ignore()
            return
        ev.accept()
        self.node_clicked.emit(self.row_at(ev.pos()), ev.modifiers())

    def hoverEvent(self, ev: Any) -> None:
        row = -1 if ev.isExit() else self.row_at(ev.pos())
        if row != self._hovered:
            self._hovered = row
            self.node_hovered.emit(row)

    def mouseDragEvent(self, ev: Any) -> None:
        if ev.button() != QtCore.Qt.MouseButton.LeftButton:
            ev.ignore()
            return
        if ev.isStart():
            self._dragging = self.row_at(ev.buttonDownPos())
        if self._dragging < 0:
            ev.ignore()  # the view box pans
            return
        ev.accept()
        row, pos = self._dragging, ev.pos()
        if ev.isFinish():
            self._dragging = -1
        self.node_dragged.emit(row, pos.x(), pos.y(), bool(ev.isFinish()))


class EdgeLayer:
    """Hierarchy and relation edges, one cached ``PlotCurveItem`` each."""

    def __init__(self, view: pg.ViewBox) -> None:
        self.items = {
            style: pg.PlotCurveItem(pen=edge_pen(style), connect="pairs", skipFiniteCheck=True)
            for style in (True, False)
        }
        self.wanted = {True: True, False: True}
        self.suspended = False
        for item in self.items.values():
            item.setZValue(0)
            item.setCacheMode(CACHE)
            view.addItem(item, ignoreBounds=True)

    def rebuild(self, scene: GraphScene, visible: np.ndarray | None) -> None:
        """Recompute both items' line coordinates from the scene's positions."""
        for style, item in self.items.items():
            x, y = scene.edge_xy(scene.edge_rows(style, visible))
            item.setData(x=x, y=y, connect="pairs", skipFiniteCheck=True)

    def count(self) -> int:
        """How many edge segments are loaded."""
        return sum(len(item.xData) // 2 for item in self.items.values() if item.xData is not None)

    def set_wanted(self, hierarchy: bool, shown: bool) -> None:
        """The user's toggle for one style."""
        self.wanted[hierarchy] = shown
        self._apply()

    def suspend(self, hidden: bool) -> None:
        """Hide every edge for a while (zooming or a streaming layout on a big graph)."""
        self.suspended = hidden
        self._apply()

    def set_cached(self, cached: bool) -> None:
        """Device-coordinate cache on (pan, highlight) or off (zoom re-rasterises it)."""
        for item in self.items.values():
            item.setCacheMode(CACHE if cached else NO_CACHE)

    def set_opacity(self, opacity: float) -> None:
        for item in self.items.values():
            item.setOpacity(opacity)

    def _apply(self) -> None:
        for style, item in self.items.items():
            item.setVisible(self.wanted[style] and not self.suspended)

"""The two big items: ``NodeScatter`` (every node, one ``ScatterPlotItem``) and ``EdgeLayer``
(one ``PlotCurveItem`` with ``connect='pairs'`` per edge style).

``NodeScatter`` does its own hit test (numpy over the position array) instead of pyqtgraph's
``pointsAt``, which builds one ``SpotItem`` per point; it reports clicks, hovers and drags as
row numbers and leaves everything else to the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from memgraph_gui.views.graph.palette import edge_pen, hairline_pen, node_brush, node_pen
from memgraph_gui.views.graph.scene import GraphScene
from memgraph_gui.views.qt import QtCore, QtWidgets, Signal, pg

CACHE = QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache
NO_CACHE = QtWidgets.QGraphicsItem.CacheMode.NoCache
FEW_SHOWN = 0.5
"""A paint reads only the shown spots' records when at most this share of them is shown, and a
layout frame moves only theirs (the others' follow when they are needed)."""
PAINTED = ["x", "y", "visible", "sourceRect"]
"""The record fields pyqtgraph's cached pixel-mode paint reads (no Python objects among them)."""


@dataclass(frozen=True)
class Looks:
    """Each spot's style (type and fade) and its distinct looks: what ``restyle`` computes
    before it asks the symbol atlas (GUI thread) for the few looks' pictures."""

    style: np.ndarray  # per spot: 2 * type index + faded
    brushes: np.ndarray  # per style
    pens: np.ndarray  # per style
    kinds: list[tuple[int, float]]  # distinct (style, size)
    which: np.ndarray  # per spot: its index in ``kinds``


def spot_looks(
    scene: GraphScene,
    faded: np.ndarray | None,
    sizes: np.ndarray,
    rows: np.ndarray | None = None,
) -> Looks:
    """The looks of ``scene``'s spots of ``sizes``, faded where ``faded`` (only the ``rows``
    given, if any: ``style`` and ``which`` are theirs). No Qt drawing: any thread (brushes
    and pens are plain values)."""
    names, codes = scene.type_codes()
    style = 2 * codes
    if faded is not None:
        style += faded
    if rows is not None:
        style, sizes = style[rows], sizes[rows]
    brushes, pens = np.empty(2 * len(names), object), np.empty(2 * len(names), object)
    for row, name in enumerate(names):
        for fade in (0, 1):
            brushes[2 * row + fade] = node_brush(name, bool(fade))
            pens[2 * row + fade] = node_pen(bool(fade))
    whole = sizes == np.round(sizes)
    if whole.all() and (sizes >= 0).all() and sizes.max(initial=0) < 4096:
        looks, which = np.unique(style * 4096 + sizes.astype(np.intp), return_inverse=True)
        kinds = [(look // 4096, float(look % 4096)) for look in looks.tolist()]
    else:  # fractional sizes: the slower row-wise unique
        pairs, which = np.unique(np.column_stack([style, sizes]), axis=0, return_inverse=True)
        kinds = [(int(s), size) for s, size in pairs.tolist()]
    return Looks(style, brushes, pens, kinds, which.ravel())


@dataclass(frozen=True)
class Spots:
    """A scene's spot records (pyqtgraph's record array, all but the atlas entries) and looks,
    made off the GUI thread for a big reload (~20 ms at 50k) by ``make_spots``."""

    scene: GraphScene
    faded: np.ndarray | None
    data: np.ndarray
    looks: Looks

    def fits(self, scene: GraphScene, faded: np.ndarray | None) -> bool:
        """True when these spots were made for ``scene`` as it is, faded as ``faded``."""
        same_fade = (self.faded is None and faded is None) or (
            self.faded is not None and faded is not None and np.array_equal(self.faded, faded)
        )
        return self.scene is scene and len(self.data) == scene.n and same_fade


def make_spots(
    scene: GraphScene,
    faded: np.ndarray | None,
    dtype: np.dtype[Any],
    sizes: np.ndarray | None = None,
) -> Spots:
    """Every spot of ``scene`` in pyqtgraph's record ``dtype`` (the item's ``data.dtype``),
    with its looks. Any thread. Filled column by column: pyqtgraph's ``setData`` with per-spot
    brushes makes several Python passes over the spots (~0.3 s at 50k, against ~0.02 s)."""
    data = np.zeros(scene.n, dtype=dtype)  # np.empty inits objects 8x slower
    data["symbol"] = data["item"] = None  # None: the item's default symbol; no SpotItems
    data["x"], data["y"] = scene.pos[:, 0], scene.pos[:, 1]
    data["size"] = scene.sizes if sizes is None else sizes
    data["visible"] = True
    data["hovered"] = False
    data["data"] = scene.id_array()
    looks = spot_looks(scene, faded, data["size"])
    data["brush"], data["pen"] = looks.brushes[looks.style], looks.pens[looks.style]
    return Spots(scene, faded, data, looks)


class NodeScatter(pg.ScatterPlotItem):  # type: ignore[misc]
    """All nodes; emits ``node_clicked(row, modifiers)`` (row -1 = background),
    ``node_double_clicked(row)``,
    ``node_hovered(row)`` and ``node_dragged(row, x, y, finished)`` (row -1, finished: a drag
    cut short because the picture was replaced under it)."""

    node_clicked = Signal(int, object)
    node_double_clicked = Signal(int)
    node_hovered = Signal(int)
    node_dragged = Signal(int, float, float, bool)
    data: Any  # pyqtgraph's record array, one row per spot
    _shown: np.ndarray | None = None  # the shown rows of ``_shown_of`` (None: not known)
    _shown_of: Any = None
    _stale_xy = False  # hidden rows' x and y lag behind the scene (``_sync_xy``)

    def __init__(self) -> None:
        super().__init__(pxMode=True, hoverable=False, tip=None, antialias=True)
        self.setCacheMode(CACHE)
        self.scene_data: GraphScene | None = None
        self.visible_mask = np.zeros(0, dtype=bool)
        self._hovered = -1
        self._dragging = -1

    def show_scene(
        self, scene: GraphScene, faded: np.ndarray | None, spots: Spots | None = None
    ) -> None:
        """Replace every point (on open and topology changes only), faded where ``faded``;
        ``spots`` made off the GUI thread for this scene and fade are used as they are."""
        self.scene_data = scene
        if self._dragging >= 0:  # its row was of the picture replaced: the drag ends here
            self._dragging = -1
            self.node_dragged.emit(-1, 0.0, 0.0, True)
        self.visible_mask = np.ones(scene.n, dtype=bool)
        if spots is None or not spots.fits(scene, faded):
            spots = make_spots(scene, faded, self.data.dtype)
        self.data = spots.data
        self._stale_xy, self._shown = False, None
        self._apply_looks(spots.looks, brushed=True)
        self.prepareGeometryChange()
        self.informViewBoundsChanged()
        self.sigPlotChanged.emit(self)

    def sync_sizes(self, faded: np.ndarray | None, first: int | None = None) -> None:
        """Take the scene's rows from ``first`` on (None: none are new), its types and sizes
        (degrees change with links), and re-render every spot."""
        scene = self.scene_data
        assert scene is not None
        self._sync_xy()
        self._shown = None
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
        scene = self.scene_data
        assert scene is not None and len(self.data) == scene.n
        self._apply_looks(spot_looks(scene, faded, self.data["size"]))

    def _apply_looks(self, looks: Looks, *, brushed: bool = False) -> None:
        """Give every spot its brush and pen (unless ``brushed`` already) and atlas entry (each
        distinct look drawn once)."""
        data = self.data
        if not brushed:
            data["brush"], data["pen"] = looks.brushes[looks.style], looks.pens[looks.style]
        data["sourceRect"] = self._source_rects(looks)
        self._updateMaxSpotSizes()
        self.invalidate()

    def move_in_place(self) -> None:
        """Copy the scene's positions into the item's arrays and invalidate its bounds
        (0.4 ms at 50k, against 0.14-0.23 s for ``setData(pos=...)``). When few rows are shown
        (the overview of a big memory), only theirs: the hidden rows' follow when they are
        read (``_sync_xy``; at 200k every row's took 1.3-3 ms of each layout frame)."""
        scene = self.scene_data
        if scene is None or len(self.data) != scene.n:
            return
        x, y = scene.pos[:, 0], scene.pos[:, 1]
        shown = self._few_shown()
        if shown is None:
            self.data["x"] = x
            self.data["y"] = y
            self._stale_xy = False
        else:
            self.data["x"][shown] = x[shown]
            self.data["y"][shown] = y[shown]
            self._stale_xy = True
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

    def _source_rects(self, looks: Looks) -> np.ndarray:
        """Each of ``looks``' spots' entry in the symbol atlas (each distinct look drawn
        once; GUI thread)."""
        symbol = self.opts["symbol"]
        rects = self.fragmentAtlas[
            [(symbol, size, looks.pens[s], looks.brushes[s]) for s, size in looks.kinds]
        ]
        array: np.ndarray = np.array(rects, dtype=self.data.dtype["sourceRect"])[looks.which]
        return array

    def set_sizes(self, sizes: np.ndarray, faded: np.ndarray | None) -> None:
        """Draw the spots at ``sizes`` (a folded rollup grows), re-styled when any changed."""
        data = self.data
        if len(data) != len(sizes):
            return
        changed = np.flatnonzero(data["size"] != sizes)
        if not len(changed):
            return
        data["size"] = sizes
        scene = self.scene_data
        if scene is not None and len(changed) * 20 < len(data):  # a few: only theirs change
            data["sourceRect"][changed] = self._source_rects(
                spot_looks(scene, faded, sizes, changed)
            )
            self._updateMaxSpotSizes()
            self.invalidate()
        else:
            self.restyle(faded)
        self.prepareGeometryChange()
        self.informViewBoundsChanged()

    def set_visible_rows(self, mask: np.ndarray) -> None:
        """Show only the rows in ``mask`` (focus mode)."""
        self._sync_xy()
        self.visible_mask = mask
        if len(self.data) == len(mask) and not np.array_equal(self.data["visible"], mask):
            # not setPointsVisible: it drops every spot's atlas entry (0.2-0.4 s at 50k)
            self.data["visible"] = mask
            self.invalidate()

    def invalidate(self) -> None:
        """pyqtgraph's, and the shown rows found again at the next paint (a change of the
        spots' records ends here)."""
        self._shown = None
        super().invalidate()

    def _few_shown(self) -> np.ndarray | None:
        """The shown rows when at most ``FEW_SHOWN`` of them are (found once per change of
        the records, not per frame), else None."""
        data = self.data
        if self._shown is None or self._shown_of is not data:
            self._shown, self._shown_of = np.flatnonzero(data["visible"]), data
        return self._shown if len(self._shown) <= FEW_SHOWN * len(data) else None

    def _sync_xy(self) -> None:
        """Bring every row's x and y up to the scene's positions (after frames that moved
        only the shown rows)."""
        scene = self.scene_data
        if self._stale_xy and scene is not None and len(self.data) == scene.n:
            self.data["x"] = scene.pos[:, 0]
            self.data["y"] = scene.pos[:, 1]
            self._stale_xy = False  # (not while a paint holds the shown records only)

    def getData(self) -> tuple[np.ndarray, np.ndarray]:
        self._sync_xy()
        return super().getData()  # type: ignore[no-any-return]

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange: Any = None) -> Any:
        if frac < 1.0 or orthoRange is not None or self.bounds[ax] is None:  # read from rows
            self._sync_xy()
        return super().dataBounds(ax, frac, orthoRange)

    def paint(self, painter: Any, option: Any, widget: Any) -> None:
        """pyqtgraph's paint, given only the shown spots' records when they are few (GUI
        thread). pyqtgraph culls, maps and clips every spot of the item per paint, hidden ones
        too: with the overview of a 200k memory (7.5k marks shown) that was ~18 ms of each
        frame of a streamed layout. The full records are back in place when it returns."""
        data = self.data
        shown = self._few_shown()
        atlas = self.fragmentAtlas.devicePixelRatio()
        if (
            shown is None
            or self._exportOpts is not False
            or not self.opts["useCache"]
            or not self.opts["pxMode"]
            or (widget is not None and widget.devicePixelRatioF() != atlas)
        ):  # (a new pixel ratio re-renders every spot's atlas entry: the full records)
            self._sync_xy()
            super().paint(painter, option, widget)
            return
        # only the fields that paint reads: no Python objects copied (their reference counts
        # took ~1 ms of each frame at 200k)
        self.data = data[PAINTED][shown]
        try:
            super().paint(painter, option, widget)
        finally:
            self.data = data

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
        row = self.row_at(ev.pos())
        if ev.double():
            self.node_double_clicked.emit(row)
        else:
            self.node_clicked.emit(row, ev.modifiers())

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


EdgeStyle = bool | int
"""``True`` hierarchy edges, ``False`` relation edges (or merged lines of one edge), ``2``-``4``
merged relation lines carrying more edges, drawn wider."""
STYLES: tuple[EdgeStyle, ...] = (True, False, 2, 3, 4)
EdgeLines = dict[EdgeStyle, tuple[np.ndarray, np.ndarray]]
"""Per style, the x and y arrays of its segments' ends (``connect='pairs'``)."""


def edge_lines(scene: GraphScene, visible: np.ndarray | None) -> EdgeLines:
    """The segments of ``scene``'s edges (only between ``visible`` rows, unless None); a
    hierarchy pair linked twice (``contains`` and its ``semantic_contains`` twin) is drawn
    once. Any thread: a big reload makes them off the GUI thread."""
    tree = scene.edge_rows(True, visible)
    if len(tree):
        low, high = np.minimum(tree[:, 0], tree[:, 1]), np.maximum(tree[:, 0], tree[:, 1])
        tree = np.unique(np.stack([low, high], axis=1), axis=0)
    return {True: scene.edge_xy(tree), False: scene.edge_xy(scene.edge_rows(False, visible))}


def width_class(counts: np.ndarray) -> np.ndarray:
    """The style of merged lines carrying ``counts`` edges: 1 edge ``False``-like (1), 2-4
    edges 2, 5-19 edges 3, 20 and more 4."""
    return np.select([counts >= 20, counts >= 5, counts >= 2], [4, 3, 2], 1)


def merged_lines(scene: GraphScene, pairs: np.ndarray, counts: np.ndarray) -> EdgeLines:
    """The segments of merged overview lines (row ``pairs``), by width class of ``counts``."""
    widths = width_class(counts)
    lines: EdgeLines = {True: (np.zeros(0), np.zeros(0))}
    for style, width in ((False, 1), (2, 2), (3, 3), (4, 4)):
        lines[style] = scene.edge_xy(pairs[widths == width])
    return lines


class EdgeLayer:
    """Hierarchy and relation edges: per style, cached ``PlotCurveItem`` chunks (``connect=
    'pairs'``) of at most ``CHUNK`` segments each.

    A big edge set is drawn a chunk per frame when it is (re)built or comes back after a zoom:
    a first paint of 150k segments is one ~60 ms frame (building the path, stroking it), while a
    chunk is ~5 ms, so the window keeps painting while the edges fill in (~0.2 s at 50k). Once
    drawn, every chunk is a cached pixmap for pan and highlight.
    """

    CHUNK = 16_000
    REVEAL_MS = 16  # a chunk per frame

    def __init__(self, view: pg.ViewBox) -> None:
        self._view = view
        self.chunks: dict[EdgeStyle, list[pg.PlotCurveItem]] = {style: [] for style in STYLES}
        self.wanted = {True: True, False: True}  # hierarchy, relations (every relation style)
        self.suspended = False
        self.cached = True
        self.moving = False  # hairlines, no cache (see ``set_moving``)
        self.opacity = 1.0
        self.filling = False  # True while the chunks are revealed a frame at a time
        self.revealed = 0  # while filling, the chunks on screen (over both styles, in order)
        self._reveal = QtCore.QTimer(singleShot=True, interval=self.REVEAL_MS)
        self._reveal.timeout.connect(self._reveal_next)
        for style in STYLES:
            self._chunk(style, 0)

    def _chunk(self, style: EdgeStyle, index: int) -> pg.PlotCurveItem:
        """Chunk ``index`` of ``style``, made on first need."""
        chunks = self.chunks[style]
        while len(chunks) <= index:
            pen = hairline_pen(style) if self.moving else edge_pen(style)
            item = pg.PlotCurveItem(pen=pen, connect="pairs", skipFiniteCheck=True)
            item.setZValue(0)
            item.setCacheMode(CACHE if self.cached else NO_CACHE)
            item.setOpacity(self.opacity)
            self._view.addItem(item, ignoreBounds=True)
            chunks.append(item)
        return chunks[index]

    def rebuild(
        self, scene: GraphScene, visible: np.ndarray | None, lines: EdgeLines | None = None
    ) -> None:
        """Recompute every chunk's line coordinates from the scene's positions (``lines``:
        ``edge_lines(scene, visible)`` if already made). Edges already on screen stay (a drag,
        a topology change); after ``gradual()`` they fill in a chunk per frame."""
        lines = edge_lines(scene, visible) if lines is None else lines
        for style in STYLES:
            x, y = lines.get(style, (np.zeros(0), np.zeros(0)))
            step = 2 * self.CHUNK
            count = max(1, -(-len(x) // step))
            for index in range(count):
                part = slice(index * step, (index + 1) * step)
                self._chunk(style, index).setData(
                    x=x[part], y=y[part], connect="pairs", skipFiniteCheck=True
                )
            for item in self.chunks[style][count:]:
                item.setData(x=np.zeros(0), y=np.zeros(0), connect="pairs", skipFiniteCheck=True)
        self._apply()

    def gradual(self) -> None:
        """Draw the edges anew a chunk per frame (a new picture; back after a zoom); up to
        ``CHUNK`` segments are drawn at once."""
        if self.count() <= self.CHUNK:
            self.filling = False
            self._apply()
            return
        self.filling, self.revealed = True, 0
        self._apply()
        self._reveal.start()

    def stop(self) -> None:
        """Stop filling in (the view is going away): what is drawn stays."""
        self._reveal.stop()
        self.filling = False

    def _reveal_next(self) -> None:
        self.revealed += 1
        self.filling = self.revealed < len(self._order())
        self._apply()
        if self.filling:
            self._reveal.start()

    def _order(self) -> list[pg.PlotCurveItem]:
        """Chunks holding segments, in the order they are revealed (hierarchy first)."""
        return [item for style in STYLES for item in self.chunks[style] if _loaded(item)]

    def count(self) -> int:
        """How many edge segments (merged lines) are loaded."""
        return sum(_loaded(item) for item in self._items())

    def segments(self, hierarchy: bool) -> int:
        """How many hierarchy segments, or relation segments of any width, are loaded."""
        return sum(_loaded(item) for item in self._items() if self._kind(item) is hierarchy)

    def drawn(self, hierarchy: bool) -> bool:
        """True when the hierarchy (or relation) segments are on screen (every chunk holding
        any)."""
        return all(
            item.isVisible()
            for item in self._items()
            if _loaded(item) and self._kind(item) is hierarchy
        )

    def _kind(self, item: pg.PlotCurveItem) -> bool:
        """True for a hierarchy chunk."""
        return item in self.chunks[True]

    def set_wanted(self, hierarchy: bool, shown: bool) -> None:
        """The user's toggle for one style."""
        self.wanted[hierarchy] = shown
        self._apply()

    def suspend(self, hidden: bool) -> None:
        """Hide every edge for a while (zooming or a streaming layout on a big graph); they
        come back a chunk per frame."""
        was, self.suspended = self.suspended, hidden
        if was and not hidden:
            self.gradual()
        else:
            self._apply()

    def set_cached(self, cached: bool) -> None:
        """Device-coordinate cache on (pan, highlight) or off (zoom re-rasterises it)."""
        self.cached = cached
        for item in self._items():
            item.setCacheMode(CACHE if cached else NO_CACHE)

    def set_moving(self, moving: bool) -> None:
        """While the nodes move (a layout streams, a zoom): no cache (redrawn every frame, it
        would be painted twice) and every line a hairline; at rest, cached, each merged line
        as wide as its count's class."""
        if moving == self.moving:
            return
        self.moving = moving
        self.set_cached(not moving)
        for style in STYLES:
            pen = hairline_pen(style) if moving else edge_pen(style)
            for item in self.chunks[style]:
                item.setPen(pen)

    def set_opacity(self, opacity: float) -> None:
        self.opacity = opacity
        for item in self._items():
            item.setOpacity(opacity)

    def _items(self) -> list[pg.PlotCurveItem]:
        return [item for style in STYLES for item in self.chunks[style]]

    def _apply(self) -> None:
        order = {id(item): rank for rank, item in enumerate(self._order())}
        for style in STYLES:
            wanted = self.wanted[style is True]
            for item in self.chunks[style]:
                rank = order.get(id(item))
                shown = rank is not None and (not self.filling or rank < self.revealed)
                item.setVisible(shown and wanted and not self.suspended)


def _loaded(item: pg.PlotCurveItem) -> int:
    """Segments in ``item``."""
    return 0 if item.xData is None else len(item.xData) // 2

"""``GraphCanvas``: the drawing half of ``GraphView`` (a mixin): the pyqtgraph items, fit,
moving points in place, the caches while zooming or moving, labels and the legend.

Design §8: full-viewport updates; edges and nodes device-cached for pan and highlight, uncached
while they move or the view zooms (big edge sets hide while zooming); positions written in
place; labels only when zoomed in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from memgraph_gui.app.nuggets_desk import is_note, note_label, note_tip
from memgraph_gui.app.settings import load_legend_collapsed, save_legend_collapsed
from memgraph_gui.views.graph.items import EdgeLayer, NodeScatter
from memgraph_gui.views.graph.labels import (
    LABEL_LIMIT,
    OVERVIEW_LABELS,
    HoverTitle,
    LabelLayer,
    label_width,
    short_label,
)
from memgraph_gui.views.graph.legend import GraphLegend
from memgraph_gui.views.graph.overlays import InjectionOverlay, SelectionOverlay
from memgraph_gui.views.graph.palette import BACKGROUND
from memgraph_gui.views.graph.recall_marks import RecallLabMarks
from memgraph_gui.views.graph.retrieval_marks import RetrievalMarks
from memgraph_gui.views.graph.scene import GraphScene
from memgraph_gui.views.qt import Qt, QtCore, QtWidgets, Signal, is_alive, pg, tr

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.app.layout_job import LayoutJob
    from memgraph_gui.views.graph.folding import Folded
    from memgraph_gui.views.qt import QTimer

HUB_CUE = 20  # a label says "+N links" when the overview leaves out at least this many
EDGE_LIVE_LIMIT = 20_000  # above this many edges, edges hide while zooming or streaming
LOD_NODES = 15_000  # above this many nodes, a streaming layout draws only this many
FIT_MARGIN_PX = 16.0  # around the fitted nodes: the biggest spot's radius and a little air
LEGEND_GAP_PX = 14.0  # between the legend and the nearest fitted node's centre (a big
# spot's radius; a label's half height is less)
LABEL_ROOM_SHARE = 0.25
"""The most of the view's width a fit leaves right of the nodes for their labels: at 1024×700
the overview's ~300 px labels left the picture ~100 px wide (labels keep inside the view)."""


def lod_mask(scene: GraphScene) -> np.ndarray:
    """A stable subset of ``LOD_NODES`` rows: the best-connected fifth, then a fixed random
    sample, so the animated picture keeps its shape at under a third of the paint cost."""
    keep = np.zeros(scene.n, dtype=bool)
    hubs = LOD_NODES // 5
    keep[np.argsort(-scene.degree, kind="stable")[:hubs]] = True
    rest = np.flatnonzero(~keep)
    pick = np.random.default_rng(0).choice(len(rest), min(len(rest), LOD_NODES - hubs), False)
    keep[rest[pick]] = True
    return keep


class GraphBox(pg.ViewBox):  # type: ignore[misc]
    """The graph's view box: a right-click anywhere (on a node or the background) asks for a
    context menu with ``context_requested(view_point, screen_point)``."""

    context_requested = Signal(object, object)

    def mouseClickEvent(self, ev: Any) -> None:
        if ev.button() == Qt.MouseButton.RightButton:
            ev.accept()
            self.context_requested.emit(self.mapSceneToView(ev.scenePos()), ev.screenPos())
            return
        super().mouseClickEvent(ev)


class GraphCanvas:
    """Items and drawing state; mixed into ``GraphView`` (GUI thread only)."""

    _app: AppModel
    scene: GraphScene | None
    visible: np.ndarray
    search_mask: np.ndarray | None
    folded: Folded | None
    hovered_id: str | None
    layout_job: LayoutJob
    _label_timer: QTimer
    _zoom_timer: QTimer
    _last_size: tuple[float, float] | None
    _fitting: bool
    _fitted: bool  # the view shows its last fit (nothing zoomed or panned since)
    _box_px: tuple[float, float]  # the view box's size at the last range change
    _moving: set[str]
    shut_down: bool
    _found_cache: tuple[np.ndarray, Folded, np.ndarray] | None = None  # a find's, per fold

    def _title_of(self, node_id: str) -> str:
        scene = self.scene
        if scene is not None and scene.titles:  # an open-time preview: the store is not in yet
            row = scene.index.get(node_id, -1)
            return (scene.titles[row] or node_id) if row >= 0 else node_id
        node = self._app.node(node_id)
        return node.title or node_id if node is not None else node_id

    def _hover_of(self, node_id: str) -> str:
        """What the hovered node shows: its whole title, and for a Nuggets note what kind,
        nugget and scope / type it is (``fact · astra · user / preference · …``)."""
        text = self._title_of(node_id)
        node = self._app.node(node_id)
        tip = note_tip(node) if node is not None else ""
        return f"{text} — {tip}" if tip else text

    def _untitled(self, type_id: str) -> bool:
        """Whether nodes of ``type_id`` have no title column (their text is their summary)."""
        spec = self._app.schema().get(type_id)
        return spec is not None and "title" not in spec.columns

    def _build_canvas(self) -> pg.GraphicsView:
        """Create the plot widget and every item; returns the widget to lay out."""
        self.plot = pg.GraphicsView(background=BACKGROUND)
        self.plot.setViewportUpdateMode(
            QtWidgets.QGraphicsView.ViewportUpdateMode.FullViewportUpdate
        )
        self.view = GraphBox(lockAspect=True, enableMenu=False)
        self.plot.setCentralItem(self.view)
        self.edges = EdgeLayer(self.view)
        self.nodes = NodeScatter()
        self.nodes.setZValue(10)
        self.view.addItem(self.nodes)
        self.injection = InjectionOverlay(self.view, self._drawn_sizes)
        self.selection = SelectionOverlay(self.view, self._drawn_sizes)
        self.retrieval_marks = RetrievalMarks(self.view, self._drawn_sizes)  # (the lens's)
        self.recall_marks = RecallLabMarks(self.view, self._drawn_sizes)  # (the Recall lab's)
        self.labels = LabelLayer(self.view, self._label_of)
        self.hover_title = HoverTitle(self.view, lambda row: float(self._reach()[row]))
        self.legend = GraphLegend(self.plot, collapsed=load_legend_collapsed())
        self.legend.toggled.connect(self._on_legend_toggled)
        return self.plot

    def fit(self) -> None:
        """Fit the visible nodes in the view, with room for the labels of the nodes at the
        right edge (at most ``LABEL_ROOM_SHARE`` of the width: the labels keep inside the
        view themselves) and none of them under the legend (beside it or above it, whichever
        draws the picture bigger)."""
        if self.scene is None or not self.scene.n:
            return
        box = self.view.sceneBoundingRect()
        ranges = self._fit_ranges(box.width(), box.height())
        self._fitting = True  # one jump, not a zoom gesture: edges stay drawn
        try:
            self.view.setRange(xRange=ranges[0], yRange=ranges[1], padding=0)
        finally:
            self._fitting = False
        self._fitted, self._box_px = True, (box.width(), box.height())

    def _on_box_resized(self, *_args: object) -> None:
        """A fitted picture is fitted again to the new size (docks moved, window resized):
        its margins for the legend and the labels are in pixels."""
        if self._fitted and not self.shut_down:
            self.fit()

    def _fit_ranges(
        self, width: float, height: float
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        """The x and y ranges that fit the visible nodes into a view box of ``width`` by
        ``height`` pixels, leaving the margins ``fit`` promises."""
        scene = self.scene
        assert scene is not None
        mask = self.visible if self.visible.any() else None
        x0, y0, x1, y1 = scene.bounds(mask)
        if width < 4 * FIT_MARGIN_PX or height < 4 * FIT_MARGIN_PX:  # not laid out yet
            pad = max(x1 - x0, y1 - y0) * 0.04 + 1e-3
            return (x0 - pad, x1 + pad), (y0 - pad, y1 + pad)
        dx, dy = max(x1 - x0, 1e-3), max(y1 - y0, 1e-3)
        left_x, top_y = (x0 + x1 - dx) / 2, (y0 + y1 + dy) / 2  # the content's top left
        labels = self._fit_labels(mask)
        m = FIT_MARGIN_PX
        room = [(m, m, m)]  # (left, top, bottom) margins in pixels
        legend = self._legend_rect()
        if legend is not None:
            room = [
                (legend.right() + LEGEND_GAP_PX, m, m),  # beside the legend
                (m, m, height - legend.top() + LEGEND_GAP_PX),  # above it
            ]
        best: tuple[float, float, float, float, float] | None = None
        for left, top, bottom in room:
            right = m
            for _ in range(3):  # the labels' overhang depends on the scale, a little
                scale = min((width - left - right) / dx, (height - top - bottom) / dy)
                if scale <= 0:
                    break
                overhang = max(((x - left_x) * scale + w for x, w in labels), default=0.0)
                need = min(max(m, overhang - dx * scale + m), width * LABEL_ROOM_SHARE)
                if need <= right + 0.5:
                    break
                right = need
            scale = min((width - left - right) / dx, (height - top - bottom) / dy)
            if scale > 0 and (best is None or scale > best[0]):
                best = (scale, left, right, top, bottom)
        if best is None:
            pad = max(x1 - x0, y1 - y0) * 0.04 + 1e-3
            return (x0 - pad, x1 + pad), (y0 - pad, y1 + pad)
        scale, left, right, top, bottom = best
        start_x = left + (width - left - right - dx * scale) / 2  # centred in the room left
        start_y = top + (height - top - bottom - dy * scale) / 2
        vx0 = left_x - start_x / scale
        vy1 = top_y + start_y / scale  # y grows upwards: the top edge is the largest y
        return (vx0, vx0 + width / scale), (vy1 - height / scale, vy1)

    def _fit_labels(self, mask: np.ndarray | None) -> list[tuple[float, float]]:
        """``(x, label width in pixels)`` of the rows a fitted view labels (as
        ``LabelLayer.refresh`` picks them: the heaviest of an overview, else all when at most
        ``LABEL_LIMIT``)."""
        scene = self.scene
        assert scene is not None
        rows = np.flatnonzero(mask) if mask is not None else np.arange(scene.n)
        folded = self.folded
        if folded is not None and folded.active:  # an overview labels its heaviest only
            held = folded.cut.held
            rows = rows[np.argsort(-held[rows], kind="stable")[:OVERVIEW_LABELS]]
            rows = rows[held[rows] > 1]
        elif len(rows) > LABEL_LIMIT:
            return []
        font, reach = self.labels.font, self._reach()
        return [
            (float(scene.pos[r, 0]), label_width(font, self._label_of(scene.ids[r]), reach[r]))
            for r in rows.tolist()
        ]

    def _drawn_sizes(self) -> np.ndarray:
        """The nodes' drawn sizes in pixels (a folded rollup's is bigger than its own)."""
        return np.asarray(self.nodes.data["size"], dtype=float)

    def _reach(self) -> np.ndarray:
        """Per row, pixels from its node's centre to the outer edge of its marks (or of the
        node, unmarked): where its label may start."""
        scene = self.scene
        assert scene is not None
        sizes = self._drawn_sizes()
        if len(sizes) != scene.n:
            sizes = scene.sizes.astype(float)
        marks = np.maximum(self.injection.reach(scene.n), self.selection.reach(scene.n))
        marks = np.maximum(marks, self.recall_marks.reach(scene.n))
        reach: np.ndarray = sizes / 2 + marks
        return reach

    def _legend_rect(self) -> QtCore.QRectF | None:
        """The legend's rectangle in the view box's pixels (None when hidden)."""
        legend = self.legend
        if not legend.isVisible():
            return None
        geo = legend.geometry()  # in the plot widget; the viewport has no frame
        corner = self.plot.mapToScene(self.plot.viewport().mapFrom(self.plot, geo.topLeft()))
        box = self.view.sceneBoundingRect()
        return QtCore.QRectF(corner - box.topLeft(), QtCore.QSizeF(geo.size()))

    def whole_in_view(self) -> bool:
        """Whether every visible node is inside the view (nothing panned or zoomed away)."""
        if self.scene is None or not self.scene.n:
            return True
        x0, y0, x1, y1 = self.scene.bounds(self.visible if self.visible.any() else None)
        rect = self.view.viewRect()  # top() is the smaller y
        inside_x = rect.left() <= x0 and x1 <= rect.right()
        return bool(inside_x and rect.top() <= y0 and y1 <= rect.bottom())

    def _legend_types(self) -> None:
        scene = self.scene
        assert scene is not None
        counts = scene.type_counts()
        shown = sorted(counts, key=lambda t: (-counts[t], t))
        self.legend.set_types(shown[:8])
        self._place_legend()

    def _place_legend(self) -> None:
        self.legend.set_room(self.plot.height() - 20)  # two columns when one does not fit
        self.legend.move(10, max(0, self.plot.height() - self.legend.height() - 10))

    def _on_legend_toggled(self, collapsed: bool) -> None:
        """Remember the legend's state; a fitted picture is fitted again around it."""
        whole = self.whole_in_view()
        save_legend_collapsed(collapsed)
        self._place_legend()
        if whole:
            self.fit()
        self._label_timer.start()

    def _faded(self) -> np.ndarray | None:
        """Rows a search fades (None when no search is on); a folded rollup holding a match
        is not faded."""
        mask = self.search_mask
        if mask is None:
            return None
        folded = self.folded
        if folded is not None and folded.active and len(folded.cut.rep) == len(mask):
            reps = folded.cut.rep[mask]
            mask = mask.copy()
            mask[reps[reps >= 0]] = True
        return ~mask

    def _positions_moved(self, *, edges: bool) -> None:
        """Push the scene's positions into every item (in place)."""
        scene = self.scene
        assert scene is not None
        self.nodes.move_in_place()
        self.injection.follow(scene)
        self.selection.follow(scene)
        self.retrieval_marks.follow(scene)
        self.recall_marks.follow(scene)
        self.labels.follow(scene)
        self.hover_title.follow(scene)
        if edges:
            self.edges.rebuild(scene, None if self.visible.all() else self.visible)

    def _on_range_changed(self, *_args: object) -> None:
        box = self.view.sceneBoundingRect()
        px = (box.width(), box.height())
        if not self._fitting and px == self._box_px:  # zoomed or panned, not resized
            self._fitted = False
        self._box_px = px
        (x0, x1), (y0, y1) = self.view.viewRange()
        size, last = (x1 - x0, y1 - y0), self._last_size
        zoomed = last is not None and abs(size[0] - last[0]) > 1e-6 * max(abs(last[0]), 1e-12)
        if zoomed and not self._fitting:
            self._zooming(True)
        self._last_size = size
        self._label_timer.start()

    def _set_moving(self, reason: str, on: bool) -> None:
        """Node and edge caches off, and the lines hairlines, while anything moves the nodes
        or zooms; back when all stopped (a cache redrawn every frame is painted twice, and wide
        lines are slow to stroke: a 50k overview's layout frame took ~20 ms, now ~10)."""
        if on:
            self._moving.add(reason)
        else:
            self._moving.discard(reason)
        self.nodes.set_cached(not self._moving)
        self.edges.set_moving(bool(self._moving))

    def _animating(self, on: bool) -> None:
        """A layout is moving the nodes: no node cache, and when many are shown (not the
        overview's few thousand marks) a stable subset of them drawn (level of detail) until
        it ends."""
        scene = self.scene
        if scene is None or on == ("layout" in self._moving):
            return
        self._set_moving("layout", on)
        thin = on and int(np.count_nonzero(self.visible)) > LOD_NODES
        self.nodes.set_visible_rows(self.visible & lod_mask(scene) if thin else self.visible)

    def _zooming(self, on: bool) -> None:
        big = self.scene is not None and len(self.scene.edges) > EDGE_LIVE_LIMIT
        self._set_moving("zoom", on)
        if big and not self.layout_job.running:  # a streaming layout keeps them hidden itself
            self.edges.suspend(on)
        if on:
            self._zoom_timer.start()

    def _on_zoom_settled(self) -> None:
        self._zooming(False)

    def _on_labels_due(self) -> None:
        torn = not (is_alive(self.plot) and is_alive(self.view) and is_alive(self.legend))
        if self.shut_down or torn or not self.plot.isVisible() or self.view.scene() is None:
            return  # due for a view closed or being torn down (labels come back when shown)
        folded, scene = self.folded, self.scene
        weight = None if folded is None or not folded.active else folded.cut.held
        first = reach = None
        if scene is not None and weight is not None:
            first = scene.rows(sorted(self._app.selection.ids | {self.hovered_id or ""}))
        if scene is not None and scene.n:
            self.injection.crowd(scene)  # light marks when thousands are in view
            reach = self._reach()
        self.labels.refresh(
            scene,
            self.visible,
            weight,
            first,
            self._faded(),
            self._under_legend(),
            reach,
            self._marks_kept_clear(),
        )

    def _marks_kept_clear(self) -> np.ndarray:
        """Rows whose marks no overview label covers: the recall picks (the live highlight)
        and the selection, and every injection mark unless they crowd the view."""
        rings = self.injection.rings
        keys = ("recall",) if self.injection.crowded else ("recall", "always", "visible")
        parts = [rings[k].rows for k in keys]
        parts += [self.selection.selected.rows, self.selection.current.rows]
        return np.unique(np.concatenate(parts)).astype(np.int64)

    def _under_legend(self) -> tuple[float, float, float, float] | None:
        """The view rectangle where a label would draw under the legend: left of its right
        edge (labels run rightwards) and within its height, half a label more each way."""
        legend = self._legend_rect()
        if legend is None:
            return None
        box = self.view.sceneBoundingRect()
        half = self.labels.line_height() / 2
        top = self.view.mapSceneToView(box.topLeft() + QtCore.QPointF(0, legend.top() - half))
        low = legend.bottom() + half
        corner = self.view.mapSceneToView(box.topLeft() + QtCore.QPointF(legend.right(), low))
        return (-np.inf, float(corner.y()), float(corner.x()) + 1e-12, float(top.y()))

    def _label_of(self, node_id: str) -> str:
        """A node's label: the summary of a rollup (its title is a number) or of a node whose
        type has no title column (Luker titles its events "Summary N"), a Nuggets fact's key
        with its value (``note_label``), how many memories a
        folded one holds, and how many links the overview leaves out ("+N links")."""
        text = self._title_of(node_id)
        scene, folded = self.scene, self.folded
        if scene is None or scene.titles:  # an open-time preview: titles only
            return short_label(text)
        node = self._app.node(node_id)
        if node is not None and is_note(node):
            text = note_label(node)  # a fact's value after its key
        elif node is not None and (node.semantic_rollup or self._untitled(node.type)):
            summary = " ".join(str(node.fields.get("summary", "")).split())
            text = summary or text
        text = short_label(text)
        row = scene.index.get(node_id, -1)
        if folded is None or not folded.active or row < 0:
            return text
        extra = []
        if folded.cut.held[row] > 1 and node is not None and node.semantic_rollup:
            extra.append(tr("{count} memories").format(count=f"{folded.cut.held[row]:,}"))
            extra.extend(self._held_marks(row))
        if folded.kept.left_out[row] >= HUB_CUE:  # a hub whose links the overview leaves out
            extra.append(tr("+{count} links").format(count=f"{folded.kept.left_out[row]:,}"))
        return text if not extra else f"{text} · {' · '.join(extra)}"

    def _held_marks(self, row: int) -> list[str]:
        """What the folded ``row`` holds that is marked: how many members are injected, by
        role ("◆ 3 ★ 1 ○ 12", the legend's and the timeline's badges), selected and found by
        the find."""
        parts = []
        held = self.injection.held
        badges = [
            f"{s.badge} {held[s.key][row]:,}"
            for s in self.injection.styles
            if len(held[s.key]) > row and held[s.key][row]
        ]
        if badges:
            parts.append(" ".join(badges))
        chosen = self.selection.held
        if len(chosen) > row and chosen[row]:
            parts.append(tr("{count} selected").format(count=f"{chosen[row]:,}"))
        found = self._found_held()
        if len(found) > row and found[row]:
            parts.append(tr("{count} found").format(count=f"{found[row]:,}"))
        return parts

    def _found_held(self) -> np.ndarray:
        """Per shown row, how many of the rows it stands for the find finds (empty: no find
        or not folded); made once per find and fold."""
        mask, folded = self.search_mask, self.folded
        if mask is None or folded is None or not folded.active or len(mask) != len(folded.cut.rep):
            return np.zeros(0, dtype=np.int64)
        cached = self._found_cache
        if cached is None or cached[0] is not mask or cached[1] is not folded:
            reps = folded.cut.rep[mask]
            counts = np.bincount(reps[reps >= 0], minlength=len(mask))
            cached = self._found_cache = (mask, folded, counts)
        return cached[2]

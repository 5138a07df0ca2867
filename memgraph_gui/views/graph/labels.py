"""Node titles, drawn only when zoomed in and only for the nodes in view, and the hover title.

"Zoomed in" means at most ``LABEL_LIMIT`` visible nodes fall inside the view rectangle, so there
are never more than a few hundred ``TextItem``s; they come from a pool and are reused. A label
that would draw under the legend is not shown, and a find fades the labels of the nodes it does
not find. Titles are plain text (``TextItem.setText`` uses ``setPlainText``) and elided.

Labels are drawn over the nodes and their marks, on a translucent card, so they read over a
dense picture; each starts just past its own node's mark, and never takes the pointer (a click
on a label reaches the node under it). An overview's labels keep clear of the recall picks'
marks and stay inside the view.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from memgraph_gui.views.graph.palette import LABEL_COLOR
from memgraph_gui.views.graph.scene import GraphScene
from memgraph_gui.views.qt import QFont, QtCore, QtGui, pg

LABEL_LIMIT = 250
OVERVIEW_LABELS = 40  # labels of an overview: the heaviest nodes in view that do not overlap
MAX_CHARS = 36
HOVER_CHARS = 120  # the hover title: the whole title, unless it is very long
GAP_PX = 4  # between a node's mark (or the node, unmarked) and its label
TEXT_MARGIN_PX = 8  # a TextItem's document margins, both sides together
LABEL_FILL = (251, 251, 253, 205)
LABEL_Z = 35  # over the nodes (10), the injection marks (20-24) and the selection (30, 31)
HOVER_FILL = (255, 255, 255, 245)
FADED_LABEL = 0.25  # a label's opacity when a find does not find its node


def label_width(font: QFont, text: str, reach: float = 0.0) -> float:
    """How far a label of ``text`` in ``font`` reaches right of the centre of its node, whose
    mark (or itself) reaches ``reach`` pixels from its centre, in pixels."""
    advance = QtGui.QFontMetrics(font).horizontalAdvance(text)
    return float(reach + GAP_PX + advance + TEXT_MARGIN_PX)


class LabelLayer:
    """A pool of ``TextItem``s placed next to the nodes in view; ``title_of(id)`` gives each
    label's whole text (one line, short)."""

    def __init__(self, view: pg.ViewBox, title_of: Callable[[str], str]) -> None:
        self._view = view
        self._title_of = title_of
        self._pool: list[pg.TextItem] = []
        self.rows = np.zeros(0, dtype=np.int64)
        self._font = QFont()
        self._font.setPointSizeF(8.5)
        for _ in range(OVERVIEW_LABELS):  # made once, hidden: a first overview does not wait
            item = self._new_item()  # for them (~0.5 ms each)
            item.setVisible(False)
            self._pool.append(item)

    @property
    def font(self) -> QFont:
        return self._font

    def line_height(self) -> float:
        """A label's height in pixels."""
        return float(QtGui.QFontMetrics(self._font).height() + TEXT_MARGIN_PX)

    def refresh(
        self,
        scene: GraphScene | None,
        visible: np.ndarray,
        weight: np.ndarray | None = None,
        first: np.ndarray | None = None,
        faded: np.ndarray | None = None,
        hidden: tuple[float, float, float, float] | None = None,
        reach: np.ndarray | None = None,
        reserved: np.ndarray | None = None,
    ) -> None:
        """Label the visible nodes in view: every one when there are at most ``LABEL_LIMIT``;
        in an overview (``weight``: what each row holds), the rows ``first`` (selected,
        hovered, picked by recall) then the heaviest, each only where it overlaps no label
        placed before it, no mark of the rows ``reserved`` (the marks to keep clear) and reaches out
        of no side of the view, ``OVERVIEW_LABELS`` at most. Rows ``faded`` (a find's misses)
        get faded labels; none is shown for a node inside ``hidden`` (``x0, y0, x1, y1``:
        under the legend). ``reach``: per row, pixels from its centre to the outer edge of
        its mark (or of itself); each label starts ``GAP_PX`` past it."""
        if scene is None or not scene.n:
            self._show(scene, np.zeros(0, dtype=np.int64))
            return
        if reach is None or len(reach) != scene.n:
            reach = scene.sizes / 2.0
        (x0, x1), (y0, y1) = self._view.viewRange()
        inside = np.flatnonzero(scene.in_rect(x0, y0, x1, y1) & visible)
        if hidden is not None and len(inside):
            inside = inside[~scene.in_rect(*hidden)[inside]]
        if weight is not None:
            heaviest = np.argsort(-weight[inside], kind="stable")[: 3 * OVERVIEW_LABELS]
            none = np.zeros(0, dtype=np.int64)
            mine = none if first is None else first[np.isin(first, inside)]
            spare = none if reserved is None else reserved
            picks = spare[np.isin(spare, inside)]
            ahead = np.concatenate([mine, picks[~np.isin(picks, mine)]])
            ranked = np.concatenate([ahead, inside[heaviest][~np.isin(inside[heaviest], ahead)]])
            rows = self._uncrowded(scene, ranked, (x0, x1, y0, y1), reach, mine, spare)
        elif len(inside) <= LABEL_LIMIT:
            rows = inside
        else:
            rows = inside[:0]
        self._show(scene, rows, faded, reach)

    def _uncrowded(
        self,
        scene: GraphScene,
        ranked: np.ndarray,
        box: tuple[float, float, float, float],
        reach: np.ndarray,
        first: np.ndarray,
        reserved: np.ndarray,
    ) -> np.ndarray:
        """The rows of ``ranked`` whose labels fit beside the ones placed before them, clear
        of the marks of ``reserved`` rows (but their own) and inside the view (screen boxes
        measured in the labels' font; the rows ``first`` are labelled wherever they are),
        ``OVERVIEW_LABELS`` at most, in row order."""
        x0, x1, y0, y1 = box
        width, height = max(self._view.width(), 1.0), max(self._view.height(), 1.0)
        sx, sy = width / max(x1 - x0, 1e-12), height / max(y1 - y0, 1e-12)
        metrics = QtGui.QFontMetrics(self._font)
        half = (metrics.height() + TEXT_MARGIN_PX) / 2 + 3.0  # the item draws a little taller
        mx, my = (scene.pos[reserved, 0] - x0) * sx, (y1 - scene.pos[reserved, 1]) * sy
        mr = reach[reserved]
        marks = np.stack([mx - mr, my - mr, mx + mr, my + mr], axis=1)  # their screen boxes
        always = set(first.tolist())
        taken: list[tuple[float, float, float, float]] = []
        kept: list[int] = []
        for row in ranked.tolist():
            px = (scene.pos[row, 0] - x0) * sx
            py = (y1 - scene.pos[row, 1]) * sy
            start = px + reach[row] + GAP_PX
            stub = (start, py - half, start + TEXT_MARGIN_PX, py + half)  # its shortest card
            if any(_overlap(stub, other) for other in taken):
                continue  # (known before its text is made and measured)
            if row not in always and (stub[0] < 0 or stub[1] < 0 or stub[3] > height):
                continue
            text = metrics.horizontalAdvance(self._title_of(scene.ids[row]))
            rect = (start, py - half, start + text + TEXT_MARGIN_PX, py + half)
            if any(_overlap(rect, other) for other in taken):
                continue
            if row not in always:
                outside = rect[0] < 0 or rect[1] < 0 or rect[2] > width or rect[3] > height
                covers = (
                    (marks[:, 0] < rect[2])
                    & (rect[0] < marks[:, 2])
                    & (marks[:, 1] < rect[3])
                    & (rect[1] < marks[:, 3])
                    & (reserved != row)
                )
                if outside or covers.any():
                    continue
            taken.append(rect)
            kept.append(row)
            if len(kept) >= OVERVIEW_LABELS:
                break
        return np.array(sorted(kept), dtype=np.int64)

    def clear(self) -> None:
        self._show(None, np.zeros(0, dtype=np.int64))

    def follow(self, scene: GraphScene) -> None:
        """Move the shown labels to their nodes' current positions (labels of rows the scene
        no longer has, from a picture replaced since, wait for the next refresh)."""
        for item, row in zip(self._pool, self.rows, strict=False):
            if row < scene.n:
                item.setPos(float(scene.pos[row, 0]), float(scene.pos[row, 1]))

    @property
    def shown(self) -> int:
        return len(self.rows)

    def texts(self) -> list[str]:
        return [self._pool[i].textItem.toPlainText() for i in range(len(self.rows))]

    def opacities(self) -> list[float]:
        """The shown labels' opacities, in ``rows`` order (for tests)."""
        return [self._pool[i].opacity() for i in range(len(self.rows))]

    def _show(
        self,
        scene: GraphScene | None,
        rows: np.ndarray,
        faded: np.ndarray | None = None,
        reach: np.ndarray | None = None,
    ) -> None:
        while len(self._pool) < len(rows):
            self._pool.append(self._new_item())
        for i, row in enumerate(rows):
            assert scene is not None
            item = self._pool[i]
            text = self._title_of(scene.ids[row])
            if text != item.toPlainText():  # (setText re-lays the item out: ~0.4 ms)
                item.setText(text)
            item.set_gap(GAP_PX + (float(reach[row]) if reach is not None else 0.0))
            item.setPos(float(scene.pos[row, 0]), float(scene.pos[row, 1]))
            dim = faded is not None and len(faded) == scene.n and bool(faded[row])
            item.setOpacity(FADED_LABEL if dim else 1.0)
            item.setVisible(True)
        for item in self._pool[len(rows) :]:
            item.setVisible(False)
        self.rows = rows

    def _new_item(self) -> pg.TextItem:
        item = _Label(color=LABEL_COLOR, anchor=(0, 0.5), fill=pg.mkBrush(LABEL_FILL))
        item.setFont(self._font)
        item.setZValue(LABEL_Z)
        item.setAcceptedMouseButtons(pg.QtCore.Qt.MouseButton.NoButton)
        item.setAcceptHoverEvents(False)
        self._view.addItem(item, ignoreBounds=True)
        return item


class HoverTitle:
    """The hovered node's whole title, over its label, for as long as the pointer is on the
    node (a scene item: Qt's tooltip machinery hid a tooltip again as soon as the pointer
    rested on the view, since no item of the scene has a tooltip of its own). ``reach(row)``
    gives how far the node's mark reaches from its centre (the title starts past it)."""

    def __init__(self, view: pg.ViewBox, reach: Callable[[int], float] | None = None) -> None:
        self._reach = reach
        font = QFont()
        font.setPointSizeF(9.0)
        self.item = _Label(
            color=LABEL_COLOR,
            anchor=(0, 0.5),
            fill=pg.mkBrush(HOVER_FILL),
            border=pg.mkPen(0, 0, 0, 60),
        )
        self.item.setFont(font)
        self.item.setZValue(40)  # over the nodes and their marks: it is read, not clicked
        self.item.setAcceptedMouseButtons(pg.QtCore.Qt.MouseButton.NoButton)
        self.item.setAcceptHoverEvents(False)
        self.item.setVisible(False)
        view.addItem(self.item, ignoreBounds=True)
        self.row = -1

    def show(self, scene: GraphScene, row: int, title: str) -> None:
        """Show ``title`` at ``row`` (plain text, one line; elided when very long)."""
        text = " ".join(title.split())
        if len(text) > HOVER_CHARS:
            text = text[: HOVER_CHARS - 1] + "…"
        if row != self.row or self.item.toPlainText() != text:
            self.item.setText(text)
        self.row = row
        self.item.set_gap(GAP_PX + (self._reach(row) if self._reach is not None else 0.0))
        self.item.setPos(float(scene.pos[row, 0]), float(scene.pos[row, 1]))
        self.item.setVisible(True)

    def hide(self) -> None:
        self.row = -1
        self.item.setVisible(False)

    def text(self) -> str:
        """The title shown ("" when none is)."""
        return self.item.toPlainText() if self.item.isVisible() else ""

    def follow(self, scene: GraphScene) -> None:
        """Stay on the hovered node as it moves."""
        if 0 <= self.row < scene.n:
            self.item.setPos(float(scene.pos[self.row, 0]), float(scene.pos[self.row, 1]))


class _Label(pg.TextItem):  # type: ignore[misc]
    """A ``TextItem`` ``gap`` pixels right of its node's centre, whatever the text's width; it
    takes no click, hover or drag (they reach the node under it)."""

    gap = float(GAP_PX)

    def set_gap(self, gap: float) -> None:
        if gap != self.gap:
            self.gap = gap
            self.updateTextPos()

    def updateTextPos(self) -> None:
        super().updateTextPos()
        self.textItem.setPos(self.textItem.pos() + QtCore.QPointF(self.gap, 0))


def short_label(title: str) -> str:
    """``title`` on one line, at most ``MAX_CHARS`` characters (elided with "…")."""
    title = " ".join(title.split())
    return title if len(title) <= MAX_CHARS else title[: MAX_CHARS - 1] + "…"


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

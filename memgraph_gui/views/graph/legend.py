"""``GraphLegend``: a small painted key in the corner of the graph (injection styles, selection,
edge styles), collapsible to its header. Text is drawn with ``QPainter.drawText``, i.e. as plain
text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memgraph_gui.views.graph.palette import selection_color, styles
from memgraph_gui.views.qt import QColor, QFont, Qt, QtCore, QtGui, QWidget, Signal, tr
from memgraph_gui.views.theme import EDGE_HIERARCHY_COLOR, EDGE_RELATION_COLOR, type_color

ROW_H = 19
SWATCH_W = 26
PAD = 8
ROOM = 0.6
"""The share of the graph pane's height an open legend may cover (else only its header shows)."""


@dataclass(frozen=True, slots=True)
class LegendRow:
    """One key entry: a mark (``symbol`` or ``line``), its colour and its text."""

    mark: str
    color: str
    text: str


def legend_rows(types: Sequence[str] = ()) -> list[LegendRow]:
    """What the legend explains, in order: node types shown, injection, selection, edges."""
    rows = [LegendRow("type", type_color(t), type_label(t)) for t in types]
    rows += [LegendRow(s.symbol, s.color, s.label) for s in styles()]
    rows.append(LegendRow("sel", selection_color(), tr("selected")))
    rows.append(LegendRow("line", EDGE_HIERARCHY_COLOR, tr("contains (hierarchy)")))
    rows.append(LegendRow("line", EDGE_RELATION_COLOR, tr("relation")))
    return rows


def type_label(type_id: str) -> str:
    """A node type as the legend names it ("character_sheet" -> "character sheet")."""
    return type_id.replace("_", " ")


class GraphLegend(QWidget):
    """The key, painted on a translucent card. Its header row ("Legend ▾") collapses it to that
    row and expands it again (``toggled(collapsed)``), as View ▸ Legend does from the keyboard;
    the card takes the pointer (nothing is drawn under it after a fit)."""

    toggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None, *, collapsed: bool = False) -> None:
        super().__init__(parent)
        self._font = QFont()
        self._font.setPointSizeF(8.5)
        self.collapsed = collapsed
        self._key_hint = ""
        self._types: list[str] = []
        self.extra: list[LegendRow] = []
        self.room: int | None = None  # the height it may take (``set_room``)
        self.squeezed = False  # open, but shown as its header: the pane is too short for it
        self._columns, self._column_w = 1, 0
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.set_types(())

    def header_text(self) -> str:
        """The header row's text (plain): the title and the state's arrow."""
        return tr("Legend ▸") if self.collapsed or self.squeezed else tr("Legend ▾")

    def set_collapsed(self, collapsed: bool) -> None:
        """Show only the header row (``collapsed``) or the whole key; emits ``toggled``."""
        if collapsed == self.collapsed:
            return
        self.collapsed = collapsed
        self._resize()
        self.toggled.emit(collapsed)

    def set_key_hint(self, keys: QtGui.QKeySequence) -> None:
        """Name the keys that toggle the legend (View ▸ Legend) in its tooltip."""
        self._key_hint = keys.toString(QtGui.QKeySequence.SequenceFormat.NativeText)
        self._resize()

    def set_types(self, types: Sequence[str]) -> None:
        """Show these node types (those drawn) above the fixed entries."""
        self._types = list(types)
        self.rows = legend_rows(types)
        self.rows[len(self._types) + len(styles()) : len(self._types) + len(styles())] = self.extra
        self._resize()

    def set_extra(self, rows: Sequence[LegendRow]) -> None:
        """Explain these marks too, after the injection's (the Recall lab's rankings while
        it marks them; none: only the fixed entries)."""
        if list(rows) != self.extra:
            self.extra = list(rows)
            self.set_types(self._types)

    def _resize(self) -> None:
        self._pixmap: QtGui.QPixmap | None = None
        metrics = QtGui.QFontMetrics(self._font)
        head = metrics.horizontalAdvance(self.header_text()) + PAD * 2
        tip = tr("Show the legend") if self.collapsed else tr("Hide the legend")
        self.setToolTip(f"{tip} ({self._key_hint})" if self._key_hint else tip)
        tall = PAD * 2 + ROW_H * (len(self.rows) + 1)
        self._columns = 2 if self.room is not None and tall > self.room else 1
        per = -(-len(self.rows) // self._columns)
        high = PAD * 2 + ROW_H * (per + 1)
        halved = PAD * 2 + ROW_H * (-(-len(self.rows) // 2) + 1)  # its height in two columns
        self.squeezed = not self.collapsed and self.room is not None and halved > self.room * ROOM
        if self.squeezed:
            self.setToolTip(tr("No room for the legend in a graph this short: make it taller"))
        if self.collapsed or self.squeezed:
            self.setFixedSize(head, ROW_H + PAD)
        else:
            column = PAD + SWATCH_W + 6 + max(metrics.horizontalAdvance(r.text) for r in self.rows)
            self._column_w = column
            self.setFixedSize(max(column * self._columns + PAD, head), high)
        self.update()

    def set_room(self, height: int | None) -> None:
        """The height the legend may take (None: any): a key taller than that is laid out in
        two columns (a short graph pane, e.g. under the Recall lab); one that would cover more
        than ``ROOM`` of it even in two columns (at 1024×700) shows only its header
        (``squeezed``) until the pane is taller again."""
        if height != self.room:
            self.room = height
            self._resize()

    def header_rect(self) -> QtCore.QRect:
        """The header row, in this widget's coordinates (a click there toggles)."""
        return QtCore.QRect(0, 0, self.width(), ROW_H + PAD // 2)

    def mousePressEvent(self, event: QtGui.QMouseEvent) -> None:
        event.accept()  # the card is not the graph's: a press on it pans nothing

    def mouseReleaseEvent(self, event: QtGui.QMouseEvent) -> None:
        event.accept()
        if event.button() == Qt.MouseButton.LeftButton and self.header_rect().contains(
            event.position().toPoint()
        ):
            self.set_collapsed(not self.collapsed)

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        # rendered once into a pixmap: the viewport repaints (and so this child) on every frame
        ratio = self.devicePixelRatioF()
        if self._pixmap is None or self._pixmap.devicePixelRatio() != ratio:
            self._pixmap = self._render(ratio)
        painter = QtGui.QPainter(self)
        painter.drawPixmap(0, 0, self._pixmap)
        painter.end()

    def _render(self, ratio: float) -> QtGui.QPixmap:
        pixmap = QtGui.QPixmap(self.size() * ratio)
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QtGui.QPainter(pixmap)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        painter.setPen(QtGui.QPen(QColor(0, 0, 0, 40)))
        painter.setBrush(QColor(255, 255, 255, 225))
        painter.drawRoundedRect(QtCore.QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6)
        painter.setFont(self._font)
        painter.setPen(QColor("#5a6372"))
        head = QtCore.QRectF(PAD, PAD // 2, self.width() - PAD, ROW_H)
        painter.drawText(head, int(Qt.AlignmentFlag.AlignVCenter), self.header_text())
        rows = () if self.collapsed or self.squeezed else self.rows
        per = -(-len(rows) // self._columns) if rows else 1
        for i, row in enumerate(rows):
            left = (i // per) * self._column_w
            top = PAD + (i % per + 1) * ROW_H
            centre = QtCore.QPointF(left + PAD + SWATCH_W / 2, top + ROW_H / 2)
            _draw_mark(painter, row, centre)
            painter.setPen(QColor("#1d2330"))
            text_rect = QtCore.QRectF(left + PAD + SWATCH_W + 6, top, self._column_w, ROW_H)
            painter.drawText(text_rect, int(Qt.AlignmentFlag.AlignVCenter), row.text)
        painter.end()
        return pixmap


def _draw_mark(painter: QtGui.QPainter, row: LegendRow, centre: QtCore.QPointF) -> None:
    color = QColor(row.color)
    if row.mark == "type":
        painter.setPen(QtGui.QPen(QColor("#ffffff"), 1.0))
        painter.setBrush(color)
        painter.drawEllipse(centre, 5.5, 5.5)
        return
    if row.mark == "line":
        painter.setPen(QtGui.QPen(color, 2.0))
        painter.drawLine(centre + QtCore.QPointF(-11, 0), centre + QtCore.QPointF(11, 0))
        return
    from memgraph_gui.views.qt import pg

    node = QColor("#9aa4b5")
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(node)
    painter.drawEllipse(centre, 3.5, 3.5)
    fill = QColor(color)
    fill.setAlpha(0 if row.mark in ("o", "sel") else 60)
    painter.setBrush(fill)
    painter.setPen(QtGui.QPen(color, 2.0))
    symbol = "o" if row.mark == "sel" else row.mark
    path = pg.graphicsItems.ScatterPlotItem.Symbols[symbol]
    painter.save()
    painter.translate(centre)
    painter.scale(13, 13)
    pen = QtGui.QPen(color, 2.0 / 13)
    painter.setPen(pen)
    painter.drawPath(path)
    painter.restore()

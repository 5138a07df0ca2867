"""The shown node's links in and out: direction, relation, the other node; add and remove.

A click selects a row (for Remove); a double-click or Enter on a row, or "Show", emits
``node_activated(id)`` so the inspector moves to that node.
"""

from __future__ import annotations

from collections.abc import Callable

from memgraph_gui.core.domain.model import Node
from memgraph_gui.views.inspector.link_rows import LinkRow
from memgraph_gui.views.inspector.style import ERROR_COLOR, DeleteKey, dot_icon, status_label
from memgraph_gui.views.qt import QtCore, QtGui, QWidget, Signal, tr
from memgraph_gui.views.qt import QtWidgets as W
from memgraph_gui.views.theme import ARCHIVED_COLOR, type_color

Qt = QtCore.Qt
NodeLookup = Callable[[str], Node | None]
MAX_ROWS = 8
_DIRECTION_TIPS = {
    "outgoing": "this node → other",
    "incoming": "other → this node",
    "bidirectional": "both ways",
}


class LinksPanel(QWidget):
    """Table of links plus "Add link…", "Remove" and "Show"."""

    node_activated = Signal(str)
    add_requested = Signal()
    remove_requested = Signal(object)  # LinkRow

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[LinkRow] = []
        self.table = _table()
        self.add_button = W.QPushButton(tr("Add link…"))
        self.remove_button = W.QPushButton(tr("Remove"))
        self.show_button = W.QPushButton(tr("Show"))
        self.show_button.setToolTip(tr("Show the linked node (or double-click its row)"))
        self.status = status_label()
        self.empty = W.QLabel(tr("No links yet."))
        self.empty.setTextFormat(Qt.TextFormat.PlainText)
        self.empty.setEnabled(False)
        self._build()
        self.table.itemSelectionChanged.connect(self._on_selection_changed)
        self.table.itemActivated.connect(self._on_item_activated)
        self.add_button.clicked.connect(self.add_requested)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self._delete_key = DeleteKey(self.table)
        self._delete_key.pressed.connect(self._on_remove_clicked)
        self.show_button.clicked.connect(self._on_show_clicked)
        self._editable = True
        self._on_selection_changed()

    def _build(self) -> None:
        layout = W.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.table)
        layout.addWidget(self.empty)
        buttons = W.QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addStretch(1)
        buttons.addWidget(self.show_button)
        buttons.addWidget(self.remove_button)
        layout.addLayout(buttons)
        layout.addWidget(self.status)

    @property
    def rows(self) -> list[LinkRow]:
        return list(self._rows)

    def show_links(self, rows: list[LinkRow], lookup: NodeLookup) -> None:
        """Fill the table (keeps the selected link selected when it is still there)."""
        kept = self.selected_link()
        self._rows = rows
        self.table.setRowCount(len(rows))
        for index, row in enumerate(rows):
            self._fill_row(index, row, lookup(row.other_id))
        self.table.setVisible(bool(rows))
        self.empty.setVisible(not rows)
        visible = min(MAX_ROWS, max(1, len(rows)))
        height = self.table.verticalHeader().defaultSectionSize()
        header = self.table.horizontalHeader().sizeHint().height()
        self.table.setFixedHeight(visible * height + header + 2 * self.table.frameWidth())
        if kept in rows:
            self.table.selectRow(rows.index(kept))
        else:
            self.table.clearSelection()
        self._on_selection_changed()

    def _fill_row(self, index: int, row: LinkRow, other: Node | None) -> None:
        arrow = W.QTableWidgetItem(row.arrow)
        arrow.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        arrow.setToolTip(tr(_DIRECTION_TIPS[row.direction]))
        relation = W.QTableWidgetItem(row.relation)
        title = other.title if other is not None else tr("{id} (missing)").format(id=row.other_id)
        target = W.QTableWidgetItem(title)
        target.setIcon(dot_icon(type_color(other.type) if other is not None else ARCHIVED_COLOR))
        target.setToolTip(
            f"{other.type} · {other.id}\n{other.title}" if other is not None else row.other_id
        )
        if other is None or other.archived:
            font = target.font()
            font.setItalic(True)
            target.setFont(font)
            target.setForeground(QtGui.QBrush(QtGui.QColor(ARCHIVED_COLOR)))
        for column, item in enumerate((arrow, relation, target)):
            item.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
            self.table.setItem(index, column, item)

    def selected_link(self) -> LinkRow | None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        if len(rows) != 1:
            return None
        row = rows.pop()
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def select_link(self, link: LinkRow) -> None:
        self.table.selectRow(self._rows.index(link))

    def set_editable(self, editable: bool) -> None:
        self._editable = editable
        self.add_button.setEnabled(editable)
        self._on_selection_changed()

    def show_error(self, message: str) -> None:
        self.status.setStyleSheet(f"color: {ERROR_COLOR};")
        self.status.setText(message)
        self.status.setVisible(bool(message))

    @property
    def error(self) -> str:
        return self.status.text() if self.status.isVisible() else ""

    def clear_error(self) -> None:
        self.show_error("")

    # -- slots -------------------------------------------------------------------------------------
    def _on_selection_changed(self) -> None:
        chosen = self.selected_link() is not None
        self.remove_button.setEnabled(chosen and self._editable)
        self.show_button.setEnabled(chosen)

    def _on_item_activated(self, item: W.QTableWidgetItem) -> None:
        if 0 <= item.row() < len(self._rows):
            self.node_activated.emit(self._rows[item.row()].other_id)

    def _on_remove_clicked(self) -> None:
        link = self.selected_link()
        if link is not None and self._editable:
            self.remove_requested.emit(link)

    def _on_show_clicked(self) -> None:
        link = self.selected_link()
        if link is not None:
            self.node_activated.emit(link.other_id)


def _table() -> W.QTableWidget:
    table = W.QTableWidget(0, 3)
    table.setHorizontalHeaderLabels(["", tr("Relation"), tr("Node")])
    table.setSelectionBehavior(W.QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(W.QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(W.QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(22)
    table.setShowGrid(False)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    header = table.horizontalHeader()
    header.setSectionResizeMode(0, W.QHeaderView.ResizeMode.Fixed)
    header.setSectionResizeMode(1, W.QHeaderView.ResizeMode.Interactive)
    header.setSectionResizeMode(2, W.QHeaderView.ResizeMode.Stretch)
    header.setHighlightSections(False)
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    table.setColumnWidth(0, 26)
    table.setColumnWidth(1, 110)
    table.setToolTip(tr("Double-click a link to show the other node"))
    return table

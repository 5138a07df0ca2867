"""A note's own links as Nuggets stores them: the reason and the note each one points at.

A click on a row (or Enter, or "Show") emits ``note_activated(id)`` so the inspector moves to
that note. A link to a note that no longer exists (dangling: Nuggets keeps it as stored) is
shown as such, greyed, and goes nowhere.
"""

from __future__ import annotations

from memgraph_gui.app.notes import NoteLink
from memgraph_gui.views.inspector.style import dot_icon
from memgraph_gui.views.qt import QtCore, QtGui, QWidget, Signal, tr
from memgraph_gui.views.qt import QtWidgets as W
from memgraph_gui.views.theme import ARCHIVED_COLOR, type_color

Qt = QtCore.Qt
MAX_ROWS = 8


class NoteLinksPanel(QWidget):
    """The table of a note's links (reason, target)."""

    note_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._links: list[NoteLink] = []
        self.table = W.QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels([tr("Reason"), tr("Note")])
        self.table.setSelectionBehavior(W.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(W.QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(W.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, W.QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, W.QHeaderView.ResizeMode.Stretch)
        self.table.setColumnWidth(0, 80)  # reasons are short ("uses"); titles take the rest
        header.setHighlightSections(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.table.setToolTip(tr("Click a link to show the note it points at"))
        self.empty = W.QLabel(tr("No links."))
        self.empty.setTextFormat(Qt.TextFormat.PlainText)
        self.empty.setEnabled(False)
        layout = W.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.table)
        layout.addWidget(self.empty)
        self.table.itemClicked.connect(self._on_item_activated)
        self.table.itemActivated.connect(self._on_item_activated)

    @property
    def links(self) -> list[NoteLink]:
        return list(self._links)

    def show_links(self, links: list[NoteLink]) -> None:
        """Fill the table (a target's dot has its type's colour)."""
        self._links = links
        self.table.setRowCount(len(links))
        for index, link in enumerate(links):
            reason = W.QTableWidgetItem(link.reason)
            reason.setToolTip(
                tr("{reason}\nlinked {when}").format(reason=link.reason, when=link.created_at)
            )
            if link.title is None:
                target = W.QTableWidgetItem(tr("missing: {id}").format(id=link.to))
                target.setToolTip(
                    tr("No note {id} exists: the link is kept as stored (dangling).").format(
                        id=link.to
                    )
                )
                font = target.font()
                font.setItalic(True)
                target.setFont(font)
                target.setForeground(QtGui.QBrush(QtGui.QColor(ARCHIVED_COLOR)))
                target.setIcon(dot_icon(ARCHIVED_COLOR))
            else:
                target = W.QTableWidgetItem(link.title)
                target.setToolTip(f"{link.to}\n{link.title}")
                target.setIcon(dot_icon(type_color(link.type or "note")))
            for column, item in enumerate((reason, target)):
                item.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
                self.table.setItem(index, column, item)
        self.table.setVisible(bool(links))
        self.empty.setVisible(not links)
        rows = min(MAX_ROWS, max(1, len(links)))
        height = self.table.verticalHeader().defaultSectionSize()
        head = self.table.horizontalHeader().sizeHint().height()
        self.table.setFixedHeight(rows * height + head + 2 * self.table.frameWidth())

    def dangling(self) -> list[str]:
        """The targets of the links shown as missing."""
        return [link.to for link in self._links if link.title is None]

    def activate_row(self, row: int) -> None:
        """Go to row ``row``'s note (what a click does); nothing for a dangling link."""
        if 0 <= row < len(self._links) and self._links[row].title is not None:
            self.note_activated.emit(self._links[row].to)

    def _on_item_activated(self, item: W.QTableWidgetItem) -> None:
        self.activate_row(item.row())

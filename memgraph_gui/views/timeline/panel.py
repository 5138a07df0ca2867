"""``TimelinePanel``: the timeline dock's widget — filter bar over a lazy table of nodes.

Selection is shared through ``app.selection``: clicking rows selects those nodes everywhere, and
a selection made elsewhere (graph, inspector) selects and reveals the rows here. A right-click
offers to restore the archived nodes and hidden Nuggets notes selected (the graph does not draw
them, so this is where they come back).
"""

from __future__ import annotations

from memgraph_gui.app import ops
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.views.qt import (
    QAbstractItemView,
    QHeaderView,
    QItemSelection,
    QItemSelectionModel,
    QLabel,
    QMenu,
    Qt,
    QTableView,
    QtCore,
    QtGui,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    tr,
)
from memgraph_gui.views.timeline.filter_bar import FilterBar
from memgraph_gui.views.timeline.filters import TimelineFilter
from memgraph_gui.views.timeline.model import BADGE_COLUMN, TimelineTableModel

MAX_SHOWN_SELECTION = 2_000  # rows selected in the table for a bigger shared selection


class _Table(QTableView):
    """The timeline's table: "No matches" in the middle when a filter leaves no row."""

    def __init__(self) -> None:
        super().__init__()
        self.empty_note = QLabel(tr("No matches"), self.viewport())
        self.empty_note.setTextFormat(Qt.TextFormat.PlainText)
        self.empty_note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_note.setStyleSheet("color: palette(mid); font-size: 11pt;")
        self.empty_note.hide()

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        self.empty_note.setGeometry(self.viewport().rect())


class TimelinePanel(QWidget):
    """Filter bar + table; GUI thread only. While the filter hides rows a line under the bar
    says how many are shown, with a link that clears it (``filter_cleared`` then tells the
    window, whose Find box feeds the text filter)."""

    filter_cleared = Signal()

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self.model = TimelineTableModel(app)
        self.filters = FilterBar()
        self.table = _Table()
        self._setup_table()
        self.shown_note = QLabel()
        self.shown_note.setObjectName("timeline-shown")
        self.shown_note.setTextFormat(Qt.TextFormat.RichText)  # numbers and a link only
        self.shown_note.setContentsMargins(6, 1, 6, 3)
        self.shown_note.linkActivated.connect(self.clear_filter)
        self.shown_note.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.filters)
        layout.addWidget(self.shown_note)
        layout.addWidget(self.table, 1)
        self._note_timer = QTimer(self, singleShot=True, interval=0)
        self._note_timer.timeout.connect(self._show_counts)
        for signal in (self.model.modelReset, self.model.rowsRemoved, self.model.rowsInserted):
            signal.connect(self._counts_due)
        app.store_replaced.connect(self._counts_due)
        app.changes_applied.connect(self._counts_due)  # the total moves too
        self._reveal_id: str | None = None
        self._choices_timer = QTimer(self, singleShot=True, interval=300)
        self._choices_timer.timeout.connect(self.refresh_choices)
        self._resync = QTimer(self, singleShot=True, interval=0)
        self._resync.timeout.connect(self._on_resync_due)
        for done in (self.model.rowsRemoved, self.model.rowsInserted):
            done.connect(self._on_rows_changed)
        self.filters.filter_changed.connect(self._on_filter_changed)
        self.table.selectionModel().selectionChanged.connect(self._on_rows_selected)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._on_context_menu)
        app.selection.changed.connect(self._on_selection_changed)
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self.refresh_choices)
        self.refresh_choices()

    def _setup_table(self) -> None:
        table = self.table
        table.setModel(self.model)
        table.verticalHeader().setVisible(False)
        table.verticalHeader().setDefaultSectionSize(22)
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setTabKeyNavigation(False)  # Tab leaves for the next part, never moves the row
        table.setWordWrap(False)
        table.setAlternatingRowColors(True)
        header = table.horizontalHeader()
        for column, width in ((0, 52), (1, 62), (2, 128), (3, 230)):
            table.setColumnWidth(column, width)
        header.setStretchLastSection(True)
        header.setHighlightSections(False)

    def refresh_choices(self) -> None:
        """Offer the types, levels, seq bounds and nuggets present in the store. A memory of
        Nuggets notes only has no Injected column (nothing injects notes): its titles get the
        room."""
        if self._app.closed:
            return
        nuggets = self._app.nuggets()
        notes = sum(len(self._app.nugget_ids(name)) for name in nuggets)
        only_notes = bool(notes) and notes == self._app.counts().nodes
        self.table.setColumnHidden(BADGE_COLUMN, only_notes)
        types, levels, low, high = self._app.timeline_choices()
        schema_types = [spec.id for spec in self._app.schema().types]
        ordered = list(dict.fromkeys([*schema_types, *sorted(types)]))
        self.filters.set_choices(ordered, sorted(levels), (low, high), nuggets)

    def set_text_filter(self, text: str) -> None:
        """Filter by ``text`` (the window's Find box)."""
        self.filters.text.setText(text)

    def clear_filter(self, *_args: object) -> None:
        """Show every node again (the "clear filter" link)."""
        self.filters.clear()
        self.filter_cleared.emit()

    def _counts_due(self, *_args: object) -> None:
        self._note_timer.start()

    def _show_counts(self) -> None:
        """ "12 of 300 shown — clear filter" while the filter hides rows; "No matches" in the
        table when it hides them all."""
        if self._app.closed:
            return
        filtered = self.model.filter.active
        shown = self.model.rowCount()
        total = self._app.counts().nodes
        self.table.empty_note.setVisible(filtered and shown == 0)
        if not filtered:
            self.shown_note.hide()
            return
        text = tr("{shown} of {total} shown — {link}").format(
            shown=f"{shown:,}",
            total=f"{total:,}",
            link="<a href='clear'>" + tr("clear filter") + "</a>",
        )
        self.shown_note.setText(text)
        self.shown_note.show()

    def context_menu(self) -> QMenu | None:
        """The rows' context menu for the selection (None when it offers nothing): Restore
        the archived nodes and hidden notes selected, each as one undoable step (a note
        through Nuggets' ``updateNote``, see ``ops.restore_node``)."""
        shown = [self._app.node(i) for i in sorted(self._app.selection.ids)]
        archived = [n.id for n in shown if n is not None and n.archived]
        if not archived or self._app.read_only:
            return None
        menu = QMenu(self)
        text = tr("Restore {count} hidden or archived").format(count=len(archived))
        action = menu.addAction(tr("Restore") if len(archived) == 1 else text)
        action.triggered.connect(lambda: self.restore(archived))
        return menu

    def restore(self, ids: list[str]) -> None:
        """Bring the archived nodes / hidden notes ``ids`` back (one undo step each)."""
        for node_id in ids:
            ops.restore_node(self._app, node_id, initiator=self)

    def _on_context_menu(self, point: QtCore.QPoint) -> None:
        menu = self.context_menu()
        if menu is not None:
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.popup(self.table.viewport().mapToGlobal(point))

    # -- handlers ------------------------------------------------------------------------------------
    def _on_filter_changed(self, new: TimelineFilter) -> None:
        self.model.set_filter(new)
        self._show_counts()
        self._show_selection(self._app.selection.ids, self._app.selection.current)

    def _on_changes_applied(self, changes: ChangeSet, _initiator: object | None) -> None:
        if (
            changes.nodes_added
            or changes.nodes_removed
            or changes.reloaded
            or changes.schema_changed
        ):
            self._choices_timer.start()

    def _on_rows_changed(self, *_args: object) -> None:
        self._resync.start()

    def _on_resync_due(self) -> None:
        """After rows moved (an edit stamps a new seq), select the shared selection again."""
        self._show_selection(self._app.selection.ids, self._app.selection.current, reveal=False)

    def _on_rows_selected(self, _new: QItemSelection, _old: QItemSelection) -> None:
        if self.model.moving:
            return  # the table's selection follows removed rows; the shared one does not
        rows = self.table.selectionModel().selectedRows()
        if len(rows) > MAX_SHOWN_SELECTION:
            rows = rows[:MAX_SHOWN_SELECTION]
        ids = [self.model.node_id(index.row()) for index in rows]
        current = self.table.selectionModel().currentIndex()
        current_id = self.model.node_id(current.row()) if current.isValid() else None
        if current_id not in ids:
            current_id = ids[0] if ids else None
        self._app.selection.select(ids, current=current_id, source=self)

    def _on_selection_changed(
        self, ids: frozenset[str], current: str | None, source: object | None
    ) -> None:
        if source is not self:
            self._show_selection(ids, current)

    def _show_selection(
        self, ids: frozenset[str], current: str | None, *, reveal: bool = True
    ) -> None:
        selection = QItemSelection()
        rows = self._rows(ids)
        last = self.model.columnCount() - 1
        for row in rows:
            selection.select(self.model.index(row, 0), self.model.index(row, last))
        model = self.table.selectionModel()
        model.blockSignals(True)
        flags = QItemSelectionModel.SelectionFlag
        model.select(selection, flags.ClearAndSelect | flags.Rows)
        current_row = self.model.row_of(current) if current else None
        if current_row is not None:
            model.setCurrentIndex(self.model.index(current_row, 0), flags.NoUpdate)
            if reveal:
                self._reveal_id = current
                QTimer.singleShot(0, self._reveal)  # after a reset the view lays out rows lazily
        model.blockSignals(False)
        self.table.viewport().update()

    def _rows(self, ids: frozenset[str]) -> list[int]:
        """Rows of ``ids``: a few by binary search, many through the id -> row map."""
        if len(ids) <= 16:
            return sorted(r for i in ids if (r := self.model.row_of(i)) is not None)
        return self.model.rows_of(list(ids)[:MAX_SHOWN_SELECTION])

    def _reveal(self) -> None:
        row = self.model.row_of(self._reveal_id) if self._reveal_id else None
        if row is not None:
            self.table.scrollTo(
                self.model.index(row, 0), QAbstractItemView.ScrollHint.PositionAtCenter
            )

"""``RollupReviewDialog``: browse the live rollups, read their children, edit a rollup's summary
(Save = one ``ops.edit_node``) or dissolve it (one ``ops.dissolve``: the children go back where
they were, the rollup is archived). Both are single undo steps; the dialog never touches the
store and ignores its own echo only for the summary it is editing."""

from __future__ import annotations

from memgraph_gui.app import ops
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.compaction_reads import RollupRow, child_briefs, list_rollups
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.qt import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QModelIndex,
    QPlainTextEdit,
    QPushButton,
    QShowEvent,
    QSortFilterProxyModel,
    QSplitter,
    Qt,
    QTableView,
    QTimer,
    QVBoxLayout,
    QWidget,
    tr,
)
from memgraph_gui.views.wizard.models import (
    BriefsTableModel,
    RollupsTableModel,
    WrappedTextDelegate,
)
from memgraph_gui.views.wizard.pages import plain_label


class RollupReviewDialog(QDialog):
    """Existing rollups: children's briefs, an editable summary, Save and Dissolve."""

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self._current = ""
        self._loaded_summary = ""
        self._dirty = True
        self.setObjectName("rollup-review")
        self.setWindowTitle(tr("Review Rollups"))
        self.resize(1000, 680)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self.refresh)
        layout = QVBoxLayout(self)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self._build_list())
        splitter.addWidget(self._build_detail())
        splitter.setStretchFactor(0, 9)
        splitter.setStretchFactor(1, 11)
        splitter.setSizes([450, 550])
        splitter.setChildrenCollapsible(False)
        layout.addWidget(splitter, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self._on_store_replaced)

    # -- layout ----------------------------------------------------------------------------------
    def _build_list(self) -> QWidget:
        self.rollups = RollupsTableModel()
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.rollups)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(tr("Filter rollups by title or type"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.list = QTableView()
        self.list.setObjectName("rollup-list")
        self.list.setModel(self.proxy)
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.verticalHeader().hide()
        self.list.setAlternatingRowColors(True)
        header = self.list.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column, width in ((1, 64), (2, 44), (3, 60), (4, 50)):  # never measure 16k rows
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
            self.list.setColumnWidth(column, width)
        self.list.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.list.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.count_label = plain_label(wrap=False)
        box = QWidget()
        stack = QVBoxLayout(box)
        stack.setContentsMargins(0, 0, 0, 0)
        stack.addWidget(self.filter)
        stack.addWidget(self.list, 1)
        stack.addWidget(self.count_label)
        return box

    def _build_detail(self) -> QWidget:
        self.heading = plain_label()
        self.heading.setStyleSheet("font-size: 11pt; font-weight: 600;")
        self.facts = plain_label()
        self.children_model = BriefsTableModel()
        self.children_view = QTableView()
        self.children_view.setObjectName("rollup-children")
        self.children_view.setModel(self.children_model)
        self.children_view.setWordWrap(True)
        self.children_view.setItemDelegateForColumn(2, WrappedTextDelegate(self.children_view))
        self.children_view.verticalHeader().hide()
        self.children_view.setAlternatingRowColors(True)
        self.children_view.horizontalHeader().setStretchLastSection(True)
        self.children_view.horizontalHeader().sectionResized.connect(self._on_section_resized)
        self.children_view.setColumnWidth(0, 48)
        self.children_view.setColumnWidth(1, 150)
        self.summary = QPlainTextEdit()
        self.summary.setObjectName("rollup-summary")
        self.summary.textChanged.connect(self._on_summary_changed)
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.heading)
        column.addWidget(self.facts)
        column.addWidget(_bold(tr("Children")))
        column.addWidget(self.children_view, 3)
        column.addWidget(_bold(tr("Summary")))
        column.addWidget(self.summary, 2)
        column.addLayout(self._build_actions())
        return box

    def _build_actions(self) -> QHBoxLayout:
        self.status = plain_label()
        self.status.setObjectName("rollup-status")
        self.save_button = QPushButton(tr("Save summary"))
        self.save_button.clicked.connect(self.save_summary)
        self.dissolve_button = QPushButton(tr("Dissolve…"))
        self.dissolve_button.setToolTip(
            tr("Children go back where they were; the rollup is archived (undoable).")
        )
        self.dissolve_button.clicked.connect(self.dissolve_current)
        for button in (self.save_button, self.dissolve_button):
            button.setAutoDefault(False)  # Enter in the list must never dissolve
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        row.addWidget(self.dissolve_button)
        row.addWidget(self.save_button)
        return row

    # -- public ----------------------------------------------------------------------------------
    @property
    def current_id(self) -> str:
        """The rollup on the right ("" for none)."""
        return self._current

    def refresh(self) -> None:
        """Reload the list, keeping the current rollup when it still exists."""
        self._dirty = False
        keep = self._current
        self.rollups.set_rows(list_rollups(self.app))
        self.count_label.setText(tr("{n} rollups").format(n=self.rollups.rowCount()))
        row = self.rollups.row_of(keep) if keep else -1
        self.select_rollup(keep if row >= 0 else self._first_id())

    def select_rollup(self, rollup_id: str) -> None:
        """Show ``rollup_id`` (selecting its row), or clear the detail for ""."""
        row = self.rollups.row_of(rollup_id) if rollup_id else -1
        if row < 0:
            self._show("")
            return
        index = self.proxy.mapFromSource(self.rollups.index(row, 0))
        if index.isValid():
            self.list.setCurrentIndex(index)
            self.list.scrollTo(index)
        self._show(rollup_id)

    def save_summary(self) -> None:
        """Write the edited summary (one step: "Edit '<title>'")."""
        text = self.summary.toPlainText().strip()
        if not self._current or not text:
            self._say(tr("A rollup needs a summary."), error=True)
            return
        self.save_button.setEnabled(False)
        ops.edit_node(
            self.app,
            self._current,
            set_fields={"summary": text},
            initiator=self,
            on_done=self._on_saved,
            on_error=self._on_refused,
        )

    def dissolve_current(self) -> None:
        """Dissolve the rollup on the right, after the user confirms."""
        node = self.app.node(self._current) if self._current else None
        if node is None or not self.confirm_dissolve(node.title, len(node.children_ids)):
            return
        self.dissolve_button.setEnabled(False)
        ops.dissolve(
            self.app,
            self._current,
            initiator=self,
            on_done=self._on_dissolved,
            on_error=self._on_refused,
        )

    def confirm_dissolve(self, title: str, children: int) -> bool:
        """Ask before dissolving (tests replace this)."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            tr("Dissolve rollup"),
            tr(
                "Dissolve “{title}”?\n\nIts {n} children go back where they were before the "
                "compaction and the rollup is archived. Edit ▸ Undo brings it back."
            ).format(title=title, n=children),
            QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        ok = box.addButton(tr("Dissolve"), QMessageBox.ButtonRole.DestructiveRole)
        box.exec()
        return box.clickedButton() is ok

    # -- handlers --------------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._dirty:
            self.refresh()

    def _on_changes_applied(self, changes: ChangeSet, initiator: object | None) -> None:
        if changes.empty:
            return
        self._dirty = True
        if self.isVisible():
            self._refresh_timer.start()

    def _on_store_replaced(self) -> None:
        self._current = ""
        self._dirty = True
        if self.isVisible():
            self.refresh()

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            row: RollupRow = self.rollups.row_at(self.proxy.mapToSource(current).row())
            if row.id != self._current:
                self._show(row.id)

    def _on_section_resized(self, *_args: object) -> None:
        self.children_view.resizeRowsToContents()

    def _edited(self) -> bool:
        return self.summary.toPlainText().strip() != self._loaded_summary.strip()

    def _on_summary_changed(self) -> None:
        self.save_button.setEnabled(bool(self._current) and self._edited())

    def _on_saved(self, _result: object) -> None:
        self._loaded_summary = self.summary.toPlainText()
        self._on_summary_changed()
        self._say(tr("Summary saved."))

    def _on_dissolved(self, result: object) -> None:
        self._say(tr("Dissolved; its children are back under their old parents."))
        self._current = ""
        self.refresh()

    def _on_refused(self, error: MemgraphError) -> None:
        self._on_summary_changed()
        self.dissolve_button.setEnabled(bool(self._current))
        self._say(error.message, error=True)

    # -- display ---------------------------------------------------------------------------------
    def _show(self, rollup_id: str) -> None:
        node = self.app.node(rollup_id) if rollup_id else None
        keep_edits = node is not None and rollup_id == self._current and self._edited()
        self._current = rollup_id if node is not None else ""
        self.dissolve_button.setEnabled(node is not None)
        self.summary.setEnabled(node is not None)
        if node is None:
            self.heading.setText(tr("No rollup selected"))
            self.facts.clear()
            self.children_model.set_rows([])
            self._load_summary("")
            return
        self.heading.setText(node.title)
        self.facts.setText(
            tr("{id} · {type} · level {depth} · seq {seq} · {n} children").format(
                id=node.id,
                type=node.type,
                depth=node.semantic_depth,
                seq=node.seq_to,
                n=len(node.children_ids),
            )
        )
        self.children_model.set_rows(child_briefs(self.app, node.children_ids))
        self.children_view.resizeRowsToContents()
        if not keep_edits:  # a refresh never throws away what the user is typing
            self._load_summary(str(node.fields.get("summary") or ""))

    def _load_summary(self, text: str) -> None:
        self._loaded_summary = text
        self.summary.setPlainText(text)
        self._on_summary_changed()

    def _first_id(self) -> str:
        index = self.proxy.index(0, 0)
        if not index.isValid():
            return ""
        row: RollupRow = self.rollups.row_at(self.proxy.mapToSource(index).row())
        return row.id

    def _say(self, message: str, *, error: bool = False) -> None:
        self.status.setStyleSheet("color: #b3261e;" if error else "")
        self.status.setText(message)


def _bold(text: str) -> QLabel:
    label = QLabel(text)
    label.setStyleSheet("font-weight: 600;")
    return label

"""``RollupReviewDialog``: browse the live rollups, read their children, edit a rollup's summary
(Save = one ``ops.edit_node``) or dissolve it (one ``ops.dissolve``: the children go back where
they were, the rollup is archived). Both are single undo steps; the dialog never touches the
store and ignores its own echo only for the summary it is editing.

A save carries the summary it was based on: when another writer changed it meanwhile nothing is
written and both texts show with Keep mine / Take theirs. Leaving a rollup (or the dialog) with
unsaved text asks Save / Discard / Cancel (``ask_unsaved``, replaceable by tests). Every
completion is bound to the rollup it was for: one arriving after the person moved on never
marks another rollup's text as saved; a refused one keeps its text for when they come back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from memgraph_gui.app import ops
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.compaction_reads import RollupRow, child_briefs, list_rollups
from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.freeze import thaw
from memgraph_gui.views import unsaved
from memgraph_gui.views.conflict import ConflictPanel
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
    tr_n,
)
from memgraph_gui.views.unsaved import Ask, Part, settle
from memgraph_gui.views.wizard.models import (
    BriefsTableModel,
    RollupsTableModel,
    WrappedTextDelegate,
)
from memgraph_gui.views.wizard.pages import plain_label


@dataclass
class _Parked:
    """A summary whose save was refused after the person had moved to another rollup."""

    text: str
    baseline: Any
    error: MemgraphError


@dataclass
class _SaveThen:
    """Save pressed in the Save / Discard / Cancel question: what follows the write."""

    rollup_id: str
    on_saved: Callable[[], None]
    on_failed: Callable[[], None]


class RollupReviewDialog(QDialog):
    """Existing rollups: children's briefs, an editable summary, Save and Dissolve."""

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self._current = ""
        self._loaded_summary = ""
        self._baseline: Any = None  # the stored summary the text on the right started from
        self._theirs: Any = None  # the stored summary a conflict showed
        self._saving: set[str] = set()
        self._parked: dict[str, _Parked] = {}
        self._save_then: _SaveThen | None = None
        self._leaving = False
        self._dirty = True
        self._status_about: frozenset[str] = frozenset()  # the rollups the status line is about
        self.ask_unsaved: Ask = unsaved.ask_unsaved
        """Asks Save / Discard / Cancel before leaving unsaved text (tests replace it)."""
        self._shown = Part(
            self._unsaved_here, self._summary_here, self._save_here, self._discard_here
        )
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
        self.filter.textChanged.connect(self._show_count)  # the count follows the filter
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
        self.conflict = ConflictPanel()
        self.conflict.keep_mine.connect(self._on_keep_mine)
        self.conflict.take_theirs.connect(self._on_take_theirs)
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.heading)
        column.addWidget(self.facts)
        column.addWidget(_bold(tr("Children")))
        column.addWidget(self.children_view, 3)
        column.addWidget(_bold(tr("Summary")))
        column.addWidget(self.summary, 2)
        column.addWidget(self.conflict)
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
        self._show_count()
        row = self.rollups.row_of(keep) if keep else -1
        self.select_rollup(keep if row >= 0 else self._first_id())

    def _show_count(self, *_args: object) -> None:
        """ "12 rollups", or "3 of 12 rollups" while the filter hides some."""
        total, shown = self.rollups.rowCount(), self.proxy.rowCount()
        self.count_label.setText(
            tr_n("%n rollup(s)", total)
            if shown == total
            else tr_n("{shown} of %n rollup(s)", total).format(shown=shown)
        )

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
        """Write the edited summary (one step: "Edit '<title>'"), based on the stored summary it
        started from; the completion is bound to this rollup."""
        rollup_id = self._current
        text = self.summary.toPlainText().strip()
        if not rollup_id or not text:
            self._say(tr("A rollup needs a summary."), error=True)
            return
        self.save_button.setEnabled(False)
        self._saving.add(rollup_id)
        baseline = self._baseline
        ops.edit_node(
            self.app,
            rollup_id,
            set_fields={"summary": text},
            expected={"fields": {"summary": thaw(baseline)}},
            initiator=self,
            on_done=partial(self._on_saved, rollup_id, text),
            on_error=partial(self._on_save_refused, rollup_id, text, baseline),
        )

    def dissolve_current(self) -> None:
        """Dissolve the rollup on the right, after the user confirms."""
        node = self.app.node(self._current) if self._current else None
        if node is None or not self.confirm_dissolve(node.title, len(node.children_ids)):
            return
        self.dissolve_button.setEnabled(False)
        ops.dissolve(
            self.app,
            node.id,
            initiator=self,
            on_done=partial(self._on_dissolved, node.id),
            on_error=partial(self._on_dissolve_refused, node.id),
        )

    # -- unsaved text (HoldsUnsaved) ---------------------------------------------------------------
    def has_unsaved_edits(self) -> bool:
        """True while a summary holds text neither written nor being written (the one on the
        right, or one whose save was refused after the person moved on)."""
        return bool(self._parked) or self._unsaved_here()

    def unsaved_summary(self) -> str:
        """Which rollups' summaries are unsaved, for the question."""
        ids = ([self._current] if self._unsaved_here() else []) + list(self._parked)
        titles = [f"“{self._title(i)}”" for i in dict.fromkeys(ids)]
        return tr("the summary of {titles}").format(titles=", ".join(titles))

    def save_unsaved(self, on_saved: Callable[[], None], on_failed: Callable[[], None]) -> bool:
        """Save the summary on the right (see ``HoldsUnsaved``). A conflict waiting for a choice,
        an empty summary or a refused summary of another rollup (then shown) is left for the
        person: False."""
        if not self._parked:
            return self._save_here(on_saved, on_failed)

        def show_parked() -> None:  # the text on the right is saved; a refused one needs a choice
            if self._parked:
                self.select_rollup(next(iter(self._parked)))
            on_failed()

        return self._save_here(show_parked, on_failed)

    def discard_unsaved(self) -> None:
        """Drop every unsaved summary: the one on the right goes back to the stored text."""
        self._parked.clear()
        self._discard_here()

    def _unsaved_here(self) -> bool:
        busy = self._current in self._saving
        return bool(self._current) and (self.conflict.pending or (self._edited() and not busy))

    def _summary_here(self) -> str:
        return tr("the summary of “{title}”").format(title=self._title(self._current))

    def _save_here(self, on_saved: Callable[[], None], on_failed: Callable[[], None]) -> bool:
        if not self._unsaved_here():
            on_saved()
            return True
        if self.conflict.pending or not self.summary.toPlainText().strip():
            return False
        self._save_then = _SaveThen(self._current, on_saved, on_failed)
        self.save_summary()
        return True

    def _discard_here(self) -> None:
        node = self.app.node(self._current) if self._current else None
        self._load_summary(node.fields.get("summary") if node is not None else None)

    def reject(self) -> None:
        """Close, after asking about unsaved text (Save closes once it is written)."""
        if settle(self, [self], self.ask_unsaved, then=self.reject):
            super().reject()

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
        self._clear_stale_status()  # reopened: what the line said was about the last visit
        if self._dirty:
            self.refresh()

    def _on_changes_applied(self, changes: ChangeSet, initiator: object | None) -> None:
        if changes.empty:
            return
        if initiator is not self and _concerns(changes, self._status_about):
            self._clear_stale_status()  # e.g. Undo of the save or dissolve the line reported
        self._dirty = True
        if self.isVisible():
            self._refresh_timer.start()

    def _on_store_replaced(self) -> None:
        # refused edits and write state belong to the memory closed (same ids, other nodes)
        self._say("")
        self._saving.clear()
        self._parked.clear()
        self._save_then = None
        self._leaving = False
        self._current = ""
        self._dirty = True
        if self.isVisible():
            self.refresh()

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid() or self._leaving:
            return
        row: RollupRow = self.rollups.row_at(self.proxy.mapToSource(current).row())
        if row.id == self._current:
            return
        if self._unsaved_here():
            self._leaving = True
            QTimer.singleShot(0, self, self._ask_before_leaving)
            return
        self._show(row.id)

    def _ask_before_leaving(self) -> None:
        """The list moved away from a rollup with unsaved text: Save / Discard / Cancel."""
        if not self._leaving:
            return
        target = self._list_current()
        if target == self._current:
            self._leaving = False  # back already: the text stays as it is
        elif not self._unsaved_here():
            self._left()
        elif settle(self, [self._shown], self.ask_unsaved, then=self._left, failed=self._stay):
            self._left()
        elif self._save_then is None:
            self._stay()  # Cancel (or a Save that could not start)

    def _left(self) -> None:
        self._leaving = False
        target = self._list_current()
        if target and target != self._current:
            self._show(target)

    def _stay(self) -> None:
        self._leaving = False
        if self._current:
            self.select_rollup(self._current)

    def _list_current(self) -> str:
        index = self.list.currentIndex()
        if not index.isValid():
            return ""
        row: RollupRow = self.rollups.row_at(self.proxy.mapToSource(index).row())
        return row.id

    def _on_section_resized(self, *_args: object) -> None:
        self.children_view.resizeRowsToContents()

    def _edited(self) -> bool:
        return self.summary.toPlainText().strip() != self._loaded_summary.strip()

    def _on_summary_changed(self) -> None:
        busy = self._current in self._saving
        self.save_button.setEnabled(bool(self._current) and self._edited() and not busy)

    def _on_saved(self, rollup_id: str, text: str, _result: object) -> None:
        self._saving.discard(rollup_id)
        if rollup_id == self._current:
            node = self.app.node(rollup_id)
            self._baseline = node.fields.get("summary") if node is not None else text
            self._loaded_summary = text  # typing after Save stays unsaved
            self._on_summary_changed()
            self._say(tr("Summary saved."), about=rollup_id)
        else:
            self._say(
                tr("Summary of “{title}” saved.").format(title=self._title(rollup_id)),
                about=rollup_id,
            )
        self._save_landed(rollup_id, ok=True)

    def _on_save_refused(
        self, rollup_id: str, text: str, baseline: Any, error: MemgraphError
    ) -> None:
        self._saving.discard(rollup_id)
        if not self.isVisible():  # closed while the save was in flight: the text is not lost
            self.show()
            self.raise_()
        if rollup_id != self._current:
            self._parked[rollup_id] = _Parked(text, baseline, error)
            self._say(
                tr(
                    "The summary of “{title}” was not saved: {why} Select it to see your text."
                ).format(title=self._title(rollup_id), why=error.message),
                error=True,
                about=rollup_id,
            )
        else:
            self._show_refusal(text, error)
        self._save_landed(rollup_id, ok=False)

    def _show_refusal(self, text: str, error: MemgraphError) -> None:
        """A refused save of the summary on the right: a conflict shows both texts."""
        self._on_summary_changed()
        if error.code != "EDIT_CONFLICT":
            self._say(error.message, error=True, about=self._current)
            return
        current = (error.details.get("current") or {}).get("fields") or {}
        self._theirs = current.get("summary")
        self.conflict.show_conflict(self.summary.toPlainText() or text, str(self._theirs or ""))
        self._say(
            tr("Another writer changed this summary; nothing was saved."),
            error=True,
            about=self._current,
        )

    def _save_landed(self, rollup_id: str, *, ok: bool) -> None:
        then = self._save_then
        if then is None or then.rollup_id != rollup_id:
            return
        self._save_then = None
        (then.on_saved if ok else then.on_failed)()

    def _on_keep_mine(self) -> None:
        """Save the person's text over the stored summary the conflict showed."""
        self.conflict.dismiss()
        self._baseline = self._theirs
        self._loaded_summary = str(self._theirs or "")
        self._on_summary_changed()
        if self._edited():
            self.save_summary()

    def _on_take_theirs(self) -> None:
        self.conflict.dismiss()
        self._load_summary(self._theirs)

    def _on_dissolved(self, rollup_id: str, _result: object) -> None:
        self._say(tr("Dissolved; its children are back under their old parents."), about=rollup_id)
        self._parked.pop(rollup_id, None)
        if rollup_id == self._current:
            self._current = ""
        self.refresh()  # keeps another rollup the person went on to, and its typing

    def _on_dissolve_refused(self, rollup_id: str, error: MemgraphError) -> None:
        self.dissolve_button.setEnabled(bool(self._current))
        if rollup_id == self._current:
            self._say(error.message, error=True, about=rollup_id)
        else:
            self._say(
                tr("“{title}” was not dissolved: {why}").format(
                    title=self._title(rollup_id), why=error.message
                ),
                error=True,
                about=rollup_id,
            )

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
            self._load_summary(None)
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
        if keep_edits:  # a refresh never throws away what the user is typing
            return
        self._load_summary(node.fields.get("summary"))
        parked = self._parked.pop(rollup_id, None)
        if parked is not None:  # a refused save of this rollup, made before moving on
            self._baseline = parked.baseline
            self._loaded_summary = str(parked.baseline or "")
            self.summary.setPlainText(parked.text)
            self._show_refusal(parked.text, parked.error)

    def _load_summary(self, stored: Any) -> None:
        """Show the stored summary as the text's baseline (nothing unsaved)."""
        text = str(stored or "")
        self._baseline = stored
        self._loaded_summary = text
        self.conflict.dismiss()
        self.summary.setPlainText(text)
        self._on_summary_changed()

    def _title(self, rollup_id: str) -> str:
        node = self.app.node(rollup_id)
        return node.title if node is not None else rollup_id

    def _first_id(self) -> str:
        index = self.proxy.index(0, 0)
        if not index.isValid():
            return ""
        row: RollupRow = self.rollups.row_at(self.proxy.mapToSource(index).row())
        return row.id

    def _say(self, message: str, *, error: bool = False, about: str = "") -> None:
        """Show ``message`` in the status line; ``about`` is the rollup it tells of (a later
        change to it by someone else, such as Undo, clears the line)."""
        self.status.setStyleSheet("color: #b3261e;" if error else "")
        self.status.setText(message)
        self._status_about = frozenset({about}) if about and message else frozenset()

    def _clear_stale_status(self) -> None:
        """Clear the status line, unless it tells of something still waiting for the person
        (a refused summary kept for its rollup, a conflict shown)."""
        if self.conflict.pending or self._status_about & set(self._parked):
            return
        self._say("")


def _concerns(changes: ChangeSet, ids: frozenset[str]) -> bool:
    """Whether ``changes`` (an undo, a redo, another writer's step) touch any of ``ids``."""
    if not ids:
        return False
    if changes.reloaded or changes.op in (OpKind.UNDO, OpKind.REDO):
        return True
    touched = (
        changes.nodes_updated
        | changes.nodes_removed
        | changes.nodes_archived
        | changes.nodes_restored
        | changes.nodes_added
    )
    return bool(ids & touched)


def _bold(text: str) -> QLabel:
    label = QLabel(text)
    label.setStyleSheet("font-weight: 600;")
    return label

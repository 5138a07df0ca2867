"""Step 3 of the compaction wizard: one group at a time, the children's briefs beside an editable
draft; Approve queues the group with its summary, Skip leaves it. When the review ends (the last
group decided, or Stop & Report) every approved group is rolled up in one write: one undo step
("Compact 4 groups"; "Compact 3 events" for one). A group the store would refuse now is shown in
place when approved (retry or skip); one refused at the write is reported as refused."""

from __future__ import annotations

from typing import Any

from memgraph_gui.app import ops
from memgraph_gui.app.compaction_reads import GroupRow, child_briefs, group_problem
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.qt import (
    QAbstractItemView,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QPushButton,
    QSplitter,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
    is_alive,
    tr,
)
from memgraph_gui.views.wizard.draft_panel import DraftPanel
from memgraph_gui.views.wizard.host import WizardHost
from memgraph_gui.views.wizard.models import BriefsTableModel, WrappedTextDelegate
from memgraph_gui.views.wizard.pages import plain_label
from memgraph_gui.views.wizard.report import APPROVED, FAILED, QUEUED, SKIPPED, Outcome, Report


class ReviewPage(QWizardPage):
    """Reviews the checked groups in order; then the wizard moves on to the report."""

    def __init__(self, wizard: WizardHost) -> None:
        super().__init__()
        self._wizard = wizard
        self._groups: list[GroupRow] = []
        self._index = 0
        self._busy = False
        self._refusal = ""
        self.setTitle(tr("Review each group"))
        self.setButtonText(QWizard.WizardButton.NextButton, tr("Stop && Report"))
        self.briefs = BriefsTableModel()
        self.draft = DraftPanel(self, endpoint=wizard.endpoint)
        self.draft.text_changed.connect(self._on_draft_text_changed)
        layout = QVBoxLayout(self)
        layout.addWidget(self._build_splitter(), 1)
        layout.addLayout(self._build_decision_row())

    def _build_splitter(self) -> QSplitter:
        self.table = QTableView()
        self.table.setObjectName("compaction-children")
        self.table.setModel(self.briefs)
        self.table.setWordWrap(True)
        self.table.setItemDelegateForColumn(2, WrappedTextDelegate(self.table))
        self.table.setAlternatingRowColors(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        header.sectionResized.connect(self._on_section_resized)
        self.table.setColumnWidth(0, 48)
        self.table.setColumnWidth(1, 110)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        heading = QLabel(tr("Children, oldest first"))
        heading.setStyleSheet("font-weight: 600;")
        column.addWidget(heading)
        column.addWidget(self.table, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(self.draft)
        splitter.setStretchFactor(0, 11)
        splitter.setStretchFactor(1, 9)
        splitter.setChildrenCollapsible(False)
        return splitter

    def _build_decision_row(self) -> QHBoxLayout:
        self.error = plain_label()
        self.error.setObjectName("compaction-error")
        self.error.setStyleSheet("color: #b3261e;")
        self.skip_button = QPushButton(tr("Skip"))
        self.skip_button.setToolTip(tr("Leave this group as it is and go on."))
        self.skip_button.clicked.connect(self.skip)
        self.approve_button = QPushButton(tr("Approve"))
        self.approve_button.setToolTip(
            tr(
                "Roll this group up with this summary. The approved groups are compacted "
                "together when the review ends: one step in Edit ▸ Undo. Ctrl+Enter"
            )
        )
        self.approve_button.setShortcut(QKeySequence(tr("Ctrl+Return")))
        self.approve_button.setDefault(True)
        self.approve_button.clicked.connect(self.approve)
        row = QHBoxLayout()
        row.addWidget(self.error, 1)
        row.addWidget(self.skip_button)
        row.addWidget(self.approve_button)
        return row

    # -- QWizardPage -----------------------------------------------------------------------------
    def initializePage(self) -> None:
        # Enter means Approve here, not "Stop & Report" (QWizard makes Next the default button)
        self._wizard.setOption(QWizard.WizardOption.NoDefaultButton, True)
        self._groups = self._wizard.groups_page.model.checked_groups()
        self._wizard.start_report(len(self._groups))
        self._index = 0
        self._show_group()

    def cleanupPage(self) -> None:
        """Back to the groups: the groups approved so far are written first, not dropped."""
        self.write_approved(then_report=False)
        super().cleanupPage()

    def isComplete(self) -> bool:
        return not self._busy

    def validatePage(self) -> bool:
        """Stop & Report: the approved groups are written first (the report follows)."""
        if self._busy:
            return False
        if self._wizard.report().queued():
            self.write_approved()
            return False
        self._wizard.setOption(QWizard.WizardOption.NoDefaultButton, False)
        return True

    @property
    def queued(self) -> int:
        """How many approved groups wait for the run's write."""
        return len(self._wizard.report().queued())

    # -- decisions -------------------------------------------------------------------------------
    @property
    def group(self) -> GroupRow | None:
        """The group on screen, or None once every group was decided."""
        return self._groups[self._index] if self._index < len(self._groups) else None

    def approve(self) -> None:
        """Queue the group on screen with the draft as its summary (written when the review
        ends); a group the store would refuse now is shown in place instead."""
        group, summary = self.group, self.draft.text().strip()
        if group is None or self._busy:
            return
        if not summary:
            self._show_refusal(tr("A rollup needs a summary. Write one, or draft again."))
            return
        problem = group_problem(self._wizard.app, self._wizard.type_id, group.child_ids)
        if problem:
            self._show_refusal(
                tr("Not compacted: {message} Approve to try again, or Skip.").format(
                    message=_sentence(problem)
                ),
                cause=_sentence(problem),
            )
            return
        self._decide(Outcome(group, QUEUED, message=summary))

    def skip(self) -> None:
        """Leave the group on screen as it is (after a refusal it counts as refused)."""
        group = self.group
        if group is None or self._busy:
            return
        status = FAILED if self._refusal else SKIPPED
        self._decide(Outcome(group, status, message=self._refusal))

    def write_approved(self, *, then_report: bool = True) -> None:
        """Roll every queued group up in one write (one undo step); with ``then_report`` the
        wizard moves on to the report when it is done."""
        report = self._wizard.report()
        positions = report.queued()
        if not positions or self._busy:
            return
        self._set_busy(True)
        groups = [
            (report.outcomes[i].group.child_ids, report.outcomes[i].message) for i in positions
        ]
        ops.compact_groups(
            self._wizard.app,
            self._wizard.type_id,
            groups,
            initiator=self._wizard,
            on_done=lambda result: self._on_written(report, positions, result, then_report),
            on_error=lambda error: self._on_write_refused(report, positions, error, then_report),
        )

    def _on_written(
        self, report: Report, positions: list[int], result: Any, then_report: bool
    ) -> None:
        for position, entry in zip(positions, result["results"], strict=True):
            group = report.outcomes[position].group
            if "rollupNodeId" in entry:
                rollup_id = str(entry["rollupNodeId"])
                node = self._wizard.app.node(rollup_id)
                outcome = Outcome(group, APPROVED, rollup_id, node.title if node else rollup_id)
            else:
                message = _sentence(str(entry["error"].get("message") or ""))
                outcome = Outcome(group, FAILED, message=message)
            report.outcomes[position] = outcome
        self._written(report, then_report)

    def _on_write_refused(
        self, report: Report, positions: list[int], error: MemgraphError, then_report: bool
    ) -> None:
        for position in positions:
            group = report.outcomes[position].group
            report.outcomes[position] = Outcome(group, FAILED, message=_sentence(error.message))
        self._written(report, then_report)

    def _written(self, report: Report, then_report: bool) -> None:
        """After the write: on to the report, unless the wizard moved on (a new run, closed)."""
        if not is_alive(self):
            return
        self._set_busy(False)
        if (
            report is self._wizard.report()
            and then_report
            and self._wizard.currentPage() is self
            and self._wizard.isVisible()
        ):
            self._wizard.next()

    def _decide(self, outcome: Outcome) -> None:
        self._wizard.record(outcome)
        self._index += 1
        if self.group is not None:
            self._show_group()
        elif self._wizard.report().queued():
            self.write_approved()
        else:
            self._wizard.next()

    # -- display ---------------------------------------------------------------------------------
    def _show_group(self) -> None:
        self._show_refusal("")
        group = self.group
        if group is None:
            return
        briefs = child_briefs(self._wizard.app, group.child_ids)
        self.briefs.set_rows(briefs)
        self.table.resizeRowsToContents()
        self.setSubTitle(
            tr("Group {n} of {total} · seq {a}–{b} · {count} {type} nodes").format(
                n=self._index + 1,
                total=len(self._groups),
                a=group.seq_from,
                b=group.seq_to,
                count=len(group.child_ids),
                type=self._wizard.type_id,
            )
        )
        self.draft.set_group(self._wizard.type_id, briefs, self._wizard.instruction())
        self._on_draft_text_changed()
        self.approve_button.setFocus()

    def _show_refusal(self, message: str, *, cause: str = "") -> None:
        """Show ``message`` under the draft; ``cause`` is what the report keeps if skipped."""
        self._refusal = cause
        self.error.setText(message)

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        self._on_draft_text_changed()
        self.skip_button.setEnabled(not busy)
        self.completeChanged.emit()

    def _on_section_resized(self, *_args: object) -> None:
        self.table.resizeRowsToContents()  # wrapped summaries need their full height

    def _on_draft_text_changed(self) -> None:
        ready = not self._busy and bool(self.draft.text().strip()) and self.group is not None
        self.approve_button.setEnabled(ready)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."

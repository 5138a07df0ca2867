"""The compaction wizard's first, second and last pages: what to compact, which groups, report.

Every page reads through the wizard's AppModel; none of them writes (the review page does: one
``ops.compact_groups`` for the groups approved in a run).
"""

from __future__ import annotations

from memgraph_gui.app.background import BackgroundJob
from memgraph_gui.app.compaction_reads import Preview, compactable_types, preview
from memgraph_gui.views.qt import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    Qt,
    QTableView,
    QVBoxLayout,
    QWizard,
    QWizardPage,
    tr,
    tr_n,
)
from memgraph_gui.views.wizard.host import WizardHost
from memgraph_gui.views.wizard.instruction import InstructionEditor
from memgraph_gui.views.wizard.models import GroupsTableModel


def plain_label(text: str = "", *, wrap: bool = True) -> QLabel:
    """A label that never interprets its text as HTML."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    return label


class TypePage(QWizardPage):
    """Step 1: the node type (hierarchically compacted types only) and the depth."""

    def __init__(self, wizard: WizardHost) -> None:
        super().__init__()
        self._wizard = wizard
        self.setTitle(tr("Choose what to compact"))
        self.setSubTitle(
            tr("A rollup replaces a run of top-level nodes of one type with one summary node.")
        )
        self.type_combo = QComboBox()
        self.type_combo.setObjectName("compaction-type")
        self.type_combo.currentIndexChanged.connect(self._on_type_changed)
        self.depth_spin = QSpinBox()
        self.depth_spin.setObjectName("compaction-depth")
        self.depth_spin.valueChanged.connect(self._on_depth_changed)
        self.type_combo.setMinimumWidth(280)
        self.depth_spin.setMinimumWidth(280)
        self.rules = plain_label()
        self.rules.setMinimumWidth(560)
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        form.setVerticalSpacing(10)
        self.instruction = InstructionEditor(wizard.app)
        self.instruction.setMinimumWidth(560)
        form.addRow(tr("Node type:"), self.type_combo)
        form.addRow(tr("Depth:"), self.depth_spin)
        form.addRow("", self.rules)
        form.addRow(tr("AI instruction:"), self.instruction)
        self.empty = plain_label(
            tr(
                "No node type is compacted hierarchically in this memory's schema, so there "
                "is nothing to roll up."
            )
        )
        form.addRow(self.empty)

    def initializePage(self) -> None:
        current = self.type_combo.currentData()
        self.type_combo.clear()
        for spec in compactable_types(self._wizard.app.schema()):
            label = str(spec.raw.get("label") or spec.id)
            text = spec.id if label.lower() == spec.id else f"{label} ({spec.id})"
            self.type_combo.addItem(text, spec.id)
        found = self.type_combo.findData(current)
        self.type_combo.setCurrentIndex(max(0, found))
        self.empty.setVisible(self.type_combo.count() == 0)
        self._on_type_changed()

    def isComplete(self) -> bool:
        return self.type_combo.count() > 0

    @property
    def type_id(self) -> str:
        return str(self.type_combo.currentData() or "")

    @property
    def chosen_depth(self) -> int:
        return int(self.depth_spin.value())

    def _on_type_changed(self, _index: int = 0) -> None:
        self.instruction.load(self.type_id)
        spec = self._wizard.app.schema().get(self.type_id)
        if spec is None:
            self.rules.clear()
            return
        cfg = spec.compression
        self.depth_spin.setRange(0, max(0, int(cfg["maxDepth"]) - 1))
        self.rules.setText(
            tr(
                "Groups of {fan} once at least {threshold} are waiting; the {keep} newest "
                "leaves are held back; rollups stack up to depth {max}."
            ).format(
                fan=cfg["fanIn"],
                threshold=cfg["threshold"],
                keep=cfg["keepRecentLeaves"],
                max=cfg["maxDepth"],
            )
        )
        self._on_depth_changed(self.chosen_depth)
        self.completeChanged.emit()

    def _on_depth_changed(self, depth: int) -> None:
        hint = tr("leaves") if depth == 0 else tr("level-{d} rollups").format(d=depth)
        self.depth_spin.setSuffix("  " + tr("({what})").format(what=hint))


class GroupsPage(QWizardPage):
    """Step 2: the eligible groups (a query off the GUI thread), checkable."""

    def __init__(self, wizard: WizardHost) -> None:
        super().__init__()
        self._wizard = wizard
        self._job: BackgroundJob | None = None
        self.preview: Preview | None = None
        self.setTitle(tr("Eligible groups"))
        self.setCommitPage(True)  # from here on each approval is a real write
        self.model = GroupsTableModel()
        self.model.dataChanged.connect(self._on_checks_changed)
        self.table = _table(self.model)
        self.table.setObjectName("compaction-groups")
        self.note = plain_label()
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setTextVisible(False)
        self.busy.setMaximumHeight(6)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.busy)
        layout.addWidget(self.table, 1)
        layout.addLayout(self._check_buttons())

    def _check_buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        for text, on in ((tr("Select all"), True), (tr("Select none"), False)):
            button = QPushButton(text)
            button.setProperty("check_all", on)
            button.clicked.connect(self._on_check_all_clicked)
            row.addWidget(button)
        row.addStretch(1)
        return row

    def initializePage(self) -> None:
        type_id, depth = self._wizard.type_page.type_id, self._wizard.type_page.chosen_depth
        self.setSubTitle(
            tr(
                "Top-level {type} nodes at depth {depth}, oldest first. Uncheck the groups to "
                "leave as they are."
            ).format(type=type_id, depth=depth)
        )
        self.model.set_rows([])
        self.preview = None
        self.note.setText(tr("Looking for eligible groups…"))
        self.busy.show()
        app = self._wizard.app
        self._job = BackgroundJob(lambda: preview(app, type_id, depth), "memgraph-compaction")
        self._job.done.connect(self._on_preview_done)
        self._job.failed.connect(self._on_preview_failed)
        self._job.start()
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        return self.preview is not None and bool(self.model.checked_groups())

    def _on_preview_done(self, result: Preview) -> None:
        if self.sender() is not self._job:
            return  # an earlier query, overtaken by a new visit to this page
        self._job = None
        self.preview = result
        self.busy.hide()
        self.model.set_rows(result.groups)
        self.note.setText(result.note)
        self._on_checks_changed()

    def _on_preview_failed(self, error: BaseException) -> None:
        if self.sender() is not self._job:
            return
        self._job = None
        self.busy.hide()
        self.note.setText(tr("The groups could not be listed: {error}").format(error=error))

    def _on_check_all_clicked(self) -> None:
        self.model.set_all_checked(bool(self.sender().property("check_all")))

    def _on_checks_changed(self, *_args: object) -> None:
        count = len(self.model.checked_groups())
        self.setButtonText(QWizard.WizardButton.CommitButton, tr_n("Review %n group(s)", count))
        self.completeChanged.emit()


class ReportPage(QWizardPage):
    """Step 4: what was approved (with the new rollups), skipped and refused."""

    def __init__(self, wizard: WizardHost) -> None:
        super().__init__()
        self._wizard = wizard
        self.setTitle(tr("Report"))
        self.setSubTitle(" ")  # the modern style shows a header only for pages with a subtitle
        self.summary = plain_label()
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setObjectName("compaction-report")
        self.select_button = QPushButton(tr("Select the new rollups"))
        self.select_button.clicked.connect(self._on_select_clicked)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.details, 1)
        row = QHBoxLayout()
        row.addWidget(self.select_button)
        row.addStretch(1)
        layout.addLayout(row)

    def initializePage(self) -> None:
        report = self._wizard.report()
        self.setSubTitle(report.headline())
        self.summary.setText(tr("Each line is one group, in the order you reviewed them."))
        self.details.setPlainText("\n".join(report.lines()))
        self.select_button.setEnabled(bool(report.rollup_ids()))

    def _on_select_clicked(self) -> None:
        ids = self._wizard.report().rollup_ids()
        self._wizard.app.selection.select(ids, source=self._wizard)


def _table(model: GroupsTableModel) -> QTableView:
    table = QTableView()
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setAlternatingRowColors(True)
    table.verticalHeader().hide()
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    table.setColumnWidth(0, 96)
    table.setColumnWidth(1, 56)
    table.setColumnWidth(2, 96)
    table.setColumnWidth(3, 220)
    return table

"""``CompactionWizard``: choose a type and depth, see the eligible groups, review each group's
children beside an editable draft, approve or skip, read the report.

It never touches the store: the groups come from a query (``compactionCandidates``) and the
groups approved in one run are rolled up by one ``ops.compact_groups`` on the single writer, so
one run is one step in Edit ▸ Undo ("Undo Compact 4 groups"). Approvals are written when the
review ends, also when the wizard is cancelled or closed; the wizard closes itself when another
memory is opened (approvals not yet written are then dropped with the old memory).
"""

from __future__ import annotations

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.settings import load_endpoint
from memgraph_gui.views.qt import QWidget, QWizard, tr
from memgraph_gui.views.wizard.draft_panel import EndpointSource
from memgraph_gui.views.wizard.pages import GroupsPage, ReportPage, TypePage
from memgraph_gui.views.wizard.report import Outcome, Report
from memgraph_gui.views.wizard.review_page import ReviewPage


class CompactionWizard(QWizard):
    """The compaction wizard over one AppModel (pages: type, groups, review, report).

    ``endpoint`` supplies the AI draft endpoint (the saved preferences by default; tests pass
    their own). Writes carry ``initiator=self``.
    """

    def __init__(
        self,
        app: AppModel,
        parent: QWidget | None = None,
        *,
        endpoint: EndpointSource = load_endpoint,
    ) -> None:
        super().__init__(parent)
        self.app = app
        self.endpoint = endpoint
        self._report = Report()
        self._store_gone = False
        self.setObjectName("compaction-wizard")
        self.setWindowTitle(tr("Compaction Wizard"))
        self.setWizardStyle(QWizard.WizardStyle.ModernStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnLastPage, True)
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)
        self.resize(1000, 680)
        # each page takes the wizard as a WizardHost (views.wizard.host): mypy checks here that
        # the wizard has every member the pages use
        self.type_page = TypePage(self)
        self.groups_page = GroupsPage(self)
        self.review_page = ReviewPage(self)
        self.report_page = ReportPage(self)
        for page in (self.type_page, self.groups_page, self.review_page, self.report_page):
            self.addPage(page)
        app.store_replacing.connect(self._on_store_leaving)
        app.closing.connect(self._on_store_leaving)
        app.store_replaced.connect(self._on_store_replaced)

    @property
    def type_id(self) -> str:
        """The type chosen on the first page."""
        return self.type_page.type_id

    def instruction(self) -> str:
        """What the AI draft is told besides the entries: the first page's instruction field
        (the type's ``compression.summarizeInstruction`` unless edited there)."""
        return self.type_page.instruction.text()

    def start_report(self, total: int) -> None:
        """Begin a new report for ``total`` groups (the review page calls this)."""
        self._report = Report(total=total)

    def record(self, outcome: Outcome) -> None:
        """Add one group's outcome to the report."""
        self._report.outcomes.append(outcome)

    def report(self) -> Report:
        """The report so far."""
        return self._report

    def reject(self) -> None:
        """Cancel or close: groups approved but not yet written are written (as one step)."""
        if not self._store_gone:
            self.review_page.write_approved(then_report=False)
        super().reject()

    def _on_store_leaving(self) -> None:
        """Another memory is opened, or the app closes: the groups approved so far are written
        into the memory they were approved for before it is closed (its writes finish first)."""
        if not self._store_gone:
            self.review_page.write_approved(then_report=False)

    def _on_store_replaced(self) -> None:
        self._store_gone = True  # approvals were for the memory that is gone: never write them
        self.reject()

"""``WizardHost``: what the compaction wizard's pages read from the wizard that holds them.

The pages (``pages.py``, ``review_page.py``) are typed against this protocol rather than against
``CompactionWizard``, which imports them: the wizard folder reads top-down (host < pages <
review page < wizard). ``CompactionWizard`` satisfies it structurally; mypy checks that where the
wizard passes itself to each page (``TypePage(self)`` …). GUI thread only, like the wizard.
"""

from __future__ import annotations

from typing import Protocol

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.views.qt import QWizard, QWizardPage
from memgraph_gui.views.wizard.draft_panel import EndpointSource
from memgraph_gui.views.wizard.models import GroupsTableModel
from memgraph_gui.views.wizard.report import Outcome, Report


class ChosenType(Protocol):
    """The first page's choice, as the groups page reads it."""

    @property
    def type_id(self) -> str: ...

    @property
    def chosen_depth(self) -> int: ...


class CheckedGroups(Protocol):
    """The groups page, as the review page reads it: the table of groups and their checks."""

    @property
    def model(self) -> GroupsTableModel: ...


class WizardHost(Protocol):
    """Exactly the wizard members the pages use (and nothing they could write through but the
    report): the AppModel they read, the first two pages' choices, the report, the AI draft
    endpoint, and the four ``QWizard`` calls the review page makes to step on."""

    @property
    def app(self) -> AppModel: ...

    @property
    def endpoint(self) -> EndpointSource: ...

    @property
    def type_page(self) -> ChosenType: ...

    @property
    def groups_page(self) -> CheckedGroups: ...

    @property
    def type_id(self) -> str: ...

    def instruction(self) -> str: ...

    def start_report(self, total: int) -> None: ...

    def record(self, outcome: Outcome) -> None: ...

    def report(self) -> Report: ...

    def setOption(self, option: QWizard.WizardOption, /, on: bool = True) -> None: ...

    def currentPage(self) -> QWizardPage: ...

    def isVisible(self) -> bool: ...

    def next(self) -> None: ...

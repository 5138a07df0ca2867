"""The menu actions for the window: Tools ▸ Compaction Wizard…, Tools ▸ Review Rollups…,
Edit ▸ Preferences…. Each opens (or raises) one modeless window; the wizard and the review are
disabled while the memory is read-only."""

from __future__ import annotations

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.views.preferences import PreferencesDialog
from memgraph_gui.views.qt import QAction, QKeySequence, QObject, Qt, QWidget, tr
from memgraph_gui.views.wizard.compaction_wizard import CompactionWizard
from memgraph_gui.views.wizard.rollup_review import RollupReviewDialog


class CompactionActions(QObject):
    """Owns the three ``QAction``s (``compaction_wizard``, ``review_rollups``, ``preferences``)
    and the windows they open, parented to ``window``."""

    def __init__(self, app: AppModel, window: QWidget) -> None:
        super().__init__(window)
        self.app, self._window = app, window
        self.wizard: CompactionWizard | None = None
        self.review: RollupReviewDialog | None = None
        self.compaction_wizard = QAction(tr("Compaction &Wizard…"), window)
        self.compaction_wizard.setStatusTip(tr("Roll up runs of old nodes into summaries."))
        self.compaction_wizard.triggered.connect(self.open_wizard)
        self.review_rollups = QAction(tr("Review &Rollups…"), window)
        self.review_rollups.setStatusTip(tr("Edit a rollup's summary or dissolve it."))
        self.review_rollups.triggered.connect(self.open_review)
        self.preferences = QAction(tr("&Preferences…"), window)
        self.preferences.setShortcut(QKeySequence(QKeySequence.StandardKey.Preferences))
        self.preferences.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.preferences.triggered.connect(self.open_preferences)
        app.store_replaced.connect(self._on_store_replaced)
        self._on_store_replaced()

    def actions(self) -> tuple[QAction, QAction, QAction]:
        """(compaction wizard, review rollups, preferences)."""
        return self.compaction_wizard, self.review_rollups, self.preferences

    def open_wizard(self) -> CompactionWizard:
        """Show the wizard (a fresh one unless one is still open)."""
        if self.wizard is None or not self.wizard.isVisible():
            self.wizard = CompactionWizard(self.app, self._window)
        _raise(self.wizard)
        return self.wizard

    def open_review(self) -> RollupReviewDialog:
        """Show the rollup review (kept between openings)."""
        if self.review is None:
            self.review = RollupReviewDialog(self.app, self._window)
        _raise(self.review)
        return self.review

    def open_preferences(self) -> PreferencesDialog:
        """Show the preferences, modal."""
        dialog = PreferencesDialog(self._window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _on_store_replaced(self) -> None:
        writable = not self.app.read_only
        self.compaction_wizard.setEnabled(writable)
        self.review_rollups.setEnabled(writable)


def _raise(window: QWidget) -> None:
    window.show()
    window.raise_()
    window.activateWindow()

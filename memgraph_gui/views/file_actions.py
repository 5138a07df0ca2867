"""File menu work: New, Open, Open Recent, Import Luker…, Export Luker… — each off the GUI
thread with progress in the status bar, and a clear message when a file cannot be used."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memgraph_gui.app import files
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.opening import OpenProblem, demo_path
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.dialogs import confirm, show_error, show_problem
from memgraph_gui.views.qt import (
    QAction,
    QFileDialog,
    QKeySequence,
    QMenu,
    QObject,
    QWidget,
    Signal,
    tr,
)
from memgraph_gui.views.status_bar import StatusPanel
from memgraph_gui.views.window_settings import recent_files, remember_file

STORE_FILTER = "Memory stores (*.memgraph);;All files (*)"
JSON_FILTER = "Luker memory-graph export (*.json);;All files (*)"


class FileActions(QObject):
    """The File menu's actions over one window. ``opened(path)`` after a store was switched."""

    opened = Signal(str)
    previewed = Signal(object, object)  # GraphSnapshot, stamp: draw the file while it opens
    open_failed = Signal()

    def __init__(self, app: AppModel, window: QWidget, status: StatusPanel) -> None:
        super().__init__(window)
        self._app, self._window, self._status = app, window, status
        self._opener = files.StoreSwitcher(app)
        self.opening = False
        self.dialogs = True  # False: problems are only recorded (screenshots, scripted runs)
        self.problems_shown: list[OpenProblem] = []
        self.new = self._action(tr("&New…"), self._on_new, QKeySequence.StandardKey.New)
        self.open = self._action(tr("&Open…"), self._on_open, QKeySequence.StandardKey.Open)
        self.demo = self._action(tr("Open the &demo memory"), self._on_demo)
        self.import_luker = self._action(tr("&Import Luker export…"), self._on_import)
        self.export_luker = self._action(tr("&Export Luker export…"), self._on_export)
        self.recent_menu = QMenu(tr("Open &Recent"), window)
        self.recent_menu.aboutToShow.connect(self._fill_recent)

    def _action(
        self, text: str, slot: Callable[[], None], key: QKeySequence.StandardKey | None = None
    ) -> QAction:
        action = QAction(text, self._window)
        if key is not None:
            action.setShortcut(key)
        action.triggered.connect(slot)
        return action

    # -- opening ---------------------------------------------------------------------------------
    def open_path(self, path: str, *, create: bool = False) -> None:
        """Open ``path`` in the window (off the GUI thread). A file that cannot be used is
        explained in a dialog and the current memory stays open."""
        self.opening = True
        self._status.show_progress(tr("Opening {path}…").format(path=path))
        self._opener.open(path, self._on_opened, create=create, on_preview=self._on_previewed)

    def _on_previewed(self, snapshot: object, stamp: object) -> None:
        if self.opening:
            self.previewed.emit(snapshot, stamp)

    def open_demo(self) -> None:
        """Open the bundled demo memory (built on first use, off the GUI thread)."""
        self.opening = True
        self._status.show_progress(tr("Opening the demo memory…"))
        self._opener.open_demo(self._on_opened)

    def _on_opened(self, path: str | None, problem: OpenProblem | None) -> None:
        self._status.hide_progress()
        if path is not None:
            if path != ":memory:" and path != str(demo_path()):
                remember_file(path)
            self.opened.emit(path)
        else:
            self.open_failed.emit()
        self.opening = False
        if problem is not None:
            self.report(problem)

    def report(self, problem: OpenProblem) -> None:
        """Tell the user (a dialog, unless ``dialogs`` is off); every problem is recorded."""
        self.problems_shown.append(problem)
        if self.dialogs:
            show_problem(self._window, problem)

    def _on_new(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self._window, tr("New memory"), "", tr(STORE_FILTER))
        if path:
            if Path(path).suffix == "":
                path += ".memgraph"
            self.open_path(path, create=True)

    def _on_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self._window, tr("Open memory"), "", tr(STORE_FILTER))
        if path:
            self.open_path(path)

    def _on_demo(self) -> None:
        self.open_demo()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in recent_files():
            action = self.recent_menu.addAction(path)
            action.setData(path)
            action.triggered.connect(self._on_recent)
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction(tr("(no recent files)")).setEnabled(False)

    def _on_recent(self) -> None:
        action = self.sender()
        if isinstance(action, QAction) and action.data():
            self.open_path(str(action.data()))

    # -- import / export -------------------------------------------------------------------------------
    def _on_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self._window, tr("Import a Luker memory graph"), "", tr(JSON_FILTER)
        )
        if path:
            self.import_file(path)

    def import_file(self, path: str) -> None:
        """Import ``path`` into the open memory, asking first when that would replace nodes."""
        replace = self._app.counts().nodes > 0
        if replace and not confirm(
            self._window,
            tr("Replace this memory?"),
            tr(
                "{path} already holds {n} nodes. Importing replaces all of them.\n\n"
                "A copy of the current file is kept as {bak}."
            ).format(
                path=self._app.path, n=f"{self._app.counts().nodes:,}", bak=self._app.path + ".bak"
            ),
            tr("Replace"),
        ):
            return
        text = tr("Importing {path}…").format(path=path)
        self._status.show_progress(text)
        files.import_luker(
            self._app,
            path,
            replace=replace,
            on_done=self._on_imported,
            on_error=self._on_import_failed,
            on_progress=lambda done, total: self._status.show_progress(text, done, total),
        )

    def _on_imported(self, warnings: object) -> None:
        self._status.hide_progress()
        count = len(warnings) if isinstance(warnings, list) else 0
        if count:
            self._window.statusBar().showMessage(  # type: ignore[attr-defined]
                tr("Imported, with {n} repair(s) (see the CLI for details).").format(n=count), 8000
            )

    def _on_import_failed(self, error: MemgraphError) -> None:
        self._status.hide_progress()
        show_error(self._window, tr("Import failed — nothing was changed"), error)

    def _on_export(self) -> None:
        suggested = str(Path(self._app.path).with_suffix(".json"))
        path, _ = QFileDialog.getSaveFileName(
            self._window, tr("Export as a Luker memory graph"), suggested, tr(JSON_FILTER)
        )
        if path:
            self.export_file(path)

    def export_file(self, path: str) -> None:
        """Write the open memory to ``path`` as a Luker export."""
        self._status.show_progress(tr("Exporting to {path}…").format(path=path))
        files.export_luker(
            self._app, path, on_done=self._on_exported, on_error=self._on_export_failed
        )

    def _on_exported(self, written: object) -> None:
        self._status.hide_progress()
        self._window.statusBar().showMessage(tr("Exported to {path}").format(path=written), 8000)  # type: ignore[attr-defined]

    def _on_export_failed(self, error: MemgraphError) -> None:
        self._status.hide_progress()
        show_error(self._window, tr("Export failed"), error)

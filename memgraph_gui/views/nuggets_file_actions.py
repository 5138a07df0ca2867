"""File ▸ Import Nuggets graph.json… and File ▸ Export Nuggets graph.json…: the file is read and
checked off the GUI thread first (progress in the status bar), one question then says what the
import replaces, and only a yes writes (one undo step). An export over a graph.json changed on
disk since it was imported is refused, and the person is offered to overwrite it anyway."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from memgraph_gui.app import nuggets_files
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.dialogs import show_error
from memgraph_gui.views.file_dialogs import ask_file
from memgraph_gui.views.qt import QAction, QMessageBox, QObject, Qt, QWidget, Signal, tr
from memgraph_gui.views.status_bar import StatusPanel

GRAPH_FILTER = "Nuggets graph (graph.json *.json);;All files (*)"
OWNER = "nuggets"  # the status bar's progress owner


def ask_import(parent: QWidget | None, check: nuggets_files.NuggetsCheck) -> bool:
    """The file is checked: write its notes over the memory's? (True: yes.)"""
    text = tr(
        "Import {notes} from {path}?\n\nThey replace this memory's {held} (its other nodes "
        "stay). Edit ▸ Undo takes the import back."
    ).format(notes=_notes(check.notes), path=check.path, held=_notes(check.replaces))
    box = QMessageBox(
        QMessageBox.Icon.Question,
        tr("Import Nuggets notes?"),
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
        parent,
    )
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setDefaultButton(QMessageBox.StandardButton.Yes)
    box.setObjectName("ask-import-nuggets")
    return box.exec() == QMessageBox.StandardButton.Yes


def ask_overwrite(parent: QWidget | None, path: str, error: MemgraphError) -> bool:
    """The export was refused: ``path`` changed on disk since it was imported. Overwrite it
    anyway? (True: yes; the file on disk now is kept as NAME.bak.)"""
    text = tr(
        "{detail}\n\nOverwrite it anyway? What is in the file now is kept as {backup}."
    ).format(detail=error.message, backup=f"{path}.bak")
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        tr("graph.json changed on disk"),
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
        parent,
    )
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Yes).setText(tr("Overwrite"))
    box.setObjectName("ask-overwrite-graph-json")
    return box.exec() == QMessageBox.StandardButton.Yes


def _notes(count: int) -> str:
    return tr("1 note") if count == 1 else tr("{n} notes").format(n=f"{count:,}")


class NuggetsFileActions(QObject):
    """The two File menu actions over one window. ``checked(NuggetsCheck)`` once a file passed
    its check (before the question), ``imported(ImportResult)`` / ``exported(ExportResult)``
    once written, ``failed(MemgraphError)`` when a file could not be used (also shown, unless
    ``dialogs`` is off). The last request wins: an older check or one about a memory closed
    since is dropped."""

    checked = Signal(object)
    imported = Signal(object)
    exported = Signal(object)
    failed = Signal(object)

    def __init__(self, app: AppModel, window: QWidget, status: StatusPanel) -> None:
        super().__init__(window)
        self._app, self._window, self._status = app, window, status
        self._checker = nuggets_files.NuggetsChecker()
        self._request = 0
        self.dialogs = True
        self.ask_import: Callable[[QWidget, nuggets_files.NuggetsCheck], bool] = ask_import
        """Asks before the write (tests replace it)."""
        self.ask_overwrite: Callable[[QWidget, str, MemgraphError], bool] = ask_overwrite
        """Asks to overwrite a graph.json changed on disk (tests replace it)."""
        self.import_action = QAction(tr("Import &Nuggets graph.json…"), window)
        self.import_action.triggered.connect(self._on_import)
        self.export_action = QAction(tr("Export N&uggets graph.json…"), window)
        self.export_action.triggered.connect(self._on_export)
        app.store_replaced.connect(self._on_store_replaced)

    # -- import -------------------------------------------------------------------------------------
    def _on_import(self) -> None:
        path = ask_file(self._window, tr("Import a Nuggets graph.json"), "", tr(GRAPH_FILTER))
        if path:
            self.import_file(path)

    def import_file(self, path: str) -> None:
        """Read and check ``path`` off the GUI thread, ask, then write its notes (one undo
        step). A bad file is explained (the message names the place) and nothing is asked."""
        self._request += 1
        request = self._request
        text = tr("Checking {path}…").format(path=path)
        self._status.show_progress(text, owner=OWNER)
        self._checker.check(
            self._app,
            path,
            on_progress=partial(self._on_progress, request, text),
            on_done=partial(self._on_checked, request),
            on_error=partial(self._on_failed, request, tr("Import failed — nothing was changed")),
        )

    def _current(self, request: int) -> bool:
        return request == self._request

    def _on_store_replaced(self) -> None:
        """Work in flight was about the memory just closed: its result is dropped."""
        if self._status is not None:
            self._status.hide_progress(owner=OWNER)
        self._request += 1

    def _on_progress(self, request: int, text: str, done: int, total: int) -> None:
        if self._current(request):
            self._status.show_progress(text, done, total, owner=OWNER)

    def _on_checked(self, request: int, check: nuggets_files.NuggetsCheck) -> None:
        if not self._current(request):
            return
        self._status.hide_progress(owner=OWNER)
        if check.store is not self._app.store:
            self._note(
                tr("Import of {path} dropped: another memory was opened.").format(path=check.path)
            )
            return
        self.checked.emit(check)
        if not self.ask_import(self._window, check):
            self._note(tr("Import cancelled: nothing was changed."))
            return
        text = tr("Importing {path}…").format(path=check.path)
        self._status.show_progress(text, owner=OWNER)
        nuggets_files.install_nuggets(
            self._app,
            check,
            on_done=partial(self._on_imported, request, check),
            on_error=partial(self._on_failed, request, tr("Import failed — nothing was changed")),
            on_progress=partial(self._on_progress, request, text),
        )

    def _on_imported(self, request: int, check: nuggets_files.NuggetsCheck, result: object) -> None:
        if self._current(request):
            self._status.hide_progress(owner=OWNER)
        self._note(
            tr("Imported {notes} from {path}.").format(notes=_notes(check.notes), path=check.path)
        )
        self.imported.emit(result)

    def _on_failed(self, request: int, title: str, error: MemgraphError) -> None:
        if not self._current(request):
            return
        self._status.hide_progress(owner=OWNER)
        self.failed.emit(error)
        if self.dialogs:
            show_error(self._window, title, error)

    # -- export ---------------------------------------------------------------------------------
    def _on_export(self) -> None:
        suggested = str(Path(self._app.path).with_name("graph.json"))
        path = ask_file(
            self._window,
            tr("Export as a Nuggets graph.json"),
            suggested,
            tr(GRAPH_FILTER),
            save=True,
        )
        if path:
            self.export_file(path)

    def export_file(self, path: str, *, force: bool = False) -> None:
        """Write the memory's notes to ``path`` (on the writer). Over a graph.json changed on
        disk since it was imported, the person is asked to overwrite it anyway."""
        self._request += 1
        request = self._request
        self._status.show_progress(tr("Exporting to {path}…").format(path=path), owner=OWNER)
        nuggets_files.export_nuggets(
            self._app,
            path,
            force=force,
            on_done=partial(self._on_exported, request),
            on_error=partial(self._on_export_failed, request, path),
        )

    def _on_exported(self, request: int, result: object) -> None:
        if self._current(request):
            self._status.hide_progress(owner=OWNER)
        self._note(tr("Exported the notes to {path}").format(path=getattr(result, "path", "")))
        self.exported.emit(result)

    def _on_export_failed(self, request: int, path: str, error: MemgraphError) -> None:
        if not self._current(request):
            return
        self._status.hide_progress(owner=OWNER)
        if error.code == nuggets_files.CHANGED_ON_DISK:
            if self.ask_overwrite(self._window, path, error):
                self.export_file(path, force=True)
            else:
                self._note(tr("Export cancelled: {path} was left as it is.").format(path=path))
            return
        self.failed.emit(error)
        if self.dialogs:
            show_error(self._window, tr("Export failed"), error)

    def _note(self, text: str) -> None:
        self._window.statusBar().showMessage(text, 8000)  # type: ignore[attr-defined]

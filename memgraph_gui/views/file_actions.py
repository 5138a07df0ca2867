"""File menu work: New, Open, Open Recent, Import Luker…, Export Luker… — each off the GUI
thread with progress in the status bar, and a clear message when a file cannot be used."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from memgraph_gui.app import files
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.opening import OpenProblem, demo_path
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.dialogs import ask_empty_file, ask_start, show_error, show_problem
from memgraph_gui.views.file_dialogs import ask_file
from memgraph_gui.views.import_report import ImportReportDialog
from memgraph_gui.views.menu_text import menu_path
from memgraph_gui.views.qt import (
    QAction,
    QKeySequence,
    QMenu,
    QObject,
    QWidget,
    Signal,
    tr,
)
from memgraph_gui.views.status_bar import StatusPanel
from memgraph_gui.views.window_settings import (
    last_file,
    recent_files,
    remember_file,
    remember_last_file,
)

STORE_FILTER = "Memory stores (*.memgraph);;All files (*)"
JSON_FILTER = "Luker memory-graph export (*.json);;All files (*)"


class FileActions(QObject):
    """The File menu's actions over one window. ``opened(path)`` after a store was switched;
    ``open_failed()`` when an open ended without a switch (it failed, or a newer one replaced
    it: the last open asked for wins, see ``StoreSwitcher``); ``nothing_open()`` after that
    when no memory was ever open in the window (only its empty start-up stand-in, which is
    not offered for editing)."""

    opened = Signal(str)
    previewed = Signal(object, object)  # GraphSnapshot, stamp: draw the file while it opens
    open_failed = Signal()
    nothing_open = Signal()
    import_checked = Signal(object)  # the ImportReportDialog now asking
    imported = Signal(object)  # the ImportReport of what was written

    def __init__(self, app: AppModel, window: QWidget, status: StatusPanel) -> None:
        super().__init__(window)
        self._app, self._window, self._status = app, window, status
        self._opener = files.StoreSwitcher(app)
        self._checker = files.ImportChecker()
        self._import_request = 0
        self._checking = False
        app.store_replaced.connect(self._on_store_replaced)
        self.report_dialog: ImportReportDialog | None = None
        self.opening = False
        self.before_leaving: Callable[[Callable[[], object]], bool] = lambda _go: True
        """Asked before the open memory is left (another opened, or replaced by an import): True
        to go on now; False when the person cancelled, or chose Save (``go`` runs once written)."""
        self._after_open: Callable[[], None] | None = None  # an import asked for meanwhile
        self.dialogs = True  # False: problems are only recorded (screenshots, scripted runs)
        self.problems_shown: list[OpenProblem] = []
        self._had_memory = app.path != ":memory:"  # some memory was open in this window
        self.ask_empty: Callable[[QWidget, str], bool] = ask_empty_file
        """Asks before File ▸ Open makes a 0-byte file a new store (tests replace it)."""
        self.ask_start: Callable[[QWidget, OpenProblem | None], str] = ask_start
        """After a failed open left no memory: "demo", "open" or "" (tests replace it)."""
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
        explained in a dialog and the current memory stays open. An open still in flight is
        dropped: the last one asked for wins. Unsaved edits are settled first (see
        ``before_leaving``)."""
        if not self.before_leaving(partial(self.open_path, path, create=create)):
            return
        self._supersede()
        self.opening = True
        self._status.show_progress(tr("Opening {path}…").format(path=path), owner="open")
        self._status.set_opening(path)
        self._opener.open(path, self._on_opened, create=create, on_preview=self._on_previewed)

    def open_start(self) -> None:
        """What starting with no file opens: the memory open last time, else the demo."""
        last = last_file()
        if last is None or Path(last).parent == demo_path().resolve().parent:
            self.open_demo()  # (the demo of this version, rebuilt when it changed)
        else:
            self.open_path(last)

    def _on_previewed(self, snapshot: object, stamp: object) -> None:
        if self.opening:
            self.previewed.emit(snapshot, stamp)

    def open_demo(self) -> None:
        """Open the bundled demo memory (built on first use, off the GUI thread)."""
        if not self.before_leaving(self.open_demo):
            return
        self._supersede()
        self.opening = True
        self._status.show_progress(tr("Opening the demo memory…"), owner="open")
        self._status.set_opening(str(demo_path()))
        self._opener.open_demo(self._on_opened)

    def _supersede(self) -> None:
        """Drop the open in flight (and an import waiting for it): nothing of it is shown."""
        if not self._opener.discard():
            return
        self.opening = False
        self._status.hide_progress(owner="open")
        self._status.set_opening(None)
        self.open_failed.emit()  # its preview, if drawn, gives way to the open memory
        if self._after_open is not None:
            self._after_open = None
            self._note(tr("The import waiting for that memory was not started."))

    def _on_opened(self, path: str | None, problem: OpenProblem | None) -> None:
        self._status.hide_progress(owner="open")
        self._status.set_opening(None)
        after, self._after_open = self._after_open, None
        if path is not None:
            if path != ":memory:" and path != str(demo_path()):
                remember_file(path)
            if path != ":memory:":
                remember_last_file(path)
                self._had_memory = True
            self.opened.emit(path)
        else:
            self.open_failed.emit()
        self.opening = False
        stranded = path is None and not self._had_memory and self._app.path == ":memory:"
        if stranded:
            self.nothing_open.emit()
            if problem is not None:
                self.problems_shown.append(problem)
            if self.dialogs:
                self._offer_start(problem)
        elif problem is not None:
            self.report(problem)
        if after is not None:
            if path is not None:
                after()
            else:
                self._note(tr("The import was not started: the memory was not opened."))

    def _note(self, text: str) -> None:
        self._window.statusBar().showMessage(text, 8000)  # type: ignore[attr-defined]

    def report(self, problem: OpenProblem) -> None:
        """Tell the user (a dialog, unless ``dialogs`` is off); every problem is recorded."""
        self.problems_shown.append(problem)
        if self.dialogs:
            show_problem(self._window, problem)

    def _on_new(self) -> None:
        path = ask_file(self._window, tr("New memory"), "", tr(STORE_FILTER), save=True)
        if path:
            if Path(path).suffix == "":
                path += ".memgraph"
            self.open_path(path, create=True)

    def _offer_start(self, problem: OpenProblem | None) -> None:
        """No memory is open after ``problem``: offer the demo or File ▸ Open."""
        choice = self.ask_start(self._window, problem)
        if choice == "demo":
            self.open_demo()
        elif choice == "open":
            self._on_open()

    def _on_open(self) -> None:
        path = ask_file(self._window, tr("Open memory"), "", tr(STORE_FILTER))
        if path:
            self.open_existing(path)

    def open_existing(self, path: str) -> None:
        """Open ``path`` chosen as an existing memory (File ▸ Open, Open Recent): an empty
        (0-byte) file is made a new store only once the person agrees."""
        target = Path(path)
        if target.is_file() and target.stat().st_size == 0:
            if not self.ask_empty(self._window, path):
                return
            self.open_path(path, create=True)
            return
        self.open_path(path)

    def _on_demo(self) -> None:
        self.open_demo()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        self.recent_menu.setToolTipsVisible(True)
        for path in recent_files():
            action = self.recent_menu.addAction(menu_path(path))
            action.setToolTip(path)
            action.setData(path)
            action.triggered.connect(self._on_recent)
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction(tr("(no recent files)")).setEnabled(False)

    def _on_recent(self) -> None:
        action = self.sender()
        if isinstance(action, QAction) and action.data():
            self.open_existing(str(action.data()))

    # -- import / export -------------------------------------------------------------------------------
    def _on_import(self) -> None:
        path = ask_file(self._window, tr("Import a Luker memory graph"), "", tr(JSON_FILTER))
        if path:
            self.import_file(path)

    def import_file(self, path: str) -> None:
        """Import ``path`` into the open memory: read and check it off the GUI thread (progress in
        the status bar), show everything it repairs and adds in one dialog, and write only when
        the user confirms there (the same dialog asks to replace a memory that holds nodes). A
        file that fails the check is explained and nothing is asked. The last request wins. While
        a memory is being opened, the import waits for it and goes into that memory."""
        if self.opening:
            self._after_open = lambda: self.import_file(path)
            self._note(tr("The import starts once the memory is open."))
            return
        self._import_request += 1
        request = self._import_request
        self._checking = True
        self._status.show_progress(tr("Checking {path}…").format(path=path))
        self._checker.check(
            self._app,
            path,
            on_progress=partial(self._on_import_progress, request),
            on_done=partial(self._on_import_checked, request),
            on_error=partial(self._on_import_check_failed, request),
        )

    def _current_import(self, request: int) -> bool:
        return request == self._import_request

    def _on_store_replaced(self) -> None:
        """A check in flight was about the memory just closed: its result is dropped."""
        self._import_request += 1
        if self._checking:
            self._checking = False
            self._status.hide_progress()
            self._window.statusBar().showMessage(  # type: ignore[attr-defined]
                tr("Import dropped: another memory was opened."), 8000
            )

    def _on_import_progress(self, request: int, done: int, total: int, text: str) -> None:
        if self._current_import(request):
            self._status.show_progress(text, done, total)

    def _on_import_checked(self, request: int, check: files.ImportCheck) -> None:
        if not self._current_import(request):
            return  # a later import or another memory came since: they report instead
        self._checking = False
        self._status.hide_progress()
        if check.store is not self._app.store:  # its report is about the memory closed since
            self._window.statusBar().showMessage(  # type: ignore[attr-defined]
                tr("Import of {path} dropped: another memory was opened.").format(path=check.path),
                8000,
            )
            return
        dialog = ImportReportDialog(self._window, check, self._app.path)
        dialog.accepted.connect(partial(self._install, check))
        dialog.rejected.connect(self._on_import_cancelled)
        dialog.finished.connect(dialog.deleteLater)
        self.report_dialog = dialog
        dialog.open()
        self.import_checked.emit(dialog)

    def _on_import_check_failed(self, request: int, error: MemgraphError) -> None:
        if self._current_import(request):
            self._checking = False
            self._status.hide_progress()
            show_error(self._window, tr("Import failed — nothing was changed"), error)

    def _on_import_cancelled(self) -> None:
        self.report_dialog = None
        self._window.statusBar().showMessage(  # type: ignore[attr-defined]
            tr("Import cancelled: nothing was changed."), 8000
        )

    def _install(self, check: files.ImportCheck) -> None:
        self.report_dialog = None
        if check.replace and not self.before_leaving(partial(self._install, check)):
            return
        text = tr("Importing {path}…").format(path=check.path)
        self._status.show_progress(text)
        files.install_import(
            self._app,
            check,
            on_done=partial(self._on_imported, check),
            on_error=self._on_import_failed,
            on_progress=lambda done, total: self._status.show_progress(text, done, total),
        )

    def _on_imported(self, check: files.ImportCheck, _written: object) -> None:
        self._status.hide_progress()
        report = check.report
        self._window.statusBar().showMessage(  # type: ignore[attr-defined]
            _imported_message(report.nodes, report.links, report.repairs),
            8000,
        )
        self.imported.emit(report)

    def _on_import_failed(self, error: MemgraphError) -> None:
        self._status.hide_progress()
        show_error(self._window, tr("Import failed — nothing was changed"), error)

    def _on_export(self) -> None:
        suggested = str(Path(self._app.path).with_suffix(".json"))
        path = ask_file(
            self._window,
            tr("Export as a Luker memory graph"),
            suggested,
            tr(JSON_FILTER),
            save=True,
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


def _imported_message(nodes: int, links: int, repairs: int) -> str:
    """ "Imported 1,200 nodes and 3,400 links (2 repairs, as listed)." with plurals that agree."""
    what = tr("Imported {nodes} and {links}").format(
        nodes=(tr("1 node") if nodes == 1 else tr("{n} nodes").format(n=f"{nodes:,}")),
        links=(tr("1 link") if links == 1 else tr("{n} links").format(n=f"{links:,}")),
    )
    if repairs == 0:
        return what + tr(", with no repairs.")
    repaired = tr("1 repair") if repairs == 1 else tr("{n} repairs").format(n=f"{repairs:,}")
    return what + tr(" ({repairs}, as listed).").format(repairs=repaired)

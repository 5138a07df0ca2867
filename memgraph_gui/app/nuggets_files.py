"""graph.json work for the window: read and check a Nuggets graph.json off the GUI thread, then
write its notes into the open store (on the writer: one undo step), and export the store's
notes — each reporting back on the GUI thread, bound to the store and file it was for."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.files import FileChecker, Progressed, refuse_store_file, write_checked
from memgraph_gui.app.process_tuning import bulk_work
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.memory import MemoryStore
from memgraph_gui.core.nuggets import note_files
from memgraph_gui.core.nuggets.graph_file import GraphFile
from memgraph_gui.core.nuggets.model import is_note

CHANGED_ON_DISK = "FILE_CHANGED_ON_DISK"
"""The code of an export refused over a graph.json changed on disk since it was imported."""


@dataclass(frozen=True)
class NuggetsCheck:
    """A graph.json read and checked for one open store, not yet written: ``loaded`` holds its
    normalised notes; ``replaces`` is how many notes the store held when it was checked."""

    path: str
    store: MemoryStore
    loaded: GraphFile
    replaces: int

    @property
    def notes(self) -> int:
        return len(self.loaded.notes)


class NuggetsChecker(FileChecker):
    """Reads and checks a graph.json on a plain thread (nothing is written).

    ``check(app, path, on_progress=, on_done=, on_error=)`` returns at once; on the GUI thread
    ``on_progress(done, total)`` reports the notes checked, then ``on_done(NuggetsCheck)`` or
    ``on_error(MemgraphError)`` (a bad file: the message names the place). The caller drops a
    result that is no longer wanted (a newer check, another memory opened).
    """

    def check(
        self,
        app: AppModel,
        path: str,
        *,
        on_progress: Progressed,
        on_done: Callable[[NuggetsCheck], None],
        on_error: Callable[[MemgraphError], None],
    ) -> None:
        store = app.store
        last = [-1]

        def progress(done: int, total: int) -> None:  # worker thread: each percent once
            percent = 100 * done // max(total, 1)
            if percent != last[0]:
                last[0] = percent
                self._report(on_progress, done, total)

        def work() -> NuggetsCheck:
            with bulk_work():
                refuse_store_file(store.path, path)
                loaded = note_files.read_for_import(path, progress=progress)
            with store.reading() as graph:
                held = sum(1 for node in graph.nodes.values() if is_note(node))
            return NuggetsCheck(path, store, loaded, held)

        self._start("memgraph-nuggets-check", work, on_done, on_error)


def install_nuggets(
    app: AppModel,
    check: NuggetsCheck,
    *,
    on_done: Callable[[note_files.ImportResult], None],
    on_error: Callable[[MemgraphError], None],
    on_progress: Progressed | None = None,
) -> None:
    """Write a checked graph.json into the open store (on the writer): its notes replace the
    store's in one transaction, one undo step ("Import graph.json (N notes)"). ``IMPORT_STALE``
    when another memory was opened since the check. ``on_progress(done, total)`` on the GUI
    thread; ``on_done(ImportResult)``."""

    def write(
        store: MemoryStore, report: Callable[[int, int], None] | None
    ) -> note_files.ImportResult:
        return note_files.install_notes(
            store.storage, check.loaded, progress=report, origin=app.origin
        )

    write_checked(app, check.store, check.path, write, on_done, on_error, on_progress)


def export_nuggets(
    app: AppModel,
    path: str,
    *,
    force: bool,
    on_done: Callable[[note_files.ExportResult], None],
    on_error: Callable[[MemgraphError], None],
) -> None:
    """Write the open store's notes to ``path`` as graph.json (temp file, fsync, rename,
    ``.bak`` kept), on the writer. ``FILE_CHANGED_ON_DISK`` (``CHANGED_ON_DISK``) when ``path``
    changed on disk since it was imported into this store, unless ``force``; the store's own
    files are refused (``refuse_store_file``)."""

    def work(store: MemoryStore) -> note_files.ExportResult:
        refuse_store_file(store.path, path)
        return note_files.export_graph_file(store.storage, path, force=force)

    app.run_store_op(work, on_done=on_done, on_error=on_error)

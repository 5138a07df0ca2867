"""File work for the window: open a store, import and export Luker documents — all off the GUI
thread (a 50k store takes ~1 s to open), reporting back on the GUI thread."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.graph_data import GraphSnapshot, snapshot_from_preview
from memgraph_gui.app.opening import OpenProblem, describe, read_only_notice
from memgraph_gui.app.process_tuning import bulk_work
from memgraph_gui.app.qt import QObject, Qt, QTimer, Signal
from memgraph_gui.core.domain.errors import MemgraphError, as_memgraph_error
from memgraph_gui.core.luker import interop
from memgraph_gui.core.memory import MemoryStore
from memgraph_gui.core.storage.preview import StorePreview

Opened = Callable[[MemoryStore | None, OpenProblem | None], None]
Switched = Callable[[str | None, OpenProblem | None], None]
Previewed = Callable[[GraphSnapshot, tuple[str, int]], None]
PREVIEW_WAIT = 1.0  # seconds an open waits for its preview to be painted


class StoreSwitcher:
    """Opens a file off the GUI thread and makes it the app's store: ``on_done(path, problem)``
    runs on the GUI thread after the switch (``path`` None when the file could not be opened;
    the current store then stays). Views use this, so they never hold a store."""

    def __init__(self, app: AppModel) -> None:
        self._app = app
        self._opener = StoreOpener()

    def open(
        self, path: str, on_done: Switched, *, create: bool = False, on_preview: Previewed | None
    ) -> None:
        """Open ``path`` (an existing store, or a new one with ``create``)."""
        self._opener.open(path, self._switch(on_done), create=create, on_preview=on_preview)

    def open_demo(self, on_done: Switched) -> None:
        """Open the bundled demo memory (built on first use)."""
        from memgraph_gui.app.opening import demo_path, open_demo

        self._opener.open_with(open_demo, str(demo_path()), self._switch(on_done))

    def _switch(self, on_done: Switched) -> Opened:
        def switched(store: MemoryStore | None, problem: OpenProblem | None) -> None:
            if store is not None:
                self._app.replace_store(store)
            on_done(store.path if store is not None else None, problem)

        return switched


class StoreOpener(QObject):
    """Opens a store on a plain thread (not the writer: the current store stays usable).

    ``open(path, on_done, create=)`` calls ``on_done(store, problem)`` on the GUI thread with
    ``(store, None)``, ``(store, notice)`` for a read-only file, or ``(None, problem)``.
    """

    _opened = Signal(object)
    _previewed = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self._opened.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self._previewed.connect(self._deliver_preview, Qt.ConnectionType.QueuedConnection)

    def open(
        self,
        path: str,
        on_done: Opened,
        *,
        create: bool = False,
        on_preview: Previewed | None = None,
    ) -> None:
        """Start opening ``path``; returns at once. With ``on_preview``, what the graph view
        draws is handed over as soon as the store has read its rows (drawn while it opens)."""

        def make() -> MemoryStore:
            hook = None if on_preview is None else partial(self._preview, on_preview)
            return MemoryStore.open(path, create=create, on_preview=hook, index_edges=False)

        self.open_with(make, path, on_done)

    def _preview(self, on_preview: Previewed, preview: StorePreview) -> None:  # opener thread
        """Hand the picture to the GUI thread, then wait (≤ ``PREVIEW_WAIT``) until it is
        painted before building the graph: both need the GIL, and sharing it made the picture
        ~0.7 s later at 50k while the open took as long either way."""
        if not preview.ids or preview.positioned < len(preview.ids):
            return  # nothing to draw yet: a store without a saved layout is laid out once open
        painted = threading.Event()
        snapshot = snapshot_from_preview(preview)
        self._previewed.emit((on_preview, snapshot, preview.stamp, painted))
        painted.wait(PREVIEW_WAIT)

    def _deliver_preview(
        self, item: tuple[Previewed, GraphSnapshot, tuple[str, int], threading.Event]
    ) -> None:
        on_preview, snapshot, stamp, painted = item
        try:
            on_preview(snapshot, stamp)
        finally:
            QTimer.singleShot(0, painted.set)  # after the paint it asked for

    def open_with(self, make: Callable[[], MemoryStore], path: str, on_done: Opened) -> None:
        """Start ``make()`` (which opens a store, e.g. building the demo); returns at once."""

        def work() -> None:
            try:
                store = make()
            except MemgraphError as exc:
                self._opened.emit((on_done, None, describe(path, exc)))
            except Exception as exc:  # a bug must still reach the user as a message
                self._opened.emit((on_done, None, describe(path, as_memgraph_error(exc))))
            else:
                self._opened.emit((on_done, store, read_only_notice(store)))

        threading.Thread(target=work, name="memgraph-open", daemon=True).start()

    def _deliver(self, item: tuple[Opened, MemoryStore | None, OpenProblem | None]) -> None:
        on_done, store, problem = item
        on_done(store, problem)


Progressed = Callable[[int, int], None]


class ProgressRelay(QObject):
    """Hands ``(done, total)`` reports from a worker thread to ``on_progress`` on the GUI thread,
    one per percent at most (a 50k import reports ~40 times, not once per row batch only)."""

    _reported = Signal(int, int)

    def __init__(self, on_progress: Progressed, parent: QObject) -> None:
        super().__init__(parent)  # owned by Qt: dropping the last Python reference on the worker
        # thread deletes nothing; ``deleteLater`` on the GUI thread does
        self._last = -1
        self._reported.connect(on_progress, Qt.ConnectionType.QueuedConnection)

    def report(self, done: int, total: int) -> None:  # any thread
        percent = 100 * done // max(total, 1)
        if percent != self._last:
            self._last = percent
            self._reported.emit(done, total)


def import_luker(
    app: AppModel,
    path: str,
    *,
    replace: bool,
    on_done: Callable[[object], None],
    on_error: Callable[[MemgraphError], None],
    on_progress: Progressed | None = None,
) -> None:
    """Validate the whole Luker export at ``path``, then load it into the open store in one
    transaction (``replace`` keeps the old contents as ``NAME.bak``). Runs on the writer; the
    window keeps reading the old graph meanwhile and gets the new one when it commits.
    ``on_progress(done, total)`` runs on the GUI thread as the rows are written."""
    relay = ProgressRelay(on_progress, app) if on_progress is not None else None
    report = relay.report if relay is not None else None

    def work(store: MemoryStore) -> object:
        with bulk_work():  # tuned only when the window's entry point opted in
            prepared = interop.prepare_import_files(path)
            interop.install_import(store.storage, prepared, replace=replace, progress=report)
        return prepared.parsed.warnings

    def ended(then: Callable[[Any], None], outcome: Any) -> None:
        if relay is not None:
            relay.deleteLater()  # after the reports already queued
        then(outcome)

    app.run_store_op(work, on_done=partial(ended, on_done), on_error=partial(ended, on_error))


def export_luker(
    app: AppModel,
    path: str,
    *,
    on_done: Callable[[object], None],
    on_error: Callable[[MemgraphError], None],
) -> None:
    """Write the open store as a Luker export (temp file, fsync, rename; ``.bak`` kept)."""

    def work(store: MemoryStore) -> str:
        interop.export_luker_file(store.storage, path)
        return str(Path(path).resolve())

    app.run_store_op(work, on_done=on_done, on_error=on_error)

"""File work for the window: open a store, import and export Luker documents — all off the GUI
thread (a 50k store takes ~1 s to open), reporting back on the GUI thread."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.graph_data import GraphSnapshot
from memgraph_gui.app.opening import OpenProblem, describe, read_only_notice
from memgraph_gui.app.process_tuning import bulk_work
from memgraph_gui.app.qt import QObject, Qt, QTimer, Signal, tr
from memgraph_gui.app.reads import warm
from memgraph_gui.core.domain.errors import MemgraphError, as_memgraph_error
from memgraph_gui.core.luker import interop
from memgraph_gui.core.luker.import_report import ImportReport
from memgraph_gui.core.memory import MemoryStore
from memgraph_gui.core.storage.safe_io import read_json

Opened = Callable[[MemoryStore | None, OpenProblem | None], None]
Switched = Callable[[str | None, OpenProblem | None], None]
Previewed = Callable[[GraphSnapshot, tuple[str, int]], None]
PREVIEW_WAIT = 1.0  # seconds an open waits for its preview to be painted
SQLITE_FILES = ("", "-wal", "-shm", "-journal")  # the store file and SQLite's files beside it


def refuse_store_file(store_path: str, path: str) -> None:
    """Raise ``BAD_ARGS`` when ``path`` is the open store's file or one of SQLite's files beside
    it (same device and inode; ``stat`` only, nothing is opened). Reading such a file from this
    process outside SQLite drops SQLite's POSIX locks on it (closing any descriptor of a file
    releases them all), and writing one would replace the store. Any thread."""
    try:
        target = os.stat(path)
    except OSError:
        return  # a new file (export), or one the read itself reports
    for suffix in SQLITE_FILES:
        try:
            ours = os.stat(store_path + suffix)
        except OSError:
            continue
        if (ours.st_dev, ours.st_ino) == (target.st_dev, target.st_ino):
            raise MemgraphError(
                "BAD_ARGS",
                f"{path} is a file of the open memory store, not a Luker export: choose a "
                ".json file",
            )


class StoreSwitcher:
    """Opens a file off the GUI thread and makes it the app's store: ``on_done(path, problem)``
    runs on the GUI thread after the switch (``path`` None when the file could not be opened;
    the current store then stays, or is open again). Views use this, so they never hold a store.

    One graph at a time (``open``): once the file is checked (it is a store this version reads,
    its rows' JSON is valid: all in SQL), the app lets go of a file-backed store
    (``AppModel.let_go``: its queued writes finish, it is closed) before the rows are read and
    the new graph is built. Reading and building them while the old graph was alive left the
    process holding both graphs' memory for good (CPython's arenas go back only when entirely
    free: +40% RSS over 20 opens at 50k). A file that fails its check leaves the open store
    untouched; an open that fails after the let-go opens the file let go again (every write
    was committed before it was closed) and reports the problem. An in-memory store cannot be
    opened again, so it stays until the switch.

    The last request wins: each ``open`` / ``open_demo`` supersedes the one in flight, whose
    store is closed when it arrives and whose preview, result and problem are dropped (its
    ``on_done`` never runs). ``discard()`` drops the one in flight without a new one; closing
    the app model does too.
    """

    def __init__(self, app: AppModel) -> None:
        self._app = app
        self._opener = StoreOpener()
        self._ticket = 0  # the open whose result is wanted; older ones are dropped
        self._in_flight = False
        app.closing.connect(self.discard)  # an open landing after the app closed is dropped

    @property
    def in_flight(self) -> bool:
        """True while the latest open has not reported back."""
        return self._in_flight

    def open(
        self, path: str, on_done: Switched, *, create: bool = False, on_preview: Previewed | None
    ) -> None:
        """Open ``path`` (an existing store, or a new one with ``create``), letting go of the
        open store before its graph is built (see the class)."""
        ticket = self._next()
        preview = None if on_preview is None else self._bound_preview(ticket, on_preview)
        self._opener.open(
            path,
            self._switch(ticket, on_done),
            create=create,
            on_preview=preview,
            wanted=lambda: ticket == self._ticket,
            let_go=partial(self._let_go, ticket, path),
        )

    def open_demo(self, on_done: Switched) -> None:
        """Open the bundled demo memory (built on first use)."""
        from memgraph_gui.app.opening import demo_path, open_demo

        ticket = self._next()
        self._opener.open_with(open_demo, str(demo_path()), self._switch(ticket, on_done))

    def discard(self) -> bool:
        """Drop the open in flight (its store is closed when it arrives); True if there was one."""
        was, self._in_flight = self._in_flight, False
        self._ticket += 1
        return was

    def _next(self) -> int:
        self._ticket += 1
        self._in_flight = True
        return self._ticket

    def _bound_preview(self, ticket: int, on_preview: Previewed) -> Previewed:
        def previewed(snapshot: GraphSnapshot, stamp: tuple[str, int]) -> None:
            if ticket == self._ticket:  # a superseded open draws nothing
                on_preview(snapshot, stamp)

        return previewed

    def _let_go(self, ticket: int, path: str) -> bool:
        """The open ``ticket``'s file is checked: let go of the open store (GUI thread). False
        when that open is no longer wanted (it then stops before reading its rows)."""
        while ticket == self._ticket and self._app.runner.busy:
            self._app.runner.wait_idle()  # as in ``switched``: never close under a write
        if ticket != self._ticket:
            return False
        self._app.let_go(path)
        return ticket == self._ticket  # (a newer open may have come during the wait)

    def _switch(self, ticket: int, on_done: Switched) -> Opened:
        def switched(store: MemoryStore | None, problem: OpenProblem | None) -> None:
            while ticket == self._ticket and self._app.runner.busy:
                # queued writes finish first, however long (never close a store under a
                # running write); a newer open may report back meanwhile
                self._app.runner.wait_idle()
            if ticket != self._ticket:
                if store is not None:
                    store.close()  # superseded: nothing of it is shown
                return
            if store is None and self._app.left is not None:
                self._reopen(ticket, self._app.left, problem, on_done)
                return
            self._in_flight = False
            if store is not None:
                self._app.replace_store(store)
            on_done(store.path if store is not None else None, problem)

        return switched

    def _reopen(
        self, ticket: int, left: str, problem: OpenProblem | None, on_done: Switched
    ) -> None:
        """The open failed after the app let go of ``left``: open ``left`` again, make it the
        app's store and then report ``problem`` (``on_done(None, problem)``). Should ``left``
        fail too, the app keeps its empty stand-in and both problems are reported."""

        def reopened(store: MemoryStore | None, again: OpenProblem | None) -> None:
            if ticket != self._ticket:
                if store is not None:
                    store.close()  # a newer open came meanwhile: it ends the stand-in
                return
            self._in_flight = False
            if store is not None:
                self._app.replace_store(store)
                on_done(None, problem)
            else:
                self._app.stand_alone()
                on_done(None, _not_reopened(left, problem, again))

        self._opener.open(left, reopened, create=False)


def _not_reopened(
    left: str, problem: OpenProblem | None, again: OpenProblem | None
) -> OpenProblem | None:
    """``problem``, plus why ``left`` (the memory let go for it) could not be opened again."""
    if problem is None or again is None:
        return problem or again
    message = (
        problem.message
        + "\n\n"
        + tr(
            "{left} could not be opened again either; an empty memory, not saved anywhere, is open "
            "instead.\n\n{reason}"
        ).format(left=left, reason=again.message)
    )
    return OpenProblem(problem.code, problem.title, message)


class StoreOpener(QObject):
    """Opens a store on a plain thread (not the writer: the current store stays usable).

    ``open(path, on_done, create=)`` calls ``on_done(store, problem)`` on the GUI thread with
    ``(store, None)``, ``(store, notice)`` for a read-only file, or ``(None, problem)``.
    """

    _opened = Signal(object)
    _previewed = Signal(object)
    _letting_go = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self._opened.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self._previewed.connect(self._deliver_preview, Qt.ConnectionType.QueuedConnection)
        self._letting_go.connect(self._deliver_let_go, Qt.ConnectionType.QueuedConnection)

    def open(
        self,
        path: str,
        on_done: Opened,
        *,
        create: bool = False,
        on_preview: Previewed | None = None,
        wanted: Callable[[], bool] | None = None,
        let_go: Callable[[], bool] | None = None,
    ) -> None:
        """Start opening ``path``; returns at once. With ``on_preview``, what the graph view
        draws is handed over as soon as the store has read its rows (drawn while it opens);
        ``wanted()`` (asked on the opener thread) False skips the preview of a superseded open.
        With ``let_go``, once the file is checked, ``let_go()`` runs on the GUI thread, and the
        rows are read and the graph built only after it returned True (False, or ``wanted()``
        turning False meanwhile, ends the open: ``on_done`` then gets no store, no problem).
        """

        def make() -> MemoryStore:
            hook = None if on_preview is None else partial(self._preview, on_preview, wanted)
            handshake = None if let_go is None else partial(self._handshake, let_go, wanted)
            store = MemoryStore.open(
                path, create=create, on_preview=hook, before_build=handshake, index_edges=False
            )
            # The panes' first reads (the Find box's index: ~1.7 s at 200k) are made here, not
            # on the GUI thread; the view's own rows only if it reads the graph again (not when
            # it keeps the picture it drew while the file opened).
            try:
                with store.reading() as graph:
                    warm(graph, picture=False)
            except BaseException:
                store.close()
                raise
            return store

        self.open_with(make, path, on_done)

    def _handshake(self, let_go: Callable[[], bool], wanted: Callable[[], bool] | None) -> None:
        """Opener thread, the file checked: have ``let_go()`` run on the GUI thread and
        wait for it; ``_Dropped`` when the open is no longer wanted."""
        answered = threading.Event()
        answer: list[bool] = []
        if wanted is None or wanted():
            self._letting_go.emit((let_go, answer, answered))
            while not answered.wait(0.05):
                if wanted is not None and not wanted() and not answer:
                    break  # superseded, or the app closed (then nobody may answer)
        if not (answer and answer[0]):
            raise _Dropped

    def _deliver_let_go(self, item: tuple[Callable[[], bool], list[bool], threading.Event]) -> None:
        let_go, answer, answered = item
        try:
            answer.append(let_go())
        finally:
            answered.set()

    def _preview(
        self,
        on_preview: Previewed,
        wanted: Callable[[], bool] | None,
        snapshot: GraphSnapshot,
        stamp: tuple[str, int],
    ) -> None:  # opener thread
        """Hand the picture (the store's saved layout, every node placed) to the GUI thread,
        then wait (≤ ``PREVIEW_WAIT``) until it is painted before building the graph: both
        need the GIL, and sharing it made the picture ~0.7 s later at 50k while the open took
        as long either way."""
        if wanted is not None and not wanted():
            return  # superseded by a newer open: not worth drawing
        painted = threading.Event()
        self._previewed.emit((on_preview, snapshot, stamp, painted))
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
            except _Dropped:
                self._opened.emit((on_done, None, None))  # superseded: dropped there
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


class _Dropped(Exception):
    """An open stopped before its graph was built: a newer one came, or the app closed."""


@dataclass(frozen=True)
class ImportCheck:
    """A Luker file read and checked against one open store, not yet written.

    ``report`` lists every repair and what importing adds or replaces; ``replace`` is True when
    the store held nodes when it was checked. ``install_import`` writes it into that store only.
    """

    path: str
    store: MemoryStore
    prepared: interop.PreparedImport

    @property
    def report(self) -> ImportReport:
        return self.prepared.report

    @property
    def replace(self) -> bool:
        plan = self.prepared.report.plan
        return plan is not None and plan.replace


Progress = Callable[[int, int, str], None]
CHECK_STAGES = 3


class FileChecker(QObject):
    """Reads and checks a file on a plain thread (not the writer: nothing is written), with its
    progress and its answer handed to the GUI thread (the base of ``ImportChecker`` and
    ``NuggetsChecker``)."""

    _progressed = Signal(object)
    _finished = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self._progressed.connect(self._deliver_progress, Qt.ConnectionType.QueuedConnection)
        self._finished.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    def _report(self, on_progress: Callable[..., None], *args: object) -> None:
        """``on_progress(*args)`` on the GUI thread (worker thread)."""
        self._progressed.emit((on_progress, args))

    def _start(
        self,
        name: str,
        work: Callable[[], object],
        on_done: Callable[[Any], None],
        on_error: Callable[[MemgraphError], None],
    ) -> None:
        """Run ``work()`` on a daemon thread ``name``; on the GUI thread ``on_done(result)``, or
        ``on_error`` with what it raised (a bug too, as a ``MemgraphError``)."""

        def run() -> None:
            try:
                result: object = work()
            except Exception as exc:  # a bug must still reach the user as a message
                result = as_memgraph_error(exc)
            self._finished.emit((on_done, on_error, result))

        threading.Thread(target=run, name=name, daemon=True).start()

    def _deliver_progress(self, item: tuple[Callable[..., None], tuple[object, ...]]) -> None:
        on_progress, args = item
        on_progress(*args)

    def _deliver(self, item: tuple[Callable[..., None], Callable[..., None], object]) -> None:
        on_done, on_error, result = item
        if isinstance(result, MemgraphError):
            on_error(result)
        else:
            on_done(result)


class ImportChecker(FileChecker):
    """Reads and checks a Luker file on a plain thread (not the writer: nothing is written).

    ``check(app, path, on_progress=, on_done=, on_error=)`` returns at once; on the GUI thread
    ``on_progress(done, total, text)`` reports each stage (reading, checking, comparing with the
    open memory), then ``on_done(ImportCheck)`` or ``on_error(MemgraphError)``: a file that fails
    the check never reaches ``on_done``.
    """

    def check(
        self,
        app: AppModel,
        path: str,
        *,
        on_progress: Progress,
        on_done: Callable[[ImportCheck], None],
        on_error: Callable[[MemgraphError], None],
    ) -> None:
        store = app.store

        def stage(done: int, text: str) -> None:
            self._report(on_progress, done, CHECK_STAGES, text)

        def work() -> ImportCheck:
            # all three stages as one bulk work (tuned only when the window's entry point
            # opted in): with the collector on, parsing set off full collections of the
            # growing heap that held the GIL for 0.2-0.35 s each at 50k
            with bulk_work():
                stage(0, tr("Reading {path}…").format(path=path))
                refuse_store_file(store.path, path)
                doc = read_json(path)
                stage(1, tr("Checking {path}…").format(path=path))
                prepared = interop.prepare_import(doc, prechecked=True, source=path)
                interop.release_document(doc)  # a slice at a time, not in one 35 ms call
                del doc
                stage(2, tr("Comparing {path} with this memory…").format(path=path))
                checked = interop.check_import(store.storage, prepared)
            return ImportCheck(path, store, checked)

        self._start("memgraph-import-check", work, on_done, on_error)


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


def install_import(
    app: AppModel,
    check: ImportCheck,
    *,
    on_done: Callable[[object], None],
    on_error: Callable[[MemgraphError], None],
    on_progress: Progressed | None = None,
) -> None:
    """Write a checked import into the open store in one transaction (on the writer), replacing
    its nodes when it had some when checked (the old file kept as ``NAME.bak``). Refused with
    ``IMPORT_STALE`` when another memory was opened since the check, and ``STORE_NOT_EMPTY``
    when the store got nodes since a check that found it empty. The window keeps reading the
    old graph meanwhile and gets the new one when it commits; ``on_progress(done, total)`` runs
    on the GUI thread as the rows are written. ``on_done(ImportReport)``; the report is kept in
    the store with the imported rows."""

    def write(store: MemoryStore, report: Callable[[int, int], None] | None) -> object:
        interop.install_import(
            store.storage, check.prepared, replace=check.replace, progress=report
        )
        # its rows are freed between frames, not in one call where the check is let go of
        app.disposal.put(interop.releasing_prepared(check.prepared))
        return check.report

    write_checked(app, check.store, check.path, write, on_done, on_error, on_progress)


def write_checked(
    app: AppModel,
    checked: MemoryStore,
    path: str,
    write: Callable[[MemoryStore, Callable[[int, int], None] | None], Any],
    on_done: Callable[[Any], None],
    on_error: Callable[[MemgraphError], None],
    on_progress: Progressed | None,
) -> None:
    """Run ``write(store, report)`` on the writer for a file checked against ``checked``
    (``IMPORT_STALE`` when another memory was opened since), tuned for bulk work when the entry
    point opted in; ``report(done, total)`` reaches ``on_progress`` on the GUI thread, each
    percent once (None without ``on_progress``). ``on_done(result)`` / ``on_error`` on the GUI
    thread, after the progress already reported."""
    relay = ProgressRelay(on_progress, app) if on_progress is not None else None

    def work(store: MemoryStore) -> Any:
        if store is not checked:
            raise MemgraphError(
                "IMPORT_STALE",
                f"another memory was opened after {path} was checked; import it again",
            )
        with bulk_work():  # tuned only when the window's entry point opted in
            return write(store, relay.report if relay is not None else None)

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
    """Write the open store as a Luker export (temp file, fsync, rename; ``.bak`` kept). The
    store's own files are refused (``refuse_store_file``)."""

    def work(store: MemoryStore) -> str:
        refuse_store_file(store.path, path)
        interop.export_luker_file(store.storage, path)
        return str(Path(path).resolve())

    app.run_store_op(work, on_done=on_done, on_error=on_error)

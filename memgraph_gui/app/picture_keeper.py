"""``PictureKeeper``: keeps the picture stored beside the layout current while a window is open,
so the next open of a big memory draws it from one read (``MemoryStore.refresh_picture``).

When the memory has been quiet for ``QUIET_MS`` after an open or a change to what the graph
draws (its own edits, an undo, another process's, a layout saved here or elsewhere), it asks
the store whether the kept picture is stale (a few SQL reads); if so, a **child process**
(``memgraph picture --db FILE``, at a lower CPU priority, as ``children.CHILD`` runs it) makes
and writes a new one (one transaction; not an undo step, no ChangeSet), unless the file changed
meanwhile. Chosen by measurement (``bench_200k``'s injection row): made on a thread of the
window at 200k nodes, its ~1 s of Python held the window's paint of another process's injection
change back by up to 730 ms; a child shares no GIL. The injection state an agent writes each
turn leaves the picture current, and does not count as a change here. The child is ended when
the window leaves the store or closes (its write is all or nothing).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Protocol

from memgraph_gui.app import children
from memgraph_gui.app.qt import QObject, QProcess, QTimer, Signal, SignalInstance

if TYPE_CHECKING:
    from memgraph_gui.core.domain.changes import ChangeSet
    from memgraph_gui.core.memory import MemoryStore

log = logging.getLogger(__name__)
QUIET_MS = 20_000
"""How long the memory must be quiet (no change to what the graph draws) before the kept
picture is looked at."""


class PictureHost(Protocol):
    """The AppModel as the keeper uses it."""

    store_replaced: SignalInstance
    store_replacing: SignalInstance
    changes_applied: SignalInstance
    busy_changed: SignalInstance
    closing: SignalInstance

    @property
    def store(self) -> MemoryStore: ...

    @property
    def closed(self) -> bool: ...


def _drawn_changed(changes: ChangeSet) -> bool:
    """Does ``changes`` touch what the kept picture holds (nodes, edges, pins, positions)?"""
    return bool(
        changes.nodes_added
        or changes.nodes_updated
        or changes.nodes_removed
        or changes.nodes_archived
        or changes.nodes_restored
        or changes.edges_changed
        or changes.pins_changed
        or changes.positions_saved
    )


class PictureKeeper(QObject):
    """Keeps ``app``'s store's picture current (GUI thread API). ``finished(bool)`` after each
    child: True when it wrote (or dropped) a picture."""

    finished = Signal(bool)

    def __init__(self, app: PictureHost, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self.quiet_ms = QUIET_MS  # (tests shorten it)
        self.min_nodes: int | None = None  # (tests lower it; None: the store's own default)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._look)
        self._child: QProcess | None = None
        self._again = False  # a change came while the child ran: look again after it
        app.store_replaced.connect(self.soon)
        app.changes_applied.connect(self._on_changes)
        app.busy_changed.connect(self._writer_busy)  # (a layout saved here: no ChangeSet)
        app.store_replacing.connect(self._stop)
        app.closing.connect(self._stop)

    @property
    def running(self) -> bool:
        """True while a child makes a picture."""
        return self._child is not None

    def soon(self) -> None:
        """Look once the memory has been quiet for ``quiet_ms`` (from now)."""
        if self._child is not None:
            self._again = True
        else:
            self._timer.start(self.quiet_ms)

    def _on_changes(self, changes: ChangeSet, _initiator: object) -> None:
        if _drawn_changed(changes):
            self.soon()

    def _writer_busy(self, busy: bool) -> None:
        if not busy:
            self.soon()

    def _look(self) -> None:
        app = self._app
        store = app.store
        if app.closed or store.closed or store.path == ":memory:" or self._child is not None:
            return
        try:
            if not store.picture_wanted(min_nodes=self.min_nodes):
                return
        except Exception:  # e.g. the file went away: the next change looks again
            log.debug("memgraph: looking at the kept picture failed", exc_info=True)
            return
        self._again = False
        process = self._child = QProcess(self)
        process.setProcessEnvironment(children.child_environment())
        process.setWorkingDirectory(children.ROOT)
        process.finished.connect(lambda code, _status: self._ended(process, code))
        process.errorOccurred.connect(lambda error: self._failed(process, error))
        least = [] if self.min_nodes is None else ["--min-nodes", str(self.min_nodes)]
        process.start(*children.child_command("picture", "--db", store.path, *least))

    def _ended(self, process: QProcess, code: int) -> None:
        out = bytes(process.readAllStandardOutput().data()).decode("utf-8", "replace")
        process.deleteLater()
        if process is not self._child:
            return  # ended by ``_stop``: the window left the store
        self._child = None
        written = False
        if code == 0:
            try:
                written = bool(json.loads(out.strip().splitlines()[-1])["picture"])
            except (ValueError, IndexError, KeyError, TypeError):
                log.info("memgraph: the picture child answered %r", out[-200:])
        else:
            err = bytes(process.readAllStandardError().data()).decode("utf-8", "replace")
            log.info("memgraph: the picture child failed (%s): %s", code, err[-500:])
        self.finished.emit(written)
        if self._again:
            self.soon()

    def _failed(self, process: QProcess, error: QProcess.ProcessError) -> None:
        if error == QProcess.ProcessError.FailedToStart and process is self._child:
            log.info("memgraph: the picture child could not start: %s", process.errorString())
            self._child = None
            process.deleteLater()
            self.finished.emit(False)

    def _stop(self) -> None:
        """The window leaves its store or closes: no look, and a running child is ended."""
        self._timer.stop()
        self._again = False
        process, self._child = self._child, None
        if process is not None:
            process.kill()
            process.waitForFinished(3000)

    def wait(self, msecs: int = 60_000) -> bool:
        """Wait for a running child (tests); True when none runs any more."""
        process = self._child
        return process is None or process.waitForFinished(msecs)

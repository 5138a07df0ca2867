"""``OpRunner``: the single writer. Runs jobs one at a time on a worker thread and hands their
results back on the GUI thread (Anki's ``CollectionOp`` with ``max_workers=1``)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from memgraph_gui.app.qt import QCoreApplication, QEventLoop, QObject, Qt, QThread, Signal

log = logging.getLogger(__name__)

Done = Callable[[Any], None]
Failed = Callable[[BaseException], None]


class OpRunner(QObject):
    """Runs ``job()`` callables in submission order on one worker thread.

    ``on_done(result)`` / ``on_error(exception)`` run on the GUI thread, in submission order.
    ``busy_changed(True)`` is emitted when the first job is queued, ``busy_changed(False)`` when the
    queue is empty again. Never touch widgets from a job.
    """

    busy_changed = Signal(bool)
    _finished = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memgraph-writer")
        self._pending = 0
        self._finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)

    @property
    def busy(self) -> bool:
        """True while a job is queued or running."""
        return self._pending > 0

    def submit(self, job: Callable[[], Any], on_done: Done, on_error: Failed) -> None:
        """Queue ``job``; GUI thread only."""
        self._pending += 1
        if self._pending == 1:
            self.busy_changed.emit(True)
        future = self._pool.submit(job)
        future.add_done_callback(lambda f: self._finished.emit((f, on_done, on_error)))

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Process events until every queued job has reported back (GUI thread; for shutdown,
        store switches and tests). Returns False on timeout."""
        if QThread.currentThread() is not self.thread():
            raise RuntimeError("wait_idle runs on the GUI thread")
        deadline = time.monotonic() + timeout
        while self._pending and time.monotonic() < deadline:
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        return not self._pending

    def shutdown(self) -> None:
        """Finish queued jobs and stop the worker thread."""
        self.wait_idle()
        self._pool.shutdown(wait=True)

    def _on_finished(self, item: tuple[Future[Any], Done, Failed]) -> None:  # GUI thread
        future, on_done, on_error = item
        try:
            error = future.exception()
            if error is None:
                on_done(future.result())
            else:
                on_error(error)
        except Exception:  # a bug in a callback must not wedge the busy state
            log.exception("memgraph: a finished-op callback failed")
        finally:
            self._pending -= 1
            if self._pending == 0:
                self.busy_changed.emit(False)

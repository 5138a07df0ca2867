"""``BackgroundJob``: one read-only function on a daemon thread, its result back as a queued Qt
signal. For reads that may take more than ~50 ms at 50k nodes (a compaction preview over an
uncompacted import sorts every leaf). Never for writes: those go through the single writer."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from memgraph_gui.app.qt import QObject, Signal

log = logging.getLogger(__name__)


class BackgroundJob(QObject):
    """Runs ``fn()`` once on its own thread; ``done(result)`` or ``failed(exception)`` arrives on
    the thread the job was created on (the GUI thread). Keep a reference until then."""

    done = Signal(object)
    failed = Signal(object)

    def __init__(self, fn: Callable[[], Any], name: str = "memgraph-read") -> None:
        super().__init__()
        self._fn = fn
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        """Start the thread (GUI thread)."""
        self._thread.start()

    def wait(self, timeout: float | None = None) -> None:
        """Join the thread (tests and shutdown)."""
        self._thread.join(timeout)

    def _run(self) -> None:  # worker thread: signals only
        try:
            result = self._fn()
        except Exception as exc:
            log.debug("memgraph: a background read failed", exc_info=exc)
            self.failed.emit(exc)
        else:
            self.done.emit(result)

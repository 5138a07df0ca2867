"""``Disposal``: big leftovers (a replaced graph, an import's parsed rows) freed on the GUI
thread, a few milliseconds per event-loop turn.

Freeing ~10^5 objects is one C-level call that holds the GIL for as long as it takes (50-100 ms
for a 50k graph or a parsed 50k export), on whichever thread lets go last. On a worker thread it
stops the GUI thread as surely as on the GUI thread itself: the window's frame at the commit of
a 50k import was 100-160 ms while the writer freed the parsed rows and the graph replaced. Freed
here in steps (``pieces.releasing``, ``pieces.dismantling``) within a time budget per turn, a
frame waits for one budget at most, and nothing runs beside the window's own work to take the
GIL from it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator

from memgraph_gui.app.qt import QObject, Qt, QTimer, Signal

BUDGET = 0.002
"""Seconds of freeing per event-loop turn."""
WAIT_MS = 50
"""Between turns while every leftover waits for its last readers to let go."""


class Disposal(QObject):
    """Runs the step iterators it is given (each step frees a slice; a step that yields False
    freed nothing: it waits for other holders) on the GUI thread, ``BUDGET`` seconds per turn
    of the event loop, until each ends. ``put`` from any thread."""

    _wake = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._queue: deque[Iterator[bool]] = deque()  # append/popleft are atomic: any thread
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._turn)
        self._wake.connect(self._start, Qt.ConnectionType.QueuedConnection)

    def put(self, steps: Iterator[bool]) -> None:
        """Free what ``steps`` frees, a step at a time between frames. Any thread."""
        self._queue.append(steps)
        self._wake.emit()

    def pending(self) -> int:
        """Leftovers not freed yet."""
        return len(self._queue)

    def flush(self) -> None:
        """Free everything now, with no budget (closing; tests). Leftovers still held
        elsewhere are let go of as they are (freed where their last holder lets go)."""
        self._timer.stop()
        while self._queue:
            for moved in self._queue.popleft():
                if not moved:
                    break

    def _start(self) -> None:
        if self._queue and not (self._timer.isActive() and self._timer.interval() == 0):
            self._timer.start(0)

    def _turn(self) -> None:
        end = time.perf_counter() + BUDGET
        idle = 0  # leftovers in a row that only waited
        while self._queue and idle < len(self._queue) and time.perf_counter() < end:
            steps = self._queue[0]
            moved = next(steps, None)
            if moved is None:
                self._queue.popleft()
                idle = 0
            elif moved:
                idle = 0
            else:
                self._queue.rotate(-1)
                idle += 1
        if self._queue:
            self._timer.start(WAIT_MS if idle and idle >= len(self._queue) else 0)

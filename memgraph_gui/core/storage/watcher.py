"""Subscriptions to a store's commits, and the watcher thread that notices other processes'.

Subscribers are called after the store's lock is released, on the thread that committed (or on
the watcher thread for other processes' commits); a failing subscriber is logged and skipped.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from memgraph_gui.core.domain.changes import ChangeSet

log = logging.getLogger(__name__)
Subscriber = Callable[[ChangeSet], None]


class Subscriptions:
    """Mixin for ``Store`` (which provides ``path`` and ``sync``)."""

    path: str

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._watcher: threading.Thread | None = None
        self._watch_stop = threading.Event()

    def sync(self) -> list[ChangeSet]:
        raise NotImplementedError

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(changeset)`` after every commit seen; returns an idempotent unsubscribe."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def _notify(self, changesets: list[ChangeSet]) -> None:
        for changeset in changesets:
            for callback in list(self._subscribers):
                try:
                    callback(changeset)
                except Exception:  # a failing listener must not stop the others
                    log.warning("memgraph subscriber %r failed", callback, exc_info=True)

    def start_watcher(self, interval: float = 0.05) -> None:
        """Poll for other processes' commits every ``interval`` s on a daemon thread."""
        if self._watcher is not None or self.path == ":memory:":
            return
        self._watch_stop.clear()
        self._watcher = threading.Thread(
            target=self._watch, args=(interval,), name="memgraph-watcher", daemon=True
        )
        self._watcher.start()

    def stop_watcher(self) -> None:
        """Stop the polling thread (idempotent)."""
        self._watch_stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=2)
            self._watcher = None

    def _watch(self, interval: float) -> None:
        while not self._watch_stop.wait(interval):
            try:
                self.sync()
            except Exception:
                log.warning("memgraph watcher: sync failed", exc_info=True)

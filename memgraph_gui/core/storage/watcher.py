"""Subscriptions to a store's commits, delivered in commit order, and the watcher thread.

ChangeSets are queued (under the store's lock, so in commit order) and delivered by one thread at a
time after that lock is released: whichever thread delivers (a writer, a reader that caught up with
another process, the watcher), every subscriber sees the ChangeSets in commit order.

A failing subscriber does not stop the others: its first exception is logged as an error naming
it (with the traceback), its later ones are counted (``subscriber_failures``), not logged again.
A watcher whose catch-up keeps failing logs the first failure and the recovery, not every poll.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.pieces import dismantling

if TYPE_CHECKING:
    from memgraph_gui.core.graph.graph import Graph

log = logging.getLogger(__name__)
Subscriber = Callable[[ChangeSet], None]
Preparer = Callable[["Graph"], None]
Retirer = Callable[[Iterator[bool]], None]


class Subscriptions:
    """Mixin for ``Store``, which provides ``path``, ``lock``, ``sync`` and the lock check."""

    path: str
    lock: threading.RLock

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._outbox: deque[ChangeSet] = deque()
        self._delivering: int | None = None  # the thread draining the outbox
        self._deliver_lock = threading.Lock()
        self._watcher: threading.Thread | None = None
        self._watch_stop = threading.Event()
        self._failures: dict[str, int] = {}  # subscriber name -> exceptions raised
        self._preparers: list[Preparer] = []
        self._retire_to: Retirer | None = None

    def sync(self) -> list[ChangeSet]:
        raise NotImplementedError

    def maybe_changed(self) -> bool:
        raise NotImplementedError

    def _holds_store_locks(self) -> bool:
        """True when this thread holds a lock a subscriber may need (then it must not deliver)."""
        raise NotImplementedError

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(changeset)`` after every commit seen; returns an idempotent unsubscribe."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def on_new_graph(self, callback: Preparer) -> Callable[[], None]:
        """Call ``callback(graph)`` with each whole new graph this store builds (a bulk load, or
        a reload after another process's) before it becomes the store's graph, on the thread
        that built it: nobody else holds that graph yet, so ``callback`` may read it without the
        lock (e.g. to memoise what readers will ask for first). A reload's graph may still be
        dropped after it (the graph changed meanwhile; another is built). Its exceptions are
        reported as a subscriber's. Returns an idempotent removal."""
        self._preparers.append(callback)

        def remove() -> None:
            if callback in self._preparers:
                self._preparers.remove(callback)

        return remove

    def retire_to(self, callback: Retirer) -> Callable[[], None]:
        """Hand each graph this store stops serving (replaced by a bulk load or a reload) to
        ``callback(steps)``, on the thread that replaced it: running ``steps`` to the end (a
        generator of ``pieces.dismantling``) frees its ~10^5 objects a few thousand at a time,
        once its last readers let go, where and when the caller likes (a window: on its GUI
        thread between frames; freed at once, it held the GIL 50-100 ms on whichever thread
        let go last). Without one it is freed at once. One at a time: a later call replaces
        the earlier. Returns an idempotent removal."""
        self._retire_to = callback

        def remove() -> None:
            if self._retire_to is callback:
                self._retire_to = None

        return remove

    def _retire(self, graph: Graph) -> None:
        """``graph`` is no longer served: its caches go now (``Graph.release``) and what is left
        to the ``retire_to`` callback, if any."""
        dropped = graph.release()
        callback = self._retire_to
        if callback is None:
            return
        try:
            callback(dismantling([*dropped, *graph.parts()]))
        except Exception:  # freed where it is let go of instead
            self._report(callback)

    def _prepare(self, graph: Graph) -> None:
        """Hand a new, not yet published ``graph`` to the ``on_new_graph`` callbacks."""
        for callback in list(self._preparers):
            try:
                callback(graph)
            except Exception:  # only a head start is lost: readers compute it themselves
                self._report(callback)

    def _queue(self, changesets: list[ChangeSet]) -> None:
        """Queue ChangeSets for delivery. Call with the store's lock held, in commit order."""
        self._outbox.extend(changesets)

    def _deliver(self) -> None:
        """Deliver queued ChangeSets, unless this thread holds the store lock or is delivering
        already (the outer call delivers what is queued meanwhile, keeping the order)."""
        me = threading.get_ident()
        if self._delivering == me or self._holds_store_locks():
            return
        while self._outbox:
            with self._deliver_lock:
                self._delivering = me
                try:
                    self._drain()
                finally:
                    self._delivering = None

    def _drain(self) -> None:
        while True:
            with self.lock:
                if not self._outbox:
                    return
                changeset = self._outbox.popleft()
            for callback in list(self._subscribers):
                try:
                    callback(changeset)
                except Exception:  # a failing listener must not stop the others
                    self._report(callback)

    def _report(self, callback: Subscriber | Preparer | Retirer) -> None:
        """Log a subscriber's first exception (named, with the traceback); count the rest."""
        name = subscriber_name(callback)
        count = self._failures[name] = self._failures.get(name, 0) + 1
        if count == 1:
            log.error(
                "memgraph: subscriber %s of %s failed (later failures of it are not logged)",
                name,
                self.path,
                exc_info=True,
            )

    def subscriber_failures(self) -> dict[str, int]:
        """How many exceptions each failing subscriber raised, by name (``subscriber_name``)."""
        return dict(self._failures)

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
        if self._watcher is not None and self._watcher is not threading.current_thread():
            self._watcher.join(timeout=2)
        self._watcher = None

    def _watch(self, interval: float) -> None:
        failing = False
        while not self._watch_stop.wait(interval):
            try:
                if self.maybe_changed():  # most polls: nothing new, and the lock left alone
                    self.sync()
            except Exception:  # a failed catch-up is retried at the next poll
                if not failing:
                    log.warning(
                        "memgraph watcher: catching up with %s failed; retrying every %.2f s",
                        self.path,
                        interval,
                        exc_info=True,
                    )
                failing = True
            else:
                if failing:
                    log.warning("memgraph watcher: caught up with %s again", self.path)
                failing = False


def subscriber_name(callback: Subscriber | Preparer | Retirer) -> str:
    """A subscriber as a person reading the log knows it: ``module.qualname``."""
    target = getattr(callback, "func", callback)  # a functools.partial names its function
    qualname = getattr(target, "__qualname__", None) or type(target).__qualname__
    return f"{getattr(target, '__module__', '?')}.{qualname}"

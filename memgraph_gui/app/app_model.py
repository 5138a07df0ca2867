"""``AppModel``: the only thing views know. Wraps a store, turns ChangeSets into Qt signals.

Subscribers of the store run on whichever thread committed (or on the watcher thread); the model
re-emits them through a queued signal so views always update on the GUI thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from memgraph_gui.app.qt import QObject, Qt, Signal
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.injection import InjectionState
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.memory import MemoryStore

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class StoreSummary:
    """Counts for the status bar and the overview panel."""

    path: str
    nodes: int
    edges: int
    archived: int
    by_type: tuple[tuple[str, int], ...]
    injection: InjectionState
    undo_steps: int


class AppModel(QObject):
    """Application state over one open store. GUI thread only, except ``_on_store_change``."""

    changes_applied = Signal(object, object)  # (ChangeSet, initiator | None)
    store_replaced = Signal()
    _change_arrived = Signal(object)

    def __init__(self, store: MemoryStore) -> None:
        super().__init__()
        self._local = threading.local()
        self._initiators: dict[int, object] = {}
        self._store = store
        self._unsubscribe = store.subscribe(self._on_store_change)
        self.last_external_change: float | None = None
        self._change_arrived.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        store.start_watcher()

    @property
    def store(self) -> MemoryStore:
        return self._store

    def summary(self) -> StoreSummary:
        """Counts of the open store (cheap; runs on the GUI thread)."""
        with self._store.reading() as graph:
            counts: dict[str, int] = {}
            archived = 0
            for node in graph.nodes.values():
                counts[node.type] = counts.get(node.type, 0) + 1
                archived += node.archived
            return StoreSummary(
                self._store.path,
                len(graph.nodes),
                len(graph.edges),
                archived,
                tuple(sorted(counts.items(), key=lambda kv: -kv[1])),
                graph.injection,
                self._store.history.depth()[0],
            )

    def timeline_ids(self) -> list[str]:
        """Every node id in timeline order."""
        with self._store.reading() as graph:
            return list(graph.timeline_ids())

    def node(self, node_id: str) -> Node | None:
        with self._store.reading() as graph:
            return graph.nodes.get(node_id)

    def injection(self) -> InjectionState:
        with self._store.reading() as graph:
            return graph.injection

    def apply(self, write: Callable[[MemoryStore], T], *, initiator: object | None = None) -> T:
        """Run ``write(store)`` on this thread; the ChangeSets it commits reach
        ``changes_applied`` with ``initiator``, so the view that made an edit can ignore its echo.
        """
        self._local.initiator = initiator
        try:
            result = write(self._store)
        finally:
            self._local.initiator = None
        changes = getattr(result, "changes", result)
        batch_id = getattr(changes, "batch_id", 0)
        if initiator is not None and batch_id:
            self._initiators[batch_id] = initiator  # in case another thread delivered it
            while len(self._initiators) > 64:  # entries already delivered on this thread
                del self._initiators[next(iter(self._initiators))]
        return result

    def replace_store(self, store: MemoryStore) -> None:
        """Switch to another open store (the old one is closed)."""
        self._unsubscribe()
        self._store.close()
        self._store = store
        self._unsubscribe = store.subscribe(self._on_store_change)
        store.start_watcher()
        self.store_replaced.emit()

    def close(self) -> None:
        self._unsubscribe()
        self._store.close()

    def _on_store_change(self, changes: ChangeSet) -> None:  # any thread
        self._change_arrived.emit((changes, getattr(self._local, "initiator", None)))

    def _deliver(self, item: Any) -> None:  # GUI thread
        changes, initiator = item
        if initiator is None:
            initiator = self._initiators.pop(changes.batch_id, None)
        else:
            self._initiators.pop(changes.batch_id, None)
        if changes.external:
            self.last_external_change = time.time()
        self.changes_applied.emit(changes, initiator)

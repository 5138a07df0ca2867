""" "Retrieve for a task…" under the trust lens: Membrane's ``retrieveGraph`` with the lens's
trust, run off the GUI thread, and what the graph highlights of its answer (the roots and the
nodes expansion reached, each with its hop).

``LensRetrieval.run`` reads only (``MemoryStore.membrane().retrieve_graph``); the answer comes
back as ``finished(Retrieved)`` on the GUI thread, a refusal as ``failed(MemgraphError)``. The
answer is dropped (``cleared``) when the lens moves or another store opens: it was for that
trust and that graph.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from memgraph_gui.app.qt import QObject, Qt, Signal, SignalInstance
from memgraph_gui.core.domain.errors import MemgraphError, as_memgraph_error

if TYPE_CHECKING:
    from memgraph_gui.core.membrane.trust import TrustContext
    from memgraph_gui.core.memory import MemoryStore

ROOT_LIMIT = 10
"""The SDKs' default root limit (the seed)."""
MAX_HOPS = 1
"""The SDKs' default number of hops (the seed)."""


class RetrievalHost(Protocol):
    """The AppModel as ``LensRetrieval`` reads it: the open store, whether it closed, and when
    another opened (``AppModel`` satisfies it; it is typed so because ``app_model`` imports
    this module through ``trust_lens``: the app folder reads top-down)."""

    @property
    def store(self) -> MemoryStore: ...

    @property
    def closed(self) -> bool: ...

    @property
    def store_replaced(self) -> SignalInstance: ...


class LensSource(Protocol):
    """The trust lens as ``LensRetrieval`` reads it (``TrustLens`` satisfies it; it imports
    this module): its trust (None: off) and when it moves."""

    @property
    def trust(self) -> TrustContext | None: ...

    @property
    def changed(self) -> SignalInstance: ...


@dataclass(frozen=True, slots=True)
class Retrieved:
    """One ``retrieveGraph`` answer as the graph highlights it: ``roots`` in root order,
    every returned node's ``hops`` (roots 0), the returned ``edges`` (source, predicate,
    target) and which returned nodes came ``redacted``."""

    task: str
    roots: tuple[str, ...]
    hops: Mapping[str, int]
    edges: tuple[tuple[str, str, str], ...]
    redacted: frozenset[str]

    @property
    def expanded(self) -> tuple[str, ...]:
        """The nodes expansion reached (not roots), by hop then in returned order."""
        roots = set(self.roots)
        rest = [i for i in self.hops if i not in roots]
        return tuple(sorted(rest, key=lambda i: self.hops[i]))


def retrieved(task: str, response: Mapping[str, Any]) -> Retrieved:
    """The ``Retrieved`` of Membrane's ``RetrieveGraphResponse`` JSON ``response``."""
    hops: dict[str, int] = {}
    redacted = set()
    for node in response.get("nodes") or ():
        record = node.get("record") or {}
        node_id = str(record.get("id", ""))
        if not node_id:
            continue
        hops[node_id] = int(node.get("hop", 0))
        if "payload" not in record:  # a redacted record keeps only the eight keys
            redacted.add(node_id)
    edges = tuple(
        (str(e.get("source_id", "")), str(e.get("predicate", "")), str(e.get("target_id", "")))
        for e in response.get("edges") or ()
    )
    roots = tuple(str(i) for i in response.get("root_ids") or ())
    return Retrieved(task, roots, hops, edges, frozenset(redacted))


def retrieve(
    store: MemoryStore, task: str, trust: TrustContext, root_limit: int, max_hops: int
) -> Retrieved:
    """``retrieveGraph(task, trust, root_limit=…, max_hops=…)`` over ``store`` (any thread;
    read-only; raises what the API raises)."""
    response = store.membrane().retrieve_graph(
        task, trust, root_limit=root_limit, max_hops=max_hops
    )
    return retrieved(task, response)


class LensRetrieval(QObject):
    """Runs "Retrieve for a task…" for the lens on ``app`` (see the module docstring); the
    last answer is ``result``. GUI thread only."""

    finished = Signal(object)
    failed = Signal(object)
    cleared = Signal()
    _arrived = Signal(object)

    def __init__(self, app: RetrievalHost, lens: LensSource) -> None:
        super().__init__(lens if isinstance(lens, QObject) else None)  # the lens's Qt child
        self._app, self._lens = app, lens
        self.result: Retrieved | None = None
        self.running = False
        self._ticket = 0
        self._arrived.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        lens.changed.connect(self._on_moved)
        app.store_replaced.connect(self._on_moved)

    def run(self, task: str, root_limit: int = ROOT_LIMIT, max_hops: int = MAX_HOPS) -> None:
        """Retrieve for ``task`` with the lens's trust, off the GUI thread. ``failed`` with
        ``INVALID_ARGUMENT`` at once when the lens is off."""
        trust = self._lens.trust
        if trust is None:
            self.failed.emit(MemgraphError("INVALID_ARGUMENT", "the trust lens is off"))
            return
        self._ticket += 1
        self.running = True
        ticket, store = self._ticket, self._app.store

        def work() -> None:
            try:
                result: Any = retrieve(store, task, trust, root_limit, max_hops)
            except Exception as exc:  # an API refusal, or the store closed meanwhile
                result = exc
            self._arrived.emit((ticket, store, result))

        threading.Thread(target=work, name="memgraph-retrieve", daemon=True).start()

    def clear(self) -> None:
        """Drop the answer shown (and any on the way)."""
        self._ticket += 1
        self.running = False
        if self.result is not None:
            self.result = None
            self.cleared.emit()

    def _on_moved(self) -> None:
        if self.result is not None or self.running:
            self.clear()

    def _deliver(self, item: tuple[int, MemoryStore, Any]) -> None:
        ticket, store, result = item
        if ticket != self._ticket or self._app.closed or store is not self._app.store:
            return
        self.running = False
        if isinstance(result, BaseException):
            error = result if isinstance(result, MemgraphError) else as_memgraph_error(result)
            self.failed.emit(error)
            return
        self.result = result
        self.finished.emit(result)

"""``AppModel``: the only thing views know. Wraps one open store, runs writes on the single writer,
mirrors undo in a ``QUndoStack``, shares the selection and turns ChangeSets into Qt signals.

Subscribers of the store run on whichever thread committed (or on the watcher thread); the model
re-emits them through a queued signal so views always update on the GUI thread. Each ChangeSet is
stamped with the store it came from: one still queued when that store was replaced is dropped.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from memgraph_gui.app.disposal import Disposal
from memgraph_gui.app.membrane_desk import MembraneReads
from memgraph_gui.app.nuggets_desk import NuggetReads
from memgraph_gui.app.picture_keeper import PictureKeeper
from memgraph_gui.app.qt import QObject, Qt, Signal
from memgraph_gui.app.reads import StoreReads, warm
from memgraph_gui.app.recall_lab import RecallLab
from memgraph_gui.app.runner import OpRunner
from memgraph_gui.app.selection import Selection
from memgraph_gui.app.trust_lens import LensReads, TrustLens
from memgraph_gui.app.undo_stack import HistoryDepth, UndoFacade, desk_origin, node_name
from memgraph_gui.app.vector_desk import VectorDesk
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.errors import MemgraphError, as_memgraph_error
from memgraph_gui.core.luker.write_api import WriteApi
from memgraph_gui.core.memory import MemoryStore

T = TypeVar("T")
log = logging.getLogger(__name__)
Op = Callable[[WriteApi], T]


class AppModel(LensReads, StoreReads, NuggetReads, MembraneReads, QObject):
    """Application state over one open store. GUI thread only (the store callbacks excepted).

    Signals: ``changes_applied(ChangeSet, initiator)`` for every commit (ours, undo/redo, other
    processes'); ``op_failed(MemgraphError, initiator)`` for a write the core refused and nobody
    handled; ``busy_changed(bool)`` while the writer works; ``store_replacing()`` before a switch
    (writes queued then still go to the store being left) and ``store_replaced()`` after it.

    ``lens`` is the trust lens (``app.trust_lens``): while it is on, ``node``, ``edges_of``, the
    timeline's rows and the find's matches show what its actor may see. ``recall_lab`` is the
    Recall lab (``app.recall_lab``): what every recall path would pick for a message.

    While a file opens, the store open so far may be let go first (``let_go``): until the next
    ``replace_store`` the model stands on an empty private store (``opening`` names the file
    coming; every read works and finds nothing, writes are refused with ``STORE_OPENING``), so
    no graph of the memory left stays alive while the next one is built.
    """

    changes_applied = Signal(object, object)
    op_failed = Signal(object, object)
    busy_changed = Signal(bool)
    store_replacing = Signal()
    store_replaced = Signal()
    closing = Signal()
    _change_arrived = Signal(object)

    def __init__(self, store: MemoryStore, *, origin: str | None = None) -> None:
        """``origin`` names the window's steps in the change log (default ``desk_origin()``:
        the same in every run, so Undo offers the steps earlier runs made)."""
        QObject.__init__(self)
        self.origin = origin or desk_origin()
        self.selection = Selection()
        self.undo = UndoFacade(self, name_of=lambda node_id: node_name(self.node(node_id)))
        self.runner = OpRunner(self)
        self.runner.busy_changed.connect(self.busy_changed)
        self.disposal = Disposal(self)  # graphs replaced, rows imported: freed between frames
        self.last_external_change: float | None = None
        self._held: list[tuple[MemoryStore, ChangeSet]] = []
        self._op_initiators: dict[int, object] = {}
        self._current_op: list[object | None] = []
        self._change_arrived.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self.opening: str | None = None  # the file coming while the model stands in (let_go)
        self.left: str | None = None  # meanwhile, the file let go (to reopen should that fail)
        self.lens = TrustLens(self)  # "View as": every read a view makes obeys it
        self._attach(store)
        self.lens.restore()  # the lens remembered for this store
        self.vectors = VectorDesk(self)  # the embedding profile's vectors, kept fresh
        self.recall_lab = RecallLab(self)  # "what would recall pick for this message?"
        self.pictures = PictureKeeper(self)  # the picture a big memory opens with, kept current

    # -- the store ---------------------------------------------------------------------------------
    @property
    def store(self) -> MemoryStore:
        """The open store (for the app layer and tests; views use the model's methods)."""
        return self._store

    def _attach(self, store: MemoryStore) -> None:
        self._store = store
        self._write = store.write_api(origin=self.origin)
        unsubscribe = store.subscribe(lambda changes: self._change_arrived.emit((store, changes)))
        unprepare = store.on_new_graph(warm)  # an import's graph comes with the panes' reads
        unretire = store.retire_to(self.disposal.put)

        def detach() -> None:
            unsubscribe()
            unprepare()
            unretire()

        self._unsubscribe = detach
        try:  # caught up now: from here the watcher catches up, not the GUI thread's reads
            store.sync()
        except MemgraphError:
            log.warning("memgraph: catching up with %s failed", store.path, exc_info=True)
        store.start_watcher()
        self.undo.rebuild(self._depth(store, every_label=True))

    def replace_store(self, store: MemoryStore) -> None:
        """Switch to another open store: queued writes finish first, the old store is closed and
        anything it still had queued for the views is dropped. ``store_replacing`` goes first, so
        views can queue their last writes for the store being left. Ends a stand-in
        (``let_go``)."""
        self.store_replacing.emit()
        self.runner.wait_idle()
        self._detach()
        self.opening = self.left = None
        self._attach(store)
        self.store_replaced.emit()

    def let_go(self, opening: str) -> str | None:
        """Close the open store before ``opening`` is built, as ``replace_store`` would after
        (``store_replacing``, queued writes finish, the store is closed), and stand on an empty
        private store until the next ``replace_store``: ``store_replaced`` tells the views, which
        then show nothing of the memory left (and again when a newer open comes meanwhile).
        Returns the path let go (to reopen should the open fail: also in ``left``), or None
        when nothing was let go: an in-memory store (it could not be opened again) or a model
        already standing in. GUI thread."""
        if self.left is not None:
            if opening != self.opening:  # a newer open: the views name the file coming
                self.opening = opening
                self.store_replaced.emit()
            return None
        if self._store.path == ":memory:" or self._store.closed:
            return None
        self.store_replacing.emit()
        while self.runner.busy:  # what the views queued for it too; never close under a write
            self.runner.wait_idle()
        if self.left is not None or self._store.closed:
            return None  # let go meanwhile (the wait ran other events)
        left = self._store.path
        self._detach()
        self.opening, self.left = opening, left
        self._attach(MemoryStore.open(":memory:"))
        self.store_replaced.emit()
        return left

    def stand_alone(self) -> None:
        """Keep the empty stand-in as the open memory (the file let go could not be opened
        again): an unsaved in-memory memory, writable as any. GUI thread."""
        if self.left is not None:
            self.opening = self.left = None
            self.store_replaced.emit()

    def _detach(self) -> None:
        """Close the store and forget everything about it (GUI thread, writer idle)."""
        self._unsubscribe()
        self._store.close()
        self._held.clear()
        self._op_initiators.clear()
        self.selection.clear()
        self.last_external_change = None

    def close(self) -> None:
        """Finish queued writes and close the store; the model emits nothing afterwards
        (``closing`` first, so background work can stop)."""
        if self._store.closed:
            return
        self.closing.emit()
        self.runner.shutdown()
        self._unsubscribe()
        self._store.close()
        self.disposal.flush()
        self.blockSignals(True)
        self.selection.blockSignals(True)
        self.undo.stack.blockSignals(True)
        self.undo.stack.clear()  # see UndoFacade: the steps go before the stack does

    @property
    def closed(self) -> bool:
        """True once ``close()`` ran (views' deferred refreshes check it)."""
        return self._store.closed

    # -- writes --------------------------------------------------------------------------------------
    def run_op(
        self,
        op: Op[Any],
        *,
        initiator: object | None = None,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[MemgraphError], None] | None = None,
        rebuild_undo: bool = False,
    ) -> None:
        """Run ``op(write_api)`` on the writer thread; GUI thread only.

        On success the undo mirror is brought up to date (rebuilt from every label with
        ``rebuild_undo``, for ops that change steps below the top) and ``on_done(result)`` runs on
        the GUI thread; the ChangeSets it committed reach ``changes_applied`` with ``initiator``. A
        refusal goes to ``on_error`` when given, else to ``op_failed``. Never raises.
        """
        store, write = self._store, self._write
        if store.closed:
            log.info("memgraph: a write after close was dropped")
            return
        refused = None if self.opening is None else _opening(self.opening)

        def job() -> tuple[Any, HistoryDepth]:
            if refused is not None:
                raise refused  # the stand-in keeps nothing: say so rather than lose it
            return op(write), self._depth(store, every_label=rebuild_undo)

        self._current_op.append(initiator)
        self.runner.submit(
            job,
            lambda out: self._op_done(store, initiator, out, on_done, rebuild_undo),
            lambda exc: self._op_error(store, initiator, exc, on_error),
        )

    def run_store_op(
        self,
        op: Callable[[MemoryStore], Any],
        *,
        initiator: object | None = None,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[MemgraphError], None] | None = None,
    ) -> None:
        """Like ``run_op`` for work on the whole store (import, export): ``op(store)``."""
        store = self._store
        self.run_op(lambda _w: op(store), initiator=initiator, on_done=on_done, on_error=on_error)

    def apply_sync(self, op: Op[T], *, initiator: object | None = None) -> T:
        """Run ``op`` through the writer and wait for it (tests and scripts; raises its error)."""
        box: list[Any] = []
        self.run_op(
            op, initiator=initiator, on_done=box.append, on_error=lambda e: box.append(_Raised(e))
        )
        self.runner.wait_idle()
        if box and isinstance(box[0], _Raised):
            raise box[0].error
        result: T = box[0]
        return result

    def undo_last(self, *, on_error: Callable[[MemgraphError], None] | None = None) -> None:
        """Undo this window's newest step (the core refuses with ``UNDO_CONFLICT`` when another
        writer changed the same rows since)."""
        self.run_op(lambda _w: self._store.history_of(self.origin).undo(), on_error=on_error)

    def redo_last(self, *, on_error: Callable[[MemgraphError], None] | None = None) -> None:
        """Redo this window's newest undone step."""
        self.run_op(lambda _w: self._store.history_of(self.origin).redo(), on_error=on_error)

    def skip_step(
        self,
        batch_id: int,
        *,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[MemgraphError], None] | None = None,
    ) -> None:
        """Leave the refused step ``batch_id`` (an ``UNDO_CONFLICT``'s ``details["step"]``) in the
        history as not undone; Undo then offers the step before it. ``HISTORY_CHANGED`` when it is
        no longer the newest step to undo."""
        self.run_op(
            lambda _w: self._store.history_of(self.origin).skip(batch_id),
            on_done=on_done,
            on_error=on_error,
            rebuild_undo=True,
        )

    def undo_anyway(
        self,
        batch_id: int,
        seen: int,
        *,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[MemgraphError], None] | None = None,
    ) -> None:
        """Revert the refused step ``batch_id`` over what changed since, as a new undoable step
        ("Revert …"); ``seen`` is the shown conflict's ``details["seen"]`` (``UNDO_CONFLICT``
        with fresh details when rows changed again since)."""
        self.run_op(
            lambda _w: self._store.history_of(self.origin).undo_anyway(batch_id, seen),
            on_done=on_done,
            on_error=on_error,
            rebuild_undo=True,
        )

    def _depth(self, store: MemoryStore, *, every_label: bool = False) -> HistoryDepth:
        """This origin's undo/redo depth (O(1)) with the newest step's label, or with
        ``every_label`` the labels of all its steps (for a rebuild). Any thread."""
        history = store.history_of(self.origin)
        undo, redo = history.depth()
        limit = (undo + redo) if every_label else 1
        steps = history.steps(limit=limit) if undo + redo else []
        undo_labels = tuple(s.label for s in reversed(steps) if not s.undone)
        redo_labels = tuple(s.label for s in steps if s.undone)
        return HistoryDepth(undo, redo, undo_labels, redo_labels)

    def _op_done(
        self,
        store: MemoryStore,
        initiator: object | None,
        out: tuple[Any, HistoryDepth],
        on_done: Callable[[Any], None] | None,
        rebuild_undo: bool = False,
    ) -> None:
        result, depth = out
        self._finish_op(initiator, result)
        if store is not self._store:
            return
        if rebuild_undo:
            self.undo.rebuild(depth)
        else:
            self.undo.reconcile(depth, lambda: self._depth(store, every_label=True))
        if on_done is not None:
            on_done(result)

    def _op_error(
        self,
        store: MemoryStore,
        initiator: object | None,
        exc: BaseException,
        on_error: Callable[[MemgraphError], None] | None,
    ) -> None:
        self._finish_op(initiator, None)
        if store is not self._store:
            return
        error = exc if isinstance(exc, MemgraphError) else as_memgraph_error(exc)
        if not isinstance(exc, MemgraphError):
            log.error("memgraph: a write failed", exc_info=exc)
        if on_error is not None:
            on_error(error)
        else:
            self.op_failed.emit(error, initiator)

    # -- delivery (GUI thread) ---------------------------------------------------------------------
    def _finish_op(self, initiator: object | None, result: Any) -> None:
        """Attribute the op's ChangeSets to its initiator and release the ones held for it."""
        self._current_op.pop(0)
        for changes in _changesets(result):
            if changes.batch_id:
                self._op_initiators[changes.batch_id] = initiator
        held, self._held = self._held, []
        for store, changes in held:
            if changes.batch_id not in self._op_initiators and _ours(changes, self.origin):
                self._op_initiators[changes.batch_id] = initiator
            self._deliver((store, changes))

    def _deliver(self, item: tuple[MemoryStore, ChangeSet]) -> None:
        store, changes = item
        if store is not self._store:
            return  # stamped for a store that was replaced
        if self._held or (
            self._current_op
            and _ours(changes, self.origin)
            and changes.batch_id not in self._op_initiators
        ):
            self._held.append(item)  # wait until the running op says whose change this is
            return
        initiator = self._op_initiators.pop(changes.batch_id, None) if changes.batch_id else None
        while len(self._op_initiators) > 256:
            del self._op_initiators[next(iter(self._op_initiators))]
        if changes.external:
            self.last_external_change = time.time()
            if changes.origin == self.origin or changes.reloaded:  # this desk in another
                # window or process; or a reload, which says nothing of whose steps came
                self.undo.rebuild(self._depth(store, every_label=True))
        if changes.nodes_removed:
            self.selection.forget(changes.nodes_removed)
        self.changes_applied.emit(changes, initiator)


def _opening(path: str) -> MemgraphError:
    return MemgraphError(
        "STORE_OPENING", f"{path} is being opened: nothing was written; try again once it is open"
    )


class _Raised:
    __slots__ = ("error",)

    def __init__(self, error: MemgraphError) -> None:
        self.error = error


def _ours(changes: ChangeSet, origin: str) -> bool:
    return not changes.external and changes.origin == origin


def _changesets(result: Any) -> list[ChangeSet]:
    """The ChangeSets an op returned (a WriteResult, a ChangeSet, or a list of them)."""
    if isinstance(result, ChangeSet):
        return [result]
    if isinstance(result, (list, tuple)):
        return [c for r in result for c in _changesets(r)]
    changes = getattr(result, "changes", None)
    return [changes] if isinstance(changes, ChangeSet) else []

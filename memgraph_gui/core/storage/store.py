"""``Store``: one chat memory in one SQLite file, mirrored in memory for fast reads.

Threading: every public method may be called from any thread. ``lock`` guards the in-memory graph
and is held only for short, CPU-bound work; a writer first waits for the file's write lock (other
processes) holding only the in-process writer mutex, so readers never wait on another process.
Subscribers are called after both are released, in commit order (see ``watcher``).

Consistency: the graph, the read connection's ``data_version``, the last change-log sequence, the
bulk-load generation and the saved layout's stamp always come from one snapshot. Other processes'
batches are applied from the change log whole or not at all (a damaged row: a full reload).

A whole reload (after another process's bulk load) is read and built without the lock, from one
read transaction, and swapped in under it, unless the graph changed meanwhile (then it is
dropped and tried again). One runs at a time; readers that come meanwhile get the last
consistent graph, and this process's writers wait for it (see ``_sync``).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.images import Change, loads
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.tx import Tx
from memgraph_gui.core.storage import changelog, faults, positions, retention, rows
from memgraph_gui.core.storage.backup import keep_backup
from memgraph_gui.core.storage.bulk import Progress, bulk_load
from memgraph_gui.core.storage.connection import (
    BUSY_TIMEOUT_S,
    READ_ONLY_FOLDER,
    Connections,
    default_origin,
    open_connections,
)
from memgraph_gui.core.storage.memory_release import return_freed_memory
from memgraph_gui.core.storage.preview import Previewed, deliver, deliver_picture
from memgraph_gui.core.storage.watcher import Subscriptions

log = logging.getLogger(__name__)
T = TypeVar("T")


class Store(Subscriptions):
    """A chat memory store. Open with :meth:`open`; ``":memory:"`` gives a private in-memory one."""

    def __init__(
        self,
        conns: Connections,
        path: str,
        origin: str,
        on_preview: Previewed | None = None,
        before_build: Callable[[], None] | None = None,
    ) -> None:
        self._read, self._write = conns.read, conns.write
        self.read_only = conns.read_only
        self.path = path
        self.origin = origin
        self.signature = ""  # ends every batch label this Store commits (" (via Claude)")
        # may refuse a batch: called with the graph as it was and the batch's rows, before COMMIT
        self.guard: Callable[[Graph, list[Change]], None] | None = None
        self.lock = threading.RLock()
        self._write_mutex = threading.RLock()
        self._local = threading.local()
        self._closed = self._stale = False
        self._committing = False  # our batch is committing: readers keep the graph as it is
        self._reloader: int | None = None  # the thread building a whole new graph off the lock
        self._reload_done = threading.Condition(self.lock)  # ... is told when it is done
        self._epoch = 0  # changes whenever the graph or its marks do (a reload checks it)
        self._data_version = self._last_seq = 0
        self._generation = ""
        self._graph = Graph()
        self.layout_stamps = positions.LayoutStamps()
        Subscriptions.__init__(self)
        self._read.execute("BEGIN")
        try:
            spare = self._write if self._write is not self._read else None
            self._install(_read_snapshot(self._read, on_preview, spare, before_build))
        finally:
            self._read.execute("COMMIT")

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] = ":memory:",
        *,
        create: bool = True,
        origin: str | None = None,
        busy_timeout: float = BUSY_TIMEOUT_S,
        on_preview: Previewed | None = None,
        before_build: Callable[[], None] | None = None,
    ) -> Store:
        """Open (or create) a store. New stores get Luker's default schema.

        Raises ``MemgraphError`` only: ``MEMORY_STORE_MISSING`` (absent and not ``create``),
        ``NOT_A_STORE``, ``STORE_FOREIGN``, ``STORE_DAMAGED``, ``STORE_TOO_NEW``,
        ``STORE_FOLDER_READ_ONLY`` (cannot create), ``STORE_BUSY``, ``STORE_CANT_OPEN``.
        A read-only file, or a file in a read-only folder, opens for reading (``read_only``).
        ``on_preview(StorePreview)`` runs on this thread once the rows are read (see ``preview``).
        ``before_build()`` runs on this thread once the file is checked in SQL (its schema, its
        rows' JSON, its meta values: the checks a build makes), before its rows are read and
        the graph is built; what it raises ends the open (raised here, the file closed). A
        caller lets go of another store there, so that none of the new graph's objects is made
        while the old graph's are alive (interleaved, both graphs' memory stayed held). The
        rows are then checked before they are read, not meanwhile (~0.1 s at 50k nodes).
        """
        path = str(path)
        if path != ":memory:" and not create and not Path(path).exists():
            raise MemgraphError("MEMORY_STORE_MISSING", f"no memory store at {path}")
        with faults.opening(path):
            conns = open_connections(path, busy_timeout)
            try:
                return cls(conns, path, origin or default_origin(), on_preview, before_build)
            except BaseException:
                conns.read.close()
                conns.write.close()
                raise

    # -- reading ---------------------------------------------------------------------------------
    @contextmanager
    def reading(self, *, leave_to_watcher: bool = False) -> Iterator[Graph]:
        """Hold the lock and yield the graph, first catching up with other processes' commits.

        Never waits for a whole reload: while one runs on another thread, or when the watcher
        runs (it reloads; this thread may be a window's), the last consistent graph is served
        and the ``reloaded`` ChangeSet follows. Otherwise this thread reloads it, off the lock.
        ``leave_to_watcher`` (a window's GUI thread): while a watcher thread runs, do not catch
        up here at all, but serve the graph as of its last poll (within its interval, ~50 ms),
        whose ChangeSets follow: such a read never calls SQLite, which gave the GIL away, and
        getting it back from a worker building a 50k graph took 10-40 ms. A failed catch-up is
        logged and the last good graph is served (the watcher retries).
        """
        self._check_open()
        try:
            try:
                if not (leave_to_watcher and self._watcher_reloads()):
                    self._sync(wait=False)
            except MemgraphError:
                log.warning("memgraph: catching up with %s failed", self.path, exc_info=True)
            with self.lock:
                yield self._graph
        finally:
            self._deliver()

    @property
    def graph(self) -> Graph:
        """The in-memory graph as of now (synced as by ``reading``). Hold ``lock`` while
        iterating it."""
        with self.reading() as graph:
            return graph

    @property
    def stamp(self) -> tuple[str, int]:
        """The content version this process has caught up to: (generation, last change seq)."""
        return self._generation, self._last_seq

    @property
    def peek_graph(self) -> Graph:
        """The graph as last caught up, without the lock or a catch-up: for single-entry lookups
        on a GUI thread (never iterate it while a writer may run; use ``reading()`` for that)."""
        return self._graph

    def sync(self) -> list[ChangeSet]:
        """Apply commits made by other processes; returns (and publishes) the ChangeSets this
        call made. Waits for a whole reload running on another thread (its ChangeSet is that
        thread's), then catches up with what came after it. ``MemgraphError`` when the file
        cannot be read (nothing recorded: the next call retries)."""
        self._check_open()
        try:
            return self._sync(wait=True)
        finally:
            self._deliver()

    def _sync(self, wait: bool) -> list[ChangeSet]:
        """Catch up with other processes' commits; returns the ChangeSets queued.

        Batches of the change log are replayed under the lock (as they are small); a whole
        reload is read and built by this thread without the lock, then swapped in (see
        ``_reload_unlocked``). Only one reload runs at a time: while it does, a caller that does
        not ``wait`` keeps the last consistent graph, one that does (a writer, ``sync``) waits
        for it. One that does not wait also leaves a reload to a running watcher thread. A
        thread that already holds the lock (a nested read, a batch's own reads) cannot let it
        go: it catches up under it, as before.
        """
        if self.path == ":memory:":
            return []  # nobody else can write a private in-memory database
        if self.lock._is_owned():  # type: ignore[attr-defined]
            return self._sync_locked(whole=wait or not self._watcher_reloads()) or []
        me = threading.get_ident()
        for _attempt in range(RELOAD_ATTEMPTS):
            with self.lock:
                while wait and self._reloader not in (None, me):
                    self._reload_done.wait()
                found = self._sync_locked(whole=False)
                if found is not None:
                    return found
                if self._reloader is not None or (not wait and self._watcher_reloads()):
                    return []  # someone else is on it: the last consistent graph meanwhile
                self._reloader, epoch = me, self._epoch
            changeset = self._reload_unlocked(epoch)
            if changeset is not None:
                return [changeset]
        with self.lock:  # the graph kept changing under every attempt: reload under the lock
            return self._sync_locked(whole=True) or []

    def maybe_changed(self) -> bool:
        """Whether a ``sync`` may find something: another connection committed since the last
        catch-up, or one is due anyway. Takes no store lock (a poll under it made every read
        of the GUI thread wait while the polling thread got the GIL back from a busy worker);
        a True is only a hint. ``MemgraphError`` when the file cannot be read."""
        if self.path == ":memory:" or self._closed:
            return False
        if self._stale or self._reloader is not None:
            return True
        with faults.sqlite_errors(self.path), self._read_connection() as conn:
            return bool(changelog.data_version(conn) != self._data_version)

    def _watcher_reloads(self) -> bool:
        """True when a running watcher thread, not this one, will do a due reload."""
        watcher = self._watcher
        return (
            watcher is not None
            and watcher is not threading.current_thread()
            and watcher.is_alive()
            and not self._watch_stop.is_set()
        )

    def _sync_locked(self, whole: bool = True) -> list[ChangeSet] | None:
        """Under the lock: catch up with ``conn``'s snapshot; returns the ChangeSets queued, or
        None (having done nothing) when a whole reload is due and not ``whole``. Nothing while
        our own batch commits (it reaches the graph right after) or a reload runs."""
        if self.path == ":memory:" or self._committing or self._closed:
            return []
        if self._reloader is not None:
            return []  # the graph it builds lands soon; until then this one is consistent
        with faults.sqlite_errors(self.path), self._read_connection() as conn:
            if changelog.data_version(conn) == self._data_version and not self._stale:
                return []  # the common case: nobody committed; no snapshot needed to know that
            conn.execute("BEGIN")
            try:
                version = changelog.data_version(conn)
                if version == self._data_version and not self._stale:
                    return []
                if not whole and self._reload_due(conn):
                    return None
                found = self._catch_up(conn)
                self._data_version = version  # only once the catch-up succeeded
                return found
            finally:
                conn.execute("COMMIT")

    def _reload_due(self, conn: Any) -> bool:
        return self._stale or changelog.needs_reload(conn, self._generation, self._last_seq)

    def _catch_up(self, conn: Any) -> list[ChangeSet]:
        """Bring the graph up to ``conn``'s snapshot under the lock: replay the change log, or
        reload it whole (after a bulk load, a pruned gap or a damaged log row). Returns the
        ChangeSets queued."""
        self._epoch += 1
        if self._reload_due(conn):
            return [self._reload(conn)]
        found: list[ChangeSet] = []
        try:
            for batch in changelog.read_batches(conn, self._last_seq):
                found.append(changelog.replay(self._graph, batch))
                self._queue(found[-1:])
                self._last_seq = batch.last_seq
        except changelog.DamagedLog:
            log.warning("memgraph: damaged change-log row in %s; reloading", self.path)
            found.append(self._reload(conn))
        saved = self.layout_stamps.catch_up(conn)  # another process saved a layout?
        self._queue(saved)
        return found + saved

    def _reload(self, conn: Any) -> ChangeSet:
        """Under the lock: the graph of ``conn``'s open transaction becomes the store's."""
        self._retire(self._install(_read_snapshot(conn)))
        changeset = _reloaded()
        self._queue([changeset])
        return changeset

    def _reload_unlocked(self, epoch: int) -> ChangeSet | None:
        """Read a new snapshot and build its graph without the lock (readers keep the old one);
        then, under the lock, swap it in and queue the ``reloaded`` ChangeSet, unless the graph
        changed since ``epoch`` (our own batch, a replacement) or the store closed: then the
        new graph is dropped and None returned. The caller set ``_reloader`` to this thread;
        it is cleared here. ``MemgraphError`` when the file cannot be read (nothing changed)."""
        loaded: _Snapshot | None = None
        changeset = old = None
        try:
            with faults.sqlite_errors(self.path), self._read_connection() as conn:
                conn.execute("BEGIN")
                try:
                    loaded = _read_snapshot(conn)
                finally:
                    conn.execute("COMMIT")
            loaded.graph.timeline_ids()  # what the first readers ask for, as a bulk load does
            loaded.graph.index_edges()
            self._prepare(loaded.graph)  # not published yet: no lock needed to read it
            with self.lock:
                if self._epoch == epoch and not (self._closed or self._committing):
                    old, changeset = self._install(loaded), _reloaded()
                    self._queue([changeset])
        finally:
            with self.lock:
                self._reloader = None
                self._reload_done.notify_all()
        if old is not None:
            self._retire(old)
        elif loaded is not None:
            loaded.graph.release()
        return changeset

    def _install(self, loaded: _Snapshot) -> Graph:
        """Under the lock: make ``loaded`` the store's graph and marks; returns the old graph."""
        old, self._graph = self._graph, loaded.graph
        self._data_version, self._last_seq, self._generation = loaded.marks
        self.layout_stamps.seen = loaded.layout_stamp  # the whole picture is read anyway
        self._stale = False
        self._epoch += 1
        return old

    # -- writing ---------------------------------------------------------------------------------
    @contextmanager
    def transaction(
        self,
        op: OpKind,
        label: str,
        *,
        origin: str | None = None,
        log_history: bool = True,
        kind: str = "do",
        target: int | None = None,
    ) -> Iterator[Tx]:
        """One write batch: ``BEGIN IMMEDIATE``, stage through the yielded ``Tx``, commit.

        All-or-nothing: an exception rolls the file and the graph back untouched. After commit
        ``tx.changeset`` holds the ChangeSet, which subscribers also receive. Not re-entrant.
        Waits up to the busy timeout for another process's lock, then raises ``STORE_BUSY``.
        """
        self._check_writable()
        shared = self._read is self._write  # ":memory:": readers' SQL would see our rows
        try:
            with self._write_mutex:
                self._begin_write()
                try:
                    self._before_writing()
                    with self.lock:  # the batch reads the graph: nothing may change it meanwhile
                        tx = self._start(label, kind, target)
                        yield tx
                        changes = tx.collect()
                        if self.guard is not None:  # what it raises rolls the batch back
                            self.guard(self._graph, changes)
                    # the rows are written without the lock (readers get the graph as it was);
                    # the graph gets the batch whole once it is committed (see ``_commit``)
                    with self.lock if shared else nullcontext():
                        self._commit(tx, changes, op, origin or self.origin, log_history)
                except BaseException:
                    self._rollback()
                    raise
                finally:
                    self._local.in_tx = False
        finally:
            self._deliver()

    def _begin_write(self) -> None:
        with faults.sqlite_errors(self.path):
            self._write.execute("BEGIN IMMEDIATE")

    def _before_writing(self) -> None:
        """With the file's write lock (nobody else can commit now), before the lock: wait for
        a reload that runs, and do one that is due here, off the lock, rather than in
        ``_start`` under it (readers keep the old graph meanwhile). ``_start`` then has a few
        batches to replay at most. A thread that holds the lock already catches up in
        ``_start``, as before."""
        if self.path == ":memory:" or self.lock._is_owned():  # type: ignore[attr-defined]
            return
        me = threading.get_ident()
        with self.lock:
            while self._reloader not in (None, me):
                self._reload_done.wait()
            with faults.sqlite_errors(self.path):
                due = self._reload_due(self._write)  # two small reads: no snapshot needed
        if due:
            self._sync(wait=True)

    def _start(self, label: str, kind: str, target: int | None) -> Tx:
        # Nobody else can commit until we do: what we read now stays true at COMMIT.
        with faults.sqlite_errors(self.path):
            self._catch_up(self._write)
            tx = Tx(self._graph, *changelog.next_ords(self._write))
        tx.label, tx.kind, tx.target = label, kind, target
        self._local.in_tx = True
        return tx

    def _commit(
        self, tx: Tx, changes: list[Change], op: OpKind, origin: str, log_history: bool
    ) -> None:
        """Write the batch's rows and COMMIT, then apply it to the graph under the lock.

        Readers that come meanwhile get the graph as it was, without catching up
        (``_committing``): none replays this batch from the file as another process's.
        """
        if self.signature and not tx.label.endswith(self.signature):
            tx.label += self.signature  # who wrote it, in the label every history shows
        with faults.sqlite_errors(self.path), faults.out_of_sync(self._mark_stale):
            batch_id = changelog.write_batch(
                self._write, changes, op, tx.label, origin, log_history, tx.kind, tx.target
            )
            changelog.save_ord_marks(self._write, tx.node_ord_mark, tx.edge_ord_mark)
            if changes and tx.kind == "do" and log_history:
                retention.prune(self._write)
            last_seq = changelog.max_seq(self._write)
            with self.lock:
                self._committing = True
            try:
                self._write.execute("COMMIT")
                with self.lock:
                    self._epoch += 1
                    self._last_seq = last_seq
                    tx.changeset = changelog.apply_committed(
                        self._graph, changes, op, tx.label, origin, batch_id
                    )
                    if changes:
                        self._queue([tx.changeset])
            finally:
                self._committing = False

    def _rollback(self) -> None:
        try:
            if self._write.in_transaction:
                self._write.execute("ROLLBACK")
        except Exception:  # the connection may be gone; the file is untouched either way
            log.warning("memgraph: rollback failed on %s", self.path, exc_info=True)

    def _mark_stale(self) -> None:
        self._stale = True

    def replace_all(
        self,
        nodes: list[Node],
        edges: list[Edge],
        meta: dict[str, Any],
        *,
        backup: bool = True,
        if_empty: bool = False,
        keep_meta: tuple[str, ...] = (),
        progress: Progress | None = None,
        as_given: bool = False,
    ) -> ChangeSet:
        """Bulk-load a whole graph (import, demo): replaces everything and clears the history.

        ``nodes``/``edges`` are ``Node``/``Edge`` objects (``ord`` is assigned here). One
        transaction; other processes see it as a reload. Not undoable: a file store that held
        nodes is first copied to ``NAME.bak`` (replacing the last one) unless not ``backup``.

        The copy, the ``if_empty`` check (``STORE_NOT_EMPTY`` when the store holds nodes) and
        the values of ``keep_meta`` (the stored values of these meta keys, unless ``meta`` gives
        one) are all taken inside the write lock of the replacement: the ``.bak`` holds every
        batch committed before it, and none can land between the check and the load.

        Readers are not held up meanwhile: they see the old graph until the new one, built on
        this thread without the store lock, is swapped in at commit. ``progress(done, total)``
        reports the rows written (on this thread). Waits like any write (``STORE_BUSY``).
        ``as_given``: the nodes and edges keep their ``ord`` and are the graph's own objects
        (``bulk.bulk_load``: a graph copied, e.g. ``membrane.seen``).
        """
        self._check_writable()
        changeset = ChangeSet(op=OpKind.LOAD, label="Load", reloaded=True)
        old: Graph | None = None
        try:
            with self._write_mutex:
                self._begin_write()
                # one shared connection (":memory:"): readers' SQL would see the half-written
                # rows, so they wait as for any batch; a file store's readers never do
                shared = self._read is self._write
                try:
                    with self.lock if shared else nullcontext():
                        with faults.sqlite_errors(self.path):
                            meta = self._before_replacing(meta, backup, if_empty, keep_meta)
                            graph = bulk_load(
                                self._write, nodes, edges, meta, progress, as_given=as_given
                            )
                        self._prepare(graph)  # not published yet: no lock needed to read it
                        old = self._swap_in(graph, changeset)
                except BaseException:
                    self._rollback()
                    raise
        finally:
            self._deliver()
        if old is not None:
            self._retire(old)
        return changeset

    def _before_replacing(
        self, meta: dict[str, Any], backup: bool, if_empty: bool, keep_meta: tuple[str, ...]
    ) -> dict[str, Any]:
        """Inside the replacement's write transaction, before it writes: the emptiness check,
        the ``.bak`` copy and the kept meta values; returns the meta to write."""
        held = int(self._write.execute("SELECT count(*) FROM nodes").fetchone()[0])
        if if_empty and held:
            raise MemgraphError(
                "STORE_NOT_EMPTY",
                f"{self.path} already holds {held:,} nodes; pass replace=True (--replace)",
            )
        if backup and held and self.path != ":memory:":
            keep_backup(self.path)  # the write lock is ours: the copy is the latest commit
        missing = [key for key in keep_meta if meta.get(key) is None]
        if not missing:
            return meta
        kept = dict(meta)
        for key in missing:
            row = self._write.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
            kept[key] = None if row is None else loads(row[0])
        return kept

    def _swap_in(self, graph: Graph, changeset: ChangeSet) -> Graph:
        """COMMIT the bulk load, then make ``graph`` the store's graph; returns the old graph.

        The COMMIT (~0.3 s at 50k nodes) runs without the lock: meanwhile readers get the old
        graph and do not catch up (``_committing``), so none reloads the new file itself or sees
        it beside the old graph's marks.
        """
        with self.lock:
            self._committing = True
        try:
            with faults.sqlite_errors(self.path):
                marks = changelog.marks(self._write)
                self._write.execute("COMMIT")
            with self.lock:
                old = self._install(_Snapshot(graph, marks, self.layout_stamps.seen))
                self._queue([changeset])
        finally:
            self._committing = False
        return old

    # -- beside the change log (settings, saved layout positions) ------------------------------
    def read_aside(self, job: Callable[[Any], T]) -> T:
        """Run ``job(conn)`` on the read connection (never waits for a writer)."""
        self._check_open()
        with faults.sqlite_errors(self.path), self._read_connection() as conn:
            return job(conn)

    def write_aside(self, job: Callable[[Any], T]) -> T:
        """Run ``job(conn)`` in one ``BEGIN IMMEDIATE`` transaction: not undoable, no ChangeSet.
        All-or-nothing; ``STORE_READ_ONLY`` / ``STORE_BUSY`` ... as for any write."""
        self._check_writable()
        with self._write_mutex:
            self._begin_write()
            try:
                with faults.sqlite_errors(self.path):
                    result = job(self._write)
                    self._write.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return result

    # -- SQL for history, search and diagnostics -------------------------------------------------
    def execute_read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run a read-only query: inside this thread's transaction when there is one, else on
        the read connection (which never waits for a writer)."""
        self._check_open()
        with faults.sqlite_errors(self.path):
            if getattr(self._local, "in_tx", False):
                return self._write.execute(sql, params).fetchall()
            with self._read_connection() as conn:
                return list(conn.execute(sql, params).fetchall())

    def execute_write(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one statement inside this thread's open transaction (history bookkeeping only)."""
        if not getattr(self._local, "in_tx", False):
            raise RuntimeError("execute_write outside a transaction")
        with faults.sqlite_errors(self.path):
            self._write.execute(sql, params)

    @contextmanager
    def _read_connection(self) -> Iterator[Any]:
        if self._read is self._write and not self.read_only:
            with self.lock:  # one shared connection (":memory:"): a writer's batch is never
                yield self._read  # uncommitted while the graph lock is free
        else:
            yield self._read

    # -- housekeeping ----------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the watcher, close the file and let go of the graph and its caches (idempotent)."""
        self.stop_watcher()
        nested = self.lock._is_owned()  # type: ignore[attr-defined]
        with self._write_mutex, self.lock:
            if self._closed:
                return
            while not nested and self._reloader not in (None, threading.get_ident()):
                self._reload_done.wait()  # its thread reads the connections closed here
            self._closed = True
            self._read.close()
            if self._write is not self._read:
                self._write.close()
            old, self._graph = self._graph, Graph()
            old.release()  # what it made goes now, not at some later full collection
            del old
        return_freed_memory()  # outside the locks: ~0.1 s at 50k nodes

    @property
    def closed(self) -> bool:
        return self._closed

    def _holds_store_locks(self) -> bool:
        return bool(self.lock._is_owned() or self._write_mutex._is_owned())  # type: ignore[attr-defined]

    def _check_open(self) -> None:
        if self._closed:
            raise MemgraphError("MEMORY_STORE_MISSING", "the memory store is closed")

    def _check_writable(self) -> None:
        self._check_open()
        if self.read_only == READ_ONLY_FOLDER:
            raise MemgraphError("STORE_FOLDER_READ_ONLY", faults.folder_read_only(self.path))
        if self.read_only:
            raise MemgraphError("STORE_READ_ONLY", faults.file_read_only(self.path))

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


RELOAD_ATTEMPTS = 3
"""Whole reloads built off the lock and dropped (the graph changed meanwhile) before one is
done under the lock instead."""


class _Snapshot(NamedTuple):
    """A graph read whole from one snapshot, with that snapshot's marks (``data_version``, last
    change seq, generation) and saved layout's stamp."""

    graph: Graph
    marks: tuple[int, int, str]
    layout_stamp: str


def _read_snapshot(
    conn: Any,
    on_preview: Previewed | None = None,
    spare: Any = None,
    before_build: Callable[[], None] | None = None,
) -> _Snapshot:
    """The graph and marks of ``conn``'s open transaction (the rows' JSON checked meanwhile on
    the idle ``spare`` connection, if given; ``on_preview`` once the rows are read; with
    ``before_build``, the rows are checked first in SQL, then ``before_build()``, then read)."""
    marks = changelog.marks(conn)
    stamp = positions.read_stamp(conn)
    if before_build is not None:
        rows.check_rows(conn)
        rows.parse_meta(rows.read_meta(conn))  # the one check the build makes
        before_build()
    with nullcontext() if before_build is not None else rows.checked(conn, spare):
        kept = None
        if on_preview is not None:  # the picture kept with the layout, when it is current
            from memgraph_gui.core.storage import stored_picture  # (numpy: a window's open only)

            kept = stored_picture.read(conn, stored_picture.Version(marks[2], marks[1], stamp))
            if kept is not None:
                deliver_picture(on_preview, kept, (marks[2], marks[1]))
        tables = rows.read_tables(conn)
        if on_preview is not None and kept is None:
            deliver(on_preview, tables, conn, (marks[2], marks[1]))
        del kept  # drawn (or dropped): not held while the graph is built
        graph = rows.build_graph(tables)
    return _Snapshot(graph, marks, stamp)


def _reloaded() -> ChangeSet:
    return ChangeSet(op=OpKind.LOAD, label="Reload", reloaded=True, external=True)

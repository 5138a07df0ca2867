"""``Store``: one chat memory in one SQLite file, mirrored in memory for fast reads.

Threading: every public method may be called from any thread. ``lock`` guards the in-memory graph
and is held only for short, CPU-bound work; a writer first waits for the file's write lock (other
processes) holding only the in-process writer mutex, so readers never wait on another process.
Subscribers are called after both are released, in commit order (see ``watcher``).

Consistency: the graph, the read connection's ``data_version``, the last change-log sequence, the
bulk-load generation and the saved layout's stamp always come from one snapshot. Other processes'
batches are applied from the change log whole or not at all (a damaged row: a full reload).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, TypeVar

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
from memgraph_gui.core.storage.preview import Previewed, deliver
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
        self.lock = threading.RLock()
        self._write_mutex = threading.RLock()
        self._local = threading.local()
        self._closed = self._stale = False
        self._committing = False  # our batch is committing: readers keep the graph as it is
        self._data_version = self._last_seq = 0
        self._generation = ""
        self._graph = Graph()
        self.layout_stamps = positions.LayoutStamps()
        Subscriptions.__init__(self)
        self._read.execute("BEGIN")
        try:
            spare = self._write if self._write is not self._read else None
            self._load(self._read, on_preview, spare, before_build)
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
    def reading(self) -> Iterator[Graph]:
        """Hold the lock and yield the graph, first catching up with other processes' commits.

        A failed catch-up is logged and the last good graph is served (the watcher retries).
        """
        self._check_open()
        try:
            with self.lock:
                try:
                    self._sync_locked()
                except MemgraphError:
                    log.warning("memgraph: catching up with %s failed", self.path, exc_info=True)
                yield self._graph
        finally:
            self._deliver()

    @property
    def graph(self) -> Graph:
        """The in-memory graph as of now (synced). Hold ``lock`` while iterating it."""
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
        """Apply commits made by other processes; returns (and publishes) their ChangeSets.
        ``MemgraphError`` when the file cannot be read (nothing recorded: the next call retries)."""
        self._check_open()
        try:
            with self.lock:
                start = len(self._outbox)
                self._sync_locked()
                found = list(self._outbox)[start:]
        finally:
            self._deliver()
        return found

    def _sync_locked(self) -> None:
        if self.path == ":memory:":
            return  # nobody else can write a private in-memory database
        if self._committing:
            return  # our own batch is committing: it reaches the graph right after
        with faults.sqlite_errors(self.path), self._read_connection() as conn:
            if changelog.data_version(conn) == self._data_version and not self._stale:
                return  # the common case: nobody committed; no snapshot needed to know that
            conn.execute("BEGIN")
            try:
                version = changelog.data_version(conn)
                if version != self._data_version or self._stale:
                    self._catch_up(conn)
                    self._data_version = version  # only once the catch-up succeeded
            finally:
                conn.execute("COMMIT")

    def _catch_up(self, conn: Any) -> None:
        """Bring the graph up to ``conn``'s snapshot: replay the change log, or reload it whole
        (after a bulk load, a pruned gap or a damaged log row)."""
        if self._stale or changelog.needs_reload(conn, self._generation, self._last_seq):
            self._reload(conn)
            return
        try:
            for batch in changelog.read_batches(conn, self._last_seq):
                self._queue([changelog.replay(self._graph, batch)])
                self._last_seq = batch.last_seq
        except changelog.DamagedLog:
            log.warning("memgraph: damaged change-log row in %s; reloading", self.path)
            self._reload(conn)
        self._queue(self.layout_stamps.catch_up(conn))  # another process saved a layout?

    def _reload(self, conn: Any) -> None:
        old, self._graph = self._graph, Graph()
        old.release()
        self._load(conn)
        self._stale = False
        self._queue([ChangeSet(op=OpKind.LOAD, label="Reload", reloaded=True, external=True)])

    def _load(
        self,
        conn: Any,
        on_preview: Previewed | None = None,
        spare: Any = None,
        before_build: Callable[[], None] | None = None,
    ) -> None:
        """Load graph, data_version, last seq and generation in ``conn``'s open transaction
        (the rows' JSON checked meanwhile on the idle ``spare`` connection, if given; with
        ``before_build``, checked first in SQL, then ``before_build()``, then read)."""
        self._data_version, self._last_seq, self._generation = changelog.marks(conn)
        self.layout_stamps.load(conn)
        if before_build is not None:
            rows.check_rows(conn)
            rows.parse_meta(rows.read_meta(conn))  # the one check the build makes
            before_build()
        with nullcontext() if before_build is not None else rows.checked(conn, spare):
            tables = rows.read_tables(conn)
            if on_preview is not None:
                deliver(on_preview, tables, conn, (self._generation, self._last_seq))
            self._graph = rows.build_graph(tables)

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
                    with self.lock:  # the batch reads the graph: nothing may change it meanwhile
                        tx = self._start(label, kind, target)
                        yield tx
                        changes = tx.collect()
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
                            graph = bulk_load(self._write, nodes, edges, meta, progress)
                        self._prepare(graph)  # not published yet: no lock needed to read it
                        old = self._swap_in(graph, changeset)
                except BaseException:
                    self._rollback()
                    raise
        finally:
            self._deliver()
        if old is not None:
            old.release()
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
                old, self._graph = self._graph, graph
                self._data_version, self._last_seq, self._generation = marks
                self._stale = False
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
        with self._write_mutex, self.lock:
            if self._closed:
                return
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

"""``Store``: one chat memory in one SQLite file, mirrored in memory for fast reads.

Threading: every public method may be called from any thread; one re-entrant lock serialises use
of the connection and the in-memory graph. Subscribers are called after the lock is released, on
the thread that committed (or on the watcher thread for other processes' commits).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.images import Change, loads
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.tx import Tx
from memgraph_gui.core.storage import rows
from memgraph_gui.core.storage.changelog import apply_image, build_changeset
from memgraph_gui.core.storage.connection import check_foreign, connect, default_origin, op_kind
from memgraph_gui.core.storage.migrations import migrate
from memgraph_gui.core.storage.watcher import Subscriptions


class Store(Subscriptions):
    """A chat memory store. Open with :meth:`open`; ``":memory:"`` gives a private in-memory one."""

    def __init__(self, conn: sqlite3.Connection, path: str, origin: str) -> None:
        self._conn = conn
        self.path = path
        self.origin = origin
        self.lock = threading.RLock()
        self._closed = False
        Subscriptions.__init__(self)
        self._graph = rows.load_graph(conn)
        self._data_version = self._pragma("data_version")
        self._last_seq = self._max_change_seq()
        self._generation = self._read_generation()

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] = ":memory:",
        *,
        create: bool = True,
        origin: str | None = None,
    ) -> Store:
        """Open (or create) a store. New stores get Luker's default schema.

        Raises ``MemgraphError('MEMORY_STORE_MISSING')`` when the file is absent and ``create`` is
        False, and ``MemgraphError('STORE_UNREADABLE')`` for a file that is not a memgraph store.
        """
        path = str(path)
        if path != ":memory:" and not create and not Path(path).exists():
            raise MemgraphError("MEMORY_STORE_MISSING", f"no memory store at {path}")
        try:
            conn = connect(path)
            fresh = conn.execute("PRAGMA user_version").fetchone()[0] == 0
            check_foreign(conn, path)
            migrate(conn)
        except (sqlite3.DatabaseError, ValueError) as exc:
            raise MemgraphError("STORE_UNREADABLE", f"{path}: {exc}") from exc
        store = cls(conn, path, origin or default_origin())
        if fresh:
            store._install_defaults()
        return store

    def _install_defaults(self) -> None:
        from memgraph_gui.core.domain.default_schema import default_schema

        with self.transaction(OpKind.LOAD, "New store", log_history=False) as tx:
            tx.set_meta("schema", default_schema())
            for key in (
                "nodeSeq",
                "seqCounter",
                "appliedSeqTo",
                "loggedSeqTo",
                "sourceMessageCount",
            ):
                tx.set_meta(key, 0)

    # -- reading ---------------------------------------------------------------------------------
    @contextmanager
    def reading(self) -> Iterator[Graph]:
        """Hold the lock and yield the graph, first catching up with other processes' commits."""
        self._check_open()
        pending: list[ChangeSet] = []
        try:
            with self.lock:
                pending = self._sync_locked()
                yield self._graph
        finally:
            self._notify(pending)

    @property
    def graph(self) -> Graph:
        """The in-memory graph as of now (synced). Hold ``lock`` while iterating it."""
        with self.reading() as graph:
            return graph

    def sync(self) -> list[ChangeSet]:
        """Apply commits made by other processes; returns (and publishes) their ChangeSets."""
        self._check_open()
        with self.lock:
            pending = self._sync_locked()
        self._notify(pending)
        return pending

    def _sync_locked(self) -> list[ChangeSet]:
        version = self._pragma("data_version")
        if version == self._data_version:
            return []
        self._data_version = version
        return self._catch_up()

    def _catch_up(self) -> list[ChangeSet]:
        """Bring the graph up to the file: a full reload after a bulk load, else replay the log."""
        generation = self._read_generation()
        if generation != self._generation:
            self._generation = generation
            self._reload_graph()
            self._last_seq = self._max_change_seq()
            return [ChangeSet(op=OpKind.LOAD, label="Reload", reloaded=True, external=True)]
        cur = self._conn.execute(
            "SELECT c.seq, c.batch, c.kind, c.key, c.after, b.op, b.label, b.origin "
            "FROM changes c JOIN batches b ON b.id = c.batch WHERE c.seq > ? ORDER BY c.seq",
            (self._last_seq,),
        )
        return self._replay(cur.fetchall())

    def _replay(self, log_rows: list[tuple[Any, ...]]) -> list[ChangeSet]:
        out: list[ChangeSet] = []
        batch: list[Change] = []
        for index, (seq, batch_id, kind, key, after, op, label, origin) in enumerate(log_rows):
            from memgraph_gui.core.storage.changelog import current_image

            image = loads(after)
            batch.append(Change(kind, key, current_image(self._graph, kind, key), image))
            apply_image(self._graph, kind, key, image)
            self._last_seq = seq
            last = index + 1 == len(log_rows) or log_rows[index + 1][1] != batch_id
            if last:
                self._graph.bump()
                out.append(
                    build_changeset(
                        batch,
                        op=op_kind(op),
                        label=label,
                        origin=origin,
                        batch_id=batch_id,
                        external=True,
                    )
                )
                batch = []
        return out

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
        """
        self._check_open()
        pending: list[ChangeSet] = []
        with self.lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                # Nobody else can commit until we do: what we read now stays true at COMMIT.
                version = self._pragma("data_version")
                pending = self._catch_up()
                tx = Tx(self._graph, self._next_ord("nodes"), self._next_ord("edges"))
                tx.label, tx.kind, tx.target = label, kind, target
                yield tx
                changes = tx.collect()
                batch_id = self._write_batch(
                    tx,
                    changes,
                    op,
                    tx.label,
                    origin or self.origin,
                    log_history,
                    tx.kind,
                    tx.target,
                )
                self._save_ord_marks(tx)
                last_seq = self._max_change_seq()
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                self._notify(pending)
                raise
            self._data_version, self._last_seq = version, last_seq
            tx.changeset = self._apply_committed(changes, op, tx.label, origin, batch_id)
        self._notify([*pending, tx.changeset] if changes else pending)

    def _write_batch(
        self,
        tx: Tx,
        changes: list[Change],
        op: OpKind,
        label: str,
        origin: str,
        log_history: bool,
        kind: str,
        target: int | None,
    ) -> int:
        if not changes:
            return 0
        status = "active" if kind == "do" and log_history else ("none" if kind == "do" else kind)
        if kind == "do" and log_history:  # a new step ends the redo chain of its origin
            self._conn.execute(
                "UPDATE batches SET status='dead' WHERE status='undone' AND origin=?", (origin,)
            )
        cur = self._conn.execute(
            "INSERT INTO batches(kind, op, label, origin, ts, target, status) "
            "VALUES (?,?,?,?,?,?,?)",
            (kind, str(op), label, origin, time.time(), target, status),
        )
        batch_id = int(cur.lastrowid or 0)
        rows.write_changes(self._conn, batch_id, changes)
        return batch_id

    def _apply_committed(
        self,
        changes: list[Change],
        op: OpKind,
        label: str,
        origin: str | None,
        batch_id: int,
    ) -> ChangeSet:
        for ch in changes:
            apply_image(self._graph, ch.kind, ch.key, ch.after)
        if changes:
            self._graph.bump()
        return build_changeset(
            changes, op=op, label=label, origin=origin or self.origin, batch_id=batch_id
        )

    def replace_all(self, nodes: list[Any], edges: list[Any], meta: dict[str, Any]) -> ChangeSet:
        """Bulk-load a whole graph (import, demo): replaces everything and clears the history.

        ``nodes``/``edges`` are ``Node``/``Edge`` objects (``ord`` is assigned here). One
        transaction; other processes see it as a reload. Not undoable.
        """
        from memgraph_gui.core.storage.bulk import bulk_replace

        self._check_open()
        with self.lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                version = self._pragma("data_version")
                bulk_replace(self._conn, nodes, edges, meta)
                self._generation = self._read_generation()
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._reload_graph()
            self._data_version, self._last_seq = version, 0
        changeset = ChangeSet(op=OpKind.LOAD, label="Load", reloaded=True)
        self._notify([changeset])
        return changeset

    # -- housekeeping ----------------------------------------------------------------------------
    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every graph table's rows (nodes, edges, meta) in a stable order."""
        with self.lock:
            return rows.dump_tables(self._conn)

    def execute_read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run a read-only query on the store's connection (history, FTS, diagnostics)."""
        with self.lock:
            return self._conn.execute(sql, params).fetchall()

    def maintain(self, job: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run housekeeping that manages its own transaction (e.g. the search index queue)."""
        self._check_open()
        with self.lock:
            pending = self._sync_locked()
            result = job(self._conn)  # our own commit leaves this connection's data_version be
        self._notify(pending)
        return result

    def execute_write(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """Run one statement inside the current transaction (history bookkeeping only)."""
        with self.lock:
            self._conn.execute(sql, params)

    def close(self) -> None:
        """Stop the watcher and close the file (idempotent)."""
        self.stop_watcher()
        with self.lock:
            if not self._closed:
                self._closed = True
                self._conn.close()

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def read_only(self) -> bool:
        return False

    def _check_open(self) -> None:
        if self._closed:
            raise MemgraphError("MEMORY_STORE_MISSING", "the memory store is closed")

    def _pragma(self, name: str) -> int:
        return int(self._conn.execute(f"PRAGMA {name}").fetchone()[0])

    def _max_change_seq(self) -> int:
        return int(self._conn.execute("SELECT coalesce(max(seq), 0) FROM changes").fetchone()[0])

    def _next_ord(self, table: str) -> int:
        """The next row number: never one used before, so undo can restore rows by number."""
        used = self._conn.execute(f"SELECT coalesce(max(ord), 0) FROM {table}").fetchone()[0]
        mark = self._conn.execute(
            "SELECT value FROM store_info WHERE key=?", (f"{table}_ord_mark",)
        ).fetchone()
        return max(int(used), int(mark[0]) if mark else 0) + 1

    def _save_ord_marks(self, tx: Tx) -> None:
        for table, mark in (("nodes", tx.node_ord_mark), ("edges", tx.edge_ord_mark)):
            if mark is not None:
                self._conn.execute(
                    "INSERT OR REPLACE INTO store_info(key, value) VALUES (?, ?)",
                    (f"{table}_ord_mark", str(mark)),
                )

    def _reload_graph(self) -> None:
        """Replace the graph by a fresh load (the old one and its frozen objects are released)."""
        import gc

        self._graph = Graph()
        gc.unfreeze()
        gc.collect()
        self._graph = rows.load_graph(self._conn)

    def _read_generation(self) -> str:
        row = self._conn.execute("SELECT value FROM store_info WHERE key='generation'").fetchone()
        return str(row[0]) if row else "0"

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

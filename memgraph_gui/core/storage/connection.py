"""Opening a store's SQLite connections.

A store has a read connection (polling, history and search queries; in WAL mode it never waits
for a writer) and a write connection (one ``BEGIN IMMEDIATE`` per batch). Another program's SQLite
file is refused before anything in it changes (no ``journal_mode`` switch, no migration). A store
that cannot be written (a read-only file, or a file in a read-only folder) still opens for reading.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.storage.migrations import APPLICATION_ID, SCHEMA_VERSION, migrate

BUSY_TIMEOUT_S = 5.0
"""How long a write waits for another process's lock (SQLite retries with growing sleeps) before
it fails with ``STORE_BUSY``."""

READ_ONLY_FILE = "file"
READ_ONLY_FOLDER = "folder"


@dataclass(frozen=True, slots=True)
class Connections:
    """The open connections of one store; ``read`` is ``write`` for ``:memory:`` and read-only
    stores. ``read_only`` is ``""``, ``"file"`` or ``"folder"``."""

    read: sqlite3.Connection
    write: sqlite3.Connection
    read_only: str


def default_origin() -> str:
    """``program:pid`` — who made a batch, as recorded in the change log."""
    return f"{Path(sys.argv[0] or 'python').name}:{os.getpid()}"


def op_kind(value: str) -> OpKind:
    try:
        return OpKind(value)
    except ValueError:
        return OpKind.EXTERNAL


def open_connections(path: str, busy_timeout: float = BUSY_TIMEOUT_S) -> Connections:
    """Open (creating and migrating when needed) the store at ``path``.

    Raises ``MemgraphError`` (``STORE_FOREIGN``, ``STORE_FOLDER_READ_ONLY``, ``STORE_TOO_NEW``,
    ``STORE_READ_ONLY`` for a read-only file that needs upgrading) or ``sqlite3.Error``.
    """
    if path == ":memory:":
        conn = _connect(path, busy_timeout)
        migrate(conn)
        return Connections(conn, conn, "")
    target = Path(path)
    folder_writable = os.access(target.parent if str(target.parent) else ".", os.W_OK)
    if not target.exists() and not folder_writable:
        raise MemgraphError(
            "STORE_FOLDER_READ_ONLY",
            f"cannot create {path}: its folder is read-only; choose a writable folder",
        )
    if not folder_writable:
        return _open_read_only(path, READ_ONLY_FOLDER, busy_timeout)
    if target.exists() and not os.access(path, os.W_OK):
        return _open_read_only(path, READ_ONLY_FILE, busy_timeout)
    return _open_writable(path, busy_timeout)


def _open_writable(path: str, busy_timeout: float) -> Connections:
    read = _connect(path, busy_timeout)
    try:
        check_foreign(read, path)  # before anything below may change the file
        _use_wal(read, busy_timeout)
        migrate(read)
        write = _connect(path, busy_timeout)
    except BaseException:
        read.close()
        raise
    return Connections(read, write, "")


def _use_wal(conn: sqlite3.Connection, busy_timeout: float) -> None:
    """Switch the file to WAL, retrying for up to ``busy_timeout`` seconds while it is busy.

    The switch needs the file to itself, and when several processes open a new store at once
    SQLite may answer SQLITE_BUSY at once rather than wait (its deadlock avoidance between
    connections upgrading their locks), so the busy timeout alone does not cover it.
    """
    deadline = time.monotonic() + busy_timeout
    delay = 0.002
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            code = getattr(exc, "sqlite_errorcode", None)  # extended: BUSY_RECOVERY too
            busy = code is not None and code & 0xFF == sqlite3.SQLITE_BUSY
            if not busy or time.monotonic() + delay > deadline:
                raise
        time.sleep(delay)
        delay = min(2 * delay, 0.1)


def _open_read_only(path: str, why: str, busy_timeout: float) -> Connections:
    # In a read-only folder SQLite cannot create the WAL's shared-memory file, so the file is
    # opened as immutable; a read-only file in a writable folder opens normally, read-only.
    flags = "immutable=1" if why == READ_ONLY_FOLDER else "mode=ro"
    uri = f"file:{quote(str(Path(path).resolve()))}?{flags}"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        check_foreign(conn, path)
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise ValueError(f"this store was written by a newer memgraph (format {version})")
        if version != SCHEMA_VERSION:
            raise MemgraphError(
                "STORE_READ_ONLY",
                f"{path} was written by an older memgraph and must be upgraded, but it is "
                "read-only; make it writable (or copy it to a writable folder) and open it again",
            )
    except BaseException:
        conn.close()
        raise
    return Connections(conn, conn, why)


def _connect(path: str, busy_timeout: float) -> sqlite3.Connection:
    conn = sqlite3.connect(
        path, isolation_level=None, check_same_thread=False, timeout=busy_timeout
    )
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
    if path != ":memory:":
        conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def check_foreign(conn: sqlite3.Connection, path: str) -> None:
    """Refuse a SQLite file that is some other program's database (reads only).

    Both facts come from one read transaction: another process may be creating this very store,
    and a table count read after its commit beside an application id read before it would look
    like a foreign database.
    """
    conn.execute("BEGIN")
    try:
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
    finally:
        conn.execute("COMMIT")
    if app_id == APPLICATION_ID:
        return
    if app_id != 0 or tables:
        raise MemgraphError(
            "STORE_FOREIGN",
            f"{path} is another program's SQLite database ({tables} table(s), application id "
            f"{app_id:#x}); memgraph left it untouched. Open a .memgraph file, or give a new "
            "file name to create a store",
        )

"""Opening the SQLite connection of a store: pragmas, and refusing other programs' databases."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.storage.migrations import APPLICATION_ID


def default_origin() -> str:
    """``program:pid`` — who made a batch, as recorded in the change log."""
    return f"{Path(sys.argv[0] or 'python').name}:{os.getpid()}"


def op_kind(value: str) -> OpKind:
    try:
        return OpKind(value)
    except ValueError:
        return OpKind.EXTERNAL


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10.0)
    conn.execute("PRAGMA busy_timeout = 10000")
    if path != ":memory:":
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def check_foreign(conn: sqlite3.Connection, path: str) -> None:
    """Refuse a SQLite file that is some other program's database."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]
    if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables):
        raise ValueError("not a memgraph store (it is another SQLite database)")

"""Whole-store copies with SQLite's online backup: consistent while other processes write."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path


def backup_file(conn: sqlite3.Connection, target: Path) -> None:
    """Copy the database behind ``conn`` to ``target`` (written aside, fsynced, then renamed over
    it, so ``target`` always holds a whole store)."""
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.unlink(missing_ok=True)
    dest = sqlite3.connect(tmp)
    try:
        conn.backup(dest)
        dest.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
    finally:
        dest.close()
    try:
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def backup_path(path: str) -> Path:
    """Where the copy kept before a destructive operation goes: ``NAME.bak`` beside the store."""
    store = Path(path)
    return store.with_name(store.name + ".bak")


def keep_backup(path: str) -> None:
    """Copy the file store at ``path`` to ``NAME.bak`` through a connection of its own, so the
    copy is the latest commit (never an older snapshot some other connection still reads).

    Call it holding the file's write lock (inside ``BEGIN IMMEDIATE``, before writing): then the
    copy holds every batch committed before the caller's, and none can commit meanwhile.
    """
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        backup_file(conn, backup_path(path))
    finally:
        conn.close()

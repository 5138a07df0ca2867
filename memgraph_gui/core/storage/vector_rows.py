"""Stored embedding vectors: the ``vectors`` table (``profile``, ``id``, ``digest``, ``vec``).

A row holds one node's vector under one profile's key: ``vec`` is its float32 values as bytes
(native little-endian, as numpy writes them) and ``digest`` the digest of the text it was made
from. Like saved positions, vectors are derived data, not content: they are written beside the
change log (no undo step, no ChangeSet), and a row may name a node that is gone or whose text
changed since: readers compare the digest with the node's text now and never use such a row.
Several processes may write the same row; the last write wins, and either is a valid vector for
the digest it carries.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

Row = tuple[str, bytes, bytes]
"""``(node id, digest, vector bytes)``."""
_CHUNK = 500  # ids per ``IN (...)`` (SQLite's default limit is 999 parameters, 32766 since 3.32)


def read_profile(conn: sqlite3.Connection, profile: str) -> list[Row]:
    """Every stored row of ``profile``."""
    return conn.execute(
        "SELECT id, digest, vec FROM vectors WHERE profile = ?", (profile,)
    ).fetchall()


def read_digests(conn: sqlite3.Connection, profile: str) -> dict[str, bytes]:
    """``{node id: digest}`` of every stored row of ``profile`` (no vectors read)."""
    rows = conn.execute("SELECT id, digest FROM vectors WHERE profile = ?", (profile,))
    return dict(rows.fetchall())


def digests_of(conn: sqlite3.Connection, profile: str, ids: Sequence[str]) -> dict[str, bytes]:
    """``{node id: digest}`` of ``profile``'s stored rows for ``ids`` (no vectors read)."""
    out: dict[str, bytes] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        out.update(
            conn.execute(
                f"SELECT id, digest FROM vectors WHERE profile = ? AND id IN ({marks})",
                (profile, *chunk),
            ).fetchall()
        )
    return out


def read_rows(conn: sqlite3.Connection, profile: str, ids: Sequence[str]) -> list[Row]:
    """The stored rows of ``profile`` for ``ids`` (those that have one)."""
    out: list[Row] = []
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        marks = ",".join("?" * len(chunk))
        out += conn.execute(
            f"SELECT id, digest, vec FROM vectors WHERE profile = ? AND id IN ({marks})",
            (profile, *chunk),
        ).fetchall()
    return out


def write_rows(conn: sqlite3.Connection, profile: str, rows: Iterable[Row]) -> int:
    """Inside the caller's transaction: store ``rows`` under ``profile`` (replacing a node's
    row). Returns the rows written."""
    cursor = conn.executemany(
        "INSERT OR REPLACE INTO vectors(profile, id, digest, vec) VALUES (?, ?, ?, ?)",
        ((profile, node_id, digest, vec) for node_id, digest, vec in rows),
    )
    return max(cursor.rowcount, 0)


def delete_ids(conn: sqlite3.Connection, profile: str, ids: Iterable[str]) -> int:
    """Inside the caller's transaction: drop ``profile``'s rows of ``ids``; returns how many."""
    cursor = conn.executemany(
        "DELETE FROM vectors WHERE profile = ? AND id = ?", ((profile, i) for i in ids)
    )
    return max(cursor.rowcount, 0)


def drop_profile(conn: sqlite3.Connection, profile: str) -> int:
    """Inside the caller's transaction: drop every row of ``profile``; returns how many."""
    return conn.execute("DELETE FROM vectors WHERE profile = ?", (profile,)).rowcount


def counts(conn: sqlite3.Connection) -> dict[str, int]:
    """``{profile key: rows stored}``."""
    rows = conn.execute("SELECT profile, count(*) FROM vectors GROUP BY profile")
    return dict(rows.fetchall())

"""Saved layout positions: the ``positions`` table (``id``, ``x``, ``y``).

Positions are a picture, not content: they are written beside the change log (no undo step),
replaced whole in one transaction, and may name nodes that no longer exist (readers ignore
those). Each save also writes a new stamp (``store_info.positions_stamp``), so another process
that catches up sees that the picture changed (``ChangeSet.positions_saved``) without a change
log entry. Pins, which are content, live in the graph meta key ``"pins"``.
"""

from __future__ import annotations

import math
import os
import sqlite3
import uuid
from collections.abc import Iterable

from memgraph_gui.core.domain.changes import ChangeSet, OpKind

Position = tuple[str, float, float]
SELECT = "SELECT id, x, y FROM positions"


def read_positions(conn: sqlite3.Connection) -> list[Position]:
    """Every saved ``(id, x, y)`` row, as tuples."""
    return conn.execute(SELECT).fetchall()


def replace_positions(conn: sqlite3.Connection, rows: Iterable[Position], stamp: str) -> int:
    """Inside the caller's transaction: drop every saved position and insert ``rows`` (finite
    coordinates only; later duplicates win), stamped ``stamp``. Returns the rows written."""
    finite = {i: (i, x, y) for i, x, y in rows if math.isfinite(x) and math.isfinite(y)}
    conn.execute("DELETE FROM positions")
    conn.executemany("INSERT INTO positions(id, x, y) VALUES (?, ?, ?)", finite.values())
    conn.execute(
        "INSERT OR REPLACE INTO store_info(key, value) VALUES ('positions_stamp', ?)", (stamp,)
    )
    return len(finite)


def read_stamp(conn: sqlite3.Connection) -> str:
    """The stamp of the last save ("" when positions were never saved with one)."""
    row = conn.execute("SELECT value FROM store_info WHERE key = 'positions_stamp'").fetchone()
    return str(row[0]) if row else ""


def new_stamp() -> str:
    """A stamp no other save has: which process saved, and a random part."""
    return f"{os.getpid()}-{uuid.uuid4().hex}"


SAVED_ELSEWHERE = ChangeSet(
    op=OpKind.EXTERNAL, label="Layout saved", external=True, positions_saved=True
)


class LayoutStamps:
    """A store's view of the saved layout's stamp: as last seen in the file, and the ones this
    process wrote itself (noted before their transaction starts, so no catch-up, on any
    thread, takes this process's own save for another's)."""

    def __init__(self) -> None:
        self.seen = ""
        self._mine: set[str] = set()

    def mine(self, stamp: str) -> None:
        """Note a stamp this process is about to write."""
        self._mine.add(stamp)

    def load(self, conn: sqlite3.Connection) -> None:
        """Take the file's stamp as seen (a load: the whole picture is read anyway)."""
        self.seen = read_stamp(conn)

    def catch_up(self, conn: sqlite3.Connection) -> list[ChangeSet]:
        """``[SAVED_ELSEWHERE]`` when the file holds a stamp not seen yet and not ours."""
        stamp = read_stamp(conn)
        if stamp == self.seen:
            return []
        self.seen = stamp
        return [] if stamp in self._mine else [SAVED_ELSEWHERE]

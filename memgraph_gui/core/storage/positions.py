"""Saved layout positions: the ``positions`` table (``id``, ``x``, ``y``).

Positions are a picture, not content: they are written beside the change log (no undo step, no
ChangeSet), replaced whole in one transaction, and may name nodes that no longer exist (readers
ignore those). Pins, which are content, live in the graph meta key ``"pins"``.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable

Position = tuple[str, float, float]
SELECT = "SELECT id, x, y FROM positions"


def read_positions(conn: sqlite3.Connection) -> list[Position]:
    """Every saved ``(id, x, y)`` row, as tuples."""
    return conn.execute(SELECT).fetchall()


def replace_positions(conn: sqlite3.Connection, rows: Iterable[Position]) -> int:
    """Inside the caller's transaction: drop every saved position and insert ``rows`` (finite
    coordinates only; later duplicates win). Returns the number of rows written."""
    finite = {i: (i, x, y) for i, x, y in rows if math.isfinite(x) and math.isfinite(y)}
    conn.execute("DELETE FROM positions")
    conn.executemany("INSERT INTO positions(id, x, y) VALUES (?, ?, ?)", finite.values())
    return len(finite)

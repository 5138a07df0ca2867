"""How much change log a store keeps: the newest ``max_steps`` undo steps, none older than
``max_days`` (per store file; defaults below, 0 switches a limit off).

Pruning runs inside the write transaction of a new undo step, with some slack so it is rare.
It removes whole batches (undo steps, their undo/redo records, injection updates) older than
the oldest kept step, and records the last removed sequence so that a process that had not yet
read those rows reloads instead of replaying a gap.
"""

from __future__ import annotations

import math
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from memgraph_gui.core.domain.errors import MemgraphError

DEFAULT_MAX_STEPS = 1_000
DEFAULT_MAX_DAYS = 365
_SLACK = 50  # prune once the step count is this far over the limit


@dataclass(frozen=True, slots=True)
class Retention:
    """The change-log limits of one store (0 = unlimited)."""

    max_steps: int = DEFAULT_MAX_STEPS
    max_days: float = DEFAULT_MAX_DAYS

    def to_json(self) -> dict[str, float]:
        return {"maxSteps": self.max_steps, "maxDays": self.max_days}


def parse(max_steps: Any, max_days: Any) -> Retention:
    """Limits from user input; ``BAD_ARGS`` unless both are non-negative numbers."""
    for name, value in (("maxSteps", max_steps), ("maxDays", max_days)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise MemgraphError("BAD_ARGS", f"{name}: expected a number, got {value!r}")
        if not math.isfinite(value) or value < 0:
            raise MemgraphError("BAD_ARGS", f"{name}: expected 0 (no limit) or more")
    if max_steps != int(max_steps):
        raise MemgraphError("BAD_ARGS", "maxSteps: expected a whole number")
    return Retention(int(max_steps), float(max_days))


def read(conn: sqlite3.Connection) -> Retention:
    """The store's limits (the defaults when never set)."""
    values = dict(
        conn.execute(
            "SELECT key, value FROM store_info WHERE key IN ('history_max_steps', "
            "'history_max_days')"
        ).fetchall()
    )
    return Retention(
        int(values.get("history_max_steps", DEFAULT_MAX_STEPS)),
        float(values.get("history_max_days", DEFAULT_MAX_DAYS)),
    )


def write(conn: sqlite3.Connection, retention: Retention) -> None:
    """Store new limits (inside the caller's transaction) and prune to them."""
    conn.executemany(
        "INSERT OR REPLACE INTO store_info(key, value) VALUES (?, ?)",
        [
            ("history_max_steps", str(retention.max_steps)),
            ("history_max_days", str(retention.max_days)),
        ],
    )
    prune(conn, slack=0)


def prune(conn: sqlite3.Connection, slack: int = _SLACK) -> int:
    """Drop batches older than the limits allow; returns how many batches went."""
    limits = read(conn)
    cutoff = max(_cutoff_by_steps(conn, limits.max_steps, slack), _cutoff_by_age(conn, limits))
    if cutoff <= 0:
        return 0
    last = conn.execute("SELECT max(seq) FROM changes WHERE batch < ?", (cutoff,)).fetchone()[0]
    conn.execute("DELETE FROM changes WHERE batch < ?", (cutoff,))
    gone = conn.execute("DELETE FROM batches WHERE id < ?", (cutoff,)).rowcount
    if last is not None:
        conn.execute(
            "INSERT OR REPLACE INTO store_info(key, value) VALUES ('pruned_through', ?)",
            (str(last),),
        )
    return int(gone)


def _cutoff_by_steps(conn: sqlite3.Connection, max_steps: int, slack: int) -> int:
    """The id of the oldest step to keep when there are too many, else 0."""
    if max_steps <= 0:
        return 0
    kept = conn.execute("SELECT coalesce(sum(active + undone), 0) FROM history_counts").fetchone()
    if int(kept[0]) <= max_steps + slack:
        return 0
    row = conn.execute(
        "SELECT id FROM batches WHERE kind = 'do' AND status IN ('active', 'undone') "
        "ORDER BY id DESC LIMIT 1 OFFSET ?",
        (max_steps - 1,),
    ).fetchone()
    return int(row[0]) if row else 0


def _cutoff_by_age(conn: sqlite3.Connection, limits: Retention) -> int:
    """The id of the oldest batch young enough to keep when older ones exist, else 0."""
    if limits.max_days <= 0:
        return 0
    oldest_allowed = time.time() - limits.max_days * 86_400
    oldest = conn.execute("SELECT min(ts) FROM batches").fetchone()[0]
    if oldest is None or oldest >= oldest_allowed:
        return 0
    row = conn.execute("SELECT min(id) FROM batches WHERE ts >= ?", (oldest_allowed,)).fetchone()
    if row[0] is not None:
        return int(row[0])
    newest = conn.execute("SELECT max(id) FROM batches").fetchone()[0]
    return int(newest) + 1

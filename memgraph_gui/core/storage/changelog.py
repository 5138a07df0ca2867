"""The change log: writing a batch's rows, reading other processes' batches back, and turning
before/after images into ``ChangeSet``s applied to a ``Graph``.

A batch read back is decoded completely before any of it touches the graph, so the graph gets a
batch whole or not at all.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.images import (
    Change,
    edge_from_image,
    edge_image,
    edge_key_from_text,
    loads,
    node_from_image,
    node_image,
)
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.storage import rows
from memgraph_gui.core.storage.connection import op_kind

COUNTER_KEYS = frozenset(
    {"nodeSeq", "seqCounter", "appliedSeqTo", "loggedSeqTo", "sourceMessageCount"}
)
_LOG_SELECT = (
    "SELECT c.seq, c.batch, c.kind, c.key, c.after, b.op, b.label, b.origin "
    "FROM changes c JOIN batches b ON b.id = c.batch WHERE c.seq > ? ORDER BY c.seq"
)


class DamagedLog(Exception):
    """A change-log row could not be decoded (the caller reloads from the tables instead)."""


@dataclass(frozen=True, slots=True)
class LoggedBatch:
    """One committed batch read back from the log: its rows decoded into applicable objects."""

    batch_id: int
    op: str
    label: str
    origin: str
    last_seq: int
    rows: tuple[tuple[str, str, Any, Any], ...]  # (kind, key, image, decoded object or key)


# -- reading other processes' commits ----------------------------------------------------------
def data_version(conn: sqlite3.Connection) -> int:
    """SQLite's counter of other connections' commits, as seen by ``conn``'s snapshot."""
    return int(conn.execute("PRAGMA data_version").fetchone()[0])


def max_seq(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(seq), 0) FROM changes").fetchone()[0])


def generation(conn: sqlite3.Connection) -> str:
    row = conn.execute("SELECT value FROM store_info WHERE key='generation'").fetchone()
    return str(row[0]) if row else "0"


def marks(conn: sqlite3.Connection) -> tuple[int, int, str]:
    """``(data_version, max_seq, generation)`` of ``conn``'s snapshot: what a loaded graph is of."""
    return data_version(conn), max_seq(conn), generation(conn)


REPLAY_LIMIT = 2_000
"""Change rows beyond which catching up reloads the whole graph instead of replaying them: a
replay runs under the store lock (every reader waits), at ~0.1-0.2 ms a row (another process's
import of 50k records held the lock ~8 s), while a reload is built off the lock."""


def needs_reload(conn: sqlite3.Connection, known_generation: str, last_seq: int) -> bool:
    """True after another process's bulk load, when rows we have not seen were pruned, or when
    more than ``REPLAY_LIMIT`` change rows are waiting (a long batch: reloaded off the lock)."""
    if generation(conn) != known_generation:
        return True
    newest = max_seq(conn)
    if newest - last_seq > REPLAY_LIMIT:
        return True
    row = conn.execute("SELECT value FROM store_info WHERE key='pruned_through'").fetchone()
    return row is not None and last_seq < int(row[0]) and last_seq < newest


def read_batches(conn: sqlite3.Connection, after_seq: int) -> Iterator[LoggedBatch]:
    """The batches committed after ``after_seq``, oldest first, each decoded whole.

    Raises ``DamagedLog`` at the first batch that cannot be decoded (earlier ones were yielded).
    """
    current: list[tuple[Any, ...]] = []
    for row in conn.execute(_LOG_SELECT, (after_seq,)).fetchall():
        if current and row[1] != current[0][1]:
            yield _decode(current)
            current = []
        current.append(row)
    if current:
        yield _decode(current)


def _decode(log_rows: list[tuple[Any, ...]]) -> LoggedBatch:
    decoded = []
    try:
        for _seq, _batch, kind, key, after, *_ in log_rows:
            image = loads(after)
            decoded.append((kind, key, image, _object(kind, key, image)))
    except (ValueError, KeyError, TypeError) as exc:
        raise DamagedLog(f"batch {log_rows[0][1]}: {exc}") from exc
    first = log_rows[0]
    return LoggedBatch(first[1], first[5], first[6], first[7], log_rows[-1][0], tuple(decoded))


def _object(kind: str, key: str, image: Any) -> Any:
    if kind == "node":
        return None if image is None else node_from_image(image)
    if kind == "edge":
        return edge_key_from_text(key) if image is None else edge_from_image(image)
    return image


def replay(graph: Graph, batch: LoggedBatch) -> ChangeSet:
    """Apply a decoded batch to ``graph``; returns its ChangeSet (``external=True``)."""
    changes = []
    for kind, key, image, obj in batch.rows:
        changes.append(Change(kind, key, current_image(graph, kind, key), image))  # type: ignore[arg-type]
        _apply_object(graph, kind, key, obj)
    return build_changeset(
        changes,
        op=op_kind(batch.op),
        label=batch.label,
        origin=batch.origin,
        batch_id=batch.batch_id,
        external=True,
    )


def _apply_object(graph: Graph, kind: str, key: str, obj: Any) -> None:
    if kind == "meta":
        graph.set_meta(key, obj)
    elif isinstance(obj, (Node, Edge)):
        graph.put_node(obj) if isinstance(obj, Node) else graph.put_edge(obj)
    elif kind == "node":
        graph.drop_node(key)
    else:
        graph.drop_edge(obj)


# -- writing a batch ---------------------------------------------------------------------------
def next_ords(conn: sqlite3.Connection) -> tuple[int, int]:
    """The next node and edge row numbers: never ones used before (undo restores by number)."""
    return _next_ord(conn, "nodes"), _next_ord(conn, "edges")


def _next_ord(conn: sqlite3.Connection, table: str) -> int:
    used = conn.execute(f"SELECT coalesce(max(ord), 0) FROM {table}").fetchone()[0]
    mark = conn.execute(
        "SELECT value FROM store_info WHERE key=?", (f"{table}_ord_mark",)
    ).fetchone()
    return max(int(used), int(mark[0]) if mark else 0) + 1


def save_ord_marks(conn: sqlite3.Connection, node_mark: int | None, edge_mark: int | None) -> None:
    for table, mark in (("nodes", node_mark), ("edges", edge_mark)):
        if mark is not None:
            conn.execute(
                "INSERT OR REPLACE INTO store_info(key, value) VALUES (?, ?)",
                (f"{table}_ord_mark", str(mark)),
            )


def write_batch(
    conn: sqlite3.Connection,
    changes: list[Change],
    op: OpKind,
    label: str,
    origin: str,
    log_history: bool,
    kind: str,
    target: int | None,
) -> int:
    """Write one batch's log rows and table rows inside the caller's transaction; its id (0 when
    nothing changed: then nothing at all is written)."""
    if not changes:
        return 0
    status = "active" if kind == "do" and log_history else ("none" if kind == "do" else kind)
    if kind == "do" and log_history:  # a new step ends the redo chain of its origin
        conn.execute(
            "UPDATE batches SET status='dead' WHERE status='undone' AND origin=?", (origin,)
        )
    cur = conn.execute(
        "INSERT INTO batches(kind, op, label, origin, ts, target, status) VALUES (?,?,?,?,?,?,?)",
        (kind, str(op), label, origin, time.time(), target, status),
    )
    batch_id = int(cur.lastrowid or 0)
    rows.write_changes(conn, batch_id, changes)
    return batch_id


def apply_committed(
    graph: Graph, changes: list[Change], op: OpKind, label: str, origin: str, batch_id: int
) -> ChangeSet:
    """Apply our own committed batch to ``graph``; returns its ChangeSet."""
    for ch in changes:
        if ch.value is not None:
            _apply_object(graph, ch.kind, ch.key, ch.value)
        else:
            apply_image(graph, ch.kind, ch.key, ch.after)
    return build_changeset(changes, op=op, label=label, origin=origin, batch_id=batch_id)


# -- images and ChangeSets ---------------------------------------------------------------------
@dataclass
class _Tally:
    added: set[str]
    updated: set[str]
    removed: set[str]
    archived: set[str]
    restored: set[str]
    fields: set[str]


def build_changeset(
    changes: Iterable[Change],
    *,
    op: OpKind,
    label: str = "",
    origin: str = "",
    batch_id: int = 0,
    external: bool = False,
) -> ChangeSet:
    """Summarise before/after images into a ``ChangeSet``."""
    tally = _Tally(set(), set(), set(), set(), set(), set())
    meta_keys: set[str] = set()
    edges_added: set[tuple[str, str, str]] = set()
    edges_removed: set[tuple[str, str, str]] = set()
    for ch in changes:
        if ch.kind == "node":
            _classify_node(ch, tally)
        elif ch.kind == "edge":
            (edges_added if ch.after is not None else edges_removed).add(edge_key_from_text(ch.key))
        else:
            meta_keys.add(ch.key)
    return ChangeSet(
        op=op,
        label=label,
        origin=origin,
        batch_id=batch_id,
        nodes_added=frozenset(tally.added),
        nodes_updated=frozenset(tally.updated),
        nodes_removed=frozenset(tally.removed),
        nodes_archived=frozenset(tally.archived),
        nodes_restored=frozenset(tally.restored),
        edges_added=frozenset(edges_added),
        edges_removed=frozenset(edges_removed),
        fields=frozenset(tally.fields),
        injection_changed="injection" in meta_keys,
        schema_changed="schema" in meta_keys,
        counters_changed=bool(meta_keys & COUNTER_KEYS),
        external=external,
        meta_keys=frozenset(meta_keys),
    )


def _classify_node(ch: Change, tally: _Tally) -> None:
    before, after = ch.before, ch.after
    if before is None:
        tally.added.add(ch.key)
        return
    if after is None:
        tally.removed.add(ch.key)
        return
    tally.updated.add(ch.key)
    if after.get("archived") and not before.get("archived"):
        tally.archived.add(ch.key)
    elif before.get("archived") and not after.get("archived"):
        tally.restored.add(ch.key)
    tally.fields.update(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    old_fields, new_fields = before.get("fields") or {}, after.get("fields") or {}
    tally.fields.update(
        f"fields.{k}"
        for k in set(old_fields) | set(new_fields)
        if old_fields.get(k) != new_fields.get(k)
    )


def current_image(graph: Graph, kind: str, key: str) -> Any:
    """The graph's present image for a change-log key (None when absent)."""
    if kind == "node":
        return node_image(graph.nodes.get(key))
    if kind == "edge":
        return edge_image(graph.edges.get(edge_key_from_text(key)))
    return graph.meta.get(key)


def apply_image(graph: Graph, kind: str, key: str, image: Any) -> None:
    """Make the graph hold ``image`` at ``key`` (None removes it)."""
    _apply_object(graph, kind, key, _object(kind, key, image))


def same_image(current: Any, expected: Any) -> bool:
    """Images equal as JSON: key order ignored, but ``true`` and ``1`` differ (as in the file)."""
    return json.dumps(current, sort_keys=True) == json.dumps(expected, sort_keys=True)

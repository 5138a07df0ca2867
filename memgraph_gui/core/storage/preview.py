"""A quick, read-only look at a store file: what the graph view needs to draw it (active nodes,
edges, saved positions, pins) straight from SQL, without building the in-memory graph.

A 50k-node store previews in ~0.3 s against ~1.2 s to open, so the window can draw a big
memory from its saved layout while the full store loads. Never writes, never migrates; any
problem (not a store, too old or new a format, locked, damaged) gives None and the caller
simply waits for the real open, which reports it properly.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from memgraph_gui.core.domain.model import HIERARCHY_EDGE_TYPES
from memgraph_gui.core.storage import changelog
from memgraph_gui.core.storage.migrations import APPLICATION_ID, SCHEMA_VERSION


@dataclass(frozen=True, slots=True)
class StorePreview:
    """Rows as read, joined in SQL so the caller only converts columns: ``nodes`` are
    ``(id, type, semantic_depth, semantic_rollup, x, y, title)`` of the active nodes (x, y None
    without a saved position), ``edges`` ``(from id, to id, is_hierarchy)`` (also those touching
    archived nodes: the caller drops them); ``stamp`` is the content version
    ``(generation, last change seq)`` (``Store.stamp``).
    """

    nodes: list[tuple[str, str, int, int, float | None, float | None, str]]
    edges: list[tuple[str, str, int]]
    pins: dict[str, tuple[float, float]]
    stamp: tuple[str, int]

    @property
    def positioned(self) -> int:
        """How many active nodes have a saved position."""
        return sum(1 for row in self.nodes if row[4] is not None)


def read_preview(path: str) -> StorePreview | None:
    """The preview of the store at ``path``, or None when it cannot be read that way."""
    if path == ":memory:" or not Path(path).is_file():
        return None
    uri = f"file:{quote(str(Path(path).resolve()))}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=0.2)
    except sqlite3.Error:
        return None
    try:
        return _read(conn)
    except (sqlite3.Error, ValueError, TypeError):
        return None
    finally:
        conn.close()


def _read(conn: sqlite3.Connection) -> StorePreview | None:
    conn.execute("BEGIN")  # one snapshot for every table
    try:
        if int(conn.execute("PRAGMA application_id").fetchone()[0]) != APPLICATION_ID:
            return None
        if int(conn.execute("PRAGMA user_version").fetchone()[0]) != SCHEMA_VERSION:
            return None
        nodes = conn.execute(_NODES).fetchall()
        edges = conn.execute(_EDGES).fetchall()
        pins = _pins(conn.execute("SELECT value FROM meta WHERE key = 'pins'").fetchone())
        stamp = (changelog.generation(conn), changelog.max_seq(conn))
    finally:
        conn.execute("COMMIT")
    return StorePreview(nodes, edges, pins, stamp)


_NODES = (
    "SELECT n.id, n.type, n.semantic_depth, n.semantic_rollup, p.x, p.y, n.title "
    "FROM nodes n "
    "LEFT JOIN positions p ON p.id = n.id WHERE n.archived = 0"
)
_EDGES = (
    "SELECT from_id, to_id, lower(type) IN "
    f"({', '.join(repr(t) for t in sorted(HIERARCHY_EDGE_TYPES))}) FROM edges"
)


def _pins(row: tuple[str] | None) -> dict[str, tuple[float, float]]:
    value = json.loads(row[0]) if row else {}
    if not isinstance(value, dict):
        return {}
    return {
        str(k): (float(v[0]), float(v[1]))
        for k, v in value.items()
        if isinstance(v, list) and len(v) == 2 and all(isinstance(c, (int, float)) for c in v)
    }

"""Bulk replacement of a store's whole graph (import, demo generation): plain ``executemany``."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from memgraph_gui.core.images import dumps
from memgraph_gui.core.model import Edge, Node, evolve
from memgraph_gui.core.rows import EDGE_UPSERT, NODE_UPSERT, edge_row, node_row


def bulk_replace(
    conn: sqlite3.Connection, nodes: list[Node], edges: list[Edge], meta: dict[str, Any]
) -> None:
    """Inside the caller's transaction: drop everything, insert the new rows, new generation.

    The FTS sync triggers are dropped for the load and the index rebuilt once at the end, which is
    several times faster than maintaining it row by row.
    """
    triggers = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type='trigger' AND tbl_name='nodes'"
    ).fetchall()
    for name, _sql in triggers:
        conn.execute(f'DROP TRIGGER "{name}"')
    conn.execute("DELETE FROM changes")
    conn.execute("DELETE FROM batches")
    conn.execute("DELETE FROM edges")
    conn.execute("DELETE FROM nodes")
    conn.execute("DELETE FROM meta")
    conn.executemany(
        NODE_UPSERT, (node_row(evolve(n, ord=i)) for i, n in enumerate(nodes, start=1))
    )
    conn.executemany(
        EDGE_UPSERT, (edge_row(e._replace(ord=i)) for i, e in enumerate(edges, start=1))
    )
    conn.execute("INSERT INTO nodes_fts(nodes_fts) VALUES ('rebuild')")
    for _name, sql in triggers:
        conn.execute(sql)
    conn.executemany(
        "INSERT INTO meta(key, value) VALUES (?, ?)",
        [(k, dumps(v)) for k, v in meta.items() if v is not None],
    )
    conn.execute("UPDATE store_info SET value=? WHERE key='generation'", (uuid.uuid4().hex,))

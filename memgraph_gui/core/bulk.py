"""Bulk replacement of a store's whole graph (import, demo generation): plain ``executemany``."""

from __future__ import annotations

import sqlite3
import uuid
from dataclasses import replace
from typing import Any

from memgraph_gui.core.images import dumps
from memgraph_gui.core.model import Edge, Node
from memgraph_gui.core.rows import EDGE_UPSERT, NODE_UPSERT, edge_row, node_row


def bulk_replace(conn: sqlite3.Connection, nodes: list[Node], edges: list[Edge],
                 meta: dict[str, Any]) -> None:
    """Inside the caller's transaction: drop everything, insert the new rows, new generation."""
    conn.execute("DELETE FROM changes")
    conn.execute("DELETE FROM batches")
    conn.execute("DELETE FROM edges")
    conn.execute("DELETE FROM nodes")
    conn.execute("INSERT INTO nodes_fts(nodes_fts) VALUES ('rebuild')")
    conn.execute("DELETE FROM meta")
    conn.executemany(NODE_UPSERT, (node_row(replace(n, ord=i))
                                   for i, n in enumerate(nodes, start=1)))
    conn.executemany(EDGE_UPSERT, (edge_row(replace(e, ord=i))
                                   for i, e in enumerate(edges, start=1)))
    conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)",
                     [(k, dumps(v)) for k, v in meta.items() if v is not None])
    conn.execute("UPDATE store_info SET value=? WHERE key='generation'", (uuid.uuid4().hex,))

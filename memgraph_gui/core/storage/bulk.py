"""Bulk replacement of a store's whole graph (import, demo generation): plain ``executemany``."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from memgraph_gui.core.domain.images import dumps
from memgraph_gui.core.domain.model import Edge, Node, evolve
from memgraph_gui.core.storage.fts import rebuild_search_index
from memgraph_gui.core.storage.rows import EDGE_UPSERT, NODE_UPSERT, edge_row, node_row


def bulk_replace(
    conn: sqlite3.Connection, nodes: list[Node], edges: list[Edge], meta: dict[str, Any]
) -> None:
    """Inside the caller's transaction: drop everything, insert the new rows, new generation.

    The search index is rebuilt in one statement at the end (much faster than row by row).
    """
    conn.execute("DELETE FROM changes")
    conn.execute("DELETE FROM batches")
    conn.execute("DELETE FROM edges")
    conn.execute("DELETE FROM nodes")
    conn.execute("DELETE FROM meta")
    conn.execute("DELETE FROM positions")  # a new graph: old pictures would place it wrongly
    # the history is gone too: row-number marks, the pruning mark and the redo chain
    conn.execute("DELETE FROM store_info WHERE key LIKE '%_ord_mark' OR key = 'pruned_through'")
    conn.execute("UPDATE store_info SET value = '0' WHERE key = 'redo_chain'")
    conn.executemany(
        NODE_UPSERT, (node_row(evolve(n, ord=i)) for i, n in enumerate(nodes, start=1))
    )
    conn.executemany(
        EDGE_UPSERT, (edge_row(e._replace(ord=i)) for i, e in enumerate(edges, start=1))
    )
    rebuild_search_index(conn)
    conn.executemany(
        "INSERT INTO meta(key, value) VALUES (?, ?)",
        [(k, dumps(v)) for k, v in meta.items() if v is not None],
    )
    conn.execute("UPDATE store_info SET value=? WHERE key='generation'", (uuid.uuid4().hex,))

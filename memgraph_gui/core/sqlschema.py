"""The SQLite schema of a ``.memgraph`` file and its ``user_version`` migrations."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import sqlite_utils

SCHEMA_VERSION = 1
APPLICATION_ID = 0x4D475048  # "MGPH": marks a file as a memgraph store

NODE_COLUMNS = (
    "ord",
    "id",
    "type",
    "level",
    "title",
    "seq_to",
    "fields",
    "parent_id",
    "children_ids",
    "archived",
    "semantic_rollup",
    "semantic_depth",
    "floor_start",
    "floor_end",
    "superseded_by",
    "search_text",
)
EDGE_COLUMNS = ("ord", "from_id", "to_id", "type", "seq_to")


def _migrate_to_1(conn: sqlite3.Connection) -> None:
    db = sqlite_utils.Database(conn)
    db["nodes"].create(  # type: ignore[union-attr]
        {
            "ord": int,
            "id": str,
            "type": str,
            "level": str,
            "title": str,
            "seq_to": int,
            "fields": str,
            "parent_id": str,
            "children_ids": str,
            "archived": int,
            "semantic_rollup": int,
            "semantic_depth": int,
            "floor_start": int,
            "floor_end": int,
            "superseded_by": str,
            "search_text": str,
        },
        pk="ord",
        not_null={
            "id",
            "type",
            "level",
            "title",
            "seq_to",
            "fields",
            "parent_id",
            "children_ids",
            "archived",
            "semantic_rollup",
            "semantic_depth",
        },
    )
    db["nodes"].create_index(["id"], unique=True)  # type: ignore[union-attr]
    db["edges"].create(  # type: ignore[union-attr]
        {"ord": int, "from_id": str, "to_id": str, "type": str, "seq_to": int},
        pk="ord",
        not_null={"from_id", "to_id", "type"},
    )
    db["edges"].create_index(["from_id", "type", "to_id"], unique=True)  # type: ignore[union-attr]
    db["edges"].create_index(["to_id"])  # type: ignore[union-attr]
    db["meta"].create({"key": str, "value": str}, pk="key", not_null={"value"})  # type: ignore[union-attr]
    db["store_info"].create({"key": str, "value": str}, pk="key")  # type: ignore[union-attr]
    db["batches"].create(  # type: ignore[union-attr]
        {
            "id": int,
            "kind": str,
            "op": str,
            "label": str,
            "origin": str,
            "ts": float,
            "target": int,
            "status": str,
        },
        pk="id",
        not_null={"kind", "op", "label", "origin", "ts", "status"},
    )
    db["changes"].create(  # type: ignore[union-attr]
        {"seq": int, "batch": int, "kind": str, "key": str, "before": str, "after": str},
        pk="seq",
        not_null={"batch", "kind", "key"},
        foreign_keys=[("batch", "batches", "id")],
    )
    db["changes"].create_index(["batch"])  # type: ignore[union-attr]
    db["batches"].create_index(["status", "kind"])  # type: ignore[union-attr]
    db["nodes"].enable_fts(  # type: ignore[union-attr]
        ["search_text"], fts_version="FTS5", tokenize="trigram", create_triggers=True
    )
    # Incremental merging on every commit costs ~0.5 ms per row at 50k nodes; crisis merges
    # (16 segments a level) still bound the segment count, so queries stay fast.
    conn.execute("INSERT INTO nodes_fts(nodes_fts, rank) VALUES ('automerge', 0)")
    conn.execute("INSERT INTO store_info(key, value) VALUES ('generation', '0')")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _migrate_to_1}


def migrate(conn: sqlite3.Connection) -> None:
    """Bring the file to ``SCHEMA_VERSION``, one transaction per step.

    Raises ``ValueError`` for a file written by a newer memgraph.
    """
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise ValueError(f"this store was written by a newer memgraph (format {version})")
    for target in range(version + 1, SCHEMA_VERSION + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[target](conn)
            conn.execute(f"PRAGMA user_version = {target}")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

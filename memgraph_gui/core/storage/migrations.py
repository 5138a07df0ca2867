"""The SQLite schema of a ``.memgraph`` file and its ``user_version`` migrations."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import sqlite_utils

SCHEMA_VERSION = 1
APPLICATION_ID = 0x4D475048  # "MGPH": marks a file as a memgraph store


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
    _create_search_index(conn)
    conn.execute("INSERT INTO store_info(key, value) VALUES ('generation', '0')")


def _queue(row: str) -> str:
    # No OR IGNORE: inside a trigger the outer statement's conflict policy would override it.
    return (
        f"INSERT INTO fts_pending(ord) SELECT {row}.ord WHERE NOT EXISTS "
        f"(SELECT 1 FROM fts_pending WHERE ord = {row}.ord)"
    )


FTS_TRIGGERS = (
    f"CREATE TRIGGER nodes_fts_ai AFTER INSERT ON nodes BEGIN {_queue('new')}; END",
    f"CREATE TRIGGER nodes_fts_au AFTER UPDATE OF search_text ON nodes BEGIN {_queue('new')}; END",
    f"CREATE TRIGGER nodes_fts_ad AFTER DELETE ON nodes BEGIN {_queue('old')}; END",
)


def _create_search_index(conn: sqlite3.Connection) -> None:
    """The FTS5 trigram index over ``nodes.search_text`` and its pending-rows queue.

    Maintaining trigrams costs ~1 ms a row, too much for a 1,000-op batch, so writes only queue
    the row (a trigger) and ``fts.bring_up_to_date`` indexes the queue before the next FTS query.
    The index keeps its own copy of the text, so queued rows can be re-indexed in any order.
    """
    conn.execute(
        "CREATE VIRTUAL TABLE nodes_fts USING fts5(search_text, tokenize='trigram', detail=none)"
    )
    conn.execute("INSERT INTO nodes_fts(nodes_fts, rank) VALUES ('automerge', 4)")
    conn.execute("CREATE TABLE fts_pending (ord INTEGER PRIMARY KEY)")
    for sql in FTS_TRIGGERS:
        conn.execute(sql)


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

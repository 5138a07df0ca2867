"""The SQLite schema of a ``.memgraph`` file and its ``user_version`` migrations.

Creating a store is one ``BEGIN IMMEDIATE`` transaction that re-reads ``user_version`` inside it,
so several processes creating the same missing file at once all succeed and the file ends up with
one schema and Luker's default node types (whoever comes second finds the work done).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from memgraph_gui.core.domain.default_schema import default_schema

if TYPE_CHECKING:  # imported when a store is created: opening one does not need it
    import sqlite_utils

SCHEMA_VERSION = 6
APPLICATION_ID = 0x4D475048  # "MGPH": marks a file as a memgraph store
COUNTERS = ("nodeSeq", "seqCounter", "appliedSeqTo", "loggedSeqTo", "sourceMessageCount")

_NODE_COLUMNS: dict[str, type] = {
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
}
_NODE_OPTIONAL = {"floor_start", "floor_end", "superseded_by"}
_BATCH_COLUMNS: dict[str, type] = {
    "id": int,
    "kind": str,
    "op": str,
    "label": str,
    "origin": str,
    "ts": float,
    "target": int,
    "status": str,
}


def _create_graph_tables(db: sqlite_utils.Database) -> None:
    db["nodes"].create(  # type: ignore[union-attr]
        _NODE_COLUMNS, pk="ord", not_null=set(_NODE_COLUMNS) - _NODE_OPTIONAL - {"ord"}
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


def _create_change_log(db: sqlite_utils.Database) -> None:
    db["batches"].create(  # type: ignore[union-attr]
        _BATCH_COLUMNS, pk="id", not_null=set(_BATCH_COLUMNS) - {"id", "target"}
    )
    db["changes"].create(  # type: ignore[union-attr]
        {"seq": int, "batch": int, "kind": str, "key": str, "before": str, "after": str},
        pk="seq",
        not_null={"batch", "kind", "key"},
        foreign_keys=[("batch", "batches", "id")],
    )
    db["changes"].create_index(["batch"])  # type: ignore[union-attr]
    db["batches"].create_index(["status", "kind"])  # type: ignore[union-attr]


def _migrate_to_1(conn: sqlite3.Connection) -> None:
    import sqlite_utils

    db = sqlite_utils.Database(conn)
    _create_graph_tables(db)
    _create_change_log(db)
    conn.execute("INSERT INTO store_info(key, value) VALUES ('generation', '0')")


# Undo depth in O(1): per-origin counts of undoable ('active') and redoable ('undone') steps, kept
# by triggers in the same transaction as every change to ``batches``; ``redo_chain`` is the
# whole-store redo depth (a new step by anyone ends it; each undo adds one, each redo takes one).
_COUNT_TRIGGERS = (
    """CREATE TRIGGER batches_count_ai AFTER INSERT ON batches WHEN NEW.kind = 'do' BEGIN
        INSERT OR IGNORE INTO history_counts(origin) VALUES (NEW.origin);
        UPDATE history_counts SET active = active + (NEW.status = 'active'),
            undone = undone + (NEW.status = 'undone') WHERE origin = NEW.origin; END""",
    """CREATE TRIGGER batches_count_au AFTER UPDATE OF status ON batches WHEN NEW.kind = 'do'
        BEGIN UPDATE history_counts SET
            active = active - (OLD.status = 'active') + (NEW.status = 'active'),
            undone = undone - (OLD.status = 'undone') + (NEW.status = 'undone')
        WHERE origin = NEW.origin; END""",
    """CREATE TRIGGER batches_count_ad AFTER DELETE ON batches WHEN OLD.kind = 'do' BEGIN
        UPDATE history_counts SET active = active - (OLD.status = 'active'),
            undone = undone - (OLD.status = 'undone') WHERE origin = OLD.origin; END""",
    # A redo shortens the chain only when its step was undone after the newest step anyone made
    # (a step undone before newer work was done on top of it is no longer whole-store redoable).
    """CREATE TRIGGER batches_chain_ai AFTER INSERT ON batches BEGIN
        UPDATE store_info SET value = CASE
            WHEN NEW.kind = 'do' AND NEW.status = 'active' THEN 0
            WHEN NEW.kind = 'undo' THEN CAST(value AS INTEGER) + 1
            WHEN NEW.kind = 'redo' AND coalesce((SELECT max(id) FROM batches
                    WHERE kind = 'undo' AND target = NEW.target), 0)
                > coalesce((SELECT max(id) FROM batches WHERE kind = 'do' AND status != 'none'), 0)
                THEN max(0, CAST(value AS INTEGER) - 1)
            ELSE CAST(value AS INTEGER) END
        WHERE key = 'redo_chain'; END""",
)


def _migrate_to_2(conn: sqlite3.Connection) -> None:
    conn.execute(
        "CREATE TABLE history_counts (origin TEXT PRIMARY KEY, active INTEGER NOT NULL DEFAULT 0,"
        " undone INTEGER NOT NULL DEFAULT 0)"
    )
    conn.execute(
        "INSERT INTO history_counts(origin, active, undone) SELECT origin, "
        "sum(status = 'active'), sum(status = 'undone') FROM batches WHERE kind = 'do' "
        "GROUP BY origin"
    )
    conn.execute("INSERT OR REPLACE INTO store_info(key, value) VALUES ('redo_chain', '0')")
    conn.execute("CREATE INDEX batches_ts ON batches(ts)")
    conn.execute("CREATE INDEX batches_target ON batches(target)")
    for sql in _COUNT_TRIGGERS:
        conn.execute(sql)


def _migrate_to_3(conn: sqlite3.Connection) -> None:
    """Saved layout positions (see ``storage.positions``): not part of the change log."""
    conn.execute(
        "CREATE TABLE positions (id TEXT PRIMARY KEY, x REAL NOT NULL, y REAL NOT NULL)"
        " WITHOUT ROWID"
    )


def _migrate_to_4(conn: sqlite3.Connection) -> None:
    """Drop the FTS5 trigram index, its queue and its triggers, and the ``nodes.search_text``
    column that fed it (stores made before version 4 have them; newer ones never do). Every
    find is answered in memory (``search.find_nodes``: 1-20 ms at 50k nodes, with 1- and
    2-character queries and ``casefold``, which trigrams cannot do); the index cost ~16 MB of
    file and ~0.7 s an import at 50k. With an SQLite older than 3.35 (no ``DROP COLUMN``) the
    column stays and is emptied: nothing reads or writes it."""
    for trigger in ("nodes_fts_ai", "nodes_fts_au", "nodes_fts_ad"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.execute("DROP TABLE IF EXISTS nodes_fts")
    conn.execute("DROP TABLE IF EXISTS fts_pending")
    columns = {row[1] for row in conn.execute("PRAGMA table_info(nodes)")}
    if "search_text" in columns:
        try:
            conn.execute("ALTER TABLE nodes DROP COLUMN search_text")
        except sqlite3.OperationalError:
            conn.execute("UPDATE nodes SET search_text = NULL")


def _migrate_to_5(conn: sqlite3.Connection) -> None:
    """Stored embedding vectors (see ``storage.vector_rows``): not part of the change log."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS vectors (profile TEXT NOT NULL, id TEXT NOT NULL,"
        " digest BLOB NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (profile, id))"
    )


def _migrate_to_6(conn: sqlite3.Connection) -> None:
    """The picture kept beside the saved layout (see ``storage.stored_picture``): a copy, not
    part of the change log."""
    conn.execute("CREATE TABLE IF NOT EXISTS picture (name TEXT PRIMARY KEY, data BLOB NOT NULL)")


def install_defaults(conn: sqlite3.Connection) -> None:
    """A new store's meta rows: Luker's default schema and zeroed counters (no change-log entry)."""
    rows = [("schema", json.dumps(default_schema(), ensure_ascii=False, separators=(",", ":")))]
    rows += [(key, "0") for key in COUNTERS]
    conn.executemany("INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)", rows)


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _migrate_to_1,
    2: _migrate_to_2,
    3: _migrate_to_3,
    4: _migrate_to_4,
    5: _migrate_to_5,
    6: _migrate_to_6,
}


def user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> None:
    """Bring the file to ``SCHEMA_VERSION`` in one transaction (creating it when it is new).

    The version is re-read after ``BEGIN IMMEDIATE``, so concurrent openers never apply a step
    twice. Raises ``ValueError`` for a file written by a newer memgraph.
    """
    if user_version(conn) > SCHEMA_VERSION:
        raise ValueError(
            f"this store was written by a newer memgraph (format {user_version(conn)})"
        )
    if user_version(conn) == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = user_version(conn)
        if version > SCHEMA_VERSION:
            raise ValueError(f"this store was written by a newer memgraph (format {version})")
        for target in range(version + 1, SCHEMA_VERSION + 1):
            MIGRATIONS[target](conn)
        if version == 0:
            install_defaults(conn)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise

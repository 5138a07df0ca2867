"""The FTS5 trigram accelerator for the window's substring search (queries of 3+ characters).

Writes only queue changed rows (``fts_pending``); the queue is indexed just before a query, so
the index is always current when read and a 1,000-op batch does not pay ~1 ms a row for trigrams.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memgraph_gui.core.storage.store import Store


def rebuild_search_index(conn: sqlite3.Connection) -> None:
    """Re-index every node (inside the caller's transaction), in one statement.

    The index is dropped and made again from its own SQL and settings: deleting an FTS5 table's
    rows removes their trigrams one row at a time (~4 s at 50k nodes), dropping it is immediate.
    """
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'nodes_fts'").fetchone()[0]
    settings = conn.execute("SELECT k, v FROM nodes_fts_config WHERE k != 'version'").fetchall()
    conn.execute("DROP TABLE nodes_fts")
    conn.execute(sql)
    conn.executemany("INSERT INTO nodes_fts(nodes_fts, rank) VALUES (?, ?)", settings)
    conn.execute("INSERT INTO nodes_fts(rowid, search_text) SELECT ord, search_text FROM nodes")
    conn.execute("DELETE FROM fts_pending")
    conn.execute("INSERT INTO nodes_fts(nodes_fts) VALUES ('optimize')")


def bring_up_to_date(conn: sqlite3.Connection) -> int:
    """Index the queued rows in one transaction; returns how many there were."""
    if conn.execute("SELECT 1 FROM fts_pending LIMIT 1").fetchone() is None:
        return 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        pending = conn.execute("SELECT count(*) FROM fts_pending").fetchone()[0]
        conn.execute("DELETE FROM nodes_fts WHERE rowid IN (SELECT ord FROM fts_pending)")
        conn.execute(
            "INSERT INTO nodes_fts(rowid, search_text) SELECT n.ord, n.search_text "
            "FROM nodes n JOIN fts_pending p ON p.ord = n.ord"
        )
        conn.execute("DELETE FROM fts_pending")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return int(pending)


def trigram_query(text: str) -> str:
    """An FTS5 query matching rows that contain every trigram of ``text`` (≥ 3 characters)."""
    grams = dict.fromkeys(text[i : i + 3] for i in range(len(text) - 2))
    return " AND ".join('"' + g.replace('"', '""') + '"' for g in grams)


def indexed_substring_search(store: Store, query: str) -> list[str]:
    """Ids in timeline order whose text contains ``query``; FTS prefilter, exact confirmation.

    The trigram index folds case per character, like ``str.lower`` on the stored lower-case text,
    so its hits are a superset of the exact matches. Rows still queued for indexing are candidates
    too, and every candidate is confirmed in Python against the current graph, so this path gives
    the same answer as the plain scan without waiting to index the queue (which is done here only
    when it has grown long, and never for a read-only store).
    """
    from memgraph_gui.core.graph import search  # numpy: not for a bulk load's start-up

    pending = store.execute_read("SELECT count(*) FROM fts_pending")[0][0]
    if pending > REINDEX_AT and not store.read_only:
        store.maintain(bring_up_to_date)
    with store.reading() as graph:
        rows = store.execute_read(_CANDIDATES, (trigram_query(query.lower()),))
        hits = {r[0] for r in rows if r[0] in graph.nodes}
        ordered = [i for i in graph.timeline_ids() if i in hits]
        return search.substring_scan(graph, query, ordered)


REINDEX_AT = 256
_CANDIDATES = (
    "SELECT id FROM nodes WHERE ord IN (SELECT rowid FROM nodes_fts WHERE nodes_fts MATCH ?) "
    "OR ord IN (SELECT ord FROM fts_pending)"
)

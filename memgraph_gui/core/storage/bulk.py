"""Bulk replacement of a store's whole graph (import, demo generation): plain ``executemany``.

The graph tables' indexes and triggers are dropped for the load and made again after it, in the
same transaction: SQLite then builds each index in one sorted pass instead of updating it row by
row. A failure rolls the schema back with the rows.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import pairwise
from operator import attrgetter, itemgetter
from typing import Any, TypeVar

from memgraph_gui.core.domain.images import dumps
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.domain.pieces import all_distinct, release
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.storage.meanwhile import meanwhile
from memgraph_gui.core.storage.rows import NODE_INSERT, Tables, build_graph, node_row, parse_meta

EDGE_INSERT = "INSERT INTO edges(from_id, to_id, type, seq_to, ord) VALUES (?,?,?,?,?)"
"""An edge row in ``Edge``'s own field order, as ``read_tables`` reads it back."""
_SCHEMA_OF_GRAPH = (
    "SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN ('nodes', 'edges') "
    "AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name"
)
T = TypeVar("T")
Progress = Callable[[int, int], None]
"""``progress(done, total)``: rows written so far of all the rows a bulk load writes."""
CHUNK = 5_000
"""Rows written between two progress reports."""


def bulk_load(
    conn: sqlite3.Connection,
    nodes: list[Node],
    edges: list[Edge],
    meta: dict[str, Any],
    progress: Progress | None = None,
    *,
    as_given: bool = False,
) -> Graph:
    """Inside the caller's transaction: drop everything, insert the new rows, new generation;
    returns the graph of the rows written (what a reload would read back, built without reading
    them back). ``progress(done, total)`` after every ``CHUNK`` rows written, and ``done ==
    total`` once the graph is built too.

    ``ord`` is each node's and edge's position in its list (from 1). A repeated node id or edge
    ``(from, type, to)`` keeps the later one, at its own position. SQLite makes the indexes
    again on a second thread while this one builds the graph (a statement runs without the
    GIL), and meanwhile this one puts the new graph's nodes in timeline order and builds its
    per-node edge lists. The caller rolls back on any exception.

    ``as_given`` (a store's graph copied, or a part of it): the nodes and edges keep their own
    ``ord`` and are the new graph's, the very objects (they are immutable: another graph may
    hold them too), rather than built again from the rows: ~1 s less at 50k nodes. They must
    come in ``ord`` order with distinct ids, keys and ords (``ValueError`` otherwise).
    """
    if as_given:
        return _load_as_given(conn, nodes, edges, meta, progress or _quiet)
    tables, finish = _write_rows(conn, nodes, edges, meta, progress or _quiet)
    with meanwhile(finish, "memgraph-bulk-index"):
        graph = build_graph(tables)
        graph.timeline_ids()  # ordered and indexed here, while SQLite makes the indexes: the
        graph.index_edges()  # first readers of the new graph (a window's timeline, its first
        # node's links) sorted 50k ids and walked 150k edges on their own thread (~0.1 s each)
    total = len(tables.nodes) + len(tables.edges) + 1
    release(tables.nodes)  # ~200k row tuples nothing uses now: freed in one call when dropped,
    release(tables.edges)  # they held the GIL ~15 ms
    if progress is not None:
        progress(total, total)
    return graph


def _quiet(done: int, total: int) -> None:
    """No progress wanted."""


def _load_as_given(
    conn: sqlite3.Connection,
    nodes: list[Node],
    edges: list[Edge],
    meta: dict[str, Any],
    progress: Progress,
) -> Graph:
    """``bulk_load`` with ``as_given`` (see there)."""
    node_ords = [node.ord for node in nodes]
    edge_ords = [edge.ord for edge in edges]
    if not (
        all_distinct(nodes, attrgetter("id"))
        and all_distinct(edges, itemgetter(0, 2, 1))
        and all(a < b for a, b in pairwise(node_ords))
        and all(a < b for a, b in pairwise(edge_ords))
    ):
        raise ValueError("as_given: repeated ids or keys, or ords not strictly ascending")
    _clear(conn)
    node_rows = [node_row(node) for node in nodes]  # (an edge is its own row)
    meta_rows, finish = _insert(conn, node_rows, edges, meta, progress)
    del node_rows
    with meanwhile(finish, "memgraph-bulk-index"):
        graph = Graph()
        graph.nodes.update(zip(map(attrgetter("id"), nodes), nodes, strict=True))
        graph.loaded_edges(edges)
        graph.meta.update(parse_meta(meta_rows))  # values of its own, as a reload reads them
        graph.timeline_ids()
        graph.index_edges()
    total = len(nodes) + len(edges) + 1
    progress(total, total)
    return graph


def _write_rows(
    conn: sqlite3.Connection,
    nodes: list[Node],
    edges: list[Edge],
    meta: dict[str, Any],
    progress: Progress,
) -> tuple[Tables, Callable[[], None]]:
    """The rows written and ``finish``: what is left to do on ``conn``, which must then not be
    used until it returns."""
    _clear(conn)
    node_rows = [node_row(n, i) for i, n in _last_of(nodes, attrgetter("id"))]
    edge_rows = [(e[0], e[1], e[2], e[3], i) for i, e in _last_of(edges, itemgetter(0, 2, 1))]
    meta_rows, finish = _insert(conn, node_rows, edge_rows, meta, progress)
    return Tables(node_rows, edge_rows, meta_rows), finish


def _insert(
    conn: sqlite3.Connection,
    node_rows: Sequence[Sequence[Any]],
    edge_rows: Sequence[Sequence[Any]],
    meta: dict[str, Any],
    progress: Progress,
) -> tuple[list[tuple[str, str]], Callable[[], None]]:
    """Into the cleared tables, without their indexes: the rows (``progress`` counts one step
    more, the graph built), ``meta`` and a new generation. Returns the meta rows and
    ``finish``, which makes the indexes again."""
    meta_rows = [(k, text) for k, v in meta.items() if (text := dumps(v)) is not None]
    remake = _drop_indexes(conn)
    total, done = len(node_rows) + len(edge_rows) + 1, 0
    for sql, rows in ((NODE_INSERT, node_rows), (EDGE_INSERT, edge_rows)):
        for start in range(0, len(rows), CHUNK):
            part = rows[start : start + CHUNK]
            conn.executemany(sql, part)
            done += len(part)
            progress(done, total)
    conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", meta_rows)
    conn.execute("UPDATE store_info SET value=? WHERE key='generation'", (uuid.uuid4().hex,))

    def finish() -> None:
        for sql in remake:
            conn.execute(sql)

    return meta_rows, finish


def _clear(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM changes")
    conn.execute("DELETE FROM batches")
    conn.execute("DELETE FROM positions")  # a new graph: old pictures would place it wrongly
    conn.execute("DELETE FROM picture")
    # the history is gone too: row-number marks, the pruning mark and the redo chain
    conn.execute("DELETE FROM store_info WHERE key LIKE '%_ord_mark' OR key = 'pruned_through'")
    conn.execute("UPDATE store_info SET value = '0' WHERE key = 'redo_chain'")
    conn.execute("DELETE FROM meta")


def _drop_indexes(conn: sqlite3.Connection) -> list[str]:
    """Drop the graph tables' indexes and triggers and empty the tables; returns the SQL that
    makes them again (indexes first), as SQLite keeps it."""
    saved = conn.execute(_SCHEMA_OF_GRAPH).fetchall()
    for kind, name, _sql in saved:
        conn.execute(f'DROP {kind.upper()} "{name}"')
    conn.execute("DELETE FROM edges")  # without triggers: SQLite truncates in one step
    conn.execute("DELETE FROM nodes")
    return [sql for kind in ("index", "trigger") for k, _name, sql in saved if k == kind]


def _last_of(items: Sequence[T], key: Callable[[T], Hashable]) -> Iterable[tuple[int, T]]:
    """``(position from 1, item)`` of every item whose ``key`` does not come again later.
    Checked a slice at a time (one ``set`` of 150k edge keys held the GIL ~25 ms)."""
    if all_distinct(items, key):
        return enumerate(items, start=1)
    keys = list(map(key, items))  # a file with repeats only (an import never has them)
    last = {k: position for position, k in enumerate(keys, start=1)}
    return [(p, items[p - 1]) for p, k in enumerate(keys, start=1) if last[k] == p]

"""Row encoding between ``Graph`` values and SQLite tables (the only place rows are shaped)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from operator import itemgetter
from typing import Any, NamedTuple

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.freeze import EMPTY_MAPPING, LazyFields
from memgraph_gui.core.domain.images import (
    Change,
    dumps,
    edge_from_image,
    edge_key_from_text,
    node_from_image,
)
from memgraph_gui.core.domain.model import Edge, Node, nodes_from_columns
from memgraph_gui.core.domain.pieces import slices
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.storage.meanwhile import meanwhile

NODE_UPSERT = (
    "INSERT INTO nodes(ord, id, type, level, title, seq_to, fields, parent_id, children_ids, "
    "archived, semantic_rollup, semantic_depth, floor_start, floor_end, superseded_by) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET "
    "ord=excluded.ord, "
    "type=excluded.type, level=excluded.level, title=excluded.title, seq_to=excluded.seq_to, "
    "fields=excluded.fields, parent_id=excluded.parent_id, children_ids=excluded.children_ids, "
    "archived=excluded.archived, semantic_rollup=excluded.semantic_rollup, "
    "semantic_depth=excluded.semantic_depth, floor_start=excluded.floor_start, "
    "floor_end=excluded.floor_end, "
    "superseded_by=excluded.superseded_by"
)
NODE_INSERT = NODE_UPSERT[: NODE_UPSERT.index(" ON CONFLICT")]
EDGE_UPSERT = (
    "INSERT INTO edges(ord, from_id, to_id, type, seq_to) VALUES (?,?,?,?,?) "
    "ON CONFLICT(from_id, type, to_id) DO UPDATE SET ord=excluded.ord, seq_to=excluded.seq_to"
)


_CHILDREN_JSON = json.JSONEncoder(ensure_ascii=False).encode
"""The stored ``children_ids`` column's encoding (``json.dumps(..., ensure_ascii=False)``)."""


def node_row(node: Node, ord_: int | None = None) -> tuple[Any, ...]:
    """The ``nodes`` row of ``node`` in ``NODE_UPSERT``'s column order (``ord_`` for its ord)."""
    start, end = node.floor_range if node.floor_range is not None else (None, None)
    return (
        node.ord if ord_ is None else ord_,
        node.id,
        node.type,
        node.level,
        node.title,
        node.seq_to,
        node.fields_json(),
        node.parent_id,
        _CHILDREN_JSON(list(node.children_ids)) if node.children_ids else "[]",
        int(node.archived),
        int(node.semantic_rollup),
        node.semantic_depth,
        start,
        end,
        node.superseded_by,
    )


def edge_row(edge: Edge) -> tuple[Any, ...]:
    return (edge.ord, edge.from_id, edge.to_id, edge.type, edge.seq_to)


def _nodes_from_rows(rows: Sequence[tuple[Any, ...]]) -> list[Node]:
    """``Node``s of rows in ``NODE_COLUMNS`` order (any later columns ignored), converted
    column by column."""
    if not rows:
        return []
    columns = tuple(zip(*rows, strict=True))
    ords, ids, types, levels, titles, seqs, fields, parents, children = columns[:9]
    archived, rollups, depths, starts, ends, superseded = columns[9:15]
    return nodes_from_columns(
        {
            "id": ids,
            "type": types,
            "level": levels,
            "title": titles,
            "seq_to": seqs,
            "fields": [EMPTY_MAPPING if text == "{}" else LazyFields(text) for text in fields],
            "parent_id": parents,
            "children_ids": _children(children),
            "archived": list(map(bool, archived)),
            "semantic_rollup": list(map(bool, rollups)),
            "semantic_depth": depths,
            "floor_range": [
                None if a is None else (a, b) for a, b in zip(starts, ends, strict=True)
            ],
            "superseded_by": superseded,
            "ord": ords,
        }
    )


def _children(texts: Sequence[str]) -> list[tuple[str, ...]]:
    """The ``children_ids`` JSON arrays as tuples, the non-empty ones parsed in one go."""
    full = [text for text in texts if text != "[]"]
    parsed = iter(json.loads(f"[{','.join(full)}]") if full else ())
    return [() if text == "[]" else tuple(next(parsed)) for text in texts]


_BAD_ROWS = (  # valid JSON of the right kind (the first character tells; cheaper than json_type)
    "SELECT id FROM nodes WHERE NOT (json_valid(fields) AND substr(ltrim(fields), 1, 1) = '{') "
    "OR NOT (children_ids = '[]' OR (json_valid(children_ids) "
    "AND substr(ltrim(children_ids), 1, 1) = '[')) LIMIT 5"
)


def check_rows(conn: sqlite3.Connection) -> None:
    """Raise ``MemgraphError('STORE_DAMAGED')`` naming nodes whose JSON columns are not valid.

    ``fields`` is parsed lazily on first use, so a damaged row is found here, at open, rather
    than in the middle of some later read.
    """
    bad = [f"node {row[0]}" for row in conn.execute(_BAD_ROWS)]
    if bad:
        raise damaged(", ".join(bad))


@contextmanager
def checked(conn: sqlite3.Connection, spare: sqlite3.Connection | None) -> Iterator[None]:
    """``check_rows`` for the body reading ``conn``: run on the idle ``spare`` connection in a
    second thread while the body runs (its ``STORE_DAMAGED`` raised at exit), or on ``conn``
    first when there is no spare. SQLite releases the GIL while it scans, so at 50k nodes the
    ~0.09 s check then costs no time beside the graph being built. Only in WAL mode: in
    rollback mode a writer waiting for ``conn``'s shared lock would block the spare's read."""
    if spare is None or not _wal(conn):
        check_rows(conn)
        yield
        return
    with meanwhile(lambda: check_rows(spare), "memgraph-check", its_error_first=True):
        yield  # damaged rows explain a failure while building: that is reported


def _wal(conn: sqlite3.Connection) -> bool:
    return str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal"


def damaged(where: str) -> MemgraphError:
    return MemgraphError(
        "STORE_DAMAGED",
        f"the store holds damaged data ({where}: not valid JSON); restore it from a backup "
        "(NAME.bak beside it, if one was kept)",
    )


class Tables(NamedTuple):
    """A store's rows as read at open, before they become a ``Graph``: ``nodes`` in the column
    order of ``NODE_COLUMNS``, ``edges`` as ``(from, to, type, seq_to, ord)``, ``meta`` as
    ``(key, JSON text)``; all in ``ord`` order."""

    nodes: list[tuple[Any, ...]]
    edges: list[tuple[Any, ...]]
    meta: list[tuple[str, str]]


NODE_COLUMNS = (
    "ord, id, type, level, title, seq_to, fields, parent_id, children_ids, archived, "
    "semantic_rollup, semantic_depth, floor_start, floor_end, superseded_by"
)
_NODE_SELECT = f"SELECT {NODE_COLUMNS} FROM nodes ORDER BY ord"


def read_tables(conn: sqlite3.Connection) -> Tables:
    """Every node, edge and meta row (inside the caller's transaction)."""
    return Tables(
        conn.execute(_NODE_SELECT).fetchall(),
        conn.execute("SELECT from_id, to_id, type, seq_to, ord FROM edges ORDER BY ord").fetchall(),
        read_meta(conn),
    )


def read_meta(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """The meta rows as ``(key, JSON text)``."""
    return conn.execute("SELECT key, value FROM meta").fetchall()


def build_graph(tables: Tables) -> Graph:
    """A fresh ``Graph`` of ``tables``; ``STORE_DAMAGED`` for a meta value that is not JSON."""
    graph = Graph()
    # C-level passes, a slice at a time: each call holds the GIL only ~10 ms, so a window
    # whose worker builds a 50k graph keeps painting (one pass over all of them: ~80 ms)
    for rows in slices(tables.nodes):  # a C-level pass per slice, not one over 50k
        graph.nodes.update(zip(map(itemgetter(1), rows), _nodes_from_rows(rows), strict=True))
    for rows in slices(tables.edges):
        graph.loaded_edges(list(map(Edge._make, rows)))
    graph.meta.update(parse_meta(tables.meta))
    return graph


def parse_meta(meta: list[tuple[str, str]]) -> dict[str, Any]:
    """The meta rows' values; ``STORE_DAMAGED`` naming a value that is not JSON."""
    parsed: dict[str, Any] = {}
    for name, value in meta:
        try:
            parsed[name] = json.loads(value)
        except (ValueError, TypeError) as exc:
            raise damaged(f"meta {name}") from exc
    return parsed


def write_changes(conn: sqlite3.Connection, batch_id: int, changes: list[Change]) -> None:
    """Write one batch: its change-log rows, then the new node / edge / meta rows."""
    conn.executemany(
        "INSERT INTO changes(batch, kind, key, before, after) VALUES (?,?,?,?,?)",
        [(batch_id, ch.kind, ch.key, dumps(ch.before), dumps(ch.after)) for ch in changes],
    )
    _write_nodes(conn, [ch for ch in changes if ch.kind == "node"])
    _write_edges(conn, [ch for ch in changes if ch.kind == "edge"])
    for ch in changes:
        if ch.kind == "meta" and ch.after is None:
            conn.execute("DELETE FROM meta WHERE key=?", (ch.key,))
        elif ch.kind == "meta":
            conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (ch.key, dumps(ch.after))
            )


def _write_nodes(conn: sqlite3.Connection, nodes: list[Change]) -> None:
    conn.executemany(
        "DELETE FROM nodes WHERE id=?", [(ch.key,) for ch in nodes if ch.after is None]
    )
    kept = [ch for ch in nodes if ch.after is not None]
    # A node new to this process must be new to the file too: a plain INSERT fails loudly
    # (instead of overwriting) should the in-memory graph ever lag behind another writer.
    conn.executemany(NODE_INSERT, [node_row(_node(ch)) for ch in kept if ch.before is None])
    conn.executemany(NODE_UPSERT, [node_row(_node(ch)) for ch in kept if ch.before is not None])


def _write_edges(conn: sqlite3.Connection, edges: list[Change]) -> None:
    conn.executemany(
        "DELETE FROM edges WHERE from_id=? AND type=? AND to_id=?",
        [edge_key_from_text(ch.key) for ch in edges if ch.after is None],
    )
    conn.executemany(EDGE_UPSERT, [edge_row(_edge(ch)) for ch in edges if ch.after is not None])


def _node(change: Change) -> Node:
    return change.value if change.value is not None else node_from_image(change.after)


def _edge(change: Change) -> Edge:
    return change.value if change.value is not None else edge_from_image(change.after)


def dump_tables(conn: sqlite3.Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every graph table's rows in a stable order (for tests and diagnostics)."""
    return {
        "nodes": conn.execute("SELECT * FROM nodes ORDER BY ord").fetchall(),
        "edges": conn.execute("SELECT * FROM edges ORDER BY ord").fetchall(),
        "meta": conn.execute("SELECT * FROM meta ORDER BY key").fetchall(),
    }

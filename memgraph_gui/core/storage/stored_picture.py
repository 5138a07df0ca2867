"""The picture kept beside the saved layout: the ``picture`` table (``name``, ``data``), one
``Picture`` as a few columns, so a big memory's open draws it from one read before the rows are.

A 200k-node open spent ~2 s reading every row, taking the picture's columns from them and
making its arrays before the first paint; read from here it is ~0.1 s. The picture is a copy:
it is drawn only while it is the store's own. ``version`` holds what it was made of (the
generation, the last change seq and the saved layout's stamp); it still holds when every change
since is a meta value other than the pins (the injection state an agent writes each turn), and
no change since has been pruned from the log. Otherwise it is stale and the open reads the rows
as before, and the window writes a new one when the store is quiet (``layout_io.refresh``).

Stored columns: ``version`` (JSON ``[generation, seq, layout stamp, n, m]``), ``ids`` and
``titles`` (JSON lists), ``type_names`` (JSON list) and ``type_codes`` (uint16 per row),
``depths`` / ``parents`` (int32), ``rollups`` / ``pinned`` (uint8), ``pos`` (float64 pairs),
``edges`` (int32 pairs), ``hierarchy`` (uint8 per edge); all little-endian. A picture that does
not decode into consistent columns is logged and ignored, never drawn.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from memgraph_gui.core.domain.pieces import array_of, slices
from memgraph_gui.core.graph.picture import Picture

log = logging.getLogger(__name__)

SINCE_LIMIT = 2_000
"""Change rows since the picture beyond which it is called stale without looking at them."""


class Version(NamedTuple):
    """What a picture was made of: the store's generation and last change seq, and the saved
    layout's stamp (``positions.read_stamp``)."""

    generation: str
    seq: int
    layout: str


def read(conn: sqlite3.Connection, now: Version) -> Picture | None:
    """The stored picture when it is the content of ``now`` (read inside the caller's
    transaction, which ``now`` was read in), else None (none kept, stale or damaged)."""
    try:
        head = _head(conn)
    except (ValueError, TypeError):
        log.warning("memgraph: the stored picture's version is damaged; ignored")
        return None
    if head is None or not current(conn, head[0], now):
        return None
    columns = dict(conn.execute("SELECT name, data FROM picture WHERE name <> 'version'"))
    try:
        return _decode(columns, head[1], head[2])
    except (KeyError, ValueError, TypeError) as exc:
        log.warning("memgraph: the stored picture is damaged (%s); ignored", exc)
        return None


def _head(conn: sqlite3.Connection) -> tuple[Version, int, int] | None:
    """The kept picture's version and its node and edge counts; None when none is kept (or the
    store predates the table); ``ValueError`` / ``TypeError`` when the row is damaged."""
    try:
        row = conn.execute("SELECT data FROM picture WHERE name = 'version'").fetchone()
    except sqlite3.OperationalError:  # a store made before pictures were kept (read-only)
        return None
    if row is None:
        return None
    generation, seq, layout, n, m = json.loads(_text(row[0]))
    return Version(str(generation), int(seq), str(layout)), int(n), int(m)


def current(conn: sqlite3.Connection, made: Version, now: Version) -> bool:
    """Is a picture made of ``made`` still the content of ``now``? See the module text."""
    if made.generation != now.generation or made.layout != now.layout or made.seq > now.seq:
        return False
    if made.seq == now.seq:
        return True
    pruned = conn.execute("SELECT value FROM store_info WHERE key = 'pruned_through'").fetchone()
    if pruned is not None and int(pruned[0]) > made.seq:
        return False  # changes since were dropped from the log: unknown
    since = conn.execute(
        "SELECT kind, key FROM changes WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
        (made.seq, now.seq, SINCE_LIMIT + 1),
    ).fetchall()
    return len(since) <= SINCE_LIMIT and all(
        kind == "meta" and key != "pins" for kind, key in since
    )


def stored_version(conn: sqlite3.Connection) -> Version | None:
    """The version of the picture kept, or None (none, or unreadable)."""
    try:
        head = _head(conn)
    except (ValueError, TypeError):
        return None
    return None if head is None else head[0]


Rows = list[tuple[str, bytes]]
"""A picture as the ``picture`` table's rows (``encode``)."""


def encode(picture: Picture, made: Version) -> Rows | None:
    """The rows of ``picture`` made of ``made`` (any thread; a slice at a time, so a window's
    GUI thread is not kept from the GIL), or None when it cannot be kept (more node types than
    a uint16 numbers)."""
    names = sorted(set(picture.types))
    if len(names) > 65_535:
        return None
    code = {name: at for at, name in enumerate(names)}
    n, m = len(picture.ids), len(picture.edges)
    return [
        ("version", _json([made.generation, made.seq, made.layout, n, m])),
        ("ids", _json_list(picture.ids)),
        ("titles", _json_list(picture.titles)),
        ("type_names", _json(names)),
        (
            "type_codes",
            array_of(code.__getitem__, picture.types, np.uint16).astype("<u2").tobytes(),
        ),
        ("depths", np.asarray(picture.depths, "<i4").tobytes()),
        ("parents", np.asarray(picture.parents, "<i4").tobytes()),
        ("rollups", np.asarray(picture.rollups, "u1").tobytes()),
        ("pinned", np.asarray(picture.pinned, "u1").tobytes()),
        ("pos", np.asarray(picture.pos, "<f8").tobytes()),
        ("edges", np.asarray(picture.edges, "<i4").tobytes()),
        ("hierarchy", np.asarray(picture.hierarchy, "u1").tobytes()),
    ]


def write(conn: sqlite3.Connection, rows: Rows) -> None:
    """Replace the kept picture with ``rows`` (``encode``; inside the caller's ``BEGIN
    IMMEDIATE``: the caller has checked that the file is still what they were made of)."""
    clear(conn)
    conn.executemany("INSERT INTO picture(name, data) VALUES (?, ?)", rows)


def clear(conn: sqlite3.Connection) -> None:
    """Drop the kept picture (inside the caller's transaction)."""
    conn.execute("DELETE FROM picture")


def _decode(columns: dict[str, bytes], n: int, m: int) -> Picture:
    """The ``Picture`` of ``columns``; ``ValueError`` / ``KeyError`` when they disagree."""
    ids = tuple(json.loads(_text(columns["ids"])))
    titles = tuple(json.loads(_text(columns["titles"])))
    names = json.loads(_text(columns["type_names"]))
    codes = _array(columns["type_codes"], "<u2", n)
    if len(ids) != n or len(titles) not in (0, n):
        raise ValueError("ids or titles do not match the rows")
    if not {*map(type, ids), *map(type, titles), *map(type, names)} <= {str}:
        raise ValueError("an id, title or type name is not text")
    if n and (not names or int(codes.max()) >= len(names)):
        raise ValueError("a type code names no type")
    parents = _array(columns["parents"], "<i4", n)
    edges = _array(columns["edges"], "<i4", 2 * m).reshape(-1, 2)
    for rows in (parents, edges):
        if rows.size and (int(rows.min()) < -1 or int(rows.max()) >= n):
            raise ValueError("a row index out of range")
    if m and int(edges.min()) < 0:
        raise ValueError("an edge end out of range")
    return Picture(
        ids=ids,
        types=tuple(map(names.__getitem__, codes.tolist())),
        depths=_array(columns["depths"], "<i4", n).astype(np.int32),
        rollups=_array(columns["rollups"], "u1", n).astype(bool),
        parents=parents.astype(np.int32),
        edges=edges.astype(np.int32),
        hierarchy=_array(columns["hierarchy"], "u1", m).astype(bool),
        pos=_array(columns["pos"], "<f8", 2 * n).reshape(-1, 2).astype(np.float64),
        pinned=_array(columns["pinned"], "u1", n).astype(bool),
        titles=titles,
    )


def _array(data: bytes, dtype: str, count: int) -> np.ndarray:
    """``count`` items of ``dtype`` from ``data``; ``ValueError`` when the size differs."""
    if not isinstance(data, bytes) or len(data) != count * np.dtype(dtype).itemsize:
        raise ValueError(f"a column of {count} {dtype} has the wrong size")
    return np.frombuffer(data, dtype, count)


def _json_list(items: Sequence[str]) -> bytes:
    """``_json(list(items))``, encoded a slice at a time (one call over 200k titles held the
    GIL ~40 ms)."""
    parts = [_json(list(part))[1:-1] for part in slices(items)]
    return b"[" + b",".join(part for part in parts if part) + b"]"


def _json(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "surrogatepass"
    )


def _text(data: bytes | str) -> str:
    return data if isinstance(data, str) else data.decode("utf-8", "surrogatepass")

"""A store's graph as a ``LayoutInput`` and as the ``Picture`` the window draws, saved positions
in and out (pins applied), and the picture kept beside them (``refresh_picture``).

Saved positions are written beside the change log (not undoable); pins (meta ``"pins"``,
written by ``WriteApi.set_pins``) are undoable content and override saved positions on read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from memgraph_gui.core.domain.pieces import column, mapped, rows_of
from memgraph_gui.core.graph.picture import (
    GRAPH_ROWS,
    Picture,
    drawn_rows,
    snapshot_lists,
    with_positions,
)
from memgraph_gui.core.layout.model import LayoutInput
from memgraph_gui.core.storage import changelog, positions, stored_picture

if TYPE_CHECKING:
    from memgraph_gui.core.storage.store import Store

XY = tuple[float, float]


def pins(store: Store) -> dict[str, XY]:
    """Pinned positions of the nodes that exist; any thread."""
    with store.reading() as graph:
        return _pins_of(graph.meta.get("pins"), graph.nodes)


def saved_positions(store: Store) -> dict[str, XY]:
    """Saved positions of the nodes that exist (archived ones included), pins applied."""
    rows = store.read_aside(positions.read_positions)
    with store.reading() as graph:
        nodes = graph.nodes  # x and y come back as floats (REAL NOT NULL columns)
        found = {i: (x, y) for i, x, y in rows if i in nodes}
        found.update(_pins_of(graph.meta.get("pins"), graph.nodes))
    return found


def layout_input(store: Store, *, include_positions: bool = True) -> LayoutInput:
    """The active nodes in timeline order, every edge between them, and (with
    ``include_positions``) saved positions as ``start``; pins are always in ``start`` and
    ``pinned``. Rows without a position are NaN. The store lock is held only to copy the node
    and edge lists (nodes are immutable): the GUI thread's reads wait for it, and the rows
    below took ~0.1 s at 50k."""
    rows = store.read_aside(positions.read_positions) if include_positions else []
    with store.reading() as graph:
        timeline = list(graph.timeline_ids())
        live = mapped(graph.nodes.__getitem__, timeline)  # (a slice at a time)
        keys = list(graph.edges)
        pinned_at = _pins_of(graph.meta.get("pins"), graph.nodes)
    ids = [i for i, node in zip(timeline, live, strict=True) if not node.archived]
    index = {node_id: row for row, node_id in enumerate(ids)}
    src, dst = rows_of(index, column(keys, 0)), rows_of(index, column(keys, 2))
    both = (src >= 0) & (dst >= 0)  # a slice at a time: one np.array of 150k pairs held the GIL
    edges = np.stack([src[both], dst[both]], axis=1).reshape(-1, 2)
    start = np.full((len(ids), 2), np.nan)
    for node_id, x, y in rows:
        row = index.get(node_id)
        if row is not None:
            start[row] = (x, y)
    pinned = np.zeros(len(ids), dtype=bool)
    for node_id, xy in pinned_at.items():
        row = index.get(node_id)
        if row is not None:
            start[row], pinned[row] = xy, True
    return LayoutInput(tuple(ids), edges, start, pinned)


def save_positions(store: Store, ids: Sequence[str], pos: np.ndarray) -> int:
    """Replace every saved position with ``pos`` (``(len(ids), 2)``) in one transaction beside
    the change log; non-finite rows are skipped. Returns the rows written. ``STORE_READ_ONLY``
    / ``STORE_FOLDER_READ_ONLY`` / ``STORE_BUSY`` as for any write; ``BAD_ARGS`` when the
    shapes disagree."""
    from memgraph_gui.core.domain.errors import bad_args

    coords = np.asarray(pos, dtype=np.float64)
    if coords.shape != (len(ids), 2):
        raise bad_args(f"positions: expected shape ({len(ids)}, 2), got {coords.shape}")
    rows = list(zip(ids, coords[:, 0].tolist(), coords[:, 1].tolist(), strict=True))
    stamp = positions.new_stamp()
    store.layout_stamps.mine(stamp)  # before the write: this process is never told of it
    return store.write_aside(lambda conn: positions.replace_positions(conn, rows, stamp))


PICTURE_MIN_NODES = 20_000
"""Active nodes from which a picture is kept beside the layout (below, the rows are read in
well under a second: the copy is not worth its space)."""


def picture(store: Store, *, titles: bool = False) -> Picture:
    """What the window draws of ``store`` (``Picture``; with ``titles``, the nodes' titles
    too); any thread. The store lock is held only to look up the graph's rows (``graph_rows``,
    made before a new graph is published) or else to copy its node and edge lists (~20 ms at
    50k; nodes are immutable): the GUI thread's own reads wait for it, so the arrays are made
    after."""
    return _picture(store, titles)[0]


def _picture(store: Store, titles: bool) -> tuple[Picture, stored_picture.Version | None]:
    """``picture(store)`` and what it was made of (None when the layout was saved meanwhile)."""
    layout = store.read_aside(positions.read_stamp)
    saved = store.read_aside(positions.read_positions)
    again = store.read_aside(positions.read_stamp)
    with store.reading() as graph:
        generation, seq = store.stamp
        pinned_at = _pins_of(graph.meta.get("pins"), graph.nodes)
        base = graph.memoised(GRAPH_ROWS)
        lists = snapshot_lists(graph) if base is None or titles else None
    if base is None:
        assert lists is not None
        base = drawn_rows(*lists)
    if titles:
        assert lists is not None
        drawn = [node for node in lists[1] if not node.archived]  # ``base``'s rows, in order
        base = {**base, "titles": tuple(mapped(attrgetter("title"), drawn))}
    spots = zip(map(itemgetter(1), saved), map(itemgetter(2), saved), strict=True)
    xy: dict[str, XY] = dict(zip(map(itemgetter(0), saved), spots, strict=True))
    made = stored_picture.Version(generation, seq, layout) if layout == again else None
    return with_positions(base, xy, pinned_at), made


class KeptPicture(NamedTuple):
    """A picture to keep beside the layout (``rows``, made of ``version``), or ``rows`` None:
    the kept one is to be dropped (the store is too small to keep one)."""

    rows: stored_picture.Rows | None
    version: stored_picture.Version | None


def stale_picture(store: Store, *, min_nodes: int | None = None) -> KeptPicture | None:
    """What keeps the picture beside the saved layout current, or None when nothing is to be
    done: the kept one is current, the store is read-only or closed, it is too small to keep
    one and keeps none, or its layout was saved while it was read (the next call takes it).
    Read-only work; any thread (~0.5 s at 200k nodes, a slice at a time). ``min_nodes``:
    ``PICTURE_MIN_NODES`` unless given."""
    min_nodes = PICTURE_MIN_NODES if min_nodes is None else min_nodes
    if not picture_wanted(store, min_nodes=min_nodes):
        return None
    if len(store.peek_graph.nodes) < min_nodes:  # too small to keep one: the kept one goes
        return KeptPicture(None, None)
    made, version = _picture(store, titles=True)
    if version is None:
        return None
    if len(made.ids) < min_nodes:
        return KeptPicture(None, None)
    rows = stored_picture.encode(made, version)
    return KeptPicture(rows, version) if rows is not None else KeptPicture(None, None)


def picture_wanted(store: Store, *, min_nodes: int | None = None) -> bool:
    """Would ``refresh_picture`` write or drop something? Cheap (a few SQL reads, no picture
    made): the store is writable, the kept picture is not current, and the store is big
    enough to keep one or keeps one to drop. Any thread."""
    min_nodes = PICTURE_MIN_NODES if min_nodes is None else min_nodes
    if store.read_only or store.closed or store.read_aside(_kept_is_current):
        return False
    big = len(store.peek_graph.nodes) >= min_nodes  # (archived ones included: an upper bound)
    return big or store.read_aside(stored_picture.stored_version) is not None


def keep_picture(store: Store, kept: KeptPicture) -> bool:
    """Write ``kept`` (``stale_picture``) in one ``BEGIN IMMEDIATE``: not an undo step, no
    ChangeSet; nothing when the file changed since it was made. True when a picture was
    written or dropped. Errors as for any write (``STORE_BUSY`` ...)."""
    return bool(store.write_aside(lambda conn: _write_kept(conn, kept)))


def refresh_picture(store: Store, *, min_nodes: int | None = None) -> bool:
    """``stale_picture`` then ``keep_picture``: True when a picture was written or dropped."""
    kept = stale_picture(store, min_nodes=min_nodes)
    return kept is not None and keep_picture(store, kept)


def _kept_is_current(conn: Any) -> bool:
    kept = stored_picture.stored_version(conn)
    return kept is not None and stored_picture.current(conn, kept, _file_version(conn))


def _file_version(conn: Any) -> stored_picture.Version:
    return stored_picture.Version(
        changelog.generation(conn), changelog.max_seq(conn), positions.read_stamp(conn)
    )


def _write_kept(conn: Any, kept: KeptPicture) -> bool:
    """Inside the writer's transaction: drop, or write ``kept`` when the file is still what
    it was made of."""
    if kept.rows is None:
        had = stored_picture.stored_version(conn) is not None
        stored_picture.clear(conn)
        return had
    if _file_version(conn) != kept.version:
        return False  # written meanwhile (here or elsewhere): the next refresh takes it
    stored_picture.write(conn, kept.rows)
    return True


def _pins_of(value: Any, nodes: Any) -> dict[str, XY]:
    if not isinstance(value, dict):
        return {}
    found: dict[str, XY] = {}
    for node_id, xy in value.items():
        if node_id in nodes and isinstance(xy, list) and len(xy) == 2:
            x, y = xy
            if isinstance(x, (int, float)) and isinstance(y, (int, float)):
                if math.isfinite(x) and math.isfinite(y):
                    found[node_id] = (float(x), float(y))
    return found

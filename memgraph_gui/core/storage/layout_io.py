"""A store's graph as a ``LayoutInput``, and saved positions in and out (pins applied).

Saved positions are written beside the change log (not undoable); pins (meta ``"pins"``,
written by ``WriteApi.set_pins``) are undoable content and override saved positions on read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from memgraph_gui.core.domain.pieces import column, mapped, rows_of
from memgraph_gui.core.layout.model import LayoutInput
from memgraph_gui.core.storage import positions

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

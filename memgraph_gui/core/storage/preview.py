"""What the graph view needs to draw a store that is still opening: its active nodes, the edges,
saved positions and pins, as a ``Picture``: the one kept beside the saved layout when it is
current (``stored_picture``: one read), else taken from the rows the open has just read.

Building the in-memory graph is most of an open (~0.6 of ~1.0 s at 50k nodes); a preview is
made from the same rows before that, at almost no cost, so the window can draw a big memory
from its saved layout while the store finishes opening (``Store.open(on_preview=...)``).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING

from memgraph_gui.core.storage import positions
from memgraph_gui.core.storage.rows import Tables

if TYPE_CHECKING:  # (numpy and the picture's builders are imported when one is made: an
    from memgraph_gui.core.graph.picture import Picture  # import-luker never loads them)

XY = tuple[float, float]
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class StorePreview:
    """Columns, row ``i`` of each for the same node: the active (not archived) nodes in ``ord``
    order; every edge as ``sources`` / ``targets`` / ``kinds`` (also those touching archived
    nodes: the caller drops them); ``positions`` as saved (may name nodes that are gone);
    ``pins``; ``stamp`` is the content version ``(generation, last change seq)`` of
    ``Store.stamp``.
    """

    ids: tuple[str, ...]
    types: tuple[str, ...]
    titles: tuple[str, ...]
    depths: tuple[int, ...]
    rollups: tuple[int, ...]
    parents: tuple[str, ...]
    sources: tuple[str, ...]
    targets: tuple[str, ...]
    kinds: tuple[str, ...]
    positions: dict[str, XY]
    pins: dict[str, XY]
    stamp: tuple[str, int]

    @property
    def positioned(self) -> int:
        """How many active nodes have a saved position or a pin."""
        placed = self.positions.keys() | self.pins.keys()
        return sum(map(placed.__contains__, self.ids))


def preview_of(tables: Tables, conn: sqlite3.Connection, stamp: tuple[str, int]) -> StorePreview:
    """The preview of ``tables`` (from ``rows.read_tables``) plus the saved positions read
    through ``conn`` inside the same transaction; C-level column picks (~0.1 s at 50k)."""
    active = [row for row in tables.nodes if not row[9]]
    ids, types, titles, depths, rollups, parents = (
        tuple(map(itemgetter(k), active)) for k in (1, 2, 4, 11, 10, 7)
    )
    sources, targets, kinds = (tuple(map(itemgetter(k), tables.edges)) for k in (0, 1, 2))
    saved = positions.read_positions(conn)
    xy = zip(map(itemgetter(1), saved), map(itemgetter(2), saved), strict=True)
    pins = next((_pins(value) for key, value in tables.meta if key == "pins"), {})
    return StorePreview(
        ids,
        types,
        titles,
        depths,
        rollups,
        parents,
        sources,
        targets,
        kinds,
        dict(zip(map(itemgetter(0), saved), xy, strict=True)),
        pins,
        stamp,
    )


def _pins(text: str) -> dict[str, XY]:
    """The meta ``pins`` value as ``{id: (x, y)}``; malformed entries are left out."""
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(value, dict):
        return {}
    return {
        str(k): (float(v[0]), float(v[1]))
        for k, v in value.items()
        if isinstance(v, list) and len(v) == 2 and all(isinstance(c, (int, float)) for c in v)
    }


def picture_of(preview: StorePreview) -> Picture:
    """The ``Picture`` of ``preview`` (any thread; ~0.5 s at 200k nodes), titles included."""
    import numpy as np

    from memgraph_gui.core.domain.pieces import index_of
    from memgraph_gui.core.graph.picture import (
        drawn_edges,
        hierarchy_of,
        parent_rows,
        with_positions,
    )

    ids = preview.ids
    n = len(ids)
    index = index_of(ids)
    edges, hierarchy = drawn_edges(
        index, preview.sources, preview.targets, hierarchy_of(preview.kinds)
    )
    base = {
        "ids": ids,
        "types": preview.types,
        "depths": np.fromiter(preview.depths, np.int32, n),
        "rollups": np.fromiter(preview.rollups, bool, n),
        "parents": parent_rows(index, [p or "" for p in preview.parents]),
        "edges": edges,
        "hierarchy": hierarchy,
        "titles": preview.titles,
    }
    return with_positions(base, preview.positions, preview.pins)


Previewed = Callable[["Picture", tuple[str, int]], None]
"""``on_preview(picture, stamp)``: what the graph view draws of a store that is opening, and the
content version ``(generation, last change seq)`` it is of (``Store.stamp`` once open)."""


def deliver(
    on_preview: Previewed, tables: Tables, conn: sqlite3.Connection, stamp: tuple[str, int]
) -> None:
    """Hand ``on_preview`` the picture of ``tables`` when every active node has a saved place
    (nothing to draw otherwise: the store is laid out once open); a failure there is logged,
    not raised (the open it came from goes on)."""
    try:
        preview = preview_of(tables, conn, stamp)
        if preview.ids and preview.positioned == len(preview.ids):
            on_preview(picture_of(preview), stamp)
    except Exception:
        log.warning("memgraph: the open-time preview failed", exc_info=True)


def deliver_picture(on_preview: Previewed, picture: Picture, stamp: tuple[str, int]) -> None:
    """Hand ``on_preview`` a stored ``picture`` when it has nodes and every one is placed;
    a failure there is logged, not raised."""
    try:
        if picture.ids and not picture.missing_positions:
            on_preview(picture, stamp)
    except Exception:
        log.warning("memgraph: the open-time preview failed", exc_info=True)

"""The graph as the window draws it: ``Picture``, plain columns of the active nodes and the edges
among them, and how it is made from a ``Graph`` (its rows memoised per graph) plus saved
positions and pins.

The window's graph view turns a ``Picture`` into its scene; the store keeps one beside the
saved layout (``storage.stored_picture``), so a big memory is drawn from one read when it opens.
Pure; any thread.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from memgraph_gui.core.domain.model import HIERARCHY_EDGE_TYPES
from memgraph_gui.core.domain.pieces import (
    array_of,
    column,
    index_of,
    joined,
    mapped,
    rows_of,
    slices,
)

if TYPE_CHECKING:
    from memgraph_gui.core.domain.model import EdgeKey, Node
    from memgraph_gui.core.graph.graph import Graph


@dataclass(frozen=True, slots=True)
class Picture:
    """Active nodes (index = row, timeline order) and the edges among them.

    ``edges`` is ``(m, 2)`` int32 of row indices (``from``, ``to``); ``hierarchy`` marks the
    contains / semantic_contains edges; ``pos`` is ``(n, 2)`` float64 with NaN rows where no
    position is saved; ``pinned`` marks rows the user pinned; ``parents`` is each row's
    parent row (int32, -1 when it has none among the drawn rows: none, archived or missing).
    ``titles`` only when drawn before the store's graph is in (an open-time preview).
    """

    ids: tuple[str, ...]
    types: tuple[str, ...]
    depths: np.ndarray
    rollups: np.ndarray
    parents: np.ndarray
    edges: np.ndarray
    hierarchy: np.ndarray
    pos: np.ndarray
    pinned: np.ndarray
    titles: tuple[str, ...] = ()

    @property
    def missing_positions(self) -> int:
        """How many nodes have no saved position."""
        return int(np.isnan(self.pos[:, 0]).sum()) if len(self.ids) else 0


def graph_rows(graph: Graph) -> dict[str, Any]:
    """The picture's rows and edge arrays of ``graph`` (no positions), memoised until it
    changes: made on a new graph before it is published, on the thread that loaded it, so a
    window's read of a new 50k graph after the commit does not spend ~0.2 s of Python beside
    its GUI thread's first frames. The arrays are shared by every picture: read-only. Caller
    holds the store lock (or the graph is not published yet)."""

    def rows() -> dict[str, Any]:
        made = drawn_rows(*snapshot_lists(graph))
        for value in made.values():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
        return made

    return graph.derived(GRAPH_ROWS, rows)


GRAPH_ROWS = "picture.graph_rows"
"""The ``Graph.derived`` key of ``graph_rows`` (``graph.memoised(GRAPH_ROWS)``: made yet?)."""


def snapshot_lists(graph: Graph) -> tuple[list[str], list[Node], list[EdgeKey]]:
    """The timeline, its nodes and every edge key of ``graph``, memoised until it changes, so
    a picture after an import holds the store lock only to look them up. Caller holds the lock
    (or the graph is not published yet). The lists are never changed (nodes are immutable)."""

    def lists() -> tuple[list[str], list[Node], list[EdgeKey]]:
        timeline = graph.timeline_ids()
        live: list[Node] = []
        for part in slices(timeline):  # a slice at a time: whole, ~10 ms with the GIL held
            live.extend(map(graph.nodes.__getitem__, part))
        return timeline, live, list(graph.edges)

    return graph.derived(_SNAPSHOT_LISTS, lists)


_SNAPSHOT_LISTS = "picture.snapshot_lists"


def drawn_rows(
    timeline: Sequence[str], live: Sequence[Node], edge_keys: Sequence[EdgeKey]
) -> dict[str, Any]:
    """Rows and edge index arrays of the nodes ``live`` (ids ``timeline``) and the edges
    ``edge_keys``; every per-item step is a C-level ``map`` (~0.1 s at 50k nodes / 150k
    edges, against ~0.4 s for generator expressions)."""
    keep = [not n.archived for n in live]
    ids = tuple(compress(timeline, keep))
    rows = list(compress(live, keep))
    sources, kinds, targets = (column(edge_keys, at) for at in range(3))
    hierarchy = hierarchy_of(kinds)
    index = index_of(ids)
    edges, hierarchy = drawn_edges(index, sources, targets, hierarchy)
    return {  # each whole-graph step a slice at a time (pieces): a worker's C call over 50k
        "ids": ids,  # held the GIL ~5-10 ms, and a window's repaint waited for several
        "types": tuple(mapped(attrgetter("type"), rows)),
        "depths": array_of(attrgetter("semantic_depth"), rows, np.int32),
        "rollups": array_of(attrgetter("semantic_rollup"), rows, bool),
        "parents": parent_rows(index, mapped(attrgetter("parent_id"), rows)),
        "edges": edges,
        "hierarchy": hierarchy,
    }


def parent_rows(index: Mapping[str, int], parents: Sequence[str]) -> np.ndarray:
    """Each row's parent row (-1: none drawn); ids as stored (Luker trims them when walking)."""
    return rows_of(index, [p.strip() for p in parents])


def drawn_edges(
    index: Mapping[str, int], sources: Sequence[str], targets: Sequence[str], hierarchy: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(m, 2)`` int32 rows of the edges whose two ends are drawn (``index``: the drawn
    rows; edges touching archived nodes are not), and their hierarchy mask."""
    src, dst = rows_of(index, sources), rows_of(index, targets)
    both = (src >= 0) & (dst >= 0)
    return np.stack([src[both], dst[both]], axis=1).reshape(-1, 2), hierarchy[both]


def hierarchy_of(kinds: Sequence[str]) -> np.ndarray:
    """Per edge type: is it a hierarchy edge (contains / semantic_contains, any case)? Each
    distinct type is looked at once; a slice at a time (over 150k edges, ``set`` and
    ``fromiter`` each held a worker's GIL ~10 ms, a repaint of the window waiting on them)."""
    distinct: set[str] = set()
    for part in slices(kinds):
        distinct.update(part)
    known = {kind: kind.lower() in HIERARCHY_EDGE_TYPES for kind in distinct}
    return array_of(known.__getitem__, kinds, bool)


def with_positions(
    base: Mapping[str, Any],
    saved: Mapping[str, Sequence[float]],
    pins: Mapping[str, Sequence[float]],
) -> Picture:
    """The ``Picture`` of ``base`` (``drawn_rows``' keys, ``titles`` optional) placed at
    ``saved`` positions, ``pins`` overriding them; rows named in neither are NaN."""
    ids: tuple[str, ...] = base["ids"]
    unknown = (np.nan, np.nan)
    merged = {**saved, **pins} if pins else saved
    xys, pinned_parts = [], []
    for part in slices(ids):  # a slice at a time: whole, one C call held the GIL ~10 ms
        xy = chain.from_iterable(map(merged.get, part, repeat(unknown, len(part))))
        xys.append(np.fromiter(xy, np.float64, 2 * len(part)))
        pinned_parts.append(np.fromiter(map(pins.__contains__, part), bool, len(part)))
    pos = joined(xys, np.float64).reshape(-1, 2)  # (one copy each: see ``joined``)
    pinned = joined(pinned_parts, bool)
    return Picture(pos=pos, pinned=pinned, **base)

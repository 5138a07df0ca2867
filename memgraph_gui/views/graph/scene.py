"""``GraphScene``: the numpy arrays the graph view draws (no Qt).

Rows are the snapshot's active nodes in timeline order. Positions live in one ``(n, 2)`` array
that layout frames, drags and undo write in place; edges are kept as index arrays per style, so
their line coordinates are one fancy-index away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

import numpy as np

from memgraph_gui.app.graph_data import GraphSnapshot, positions_by_time
from memgraph_gui.app.overview import Tree
from memgraph_gui.core.domain.model import HIERARCHY_EDGE_TYPES, EdgeKey, Node
from memgraph_gui.core.domain.pieces import array_of

T = TypeVar("T")
SIZE_MIN, SIZE_MAX = 5, 14
SIZE_FLOOR = 3  # pixels: the smallest dot still clickable and visible


class GraphScene:
    """Node and edge arrays for one snapshot; positions mutable in place."""

    def __init__(self, snap: GraphSnapshot, keep: Mapping[str, Sequence[float]] | None = None):
        self.ids = snap.ids
        self.index = {node_id: row for row, node_id in enumerate(snap.ids)}
        self.types = snap.types
        self.titles = snap.titles  # an open-time preview's titles (empty once the store is in)
        self.edges = snap.edges
        self.hierarchy = snap.hierarchy
        self.pinned = snap.pinned.copy()
        self.pos = snap.pos.copy()
        if keep:
            self._keep(keep)
        self.placed = ~np.isnan(self.pos[:, 0]) if self.n else np.zeros(0, bool)
        self.depths, self.rollups = snap.depths.copy(), snap.rollups.copy()
        self.parents = snap.parents.astype(np.int64)
        self.degree = np.bincount(self.edges.ravel(), minlength=self.n) if self.n else np.zeros(0)
        self.sizes = node_sizes(self.depths, self.rollups, self.degree)
        self.alive = np.ones(self.n, dtype=bool)  # False: archived or removed since the snapshot
        self.timed = False  # positions from ``arrange_in_time``, not a layout
        self.version = 0  # goes up when rows, parents or what is alive change
        self.memo: dict[object, object] = {}  # values derived from this version (see ``memo``)
        self.quiet: np.ndarray | None = None  # rows whose outgoing edges are not drawn (lens)
        self.place_missing()
        self._codes: tuple[tuple[str, ...], list[str], np.ndarray] | None = None
        self._id_array: tuple[tuple[str, ...], np.ndarray] | None = None
        self.type_codes()  # made here, on the loader's thread for a big reload, not when shown
        self.id_array()

    def tree(self) -> Tree:
        """The rollup forest over the rows (see ``app.overview``)."""
        return Tree(self.parents, self.depths, ~self.rollups)

    def spread(self) -> np.ndarray:
        """Per row, how far its farthest child is from it (scene units; 0 without children):
        how big a folded rollup's content would be on screen once unfolded."""
        spread = np.zeros(self.n)
        child = np.flatnonzero(self.parents >= 0)
        if len(child):
            gap = np.hypot(*(self.pos[child] - self.pos[self.parents[child]]).T)
            np.maximum.at(spread, self.parents[child], np.nan_to_num(gap))
        return spread

    def type_codes(self) -> tuple[list[str], np.ndarray]:
        """The distinct types (first seen first) and each row's index into them (memoised
        until ``types`` changes: ~8 ms at 50k)."""
        if self._codes is None or self._codes[0] is not self.types:
            names = list(dict.fromkeys(self.types))
            code = {name: row for row, name in enumerate(names)}
            codes = array_of(code.__getitem__, self.types, np.intp)  # (a slice at a time)
            self._codes = (self.types, names, codes)
        return self._codes[1], self._codes[2]

    def type_counts(self) -> dict[str, int]:
        """How many rows have each type."""
        names, codes = self.type_codes()
        return dict(zip(names, np.bincount(codes, minlength=len(names)).tolist(), strict=True))

    def id_array(self) -> np.ndarray:
        """The ids as a numpy object array (memoised until ``ids`` changes)."""
        if self._id_array is None or self._id_array[0] is not self.ids:
            self._id_array = (self.ids, np.asarray(self.ids, dtype=object))
        return self._id_array[1]

    @property
    def n(self) -> int:
        return len(self.ids)

    def rows(self, ids: Iterable[str]) -> np.ndarray:
        """Rows of the ids that are drawn (others are skipped), as an int array."""
        index = self.index
        return np.fromiter((index[i] for i in ids if i in index), dtype=np.int64)

    def edge_rows(self, hierarchy: bool, visible: np.ndarray | None = None) -> np.ndarray:
        """The ``(k, 2)`` node rows of one edge style, optionally only between visible nodes."""
        mask = self.hierarchy if hierarchy else ~self.hierarchy
        if visible is not None:
            mask = mask & visible[self.edges[:, 0]] & visible[self.edges[:, 1]]
        if self.quiet is not None and len(self.quiet) == self.n:  # (the trust lens)
            mask = mask & ~self.quiet[self.edges[:, 0]]
        rows: np.ndarray = self.edges[mask]
        return rows

    def edge_xy(self, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """x and y arrays (``2k`` long, for ``connect='pairs'``) of the edges ``pairs``."""
        flat = pairs.ravel()
        return self.pos[flat, 0], self.pos[flat, 1]

    def bounds(self, visible: np.ndarray | None = None) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` of the (visible) nodes; a unit box when there are none."""
        pos = self.pos if visible is None else self.pos[visible]
        if not len(pos):
            return (-1.0, -1.0, 1.0, 1.0)
        x0, y0 = pos.min(axis=0)
        x1, y1 = pos.max(axis=0)
        return (float(x0), float(y0), float(x1), float(y1))

    def in_rect(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        """Boolean mask of the nodes inside the rectangle."""
        x, y = self.pos[:, 0], self.pos[:, 1]
        return (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)

    def nearest(self, x: float, y: float, radius: np.ndarray, visible: np.ndarray) -> int:
        """The row of the visible node whose disc (``radius`` per row) holds (x, y), or -1."""
        d2 = (self.pos[:, 0] - x) ** 2 + (self.pos[:, 1] - y) ** 2
        d2 = np.where(visible & (d2 <= radius * radius), d2, np.inf)
        row = int(np.argmin(d2)) if self.n else -1
        return row if row >= 0 and np.isfinite(d2[row]) else -1

    def k_hop(self, seeds: np.ndarray, hops: int) -> np.ndarray:
        """Boolean mask of the nodes within ``hops`` edges of ``seeds`` (undirected)."""
        mask = np.zeros(self.n, dtype=bool)
        mask[seeds] = True
        a, b = self.edges[:, 0], self.edges[:, 1]
        for _ in range(hops):
            grown = mask.copy()
            grown[b[mask[a]]] = True
            grown[a[mask[b]]] = True
            if (grown == mask).all():
                break
            mask = grown
        return mask

    def remember(self, key: object, make: Callable[[], T]) -> T:
        """``make()`` memoised until the rows, parents or what is alive change."""
        stamp = (self.version, key)
        if stamp not in self.memo:
            self.memo = {k: v for k, v in self.memo.items() if k[0] == self.version}  # type: ignore[index]
            self.memo[stamp] = make()
        return self.memo[stamp]  # type: ignore[return-value]

    def set_alive(self, ids: Iterable[str], alive: bool) -> list[str]:
        """Hide (archived, removed) or show again (restored, re-created) drawn nodes; returns the
        ids that are not drawn at all (a shown one must be appended)."""
        self.version += 1
        wanted = list(ids)
        self.alive[self.rows(wanted)] = alive
        return [i for i in wanted if i not in self.index]

    def drop_edges(self, keys: Iterable[EdgeKey]) -> int:
        """Remove one drawn edge per key (either orientation, same style); returns how many."""
        drop: list[int] = []
        a, b = self.edges[:, 0], self.edges[:, 1]
        for source, kind, target in keys:
            i, j = self.index.get(source, -1), self.index.get(target, -1)
            if i < 0 or j < 0:
                continue
            style = self.hierarchy == (kind.lower() in HIERARCHY_EDGE_TYPES)
            match = np.flatnonzero(style & (((a == i) & (b == j)) | ((a == j) & (b == i))))
            match = match[~np.isin(match, drop)]
            if len(match):
                drop.append(int(match[0]))
        if drop:
            self.edges = np.delete(self.edges, drop, axis=0)
            self.hierarchy = np.delete(self.hierarchy, drop)
        return len(drop)

    def _keep(self, keep: Mapping[str, Sequence[float]]) -> None:
        """Prefer positions the view already shows (newer than the saved ones)."""
        for node_id, xy in keep.items():
            row = self.index.get(node_id)
            if row is not None and not self.pinned[row]:
                self.pos[row] = xy

    def append(self, nodes: Sequence[Node], edge_keys: Iterable[EdgeKey]) -> int:
        """Add ``nodes`` (as new rows at the end) and the edges among drawn nodes; the new rows
        get provisional positions. Returns the first new row."""
        self.version += 1
        first = self.n
        self.ids = self.ids + tuple(n.id for n in nodes)
        self.index.update((n.id, first + i) for i, n in enumerate(nodes))
        self.types = self.types + tuple(n.type for n in nodes)
        get = self.index.get
        pairs = [(get(a, -1), get(b, -1), k) for a, k, b in edge_keys]
        pairs = [(a, b, k) for a, b, k in pairs if a >= 0 and b >= 0]
        new_edges = np.array([(a, b) for a, b, _ in pairs], dtype=np.int32).reshape(-1, 2)
        self.edges = np.concatenate([self.edges, new_edges])
        internal = [k.lower() in HIERARCHY_EDGE_TYPES for _, _, k in pairs]
        self.hierarchy = np.concatenate([self.hierarchy, np.array(internal, dtype=bool)])
        grow = len(nodes)
        self.pinned = np.concatenate([self.pinned, np.zeros(grow, dtype=bool)])
        self.alive = np.concatenate([self.alive, np.ones(grow, dtype=bool)])
        self.placed = np.concatenate([self.placed, np.zeros(grow, dtype=bool)])
        self.pos = np.concatenate([self.pos, np.full((grow, 2), np.nan)])
        depths = np.array([n.semantic_depth for n in nodes], dtype=np.int32)
        rollups = np.array([n.semantic_rollup for n in nodes], dtype=bool)
        self.depths = np.concatenate([self.depths, depths])
        self.rollups = np.concatenate([self.rollups, rollups])
        parents = [get(n.parent_id.strip(), -1) for n in nodes]
        self.parents = np.concatenate([self.parents, np.array(parents, dtype=np.int64)])
        self.refresh_sizes()
        self.place_missing()
        return first

    def refresh_sizes(self) -> bool:
        """Recount every row's edges and recompute the sizes (degree, rollup depth, how many
        rows are drawn); True when a size changed."""
        self.degree = np.bincount(self.edges.ravel(), minlength=self.n)
        sizes = node_sizes(self.depths, self.rollups, self.degree)
        changed = len(sizes) != len(self.sizes) or bool((sizes != self.sizes).any())
        self.sizes = sizes
        return changed

    def update_nodes(self, nodes: Iterable[Node]) -> bool:
        """Take drawn nodes' new types, depths and rollup flags (others are skipped); True when
        a node's look changed (its colour or its size)."""
        self.version += 1
        types: list[str] | None = None
        sized = False
        for node in nodes:
            row = self.index.get(node.id)
            if row is None:
                continue
            if node.type != self.types[row]:
                types = list(self.types) if types is None else types
                types[row] = node.type
            if (node.semantic_depth, node.semantic_rollup) != (
                self.depths[row],
                self.rollups[row],
            ):
                self.depths[row], self.rollups[row] = node.semantic_depth, node.semantic_rollup
                sized = True
            self.parents[row] = self.index.get(node.parent_id.strip(), -1)
        if types is not None:  # rare: only then copy the 50k-long type tuple
            self.types = tuple(types)
        return (sized and self.refresh_sizes()) or types is not None

    def place_missing(self) -> None:
        """Put nodes without a position next to a positioned neighbour, or on a disc, until the
        layout places them (vectorised: a fresh 50k store has every row missing)."""
        placed = ~np.isnan(self.pos[:, 0])
        missing = np.flatnonzero(~placed)
        if not len(missing):
            return
        rng = np.random.default_rng(len(missing))
        x0, y0, x1, y1 = self.bounds(placed) if placed.any() else (-1.0, -1.0, 1.0, 1.0)
        span = max(x1 - x0, y1 - y0, 1e-6)
        anchor = _placed_neighbour(self.edges, placed, self.n)[missing]
        near = anchor >= 0
        base = np.empty((len(missing), 2))
        base[near] = self.pos[anchor[near]]
        base[~near] = ((x0 + x1) / 2, (y0 + y1) / 2)
        spread = np.where(near, 0.02, 0.5)[:, None] * span
        self.pos[missing] = base + rng.normal(0.0, 1.0, (len(missing), 2)) * spread


def _placed_neighbour(edges: np.ndarray, placed: np.ndarray, n: int) -> np.ndarray:
    """For each row, one neighbour that has a position (or -1)."""
    anchor = np.full(n, -1, dtype=np.int64)
    for a, b in ((0, 1), (1, 0)):
        src, dst = edges[:, a], edges[:, b]
        ok = placed[dst] & ~placed[src]
        anchor[src[ok]] = dst[ok]
    return anchor


def node_sizes(
    depths: np.ndarray, rollups: np.ndarray, degree: np.ndarray, total: int | None = None
) -> np.ndarray:
    """Pixel sizes: bigger for rollups (by depth) and well-connected nodes, in whole pixels so
    the symbol atlas holds few entries."""
    if not len(depths):
        return np.zeros(0, dtype=np.float64)
    size = SIZE_MIN + np.log2(1 + degree.astype(np.float64)) * 0.9
    size = size + np.where(rollups, 1 + np.minimum(depths, 3), 0)
    # a crowded picture needs smaller dots to show its edges: full size up to 500 nodes, half
    # size from 50k on (the labels and overlays keep their own sizes)
    drawn = max(total if total is not None else len(depths), 1)
    crowd = float(np.clip(1.0 - 0.25 * np.log10(drawn / 500), 0.5, 1.0))
    return np.clip(np.round(size * crowd), SIZE_FLOOR, SIZE_MAX).astype(np.float64)


def active_mask(n: int) -> np.ndarray:
    """All rows shown."""
    return np.ones(n, dtype=bool)


def arrange_in_time(scene: GraphScene) -> None:
    """Put every row of ``scene`` where the arrangement by time puts it (rows are in timeline
    order, so the row number is the story's order; pins are not kept: nothing is saved)."""
    if not scene.n:
        scene.timed = True
        return
    scene.pos[:] = positions_by_time(scene.ids, scene.parents, scene.edges)
    scene.placed[:] = True
    scene.timed = True

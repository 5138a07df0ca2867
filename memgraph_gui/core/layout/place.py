"""Incremental starts: keep known positions, put new rows at their placed neighbours'
barycentre (plus jitter), and new rows with no placed neighbour beside the picture.

Unfolding a rollup (``place_unfolded``): its children appear on a small disc around where the
rollup is (a sunflower spiral, inner places first, in row order, so nothing piles up), about
half a local edge apart (the rollup's median edge, or the spacing of its nearest rows where
they are closer) and kept inside the free space around the rollup; no other row moves.
Placing them at their neighbours' barycentre instead would throw them towards the busiest
character they share, far from the rollup the person unfolded.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from memgraph_gui.core.layout.start import start_layout

JITTER = 0.3
MAX_PASSES = 50
CHILD_SPACING = 0.5  # children on a disc this many local edge lengths apart ...
MIN_CHILD_SPACING = 0.15  # ... and never closer, even where the rollup has little room
ROOM_SHARE = 0.45  # the disc stays within this share of the way to the nearest other row
AROUND = 8  # the local spacing: the median distance to this many nearest known rows
GOLDEN_ANGLE = np.pi * (3.0 - np.sqrt(5.0))


def edge_scale(pos: np.ndarray, links: np.ndarray, known: np.ndarray) -> float:
    """The median length of edges between known rows (1.0 when there is none)."""
    both = links[known[links[:, 0]] & known[links[:, 1]]]
    if len(both) == 0:
        return 1.0
    length = float(np.median(np.linalg.norm(pos[both[:, 0]] - pos[both[:, 1]], axis=1)))
    return length if length > 0 else 1.0


def place_unfolded(
    start: np.ndarray, parents: np.ndarray, edges: np.ndarray, *, seed: int = 0
) -> np.ndarray:
    """Positions ``(n, 2)`` after unfolding: rows of ``start`` that are set keep their place
    exactly; each unset (NaN) row whose ``parents`` row is set goes on a disc around that
    parent (see the module docstring); any other unset row as ``place_new`` puts it. ``edges``
    are ``(m, 2)`` row pairs. Pure and instant (O(n log n)); never moves a set row."""
    pos = np.array(start, dtype=np.float64).reshape(-1, 2)
    known = np.asarray(np.isfinite(pos).all(axis=1))
    pos[~known] = np.nan
    links = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    links = links[(links >= 0).all(axis=1) & (links < len(pos)).all(axis=1)]
    if not known.all():
        place_new(pos, known, links, np.random.default_rng(seed), parents=parents)
    return pos


def place_new(
    pos: np.ndarray,
    known: np.ndarray,
    links: np.ndarray,
    rng: np.random.Generator,
    *,
    parents: np.ndarray | None = None,
) -> None:
    """Fill the unknown rows of ``pos`` in place (``known`` marks the rows that are set). With
    ``parents`` (a row per row, -1 for none), unknown rows whose parent is placed go on a disc
    around it first (``place_around_parents``), a level at a time, so the grandchildren of an
    unfolded rollup sit on smaller discs around its children."""
    scale = edge_scale(pos, links, known)
    placed = known.copy()
    for _ in range(MAX_PASSES):
        if parents is None:
            break
        more = place_around_parents(pos, placed, links, parents, scale)
        if not more.any():
            break
        placed |= more
    src = np.concatenate([links[:, 0], links[:, 1]])
    dst = np.concatenate([links[:, 1], links[:, 0]])
    for _ in range(MAX_PASSES):
        sel = placed[src] & ~placed[dst]
        if not sel.any():
            break
        count = np.bincount(dst[sel], minlength=len(pos))
        ready = count > 0
        for axis in (0, 1):
            total = np.bincount(dst[sel], pos[src[sel], axis], len(pos))
            pos[ready, axis] = total[ready] / count[ready]
        pos[ready] += rng.normal(scale=JITTER * scale, size=(int(ready.sum()), 2))
        placed |= ready
    if not placed.all():
        _beside(pos, placed, links, scale)


def place_around_parents(
    pos: np.ndarray, known: np.ndarray, links: np.ndarray, parents: np.ndarray, scale: float
) -> np.ndarray:
    """Put each unknown row whose parent row is known on a sunflower disc around the parent:
    ``CHILD_SPACING`` local lengths apart (the parent's median known edge length, ``scale``
    when it has none, or the median distance to its ``AROUND`` nearest known rows where that
    is shorter), the disc shrunk to ``ROOM_SHARE`` of the distance to the nearest other known
    row, but the children never closer than ``MIN_CHILD_SPACING``. Returns the rows placed."""
    from scipy.spatial import cKDTree

    parent = np.asarray(parents, dtype=np.int64).reshape(-1)
    parent = np.where((parent >= 0) & (parent < len(pos)), parent, -1)
    child = np.flatnonzero(~known & (parent >= 0))
    child = child[known[parent[child]]]
    done = np.zeros(len(pos), dtype=bool)
    if not len(child):
        return done
    child = child[np.argsort(parent[child], kind="stable")]  # row order within a parent
    owners, first, counts = np.unique(parent[child], return_index=True, return_counts=True)
    room, spacing = _room(pos, known, owners, cKDTree(pos[known]))
    local = np.minimum(_local_scale(pos, known, links, owners, scale), spacing)
    radius = np.minimum(CHILD_SPACING * local * np.sqrt(counts), ROOM_SHARE * room)
    radius = np.maximum(radius, MIN_CHILD_SPACING * local * np.sqrt(counts))
    rank = np.arange(len(child)) - np.repeat(first, counts)  # place on its parent's disc
    size = np.repeat(counts, counts)
    r = np.repeat(radius, counts) * np.sqrt((rank + 0.5) / size)
    angle = rank * GOLDEN_ANGLE
    pos[child] = pos[parent[child]] + np.column_stack([r * np.cos(angle), r * np.sin(angle)])
    done[child] = True
    return done


def _local_scale(
    pos: np.ndarray, known: np.ndarray, links: np.ndarray, rows: np.ndarray, scale: float
) -> np.ndarray:
    """The median length of the known edges at each of ``rows`` (``scale`` for none).
    Vectorised (one sort): a per-row ``np.median`` took 0.25 s for the 15k parents of a 50k
    memory placed around its overview."""
    both = links[known[links[:, 0]] & known[links[:, 1]]]
    length = np.linalg.norm(pos[both[:, 0]] - pos[both[:, 1]], axis=1)
    ends = np.concatenate([both[:, 0], both[:, 1]])
    lengths = np.concatenate([length, length])
    order = np.lexsort((lengths, ends))  # by row, then by length
    ends, lengths = ends[order], lengths[order]
    low, high = np.searchsorted(ends, rows), np.searchsorted(ends, rows, side="right")
    count = high - low
    has = count > 0
    out = np.full(len(rows), scale)
    if has.any():
        a, c = low[has], count[has]
        median = (lengths[a + (c - 1) // 2] + lengths[a + c // 2]) / 2
        out[has] = np.where(median > 0, median, scale)
    return out


def _room(
    pos: np.ndarray, known: np.ndarray, rows: np.ndarray, tree: Any
) -> tuple[np.ndarray, np.ndarray]:
    """For each of ``rows`` (known rows): the distance to the nearest other known row, and the
    median distance to its ``AROUND`` nearest (both inf when there is no other)."""
    count = int(known.sum())
    if count < 2:
        return np.full(len(rows), np.inf), np.full(len(rows), np.inf)
    dist = tree.query(pos[rows], k=min(AROUND, count - 1) + 1)[0].reshape(len(rows), -1)[:, 1:]
    spacing = np.median(dist, axis=1)
    return np.asarray(dist[:, 0]), np.where(spacing > 0, spacing, np.inf)


def _beside(pos: np.ndarray, placed: np.ndarray, links: np.ndarray, scale: float) -> None:
    """Lay the rows not reachable from placed ones out on their own, right of the picture."""
    rows = np.flatnonzero(~placed)
    index = np.full(len(pos), -1)
    index[rows] = np.arange(len(rows))
    inner = links[~placed[links[:, 0]] & ~placed[links[:, 1]]]
    local = start_layout(index[inner], len(rows), 0) * scale
    if placed.any():
        low, high = pos[placed].min(axis=0), pos[placed].max(axis=0)
        local += [high[0] + 2 * scale - local[:, 0].min(), (low[1] + high[1]) / 2]
    pos[rows] = local

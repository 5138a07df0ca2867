"""Arrange by time: the memory as a story, read along a space-filling curve.

Leaves (events with no children) sit on the cells of a Hilbert curve in seq order, one cell
each, so neighbours in time are neighbours on screen and a stretch of the story is a compact
block; the curve is walked at a fixed order (``ORDER``), so its first cells never depend on how
many leaves there are: a new event lands on the next cell at the end and every earlier leaf
stays where it was. Rollups sit at the centre of their children (deepest first, so a rollup of
rollups is at the centre of its children's centres), and characters, places and threads at the
mean of the events they are linked to. Pure numpy, O(n + m); ~0.03 s at 50k.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ORDER = 16  # the curve's order: 4^16 cells, far more than any memory's leaves
MAX_DEPTH = 64  # rollup levels followed at most (a cycle in ``parents`` stops here)


def hilbert_cells(index: np.ndarray, order: int = ORDER) -> np.ndarray:
    """The ``(x, y)`` integer cell of each position ``index`` along the Hilbert curve of
    ``order`` (consecutive indices are adjacent cells); ``(k, 2)`` float64."""
    t = np.asarray(index, dtype=np.int64).copy()
    x = np.zeros_like(t)
    y = np.zeros_like(t)
    side, level = 1, 0
    while level < order and t.any():
        rx = (t // 2) & 1
        ry = (t ^ rx) & 1
        flip = (ry == 0) & (rx == 1)
        x = np.where(flip, side - 1 - x, x)
        y = np.where(flip, side - 1 - y, y)
        swap = ry == 0
        x, y = np.where(swap, y, x), np.where(swap, x, y)
        x += side * rx
        y += side * ry
        t //= 4
        side, level = side * 2, level + 1
    if (order - level) % 2:  # each level left (all indices done) only swaps x and y
        x, y = y, x
    return np.column_stack([x, y]).astype(np.float64)


def arrange_by_time(
    ids: Sequence[str],
    seqs: Sequence[float] | np.ndarray,
    parents: Sequence[int] | np.ndarray,
    edges: np.ndarray,
    *,
    on_timeline: Sequence[bool] | np.ndarray | None = None,
    spacing: float = 1.0,
) -> np.ndarray:
    """Positions ``(n, 2)`` for the rows of ``ids`` arranged by time.

    ``seqs[i]`` is row i's place in time (its ``seqTo``); ``parents[i]`` its rollup's row (-1
    for none); ``edges`` an ``(m, 2)`` array of row pairs (any direction). ``on_timeline`` marks
    the events and rollups (default: rows in the rollup tree, i.e. with a parent or a child);
    the other rows are entities (characters, places, threads). Leaves (timeline rows with no
    child) take cells ``0, 1, 2 ...`` of the Hilbert curve in (seq, row) order, ``spacing``
    apart; a rollup is at the mean of its children, an entity at the mean of the leaves it is
    linked to (else of any placed row it is linked to); entities linked to nothing placed sit
    in a row under the curve. Deterministic; raises ``ValueError`` on mismatched lengths.
    """
    n = len(ids)
    seq = np.asarray(seqs, dtype=np.float64).reshape(-1)
    parent = np.asarray(parents, dtype=np.int64).reshape(-1)
    if len(seq) != n or len(parent) != n:
        raise ValueError(f"seqs and parents need {n} values, got {len(seq)} and {len(parent)}")
    parent = np.where((parent >= 0) & (parent < n), parent, -1)
    has_child = np.zeros(n, dtype=bool)
    has_child[parent[parent >= 0]] = True
    timeline = (
        (parent >= 0) | has_child
        if on_timeline is None
        else np.asarray(on_timeline, dtype=bool).reshape(n)
    )
    pos = np.full((n, 2), np.nan)
    leaves = np.flatnonzero(timeline & ~has_child)
    order = leaves[np.lexsort((leaves, seq[leaves]))]
    pos[order] = hilbert_cells(np.arange(len(order))) * spacing
    _rollups_at_centres(pos, parent, timeline & has_child)
    links = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    links = links[(links >= 0).all(axis=1) & (links < n).all(axis=1)]
    leaf = np.zeros(n, dtype=bool)
    leaf[leaves] = True
    entity = ~timeline
    _at_mean_of(pos, links, entity, leaf)
    _at_mean_of(pos, links, entity & np.isnan(pos[:, 0]), np.isfinite(pos[:, 0]))
    _row_under(pos, np.flatnonzero(np.isnan(pos[:, 0])), spacing)
    return pos


def _rollups_at_centres(pos: np.ndarray, parent: np.ndarray, rollup: np.ndarray) -> None:
    """Each rollup at the mean of its placed children, a level at a time from the leaves up."""
    child = np.flatnonzero(parent >= 0)
    for _ in range(MAX_DEPTH):
        placed = child[np.isfinite(pos[child, 0])]
        count = np.bincount(parent[placed], minlength=len(pos))
        ready = rollup & np.isnan(pos[:, 0]) & (count > 0)
        # a rollup is ready once none of its children waits for a position
        waiting = child[np.isnan(pos[child, 0]) & rollup[child]]
        ready[parent[waiting]] = False
        if not ready.any():
            break
        for axis in (0, 1):
            total = np.bincount(parent[placed], pos[placed, axis], len(pos))
            pos[ready, axis] = total[ready] / count[ready]


def _at_mean_of(pos: np.ndarray, links: np.ndarray, rows: np.ndarray, by: np.ndarray) -> None:
    """Put each row of ``rows`` at the mean of the rows of ``by`` it is linked to (if any)."""
    count = np.zeros(len(pos))
    total = np.zeros((len(pos), 2))
    for a, b in ((links[:, 0], links[:, 1]), (links[:, 1], links[:, 0])):
        sel = rows[a] & by[b]
        count += np.bincount(a[sel], minlength=len(pos))
        for axis in (0, 1):
            total[:, axis] += np.bincount(a[sel], pos[b[sel], axis], len(pos))
    ready = rows & (count > 0)
    pos[ready] = total[ready] / count[ready, None]


def _row_under(pos: np.ndarray, rows: np.ndarray, spacing: float) -> None:
    """Lay ``rows`` out in rows under the placed rows, as wide as they are (or from the origin
    in a square block when none is placed)."""
    if not len(rows):
        return
    placed = np.isfinite(pos[:, 0])
    if placed.any():
        low, high = pos[placed].min(axis=0), pos[placed].max(axis=0)
        columns = int((high[0] - low[0]) / spacing) + 1
    else:
        low, columns = np.zeros(2), int(np.ceil(np.sqrt(len(rows))))
    at = np.arange(len(rows))
    pos[rows, 0] = low[0] + spacing * (at % columns)
    pos[rows, 1] = low[1] - spacing * (2 + at // columns)

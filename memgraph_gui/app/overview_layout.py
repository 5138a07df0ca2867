"""The overview laid out first, for a memory whose rows (mostly) have no saved position (a
fresh import, a demo made without a layout, a merged store). No Qt: any thread.

The full layout of 50k rows gives its first picture after ~1.2 s and settles after ~4.5 s; the
overview the window shows at fit zoom has only a few thousand marks. So the cut is laid out on
its own first (its rows, and the relation edges projected onto them and merged into one line
per pair, weighted by count: ~0.3 s at 50k), spread to the area the whole memory will need
(``sqrt(rows / shown)`` times, each mark standing for what it holds), and every folded member
is put on a disc around its shown ancestor, level by level (``place_unfolded``), so the picture
and unfolding make sense at once. The full layout then refines every row from that start
(``stream_layout(..., refine_start=True)``) instead of replacing it. Rows that have a position
(saved, or pinned) never move in this first step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from memgraph_gui.core.layout import LayoutInput, compute_layout, place_unfolded

FIRST_SECONDS = 1.0
"""The cap on the overview's layout: its schedule (45 steps) ends in 0.15-0.35 s for the 2.3k
marks of a 50k memory; while the GUI thread is busy building the window the worker waits for
the GIL, and a 0.5 s cap then cut the schedule short, down to the bare PivotMDS start."""
MOSTLY_MISSING = 0.5
"""Above this share of rows without a position the overview goes first (at or below it the
full layout is an incremental one that keeps the known rows: nothing to gain)."""


@dataclass(frozen=True, slots=True)
class OverviewSeed:
    """What the view shows at fit zoom over its rows, and where rows already are.

    ``ids`` are the view's rows; ``shown`` (mask) the rows of the overview's cut; ``pairs``
    ``(k, 2)`` rows and ``counts`` the relation edges projected onto the cut and merged per
    pair; ``parents`` each row's parent row (-1: none); ``edges`` ``(m, 2)`` every drawn edge
    (rows); ``start`` ``(n, 2)`` the known positions (NaN: none); ``pinned`` the pins."""

    ids: tuple[str, ...]
    shown: np.ndarray
    pairs: np.ndarray
    counts: np.ndarray
    parents: np.ndarray
    edges: np.ndarray
    start: np.ndarray
    pinned: np.ndarray


def mostly_unplaced(placed: np.ndarray) -> bool:
    """True when more than ``MOSTLY_MISSING`` of the rows have no position (``placed`` mask)."""
    n = len(placed)
    return n > 0 and int(n - np.count_nonzero(placed)) > MOSTLY_MISSING * n


def lay_out_overview(
    seed: OverviewSeed,
    *,
    seconds: float | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> np.ndarray:
    """Positions ``(n, 2)`` for every row of ``seed``: the cut laid out (within ``seconds``,
    default ``FIRST_SECONDS``),
    every other row around its shown ancestor (or, for a rollup above the cut, at its
    children), rows with a position exactly where they are. Blocks: run it on a worker."""
    n = len(seed.ids)
    start = np.array(seed.start, dtype=np.float64).reshape(n, 2)
    known = np.asarray(np.isfinite(start).all(axis=1))
    rows = np.flatnonzero(seed.shown)
    index = np.full(n, -1, dtype=np.int64)
    index[rows] = np.arange(len(rows))
    pairs = index[np.asarray(seed.pairs, dtype=np.int64).reshape(-1, 2)]
    keep = (pairs >= 0).all(axis=1)
    inp = LayoutInput(
        tuple(seed.ids[r] for r in rows),
        pairs[keep],
        start[rows],
        known[rows],  # a row with a position stays put
        np.asarray(seed.counts, dtype=np.float64)[keep],
    )
    budget = FIRST_SECONDS if seconds is None else seconds
    cut = compute_layout(inp, seconds=budget, should_stop=should_stop)
    if len(rows) and not known[rows].any():  # a free picture: give it the whole memory's area
        centre = cut.mean(axis=0)
        cut = centre + (cut - centre) * np.sqrt(n / len(rows))
    pos = start.copy()
    pos[rows] = np.where(known[rows, None], start[rows], cut)
    return place_unfolded(pos, seed.parents, seed.edges)


def overview_start(
    ids: tuple[str, ...], layout_ids: tuple[str, ...], pos: np.ndarray
) -> np.ndarray:
    """The overview's positions (``pos`` for ``ids``) as a start for the rows ``layout_ids``
    (the store's, read later): NaN for a row the overview did not have."""
    index = dict(zip(ids, range(len(ids)), strict=True))
    at = np.fromiter((index.get(i, -1) for i in layout_ids), np.int64, len(layout_ids))
    start = np.full((len(layout_ids), 2), np.nan)
    start[at >= 0] = pos[at[at >= 0]]
    return start

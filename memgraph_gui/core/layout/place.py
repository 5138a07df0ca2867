"""Incremental starts: keep known positions, put new rows at their placed neighbours'
barycentre (plus jitter), and new rows with no placed neighbour beside the picture."""

from __future__ import annotations

import numpy as np

from memgraph_gui.core.layout.start import start_layout

JITTER = 0.3
MAX_PASSES = 50


def edge_scale(pos: np.ndarray, links: np.ndarray, known: np.ndarray) -> float:
    """The median length of edges between known rows (1.0 when there is none)."""
    both = links[known[links[:, 0]] & known[links[:, 1]]]
    if len(both) == 0:
        return 1.0
    length = float(np.median(np.linalg.norm(pos[both[:, 0]] - pos[both[:, 1]], axis=1)))
    return length if length > 0 else 1.0


def place_new(
    pos: np.ndarray, known: np.ndarray, links: np.ndarray, rng: np.random.Generator
) -> None:
    """Fill the unknown rows of ``pos`` in place (``known`` marks the rows that are set)."""
    scale = edge_scale(pos, links, known)
    placed = known.copy()
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

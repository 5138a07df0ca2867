"""The layout's plain-data input and output (``LayoutInput`` in, ``LayoutFrame``s out)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class LayoutInput:
    """A graph to lay out.

    ``ids`` are the active node ids (index = row); ``edges`` is an ``(m, 2)`` int32 array of row
    indices, used undirected (duplicates, both directions and self edges are allowed and
    ignored). ``start`` holds known positions (``(n, 2)`` float64, NaN rows = unknown, e.g. new
    nodes); ``pinned`` marks rows that must not move (their ``start`` row must be set).
    ``weights`` (one per ``edges`` row, e.g. the count of links a merged overview edge stands
    for) make an edge pull harder; rows of one pair add up, and rows whose weight is not
    finite and above 0 are ignored. Without it every distinct pair weighs 1.
    """

    ids: tuple[str, ...]
    edges: np.ndarray
    start: np.ndarray | None = None
    pinned: np.ndarray | None = None
    weights: np.ndarray | None = None


@dataclass(frozen=True, slots=True)
class LayoutFrame:
    """One picture of a running layout.

    ``pos`` is a fresh ``(n, 2)`` float64 array each frame (the consumer may keep it);
    ``stage`` is ``"start"`` (the first usable picture), ``"refine"`` or ``"done"`` (the last).
    """

    pos: np.ndarray
    stage: str
    iteration: int
    converged: bool

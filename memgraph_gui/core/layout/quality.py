"""How good a layout is: neighbours close (``layout_quality``), nodes not piled up
(``overlap_fraction``). Both are pure numpy/scipy and deterministic given ``seed``."""

from __future__ import annotations

import numpy as np

OVERLAP_RATIO = 0.001


def layout_quality(
    pos: np.ndarray, edges: np.ndarray, *, seed: int = 0, samples: int = 100_000
) -> float:
    """Median edge length / median distance of ``samples`` random node pairs.

    Lower is better: 1.0 is what random positions give; self edges are ignored. Returns NaN
    when there is no edge or fewer than two nodes.
    """
    points = np.asarray(pos, dtype=np.float64)
    links = _links(edges)
    if len(points) < 2 or len(links) == 0:
        return float("nan")
    edge_len = np.median(np.linalg.norm(points[links[:, 0]] - points[links[:, 1]], axis=1))
    rng = np.random.default_rng(seed)
    a = rng.integers(0, len(points), samples)
    b = (a + rng.integers(1, len(points), samples)) % len(points)  # never a == b
    pair_len = np.median(np.linalg.norm(points[a] - points[b], axis=1))
    return float(edge_len / pair_len) if pair_len > 0 else float("inf")


def overlap_fraction(pos: np.ndarray, edges: np.ndarray, *, ratio: float = OVERLAP_RATIO) -> float:
    """Share of nodes that have another node closer than ``ratio`` x the median edge length.

    With the default 0.05 a node counts as piled on another when the two would overlap as
    dots drawn at a twentieth of a typical edge. Without edges the median nearest-neighbour
    distance stands in for the edge length. 0.0 for fewer than two nodes.
    """
    from scipy.spatial import cKDTree

    points = np.asarray(pos, dtype=np.float64)
    if len(points) < 2:
        return 0.0
    nearest = cKDTree(points).query(points, k=2)[0][:, 1]
    links = _links(edges)
    if len(links):
        scale = float(np.median(np.linalg.norm(points[links[:, 0]] - points[links[:, 1]], axis=1)))
    else:
        scale = float(np.median(nearest))
    return float(np.mean(nearest < ratio * scale))


def _links(edges: np.ndarray) -> np.ndarray:
    links = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    return np.asarray(links[links[:, 0] != links[:, 1]])

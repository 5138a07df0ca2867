"""The first usable picture: PivotMDS per connected component, components packed in shelves.

PivotMDS (Brandes & Pich 2006): BFS distances from ~50 max-min pivots, double-centred, and the
two leading eigenvectors of the small pivot matrix give coordinates in O(pivots x (n + m)).
Coordinates come out in layout units (ideal edge length 1): each component is scaled to the
area a spread-out layout of it needs, ``AREA_PER_NODE`` per node. Nodes with the same neighbours
get the same PivotMDS coordinates (equal BFS distances), and the forces cannot push apart two
nodes at one point (no direction), so the start adds a ``JITTER`` of an edge length: without it
7% of the 50k story-shaped demo's nodes (events of one rollup, one place, one protagonist) stayed
piled on a twin to the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np

PIVOTS = 50
AREA_PER_NODE = 1.0
JITTER = 0.1  # of the ideal edge length


def clean_edges(edges: np.ndarray, n: int) -> np.ndarray:
    """Undirected edges as unique ``(a, b)`` rows with ``a < b``; self edges and rows out of
    range dropped."""
    return merge_edges(edges, n)[0]


def merge_edges(
    edges: np.ndarray, n: int, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``clean_edges`` and a weight per link: the sum of the weights of the rows merged into it
    (rows with a weight that is not finite and above 0 are dropped), or 1.0 per link without
    ``weights`` (twins such as ``contains`` / ``semantic_contains`` count once)."""
    links = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    given = None if weights is None else np.asarray(weights, dtype=np.float64).reshape(-1)
    if given is not None and len(given) != len(links):
        raise ValueError(f"weights: expected {len(links)} values, got {len(given)}")
    keep = (links >= 0).all(axis=1) & (links < n).all(axis=1) & (links[:, 0] != links[:, 1])
    if given is not None:
        keep &= np.isfinite(given) & (given > 0)
    links = np.sort(links[keep], axis=1)
    if len(links) == 0:
        return np.zeros((0, 2), dtype=np.int64), np.zeros(0)
    keys, back = np.unique(links[:, 0] * n + links[:, 1], return_inverse=True)
    merged = np.column_stack([keys // n, keys % n]).astype(np.int64)
    if given is None:
        return merged, np.ones(len(keys))
    return merged, np.bincount(back.reshape(-1), given[keep], len(keys))


def adjacency(links: np.ndarray, n: int) -> Any:
    """The symmetric CSR adjacency matrix of cleaned ``links``."""
    from scipy.sparse import csr_matrix

    ones = np.ones(2 * len(links))
    rows = np.concatenate([links[:, 0], links[:, 1]])
    cols = np.concatenate([links[:, 1], links[:, 0]])
    return csr_matrix((ones, (rows, cols)), shape=(n, n))


def pivot_mds(adj: Any, rng: np.random.Generator, pivots: int = PIVOTS) -> np.ndarray:
    """PivotMDS coordinates ``(n, 2)`` of one connected graph (``adj`` symmetric CSR), in
    graph-distance units."""
    n = adj.shape[0]
    if n < 3:
        return np.column_stack([np.arange(n, dtype=np.float64), np.zeros(n)])
    k = min(pivots, n)
    dist = np.empty((k, n))
    nearest = np.full(n, np.inf)
    pivot = int(rng.integers(n))
    for i in range(k):
        dist[i] = bfs_distances(adj, pivot)
        nearest = np.minimum(nearest, dist[i])
        pivot = int(np.argmax(nearest))
    sq = dist**2
    centred = sq - sq.mean(axis=1, keepdims=True) - sq.mean(axis=0) + sq.mean()
    centred *= -0.5
    values, vectors = np.linalg.eigh(centred @ centred.T)
    coords = centred.T @ vectors[:, [-1, -2]]
    scale = np.sqrt(np.maximum(values[[-1, -2]], 1e-12)) ** 0.5
    return np.asarray(coords / scale, dtype=np.float64)


def bfs_distances(adj: Any, source: int) -> np.ndarray:
    """Hop counts from ``source`` in a connected graph: scipy's BFS tree (C), then every node
    climbs it a level per round (rounds = the source's eccentricity). ~5x faster here than
    ``shortest_path(unweighted=True)``."""
    from scipy.sparse.csgraph import breadth_first_order

    _, parent = breadth_first_order(adj, source, directed=True, return_predecessors=True)
    parent[source] = source
    dist = np.zeros(adj.shape[0])
    dist[parent < 0] = np.inf  # unreachable (not in a connected graph)
    climbing = np.flatnonzero(parent >= 0)
    at = climbing.copy()
    while len(climbing):
        moving = at != source
        climbing, at = climbing[moving], at[moving]
        dist[climbing] += 1
        at = parent[at]
    return dist


def start_layout(links: np.ndarray, n: int, seed: int) -> np.ndarray:
    """PivotMDS of every component, each scaled to its area, packed in shelves; ``(n, 2)``.
    Isolated nodes are packed together as one square block (one part each cost ~0.15 ms:
    0.07 s for the 473 of the 50k demo)."""
    from scipy.sparse.csgraph import connected_components

    pos = np.zeros((n, 2))
    if n == 0:
        return pos
    adj = adjacency(links, n)
    count, labels = connected_components(adj, directed=False)
    order = np.argsort(labels, kind="stable")
    bounds = np.searchsorted(labels[order], np.arange(count + 1))
    sizes = np.diff(bounds)
    rng = np.random.default_rng(seed)
    parts = []
    for c in np.flatnonzero(sizes > 1):
        rows = order[bounds[c] : bounds[c + 1]]
        local = pivot_mds(adj[rows][:, rows], rng) if len(rows) > 2 else _small(len(rows))
        parts.append((rows, _fit_area(local, len(rows))))
    alone = order[bounds[:-1][sizes == 1]]
    if len(alone):
        side = int(np.ceil(np.sqrt(len(alone))))
        at = np.arange(len(alone))
        parts.append((alone, np.column_stack([at % side, at // side]).astype(np.float64)))
    _pack(parts, pos)
    return pos + rng.normal(scale=JITTER, size=pos.shape)


def _small(size: int) -> np.ndarray:
    return np.column_stack([np.arange(size, dtype=np.float64), np.zeros(size)])


def _fit_area(local: np.ndarray, size: int) -> np.ndarray:
    """Centre ``local`` and scale it so its RMS radius fits ``size`` nodes at AREA_PER_NODE."""
    local = local - local.mean(axis=0)
    rms = float(np.sqrt((local**2).sum(axis=1).mean()))
    if size < 3 or rms == 0:
        return local if size < 3 else local + _ring(size)
    target = np.sqrt(size * AREA_PER_NODE / np.pi) / np.sqrt(2)
    return np.asarray(local * (target / rms))


def _ring(size: int) -> np.ndarray:
    angle = np.linspace(0, 2 * np.pi, size, endpoint=False)
    return np.column_stack([np.cos(angle), np.sin(angle)])


def _pack(parts: list[tuple[np.ndarray, np.ndarray]], pos: np.ndarray) -> None:
    """Shelf packing: tallest components first, rows as wide as the square root of the area."""
    boxes = [(local.min(axis=0), local.max(axis=0) - local.min(axis=0) + 1.0) for _, local in parts]
    area = sum(float(size[0] * size[1]) for _, size in boxes)
    width = max(*(float(size[0]) for _, size in boxes), float(np.sqrt(area)) * 1.2)
    x = y = shelf = 0.0
    for i in sorted(range(len(parts)), key=lambda i: -boxes[i][1][1]):
        low, size = boxes[i]
        if x > 0 and x + size[0] > width:
            x, y, shelf = 0.0, y + shelf, 0.0
        rows, local = parts[i]
        pos[rows] = local - low + [x, y]
        x, shelf = x + float(size[0]), max(shelf, float(size[1]))
    pos -= pos.mean(axis=0)

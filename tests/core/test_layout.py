"""The force-directed layout (core.layout): quality on graphs with a known embedding, edge cases,
determinism, pins, incremental runs and streaming. No Qt, no store."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from memgraph_gui.core.layout import (
    LayoutInput,
    compute_layout,
    layout_quality,
    overlap_fraction,
    stream_layout,
)
from memgraph_gui.core.layout.refine import FULL_ITERATIONS


def grid_graph(side: int) -> tuple[np.ndarray, np.ndarray]:
    """A side x side grid: its edges and its true (known) embedding."""
    index = np.arange(side * side).reshape(side, side)
    right = np.column_stack([index[:, :-1].ravel(), index[:, 1:].ravel()])
    down = np.column_stack([index[:-1, :].ravel(), index[1:, :].ravel()])
    truth = np.column_stack([index.ravel() % side, index.ravel() // side]).astype(float)
    return np.concatenate([right, down]).astype(np.int32), truth


def ring_of_clusters(clusters: int = 8, size: int = 30, seed: int = 0) -> np.ndarray:
    """Dense random clusters (p=0.3 inside), each joined to the next in a ring by 2 edges."""
    rng = np.random.default_rng(seed)
    edges = []
    for c in range(clusters):
        base = c * size
        pairs = np.array([(a, b) for a in range(size) for b in range(a + 1, size)])
        keep = pairs[rng.random(len(pairs)) < 0.3] + base
        edges.append(keep)
        nxt = ((c + 1) % clusters) * size
        edges.append(np.array([[base, nxt + 1], [base + 2, nxt + 3]]))
    return np.concatenate(edges).astype(np.int32)


def inp(n: int, edges: np.ndarray, **extra: object) -> LayoutInput:
    return LayoutInput(tuple(f"n{i}" for i in range(n)), np.asarray(edges, np.int32), **extra)


def knn_preserved(pos: np.ndarray, truth: np.ndarray, k: int = 4) -> float:
    """Mean share of each node's k nearest neighbours in ``truth`` that are also among its
    2k nearest in ``pos``."""
    want = cKDTree(truth).query(truth, k=k + 1)[1][:, 1:]
    got = cKDTree(pos).query(pos, k=2 * k + 1)[1][:, 1:]
    return float(np.mean([len(set(w) & set(g)) / k for w, g in zip(want, got, strict=True)]))


def test_a_grid_keeps_neighbours_closer_than_random_pairs() -> None:
    edges, truth = grid_graph(30)
    pos = compute_layout(inp(900, edges), seed=1)
    assert pos.shape == (900, 2) and np.isfinite(pos).all()
    assert layout_quality(pos, edges) < 0.15  # the true grid scores ~0.05; random 1.0
    assert knn_preserved(pos, truth) > 0.7
    assert overlap_fraction(pos, edges) == 0.0


def test_a_ring_of_clusters_keeps_clusters_together() -> None:
    edges = ring_of_clusters()
    pos = compute_layout(inp(240, edges), seed=2)
    assert layout_quality(pos, edges) < 0.5
    centres = pos.reshape(8, 30, 2).mean(axis=1)
    spread = np.linalg.norm(pos.reshape(8, 30, 2) - centres[:, None], axis=2).mean()
    gaps = np.linalg.norm(centres - np.roll(centres, 1, axis=0), axis=1)
    assert spread < gaps.min()  # each cluster is tighter than the distance to its neighbour


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_tiny_graphs(n: int) -> None:
    edges = np.array([[i, i + 1] for i in range(n - 1)], dtype=np.int32).reshape(-1, 2)
    frames = list(stream_layout(inp(n, edges)))
    assert frames[0].stage == "start" and frames[-1].stage == "done"
    pos = frames[-1].pos
    assert pos.shape == (n, 2) and np.isfinite(pos).all()
    if n >= 2:
        assert np.linalg.norm(pos[0] - pos[1]) > 0


def test_disconnected_isolated_duplicate_and_self_edges() -> None:
    edges, _ = grid_graph(6)
    second = grid_graph(5)[0] + 36  # a second component
    messy = np.concatenate([edges, edges[:, ::-1], second, [[3, 3], [70, 70]]])
    n = 36 + 25 + 10  # and ten isolated nodes
    pos = compute_layout(inp(n, messy), seed=3)
    assert np.isfinite(pos).all()
    assert overlap_fraction(pos, messy) == 0.0
    scale = np.median(np.linalg.norm(pos[messy[:, 0]] - pos[messy[:, 1]], axis=1))
    assert np.ptp(pos, axis=0).max() < 15 * scale  # packed, not flung apart
    a, b = pos[:36].mean(axis=0), pos[36:61].mean(axis=0)
    assert np.linalg.norm(a - b) > 0.5 * np.ptp(pos[:36], axis=0).max()  # not on top of each other


def test_the_same_seed_gives_the_same_layout() -> None:
    edges = ring_of_clusters(seed=4)
    first = compute_layout(inp(240, edges), seed=7)
    assert np.array_equal(first, compute_layout(inp(240, edges), seed=7))
    assert not np.array_equal(first, compute_layout(inp(240, edges), seed=8))


def test_pinned_rows_do_not_move() -> None:
    edges, _ = grid_graph(10)
    start = np.full((100, 2), np.nan)
    start[[0, 99]] = [[-50.0, -50.0], [50.0, 50.0]]
    pinned = np.zeros(100, dtype=bool)
    pinned[[0, 99]] = True
    for frame in stream_layout(inp(100, edges, start=start, pinned=pinned), seed=1):
        assert np.array_equal(frame.pos[[0, 99]], start[[0, 99]])


def test_an_incremental_run_moves_old_nodes_little_and_places_new_ones_near_neighbours() -> None:
    edges, _ = grid_graph(20)
    before = compute_layout(inp(400, edges), seed=1)
    scale = np.median(np.linalg.norm(before[edges[:, 0]] - before[edges[:, 1]], axis=1))
    new = np.array([0, 150, 399])
    start = before.copy()
    start[new] = np.nan
    frames = list(stream_layout(inp(400, edges, start=start), seed=1))
    first, last = frames[0].pos, frames[-1].pos
    old = np.setdiff1d(np.arange(400), new)
    assert np.array_equal(first[old], before[old])  # the first picture keeps every known row
    assert np.median(np.linalg.norm(last[old] - before[old], axis=1)) == 0.0  # most stay put
    assert np.linalg.norm(last[old] - before[old], axis=1).max() < 3 * scale
    for row in new:
        neighbours = np.concatenate([edges[edges[:, 0] == row, 1], edges[edges[:, 1] == row, 0]])
        assert np.linalg.norm(last[row] - last[neighbours].mean(axis=0)) < 2 * scale


def test_streaming_yields_start_first_fresh_arrays_and_ends_done() -> None:
    edges, _ = grid_graph(30)
    frames = list(stream_layout(inp(900, edges), seed=1))
    assert frames[0].stage == "start" and frames[0].iteration == 0
    assert frames[-1].stage == "done" and frames[-1].converged
    assert all(f.stage == "refine" for f in frames[1:-1])
    assert len({id(f.pos) for f in frames}) == len(frames)
    assert [f.iteration for f in frames] == sorted(f.iteration for f in frames)


def test_should_stop_and_seconds_end_the_run_early() -> None:
    edges, _ = grid_graph(30)
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    frames = list(stream_layout(inp(900, edges), should_stop=stop))
    assert frames[-1].stage == "done" and not frames[-1].converged
    assert frames[-1].iteration == 3
    short = list(stream_layout(inp(900, edges), seconds=1e-6))
    assert [f.stage for f in short] == ["start", "done"] and not short[-1].converged


def test_quality_and_overlap_measures() -> None:
    edges, truth = grid_graph(10)
    assert layout_quality(truth, edges) < 0.3
    rng = np.random.default_rng(0)
    assert 0.8 < layout_quality(rng.random((100, 2)), edges) < 1.2
    piled = truth.copy()
    piled[1] = piled[0]
    assert overlap_fraction(piled, edges) == pytest.approx(0.02)
    assert np.isnan(layout_quality(truth[:1], edges[:0]))


def test_the_local_field_of_an_incremental_run_agrees_with_the_whole_graphs() -> None:
    """``LocalForces`` (the moving rows only) and ``Forces`` (every row) give the moving rows
    the same forces, up to the mesh's smoothing among the moving rows."""
    from memgraph_gui.core.layout.forces import Forces
    from memgraph_gui.core.layout.local_forces import LocalForces
    from memgraph_gui.core.layout.start import clean_edges

    edges = ring_of_clusters(clusters=12, size=40)
    n = 480
    pos = compute_layout(inp(n, edges), seed=3)
    links = clean_edges(edges, n)
    movable = np.zeros(n, dtype=bool)
    movable[np.random.default_rng(0).choice(n, 40, replace=False)] = True
    whole = Forces(links, n).field(pos)[movable]
    local = LocalForces(links, pos, movable).field(pos)
    assert local.shape == whole.shape
    error = np.linalg.norm(local - whole, axis=1) / np.linalg.norm(whole, axis=1)
    assert np.median(error) < 0.1 and np.percentile(error, 90) < 0.3


def test_an_incremental_run_uses_the_local_field_only_for_few_moving_rows(monkeypatch) -> None:
    from memgraph_gui.core.layout import refine, stream

    used: list[str] = []
    real = refine.Refiner.__init__

    def spy(self, forces, *args, **kwargs):  # type: ignore[no-untyped-def]
        used.append(type(forces).__name__)
        real(self, forces, *args, **kwargs)

    monkeypatch.setattr(refine.Refiner, "__init__", spy)
    edges, _ = grid_graph(20)
    before = compute_layout(inp(400, edges), seed=1)
    start = before.copy()
    start[[5, 77]] = np.nan
    compute_layout(inp(400, edges, start=start), seed=1)
    monkeypatch.setattr(stream, "LOCAL_MAX", 3)  # more moving rows than that: the whole field
    compute_layout(inp(400, edges, start=start), seed=1)
    assert used == ["Forces", "LocalForces", "Forces"]


def test_the_local_field_keeps_the_near_repulsion_when_every_row_moves() -> None:
    from memgraph_gui.core.layout.forces import Forces
    from memgraph_gui.core.layout.local_forces import LocalForces

    links = np.array([[0, 1], [1, 2], [2, 3]], dtype=np.int64)
    pos = np.array([[0.0, 0.0], [1.0, 0.0], [1.05, 0.0], [2.0, 0.0]])
    for movable in (np.ones(4, dtype=bool), np.array([False, True, True, False])):
        whole = Forces(links, 4).field(pos)[movable]
        local = LocalForces(links, pos, movable).field(pos)
        assert np.allclose(local, whole, rtol=0.05, atol=0.05)


def test_refine_start_settles_every_row_from_the_given_picture() -> None:
    """An overview's picture as the start: kept as the first frame, every free row refined
    from it (as a full run), the shape and orientation kept (no jump to another picture)."""
    edges, truth = grid_graph(20)
    rng = np.random.default_rng(2)
    start = truth * 0.4 + rng.normal(scale=0.15, size=truth.shape)  # squeezed and noisy
    start[5] = np.nan  # a row the start does not have
    pinned = np.zeros(400, dtype=bool)
    pinned[0] = True
    given = inp(400, edges, start=start, pinned=pinned)
    frames = list(stream_layout(given, seed=1, refine_start=True))
    first, last = frames[0].pos, frames[-1].pos
    known = np.isfinite(start).all(axis=1)
    assert np.array_equal(first[known], start[known]) and np.isfinite(first).all()
    assert frames[-1].converged and frames[-1].iteration == FULL_ITERATIONS
    assert np.array_equal(last[0], start[0])  # pinned
    assert (np.linalg.norm(last - first, axis=1)[1:] > 0).mean() > 0.95  # every row refined
    assert layout_quality(last, edges) < layout_quality(first, edges)
    assert knn_preserved(last, truth) > 0.7
    for axis in (0, 1):  # the same picture, not a rotated or mirrored one
        assert np.corrcoef(last[known, axis], start[known, axis])[0, 1] > 0.95
    # without it, a start that knows every row is an incremental run with nothing to place
    whole = np.where(known[:, None], start, 0.0)
    kept = list(stream_layout(inp(400, edges, start=whole), seed=1))
    assert np.array_equal(kept[-1].pos, whole)

"""Layouts that show a memory's structure (issue 20): hubs do not pull everything into one
ball, twins do not pile up, weighted overview cuts, unfolding a rollup in place, and the
arrangement by time. No Qt, no store; nothing here is timed (tests/benchmarks/ measures)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial import cKDTree

from memgraph_gui.core.layout import (
    LayoutInput,
    arrange_by_time,
    compute_layout,
    layout_quality,
    overlap_fraction,
    place_unfolded,
    stream_layout,
)
from memgraph_gui.core.layout.forces import edge_pull
from memgraph_gui.core.layout.start import merge_edges
from memgraph_gui.core.layout.timeline import hilbert_cells


def inp(n: int, edges: np.ndarray, **extra: object) -> LayoutInput:
    return LayoutInput(tuple(f"n{i}" for i in range(n)), np.asarray(edges, np.int32), **extra)


def clusters_with_a_hub(clusters: int = 6, size: int = 80) -> tuple[np.ndarray, int]:
    """Random trees of ``size`` nodes joined in a ring, and one hub linked to every node (a
    protagonist in every event); the hub is the last row."""
    rng = np.random.default_rng(0)
    edges = []
    for c in range(clusters):
        base = c * size
        for i in range(1, size):
            edges += [(base + i, base + int(j)) for j in rng.choice(i, min(i, 2), replace=False)]
        edges.append((base, ((c + 1) % clusters) * size + 1))
    hub = clusters * size
    edges += [(hub, i) for i in range(hub)]
    return np.array(edges, np.int32), hub + 1


def test_a_hub_linked_to_everything_does_not_pull_the_clusters_into_one_ball() -> None:
    edges, n = clusters_with_a_hub()
    pos = compute_layout(inp(n, edges), seed=1)
    # plain FR pulls (before hub damping) scored 0.32 here; with it 0.17
    assert layout_quality(pos, edges) < 0.25
    body = pos[:-1].reshape(6, 80, 2)
    centres = body.mean(axis=1)
    spread = np.linalg.norm(body - centres[:, None], axis=2).mean()
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2)[~np.eye(6, dtype=bool)]
    assert spread < 0.6 * gaps.min()
    # the hub sits among its events, not off to one side
    assert np.linalg.norm(pos[-1] - pos[:-1].mean(axis=0)) < np.sqrt((body.var(axis=(0, 1))).sum())


def test_edge_pull_divides_by_the_busier_ends_weighted_degree() -> None:
    links = np.array([[0, 1], [0, 2], [0, 3], [3, 4]])
    pull = edge_pull(links, 5)
    raw = np.array([1 / 3, 1 / 3, 1 / 3, 1 / 2])
    assert np.allclose(pull, raw / raw.mean())
    weighted = edge_pull(links, 5, np.array([1.0, 1.0, 1.0, 4.0]))
    raw = np.array([1 / 3, 1 / 3, 1 / 5, 4 / 5])  # row 3's weighted degree is 1 + 4
    assert np.allclose(weighted, raw / raw.mean())


def story_with_twins(groups: int = 600) -> tuple[np.ndarray, int]:
    """Rollups of three events chained in time; the three share their rollup, their place and
    the protagonist, so PivotMDS gives them one point."""
    edges = []
    places = groups * 4
    hub = places + 20
    for g in range(groups):
        r = g * 4
        for k in (1, 2, 3):
            edges += [(r, r + k), (r + k, places + g * 20 // groups), (r + k, hub)]
        if g:
            edges.append((r, (g - 1) * 4))
    return np.array(edges, np.int32), hub + 1


def test_nodes_with_the_same_neighbours_do_not_stay_piled_up() -> None:
    edges, n = story_with_twins()
    pos = compute_layout(inp(n, edges), seed=0)
    assert overlap_fraction(pos, edges) == 0.0  # 80% of the nodes piled before the jitter


def test_weights_of_one_pair_add_up_and_bad_weights_are_dropped() -> None:
    edges = np.array([[0, 1], [1, 0], [1, 2], [2, 3], [3, 3]])
    links, weights = merge_edges(edges, 4, np.array([2.0, 3.0, np.nan, 0.5, 9.0]))
    assert links.tolist() == [[0, 1], [2, 3]] and weights.tolist() == [5.0, 0.5]
    links, weights = merge_edges(edges, 4)
    assert links.tolist() == [[0, 1], [1, 2], [2, 3]] and weights.tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="weights"):
        merge_edges(edges, 4, np.ones(3))


def weighted_cut(n: int = 3000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """An overview-like cut: each node merged-linked to a few earlier ones (counts 1-3) and
    every tenth node given one heavy link (count 40) to its successor."""
    rng = np.random.default_rng(seed)
    edges, weights = [], []
    for i in range(1, n):
        for j in rng.choice(i, min(i, 3), replace=False):
            edges.append((i, int(j)))
            weights.append(float(rng.integers(1, 4)))
    heavy = [(i, i + 1) for i in range(0, n - 1, 10)]
    return np.array(edges + heavy, np.int32), np.array(weights + [40.0] * len(heavy))


def test_a_weighted_cut_of_a_few_thousand_nodes_converges_and_heavy_links_are_short() -> None:
    edges, weights = weighted_cut()
    frames = list(stream_layout(inp(3000, edges, weights=weights), seconds=60, seed=0))
    last = frames[-1]
    assert last.stage == "done" and last.converged and np.isfinite(last.pos).all()
    length = np.linalg.norm(last.pos[edges[:, 0]] - last.pos[edges[:, 1]], axis=1)
    heavy = weights == 40.0
    assert np.median(length[heavy]) < 0.5 * np.median(length[~heavy])
    unweighted = compute_layout(inp(3000, edges), seconds=60, seed=0)
    plain = np.linalg.norm(unweighted[edges[:, 0]] - unweighted[edges[:, 1]], axis=1)
    assert np.median(length[heavy]) / np.median(length) < np.median(plain[heavy]) / np.median(plain)


def unfold_scene() -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """A finished layout of the twins story, with rollup 40's three events and rollup 400's
    three forgotten (as if folded), their parents known."""
    edges, n = story_with_twins()
    pos = compute_layout(inp(n, edges), seed=0)
    parents = np.full(n, -1)
    for g in range(600):
        parents[g * 4 + 1 : g * 4 + 4] = g * 4
    start = pos.copy()
    start[[41, 42, 43, 401, 402, 403]] = np.nan
    return start, parents, edges, n


def test_unfolded_children_sit_on_a_small_disc_around_their_rollup_and_nothing_else_moves() -> None:
    start, parents, edges, _ = unfold_scene()
    pos = place_unfolded(start, parents, edges)
    known = np.isfinite(start).all(axis=1)
    assert np.array_equal(pos[known], start[known])  # exactly: nothing else moved
    tree = cKDTree(start[known])
    known_rows = np.flatnonzero(known)
    for parent, kids in ((40, [41, 42, 43]), (400, [401, 402, 403])):
        at = pos[kids]
        mine = edges[((edges == parent).any(axis=1)) & known[edges].all(axis=1)]
        local = np.median(np.linalg.norm(start[mine[:, 0]] - start[mine[:, 1]], axis=1))
        assert np.isfinite(at).all()
        assert (np.linalg.norm(at - pos[parent], axis=1) <= local).all()  # near the rollup
        pairs = np.linalg.norm(at[:, None] - at[None], axis=2)[~np.eye(3, dtype=bool)]
        room = tree.query(start[parent], k=2)[0][1]  # to the rollup's nearest other node
        assert pairs.min() >= 0.25 * room  # spread out in the space they have, not piled
        nearest = known_rows[tree.query(at)[1]]
        assert (nearest == parent).all()  # closer to their rollup than to any other node


@pytest.mark.parametrize("count", [5, 50])
def test_children_spread_on_a_disc_in_the_room_they_have(count: int) -> None:
    start = np.array([[0.0, 0.0], [10.0, 0.0]] + [[np.nan, np.nan]] * count)
    parents = np.array([-1, -1] + [0] * count)
    edges = np.array([[0, 1]] + [[0, i] for i in range(2, count + 2)])
    pos = place_unfolded(start, parents, edges)
    kids = pos[2:]
    assert np.array_equal(pos[:2], start[:2])
    nearest = cKDTree(kids).query(kids, k=2)[0][:, 1]
    if count == 5:  # room for half an edge between them within the free space
        assert np.linalg.norm(kids, axis=1).max() <= 0.45 * 10 + 1e-9
        assert nearest.min() > 0.2 * 10
    else:  # crowded: the disc grows past the free space rather than pile them up
        assert nearest.min() > 0.1 * 10


def test_an_unfolded_row_without_a_known_parent_goes_to_its_neighbours() -> None:
    start = np.array([[0.0, 0.0], [4.0, 0.0], [np.nan, np.nan]])
    pos = place_unfolded(start, np.array([-1, -1, -1]), np.array([[0, 2], [1, 2]]), seed=3)
    assert abs(pos[2, 0] - 2.0) < 2.0 and np.array_equal(pos[:2], start[:2])


def test_the_hilbert_curve_steps_to_an_adjacent_cell_and_its_start_never_changes() -> None:
    cells = hilbert_cells(np.arange(4**5))
    assert (np.abs(np.diff(cells, axis=0)).sum(axis=1) == 1).all()
    assert len({tuple(c) for c in cells}) == 4**5
    # the first 4^k cells fill a 2^k square, whatever the length
    assert cells[: 4**3].max() == 7 and np.array_equal(hilbert_cells(np.arange(64)), cells[:64])


def timeline_memory() -> dict[str, np.ndarray]:
    """27 events (seqs shuffled across rows), 9 L1 rollups of 3, 3 L2 rollups of 3 L1s, and 3
    entities: one in every event, one in events 0-5, one linked to nothing."""
    rng = np.random.default_rng(4)
    n_events = 27
    seqs = np.concatenate([rng.permutation(n_events) + 1.0, np.zeros(9 + 3 + 3)])
    order = np.argsort(seqs[:n_events])  # event rows by time
    parents = np.full(n_events + 15, -1)
    for k in range(9):
        parents[order[3 * k : 3 * k + 3]] = n_events + k  # L1 k holds the k-th three in time
        parents[n_events + k] = n_events + 9 + k // 3
    lead, side, lonely = n_events + 12, n_events + 13, n_events + 14
    edges = [(lead, e) for e in range(n_events)] + [(e, side) for e in order[:6]]
    edges += [(n_events + k, order[3 * k]) for k in range(9)]  # contains links
    timeline = np.arange(n_events + 15) < n_events + 12
    return {
        "seqs": seqs,
        "parents": parents,
        "edges": np.array(edges),
        "timeline": timeline,
        "order": order,
        "lead": np.array(lead),
        "side": np.array(side),
        "lonely": np.array(lonely),
    }


def test_arrange_by_time_puts_leaves_along_the_curve_in_seq_order() -> None:
    m = timeline_memory()
    ids = [f"n{i}" for i in range(len(m["seqs"]))]
    pos = arrange_by_time(ids, m["seqs"], m["parents"], m["edges"], on_timeline=m["timeline"])
    assert pos.shape == (len(ids), 2) and np.isfinite(pos).all()
    along = pos[m["order"]]
    assert np.allclose(along, hilbert_cells(np.arange(27)))  # the k-th in time on cell k
    assert (np.abs(np.diff(along, axis=0)).sum(axis=1) == 1).all()  # time neighbours adjacent


def test_arrange_by_time_puts_rollups_at_the_centre_and_entities_at_their_events() -> None:
    m = timeline_memory()
    ids = [f"n{i}" for i in range(len(m["seqs"]))]
    pos = arrange_by_time(
        ids, m["seqs"], m["parents"], m["edges"], on_timeline=m["timeline"], spacing=2.0
    )
    for rollup in range(27, 39):
        children = np.flatnonzero(m["parents"] == rollup)
        assert np.allclose(pos[rollup], pos[children].mean(axis=0))
    assert np.allclose(pos[m["lead"]], pos[:27].mean(axis=0))
    assert np.allclose(pos[m["side"]], pos[m["order"][:6]].mean(axis=0))
    lonely = pos[m["lonely"]]
    assert lonely[1] < pos[:27, 1].min()  # linked to nothing: under the curve


def test_a_new_event_lands_at_the_end_and_nothing_else_moves() -> None:
    m = timeline_memory()
    n = len(m["seqs"])
    ids = [f"n{i}" for i in range(n)]
    before = arrange_by_time(ids, m["seqs"], m["parents"], m["edges"], on_timeline=m["timeline"])
    seqs = np.append(m["seqs"], 100.0)
    parents = np.append(m["parents"], -1)
    timeline = np.append(m["timeline"], True)
    edges = np.vstack([m["edges"], [[m["lead"], n]]])
    after = arrange_by_time([*ids, "new"], seqs, parents, edges, on_timeline=timeline)
    assert np.array_equal(after[:27], before[:27])
    assert np.array_equal(after[n], hilbert_cells(np.array([27]))[0])
    with pytest.raises(ValueError, match="seqs and parents"):
        arrange_by_time(ids, m["seqs"][:3], m["parents"], m["edges"])


def test_arrange_by_time_copes_with_nothing_and_with_a_cycle_of_parents() -> None:
    assert arrange_by_time([], [], [], np.zeros((0, 2))).shape == (0, 2)
    # rows 0 and 1 name each other as parent (a broken store): placed, never NaN
    pos = arrange_by_time(["a", "b", "c"], [1, 2, 3], [1, 0, -1], np.zeros((0, 2)))
    assert np.isfinite(pos).all()
    # without on_timeline, rows in the rollup tree are the timeline and the others entities
    pos = arrange_by_time(["r", "e1", "e2", "who"], [2, 1, 2, 0], [-1, 0, 0, -1], [[3, 1]])
    assert np.allclose(pos[3], pos[1]) and np.allclose(pos[0], pos[1:3].mean(axis=0))


def test_the_local_field_agrees_with_the_whole_graphs_with_weights() -> None:
    from memgraph_gui.core.layout.forces import Forces
    from memgraph_gui.core.layout.local_forces import LocalForces

    edges, weights = weighted_cut(400)
    links, merged = merge_edges(edges, 400, weights)
    pull = edge_pull(links, 400, merged)
    pos = np.random.default_rng(2).normal(scale=8.0, size=(400, 2))
    movable = np.zeros(400, dtype=bool)
    movable[[3, 50, 51, 200]] = True
    whole = Forces(links, 400, pull).field(pos)[movable]
    local = LocalForces(links, pos, movable, pull).field(pos)
    assert np.allclose(local, whole, rtol=0.05, atol=0.05 * np.abs(whole).max())


def test_unfolding_two_levels_puts_grandchildren_on_smaller_discs_around_their_parent() -> None:
    # a known rollup 0 beside another node 1; 2 and 3 are its children, 4-6 the children of 2
    start = np.array([[0.0, 0.0], [10.0, 0.0]] + [[np.nan, np.nan]] * 5)
    parents = np.array([-1, -1, 0, 0, 2, 2, 2])
    edges = np.array([[0, 1], [0, 2], [0, 3], [2, 4], [2, 5], [2, 6]])
    pos = place_unfolded(start, parents, edges)
    assert np.isfinite(pos).all() and np.array_equal(pos[:2], start[:2])
    others = np.delete(np.arange(7), [2, 4, 5, 6])
    for kid in (4, 5, 6):
        to_parent = np.linalg.norm(pos[kid] - pos[2])
        assert to_parent < np.linalg.norm(pos[others] - pos[kid], axis=1).min()
    assert np.linalg.norm(pos[4:] - pos[2], axis=1).max() < np.linalg.norm(pos[2] - pos[0])

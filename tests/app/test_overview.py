"""The overview's cuts and projected links are Luker's own: every shown row is what
``getNearestVisibleAncestor`` returns for the rows it stands for, and every merged line's count is
the sum of ``projectEdges`` weights between its two rows (with ``visibleIds`` = the shown rows)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from memgraph_gui.app import overview
from memgraph_gui.app.graph_data import store_snapshot
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import load_demo


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> MemoryStore:
    path = tmp_path_factory.mktemp("overview") / "story.memgraph"
    store = MemoryStore.open(path)
    load_demo(store, 1_500, seed=7)
    api = store.write_api()
    with store.reading() as graph:  # an archived rollup in the middle of a chain blocks the walk
        middle = next(n for n in graph.nodes.values() if n.semantic_depth == 2 and n.parent_id)
    api.archive_node(id=middle.id)
    return store


def _tree(snap: object) -> overview.Tree:
    return overview.Tree(snap.parents, snap.depths, ~snap.rollups)  # type: ignore[attr-defined]


def _luker_rep(
    store: MemoryStore, ids: tuple[str, ...], shown: list[str], rows: np.ndarray
) -> list[str]:
    read = store.read_api()
    out = []
    for row in rows:
        node = read.get_nearest_visible_ancestor(ids[row], visible_node_ids=shown)
        out.append(node.id if node is not None else "")
    return out


@pytest.mark.parametrize("level", [overview.ALL, 0, 1, 2, 3, overview.TOP])
def test_a_cut_shows_what_lukers_nearest_visible_ancestor_finds(store, level) -> None:
    snap = store_snapshot(store)
    tree = _tree(snap)
    cut = overview.cut(tree, level)
    shown = [snap.ids[r] for r in np.flatnonzero(cut.shown)]
    rows = np.random.default_rng(level % 97).choice(tree.n, 300, replace=False)
    ours = [snap.ids[cut.rep[r]] if cut.rep[r] >= 0 else "" for r in rows]
    assert ours == _luker_rep(store, snap.ids, shown, rows)
    if level not in (overview.ALL, 0):
        assert cut.count < tree.n and len(cut.folded()) > 0
    assert cut.held.sum() == int((~snap.rollups)[cut.rep >= 0].sum())


def test_opened_and_closed_rollups_change_the_cut_as_luker_sees_it(store) -> None:
    snap = store_snapshot(store)
    tree = _tree(snap)
    top = overview.cut(tree, overview.TOP)
    opened = np.zeros(tree.n, dtype=bool)
    opened[top.folded()[:5]] = True  # unfold five top rollups one level
    cut = overview.cut(tree, overview.TOP, opened=opened)
    assert not cut.shown[opened].any()
    children = np.flatnonzero(np.isin(snap.parents, np.flatnonzero(opened)))
    assert cut.shown[children].all()
    closed = np.zeros(tree.n, dtype=bool)
    closed[np.flatnonzero(snap.depths == 1)[:4]] = True
    cut = overview.cut(tree, 0, closed=closed)
    assert cut.shown[closed].all()
    under = np.flatnonzero(np.isin(snap.parents, np.flatnonzero(closed)))
    assert len(under) and not cut.shown[under].any()
    shown = [snap.ids[r] for r in np.flatnonzero(cut.shown)]
    rows = np.random.default_rng(3).choice(tree.n, 200, replace=False)
    ours = [snap.ids[cut.rep[r]] if cut.rep[r] >= 0 else "" for r in rows]
    assert ours == _luker_rep(store, snap.ids, shown, rows)


@pytest.mark.parametrize("level", [0, 2, overview.TOP])
def test_merged_lines_count_what_lukers_project_edges_weighs(store, level) -> None:
    snap = store_snapshot(store)
    tree = _tree(snap)
    cut = overview.cut(tree, level)
    links = overview.project(cut.rep, snap.edges, snap.hierarchy)
    ours = {
        (snap.ids[a], snap.ids[b]): int(c)
        for (a, b), c in zip(links.pairs.tolist(), links.counts.tolist(), strict=True)
    }
    shown = [snap.ids[r] for r in np.flatnonzero(cut.shown)]
    luker: Counter[tuple[str, str]] = Counter()
    for edge in store.read_api().project_edges(visible_node_ids=shown, exclude_internal=True):
        a, b = sorted((edge.from_id, edge.to_id), key=snap.ids.index)
        luker[(a, b)] += edge.weight
    assert ours == dict(luker)
    assert sum(ours.values()) > 0


def test_the_prompt_view_is_the_visible_set_with_edges_projected_onto_it(store) -> None:
    snap = store_snapshot(store)
    tree = _tree(snap)
    visible_ids = set(store.read_api().get_injection_state().visible_ids)
    visible = np.fromiter((i in visible_ids for i in snap.ids), bool, len(snap.ids))
    cut = overview.visible_cut(tree, visible)
    assert set(np.flatnonzero(cut.shown)) == set(np.flatnonzero(visible))
    rows = np.random.default_rng(5).choice(tree.n, 300, replace=False)
    shown = [snap.ids[r] for r in np.flatnonzero(visible)]
    ours = [snap.ids[cut.rep[r]] if cut.rep[r] >= 0 else "" for r in rows]
    assert ours == _luker_rep(store, snap.ids, shown, rows)


def test_the_level_chosen_at_fit_is_the_deepest_within_the_budget(store) -> None:
    tree = _tree(store_snapshot(store))
    assert overview.level_for(tree, budget=tree.n) == overview.ALL
    level = overview.level_for(tree, budget=400)
    assert overview.cut(tree, level).count <= 400
    if level > 0:
        assert overview.cut(tree, level - 1).count > 400


def test_the_edge_budget_keeps_each_nodes_strongest_lines_and_leaves_hubs_out() -> None:
    # rows 0..5; row 0 a hub linked to everyone; row 1 linked to 2,3,4,5 with counts 5,4,3,2
    pairs = np.array([[0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 2], [1, 3], [1, 4], [1, 5]])
    counts = np.array([9, 9, 9, 9, 9, 5, 4, 3, 2])
    links = overview.Links(pairs, counts)
    hubs = np.array([True, False, False, False, False, False])
    kept = overview.budget(links, 6, per_node=2, hubs=hubs)
    drawn = {tuple(p) for p in pairs[kept.drawn].tolist()}
    assert not any(0 in p for p in drawn)  # lines to the hub are left out...
    assert kept.left_out[0] == 45  # ...and counted on it (the "+N links" cue)
    assert (1, 2) in drawn and (1, 3) in drawn  # row 1's two strongest
    assert (1, 4) in drawn and (1, 5) in drawn  # kept by rows 4 and 5 as their strongest
    few = overview.budget(overview.Links(pairs[5:], counts[5:]), 6, per_node=1, hubs=hubs)
    assert {tuple(p) for p in pairs[5:][few.drawn].tolist()} == {(1, 2), (1, 3), (1, 4), (1, 5)}

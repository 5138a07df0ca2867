"""``memgraph demo`` grows like a long role-play (story shape) unless asked for the earlier
uniform shape, which stays exactly as it was so its measurements can be repeated."""

from __future__ import annotations

import hashlib
import json
import statistics
from collections import Counter, defaultdict

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import generate, load_demo
from memgraph_gui.core.domain.model import Edge, Node

HIERARCHY = {"contains", "semantic_contains"}


def _digest(nodes: list[Node], edges: list[Edge]) -> str:
    blob = json.dumps(
        [[n.to_json() for n in nodes], [list(e) for e in edges]],
        sort_keys=True,
        ensure_ascii=False,
        default=list,
    )
    return hashlib.sha256(blob.encode()).hexdigest()


def test_the_uniform_shape_is_the_earlier_demo_exactly() -> None:
    """The digest of the demo before the story shape existed (600 nodes, seed 3)."""
    nodes, edges, _meta = generate(600, 3, "uniform")
    assert _digest(nodes, edges) == (
        "7082fc6394f74c3d83edc3b9252d9408f68cc0fb9cb703415779a10b8bcf38ba"
    )


def test_an_unknown_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown demo shape"):
        generate(100, 1, "spiral")


@pytest.fixture(scope="module")
def story() -> tuple[list[Node], list[Edge]]:
    nodes, edges, _meta = generate(12_000, 11)
    return nodes, edges


def _leaves(nodes: list[Node]) -> list[Node]:
    return [n for n in nodes if n.type == "event" and not n.semantic_rollup]


def test_the_protagonist_is_in_a_third_of_the_events_and_the_user_in_a_sixth(story) -> None:
    nodes, edges = story
    leaves = {n.id for n in _leaves(nodes)}
    involved = Counter(e.to_id for e in edges if e.type == "involved_in" and e.from_id in leaves)
    (lead, lead_count), (_second, _), *_ = involved.most_common()
    assert lead == "n_1"  # the first character
    assert 0.29 < lead_count / len(leaves) < 0.38
    assert 0.13 < involved["n_2"] / len(leaves) < 0.20
    degree = Counter([e.from_id for e in edges] + [e.to_id for e in edges])
    _, uniform_edges, _ = generate(12_000, 11, "uniform")
    uniform = Counter([e.from_id for e in uniform_edges] + [e.to_id for e in uniform_edges])
    assert degree["n_1"] > 20 * max(uniform.values())  # a hub, where uniform has none


def test_characters_places_and_threads_are_active_in_arcs_of_time(story) -> None:
    nodes, edges = story
    seq = {n.id: n.seq_to for n in nodes}
    turns = max(seq[n.id] for n in _leaves(nodes))
    entities = {n.id for n in nodes if n.type != "event"} - {"n_1", "n_2"}
    when: dict[str, list[int]] = defaultdict(list)
    for e in edges:
        if e.type not in HIERARCHY and e.to_id in entities and e.from_id in seq:
            when[e.to_id].append(seq[e.from_id])
    busy = [sorted(t) for t in when.values() if len(t) >= 20]
    assert len(busy) > 30
    # the middle 80% of an entity's events span a small part of the chat (uniform: ~80% of it)
    spans = [(t[int(0.9 * len(t))] - t[int(0.1 * len(t))]) / turns for t in busy]
    assert statistics.median(spans) < 0.3


def test_popularity_is_skewed_a_few_everywhere_most_rare(story) -> None:
    nodes, edges = story
    chars = {n.id for n in nodes if n.type == "character_sheet"} - {"n_1", "n_2"}
    count = Counter(e.to_id for e in edges if e.type == "involved_in" and e.to_id in chars)
    ranked = sorted((count.get(c, 0) for c in chars), reverse=True)
    top_tenth = sum(ranked[: len(ranked) // 10])
    assert top_tenth > 0.5 * sum(ranked)  # Zipf: the top 10% take most of the appearances
    assert statistics.median(ranked) < 0.2 * ranked[0]


def test_the_story_demo_leaves_groups_for_the_compaction_wizard(tmp_path) -> None:
    store = MemoryStore.open(tmp_path / "d.memgraph")
    load_demo(store, 2_000, seed=1)
    groups = store.read_api().compaction_candidates(type="event", depth=0)
    assert len(groups.groups) >= 3
    uniform = MemoryStore.open(tmp_path / "u.memgraph")
    load_demo(uniform, 2_000, seed=1, shape="uniform")
    assert not uniform.read_api().compaction_candidates(type="event", depth=0).groups
    store.close()
    uniform.close()


def test_both_shapes_have_the_same_nodes_and_about_three_edges_each() -> None:
    for shape in ("story", "uniform"):
        nodes, edges, meta = generate(5_000, 4, shape)
        assert len(nodes) == 5_000 and meta["nodeSeq"] == 5_000
        assert 2.8 < len(edges) / len(nodes) < 3.4
        ids = {n.id for n in nodes}
        assert all(e.from_id in ids and e.to_id in ids for e in edges)


def test_the_cli_takes_the_shape_and_refuses_an_unknown_one(tmp_path) -> None:
    import os
    import subprocess
    import sys

    from tests.core.processes import ROOT

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    base = [sys.executable, "-m", "memgraph_gui.cli", "--db"]
    flat = tmp_path / "flat.memgraph"
    done = subprocess.run(
        [*base, str(flat), "demo", "--nodes", "600", "--seed", "3", "--shape", "uniform"],
        env=env,
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr
    with MemoryStore.open(flat) as store, store.reading() as graph:
        nodes = sorted(graph.nodes.values(), key=lambda n: int(n.id[2:]))
        assert [n.to_json() for n in nodes] == [n.to_json() for n in generate(600, 3, "uniform")[0]]
    bad = tmp_path / "bad.memgraph"
    done = subprocess.run(
        [*base, str(bad), "demo", "--shape", "spiral"], env=env, capture_output=True
    )
    assert done.returncode == 2 and b"spiral" in done.stderr and not bad.exists()

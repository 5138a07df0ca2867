"""Contract tests for issue 13's exactness points: ``expandFromSeeds`` with a pool,
``getNearestVisibleAncestor`` / ``projectEdges`` without ``visibleNodeIds``, the recorded order of
``visibleIds``. Built from the seed's text and ``luker-store-format.md``; ``luker_reference`` restates
Luker's drill and projection step for step and serves as the oracle on the demo store."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import luker_reference as luker
import pytest
from graph_builders import (
    DRILL_EDGES,
    DRILL_NODES,
    char,
    edge,
    ids,
    load,
    load_cyclic,
    load_store,
    node,
)

from memgraph_gui.cli import main
from memgraph_gui.core import MemoryStore, jsonapi, open_session
from memgraph_gui.core.domain.results import ProjectedEdge
from memgraph_gui.core.graph import drill as drill_module
from memgraph_gui.core.luker.interop import export_luker, import_luker

NODES = DRILL_NODES
EDGES = [*DRILL_EDGES, edge("p2", "c", "related")]


@pytest.fixture
def api(store: Any) -> Any:
    return load(store, NODES, EDGES)


def drill(api: Any, seeds: list[str], **options: Any) -> list[str]:
    return ids(api.expand_from_seeds(seeds, **options))


# -- expandFromSeeds with a pool -------------------------------------------------------------------


def test_pool_comes_first_in_its_own_order(api: Any) -> None:
    assert drill(api, ["a"], project_to=["x", "c", "b"]) == ["x", "c", "b", "a"]
    assert drill(api, ["a"], project_to=["c", "x", "b"]) == ["c", "x", "b", "a"]


def test_pool_ids_trimmed_deduplicated_and_only_live_nodes(api: Any) -> None:
    pool = [" b", "b", "", "dead", "ghost", "c ", "c"]
    assert drill(api, ["a"], project_to=pool) == ["b", "c", "a"]


def test_a_pooled_seed_keeps_its_pool_place(api: Any) -> None:
    assert drill(api, ["a"], project_to=["b", "a", "c"]) == ["b", "a", "c"]


def test_unknown_seeds_answer_the_pool_and_no_seeds_answer_nothing(api: Any) -> None:
    assert drill(api, ["ghost"], project_to=["c", "b"]) == ["c", "b"]
    assert drill(api, [], project_to=["c", "b"]) == []
    assert drill(api, ["dead"], project_to=["c"]) == ["c", "dead"]  # kept, never expanded


def test_hops_reach_only_the_candidate_set_and_children(api: Any) -> None:
    # b is pooled and one hop away; c is pooled and two hops away; x is adjacent but not pooled.
    assert drill(api, ["a"], project_to=["c", "b"]) == ["c", "b", "a"]
    assert drill(api, ["a"], project_to=["c", "b"], hops=2) == ["c", "b", "a"]
    assert drill(api, ["p2"], project_to=["c"]) == ["c", "p2", "k1"]  # child k1 is not pooled
    assert drill(api, ["p2"], project_to=["c"], include_children=False) == ["c", "p2"]
    # c's first hop reaches the pooled p2 over p2 -> c, the second hop p2's child k1
    assert drill(api, ["c"], project_to=["p2"]) == ["p2", "c"]
    assert drill(api, ["c"], project_to=["p2"], hops=2) == ["p2", "c", "k1"]
    assert drill(api, ["c"], project_to=[], hops=2) == ["c"]  # p2 is not in the set


def test_edges_are_projected_onto_the_set(api: Any) -> None:
    # e1 -> a reaches a through e1's nearest pooled ancestor, the rollup r1.
    assert drill(api, ["a"], project_to=["r1"]) == ["r1", "a"]
    assert drill(api, ["r1"], project_to=["a"]) == ["a", "r1", "e1", "e2"]


def test_children_before_edge_neighbours_in_store_order(store: Any) -> None:
    api = load(
        store,
        [
            char("hub", childrenIds=["k2", "k1"]),
            char("k1", parentId="hub"),
            char("k2", parentId="hub"),
        ]
        + [char(i) for i in ("n1", "n2", "n3")],
        [
            edge("n3", "hub", "related"),
            edge("hub", "n1", "mentions"),
            edge("n2", "hub", "evidence"),
        ],
    )
    assert drill(api, ["hub"], project_to=["n1", "n2", "n3"]) == [
        *("n1", "n2", "n3", "hub"),
        *("k2", "k1"),
    ]
    assert drill(api, ["hub"], project_to=["n1", "n2", "n3"], hops=2) == [
        *("n1", "n2", "n3", "hub", "k2", "k1"),
    ]


def test_seeds_share_one_candidate_set(api: Any) -> None:
    # r1's hop adds e1; a's hop then sees e1 in the set and reaches it over e1 -> a.
    assert drill(api, ["r1", "a"], project_to=[]) == ["r1", "e1", "e2", "a"]
    assert drill(api, ["a", "r1"], project_to=[]) == ["a", "r1", "e1", "e2"]


def test_exclude_internal_drops_the_seeds_children(api: Any) -> None:
    assert drill(api, ["r1"], project_to=["e1", "b"]) == ["e1", "b", "r1", "e2"]
    assert drill(api, ["r1"], project_to=["e1", "b"], exclude_internal=True) == ["b", "r1"]
    kept = drill(api, ["r1"], project_to=["e1", "b"], exclude_internal=True, include_children=False)
    assert kept == ["e1", "b", "r1"]
    assert drill(api, ["r1", "e1"], project_to=[], exclude_internal=True) == ["r1", "e1"]
    # and, as the seed says, contains edges take no part: a -> s is not followed
    assert drill(api, ["a"], project_to="raw", exclude_internal=True) == ["a", "e1", "b"]


def test_exclude_internal_follows_no_contains_edge_inside_a_pool(store: Any) -> None:
    api = load(
        store,
        [char("q"), char("holder", childrenIds=["kid"]), char("kid", parentId="holder")],
        [edge("q", "holder", "contains")],
    )
    assert drill(api, ["q"], project_to=["holder"], hops=2) == ["holder", "q", "kid"]
    assert drill(api, ["q"], project_to=["holder"], hops=2, exclude_internal=True) == [
        "holder",
        "q",
    ]


def test_raw_drills_the_whole_store(api: Any) -> None:
    assert drill(api, ["a"], project_to="raw") == ["a", "e1", "b", "s"]
    assert drill(api, ["a"], project_to="raw", hops=2) == ["a", "e1", "b", "s", "r1", "c"]


def test_default_pool_is_the_recorded_visible_ids_in_recorded_order(store: Any) -> None:
    api = load(store, NODES, EDGES)
    assert api.list_visible_candidates()  # a candidate pool exists, yet nothing is recorded
    assert drill(api, ["a"]) == ["a"]
    assert drill(api, ["a"], project_to="visible") == ["a"]
    store.write_api().set_injection_state({"visibleIds": ["x", "c", "b"]})
    assert drill(api, ["a"]) == ["x", "c", "b", "a"]
    assert drill(api, ["a"], project_to=None, hops=2) == ["x", "c", "b", "a"]
    store.write_api().set_injection_state({"recallSelectedIds": ["a"]})  # other keys keep the order
    assert drill(api, ["r1"]) == ["x", "c", "b", "r1", "e1", "e2"]


def test_expand_through_the_json_boundary_and_the_session(store: Any) -> None:
    load_store(store, NODES, EDGES)
    out = jsonapi.call(store, "expandFromSeeds", [["a"], {"projectTo": ["c", "b"]}])
    assert [n["id"] for n in out] == ["c", "b", "a"]
    session = open_session(store)
    assert ids(session.expand_from_seeds(["a"], project_to=["c", "b"])) == ["c", "b", "a"]
    store.write_api().set_injection_state({"visibleIds": ["x", "b"]})
    assert ids(session.expand_from_seeds(["a"])) == ["x", "b", "a"]


# -- agreement with Luker's drill and projection on the demo store --------------------------------


@pytest.mark.parametrize("walk", ["as chosen", "edge by edge", "over the arrays"])
def test_drill_agrees_with_luker_on_the_demo(
    demo_store: Any, walk: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each way a hop can run (walking its frontier's edges one by one, or over the structure
    arrays for the whole frontier at once) answers as Luker does."""
    if walk != "as chosen":
        small = walk == "edge by edge"
        monkeypatch.setattr(drill_module, "_small", lambda *_a, **_k: small)
    doc, api, rng = export_luker(demo_store), demo_store.read_api(), random.Random(13)
    everyone = list(doc["nodes"])
    hubs = sorted(everyone, key=lambda i: -sum(i in (e["from"], e["to"]) for e in doc["edges"]))
    for trial in range(24):
        pool = rng.sample(everyone, rng.choice([0, 30, 200, 400]))
        seeds = rng.sample(hubs[:20], rng.choice([1, 1, 2, 3])) + rng.sample(everyone, trial % 2)
        hops, children = rng.choice([1, 2, 3]), rng.random() < 0.7
        kinds = rng.choice([None, ["mentions", " Related "], ["contains", "involved_in"]])
        internal = trial % 4 == 3
        ours = drill(
            api,
            seeds,
            project_to=pool,
            hops=hops,
            edge_types=kinds,
            include_children=children,
            exclude_internal=internal,
        )
        # Luker itself keeps contains edges in an excludeInternal drill; the seed takes them out.
        types = [t for t in kinds or luker.DEFAULT_RELATIONS if t not in luker.INTERNAL] or ["-"]
        expected = luker.drill(
            doc,
            seeds,
            pool,
            hops=hops,
            edge_types=types if internal else kinds,
            include_children=children,
            exclude_internal=internal,
        )
        assert ours == expected, (trial, seeds, hops, kinds, internal)


def test_project_edges_agree_with_luker_on_the_demo(demo_store: Any) -> None:
    doc, api, rng = export_luker(demo_store), demo_store.read_api(), random.Random(7)
    everyone = list(doc["nodes"])
    candidates = [n.id for n in api.list_visible_candidates()]
    for visible in (candidates, everyone, *(rng.sample(everyone, k) for k in (40, 300, 550))):
        for kinds in (None, ["Mentions", "allied_with", "hostile_to"], ["contains"]):
            for internal in (True, False):
                ours = api.project_edges(
                    visible_node_ids=visible, edge_types=kinds, exclude_internal=internal
                )
                expected = luker.project_edges(doc, visible, kinds, internal)
                assert [e.to_json() for e in ours] == expected


def test_projection_and_drill_survive_a_parent_cycle(store: Any) -> None:
    # The importer refuses parent cycles, but a store may hold one: a walk up ends at the cycle.
    cyclic = [node("x", parentId="y"), node("y", parentId="x"), char("z")]
    links = [("x", "z", "mentions"), ("y", "z", "related")]
    api = load_cyclic(store, cyclic, links)
    assert api.project_edges(visible_node_ids=["z", "q"]) == ()
    assert [e.to_json() for e in api.project_edges(visible_node_ids=["y", "z"])] == [
        {"from": "y", "to": "z", "type": "mentions", "weight": 1},
        {"from": "y", "to": "z", "type": "related", "weight": 1},
    ]
    assert drill(api, ["z"], project_to=["y"]) == ["y", "z"]
    assert drill(api, ["z"], project_to=["q"]) == ["z"]


def test_projected_edges_from_columns_are_ordinary_frozen_edges() -> None:
    built = ProjectedEdge.from_columns(["a", "b"], ["c", "d"], ["t", "u"], [1, 2])
    assert built == (ProjectedEdge("a", "c", "t", 1), ProjectedEdge("b", "d", "u", 2))
    assert hash(built[1]) == hash(ProjectedEdge("b", "d", "u", 2))
    with pytest.raises(AttributeError):
        built[0].weight = 3  # type: ignore[misc]
    assert ProjectedEdge.from_columns([], [], [], []) == ()


def test_projected_edges_is_a_frozen_sequence_read_from_columns() -> None:
    from memgraph_gui.core.domain.results import ProjectedEdges

    columns = (["a", "b", "a"], ["c", "d", "d"], ["t", "u", "t"], [1, 2, 5])
    edges = ProjectedEdges(*columns)
    expected = tuple(map(ProjectedEdge, *columns))
    assert len(edges) == 3 and edges == expected and edges == list(expected) and expected == edges
    assert edges[1] == expected[1] and edges[-1] == expected[-1] and edges[1:] == expected[1:]
    assert list(edges) == list(expected) and edges.index(expected[2]) == 2
    assert edges != expected[:2] and edges != (*expected[:2], ProjectedEdge("a", "d", "t", 4))
    assert edges == ProjectedEdges(*columns) and hash(edges) == hash(ProjectedEdges(*columns))
    assert edges.to_json() == [e.to_json() for e in expected]
    assert ProjectedEdges() == () and ProjectedEdges().to_json() == []
    columns[0][0] = "z"  # the caller's lists are copied
    assert edges[0].from_id == "a"
    with pytest.raises(IndexError):
        edges[3]
    with pytest.raises(ValueError, match="differ in length"):
        ProjectedEdges(["a"], [], [], [])


# -- a missing visibleNodeIds is the empty set, on every surface -----------------------------------


def test_missing_visible_ids_answer_null_and_empty_through_the_json_boundary(store: Any) -> None:
    load_store(store, NODES, EDGES)
    for arguments in (["a"], ["a", {}], ["a", None], ["a", {"visibleNodeIds": None}]):
        assert jsonapi.call(store, "getNearestVisibleAncestor", arguments) is None
    for arguments in ([], [{}], [None], [{"visibleNodeIds": None, "edgeTypes": ["mentions"]}]):
        assert jsonapi.call(store, "projectEdges", arguments) == []


def test_missing_visible_ids_answer_null_and_empty_on_the_command_line(tmp_path: Path) -> None:
    path = str(tmp_path / "cli.memgraph")
    with MemoryStore.open(path) as s:
        load_store(s, NODES, EDGES)
    for method, arguments, answer in (
        ("getNearestVisibleAncestor", '["a"]', None),
        ("getNearestVisibleAncestor", '["a", {}]', None),
        ("projectEdges", "[]", []),
        ("projectEdges", '[{"excludeInternal": false}]', []),
    ):
        out = io.StringIO()
        code = main(["--db", path, "call", method, arguments], stdout=out)
        assert (code, json.loads(out.getvalue())) == (0, {"result": answer}), method


# -- visibleIds keep the order they were recorded in -----------------------------------------------


def test_recorded_visible_order_survives_reopen_and_export(tmp_path: Path) -> None:
    path = tmp_path / "v.memgraph"
    with MemoryStore.open(path) as s:
        load_store(s, NODES, EDGES)
        s.write_api().set_injection_state({"visibleIds": ["x", " c", "b", "c", "a"]})
        s.write_api().set_injection_state({"alwaysInjectIds": ["r1"]})
        doc = export_luker(s)
    with MemoryStore.open(path) as s:
        assert s.read_api().get_injection_state().to_json()["visibleIds"] == ["x", "c", "b", "a"]
    assert doc["memgraph"]["injection"]["visibleIds"] == ["x", "c", "b", "a"]
    with MemoryStore.open(tmp_path / "copy.memgraph") as copy:
        import_luker(copy, doc)
        state = copy.read_api().get_injection_state()
        assert state.visible_order == ("x", "c", "b", "a")
        assert state.visible_ids == {"a", "b", "c", "x"}


@pytest.mark.parametrize("small", [True, False], ids=["edge by edge", "over the arrays"])
def test_a_hop_meets_neighbours_in_store_order_whichever_way_it_runs(
    store: Any, small: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out- and in-edges interleaved in store order, and a rollup that stands for its child:
    both ways a hop runs meet them in the order of their (first) raw edge."""
    monkeypatch.setattr(drill_module, "_small", lambda *_a, **_k: small)
    nodes = [char("s"), node("x1"), node("y1"), node("x2"), node("r"), node("k", parentId="r")]
    links = [("s", "x1", "mentions"), ("y1", "s", "related"), ("k", "s", "mentions")]
    api = load_cyclic(store, nodes, [*links, ("s", "x2", "mentions")])
    assert drill(api, ["s"], project_to="raw") == ["s", "x1", "y1", "k", "x2"]
    pool = ["x2", "r", "y1", "x1"]
    assert drill(api, ["s"], project_to=pool) == [*pool, "s"]
    # x2 reaches s, and s only what lifts into the set (x1 does not)
    assert drill(api, ["x2"], project_to=["y1", "r", "s"], hops=2) == ["y1", "r", "s", "x2"]

"""Read API layer B (topology): getNeighbors, getAncestor, getDescendants,
getNearestVisibleAncestor, projectEdges."""

from __future__ import annotations

import collections
from typing import Any

import pytest
from graph_builders import edge, ids, load, load_cyclic, node

from memgraph_gui.core.domain.errors import MemgraphError


def ring(neighbors: Any) -> list[tuple[str, str, str]]:
    return [(n.node.id, n.edge_type, n.direction) for n in neighbors]


# A rollup r1 over e1/e2 (and an archived e3), characters a/b, a location l.
WORLD_NODES = [
    node("r1", seq=3, semanticRollup=True, semanticDepth=1, childrenIds=["e1", "e2", "e3"]),
    node("e1", seq=1, parentId="r1"),
    node("e2", seq=2, parentId="r1"),
    node("e3", seq=3, parentId="r1", archived=True),
    node("a", type="character_sheet", seq=4),
    node("b", type="character_sheet", seq=5),
    node("gone", type="character_sheet", seq=5, archived=True),
    node("l", type="location_state", seq=6),
]
WORLD_EDGES = [
    edge("r1", "e1", "contains"),
    edge("r1", "e2", "contains"),
    edge("r1", "e3", "contains"),
    edge("e1", "a", "involved_in"),
    edge("e2", "a", "involved_in"),
    edge("e3", "a", "involved_in"),
    edge("a", "b", "mentions"),
    edge("b", "a", "mentions"),
    edge("a", "l", "occurred_at"),
    edge("a", "gone", "allied_with"),
]


@pytest.fixture
def world(store: Any) -> Any:
    return load(store, WORLD_NODES, WORLD_EDGES)


# -- getNeighbors ----------------------------------------------------------------------------------


def test_neighbors_default_both_directions_raw_in_store_order(world: Any) -> None:
    assert ring(world.get_neighbors("a")) == [
        ("e1", "involved_in", "in"),
        ("e2", "involved_in", "in"),
        ("b", "mentions", "out"),
        ("b", "mentions", "in"),
        ("l", "occurred_at", "out"),
    ]


def test_neighbors_direction_filter(world: Any) -> None:
    assert ring(world.get_neighbors("a", direction="out")) == [
        ("b", "mentions", "out"),
        ("l", "occurred_at", "out"),
    ]
    assert ring(world.get_neighbors("a", direction="in")) == [
        ("e1", "involved_in", "in"),
        ("e2", "involved_in", "in"),
        ("b", "mentions", "in"),
    ]


def test_neighbors_edge_types_filter_case_insensitive(world: Any) -> None:
    assert ring(world.get_neighbors("a", edge_types=["MENTIONS"])) == [
        ("b", "mentions", "out"),
        ("b", "mentions", "in"),
    ]
    assert ring(world.get_neighbors("a", edge_types=["Occurred_At"], direction="in")) == []


def test_neighbors_filter_archived_neighbours(world: Any) -> None:
    found = ring(world.get_neighbors("a"))
    assert all(n[0] not in ("e3", "gone") for n in found)
    assert ring(world.get_neighbors("r1")) == [("e1", "contains", "out"), ("e2", "contains", "out")]


def test_neighbors_unknown_or_blank_source(world: Any) -> None:
    assert world.get_neighbors("nobody") == ()
    assert world.get_neighbors("  ") == ()


def test_neighbors_project_to_list_rolls_up_and_dedupes(world: Any) -> None:
    # e1 and e2 both roll up to r1: one (r1, involved_in, in) entry, not two.
    assert ring(world.get_neighbors("a", project_to=["r1", "b"])) == [
        ("r1", "involved_in", "in"),
        ("b", "mentions", "out"),
        ("b", "mentions", "in"),
    ]


def test_neighbors_project_to_reads_ids_as_luker_s_to_id_set(world: Any) -> None:
    """Ids with spaces around them count trimmed; blanks, None and unknown ids are skipped; a
    set or a tuple does as a list; anything but an id array is refused."""
    expected = ring(world.get_neighbors("a", project_to=["r1", "b"]))
    for given in ([" r1 ", "b\t", "", None, "nobody"], ("r1", "b"), {"b", "r1"}, [" r1", "b"]):
        assert ring(world.get_neighbors("a", project_to=given)) == expected, given
    with pytest.raises(MemgraphError, match="projectTo"):
        world.get_neighbors("a", project_to="r1")
    for source in ("a", "nobody", "  "):  # an item that is no id: refused whatever the node
        with pytest.raises(MemgraphError, match="projectTo"):
            world.get_neighbors(source, project_to=["r1", {"id": "b"}])


def test_neighbors_project_to_drops_neighbours_outside_the_set(world: Any) -> None:
    assert ring(world.get_neighbors("a", project_to=["l"])) == [("l", "occurred_at", "out")]
    assert world.get_neighbors("a", project_to=[]) == ()


def test_neighbors_project_to_visible_uses_recorded_visible_ids(world: Any, store: Any) -> None:
    assert world.get_neighbors("a", project_to="visible") == ()  # nothing recorded yet
    store.write_api().set_injection_state({"visibleIds": ["r1", "l"]})
    assert ring(world.get_neighbors("a", project_to="visible")) == [
        ("r1", "involved_in", "in"),
        ("l", "occurred_at", "out"),
    ]
    # 'raw' ignores the visible set.
    assert len(world.get_neighbors("a", project_to="raw")) == 5


def test_neighbors_views_are_frozen_and_json_shaped(world: Any) -> None:
    first = world.get_neighbors("a", direction="out")[0]
    with pytest.raises(AttributeError):
        first.direction = "in"  # type: ignore[misc]
    data = first.to_json()
    assert set(data) == {"node", "edgeType", "direction"}
    assert data["node"]["id"] == "b" and data["node"]["type"] == "character_sheet"


def test_neighbors_bad_project_to_raises(world: Any) -> None:
    with pytest.raises(MemgraphError) as info:
        world.get_neighbors("a", project_to="everything")
    assert info.value.code == "BAD_ARGS"
    for kwargs in ({"edge_types": "mentions"}, {"direction": 5}, {"direction": ["in"]}):
        with pytest.raises(MemgraphError) as info:
            world.get_neighbors("a", **kwargs)
        assert info.value.code == "BAD_ARGS"


# -- getAncestor -----------------------------------------------------------------------------------

CHAIN = [
    node("top", type="character_sheet", seq=9, childrenIds=["mid"]),
    node("mid", seq=8, semanticRollup=True, semanticDepth=2, parentId="top", childrenIds=["low"]),
    node("low", seq=7, semanticRollup=True, semanticDepth=1, parentId="mid", childrenIds=["leaf"]),
    node("leaf", seq=1, parentId="low"),
]


def test_ancestor_default_is_direct_parent(store: Any) -> None:
    api = load(store, CHAIN)
    assert api.get_ancestor("leaf").id == "low"
    assert api.get_ancestor("mid").id == "top"
    assert api.get_ancestor("top") is None
    assert api.get_ancestor("missing") is None


def test_ancestor_predicate_never_returns_the_node_itself(store: Any) -> None:
    api = load(store, CHAIN)
    assert api.get_ancestor("leaf", predicate=lambda n: n.type == "character_sheet").id == "top"
    assert api.get_ancestor("leaf", predicate=lambda n: n.semantic_depth == 2).id == "mid"
    assert api.get_ancestor("low", predicate=lambda n: n.id == "low") is None
    assert api.get_ancestor("leaf", predicate=lambda n: False) is None
    for kwargs in ({"predicate": "semantic"}, {"active_only": "no"}):
        with pytest.raises(MemgraphError) as info:
            api.get_ancestor("leaf", **kwargs)
        assert info.value.code == "BAD_ARGS"


def test_ancestor_archived_blocks_when_active_only(store: Any) -> None:
    nodes = [dict(n) for n in CHAIN]
    nodes[2]["archived"] = True  # 'low' archived
    api = load(store, nodes)
    assert api.get_ancestor("leaf") is None
    assert api.get_ancestor("leaf", predicate=lambda n: n.type == "character_sheet") is None
    assert api.get_ancestor("leaf", active_only=False).id == "low"
    assert (
        api.get_ancestor(
            "leaf", active_only=False, predicate=lambda n: n.type == "character_sheet"
        ).id
        == "top"
    )


def test_ancestor_is_cycle_safe(store: Any) -> None:
    api = load_cyclic(
        store,
        [
            node("x", seq=1, parentId="y"),
            node("y", seq=2, parentId="z"),
            node("z", seq=3, parentId="x"),
        ],
    )
    assert api.get_ancestor("x").id == "y"
    assert api.get_ancestor("x", predicate=lambda n: n.id == "z").id == "z"
    assert api.get_ancestor("x", predicate=lambda n: n.id == "x") is None
    assert api.get_ancestor("x", predicate=lambda n: False) is None


# -- getDescendants --------------------------------------------------------------------------------

TREE = [
    node("root", seq=9, semanticRollup=True, semanticDepth=2, childrenIds=["c1", "c2", "cx"]),
    node(
        "c1", seq=5, semanticRollup=True, semanticDepth=1, parentId="root", childrenIds=["g1", "g2"]
    ),
    node("c2", seq=8, semanticRollup=True, semanticDepth=1, parentId="root", childrenIds=["g3"]),
    node(
        "cx",
        seq=8,
        semanticRollup=True,
        semanticDepth=1,
        parentId="root",
        archived=True,
        childrenIds=["g4"],
    ),
    node("g1", seq=1, parentId="c1"),
    node("g2", seq=2, parentId="c1"),
    node("g3", seq=6, parentId="c2"),
    node("g4", seq=7, parentId="cx"),
]


def test_descendants_bfs_order_excludes_root_and_archived(store: Any) -> None:
    api = load(store, TREE)
    assert ids(api.get_descendants("root")) == ["c1", "c2", "g1", "g2", "g3"]
    assert ids(api.get_descendants("c1")) == ["g1", "g2"]
    assert api.get_descendants("g1") == ()
    assert api.get_descendants("missing") == ()


def test_descendants_max_depth(store: Any) -> None:
    api = load(store, TREE)
    assert ids(api.get_descendants("root", max_depth=1)) == ["c1", "c2"]
    assert ids(api.get_descendants("root", max_depth=1.7)) == ["c1", "c2"]
    assert api.get_descendants("root", max_depth=0) == ()
    assert ids(api.get_descendants("root", max_depth=2)) == ["c1", "c2", "g1", "g2", "g3"]


def test_descendants_active_only_false_includes_archived_subtrees(store: Any) -> None:
    api = load(store, TREE)
    assert ids(api.get_descendants("root", active_only=False)) == [
        "c1",
        "c2",
        "cx",
        "g1",
        "g2",
        "g3",
        "g4",
    ]


def test_descendants_cycle_terminates(store: Any) -> None:
    api = load_cyclic(store, [node("x", seq=1, parentId="y"), node("y", seq=2, parentId="x")])
    assert ids(api.get_descendants("x")) == ["y"]


def test_descendants_after_compaction(store: Any) -> None:
    w = store.write_api()
    w.apply_extraction_batch(
        ops=[
            {"op": "create", "type": "event", "fields": {"summary": s}}
            for s in ("one", "two", "three")
        ]
    )
    rollup = w.compact_nodes(type="event", child_ids=["n_1", "n_2"], summary="both")
    api = store.read_api()
    assert ids(api.get_descendants(rollup["rollupNodeId"])) == ["n_1", "n_2"]
    assert api.get_ancestor("n_2").id == rollup["rollupNodeId"]


# -- getNearestVisibleAncestor --------------------------------------------------------------------


def test_nearest_visible_self_is_eligible(store: Any) -> None:
    api = load(store, CHAIN)
    assert api.get_nearest_visible_ancestor("leaf", visible_node_ids=["leaf", "top"]).id == "leaf"
    assert api.get_nearest_visible_ancestor("leaf", visible_node_ids={"mid", "top"}).id == "mid"
    assert api.get_nearest_visible_ancestor("leaf", visible_node_ids=(" top ",)).id == "top"
    assert api.get_nearest_visible_ancestor("leaf", visible_node_ids=["b"]) is None
    assert api.get_nearest_visible_ancestor("missing", visible_node_ids=["top"]) is None


def test_nearest_visible_archived_blocks(store: Any) -> None:
    nodes = [dict(n) for n in CHAIN]
    nodes[1]["archived"] = True  # 'mid'
    api = load(store, nodes)
    assert api.get_nearest_visible_ancestor("leaf", visible_node_ids=["top"]) is None
    assert api.get_nearest_visible_ancestor("leaf", visible_node_ids=["low", "top"]).id == "low"
    assert api.get_nearest_visible_ancestor("mid", visible_node_ids=["mid"]) is None


def test_nearest_visible_cycle_safe(store: Any) -> None:
    api = load_cyclic(store, [node("x", seq=1, parentId="y"), node("y", seq=2, parentId="x")])
    assert api.get_nearest_visible_ancestor("x", visible_node_ids=["q"]) is None
    assert api.get_nearest_visible_ancestor("x", visible_node_ids=["y"]).id == "y"


def test_nearest_visible_without_visible_ids_is_null(store: Any) -> None:
    # The seed calls visibleNodeIds "required" but names no error; Luker reads a missing (or
    # null) set as the empty set, and nothing is visible in it (luker-store-format.md).
    api = load(store, CHAIN)
    assert api.get_nearest_visible_ancestor("leaf") is None
    assert api.get_nearest_visible_ancestor("leaf", visible_node_ids=None) is None
    assert api.get_nearest_visible_ancestor("top") is None
    assert api.get_nearest_visible_ancestor("top", visible_node_ids=["top"]).id == "top"
    with pytest.raises(MemgraphError) as info:
        api.get_nearest_visible_ancestor("leaf", visible_node_ids="top")  # not split
    assert info.value.code == "BAD_ARGS"


# -- projectEdges ----------------------------------------------------------------------------------


def projected(edges: Any) -> list[tuple[str, str, str, int]]:
    return [(e.from_id, e.to_id, e.type, e.weight) for e in edges]


def test_project_edges_rolls_up_and_weights(world: Any) -> None:
    out = world.project_edges(visible_node_ids=["r1", "a", "b", "l"])
    # e1->a and e2->a collapse onto r1->a (weight 2); e3 is archived so its edge is dropped.
    assert projected(out) == [
        ("r1", "a", "involved_in", 2),
        ("a", "b", "mentions", 1),
        ("b", "a", "mentions", 1),
        ("a", "l", "occurred_at", 1),
    ]
    assert out[0].to_json() == {"from": "r1", "to": "a", "type": "involved_in", "weight": 2}


def test_project_edges_drops_edges_leaving_the_visible_set(world: Any) -> None:
    assert projected(world.project_edges(visible_node_ids=["a", "l"])) == [
        ("a", "l", "occurred_at", 1)
    ]
    assert world.project_edges(visible_node_ids=[]) == ()


def test_project_edges_exclude_internal_default_true(world: Any) -> None:
    visible = ["r1", "e1", "e2", "a"]
    default = projected(world.project_edges(visible_node_ids=visible))
    assert not any(t in ("contains", "semantic_contains") for _, _, t, _ in default)
    kept = projected(world.project_edges(visible_node_ids=visible, exclude_internal=False))
    assert ("r1", "e1", "contains", 1) in kept and ("r1", "e2", "contains", 1) in kept


def test_project_edges_self_loop_after_projection_dropped(world: Any) -> None:
    # With only r1 visible, contains r1->e1 projects to r1->r1 and is dropped.
    assert world.project_edges(visible_node_ids=["r1"], exclude_internal=False) == ()


def test_project_edges_edge_types_filter(world: Any) -> None:
    out = world.project_edges(visible_node_ids=["r1", "a", "b", "l"], edge_types=["MENTIONS"])
    assert projected(out) == [("a", "b", "mentions", 1), ("b", "a", "mentions", 1)]


def test_project_edges_symmetric_relation_canonical_order(store: Any) -> None:
    api = load(
        store,
        [
            node("zed", type="character_sheet", seq=1),
            node("amy", type="character_sheet", seq=2),
            node("kid", type="character_sheet", seq=3, parentId="zed"),
            node("bo", type="character_sheet", seq=4),
        ],
        [
            edge("zed", "amy", "allied_with"),
            edge("kid", "amy", "allied_with"),
            edge("bo", "amy", "mentor_of"),
            edge("amy", "bo", "hostile_to"),
            edge("bo", "amy", "hostile_to"),
        ],
    )
    out = api.project_edges(visible_node_ids=["zed", "amy", "bo"])
    # Symmetric: stored once with the smaller id first (kid rolls up to zed: weight 2);
    # non-symmetric relations keep their direction.
    assert projected(out) == [
        ("amy", "zed", "allied_with", 2),
        ("bo", "amy", "mentor_of", 1),
        ("amy", "bo", "hostile_to", 2),
    ]


def test_project_edges_normalises_relation_case(store: Any) -> None:
    api = load(
        store, [node("p"), node("q")], [edge("p", "q", "Mentions"), edge("p", "q", "mentions")]
    )
    assert projected(api.project_edges(visible_node_ids=["p", "q"])) == [("p", "q", "mentions", 2)]


def test_project_edges_without_visible_ids_is_empty(world: Any) -> None:
    # A missing or null visibleNodeIds is the empty set (Luker's toIdSet), not an error.
    assert world.project_edges() == ()
    assert world.project_edges(visible_node_ids=None, exclude_internal=False) == ()
    assert world.project_edges(edge_types=["mentions"]) == ()
    with pytest.raises(MemgraphError) as info:
        world.project_edges(visible_node_ids="a")  # a bare string is not split into letters
    assert info.value.code == "BAD_ARGS"
    with pytest.raises(MemgraphError) as info:
        world.project_edges(visible_node_ids=["a"], exclude_internal="no")
    assert info.value.code == "BAD_ARGS"


def test_project_edges_agree_with_edge_summaries_on_the_demo(demo_store: Any) -> None:
    api = demo_store.read_api()
    everything = [n.id for n in api.list_nodes(active_only=False)]
    visible_sets = [[n.id for n in api.list_visible_candidates()], everything[::7], everything[::3]]
    for visible in visible_sets:
        for relations in (None, ["involved_in"], ["contains", "mentions"]):
            edges = api.project_edges(
                visible_node_ids=visible, edge_types=relations, exclude_internal=False
            )
            degree: collections.Counter[str] = collections.Counter()
            neighbours: dict[str, set[str]] = collections.defaultdict(set)
            for e in edges:
                assert e.from_id in visible and e.to_id in visible and e.from_id != e.to_id
                degree[e.from_id] += e.weight
                degree[e.to_id] += e.weight
                neighbours[e.from_id].add(e.to_id)
                neighbours[e.to_id].add(e.from_id)
            for node_id in visible[:80]:
                summary = api.get_edge_summary(
                    node_id, visible_node_ids=visible, edge_types=relations, limit=10_000
                )
                assert summary.degree == degree[node_id]
                assert sum(r.count for r in summary.relations) == summary.degree
                assert {n.id for n in summary.sample_neighbors} == neighbours[node_id]

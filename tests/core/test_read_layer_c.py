"""Read API layer C (recall primitives): candidates, exposure, edge summaries, briefs,
expansion, keyword / vector search, findByName, compactionCandidates."""

from __future__ import annotations

from typing import Any

import pytest
from graph_builders import DRILL_EDGES, DRILL_NODES, char, edge, ids, load, node

from memgraph_gui.core.domain.errors import MemgraphError


def code_of(call: Any) -> str:
    with pytest.raises(MemgraphError) as info:
        call()
    return info.value.code


ZERO = {"degree": 0, "relations": [], "sample_neighbors": []}

# -- listVisibleCandidates -------------------------------------------------------------------------

POOL = [
    node("r1", seq=3, semanticRollup=True, semanticDepth=1, childrenIds=["e1", "e2", "e3"]),
    node("e1", seq=1, parentId="r1"),
    node("e2", seq=2, parentId="r1"),
    node("e3", seq=3, parentId="r1"),
    node("e4", seq=4),
    node(
        "ra", seq=6, semanticRollup=True, semanticDepth=1, archived=True, childrenIds=["e5", "e6"]
    ),
    node("e5", seq=5, parentId="ra"),
    node("e6", seq=6, parentId="ra"),
    node("r2", seq=7, semanticRollup=True, semanticDepth=2, childrenIds=["r3"]),
    node("r3", seq=7, semanticRollup=True, semanticDepth=1, parentId="r2", childrenIds=["e7"]),
    node("e7", seq=7, parentId="r3"),
    node("rz", seq=2, semanticRollup=True, semanticDepth=1, childrenIds=["ez"]),
    node("ez", seq=2, parentId="rz", archived=True),
    char("c1", seq=7, childrenIds=["c2"]),
    char("c2", seq=2, parentId="c1"),
    node("x1", type="clue", seq=1),
    node("rec", type="recall_trace", seq=9),
    node("old", seq=9, archived=True),
]


def test_candidates_pool_order_filters_and_exposure(store: Any) -> None:
    api = load(store, POOL)
    # r2 over r3 over e7 -> only r2; children of archived 'ra' surface themselves; rz (all
    # children archived) counts as a leaf; non-hierarchical and unknown types show every node.
    assert ids(api.list_visible_candidates()) == [
        "r2",
        "c1",
        "e6",
        "e5",
        "e4",
        "r1",
        "rz",
        "c2",
        "x1",
    ]
    # getNodeExposure: high_only for every node of a hierarchical type, leaves included.
    assert [api.get_node_exposure(i) for i in ("e1", "r2", "c1", "x1")] == [
        "high_only",
        "high_only",
        "full",
        "full",
    ]
    assert [api.get_node_exposure(i) for i in ("old", "missing", " ")] == [None, None, None]
    # types and seqWindow (inclusive) narrow the pool after it is built.
    assert ids(api.list_visible_candidates(types=["CHARACTER_SHEET"])) == ["c1", "c2"]
    assert ids(api.list_visible_candidates(seq_window={"from": 2, "to": 5})) == [
        "e5",
        "e4",
        "r1",
        "rz",
        "c2",
    ]
    assert ids(api.list_visible_candidates(seq_window={"from": 7})) == ["r2", "c1"]
    assert ids(api.list_visible_candidates(types=["event"], seq_window={"to": 2})) == ["rz"]


def test_candidates_tie_break_depth_then_locale_id(store: Any) -> None:
    api = load(
        store,
        [
            char("n_9"),
            char("n_10"),
            char("B"),
            char("a"),
            node("deep", seq=1, semanticRollup=True, semanticDepth=1),
        ],
    )
    assert ids(api.list_visible_candidates()) == ["deep", "a", "B", "n_10", "n_9"]


def test_candidates_exclude_recent_messages_uses_store_counters(store: Any) -> None:
    api = load(store, [char(f"c{i}", seq=i) for i in range(1, 9)], appliedSeqTo=10, loggedSeqTo=10)
    assert len(api.list_visible_candidates(exclude_recent_messages=2)) == 8  # cutoff 9
    assert ids(api.list_visible_candidates(exclude_recent_messages=3))[0] == "c7"
    assert ids(api.list_visible_candidates(exclude_recent_messages=4)) == [
        "c6",
        "c5",
        "c4",
        "c3",
        "c2",
        "c1",
    ]
    assert len(api.list_visible_candidates(exclude_recent_messages=0)) == 8
    assert code_of(lambda: api.list_visible_candidates(exclude_recent_messages="2")) == "BAD_ARGS"


def test_candidates_follow_writes(store: Any) -> None:
    w = store.write_api()
    for seq, text in enumerate(("one", "two", "three"), start=1):
        w.apply_extraction_batch(
            ops=[{"op": "create", "type": "event", "fields": {"summary": text}}], max_seq=seq
        )
    api = store.read_api()
    assert ids(api.list_visible_candidates()) == ["n_3", "n_2", "n_1"]
    rollup = w.compact_nodes(type="event", child_ids=["n_1", "n_2"], summary="s")["rollupNodeId"]
    assert ids(api.list_visible_candidates()) == ["n_3", rollup]
    w.delete_node(id="n_3")
    assert ids(api.list_visible_candidates()) == [rollup]


# -- getEdgeSummary --------------------------------------------------------------------------------

HUB = [
    char("hub", seq=1, title="Hub"),
    char("ally", seq=2, title="Ally"),
    char("p", seq=3, title="P"),
    char("q", seq=4, title="Q"),
]
HUB_EDGES = [
    edge("hub", "p", "mentions", seqTo=9),
    edge("hub", "q", "mentions"),
    edge("q", "hub", "mentions"),
    edge("hub", "ally", "allied_with"),
]


def test_edge_summary_shape(store: Any) -> None:
    api = load(store, HUB, HUB_EDGES)
    summary = api.get_edge_summary("hub", visible_node_ids=["hub", "ally", "p", "q"])
    assert summary.to_json() == {
        "degree": 4,
        "relations": [
            {"relation": "mentions", "direction": "out", "count": 2},
            {"relation": "mentions", "direction": "in", "count": 1},
            {"relation": "allied_with", "direction": "out", "count": 1},
        ],
        "sample_neighbors": [
            {"id": "p", "type": "character_sheet", "title": "P", "to_seq": 9},
            {"id": "q", "type": "character_sheet", "title": "Q", "to_seq": 4},
            {"id": "ally", "type": "character_sheet", "title": "Ally", "to_seq": 2},
        ],
    }
    # The symmetric edge is stored ally->hub after canonicalisation but still reads as 'out'.
    ally = api.get_edge_summary("ally", visible_node_ids=["hub", "ally"]).to_json()
    assert ally["relations"] == [{"relation": "allied_with", "direction": "out", "count": 1}]


def everyone(api: Any) -> list[str]:
    return [n.id for n in api.list_visible_candidates()]


def test_edge_summary_zero_summaries_and_default_visible_set(store: Any) -> None:
    api = load(store, [*HUB, char("dead", archived=True)], HUB_EDGES)
    assert api.get_edge_summary("nobody").to_json() == ZERO
    assert api.get_edge_summary("").to_json() == ZERO
    assert api.get_edge_summary("dead").to_json() == ZERO
    assert api.get_edge_summary("hub", visible_node_ids=[]).to_json() == ZERO
    assert api.get_edge_summary("hub", visible_node_ids=["p", "q"]).to_json() == ZERO
    # The seed: the default visible set is the recorded visibleIds, empty until recall has run,
    # so a summary needs an explicit set until then.
    assert api.get_edge_summary("hub").to_json() == ZERO
    assert api.get_edge_summary("hub", visible_node_ids=everyone(api)).degree == 4
    store.write_api().set_injection_state({"visibleIds": ["hub", "p"]})
    summary = api.get_edge_summary("hub").to_json()
    assert summary["degree"] == 1 and [s["id"] for s in summary["sample_neighbors"]] == ["p"]


def test_edge_summary_counts_raw_edges_after_projection(store: Any) -> None:
    api = load(
        store,
        [*POOL, char("a", seq=8)],
        [edge("e1", "a", "involved_in"), edge("e2", "a", "involved_in")],
    )
    summary = api.get_edge_summary("a", visible_node_ids=["r1", "a"]).to_json()
    assert summary["degree"] == 2
    assert summary["relations"] == [{"relation": "involved_in", "direction": "in", "count": 2}]
    assert [s["id"] for s in summary["sample_neighbors"]] == ["r1"]
    assert api.get_edge_summary("e1", visible_node_ids=["r1", "a"]).to_json() == ZERO


def test_edge_summary_limit_caps_samples_only(store: Any) -> None:
    spokes = [char(f"n_{i}", seq=5) for i in range(1, 11)]
    api = load(
        store, [char("hub", seq=0), *spokes], [edge("hub", s["id"], "mentions") for s in spokes]
    )
    store.write_api().set_injection_state({"visibleIds": ["hub"] + [s["id"] for s in spokes]})
    default = api.get_edge_summary("hub")
    assert default.degree == 10 and default.relations[0].count == 10
    assert [s.id for s in default.sample_neighbors] == [
        "n_1",
        "n_10",
        "n_2",
        "n_3",
        "n_4",
        "n_5",
        "n_6",
        "n_7",
    ]
    assert len(api.get_edge_summary("hub", limit=3).sample_neighbors) == 3
    assert len(api.get_edge_summary("hub", limit=0).sample_neighbors) == 1
    assert len(api.get_edge_summary("hub", limit=50).sample_neighbors) == 10
    assert api.get_edge_summary("hub", edge_types=["related"]).to_json() == ZERO
    assert code_of(lambda: api.get_edge_summary("hub", limit="8")) == "BAD_ARGS"


# -- getNodeBrief ----------------------------------------------------------------------------------

BRIEF_NODES = [
    node("ev", seq=4, title="Summary 1", fields={"summary": "Line one\n\n   line two"}),
    char(
        "al",
        seq=6,
        title="Alice",
        fields={"aliases": ["Ally", "艾丽"], "traits": "brave", "goal": ""},
    ),
    node(
        "ro",
        seq=9,
        semanticRollup=True,
        semanticDepth=1,
        fields={"summary": "roll"},
        childrenIds=["k1", "k2", "k3"],
    ),
    node("k1", seq=7, parentId="ro"),
    node("k2", seq=8, parentId="ro"),
    node("k3", seq=9, parentId="ro", archived=True),
]


def test_node_brief_event(store: Any) -> None:
    api = load(store, BRIEF_NODES, [edge("ev", "al", "involved_in")])
    brief = api.get_node_brief("ev", visible_node_ids=["ev", "al"]).to_json()
    line = "Line one line two"
    assert brief == {
        "id": "ev",
        "level": "semantic",
        "type": "event",
        "tableName": "event_table",
        "title": "Summary 1",
        "summary": line,
        "keyValues": {"summary": line},
        "rowValues": {"summary": line},
        "toSeq": 4,
        "childCount": 0,
        "exposure": "high_only",
        "edgeSummary": {
            "degree": 1,
            "relations": [{"relation": "involved_in", "direction": "out", "count": 1}],
            "sample_neighbors": [
                {"id": "al", "type": "character_sheet", "title": "Alice", "to_seq": 6}
            ],
        },
        "alwaysInject": False,
    }


def test_node_brief_character_projection(store: Any) -> None:
    brief = load(store, BRIEF_NODES).get_node_brief("al")
    assert dict(brief.key_values) == {"title": "Alice", "aliases": "Ally, 艾丽"}
    assert dict(brief.row_values) == {"title": "Alice", "aliases": "Ally, 艾丽", "traits": "brave"}
    assert (brief.table_name, brief.exposure, brief.summary) == ("character_table", "full", "")
    with pytest.raises(TypeError):
        brief.key_values["title"] = "x"  # type: ignore[index]


def test_node_brief_null_child_count_and_always_inject(store: Any) -> None:
    api = load(store, BRIEF_NODES)
    assert api.get_node_brief("ro").child_count == 2  # k3 is archived
    assert api.get_node_brief("k3") is None
    assert api.get_node_brief("nope") is None
    assert api.get_node_brief("") is None
    assert code_of(lambda: api.get_node_brief("ro", include_edge_summary="no")) == "BAD_ARGS"
    # alwaysInject comes from the injection state, not from the type's schema flag.
    assert api.get_node_brief("ev").always_inject is False
    store.write_api().set_injection_state({"alwaysInjectIds": ["ev", "al"]})
    assert api.get_node_brief("ev").always_inject is True
    assert api.get_node_brief("al").to_json()["alwaysInject"] is True
    assert api.get_node_brief("ro").always_inject is False


def test_node_brief_edge_summary_options(store: Any) -> None:
    api = load(store, BRIEF_NODES, [edge("al", "k1", "mentions"), edge("al", "ev", "mentions")])
    brief = api.get_node_brief("al", include_edge_summary=False)
    assert brief.edge_summary is None and brief.to_json()["edgeSummary"] is None
    assert api.get_node_brief("al").edge_summary.degree == 0  # no visibleIds recorded yet
    store.write_api().set_injection_state({"visibleIds": everyone(api)})
    capped = api.get_node_brief("al", edge_summary_limit=1).edge_summary
    assert capped.degree == 2 and [s.id for s in capped.sample_neighbors] == ["ro"]
    assert api.get_node_brief("al", visible_node_ids=["al", "ev"]).edge_summary.degree == 1


# -- expandFromSeeds -------------------------------------------------------------------------------


@pytest.fixture
def graph(store: Any) -> Any:
    return load(store, DRILL_NODES, DRILL_EDGES)


def test_expand_raw_bfs_over_the_whole_store_and_options(graph: Any) -> None:
    assert ids(graph.expand_from_seeds(["a"], project_to="raw")) == ["a", "e1", "b", "s"]
    assert ids(graph.expand_from_seeds(["a"], project_to="raw", hops=2)) == [
        "a",
        "e1",
        "b",
        "s",
        "r1",
        "c",
    ]
    assert ids(graph.expand_from_seeds(["r1"], project_to="raw")) == ["r1", "e1", "e2"]
    assert ids(graph.expand_from_seeds(["p2"], project_to="raw")) == ["p2", "k1"]
    assert ids(graph.expand_from_seeds(["p2"], project_to="raw", include_children=False)) == ["p2"]
    assert ids(graph.expand_from_seeds(["a"], project_to="raw", edge_types=["allied_with"])) == [
        "a",
        "x",
    ]
    assert ids(graph.expand_from_seeds(["a"], project_to="raw", hops=2, exclude_internal=True)) == [
        "a",
        "e1",
        "b",
        "c",
    ]


def test_expand_inside_a_set_puts_the_pool_first(graph: Any, store: Any) -> None:
    # Luker's drill starts its candidate set with the live pool, in pool order; the seed and
    # what its hops reach (pooled nodes, and children) follow (luker-store-format.md).
    assert ids(graph.expand_from_seeds(["a"], project_to=["b"])) == ["b", "a"]
    assert ids(graph.expand_from_seeds(["a"], project_to=["b", "c"], hops=3)) == ["b", "c", "a"]
    assert ids(graph.expand_from_seeds(["a"])) == ["a"]  # nothing recorded as visible
    assert ids(graph.expand_from_seeds(["r1"])) == ["r1", "e1", "e2"]
    store.write_api().set_injection_state({"visibleIds": ["b", "c", "x"]})
    assert ids(graph.expand_from_seeds(["a"], hops=2)) == ["b", "c", "x", "a"]
    assert ids(graph.expand_from_seeds(["r1"])) == ["b", "c", "x", "r1", "e1", "e2"]


def test_expand_multiple_seeds_and_odd_input(graph: Any) -> None:
    assert ids(graph.expand_from_seeds(["b", "a", "b", "ghost"], project_to="raw")) == [
        "b",
        "a",
        "c",
        "e1",
        "s",
    ]
    assert ids(graph.expand_from_seeds(["dead"], project_to="raw")) == ["dead"]
    assert ids(graph.expand_from_seeds(["p2"], project_to="raw", hops=0)) == ["p2", "k1"]
    assert graph.expand_from_seeds([]) == ()
    assert code_of(lambda: graph.expand_from_seeds("a")) == "BAD_ARGS"


# -- keywordSearch / vectorSearch ------------------------------------------------------------------

SEARCH = [
    char("c1", seq=1, title="Alice Wonder", fields={"traits": "brave curious"}),
    char("c2", seq=2, title="Bob", fields={"traits": "brave"}),
    node("e1", seq=3, fields={"summary": "Alice fights the dragon"}),
    node("l1", type="location_state", seq=4, title="银月城", fields={"aliases": "Silver City"}),
    char("gone", seq=5, title="Alice Archived", archived=True),
    node("rec", type="recall_trace", seq=6, title="alice"),
]


def scores(hits: Any) -> list[tuple[str, float]]:
    return [(h.node.id, round(h.score, 4)) for h in hits]


def test_keyword_search_scores_order_and_token_rules(store: Any) -> None:
    api = load(store, SEARCH)
    hits = api.keyword_search(query="Alice BRAVE")
    assert scores(hits) == [("c1", 1.0), ("c2", 0.5), ("e1", 0.5)]
    assert {h.score_mode for h in hits} == {"keyword"}
    data = hits[0].to_json()
    assert data["id"] == "c1" and data["score"] == 1.0 and data["scoreMode"] == "keyword"
    assert scores(api.keyword_search(query="alice alice bob")) == [
        ("c1", 0.3333),
        ("c2", 0.3333),
        ("e1", 0.3333),
    ]
    assert scores(api.keyword_search(query="a b dragon")) == [("e1", 1.0)]
    assert scores(api.keyword_search(query="银月城")) == [("l1", 1.0)]
    assert api.keyword_search(query="银月") == ()
    assert scores(api.keyword_search(query="betrayal")) == [("e1", 1.0)]  # type keyword
    assert scores(api.keyword_search(query="alias", types=["Character_Sheet"])) == [
        ("c1", 1.0),
        ("c2", 1.0),
    ]


def test_keyword_search_empty_query_and_k(store: Any) -> None:
    api = load(store, SEARCH)
    assert api.keyword_search(query="") == ()
    assert api.keyword_search(query="  \t ") == ()
    assert scores(api.keyword_search(query="alice brave", k=1)) == [("c1", 1.0)]
    assert len(api.keyword_search(query="brave", k=0)) == 1
    assert code_of(lambda: api.keyword_search(query="x", k="3")) == "BAD_ARGS"
    # vectorSearch: no embedding profile is configured, and it never falls back silently.
    assert code_of(lambda: api.vector_search(query="betrayal")) == "NO_EMBEDDING_PROFILE"
    assert api.vector_search(query="") == () and api.vector_search(query="   ") == ()


def test_keyword_search_follows_edits_and_archives(store: Any) -> None:
    api = load(store, SEARCH)
    assert scores(api.keyword_search(query="dragon")) == [("e1", 1.0)]
    store.write_api().edit_node(id="c2", set_fields={"traits": "dragon tamer"})
    assert [h.node.id for h in api.keyword_search(query="dragon")] == ["c2", "e1"]
    store.write_api().delete_node(id="c2")
    assert [h.node.id for h in api.keyword_search(query="dragon")] == ["e1"]
    store.write_api().apply_extraction_batch(
        ops=[
            {
                "op": "create",
                "type": "character_sheet",
                "title": f"Knight {i}",
                "fields": {"traits": "dragon"},
            }
            for i in range(25)
        ]
    )
    assert len(api.keyword_search(query="dragon")) == 20  # default k


def test_keyword_search_corpus_uses_schema_columns_or_falls_back_to_all_fields(store: Any) -> None:
    api = load(
        store,
        [
            node("u1", type="clue", title="Knife", fields={"hint": "dragon blood"}),  # no spec
            char("c1", title="Zed", fields={"hint": "dragon"}),  # not a character column
            char("c2", title="Amy", fields={"traits": ["calm", "dragon"], "goal": {"x": "y"}}),
        ],
    )
    assert scores(api.keyword_search(query="dragon")) == [("u1", 1.0), ("c2", 1.0)]
    assert scores(api.keyword_search(query="object")) == [("c2", 1.0)]  # JS String({...})


# -- findByName ------------------------------------------------------------------------------------

NAMES = [
    char("c1", seq=5, title="Alice", fields={"aliases": "银月剑士, Eileen", "traits": "stubborn"}),
    char("c2", seq=2, title="Malice"),
    node("e1", seq=1, title="Summary 1", fields={"summary": "Alice arrives"}),
    node("l1", type="location_state", seq=3, title="Tower", fields={"aliases": ["Alice's Keep"]}),
    char("gone", seq=4, title="Alice Two", archived=True),
    node("rec", type="recall_trace", seq=1, title="alice"),
]


def test_find_by_name(store: Any) -> None:
    api = load(store, NAMES)
    assert ids(api.find_by_name(query="ALICE").matches) == ["c2", "l1", "c1"]
    assert ids(api.find_by_name(query="剑士").matches) == ["c1"]
    assert ids(api.find_by_name(query=" eileen ").matches) == ["c1"]
    assert api.find_by_name(query="stubborn").matches == ()  # traits is not a key column
    assert api.find_by_name(query="arrives").matches == ()  # nor is an event summary
    assert ids(api.find_by_name(query="alice", types=["location_state"]).matches) == ["l1"]
    assert api.find_by_name(query="").to_json() == {"matches": []}
    assert api.find_by_name(query="   ").to_json() == {"matches": []}
    data = api.find_by_name(query="malice").to_json()
    assert list(data) == ["matches"] and data["matches"][0]["id"] == "c2"
    assert "score" not in data["matches"][0]
    store.write_api().edit_node(id="c2", title="Bellatrix")
    assert ids(api.find_by_name(query="bellatrix").matches) == ["c2"]
    assert ids(api.find_by_name(query="malice").matches) == []


# -- compactionCandidates --------------------------------------------------------------------------


def events(n: int, **extra: Any) -> list[dict[str, Any]]:
    return [node(f"e{i:02d}", seq=i, **extra) for i in range(n, 0, -1)]  # scrambled order


def groups(result: Any) -> list[tuple[int, list[str], int]]:
    return [(g.depth, list(g.child_ids), g.fan_in) for g in result.groups]


def test_compaction_candidates_default_event_schema(store: Any) -> None:
    api = load(store, events(9))
    # keepRecentLeaves=3 holds back e07-e09; fanIn 3 over the six oldest.
    assert groups(api.compaction_candidates(type="event")) == [
        (1, ["e01", "e02", "e03"], 3),
        (1, ["e04", "e05", "e06"], 3),
    ]
    assert api.compaction_candidates(type="EVENT").to_json() == {
        "groups": [
            {"depth": 1, "childIds": ["e01", "e02", "e03"], "fanIn": 3},
            {"depth": 1, "childIds": ["e04", "e05", "e06"], "fanIn": 3},
        ]
    }


def test_compaction_candidates_threshold_after_keep_recent(store: Any) -> None:
    assert load(store, events(7)).compaction_candidates(type="event").groups == ()  # 4 < 5
    store.write_api().apply_extraction_batch(
        ops=[{"op": "create", "type": "event", "fields": {"summary": "late"}}]
    )
    assert groups(store.read_api().compaction_candidates(type="event")) == [
        (1, ["e01", "e02", "e03"], 3)
    ]


def test_compaction_candidates_no_groups(store: Any) -> None:
    api = load(store, events(12))
    for kind, depth in (("nope", 0), ("character_sheet", 0), ("", 0), ("event", 10), ("event", 1)):
        assert api.compaction_candidates(type=kind, depth=depth).to_json() == {"groups": []}


def test_compaction_candidates_custom_config_and_depth(store: Any) -> None:
    store.write_api().set_schema(
        [
            {
                "id": "event",
                "tableColumns": ["summary"],
                "compression": {
                    "mode": "hierarchical",
                    "threshold": 2,
                    "fanIn": 2,
                    "maxDepth": 2,
                    "keepRecentLeaves": 0,
                },
            }
        ]
    )
    rollups = [node(f"r{i}", seq=10 + i, semanticRollup=True, semanticDepth=1) for i in range(3)]
    api = load(
        store,
        [
            *events(5),
            *rollups,
            node("kid", seq=0, parentId="r0"),
            node("dead", seq=0, archived=True),
        ],
    )
    assert groups(api.compaction_candidates(type="event")) == [
        (1, ["e01", "e02"], 2),
        (1, ["e03", "e04"], 2),
    ]
    assert groups(api.compaction_candidates(type="event", depth=1)) == [(2, ["r0", "r1"], 2)]
    assert api.compaction_candidates(type="event", depth=2).groups == ()


def test_compaction_candidates_after_compacting_a_group(store: Any) -> None:
    api = load(store, events(12))
    first = api.compaction_candidates(type="event").groups[0]
    store.write_api().compact_nodes(type="event", child_ids=list(first.child_ids), summary="s")
    assert groups(api.compaction_candidates(type="event")) == [
        (1, ["e04", "e05", "e06"], 3),
        (1, ["e07", "e08", "e09"], 3),
    ]

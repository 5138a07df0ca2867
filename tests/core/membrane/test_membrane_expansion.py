"""retrieveGraph's expansion (breadth-first, redacted leaves, omitted and missing targets,
edges to nodes already present, duplicate relations, edge fields), the order of returned
nodes, Luker nodes and notes among the candidates, and the index kept in step with writes."""

from __future__ import annotations

import random
from typing import Any

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.freeze import freeze
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.membrane import retrieval
from memgraph_gui.core.membrane.attributes import OVERRIDES
from memgraph_gui.core.membrane.candidates import INDEX, CandidateIndex, candidate_index
from memgraph_gui.core.membrane.model import ZERO_TIME
from memgraph_gui.core.membrane.trust import REDACTED_KEYS
from tests.core.membrane.conftest import node_ids, put, rec, trust


def edges(answer: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(e["source_id"], e["predicate"], e["target_id"]) for e in answer["edges"]]


def graph_of(store: MemoryStore, *args: Any) -> dict[str, Any]:
    return store.membrane().retrieve_graph(*args)


def test_a_redacted_node_is_a_leaf(store: MemoryStore) -> None:
    put(
        store,
        [
            rec("root", salience=0.9, relations=[("r", "red")]),
            rec("red", sensitivity="high", salience=0.1, relations=[("secret", "beyond")]),
            rec("beyond", salience=0.1),
        ],
    )
    answer = graph_of(store, "", trust("medium"), None, None, 1, None, None, 3)
    assert node_ids(answer) == ["root", "red"]
    assert edges(answer) == [("root", "r", "red")]
    assert list(answer["nodes"][1]["record"]) == list(REDACTED_KEYS)
    assert answer["nodes"][1]["hop"] == 1


def test_a_redacted_root_is_not_expanded(store: MemoryStore) -> None:
    put(
        store,
        [
            rec("red", sensitivity="high", salience=0.9, relations=[("r", "x")]),
            rec("x", salience=0.1),
        ],
    )
    answer = graph_of(store, "", trust("medium"), None, None, 1, None, None, 2)
    assert node_ids(answer) == ["red"]
    assert answer["edges"] == []


def test_omitted_and_missing_targets_give_no_node_and_no_edge(store: MemoryStore) -> None:
    put(
        store,
        [
            rec(
                "root",
                salience=0.9,
                relations=[("r", "hyper"), ("r", "out"), ("r", "ghost"), ("r", "ok")],
            ),
            rec("hyper", sensitivity="hyper", salience=0.1),
            rec("out", scope="other", salience=0.1),
            rec("ok", scope="mine", salience=0.1),
        ],
    )
    answer = graph_of(store, "", trust("medium", "mine"), None, None, 1, None, None, 1)
    assert node_ids(answer) == ["root", "ok"]
    assert edges(answer) == [("root", "r", "ok")]


def test_an_edge_to_a_node_present_comes_without_a_new_node(store: MemoryStore) -> None:
    put(
        store,
        [
            rec("a", salience=0.9, relations=[("r", "b"), ("r", "c")]),
            rec("b", salience=0.8, relations=[("back", "a"), ("r", "c")]),
            rec("c", salience=0.1, relations=[("r", "a")]),
        ],
    )
    answer = graph_of(store, "", trust(), None, None, 2, None, None, 1)
    assert node_ids(answer) == ["a", "b", "c"]
    assert [n["hop"] for n in answer["nodes"]] == [0, 0, 1]
    # c is at hop 1 = max_hops: not expanded, so c -> a is not returned
    assert edges(answer) == [("a", "r", "b"), ("a", "r", "c"), ("b", "back", "a"), ("b", "r", "c")]


def test_duplicate_relations_give_one_edge_with_the_last_weight(store: MemoryStore) -> None:
    put(
        store,
        [
            rec(
                "a",
                salience=0.9,
                relations=[
                    {"predicate": "r", "target_id": "b", "weight": 0.3},
                    {"predicate": "s", "target_id": "b", "created_at": "2026-02-02T00:00:00Z"},
                    {"predicate": "r", "target_id": "b", "weight": 0.7},
                ],
            ),
            rec("b", salience=0.1),
        ],
    )
    answer = graph_of(store, "", trust(), None, None, 1, None, None, 1)
    assert answer["edges"] == [
        {
            "source_id": "a",
            "predicate": "r",
            "target_id": "b",
            "weight": 0.7,
            "created_at": ZERO_TIME,
        },
        {
            "source_id": "a",
            "predicate": "s",
            "target_id": "b",
            "weight": 1.0,
            "created_at": "2026-02-02T00:00:00Z",
        },
    ]
    record = answer["nodes"][0]["record"]
    assert len(record["relations"]) == 3  # a full record keeps its relations as stored


def test_breadth_first_and_the_order_of_returned_nodes(store: MemoryStore) -> None:
    put(
        store,
        [
            rec("r1", salience=0.5, relations=[("x", "a1"), ("x", "a2")]),
            rec("r2", salience=0.6, relations=[("x", "b1")]),
            rec("a1", salience=0.1, relations=[("x", "deep")]),
            rec("a2", salience=0.3),
            rec("b1", salience=0.2),
            rec("deep", salience=0.05),
        ],
    )
    for trust_value in (trust(), trust("high")):
        answer = graph_of(store, "", trust_value, ["semantic"], 0.45, 2, None, None, 2)
        assert answer["root_ids"] == ["r2", "r1"]
        assert node_ids(answer) == ["r2", "r1", "a2", "b1", "a1", "deep"]
        assert [(n["root"], n["hop"]) for n in answer["nodes"]] == [
            (True, 0),
            (True, 0),
            (False, 1),
            (False, 1),
            (False, 1),
            (False, 2),
        ]
        assert edges(answer) == [
            ("r2", "x", "b1"),
            ("r1", "x", "a1"),
            ("r1", "x", "a2"),
            ("a1", "x", "deep"),
        ]


def test_node_limit_skips_new_targets_but_keeps_edges_to_present_ones(store: MemoryStore) -> None:
    put(
        store,
        [
            rec("a", salience=0.9, relations=[("r", "new1"), ("r", "b"), ("r", "new2")]),
            rec("b", salience=0.8),
            rec("new1", salience=0.1),
            rec("new2", salience=0.1),
        ],
    )
    answer = graph_of(store, "", trust(), ["semantic"], 0.5, 2, 2, None, 1)
    assert node_ids(answer) == ["a", "b"]
    assert edges(answer) == [("a", "r", "b")]


# -- Luker nodes and notes ------------------------------------------------------------------------
def luker_world(store: MemoryStore) -> None:
    with store.storage.transaction(OpKind.BATCH, "Luker") as tx:
        tx.put_node(
            Node("bob", "character_sheet", title="Bob", fields=freeze({"aliases": "Bobby"}))
        )
        tx.put_node(Node("ev", "event", title="Bob met Ann", fields=freeze({"summary": "inn"})))
        tx.put_node(Node("old", "event", title="Old", archived=True))
        tx.put_node(
            Node("roll", "event", title="Summary 1", semantic_rollup=True, semantic_depth=2)
        )
        tx.put_edge(Edge("ev", "bob", "involves"))
        tx.put_edge(Edge("roll", "ev", "contains"))


def test_luker_nodes_are_candidates_through_their_attributes(store: MemoryStore) -> None:
    luker_world(store)
    put(store, [rec("fact", salience=0.55, relations=[("mentions_entity", "bob")])])
    answer = graph_of(store, "", trust("low"), None, None, None, None, None, 1)
    assert answer["root_ids"] == ["roll", "fact", "bob", "ev", "old"]  # 0.8, .55, .5, .5, .1
    assert edges(answer) == [("fact", "mentions_entity", "bob"), ("ev", "involves", "bob")]
    assert graph_of(store, "", trust("public"), None, None, None, None, None, 0)["nodes"][0][
        "record"
    ] == {
        "id": "roll",
        "type": "semantic",
        "sensitivity": "low",
        "salience": 0.8,
        "scope": "",
        "tags": [],
        "created_at": ZERO_TIME,
        "updated_at": ZERO_TIME,
    }
    # Bob by an alias: the entity candidate and its boosts come from the projection
    answer = graph_of(store, "bobby", trust("low"), ["entity", "semantic"], None, 1, None, None, 0)
    assert answer["root_ids"] == ["bob"]
    assert store.membrane().retrieve_by_id("ev", trust("low"))["relations"] == [
        {"predicate": "involves", "target_id": "bob"}
    ]


def test_what_people_set_moves_a_node_between_tiers(store: MemoryStore) -> None:
    luker_world(store)
    api = store.membrane()
    with store.storage.transaction(OpKind.BATCH, "Set") as tx:
        tx.set_meta(OVERRIDES, {"bob": {"sensitivity": "hyper"}, "ev": {"salience": 0.95}})
    answer = api.retrieve_graph("", trust("medium"), None, None, None, None, None, 1)
    assert "bob" not in node_ids(answer)
    assert answer["root_ids"][0] == "ev"
    assert answer["edges"] == []
    with store.storage.transaction(OpKind.BATCH, "Set") as tx:
        tx.set_meta(OVERRIDES, {"bob": {"sensitivity": "high", "scope": "s"}})
    answer = api.retrieve_graph("", trust("medium", "s"), None, None, None, None, None, 1)
    assert set(answer["nodes"][node_ids(answer).index("bob")]["record"]) == set(REDACTED_KEYS)
    assert "bob" not in node_ids(api.retrieve_graph("", trust("medium", "t")))


def test_notes_are_candidates(store: MemoryStore) -> None:
    nug = store.nuggets("work")
    nug.remember("deploy-cmd", "make deploy")
    nug.remember("user:pref:tea", "green")
    with store.reading() as graph:
        notes = {n.fields["title"]: n for n in graph.nodes.values() if n.level == "nugget"}
    api = store.membrane()
    low = node_ids(api.retrieve_graph("", trust("public"), None, None, None, None, None, 0))
    assert low == [notes["deploy-cmd"].id]  # the user's preference is medium: omitted
    both = api.retrieve_graph("", trust("low", "work"), None, None, None, None, None, 0)
    assert {n["record"]["id"] for n in both["nodes"]} == {n.id for n in notes.values()}
    assert node_ids(api.retrieve_graph("", trust("medium", "other"))) == []


# -- the index in step ----------------------------------------------------------------------------
def test_the_index_follows_every_write(store: MemoryStore) -> None:
    rng = random.Random(7)
    levels = ["public", "low", "medium", "high", "hyper"]
    kinds = ["entity", "semantic", "episodic", "competence", "working", "plan_graph"]
    ids = [f"r{i}" for i in range(30)]
    api = store.membrane()
    for step in range(12):
        records = []
        for record_id in rng.sample(ids, 8):
            kind = rng.choice(kinds)
            payload = None
            if kind == "entity":
                payload = {"kind": "entity", "canonical_name": rng.choice(["orchid", "tulip"])}
            records.append(
                rec(
                    record_id,
                    kind,
                    rng.choice(levels),
                    round(rng.random(), 2),
                    scope=rng.choice(["", "a", "b"]),
                    payload=payload,
                    relations=[("mentions_entity", rng.choice(ids)) for _ in range(2)],
                )
            )
        put(store, records)
        if step % 3 == 2:
            with store.storage.transaction(OpKind.BATCH, "Drop") as tx:
                gone = rng.choice(ids)
                for key in tx.edge_keys_touching(gone):
                    tx.remove_edge(key)
                tx.remove_node(gone)
        api.retrieve_graph("orchid", trust())  # the index exists and is kept in step from now
        for caller in (trust("medium"), trust("low", "a"), trust("high", "b")):
            for task in ("orchid", "", "tulip x"):
                with store.reading() as graph:
                    kept = retrieval.retrieve_graph(graph, task, caller, now=1.0e9)
                    fresh_index = CandidateIndex(graph.nodes.values())
                    index = candidate_index(graph)
                    assert index.by_level == fresh_index.by_level
                    assert index.by_scope == fresh_index.by_scope
                    assert index.terms == fresh_index.terms
                    graph._indexes.pop(INDEX)
                    rebuilt = retrieval.retrieve_graph(graph, task, caller, now=1.0e9)
                assert kept == rebuilt

"""retrieveGraph's candidates and ranking: limits and their defaults, the layer order, ties,
``min_salience``, the 3 × root_limit cut, the selector and its ``selection``, entity candidates
and every re-ranking boost."""

from __future__ import annotations

from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.membrane import retrieval
from memgraph_gui.core.membrane.candidates import candidate_index, norm
from memgraph_gui.core.membrane.trust import parse_trust
from tests.core.membrane.conftest import node_ids, put, rec, trust

NOW = 1_780_000_000.0  # 2026-05-28
DAY = 86400.0


def stamp(seconds: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


def graph_call(store: MemoryStore, *args: Any, now: float = NOW) -> dict[str, Any]:
    with store.reading() as graph:
        return retrieval.retrieve_graph(graph, *args, now=now)


def roots(answer: dict[str, Any]) -> list[str]:
    return list(answer["root_ids"])


# -- limits ---------------------------------------------------------------------------------------
def test_limits_fall_back_to_10_25_100(store: MemoryStore) -> None:
    hub = rec("hub", salience=0.99, relations=[("r", f"leaf{i}") for i in range(120)])
    leaves = [rec(f"leaf{i}", salience=0.001, relations=[("r", "hub")]) for i in range(120)]
    put(store, [*leaves, hub])
    api = store.membrane()
    for given in (None, 0, -3):
        answer = api.retrieve_graph("", trust(), None, None, given, given, given, 1)
        assert len(answer["root_ids"]) == 10
        assert len(answer["nodes"]) == 25
        assert answer["root_ids"][0] == "hub"
    many = api.retrieve_graph("", trust(), None, None, 1, 500, None, 1)
    assert len(many["edges"]) == 100
    assert len(many["nodes"]) == 101


def test_node_limit_counts_roots_and_drops_those_beyond_it(store: MemoryStore) -> None:
    put(
        store,
        [rec(f"r{i}", salience=1 - i / 10, relations=[("r", "r0")] if i else []) for i in range(6)],
    )
    answer = store.membrane().retrieve_graph("", trust(), None, None, 5, 3, None, 2)
    assert answer["root_ids"] == ["r0", "r1", "r2"]
    assert node_ids(answer) == ["r0", "r1", "r2"]
    assert [(e["source_id"], e["target_id"]) for e in answer["edges"]] == [
        ("r1", "r0"),
        ("r2", "r0"),
    ]


def chain(store: MemoryStore) -> None:
    put(
        store,
        [
            rec("a", salience=0.9, relations=[("next", "b")]),
            rec("b", salience=0.1, relations=[("next", "c")]),
            rec("c", salience=0.1, relations=[("next", "d")]),
            rec("d", salience=0.1),
        ],
    )


@pytest.mark.parametrize(
    ("hops", "expected"),
    [
        (None, ["a", "b"]),
        (0, ["a"]),
        (-1, ["a"]),
        (-7, ["a"]),
        (1, ["a", "b"]),
        (2, ["a", "b", "c"]),
        (9, ["a", "b", "c", "d"]),
    ],
)
def test_max_hops(store: MemoryStore, hops: int | None, expected: list[str]) -> None:
    chain(store)
    answer = store.membrane().retrieve_graph("", trust(), None, None, 1, None, None, hops)
    assert node_ids(answer) == expected
    assert [n["hop"] for n in answer["nodes"]] == list(range(len(expected)))
    assert [n["root"] for n in answer["nodes"]] == [True] + [False] * (len(expected) - 1)
    assert len(answer["edges"]) == len(expected) - 1


def test_edge_limit_stops_expansion_and_its_new_nodes(store: MemoryStore) -> None:
    put(
        store,
        [rec("root", salience=0.9, relations=[("r", f"t{i}") for i in range(5)])]
        + [rec(f"t{i}", salience=0.1) for i in range(5)],
    )
    answer = store.membrane().retrieve_graph("", trust(), None, None, 1, None, 2, 1)
    assert node_ids(answer) == ["root", "t0", "t1"]
    assert [e["target_id"] for e in answer["edges"]] == ["t0", "t1"]


# -- ranking --------------------------------------------------------------------------------------
def test_salience_descending_across_layers(store: MemoryStore) -> None:
    put(
        store,
        [
            rec("work", "working", salience=0.2),
            rec("ent", "entity", salience=0.6),
            rec("fact", "semantic", salience=0.9),
            rec("skill", "competence", salience=0.4),
            rec("plan", "plan_graph", salience=0.3),
            rec("ep", "episodic", salience=0.8),
        ],
    )
    answer = store.membrane().retrieve_graph("", trust(), None, None, None, None, None, 0)
    assert node_ids(answer) == ["fact", "ep", "ent", "skill", "plan", "work"]
    assert roots(answer) == node_ids(answer)
    assert "selection" not in answer  # no descriptor: the selector does not run


def test_ties_keep_the_layer_order_then_newest_then_import_order(store: MemoryStore) -> None:
    put(
        store,
        [
            rec("ep", "episodic"),
            rec("fact-old", "semantic", created="2026-01-01T00:00:00Z"),
            rec("fact-new", "semantic", created="2026-03-01T00:00:00+02:00"),
            rec("fact-same-1", "semantic", created="2026-02-01T00:00:00Z"),
            rec("fact-same-0", "semantic", created="2026-02-01T00:00:00Z"),
            rec("ent", "entity"),
            rec("work", "working"),
        ],
    )
    api = store.membrane()
    answer = api.retrieve_graph("", trust(), None, None, None, None, None, 0)
    expected = ["work", "ent", "fact-new", "fact-same-1", "fact-same-0", "fact-old", "ep"]
    assert roots(answer) == expected
    given = api.retrieve_graph(
        "", trust(), ["episodic", "semantic", "episodic"], None, None, None, None, 0
    )
    assert roots(given) == ["ep", "fact-new", "fact-same-1", "fact-same-0", "fact-old"]


def test_memory_types_filter_the_candidates(store: MemoryStore) -> None:
    put(store, [rec("e", "entity"), rec("s", "semantic"), rec("w", "working")])
    answer = store.membrane().retrieve_graph("", trust(), ["semantic"], None, None, None, None, 0)
    assert node_ids(answer) == ["s"]
    every = store.membrane().retrieve_graph("", trust(), [], None, None, None, None, 0)
    assert set(node_ids(every)) == {"e", "s", "w"}


def test_min_salience_drops_records_below_it(store: MemoryStore) -> None:
    put(store, [rec("hi", salience=0.8), rec("edge", salience=0.5), rec("lo", salience=0.49)])
    api = store.membrane()
    assert node_ids(api.retrieve_graph("", trust(), None, 0.5, None, None, None, 0)) == [
        "hi",
        "edge",
    ]
    for off in (0, None, -1):
        assert len(api.retrieve_graph("", trust(), None, off, None, None, None, 0)["nodes"]) == 3


def test_min_salience_does_not_stop_expansion(store: MemoryStore) -> None:
    put(store, [rec("hi", salience=0.8, relations=[("r", "lo")]), rec("lo", salience=0.1)])
    answer = store.membrane().retrieve_graph("", trust(), None, 0.5, None, None, None, 1)
    assert node_ids(answer) == ["hi", "lo"]


def test_only_the_first_three_root_limits_are_reranked(store: MemoryStore) -> None:
    target = {"kind": "entity", "canonical_name": "Orchid"}
    put(
        store,
        [
            rec("orchid", "entity", salience=0.0001, payload=target, scope="x"),
            *(rec(f"r{i}", salience=0.9 - i / 100) for i in range(3)),
            rec("late", salience=0.5, relations=[("mentions_entity", "orchid")]),
            rec("third", salience=0.885, relations=[("mentions_entity", "orchid")]),
        ],
    )
    # ranking: r0 .9, r1 .89, third .885, r2 .88, late .5 ... cut at 3 x 1 = 3
    answer = store.membrane().retrieve_graph("orchid", trust(), None, None, 1, None, None, 0)
    assert roots(answer) == ["orchid"]  # the entity candidate, added after the cut, boosted +100
    answer = store.membrane().retrieve_graph(
        "orchid", trust(), ["semantic"], None, 1, None, None, 0
    )
    assert roots(answer) == ["third"]  # +80 from its relation; "late" was cut


# -- the selector ---------------------------------------------------------------------------------
def skill(
    record_id: str, wins: int, losses: int, confidence: float, reinforced: str, **kw: Any
) -> dict[str, Any]:
    payload = {
        "kind": "competence",
        "skill_name": record_id,
        "triggers": [],
        "recipe": [],
        "performance": {"success_count": wins, "failure_count": losses},
    }
    return rec(
        record_id, "competence", payload=payload, confidence=confidence, reinforced=reinforced, **kw
    )


def test_the_selector_scores_and_goes_first(store: MemoryStore) -> None:
    put(
        store,
        [
            rec("fact", salience=0.99),
            skill("fresh", 9, 1, 1.0, stamp(NOW), salience=0.1),
            skill("month", 0, 0, 0.4, stamp(NOW - 30 * DAY), salience=0.2),
            skill("unset", 1, 3, 0.2, "0001-01-01T00:00:00Z", salience=0.3),
            skill("future", 0, 2, 0.0, stamp(NOW + DAY), salience=0.05),
            rec(
                "plan-run",
                "plan_graph",
                salience=0.3,
                confidence=0.5,
                payload={
                    "kind": "plan_graph",
                    "plan_id": "p",
                    "version": "1",
                    "nodes": [],
                    "edges": [],
                    "metrics": {"execution_count": 4, "failure_rate": 0.25},
                },
            ),
            rec(
                "plan-idle",
                "plan_graph",
                salience=0.3,
                confidence=0.5,
                payload={
                    "kind": "plan_graph",
                    "plan_id": "q",
                    "version": "1",
                    "nodes": [],
                    "edges": [],
                    "metrics": {"failure_rate": 0.9},
                },
            ),
            skill("hidden", 9, 0, 1.0, stamp(NOW), sensitivity="high", salience=0.9),
        ],
    )
    answer = graph_call(store, "anything", trust("medium"), None, None, 10, None, None, 0)
    scores = answer["selection"]["scores"]
    assert scores["fresh"] == pytest.approx((1.0 + 0.9 + 1.0) / 3)
    assert scores["month"] == pytest.approx((0.4 + 0.5 + 0.5) / 3)
    assert scores["unset"] == pytest.approx((0.2 + 0.25 + 0.5) / 3)
    assert scores["future"] == pytest.approx((0.0 + 0.0 + 1.0) / 3)
    assert scores["plan-run"] == pytest.approx((0.5 + 0.75 + 0.5) / 3)
    assert scores["plan-idle"] == pytest.approx((0.5 + 0.5 + 0.5) / 3)
    assert scores["hidden"] == 0.5  # redacted: flat
    selected = answer["selection"]["selected"]
    assert selected == sorted(scores, key=lambda i: -scores[i])
    assert selected == ["fresh", "plan-run", "hidden", "plan-idle", "month", "future", "unset"]
    assert list(scores) == selected
    best, second = scores["fresh"], scores["plan-run"]
    assert answer["selection"]["confidence"] == pytest.approx((best - second) / best)
    assert answer["selection"]["needs_more"] is True
    assert roots(answer) == [*selected, "fact"]  # every scored candidate ahead of the rest
    assert set(answer["selection"]) == {"selected", "confidence", "needs_more", "scores"}


def test_one_candidate_has_its_score_as_confidence(store: MemoryStore) -> None:
    put(store, [skill("only", 10, 0, 1.0, stamp(NOW), salience=0.1), rec("fact", salience=0.9)])
    answer = graph_call(store, "x", trust(), None, None, None, None, None, 0)
    assert answer["selection"]["selected"] == ["only"]
    assert answer["selection"]["confidence"] == pytest.approx(1.0)
    assert answer["selection"]["needs_more"] is False
    assert roots(answer) == ["only", "fact"]


def test_no_selector_without_descriptor_or_candidates(store: MemoryStore) -> None:
    put(
        store,
        [
            skill("s", 1, 0, 1.0, stamp(NOW), salience=0.1, sensitivity="medium"),
            rec("fact", salience=0.9),
        ],
    )
    assert "selection" not in graph_call(store, "", trust(), None, None, None, None, None, 0)
    assert "selection" not in graph_call(
        store, "x", trust(), ["semantic"], None, None, None, None, 0
    )
    assert "selection" not in graph_call(
        store, "x", trust("public"), None, None, None, None, None, 0
    )
    assert "selection" not in graph_call(store, "x", trust(), None, 0.5, None, None, None, 0)
    assert "selection" in graph_call(store, "x", trust(), ["competence"], None, None, None, None, 0)


def test_the_selector_ranks_ahead_before_the_cut(store: MemoryStore) -> None:
    put(
        store,
        [skill(f"s{i}", i, 1, 0.5, "0001-01-01T00:00:00Z", salience=0.01) for i in range(5)]
        + [rec("fact", salience=0.9)],
    )
    answer = graph_call(store, "x", trust(), None, None, 1, None, None, 0)
    assert roots(answer) == ["s4"]
    assert answer["selection"]["selected"] == ["s4", "s3", "s2", "s1", "s0"]


def test_the_selector_reads_what_people_set(store: MemoryStore) -> None:
    from memgraph_gui.core.domain.changes import OpKind
    from memgraph_gui.core.domain.freeze import freeze
    from memgraph_gui.core.domain.model import Node
    from memgraph_gui.core.membrane.attributes import OVERRIDES

    put(store, [skill("s", 1, 0, 1.0, stamp(NOW), salience=0.1)])
    with store.storage.transaction(OpKind.BATCH, "luker") as tx:
        tx.put_node(Node("n", "event", title="Deploy", fields=freeze({"summary": "x"})))
        tx.set_meta(OVERRIDES, {"n": {"memory_type": "competence", "salience": 0.9}})
    answer = graph_call(store, "x", trust(), None, None, None, None, None, 0)
    assert answer["selection"]["scores"]["n"] == pytest.approx((1.0 + 0.5 + 0.5) / 3)
    assert answer["selection"]["selected"] == ["s", "n"]
    with store.storage.transaction(OpKind.BATCH, "luker") as tx:
        tx.set_meta(OVERRIDES, {"n": {"memory_type": "competence", "sensitivity": "hyper"}})
    answer = graph_call(store, "x", trust(), None, None, None, None, None, 0)
    assert answer["selection"]["selected"] == ["s"]


def test_the_array_selector_equals_the_one_by_one_path(store: MemoryStore) -> None:
    import random

    rng = random.Random(5)
    put(
        store,
        [
            skill(
                f"s{i}",
                rng.randrange(5),
                rng.randrange(3),
                round(rng.random(), 2),
                rng.choice([stamp(NOW - rng.random() * 90 * DAY), "0001-01-01T00:00:00Z"]),
                sensitivity=rng.choice(["low", "medium", "high", "hyper"]),
                scope=rng.choice(["", "a", "b"]),
                salience=round(rng.random(), 1),
            )
            for i in range(60)
        ],
    )
    for caller in (trust("medium"), trust("low", "a"), trust("high", "b", "c")):
        with store.reading() as graph:
            reader = retrieval._Reader(graph, parse_trust(caller), 0.2)
            fast = retrieval._select(reader, ["competence"], NOW, 30)
            index = candidate_index(graph)
            reader.extra = {"s0": index.entries["s0"]}  # forces the one-by-one path
            slow = retrieval._select(reader, ["competence"], NOW, 30)
        assert fast[0] == slow[0]
        assert [(e.id, t) for e, t in fast[1]] == [(e.id, t) for e, t in slow[1]]


# -- entity candidates ----------------------------------------------------------------------------
def entity(record_id: str, name: str, *aliases: Any, **kw: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {"kind": "entity", "canonical_name": name}
    if aliases:
        payload["aliases"] = list(aliases)
    return rec(record_id, "entity", payload=payload, **kw)


def many_facts(count: int = 40) -> list[dict[str, Any]]:
    return [rec(f"f{i:02d}", salience=0.9) for i in range(count)]


def test_entities_named_exactly_by_the_descriptor_become_candidates(store: MemoryStore) -> None:
    put(
        store,
        [
            *many_facts(),
            entity("by-name", "Orchid DB", salience=0.01),
            entity("by-alias", "Other", "orchid db", salience=0.01),
            entity(
                "by-alias-object",
                "Third",
                {"value": "  ORCHID db ", "kind": "alias"},
                salience=0.01,
            ),
            entity("partial", "Orchid", salience=0.01),
        ],
    )
    answer = store.membrane().retrieve_graph("  Orchid DB ", trust(), None, None, 4, None, None, 0)
    assert roots(answer)[:3] == ["by-name", "by-alias", "by-alias-object"]  # +100, +75, +75
    assert "partial" not in roots(answer)  # not an exact name: only the 3 x root_limit first


def test_entity_candidates_per_scope(store: MemoryStore) -> None:
    ents = [
        entity("z-unscoped", "orchid", salience=0.01),
        entity("a-unscoped", "orchid", salience=0.01),
        entity("b-in-a", "orchid", scope="a", salience=0.01),
        entity("c-in-b", "orchid", scope="b", salience=0.01),
        entity("d-in-c", "orchid", scope="c", salience=0.01),
        entity("hyper", "orchid", sensitivity="hyper", salience=0.01),
        entity("low-salience", "orchid", salience=0.001, scope="a"),
    ]
    put(store, [*many_facts(), *ents])
    with store.reading() as graph:
        reader = retrieval._Reader(graph, parse_trust(trust("medium", "a", "b")), 0.0)
        got = [(e.id, t) for e, t in reader.entities("Orchid", 3)]
        # scope a: its own first, then by id; at most 3, then the trust filter
        assert got == [
            ("b-in-a", "full"),
            ("low-salience", "full"),
            ("a-unscoped", "full"),
            ("c-in-b", "full"),
            ("a-unscoped", "full"),
        ]
        reader = retrieval._Reader(graph, parse_trust(trust("medium")), 0.005)
        got = [e.id for e, _ in reader.entities("orchid", 10)]
        # no scopes: every match (seed), unscoped first, then by id; min_salience applies
        assert got == ["a-unscoped", "z-unscoped", "b-in-a", "c-in-b", "d-in-c"]
        reader = retrieval._Reader(graph, parse_trust(trust("medium")), 0.0)
        got = [e.id for e, _ in reader.entities("orchid", 2)]
        assert got == ["a-unscoped"]  # as Membrane's lookup: the limit, then the trust filter


def test_entity_candidates_need_entity_allowed_and_a_descriptor(store: MemoryStore) -> None:
    put(store, [*many_facts(), entity("orchid", "orchid", salience=0.01)])
    api = store.membrane()
    assert "orchid" in roots(api.retrieve_graph("orchid", trust(), None, None, 1, None, None, 0))
    no_entity = api.retrieve_graph("orchid", trust(), ["semantic"], None, 1, None, None, 0)
    assert "orchid" not in node_ids(no_entity)
    assert "orchid" not in node_ids(
        api.retrieve_graph("   ", trust(), None, None, 1, None, None, 0)
    )


def test_a_redacted_entity_candidate_comes_redacted_without_boost(store: MemoryStore) -> None:
    put(store, [*many_facts(3), entity("orchid", "orchid", sensitivity="high", salience=0.01)])
    answer = store.membrane().retrieve_graph(
        "orchid", trust("medium"), None, None, 1, None, None, 0
    )
    assert roots(answer) == ["f00"]
    answer = store.membrane().retrieve_graph(
        "orchid", trust("medium"), None, None, 4, None, None, 0
    )
    assert roots(answer) == ["f00", "f01", "f02", "orchid"]
    assert "payload" not in answer["nodes"][-1]["record"]


# -- the boosts -----------------------------------------------------------------------------------
def boost_of(
    store: MemoryStore, record: dict[str, Any], query: str, level: str = "medium"
) -> float:
    with store.reading() as graph:
        reader = retrieval._Reader(graph, parse_trust(trust(level)), 0.0)
        found = reader.entry(record["id"])
        assert found is not None
        return reader.boost((found, reader.tier(found)), norm(query))


def test_entity_boosts(store: MemoryStore) -> None:
    canon = rec(
        "canon",
        "entity",
        payload={
            "kind": "entity",
            "canonical_name": "Orchid",
            "primary_type": "Service",
            "types": ["Database", "service"],
        },
    )
    alias = rec(
        "alias",
        "entity",
        payload={
            "kind": "entity",
            "canonical_name": "Other",
            "aliases": [" ORCHID ", {"value": "orchid"}],
        },
    )
    typed = rec(
        "typed",
        "entity",
        payload={"kind": "entity", "canonical_name": "Name", "types": ["Database"]},
    )
    loose = rec(
        "loose", "entity", payload={"kind": "entity", "canonical_name": "orchid db cluster"}
    )
    hidden = rec("hidden", "entity", "high", payload={"kind": "entity", "canonical_name": "Orchid"})
    put(store, [canon, alias, typed, loose, hidden])
    assert boost_of(store, canon, "orchid") == 100
    assert boost_of(store, canon, "ORCHID service") == 100 + 15  # "service" is in the query
    assert boost_of(store, canon, "database") == 15
    assert boost_of(store, alias, "orchid") == 75  # once, however many aliases match
    assert boost_of(store, typed, "a database") == 15
    assert boost_of(store, loose, " Orchid DB ") == 100  # the query is in the name
    assert boost_of(store, loose, "tulip") == 0
    assert boost_of(store, hidden, "orchid") == 0  # redacted: no payload, no boost
    assert boost_of(store, hidden, "orchid", "high") == 100


def test_mention_boosts_and_the_first_match_ends_the_search(store: MemoryStore) -> None:
    def mentions(*items: dict[str, Any]) -> dict[str, Any]:
        return {"mentions": list(items)}

    surface = rec("surface", interpretation=mentions({"surface": "Orchid"}, {"surface": "orchid"}))
    aliased = rec("aliased", interpretation=mentions({"surface": "db", "aliases": ["x", "ORCHID"]}))
    first = rec(
        "first",
        interpretation=mentions({"surface": "x", "aliases": ["orchid"]}, {"surface": "orchid"}),
    )
    none = rec("none", interpretation=mentions({"surface": "tulip"}))
    put(store, [surface, aliased, first, none])
    assert boost_of(store, surface, "orchid") == 30
    assert boost_of(store, aliased, "orchid") == 20
    assert boost_of(store, first, "orchid") == 20
    assert boost_of(store, none, "orchid") == 0


@pytest.mark.parametrize(
    ("predicate", "bonus"),
    [
        ("mentions_entity", 20),
        ("mentioned_in", 20),
        ("subject_entity", 25),
        ("fact_subject_of", 25),
        ("object_entity", 25),
        ("fact_object_of", 25),
        ("supports", 10),
        ("supported_by", 10),
        ("depends_on", 10),
        (" Dependency_Of ", 10),
        ("related_to", 0),
    ],
)
def test_relation_boosts(store: MemoryStore, predicate: str, bonus: float) -> None:
    put(
        store,
        [
            rec("named", "entity", payload={"kind": "entity", "canonical_name": "Orchid"}),
            rec(
                "aliased",
                "entity",
                payload={"kind": "entity", "canonical_name": "X", "aliases": ["orchid"]},
            ),
            rec(
                "both",
                "entity",
                payload={"kind": "entity", "canonical_name": "orchid", "aliases": ["Orchid"]},
            ),
            rec("hidden", "entity", "high", payload={"kind": "entity", "canonical_name": "orchid"}),
            rec("not-entity", "semantic", payload={"kind": "semantic", "subject": "orchid"}),
        ],
    )
    cases = {
        "named": 60,
        "aliased": 45,
        "both": 105,
        "hidden": None,
        "not-entity": None,
        "gone": None,
    }
    for target, base in cases.items():
        record = rec(f"from-{target}", relations=[(predicate, target)])
        put(store, [record])
        expected = 0 if base is None else base + (2 * bonus if target == "both" else bonus)
        assert boost_of(store, record, "orchid") == expected, target
    twice = rec("twice", relations=[(predicate, "named"), (predicate, "aliased")])
    put(store, [twice])
    assert boost_of(store, twice, "orchid") == 60 + 45 + 2 * bonus


def test_the_boosts_reorder_the_roots(store: MemoryStore) -> None:
    put(
        store,
        [
            rec(
                "orchid",
                "entity",
                salience=0.1,
                payload={"kind": "entity", "canonical_name": "orchid"},
            ),
            rec("plain", salience=0.9),
            rec("mentions", salience=0.2, relations=[("mentions_entity", "orchid")]),
        ],
    )
    answer = store.membrane().retrieve_graph("orchid", trust(), None, None, None, None, None, 0)
    # plain 3 + 0; mentions 2 + 80; orchid 1 + 100
    assert roots(answer) == ["orchid", "mentions", "plain"]
    assert node_ids(answer) == ["plain", "mentions", "orchid"]  # nodes: by salience
    no_task = store.membrane().retrieve_graph("", trust(), None, None, None, None, None, 0)
    assert roots(no_task) == ["plain", "mentions", "orchid"]

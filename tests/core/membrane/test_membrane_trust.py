"""The trust rules of retrieveGraph and retrieveByID: the three tiers at every level, scopes,
unscoped records, redaction to exactly the seed's eight keys, and the argument errors."""

from __future__ import annotations

from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.membrane.model import SENSITIVITIES
from memgraph_gui.core.membrane.trust import REDACTED_KEYS
from tests.core.membrane.conftest import node_ids, put, rec, trust


def by_id(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["record"]["id"]: n["record"] for n in answer["nodes"]}


def code_of(fn: Any, *args: Any) -> str:
    with pytest.raises(MemgraphError) as caught:
        fn(*args)
    return caught.value.code


@pytest.mark.parametrize("caller", SENSITIVITIES)
def test_every_level_against_every_caller(store: MemoryStore, caller: str) -> None:
    records = [rec(level, sensitivity=level, salience=0.5) for level in SENSITIVITIES]
    put(store, records)
    api = store.membrane()
    got = by_id(api.retrieve_graph("", trust(caller), None, None, 10, 25, 100, 0))
    top = SENSITIVITIES.index(caller)
    for rank, record in enumerate(records):
        level = record["id"]
        if rank <= top:
            assert got[level] == record
            assert api.retrieve_by_id(level, trust(caller)) == record
        elif rank == top + 1:
            assert list(got[level]) == list(REDACTED_KEYS)
            assert code_of(api.retrieve_by_id, level, trust(caller)) == "ACCESS_DENIED"
        else:
            assert level not in got
            assert code_of(api.retrieve_by_id, level, trust(caller)) == "ACCESS_DENIED"


def test_the_seeds_table(store: MemoryStore) -> None:
    put(store, [rec(level, sensitivity=level) for level in ("low", "medium", "high", "hyper")])
    got = by_id(store.membrane().retrieve_graph("", trust("medium")))
    assert set(got) == {"low", "medium", "high"}
    assert "payload" in got["low"] and "payload" in got["medium"]
    assert set(got["high"]) == set(REDACTED_KEYS)


def test_a_redacted_record_keeps_exactly_the_eight_keys(store: MemoryStore) -> None:
    full = rec(
        "r",
        "entity",
        "high",
        0.4,
        scope="p",
        tags=["a", "b"],
        relations=[("mentions_entity", "r")],
        interpretation={"summary": "secret"},
        created="2026-02-03T04:05:06.123456789Z",
    )
    bare = rec("bare", "entity", "high", 0.3)
    put(store, [full, bare])
    got = by_id(store.membrane().retrieve_graph("", trust("medium")))
    assert got["r"] == {
        "id": "r",
        "type": "entity",
        "sensitivity": "high",
        "salience": 0.4,
        "scope": "p",
        "tags": ["a", "b"],
        "created_at": "2026-02-03T04:05:06.123456789Z",
        "updated_at": "2026-02-03T04:05:06.123456789Z",
    }
    assert list(got["r"]) == list(REDACTED_KEYS)
    assert got["bare"]["scope"] == "" and got["bare"]["tags"] == []
    assert list(got["bare"]) == list(REDACTED_KEYS)


def test_scopes_match_exactly_and_unscoped_records_are_seen_by_all(store: MemoryStore) -> None:
    put(
        store,
        [
            rec("in", scope="proj"),
            rec("other", scope="other"),
            rec("case", scope="Proj"),
            rec("prefix", scope="proj-x"),
            rec("shorter", scope="pro"),
            rec("none"),
            rec("red-in", sensitivity="high", scope="proj"),
            rec("red-out", sensitivity="high", scope="other"),
        ],
    )
    api = store.membrane()
    scoped = by_id(api.retrieve_graph("", trust("medium", "proj", "x"), None, None, 20, 30, 0, 0))
    assert set(scoped) == {"in", "none", "red-in"}
    assert set(scoped["red-in"]) == set(REDACTED_KEYS)
    every = by_id(api.retrieve_graph("", trust("medium"), None, None, 20, 30, 0, 0))
    assert set(every) == {"in", "other", "case", "prefix", "shorter", "none", "red-in", "red-out"}
    caller = trust("medium", "proj")
    assert api.retrieve_by_id("in", caller)["id"] == "in"
    assert api.retrieve_by_id("none", caller)["id"] == "none"
    for denied in ("other", "case", "prefix", "shorter", "red-in", "red-out"):
        assert code_of(api.retrieve_by_id, denied, caller) == "ACCESS_DENIED"


def test_actor_and_authentication_gate_nothing(store: MemoryStore) -> None:
    put(store, [rec("a", sensitivity="medium"), rec("b", sensitivity="high")])
    api = store.membrane()
    one = api.retrieve_graph("", {"max_sensitivity": "medium"})
    other = api.retrieve_graph(
        "", {"max_sensitivity": "medium", "authenticated": False, "actor_id": "x"}
    )
    assert one == other


def test_retrieve_by_id_checks_existence_first(store: MemoryStore) -> None:
    put(store, [rec("hyper", sensitivity="hyper", scope="s", relations=[("r", "low")]), rec("low")])
    api = store.membrane()
    assert code_of(api.retrieve_by_id, "missing", trust("public", "nothing")) == "RECORD_NOT_FOUND"
    assert code_of(api.retrieve_by_id, "hyper", trust("high", "s")) == "ACCESS_DENIED"
    assert code_of(api.retrieve_by_id, "hyper", trust("hyper", "t")) == "ACCESS_DENIED"
    whole = api.retrieve_by_id("hyper", trust("hyper", "s"))
    assert whole["relations"] == [{"predicate": "r", "target_id": "low"}]
    assert whole["payload"]["kind"] == "semantic"


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (None, "INVALID_ARGUMENT"),
        ({}, "INVALID_ARGUMENT"),
        ({"max_sensitivity": "secret"}, "INVALID_ARGUMENT"),
        ({"max_sensitivity": None}, "INVALID_ARGUMENT"),
        ("medium", "INVALID_ARGUMENT"),
        ({"max_sensitivity": "low", "scopes": "a"}, "INVALID_ARGUMENT"),
        ({"max_sensitivity": "low", "authenticated": "yes"}, "INVALID_ARGUMENT"),
    ],
)
def test_a_bad_trust_is_an_invalid_argument(store: MemoryStore, value: Any, code: str) -> None:
    put(store, [rec("a")])
    api = store.membrane()
    assert code_of(api.retrieve_graph, "task", value) == code
    assert code_of(api.retrieve_by_id, "a", value) == code
    assert code_of(api.retrieve_by_id, "missing", value) == code  # arguments before existence


@pytest.mark.parametrize(
    ("args", "place"),
    [
        ((5, trust()), "task_descriptor"),
        (("t", trust(), ["entity", "bogus"]), "memory_types[1]"),
        (("t", trust(), "entity"), "memory_types"),
        (("t", trust(), None, "high"), "min_salience"),
        (("t", trust(), None, True), "min_salience"),
        (("t", trust(), None, None, "3"), "root_limit"),
        (("t", trust(), None, None, 2.5), "root_limit"),
        (("t", trust(), None, None, None, False), "node_limit"),
        (("t", trust(), None, None, None, None, [1]), "edge_limit"),
        (("t", trust(), None, None, None, None, None, "2"), "max_hops"),
    ],
)
def test_wrong_arguments_name_the_place(
    store: MemoryStore, args: tuple[Any, ...], place: str
) -> None:
    with pytest.raises(MemgraphError) as caught:
        store.membrane().retrieve_graph(*args)
    assert caught.value.code == "INVALID_ARGUMENT"
    assert caught.value.message.startswith(place)


def test_an_id_must_be_a_string(store: MemoryStore) -> None:
    api = store.membrane()
    assert code_of(api.retrieve_by_id, None, trust()) == "INVALID_ARGUMENT"
    assert code_of(api.retrieve_by_id, 3, trust()) == "INVALID_ARGUMENT"


def test_integral_floats_count_as_integers(store: MemoryStore) -> None:
    put(store, [rec(f"r{i}", salience=i / 10) for i in range(5)])
    got = store.membrane().retrieve_graph("", trust(), None, None, 2.0, None, None, 0.0)
    assert node_ids(got) == ["r4", "r3"]

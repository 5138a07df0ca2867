"""No leaks, proven over random stores: whatever the records, relations, trust context and
arguments, no payload, provenance, relation, interpretation or audit-log data of a node the
caller may not read in full ever appears in retrieveGraph's or retrieveByID's answer; redacted
records have exactly the eight keys; omitted ones never appear."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.freeze import freeze
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.membrane.attributes import OVERRIDES
from memgraph_gui.core.membrane.model import MEMORY_TYPES, SENSITIVITIES
from memgraph_gui.core.membrane.trust import REDACTED_KEYS, parse_trust
from tests.core.membrane.conftest import put, rec

NAMES = ["orchid", "tulip", "Orchid DB"]
SCOPES = ["", "a", "b"]


def marks(key: str) -> list[str]:
    """The markers planted in node ``key``'s guarded data."""
    return [f"{part}_{key}_END" for part in ("PAY", "PROV", "AUD", "REL", "INT")]


def payload(i: int, kind: str, name: str) -> dict[str, Any]:
    mark = f"PAY_{i}_END"
    if kind == "entity":
        return {"kind": "entity", "canonical_name": name, "aliases": [mark], "summary": mark}
    if kind == "competence":
        return {
            "kind": "competence",
            "skill_name": mark,
            "triggers": [],
            "recipe": [],
            "performance": {"success_count": i, "failure_count": 1},
        }
    if kind == "plan_graph":
        return {"kind": "plan_graph", "plan_id": mark, "version": "1", "nodes": [], "edges": []}
    if kind == "working":
        return {"kind": "working", "thread_id": mark, "state": "executing"}
    if kind == "episodic":
        return {"kind": "episodic", "timeline": [{"t": "2026-01-01T00:00:00Z", "summary": mark}]}
    return {"kind": "semantic", "subject": name, "predicate": "is", "object": mark}


@st.composite
def stores(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(1, 8))
    records = []
    for i in range(count):
        kind = draw(st.sampled_from(MEMORY_TYPES))
        name = draw(st.sampled_from(NAMES))
        targets = draw(st.lists(st.sampled_from([*range(count), "L"]), max_size=4))
        relations = [
            (draw(st.sampled_from([f"REL_{i}_END", "mentions_entity", "supports"])), f"r{t}")
            if t != "L"
            else (f"REL_{i}_END", "luker")
            for t in targets
        ]
        record = rec(
            f"r{i}",
            kind,
            draw(st.sampled_from(SENSITIVITIES)),
            draw(st.sampled_from([0.0, 0.2, 0.5, 0.9])),
            scope=draw(st.sampled_from(SCOPES)),
            relations=relations,
            payload=payload(i, kind, name),
            interpretation={"summary": f"INT_{i}_END", "mentions": [{"surface": name}]},
        )
        record["provenance"]["sources"][0]["ref"] = f"PROV_{i}_END"
        record["audit_log"][0]["rationale"] = f"AUD_{i}_END"
        records.append(record)
    luker = {
        "sensitivity": draw(st.sampled_from(SENSITIVITIES)),
        "scope": draw(st.sampled_from(SCOPES)),
        "memory_type": draw(st.sampled_from(MEMORY_TYPES)),
    }
    caller = {
        "max_sensitivity": draw(st.sampled_from(SENSITIVITIES)),
        "scopes": draw(st.lists(st.sampled_from(["a", "b", "c"]), max_size=2)),
    }
    arguments = [
        draw(st.sampled_from(["", "orchid", "ORCHID db", "tulip", "x"])),
        caller,
        draw(st.none() | st.lists(st.sampled_from(MEMORY_TYPES), max_size=3)),
        draw(st.sampled_from([None, 0, 0.3])),
        draw(st.sampled_from([None, 1, 2, 5])),
        draw(st.sampled_from([None, 1, 3, 8])),
        draw(st.sampled_from([None, 1, 3, 10])),
        draw(st.sampled_from([None, -1, 0, 1, 3])),
    ]
    return {"records": records, "luker": luker, "arguments": arguments}


def build(store: MemoryStore, world: dict[str, Any]) -> None:
    with store.storage.transaction(OpKind.BATCH, "Luker") as tx:
        fields = {"summary": "PAY_L_END", "aliases": "PAY_L_END"}
        tx.put_node(Node("luker", "character_sheet", title="orchid", fields=freeze(fields)))
        tx.put_node(Node("other", "event", title="plain"))
        tx.put_edge(Edge("luker", "other", "REL_L_END"))
        tx.put_edge(Edge("luker", "r0", "REL_L_END"))
        tx.set_meta(OVERRIDES, {"luker": world["luker"]})
    put(store, world["records"])


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(stores())
def test_nothing_above_the_callers_tier_ever_appears(world: dict[str, Any]) -> None:
    with MemoryStore.open(":memory:") as store:
        build(store, world)
        api = store.membrane()
        caller = parse_trust(world["arguments"][1])
        tiers = {
            r["id"]: caller.tier(r["sensitivity"], r.get("scope", "")) for r in world["records"]
        }
        tiers["luker"] = caller.tier(world["luker"]["sensitivity"], world["luker"]["scope"])
        tiers["other"] = caller.tier("low", "")
        originals = {r["id"]: r for r in world["records"]}
        answer = api.retrieve_graph(*world["arguments"])
        text = json.dumps(answer)
        for node_id, tier in tiers.items():
            if tier != "full":
                key = "L" if node_id == "luker" else node_id[1:]
                for mark in marks(key):
                    assert mark not in text, (node_id, tier, mark)
        returned = {n["record"]["id"]: n["record"] for n in answer["nodes"]}
        for node_id, record in returned.items():
            assert tiers[node_id] != "omitted"
            if tiers[node_id] == "redacted":
                assert list(record) == list(REDACTED_KEYS)
            elif node_id in originals:
                assert record == originals[node_id]
        for edge in answer["edges"]:
            assert tiers[edge["source_id"]] == "full"
            assert edge["target_id"] in returned
        assert set(answer["root_ids"]) <= set(returned)
        for node_id, tier in tiers.items():
            try:
                got = api.retrieve_by_id(node_id, world["arguments"][1])
            except MemgraphError as exc:
                assert exc.code == "ACCESS_DENIED"
                assert tier != "full"
            else:
                assert tier == "full"
                if node_id in originals:
                    assert got == originals[node_id]

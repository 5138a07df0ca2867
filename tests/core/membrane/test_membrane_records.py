"""``records.record_of``: any node as a Membrane MemoryRecord (a record's own JSON; a Luker node
or a Nuggets note projected as the module docstring says)."""

from __future__ import annotations

from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.freeze import freeze
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.membrane.attributes import OVERRIDES
from memgraph_gui.core.membrane.model import ZERO_TIME
from memgraph_gui.core.membrane.records import record_of
from tests.core.membrane.conftest import put, rec

KEYS = [
    "id",
    "type",
    "sensitivity",
    "confidence",
    "salience",
    "created_at",
    "updated_at",
    "lifecycle",
    "provenance",
    "payload",
    "audit_log",
]


def luker(store: MemoryStore, *nodes: Node, edges: tuple[Edge, ...] = ()) -> None:
    with store.storage.transaction(OpKind.BATCH, "Put Luker nodes") as tx:
        for node in nodes:
            tx.put_node(node)
        for edge in edges:
            tx.put_edge(edge)


def of(store: MemoryStore, node_id: str) -> dict[str, Any]:
    with store.reading() as graph:
        return record_of(graph, node_id)


def test_a_record_is_its_own_json(store: MemoryStore) -> None:
    record = rec("r1", "entity", "high", 0.7, scope="s", tags=["t"], relations=[("x", "r1")])
    record["unknown_key"] = {"kept": [1, 2]}
    put(store, [record])
    got = of(store, "r1")
    assert got == record
    assert list(got) == list(record)
    got["payload"]["kind"] = "changed"  # a fresh dict
    assert of(store, "r1") == record


def test_a_missing_node_is_record_not_found(store: MemoryStore) -> None:
    with pytest.raises(MemgraphError) as caught:
        of(store, "nope")
    assert caught.value.code == "RECORD_NOT_FOUND"


def test_a_luker_event_is_an_episode_with_its_relations_but_not_the_hierarchy(
    store: MemoryStore,
) -> None:
    luker(
        store,
        Node("ev", "event", title="Met Bob", fields=freeze({"summary": "at the inn"})),
        Node("bob", "character_sheet", title="Bob", fields=freeze({"aliases": "Bobby, B"})),
        Node("roll", "event", title="Summary 1", semantic_rollup=True, semantic_depth=1),
        edges=(
            Edge("ev", "bob", "involves"),
            Edge("roll", "ev", "contains"),
            Edge("roll", "ev", "semantic_contains"),
            Edge("bob", "ev", "appears_in"),
        ),
    )
    got = of(store, "ev")
    assert list(got) == [*KEYS[:9], "relations", "payload", "audit_log"]
    assert got["id"] == "ev"
    assert got["type"] == "episodic"
    assert (got["sensitivity"], got["confidence"], got["salience"]) == ("low", 1.0, 0.5)
    assert got["created_at"] == got["updated_at"] == ZERO_TIME
    assert got["lifecycle"] == {
        "decay": {"curve": "exponential", "half_life_seconds": 86400},
        "last_reinforced_at": ZERO_TIME,
        "pinned": True,
        "deletion_policy": "manual_only",
    }
    assert got["provenance"] == {
        "sources": [{"kind": "event", "ref": "luker:ev", "timestamp": ZERO_TIME}]
    }
    assert got["relations"] == [{"predicate": "involves", "target_id": "bob"}]
    assert got["payload"] == {
        "kind": "episodic",
        "timeline": [
            {
                "t": ZERO_TIME,
                "event_kind": "event",
                "ref": "luker:ev",
                "summary": "Met Bob\nat the inn",
            }
        ],
    }
    assert got["audit_log"] == []
    roll = of(store, "roll")
    assert "relations" not in roll  # only hierarchy edges leave it
    assert roll["type"] == "semantic"
    assert roll["salience"] == pytest.approx(0.7)
    assert roll["payload"] == {
        "kind": "semantic",
        "subject": "Summary 1",
        "predicate": "event",
        "object": "",
        "validity": {"mode": "global"},
    }


def test_a_character_is_an_entity_with_its_aliases(store: MemoryStore) -> None:
    luker(
        store,
        Node(
            "bob",
            "character_sheet",
            title="Bob",
            fields=freeze({"title": "Bob", "aliases": "Bobby, B；老鲍\nBobby", "traits": "calm"}),
        ),
        Node("inn", "location_state", title="Inn", fields=freeze({"aliases": ["The Inn", " ", 3]})),
    )
    assert of(store, "bob")["payload"] == {
        "kind": "entity",
        "canonical_name": "Bob",
        "primary_type": "character_sheet",
        "aliases": ["Bobby", "B", "老鲍"],
        "summary": "calm",
    }
    assert of(store, "inn")["payload"] == {
        "kind": "entity",
        "canonical_name": "Inn",
        "primary_type": "location_state",
        "aliases": ["The Inn"],
    }


def test_a_thread_is_working_memory(store: MemoryStore) -> None:
    luker(
        store,
        Node(
            "t1", "thread", title="Find the key", fields=freeze({"status": "resolved", "note": "n"})
        ),
        Node("t2", "thread", title="Go north", fields=freeze({"status": "active"})),
    )
    assert of(store, "t1")["payload"] == {
        "kind": "working",
        "thread_id": "t1",
        "state": "done",
        "context_summary": "Find the key\nstatus: resolved\nnote: n",
    }
    assert of(store, "t2")["payload"]["state"] == "executing"


def test_a_nuggets_note_keeps_its_stamps_confidence_scope_and_tags(store: MemoryStore) -> None:
    nug = store.nuggets("work")
    nug.remember("deploy-cmd", "make deploy")
    with store.reading() as graph:
        note_id = next(n.id for n in graph.nodes.values() if n.level == "nugget")
        fields = graph.nodes[note_id].fields
        got = record_of(graph, note_id)
    assert got["type"] == "semantic"
    assert got["confidence"] == fields["confidence"]
    assert got["salience"] == fields["confidence"]
    assert got["scope"] == "work"
    assert got["tags"] == list(fields["tags"])
    assert got["created_at"] == fields["createdAt"]
    assert got["updated_at"] == fields["updatedAt"]
    assert got["lifecycle"]["last_reinforced_at"] == fields["lastAccessedAt"]
    assert "pinned" not in got["lifecycle"]
    assert got["provenance"]["sources"] == [
        {
            "kind": "event",
            "ref": f"nuggets:work/{note_id}",
            "timestamp": fields["createdAt"],
            "created_by": fields["source"],
        }
    ]
    assert got["payload"] == {
        "kind": "semantic",
        "subject": fields["subject"],
        "predicate": "deploy-cmd",
        "object": "make deploy",
        "validity": {"mode": "global"},
    }


def test_what_people_set_is_projected(store: MemoryStore) -> None:
    luker(store, Node("ev", "event", title="A", fields=freeze({"summary": "b"})))
    with store.storage.transaction(OpKind.BATCH, "Set attributes") as tx:
        tx.set_meta(
            OVERRIDES,
            {"ev": {"sensitivity": "hyper", "memory_type": "competence", "scope": "p", "tags": []}},
        )
    got = of(store, "ev")
    assert (got["type"], got["sensitivity"], got["scope"]) == ("competence", "hyper", "p")
    assert "tags" not in got
    assert got["payload"] == {
        "kind": "competence",
        "skill_name": "A",
        "triggers": [],
        "recipe": [{"step": "b"}],
    }
    with store.storage.transaction(OpKind.BATCH, "Set attributes") as tx:
        tx.set_meta(OVERRIDES, {"ev": {"memory_type": "plan_graph"}})
    assert of(store, "ev")["payload"] == {
        "kind": "plan_graph",
        "plan_id": "ev",
        "version": "",
        "intent": "A",
        "nodes": [],
        "edges": [],
    }

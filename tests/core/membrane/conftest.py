"""Shared helpers of the Membrane tests: a private store, whole records made in one line, and
records put straight into a store (``model.record_node`` + ``relation_edges``, one transaction),
so these tests do not depend on the importer."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.membrane.model import RECORD_SEQ, record_node, relation_edges

STAMP = "2026-01-01T00:00:00Z"


@pytest.fixture
def store() -> Iterator[MemoryStore]:
    with MemoryStore.open(":memory:") as opened:
        yield opened


def payload_for(record_id: str, memory_type: str) -> dict[str, Any]:
    """A small payload of ``memory_type`` (Membrane's shapes)."""
    if memory_type == "entity":
        return {"kind": "entity", "canonical_name": record_id}
    if memory_type == "semantic":
        return {
            "kind": "semantic",
            "subject": record_id,
            "predicate": "is",
            "object": "known",
            "validity": {"mode": "global"},
        }
    if memory_type == "episodic":
        return {
            "kind": "episodic",
            "timeline": [{"t": STAMP, "event_kind": "tool", "ref": "r", "summary": record_id}],
        }
    if memory_type == "working":
        return {"kind": "working", "thread_id": record_id, "state": "executing"}
    if memory_type == "competence":
        return {"kind": "competence", "skill_name": record_id, "triggers": [], "recipe": []}
    return {"kind": "plan_graph", "plan_id": record_id, "version": "1", "nodes": [], "edges": []}


def rec(
    record_id: str,
    memory_type: str = "semantic",
    sensitivity: str = "low",
    salience: float = 0.5,
    *,
    scope: str = "",
    tags: Iterable[str] = (),
    relations: Iterable[tuple[str, str] | Mapping[str, Any]] = (),
    payload: Mapping[str, Any] | None = None,
    confidence: float = 1.0,
    created: str = STAMP,
    reinforced: str = "0001-01-01T00:00:00Z",
    **extra: Any,
) -> dict[str, Any]:
    """A whole Membrane record in Membrane's key order; ``relations`` as ``(predicate,
    target)`` pairs or relation objects."""
    record: dict[str, Any] = {
        "id": record_id,
        "type": memory_type,
        "sensitivity": sensitivity,
        "confidence": confidence,
        "salience": salience,
    }
    if scope:
        record["scope"] = scope
    if tags:
        record["tags"] = list(tags)
    record["created_at"] = created
    record["updated_at"] = created
    record["lifecycle"] = {
        "decay": {"curve": "exponential", "half_life_seconds": 86400},
        "last_reinforced_at": reinforced,
    }
    record["provenance"] = {"sources": [{"kind": "event", "ref": f"src-{record_id}"}]}
    rels = [
        dict(r) if isinstance(r, Mapping) else {"predicate": r[0], "target_id": r[1]}
        for r in relations
    ]
    if rels:
        record["relations"] = rels
    record["payload"] = (
        dict(payload) if payload is not None else payload_for(record_id, memory_type)
    )
    record["audit_log"] = [
        {"action": "create", "actor": "test", "timestamp": created, "rationale": "made"}
    ]
    record.update(extra)
    return record


def put(store: MemoryStore, records: Iterable[Mapping[str, Any]]) -> None:
    """Put ``records`` (new or changed) into ``store`` in one transaction, with their relation
    edges to every node that exists then."""
    records = list(records)
    with store.storage.transaction(OpKind.BATCH, "Put records") as tx:
        seq = tx.counter(RECORD_SEQ)
        for record in records:
            old = tx.node(record["id"])
            if old is None:
                seq += 1
            tx.put_node(record_node(record, old.seq_to if old is not None else seq))
        tx.set_meta(RECORD_SEQ, seq)
        targets = {
            r.get("target_id")
            for record in records
            for r in record.get("relations", ())
            if isinstance(r, Mapping)
        }
        present = {t for t in targets if isinstance(t, str) and tx.node(t) is not None}
        for record in records:
            for edge in relation_edges(record, present):
                tx.put_edge(edge)


def trust(level: str = "medium", *scopes: str, actor: str = "agent") -> dict[str, Any]:
    """A TrustContext's JSON."""
    return {
        "max_sensitivity": level,
        "authenticated": True,
        "actor_id": actor,
        "scopes": list(scopes),
    }


def node_ids(answer: Mapping[str, Any]) -> list[str]:
    """The ids of a retrieveGraph answer's nodes, in order."""
    return [n["record"]["id"] for n in answer["nodes"]]

"""Membrane records for the trust lens's tests, put into a store through one transaction
(``core.membrane.model.record_node`` + ``relation_edges``), not through an importer.

Every record's payload, provenance, relations and audit log hold text that appears nowhere
else (``secret_texts``), so a test can look for it in what the window shows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.membrane.model import record_node, relation_edges


def record(
    rid: str,
    sensitivity: str,
    *,
    scope: str = "",
    kind: str = "semantic",
    relations: Iterable[tuple[str, str]] = (),
    salience: float = 0.5,
) -> dict[str, Any]:
    """A Membrane ``MemoryRecord`` (semantic or entity) with secret payload text."""
    payload: dict[str, Any]
    if kind == "entity":
        payload = {
            "kind": "entity",
            "canonical_name": f"Payload{rid}Name",
            "aliases": [f"Alias{rid}Secret"],
        }
    else:
        payload = {
            "kind": "semantic",
            "subject": f"Subj{rid}Secret",
            "predicate": "likes",
            "object": f"Obj{rid}Secret",
        }
    return {
        "id": rid,
        "type": kind,
        "sensitivity": sensitivity,
        "confidence": 0.9,
        "salience": salience,
        "scope": scope,
        "tags": ["t1"],
        "created_at": "2026-11-01T10:00:00Z",
        "updated_at": "2026-11-02T10:00:00Z",
        "lifecycle": {"decay": {"curve": "exponential", "half_life_seconds": 86400}},
        "provenance": {"sources": [{"kind": "observation", "ref": f"Prov{rid}Secret"}]},
        "relations": [
            {"predicate": predicate, "target_id": target, "weight": 1.0}
            for predicate, target in relations
        ],
        "payload": payload,
        "audit_log": [{"action": "create", "actor": f"Audit{rid}Actor", "rationale": "why"}],
    }


def secret_texts(rec: Mapping[str, Any]) -> list[str]:
    """The texts of ``rec`` that only its payload, provenance, relations or audit log hold."""
    rid = rec["id"]
    texts = [f"Prov{rid}Secret", f"Audit{rid}Actor"]
    if rec["type"] == "entity":
        texts += [f"Payload{rid}Name", f"Alias{rid}Secret"]
    else:
        texts += [f"Subj{rid}Secret", f"Obj{rid}Secret"]
    texts += [r["predicate"] for r in rec.get("relations") or ()]
    return texts


def put_records(store: Any, records: list[dict[str, Any]], label: str = "records") -> None:
    """Put ``records`` (and their relations' edges) into ``store`` in one transaction."""
    ids = {r["id"] for r in records}
    with store.storage.transaction(OpKind.BATCH, label) as tx:
        for seq, rec in enumerate(records, 1):
            tx.put_node(record_node(rec, seq))
        for rec in records:
            for edge in relation_edges(rec, ids):
                tx.put_edge(edge)


def set_sensitivity(store: Any, rid: str, sensitivity: str) -> None:
    """Write record ``rid``'s sensitivity (its JSON) through a store transaction."""
    from memgraph_gui.core.membrane.model import record_json

    with store.reading() as graph:
        node = graph.nodes[rid]
    rec = record_json(node)
    rec["sensitivity"] = sensitivity
    with store.storage.transaction(OpKind.BATCH, f"sensitivity of {rid}") as tx:
        tx.put_node(record_node(rec, node.seq_to))

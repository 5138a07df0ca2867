"""What of a node is embedded: its schema columns, or for a node of no known type (a Nuggets
note, a Membrane record) the words of its fields without their bookkeeping."""

from __future__ import annotations

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.domain.schema import Schema
from memgraph_gui.core.vectors.text import MAX_CHARS, texts_of

NOTE_FIELDS = {
    "id": "note-astra-62827e2b",
    "nuggetName": "astra",
    "title": "Esteban — who he is",
    "content": "Owner of Hoja Verde 绿叶茶铺 in Valencia; partner Lucía.",
    "tags": ["astra", "profile"],
    "links": [{"id": "fact-astra-fd0e423c", "label": "part of", "at": "2026-09-14T14:01:35.271Z"}],
    "vector": [0.12, -0.5, 0.33] * 300,
    "hits": 21,
    "hidden": False,
    "createdAt": "2026-09-14T08:38:17.899Z",
    "lastHitSession": "astra-20261120-1358-c433",
}
RECORD_FIELDS = {
    "id": "28d2e08e-5e62-49db-a09e-dd5aa5319f47",
    "type": "entity",
    "sensitivity": "low",
    "salience": 0.8,
    "payload": {
        "kind": "entity",
        "canonical_name": "Maya Chen",
        "aliases": ["Maya", "mchen"],
        "identifiers": [{"namespace": "membrane", "value": "maya-chen"}],
        "summary": "Person Maya Chen, known since the first week",
    },
    "provenance": {"sources": [{"kind": "event", "ref": "s0#1"}]},
    "audit_log": [{"action": "create", "actor": "agent", "timestamp": "2026-09-14T13:14:43Z"}],
}


def _node(node_id: str, kind: str, title: str, fields: dict) -> Node:
    return Node.from_store_json(
        {"id": node_id, "type": kind, "level": "nugget", "title": title, "seqTo": 1,
         "fields": fields}
    )  # fmt: skip


def test_a_node_of_no_known_type_gives_its_words_not_its_bookkeeping() -> None:
    note = _node("note-astra-62827e2b", "note", "Esteban — who he is", NOTE_FIELDS)
    record = _node("r1", "entity", "Maya Chen", RECORD_FIELDS)
    note_text, record_text = texts_of(Schema(()), [note, record])
    assert note_text.splitlines() == [
        "Esteban — who he is",
        "Owner of Hoja Verde 绿叶茶铺 in Valencia; partner Lucía.",
        "astra",
        "profile",
    ]
    assert record_text.splitlines() == [
        "Maya Chen",
        "Maya",
        "mchen",
        "Person Maya Chen, known since the first week",
    ]
    for token in ("0.12", "2026-09", "fact-astra", "s0#1", "28d2e08e", "low", "entity"):
        assert token not in note_text + record_text


def test_schema_columns_decide_for_a_known_type_and_the_text_is_capped() -> None:
    from memgraph_gui.core.domain.default_schema import default_schema

    schema = Schema.from_json(default_schema())
    event = _node("e1", "event", "Summary 3", {"summary": "x" * (MAX_CHARS * 2), "extra": "no"})
    (text,) = texts_of(schema, [event])
    assert text.startswith("Summary 3\nxxx") and len(text) == MAX_CHARS and "no" not in text

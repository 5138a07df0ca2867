"""How a Membrane ``MemoryRecord`` lives in the store: one node per record, one edge per
relation.

- The node's ``fields`` hold the whole record JSON, every key (unknown ones too) in the record's
  own key order, so an export after an import gives the same record back.
- ``id`` is the record's id, ``type`` its memory type, ``level`` is ``RECORD_LEVEL`` (a record is
  told from a Luker node or a Nuggets note without parsing its fields), ``title`` is made from its
  payload (``record_title``), ``seq_to`` its place in import order (meta counter ``RECORD_SEQ``).
- Each relation stays in the record's ``relations`` as stored (weights, stamps, order, relations
  to records that are not in the store); the graph gets one edge per distinct
  ``(record, predicate, target)`` whose target exists, typed by the predicate.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from memgraph_gui.core.domain.freeze import LazyFields, freeze, thaw
from memgraph_gui.core.domain.model import Edge, Node

RECORD_LEVEL = "membrane"
"""The ``level`` of every Membrane record node."""
RECORD_SEQ = "membraneSeq"
"""The meta counter that numbers records in import order (their ``seq_to``)."""
SENSITIVITIES = ("public", "low", "medium", "high", "hyper")
"""Membrane's sensitivity levels, lowest first."""
MEMORY_TYPES = ("episodic", "working", "semantic", "competence", "plan_graph", "entity")
"""Membrane's memory types (the seed's list)."""
LAYER_ORDER = ("working", "entity", "semantic", "competence", "plan_graph", "episodic")
"""The seed's layer order: candidates are read in it when no ``memory_types`` are given."""
ZERO_TIME = "0001-01-01T00:00:00Z"
"""Go's zero ``time.Time`` as Membrane writes it: a stamp nobody set."""
TITLE_CHARS = 80


def is_record(node: Node) -> bool:
    """Whether ``node`` is a Membrane record (cheap: no fields are parsed)."""
    return node.level == RECORD_LEVEL


def record_json(node: Node) -> dict[str, Any]:
    """The record ``node`` holds, as Membrane's JSON (a fresh, mutable dict in the stored key
    order). ``node`` must be a record (``is_record``)."""
    fields = node.fields
    record = json.loads(fields.text) if isinstance(fields, LazyFields) else thaw(fields)
    return record  # type: ignore[no-any-return]


def record_title(record: Mapping[str, Any]) -> str:
    """A short title a person recognises the record by: an entity's canonical name, a fact's
    ``subject predicate object``, a skill's name, a working thread's summary, an episode's
    first timeline summary; else the record's id. At most ``TITLE_CHARS`` characters."""
    payload = record.get("payload")
    text = ""
    if isinstance(payload, Mapping):
        kind = payload.get("kind")
        if kind == "entity":
            text = _text(payload.get("canonical_name"))
        elif kind == "semantic":
            parts = (payload.get("subject"), payload.get("predicate"), payload.get("object"))
            text = " ".join(_text(p) for p in parts if _text(p))
        elif kind == "competence":
            text = _text(payload.get("skill_name"))
        elif kind == "working":
            text = _text(payload.get("context_summary")) or _text(payload.get("thread_id"))
        elif kind == "plan_graph":
            text = _text(payload.get("intent")) or _text(payload.get("plan_id"))
        elif kind == "episodic":
            timeline = payload.get("timeline")
            if isinstance(timeline, list):
                text = next(
                    (
                        _text(e.get("summary"))
                        for e in timeline
                        if isinstance(e, Mapping) and _text(e.get("summary"))
                    ),
                    "",
                )
    text = " ".join(text.split()) or _text(record.get("id"))
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1] + "…"


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return ""


def record_node(record: Mapping[str, Any], seq: int, text: str | None = None) -> Node:
    """The node of a checked ``record`` (see the module docstring), ``seq`` its ``seq_to``;
    with ``text`` (the record's compact JSON) its fields are that text, parsed only when read
    (a 50k import builds no frozen copies)."""
    return Node(
        id=record["id"],
        type=record["type"],
        level=RECORD_LEVEL,
        title=record_title(record),
        seq_to=seq,
        fields=freeze(dict(record)) if text is None else LazyFields(text),
    )


def relation_edges(record: Mapping[str, Any], exists: Iterable[str] | set[str]) -> list[Edge]:
    """One edge per distinct ``(record, predicate, target)`` of the record's ``relations``
    whose target is in ``exists``, in stored order (a self-relation included)."""
    present = exists if isinstance(exists, (set, frozenset, dict)) else set(exists)
    seen: set[tuple[str, str]] = set()
    out: list[Edge] = []
    for relation in record.get("relations") or ():
        if not isinstance(relation, Mapping):
            continue
        predicate, target = relation.get("predicate"), relation.get("target_id")
        if not isinstance(predicate, str) or not isinstance(target, str):
            continue
        if target in present and (predicate, target) not in seen:
            seen.add((predicate, target))
            out.append(Edge(record["id"], target, predicate))
    return out

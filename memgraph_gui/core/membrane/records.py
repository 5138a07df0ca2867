"""Any node as a Membrane ``MemoryRecord`` (Membrane's JSON names, ``pkg/schema/memory.go``).

A Membrane record node gives its own JSON (``model.record_json``), as stored. A Luker node or a
Nuggets note is projected, its attributes taken from ``index.attributes`` (the default mapping
with what people set laid over it), in Membrane's key order:

- ``id``; ``type``: its memory type; ``sensitivity``, ``salience``: its attributes;
- ``confidence``: 1.0 for a Luker node, a note's ``confidence`` (1.0 when not a number);
- ``scope``, ``tags``: its attributes, each left out when empty (Go's ``omitempty``);
- ``created_at``, ``updated_at``: a note's ``createdAt``, ``updatedAt``; ``ZERO_TIME`` for a
  Luker node (Luker keeps no stamps);
- ``lifecycle``: exponential decay, half-life 86400 s (Membrane's default), ``manual_only``;
  a Luker node is pinned, ``last_reinforced_at`` ``ZERO_TIME``; a note is not pinned,
  ``last_reinforced_at`` its ``lastAccessedAt`` (else ``updatedAt``);
- ``provenance``: one source naming where it comes from: ``{"kind": "event", "ref":
  "luker:<id>", "timestamp": ZERO_TIME}``; for a note ``{"kind": "event" ("observation" for a
  tool observation), "ref": "nuggets:<nugget>/<id>", "timestamp": createdAt, "created_by": its
  source}``;
- ``relations``: ``{"predicate": edge type, "target_id": to}`` per outgoing edge but the
  hierarchy ones (``contains``, ``semantic_contains``), in edge order (a note's are its
  ``note_link`` edges); left out when none;
- ``payload``: made by its memory type (below); ``audit_log``: ``[]``.

The payload, by memory type (``text``: a note's ``content``; for a Luker node its fields but
``title``, the one value alone, else one ``key: value`` line each; ``ref``: as in provenance):

- entity: ``{kind, canonical_name: title, primary_type: Luker type (a note's type),
  aliases (from an "aliases" field: a list, or a text split at , ; ， 、 ； and new lines; left
  out when none), summary: text without the aliases (left out when empty)}``;
- semantic: ``{kind, subject, predicate, object, validity: {mode: "global"}}``: a Luker node is
  ``title`` / its type / ``text``; a note is its ``subject`` (else its nugget) / ``title`` /
  ``content``;
- episodic: ``{kind, timeline: [{t: created_at, event_kind: type, ref, summary: title and text
  on two lines}]}``;
- working: ``{kind, thread_id: id, state: executing (done for a "resolved" / "abandoned"
  status), context_summary: title and text}``;
- competence: ``{kind, skill_name: title, triggers: [], recipe: [{step: text}] (or [])}``;
- plan_graph: ``{kind, plan_id: id, version: "", intent: title (else text), nodes: [], edges: []}``.

Core code never imports Luker's or Nuggets' packages: their nodes' fields are read directly.
Pure over a graph read under the store lock; every call gives a fresh dict the caller may keep.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.membrane.attributes import NOTE_LEVEL, Attributes
from memgraph_gui.core.membrane.index import attributes
from memgraph_gui.core.membrane.model import ZERO_TIME, is_record, record_json
from memgraph_gui.core.membrane.trust import NOT_FOUND

HALF_LIFE_S = 86400
"""Membrane's default decay half-life (``schema.NewMemoryRecord``), given to projected nodes."""
_ALIAS_SPLIT = re.compile(r"[,;，、；\n]+")
_DONE = frozenset({"resolved", "abandoned"})


def record_of(graph: Graph, node_id: str) -> dict[str, Any]:
    """The node ``node_id`` as a ``MemoryRecord`` JSON (see the module docstring): a fresh dict.
    ``RECORD_NOT_FOUND`` when no such node exists. Store lock held (or a graph nobody changes)."""
    node = graph.nodes.get(node_id)
    if node is None:
        raise MemgraphError(NOT_FOUND, f"no record with id {node_id!r}")
    if is_record(node):
        return record_json(node)
    attrs = attributes(graph, node_id)
    assert attrs is not None  # the node exists
    return project(node, attrs, out_relations(graph, node_id))


def out_relations(graph: Graph, node_id: str) -> list[tuple[str, str]]:
    """``(predicate, target)`` of each outgoing edge of ``node_id`` but the hierarchy ones, in
    edge order: a Luker node's or a note's relations."""
    return [(edge.type, edge.to_id) for edge in graph.out_edges(node_id) if not edge.internal]


def is_note(node: Node) -> bool:
    """Whether ``node`` is a Nuggets note (read by its level, not through ``core.nuggets``)."""
    return node.level == NOTE_LEVEL


def project(node: Node, attrs: Attributes, relations: list[tuple[str, str]]) -> dict[str, Any]:
    """The projected record of a Luker node or a note with ``attrs`` and ``relations``."""
    fields = node.fields
    note = is_note(node)
    record = record_head(node, attrs)
    created, updated = record["created_at"], record["updated_at"]
    reinforced = ZERO_TIME
    if note:
        reinforced = (
            _stamp(fields.get("lastAccessedAt")) if fields.get("lastAccessedAt") else updated
        )
    lifecycle: dict[str, Any] = {
        "decay": {"curve": "exponential", "half_life_seconds": HALF_LIFE_S},
        "last_reinforced_at": reinforced,
    }
    if not note:
        lifecycle["pinned"] = True
    lifecycle["deletion_policy"] = "manual_only"
    record["lifecycle"] = lifecycle
    source: dict[str, Any] = {"kind": "event", "ref": ref_of(node), "timestamp": created}
    if note:
        given = fields.get("source")
        if given == "tool_observation":
            source["kind"] = "observation"
        if isinstance(given, str) and given:
            source["created_by"] = given
    record["provenance"] = {"sources": [source]}
    if relations:
        record["relations"] = [{"predicate": p, "target_id": t} for p, t in relations]
    record["payload"] = payload_of(node, attrs.memory_type)
    record["audit_log"] = []
    return record


def record_head(node: Node, attrs: Attributes) -> dict[str, Any]:
    """The first keys of a projected record, up to ``updated_at`` (every key a redacted record
    keeps): ``id``, ``type``, ``sensitivity``, ``confidence``, ``salience``, ``scope`` and
    ``tags`` when not empty, ``created_at``, ``updated_at``; a fresh dict."""
    fields = node.fields
    note = is_note(node)
    record: dict[str, Any] = {
        "id": node.id,
        "type": attrs.memory_type,
        "sensitivity": attrs.sensitivity,
        "confidence": confidence_of(node),
        "salience": attrs.salience,
    }
    if attrs.scope:
        record["scope"] = attrs.scope
    if attrs.tags:
        record["tags"] = list(attrs.tags)
    record["created_at"] = _stamp(fields.get("createdAt")) if note else ZERO_TIME
    record["updated_at"] = _stamp(fields.get("updatedAt")) if note else ZERO_TIME
    return record


def confidence_of(node: Node) -> float:
    """A projected node's confidence: a note's own (when a finite number), else 1.0."""
    value = node.fields.get("confidence") if is_note(node) else None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return 1.0


def ref_of(node: Node) -> str:
    """Where a projected node comes from: ``luker:<id>`` or ``nuggets:<nugget>/<id>``."""
    if is_note(node):
        name = node.fields.get("nuggetName")
        return f"nuggets:{name if isinstance(name, str) else ''}/{node.id}"
    return f"luker:{node.id}"


def kind_of(node: Node) -> str:
    """A projected node's own type: a note's ``type`` (its kind when none), a Luker type."""
    if is_note(node):
        value = node.fields.get("type")
        return value if isinstance(value, str) and value else node.type
    return node.type


def aliases_of(node: Node) -> list[str]:
    """The aliases of a projected entity: its ``aliases`` field (a list, or a text split at
    commas, semicolons and new lines), trimmed, without empty or repeated ones."""
    value = node.fields.get("aliases")
    if isinstance(value, str):
        items: list[Any] = _ALIAS_SPLIT.split(value)
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        return []
    out = [item.strip() for item in items if isinstance(item, str)]
    return list(dict.fromkeys(a for a in out if a))


def node_text(node: Node, skip: tuple[str, ...] = ("title",)) -> str:
    """A projected node's text: a note's ``content``; a Luker node's fields but ``skip``."""
    fields = node.fields
    if is_note(node):
        content = fields.get("content")
        return content if isinstance(content, str) else ""
    parts = [(key, _plain(value)) for key, value in fields.items() if key not in skip]
    parts = [(key, text) for key, text in parts if text]
    if len(parts) == 1:
        return parts[0][1]
    return "\n".join(f"{key}: {text}" for key, text in parts)


def payload_of(node: Node, memory_type: str) -> dict[str, Any]:
    """The payload a projected node gets for ``memory_type`` (see the module docstring)."""
    title, text = node.title, node_text(node)
    both = "\n".join(part for part in (title, text) if part)
    if memory_type == "entity":
        payload: dict[str, Any] = {
            "kind": "entity",
            "canonical_name": title,
            "primary_type": kind_of(node),
        }
        aliases = aliases_of(node)
        if aliases:
            payload["aliases"] = aliases
        summary = node_text(node, ("title", "aliases"))
        if summary:
            payload["summary"] = summary
        return payload
    if memory_type == "semantic":
        if is_note(node):
            subject = node.fields.get("subject")
            if not isinstance(subject, str) or not subject:
                name = node.fields.get("nuggetName")
                subject = name if isinstance(name, str) else ""
            return {
                "kind": "semantic",
                "subject": subject,
                "predicate": title,
                "object": text,
                "validity": {"mode": "global"},
            }
        return {
            "kind": "semantic",
            "subject": title,
            "predicate": kind_of(node),
            "object": text,
            "validity": {"mode": "global"},
        }
    if memory_type == "working":
        status = node.fields.get("status")
        return {
            "kind": "working",
            "thread_id": node.id,
            "state": "done" if status in _DONE else "executing",
            "context_summary": both,
        }
    if memory_type == "competence":
        return {
            "kind": "competence",
            "skill_name": title,
            "triggers": [],
            "recipe": [{"step": text}] if text else [],
        }
    if memory_type == "plan_graph":
        return {
            "kind": "plan_graph",
            "plan_id": node.id,
            "version": "",
            "intent": title or text,
            "nodes": [],
            "edges": [],
        }
    created = _stamp(node.fields.get("createdAt")) if is_note(node) else ZERO_TIME
    event = {"t": created, "event_kind": kind_of(node), "ref": ref_of(node), "summary": both}
    return {"kind": "episodic", "timeline": [event]}


def _stamp(value: Any) -> str:
    return value if isinstance(value, str) and value else ZERO_TIME


def _plain(value: Any) -> str:
    """A field value as one text: a string trimmed, a number, a list of those joined."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool) or value is None:
        return "" if value is None else json.dumps(value)
    if isinstance(value, (int, float)):
        return json.dumps(value) if math.isfinite(value) else ""
    if isinstance(value, (list, tuple)):
        return ", ".join(text for text in map(_plain, value) if text)
    if isinstance(value, Mapping):
        return json.dumps(_thawed(value), ensure_ascii=False, separators=(",", ":"))
    return ""


def _thawed(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _thawed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_thawed(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value

"""What ``retrieveGraph`` reads of every node, kept in step with the graph (``Graph.index``), so
a call never parses the store's records.

- ``CandidateIndex.lists``: per ``(memory type, sensitivity)`` and per ``(memory type,
  sensitivity, scope)``, the nodes' sort keys ``(-salience, -created, ord, id)``: Membrane's
  ``ListByType`` order (salience descending, then ``created_at`` descending; then the row order
  and the id, where Go leaves ties to SQLite's row order).
- ``CandidateIndex.terms``: an entity's canonical name and aliases, trimmed and lower-cased ->
  the ids of the entity records that carry them (Membrane's ``entity_terms`` table).
- Each node's ``Entry``: attributes, created stamp, what the re-ranking reads of an entity
  payload, what the selector reads of a competence / plan_graph record.

Entries hold a node's own attributes; the nodes people set attributes on (the meta
``OVERRIDES``) are entered again with those laid over by ``overridden(graph)`` (memoised until
the next change), and callers skip their own entries. Built once per graph (~50k nodes), then
told of every node change. Read under the store lock, or on a graph nobody changes.
"""

from __future__ import annotations

import bisect
import json
import math
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

import numpy as np

from memgraph_gui.core.domain.freeze import LazyFields
from memgraph_gui.core.domain.model import Node, evolve
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.membrane.attributes import NOTE_LEVEL, Attributes, attributes_of
from memgraph_gui.core.membrane.index import overrides
from memgraph_gui.core.membrane.model import RECORD_LEVEL, is_record
from memgraph_gui.core.membrane.records import aliases_of, confidence_of, is_note, kind_of
from memgraph_gui.core.membrane.trust import LEVEL, TrustContext

INDEX = "membrane-candidates"
SELECTED_TYPES = frozenset({"competence", "plan_graph"})
Key = tuple[float, float, int, str]
_ZERO_EPOCH = -62135596800.0  # Go's zero time, 0001-01-01T00:00:00Z


class EntityInfo:
    """What the re-ranking reads of an entity payload (each value trimmed, lower-cased)."""

    __slots__ = ("aliases", "canonical", "types")

    def __init__(self, canonical: str, aliases: tuple[str, ...], types: tuple[str, ...]) -> None:
        self.canonical = canonical
        self.aliases = aliases
        self.types = types


class Entry:
    """One node as a candidate: its attributes, sort key and what ranking reads of it."""

    __slots__ = (
        "entity",
        "id",
        "key",
        "lookup",
        "memory_type",
        "salience",
        "scope",
        "select",
        "sensitivity",
    )

    def __init__(self, node: Node, attrs: Attributes) -> None:
        self.id = node.id
        self.memory_type = attrs.memory_type
        self.sensitivity = attrs.sensitivity
        self.scope = attrs.scope
        self.salience = attrs.salience
        fields = node.fields
        record = is_record(node)
        if record:
            created = fields.get("created_at")
            payload = fields.get("payload")
            payload = payload if isinstance(payload, Mapping) else None
            kind = payload.get("kind") if payload is not None else None
        else:
            created = fields.get("createdAt") if is_note(node) else None
            payload, kind = None, attrs.memory_type
        self.key: Key = (-attrs.salience, -epoch(created), node.ord, node.id)
        self.entity: EntityInfo | None = None
        if kind == "entity":
            self.entity = _record_entity(payload) if payload is not None else _node_entity(node)
        # Membrane's entity_terms: entity records with an entity payload
        self.lookup: tuple[str, ...] = ()
        if self.entity is not None and attrs.memory_type == "entity":
            terms = (self.entity.canonical, *self.entity.aliases)
            self.lookup = tuple(dict.fromkeys(t for t in terms if t))
        # the selector's inputs: (has a payload, confidence, success rate, reinforced at)
        self.select: tuple[bool, float, float, float | None] | None = None
        if attrs.memory_type in SELECTED_TYPES:
            self.select = (
                _select_of(fields, payload, kind)
                if record
                else (True, confidence_of(node), 0.5, _reinforced_node(node))
            )


def epoch(value: Any) -> float:
    """An RFC 3339 stamp as seconds since 1970 (Go's zero time when missing or unreadable)."""
    if not isinstance(value, str) or not value:
        return _ZERO_EPOCH
    try:
        stamp = datetime.fromisoformat(value)
    except ValueError:
        return _ZERO_EPOCH
    if stamp.tzinfo is None:
        return _ZERO_EPOCH
    return stamp.timestamp()


def norm(value: Any) -> str:
    """Membrane's ``NormalizeEntityTerm`` / ``normalizeSearchText``: trimmed, lower-cased."""
    return value.strip().lower() if isinstance(value, str) else ""


def _alias_value(alias: Any) -> str:
    if isinstance(alias, str):
        return alias
    if isinstance(alias, Mapping) and isinstance(alias.get("value"), str):
        return alias["value"]  # type: ignore[no-any-return]
    return ""


def _record_entity(payload: Mapping[str, Any]) -> EntityInfo:
    aliases = payload.get("aliases")
    values = [norm(_alias_value(a)) for a in aliases] if isinstance(aliases, (list, tuple)) else []
    types: list[Any] = [payload.get("primary_type")]
    more = payload.get("types")
    if isinstance(more, (list, tuple)):
        types.extend(more)
    return EntityInfo(
        norm(payload.get("canonical_name")),
        tuple(v for v in values if v),
        tuple(dict.fromkeys(t for t in map(norm, types) if t)),
    )


def _node_entity(node: Node) -> EntityInfo:
    aliases = tuple(norm(a) for a in aliases_of(node))
    kind = norm(kind_of(node))
    return EntityInfo(norm(node.title), tuple(a for a in aliases if a), (kind,) if kind else ())


def _number(value: Any, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value) if math.isfinite(value) else default


def _reinforced(value: Any) -> float | None:
    """``last_reinforced_at`` in seconds, None when unset (Go's zero time)."""
    seconds = epoch(value)
    return None if seconds == _ZERO_EPOCH else seconds


def _reinforced_node(node: Node) -> float | None:
    if not is_note(node):
        return None
    fields = node.fields
    return _reinforced(fields.get("lastAccessedAt") or fields.get("updatedAt"))


def _select_of(
    fields: Mapping[str, Any], payload: Mapping[str, Any] | None, kind: Any
) -> tuple[bool, float, float, float | None]:
    known = payload is not None and kind in (
        "episodic",
        "working",
        "semantic",
        "competence",
        "plan_graph",
        "entity",
    )
    success = 0.5
    if payload is not None and kind == "competence":
        stats = payload.get("performance")
        if isinstance(stats, Mapping):
            wins = _number(stats.get("success_count"), 0.0)
            total = wins + _number(stats.get("failure_count"), 0.0)
            if total > 0:
                success = wins / total
    elif payload is not None and kind == "plan_graph":
        metrics = payload.get("metrics")
        if isinstance(metrics, Mapping) and _number(metrics.get("execution_count"), 0.0) > 0:
            success = 1.0 - _number(metrics.get("failure_rate"), 0.0)
    lifecycle = fields.get("lifecycle")
    reinforced = (
        _reinforced(lifecycle.get("last_reinforced_at")) if isinstance(lifecycle, Mapping) else None
    )
    return (known, _number(fields.get("confidence"), 0.0), success, reinforced)


class SelectArrays:
    """What the selector reads of some entries, as arrays in the entries' order."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        self.ids = [e.id for e in entries]
        codes: dict[str, int] = {}
        self.scopes = codes
        self.scope = np.array([codes.setdefault(e.scope, len(codes)) for e in entries], np.int64)
        self.level = np.array([LEVEL[e.sensitivity] for e in entries], np.int64)
        self.salience = np.array([e.salience for e in entries], np.float64)
        inputs = [e.select or (False, 0.0, 0.5, None) for e in entries]
        self.scored = np.array([i[0] for i in inputs], np.bool_)
        self.confidence = np.array([i[1] for i in inputs], np.float64)
        self.success = np.array([i[2] for i in inputs], np.float64)
        self.reinforced = np.array([np.nan if i[3] is None else i[3] for i in inputs], np.float64)

    def tiers(self, trust: TrustContext, floor: float) -> tuple[np.ndarray, np.ndarray]:
        """Which entries ``trust`` sees (full or redacted) at or above ``floor`` (when > 0),
        and which of them it reads in full."""
        top = LEVEL[trust.max_sensitivity]
        in_scope = np.ones(len(self.entries), np.bool_)
        if trust.scopes:
            allowed = [self.scopes[s] for s in (*trust.scopes, "") if s in self.scopes]
            in_scope = np.isin(self.scope, np.array(allowed, np.int64))
        seen = in_scope & (self.level <= top + 1)
        if floor > 0:
            seen &= self.salience >= floor
        return seen, seen & (self.level <= top)


def _readable(node: Node) -> Node:
    """``node`` with its fields as a plain dict when they are still JSON text (a record or a
    note read from the file): what the index reads of them, without freezing the whole record
    into the node (3-4 times the parse; the node keeps its text, parsed when someone reads it)."""
    fields = node.fields
    if isinstance(fields, LazyFields) and node.level in (RECORD_LEVEL, NOTE_LEVEL):
        return evolve(node, fields=json.loads(fields.text))
    return node


class CandidateIndex:
    """Every node's ``Entry`` with the sorted lists and the entity terms (module docstring)."""

    def __init__(self, nodes: Iterable[Node]) -> None:
        self.entries: dict[str, Entry] = {}
        self.by_level: dict[tuple[str, str], list[Key]] = {}
        self.by_scope: dict[tuple[str, str, str], list[Key]] = {}
        self.terms: dict[str, set[str]] = {}
        for node in map(_readable, nodes):
            entry = self.entries[node.id] = Entry(node, attributes_of(node))
            self.by_level.setdefault((entry.memory_type, entry.sensitivity), []).append(entry.key)
            self.by_scope.setdefault(
                (entry.memory_type, entry.sensitivity, entry.scope), []
            ).append(entry.key)
            for term in entry.lookup:
                self.terms.setdefault(term, set()).add(entry.id)
        for keys in (*self.by_level.values(), *self.by_scope.values()):
            keys.sort()
        self._arrays: dict[tuple[str, ...], SelectArrays] = {}

    def select_arrays(self, layers: tuple[str, ...]) -> SelectArrays:
        """The selector's arrays of every node of ``layers`` (own attributes), in reading
        order: layer by layer, each in the index's order. Kept until the next change."""
        found = self._arrays.get(layers)
        if found is None:
            entries = self.entries
            ordered: list[Entry] = []
            for layer in layers:
                keys = sorted(k for (t, _), ks in self.by_level.items() if t == layer for k in ks)
                ordered.extend(entries[k[3]] for k in keys)
            found = self._arrays[layers] = SelectArrays(ordered)
        return found

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        self._arrays.clear()
        if old is not None:
            self._drop(old.id)
        if new is not None:
            self._drop(new.id)
            new = _readable(new)
            self._add(Entry(new, attributes_of(new)))

    def _add(self, entry: Entry) -> None:
        self.entries[entry.id] = entry
        bisect.insort(
            self.by_level.setdefault((entry.memory_type, entry.sensitivity), []), entry.key
        )
        bisect.insort(
            self.by_scope.setdefault((entry.memory_type, entry.sensitivity, entry.scope), []),
            entry.key,
        )
        for term in entry.lookup:
            self.terms.setdefault(term, set()).add(entry.id)

    def _drop(self, node_id: str) -> None:
        entry = self.entries.pop(node_id, None)
        if entry is None:
            return
        _drop_key(self.by_level, (entry.memory_type, entry.sensitivity), entry.key)
        _drop_key(self.by_scope, (entry.memory_type, entry.sensitivity, entry.scope), entry.key)
        for term in entry.lookup:
            ids = self.terms.get(term)
            if ids is not None:
                ids.discard(node_id)
                if not ids:
                    del self.terms[term]


def _drop_key(lists: dict[Any, list[Key]], name: Any, key: Key) -> None:
    """Take ``key`` out of the sorted list ``lists[name]`` (and the list, once empty)."""
    keys = lists[name]
    at = bisect.bisect_left(keys, key)
    if at < len(keys) and keys[at] == key:
        del keys[at]
    if not keys:
        del lists[name]


def candidate_index(graph: Graph) -> CandidateIndex:
    """The graph's ``CandidateIndex`` (built on first use)."""
    return graph.index(INDEX, lambda: CandidateIndex(graph.nodes.values()))


def overridden(graph: Graph) -> dict[str, Entry]:
    """The entries of the nodes people set attributes on, those laid over (memoised until the
    next change of the graph)."""

    def build() -> dict[str, Entry]:
        given = overrides(graph)
        out: dict[str, Entry] = {}
        for node_id in given:
            node = graph.nodes.get(node_id)
            if node is not None and not is_record(node):
                out[node_id] = Entry(node, attributes_of(node, given))
        return out

    if not overrides(graph):
        return {}
    return graph.derived(("membrane-overridden",), build)


def entry(graph: Graph, node_id: str) -> Entry | None:
    """``node_id``'s entry as it holds now (overrides laid over), None if no such node."""
    found = overridden(graph).get(node_id)
    if found is not None:
        return found
    return candidate_index(graph).entries.get(node_id)

"""The memory as one Membrane caller sees it: a node's redacted form, and the *seen store*.

``seen_store(source, trust)`` makes a new private ``":memory:"`` store holding ``source`` exactly
as a caller with ``trust`` may see it, so that every API run over it (Luker's read and external
APIs, Nuggets, Membrane, ``vectorSearch``) answers as that caller sees the memory. It holds:

- every node read in full (``index.tiers``) as it is (the very ``Node`` object: nodes are
  immutable), but for what it names of an omitted node, taken out (below);
- every redacted node in its redacted form (``redacted_node``): its title ``"<id> · <memory
  type> · redacted"``, its fields exactly the seed's ``REDACTED_KEYS`` of its ``MemoryRecord``
  (``redacted_fields``), its type, level, flags and place in the hierarchy kept; the same form
  the desk's trust lens shows;
- no omitted node; no edge touching an omitted node; no edge leaving a redacted node (a
  redacted record's relations are stripped: seed), the hierarchy's ``contains`` edges included.

A redacted note keeps no ``nuggetName``, so it is in no nugget: Nuggets' calls never list it
(Luker's and Membrane's show its redacted form). Membrane over the seen store tiers every node as
over ``source`` (below); a redacted node it redacts again, from its redacted fields: a note's
stamps are then Go's zero time (its redacted fields keep them as ``created_at`` /
``updated_at``, not where a note keeps them).

What a remaining node holds of another node follows the edges: its ``parent_id`` is cleared
when the parent is omitted or redacted (the containment is the parent's relation), its
``children_ids`` lose the omitted children (a redacted node keeps none), its ``superseded_by``
is cleared when that node is omitted. In the fields of a full node, every JSON string that is an
omitted node's id is taken out (``scrub``): a list item holding one at any depth goes (a
record's relation, a note's link, a mention, an evidence item), an object's key whose value is
one goes; the attribute keys a record or note is tiered by (``KEPT_KEYS``) are never touched.
Ids inside longer texts are not looked for. A Nuggets note whose fields change this way gets
``refresh_note(node, fields)`` (core.memory passes one that makes its vector spec again, whose
basis names its first links); without it, the note's stored ``vector`` is dropped.

The meta holds only what the APIs read (everything else, e.g. Luker's recall trace and extra
keys or an import's report, is left out): the schema, the counters, the embedding profile; the
injection state and the pins with the ids of nodes not in the store taken out; the people-set
attributes (``OVERRIDES``) of the nodes that remain, and for each redacted Luker node or note
its attributes as they were (its redacted fields alone would give a note other defaults), so
every node is tiered in the seen store as in ``source``; Nuggets' fact counters only of facts
whose note is read in full. The undo history is empty.

Stored vectors (derived data beside the change log) are copied for the nodes read in full only,
under every profile; a redacted node has none, so ``vectorSearch`` embeds its redacted text
(its title and shown fields) the first time it searches, and never ranks it by what it hides.
A full node's copied vector stays in use only while its digest matches its text in the seen
store (``vectors.index``): one whose text changed here is embedded again from what it shows.

``source`` is read under its lock once (tiers, nodes, edges, meta, redacted forms), its vectors
after it; the seen store is then written off the lock in one bulk load. It does not follow
later changes of ``source``: make another one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from operator import attrgetter
from typing import Any

from memgraph_gui.core.domain.freeze import LazyFields
from memgraph_gui.core.domain.model import Edge, Node, evolve
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.membrane.attributes import (
    NOTE_LEVEL,
    OVERRIDES,
    Attributes,
    attributes_of,
)
from memgraph_gui.core.membrane.index import all_attributes, attributes
from memgraph_gui.core.membrane.model import is_record, record_json
from memgraph_gui.core.membrane.records import record_head
from memgraph_gui.core.membrane.trust import REDACTED_KEYS, TrustContext, redact
from memgraph_gui.core.storage import vector_rows
from memgraph_gui.core.storage.changelog import COUNTER_KEYS
from memgraph_gui.core.storage.store import Store
from memgraph_gui.core.vectors.profiles import META_KEY as PROFILE_KEY

REDACTED_TITLE = "{id} · {type} · redacted"
"""A redacted node's title: its id and memory type (``str.format`` names)."""
NOTE_SEQ = "noteSeq"  # core.nuggets.model.NOTE_SEQ (not imported: a lens never imports another)
FACT_META = "nuggetFact"  # core.nuggets.api.FACT_META (the same)
KEPT_META = frozenset({"schema", *COUNTER_KEYS, NOTE_SEQ, "membraneSeq", PROFILE_KEY})
"""Meta keys copied as they are (counters and settings that name no node)."""
KEPT_KEYS = frozenset({*REDACTED_KEYS, "nuggetName", "kind", "confidence"})
"""Top-level field keys ``scrub`` never touches: what a record's or note's attributes are read
from (its tier must not change in the seen store)."""
NoteRefresh = Callable[[Node, dict[str, Any]], dict[str, Any]]
"""``refresh_note(node, fields)``: a note's fields with what is derived from them made again."""
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_DROP = object()


def redacted_fields(graph: Graph, node: Node) -> dict[str, Any]:
    """What a redacted ``node`` shows: exactly ``REDACTED_KEYS`` of its ``MemoryRecord`` (a
    record's own JSON; a Luker node's or a note's projection, ``records.record_head``), as
    ``retrieveGraph`` gives it redacted. Caller holds the store lock (or owns ``graph``)."""
    return _redacted_fields(node, attributes(graph, node.id) or attributes_of(node))


def redacted_node(graph: Graph, node: Node, title: str = REDACTED_TITLE) -> Node:
    """``node``'s redacted form: ``title`` formatted with its ``id`` and memory ``type``, its
    fields ``redacted_fields``; its type, level, seq, hierarchy and flags kept (no floor range,
    no ``superseded_by``). Caller holds the store lock (or owns ``graph``)."""
    return _redacted_node(node, redacted_fields(graph, node), title)


def _redacted_fields(node: Node, attrs: Attributes) -> dict[str, Any]:
    return redact(record_json(node) if is_record(node) else record_head(node, attrs))


def _redacted_node(node: Node, fields: dict[str, Any], title: str) -> Node:
    text = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
    return Node(
        id=node.id,
        type=node.type,
        level=node.level,
        title=title.format(id=node.id, type=fields["type"]),
        seq_to=node.seq_to,
        fields=LazyFields(text),  # (parsed when read: the seen store builds 10^4 of them)
        parent_id=node.parent_id,
        children_ids=node.children_ids,
        archived=node.archived,
        semantic_rollup=node.semantic_rollup,
        semantic_depth=node.semantic_depth,
        ord=node.ord,
    )


@dataclass(frozen=True, slots=True)
class SeenGraph:
    """What a seen store is loaded with: its nodes and edges in ``source`` order, its meta, the
    ids read in full (whose vectors are copied), the omitted and the redacted ids."""

    nodes: list[Node]
    edges: list[Edge]
    meta: dict[str, Any]
    full: frozenset[str]
    omitted: frozenset[str]
    redacted: frozenset[str]


def seen_store(
    source: Store, trust: TrustContext, *, refresh_note: NoteRefresh | None = None
) -> Store:
    """A new private ``":memory:"`` store holding ``source`` as ``trust`` sees it (see the
    module docstring); the caller closes it. ~2.5 s at 50k nodes with a third hidden (~1 s of
    it writing the rows), ~0.7 s more when ``source``'s attribute index is not built yet."""
    with source.reading() as graph:
        seen = seen_graph(graph, trust, refresh_note)
    store = Store.open(":memory:", origin=source.origin)
    try:
        store.replace_all(seen.nodes, seen.edges, seen.meta, backup=False, as_given=True)
        copy_vectors(source, store, seen.full)
    except BaseException:
        store.close()
        raise
    return store


def seen_graph(graph: Graph, trust: TrustContext, refresh_note: NoteRefresh | None) -> SeenGraph:
    """The nodes, edges and meta of ``graph`` as ``trust`` sees it (see the module docstring).
    Caller holds the store lock (or owns ``graph``)."""
    attrs = all_attributes(graph)
    tier = trust.tier
    omitted: set[str] = set()
    redacted: set[str] = set()
    for node_id, a in attrs.items():
        t = tier(a.sensitivity, a.scope)
        if t == "omitted":
            omitted.add(node_id)
        elif t == "redacted":
            redacted.add(node_id)
    gone = frozenset(omitted)
    scrub = _Scrubber(gone)
    nodes: list[Node] = []
    for node in sorted(graph.nodes.values(), key=attrgetter("ord")):
        node_id = node.id
        if node_id in gone:
            continue
        if node_id in redacted:
            shown = _redacted_node(node, _redacted_fields(node, attrs[node_id]), REDACTED_TITLE)
            parent = shown.parent_id
            if shown.children_ids or (parent and (parent in gone or parent in redacted)):
                held = parent if parent not in gone and parent not in redacted else ""
                shown = evolve(shown, parent_id=held, children_ids=())
            nodes.append(shown)
            continue
        nodes.append(_seen_full(node, gone, redacted, scrub, refresh_note))
    kept_ids = frozenset(n.id for n in nodes)
    edges = [
        e
        for e in sorted(graph.edges.values(), key=attrgetter("ord"))
        if e.from_id not in gone and e.to_id not in gone and e.from_id not in redacted
    ]
    meta = _seen_meta(graph.meta, kept_ids, frozenset(redacted), attrs, nodes)
    full = kept_ids - redacted
    return SeenGraph(nodes, edges, meta, full, gone, frozenset(redacted))


def _seen_full(
    node: Node,
    gone: frozenset[str],
    redacted: set[str],
    scrub: _Scrubber,
    refresh_note: NoteRefresh | None,
) -> Node:
    """A full node as the seen store holds it: what it names of omitted nodes taken out."""
    changes: dict[str, Any] = {}
    parent = node.parent_id
    if parent and (parent in gone or parent in redacted):
        changes["parent_id"] = ""
    children = node.children_ids
    if children and not gone.isdisjoint(children):
        changes["children_ids"] = tuple(c for c in children if c not in gone)
    if node.superseded_by and node.superseded_by in gone:
        changes["superseded_by"] = None
    if gone and node.fields:
        fields = scrub.fields(node)
        if fields is not None:
            if node.level == NOTE_LEVEL:
                if refresh_note is not None:
                    fields = refresh_note(node, fields)
                else:
                    fields.pop("vector", None)
            changes["fields"] = LazyFields(
                json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
            )
    return evolve(node, **changes) if changes else node


class _Scrubber:
    """Takes omitted ids out of a node's fields (see the module docstring)."""

    def __init__(self, gone: frozenset[str]) -> None:
        self.gone = gone
        marks = {json.dumps(i, ensure_ascii=False)[1:-1] for i in gone}
        marks |= {json.dumps(i)[1:-1] for i in gone if not i.isascii()}
        self._marks = frozenset(marks)  # as they are written inside JSON text
        self._quoted = any('"' in i or "\\" in i for i in marks)

    def _pieces(self, text: str) -> list[str]:
        """The candidates of ``text`` for an omitted id: its pieces between quotes (C-fast;
        every JSON string without an escaped quote is one of them), or, when some id holds a
        quote or a backslash, the JSON strings themselves."""
        return _STRING.findall(text) if self._quoted else text.split('"')

    def fields(self, node: Node) -> dict[str, Any] | None:
        """``node``'s fields without the omitted ids (a fresh dict), or None: it names none."""
        text = node.fields_json()
        if self._marks.isdisjoint(self._pieces(text)):
            return None
        data: dict[str, Any] = json.loads(text)
        out: dict[str, Any] = {}
        for key, value in data.items():
            cleaned = value if key in KEPT_KEYS else self._clean(value)
            if cleaned is not _DROP:
                out[key] = cleaned
        return out

    def _clean(self, value: Any) -> Any:
        """``value`` without the omitted ids; ``_DROP`` for one that is such an id."""
        if isinstance(value, str):
            return _DROP if value in self.gone else value
        if isinstance(value, list):
            return [item for item in value if not self._names(item)]
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if key in self.gone:
                    continue
                cleaned = self._clean(item)
                if cleaned is not _DROP:
                    out[key] = cleaned
            return out
        return value

    def _names(self, value: Any) -> bool:
        """Whether ``value`` holds an omitted id (a string value or a key) at any depth."""
        if isinstance(value, str):
            return value in self.gone
        if isinstance(value, (list, tuple)):
            return any(self._names(item) for item in value)
        if isinstance(value, Mapping):
            return any(k in self.gone or self._names(v) for k, v in value.items())
        return False


def _seen_meta(
    meta: Mapping[str, Any],
    kept: frozenset[str],
    redacted: frozenset[str],
    attrs: Mapping[str, Any],
    nodes: list[Node],
) -> dict[str, Any]:
    """The meta of the seen store (see the module docstring)."""
    out = {key: meta[key] for key in KEPT_META if meta.get(key) is not None}
    injection = meta.get("injection")
    if isinstance(injection, Mapping):
        out["injection"] = {
            key: [i for i in ids if i in kept] if isinstance(ids, list) else ids
            for key, ids in injection.items()
        }
    pins = meta.get("pins")
    if isinstance(pins, Mapping):
        kept_pins = {i: at for i, at in pins.items() if i in kept}
        if kept_pins:
            out["pins"] = kept_pins
    given = meta.get(OVERRIDES)
    overrides = (
        {i: entry for i, entry in given.items() if i in kept and i not in redacted}
        if isinstance(given, Mapping)
        else {}
    )
    by_id = {n.id: n for n in nodes if n.id in redacted}
    for node_id in redacted:
        if not is_record(by_id[node_id]):
            a = attrs[node_id]
            overrides[node_id] = {
                "sensitivity": a.sensitivity,
                "salience": a.salience,
                "memory_type": a.memory_type,
                "scope": a.scope,
                "tags": list(a.tags),
            }
    if overrides:
        out[OVERRIDES] = overrides
    facts = [key for key in meta if key.startswith(f'["{FACT_META}"')]
    if facts:
        known = _full_facts(n for n in nodes if n.level == NOTE_LEVEL and n.id not in redacted)
        for key in facts:
            try:
                _tag, nugget, fact = json.loads(key)
            except (ValueError, TypeError):
                continue
            if (nugget, fact) in known:
                out[key] = meta[key]
    return out


def _full_facts(notes: Iterable[Node]) -> set[tuple[str, str]]:
    """``(nugget, lower-cased source key)`` of each fact note among ``notes``."""
    found: set[tuple[str, str]] = set()
    for node in notes:
        fields = node.fields
        data = json.loads(fields.text) if isinstance(fields, LazyFields) else fields
        name, key = data.get("nuggetName"), data.get("sourceKey")
        if data.get("kind") == "fact" and isinstance(name, str) and isinstance(key, str):
            found.add((name, key.lower()))
    return found


def copy_vectors(source: Store, seen: Store, ids: frozenset[str]) -> int:
    """Copy the stored vectors of ``ids`` (every profile) from ``source`` into ``seen``;
    returns the rows copied."""
    profiles = source.read_aside(vector_rows.counts)
    if not profiles:
        return 0
    copied = 0
    for profile in profiles:
        rows = source.read_aside(partial(vector_rows.read_profile, profile=profile))
        mine = [row for row in rows if row[0] in ids]
        if mine:
            copied += seen.write_aside(partial(vector_rows.write_rows, profile=profile, rows=mine))
    return copied

"""``retrieveGraph`` and ``retrieveByID`` over every node of the store, exactly as
``../shared/membrane-readings.md`` reads the seed (and, where it is silent, as Membrane's Go code
``pkg/retrieval`` does).

Candidates are ALL nodes, through their attributes (``candidates``): Membrane records, Luker
nodes and Nuggets notes (as ``records.record_of`` projects them), archived Luker nodes and hidden
notes included. Membrane's retrieval filters by trust, memory type and salience only (its
``Lifecycle`` has no deleted state and ``pkg/retrieval`` reads every stored record); an archived
Luker node's salience is 0.1 by default, so it ranks last, and ``min_salience`` drops it.

retrieveGraph, step by step:

1. Limits ≤ 0 or omitted: root 10, node 25, edge 100; ``max_hops`` omitted: 1, negative: 0.
2. Candidates: the layers in the seed's order (or ``memory_types``' order, each once); a node
   read in full or redacted (one level above), at or above ``min_salience`` (0 or less: off).
3. With a non-empty task descriptor and a competence / plan_graph candidate, the selector scores
   every such candidate: ``(confidence + success + recency) / 3`` (success: wins / (wins +
   losses) of a competence, 1 − failure_rate of a plan_graph run at least once, else 0.5;
   recency: 2^(−age / 30 days) since ``lifecycle.last_reinforced_at``, 0.5 when unset, 1 when
   in the future); a redacted one, or one without a known payload, scores 0.5. Those go first,
   best first; every other candidate follows by salience descending. Otherwise all candidates
   by salience descending. Ties keep the reading order (layer, then Membrane's ``ListByType``
   order: salience, ``created_at`` descending, then row order); Go's unstable sorts leave them
   open. The first 3 × root_limit are kept.
4. Entity candidates (non-empty trimmed descriptor, entity allowed): entity records whose
   canonical name or an alias equals it (trimmed, lower-cased); per trust scope that scope's and
   unscoped matches, the scope's first, then by id (empty scopes: every match, unscoped first,
   then by id), at most root_limit each; then the trust filter and ``min_salience``. Appended,
   ids already present skipped.
5. Re-ranking (non-empty descriptor): candidate i of N scores ``(N − i) + boost`` (the boosts
   of the readings; a redacted candidate gets none), stable sort descending; the first
   root_limit are the roots.
6. Expansion breadth-first from the roots (``node_limit`` counts them), through each full node's
   own relations in stored order (a record's ``relations``, one per predicate and target; a
   Luker node's or a note's outgoing non-hierarchy edges). A redacted node is a leaf (**seed**).
7. Nodes: roots first, then by hop, then salience descending (ties: the order they were found).

A redacted record has exactly ``trust.REDACTED_KEYS``. Edges are ``{source_id, predicate,
target_id, weight, created_at}`` (a relation's weight, 1.0 when unset as Membrane stores it; its
stamp, else Go's zero time). ``selection`` (only when the selector ran): ``{selected: ids best
first, confidence: (best − second) / best (the score itself, at most 1, for one), needs_more:
confidence < 0.7, scores: {id: score}}``.

Errors (``MemgraphError``): ``INVALID_ARGUMENT`` for a missing / null trust, an unknown
sensitivity or memory type, a value of the wrong type; ``retrieve_by_id`` also
``RECORD_NOT_FOUND`` (checked first) and ``ACCESS_DENIED`` (any level above the caller's, or a
scope mismatch; never redacted). Read-only; the caller holds the store lock.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.membrane.candidates import (
    SELECTED_TYPES,
    CandidateIndex,
    EntityInfo,
    Entry,
    SelectArrays,
    candidate_index,
    norm,
    overridden,
)
from memgraph_gui.core.membrane.index import attributes
from memgraph_gui.core.membrane.model import LAYER_ORDER, SENSITIVITIES, ZERO_TIME, is_record
from memgraph_gui.core.membrane.records import out_relations, record_of
from memgraph_gui.core.membrane.trust import (
    DENIED,
    INVALID,
    LEVEL,
    NOT_FOUND,
    Tier,
    TrustContext,
    memory_type,
    parse_trust,
    redact,
)

ROOT_LIMIT, NODE_LIMIT, EDGE_LIMIT, MAX_HOPS = 10, 25, 100, 1
NEEDS_MORE_BELOW = 0.7
"""The selector's confidence threshold (``selection.needs_more`` below it)."""
HALF_LIFE_S = 30 * 24 * 3600.0
"""The selector's recency half-life (30 days)."""
_LN2 = math.log(2)
_RELATION_BONUS = {
    "mentions_entity": 20.0,
    "mentioned_in": 20.0,
    "subject_entity": 25.0,
    "fact_subject_of": 25.0,
    "object_entity": 25.0,
    "fact_object_of": 25.0,
    "supports": 10.0,
    "supported_by": 10.0,
    "depends_on": 10.0,
    "dependency_of": 10.0,
}

Candidate = tuple[Entry, Tier]


# -- arguments ------------------------------------------------------------------------------------
def _int(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MemgraphError(INVALID, f"{where} must be an integer, not {_kind(value)}")
    if isinstance(value, float) and not value.is_integer():
        raise MemgraphError(INVALID, f"{where} must be an integer, not {value!r}")
    return int(value)


def _kind(value: Any) -> str:
    return "an array" if isinstance(value, list) else type(value).__name__


def _types(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)):
        raise MemgraphError(INVALID, f"memory_types must be an array, not {_kind(value)}")
    return tuple(
        dict.fromkeys(memory_type(item, f"memory_types[{i}]") for i, item in enumerate(value))
    )


def _limit(value: Any, where: str, default: int) -> int:
    given = _int(value, where)
    return default if given is None or given <= 0 else given


# -- retrieveByID ---------------------------------------------------------------------------------
def retrieve_by_id(graph: Graph, record_id: Any, trust: Any) -> dict[str, Any]:
    """The record ``record_id`` in full (a fresh dict), or ``RECORD_NOT_FOUND`` /
    ``ACCESS_DENIED`` (see the module docstring)."""
    if record_id is None:
        raise MemgraphError(INVALID, "id is required (a string)")
    if not isinstance(record_id, str):
        raise MemgraphError(INVALID, f"id must be a string, not {_kind(record_id)}")
    caller = parse_trust(trust)
    found = attributes(graph, record_id)
    if found is None:
        raise MemgraphError(NOT_FOUND, f"no record with id {record_id!r}")
    if not caller.may_read_whole(found.sensitivity, found.scope):
        raise MemgraphError(DENIED, f"access to {record_id!r} denied by the trust context")
    return record_of(graph, record_id)


# -- retrieveGraph --------------------------------------------------------------------------------
def retrieve_graph(
    graph: Graph,
    task_descriptor: Any,
    trust: Any,
    memory_types: Any = None,
    min_salience: Any = None,
    root_limit: Any = None,
    node_limit: Any = None,
    edge_limit: Any = None,
    max_hops: Any = None,
    *,
    now: float | None = None,
) -> dict[str, Any]:
    """Membrane's ``RetrieveGraphResponse`` JSON for the task (module docstring): ``{nodes:
    [{record, root, hop}], edges, root_ids, selection?}``, fresh data. ``now`` (seconds since
    1970; default the clock) is the selector's time of reference."""
    request = _request(
        task_descriptor,
        trust,
        memory_types,
        min_salience,
        (root_limit, node_limit, edge_limit, max_hops),
    )
    descriptor, layers, roots_wanted = request.descriptor, request.layers, request.roots
    reader = _Reader(graph, request.trust, request.floor)
    kept = 3 * roots_wanted
    selection: dict[str, Any] | None = None
    chosen: list[Candidate] = []
    rest_layers: Sequence[str] = layers
    if descriptor != "":
        selection, chosen = _select(reader, layers, time.time() if now is None else now, kept)
        if selection is not None:
            rest_layers = [layer for layer in layers if layer not in SELECTED_TYPES]
    base = chosen[:kept]
    if len(base) < kept:
        more = reader.ranked(rest_layers)
        base.extend(c for _, c in zip(range(kept - len(base)), more, strict=False))
    if descriptor.strip() and "entity" in layers:
        present = {c[0].id for c in base}
        for found in reader.entities(descriptor, roots_wanted):
            if found[0].id not in present:
                present.add(found[0].id)
                base.append(found)
    if descriptor != "":
        base = reader.reranked(base, descriptor)
    out = _expand(reader, base[:roots_wanted], request.nodes, request.edges, request.hops)
    if selection is not None:
        out["selection"] = selection
    return out


@dataclass(frozen=True, slots=True)
class _Request:
    """retrieveGraph's arguments, checked, with the defaults applied."""

    descriptor: str
    trust: TrustContext
    layers: tuple[str, ...]
    floor: float
    roots: int
    nodes: int
    edges: int
    hops: int


def _request(
    task_descriptor: Any,
    trust: Any,
    memory_types: Any,
    min_salience: Any,
    limits: tuple[Any, Any, Any, Any],
) -> _Request:
    if task_descriptor is None:
        task_descriptor = ""
    if not isinstance(task_descriptor, str):
        raise MemgraphError(
            INVALID, f"task_descriptor must be a string, not {_kind(task_descriptor)}"
        )
    caller = parse_trust(trust)
    layers = _types(memory_types) or LAYER_ORDER
    floor = 0.0
    if min_salience is not None:
        if isinstance(min_salience, bool) or not isinstance(min_salience, (int, float)):
            raise MemgraphError(
                INVALID, f"min_salience must be a number, not {_kind(min_salience)}"
            )
        if not math.isfinite(min_salience):
            raise MemgraphError(INVALID, "min_salience must be a finite number")
        floor = float(min_salience)
    root_limit, node_limit, edge_limit, max_hops = limits
    hops = _int(max_hops, "max_hops")
    return _Request(
        descriptor=task_descriptor,
        trust=caller,
        layers=layers,
        floor=floor,
        roots=_limit(root_limit, "root_limit", ROOT_LIMIT),
        nodes=_limit(node_limit, "node_limit", NODE_LIMIT),
        edges=_limit(edge_limit, "edge_limit", EDGE_LIMIT),
        hops=MAX_HOPS if hops is None else max(hops, 0),
    )


class _Reader:
    """One call's view of the graph: entries with overrides laid over, tiers for the caller."""

    def __init__(self, graph: Graph, trust: TrustContext, floor: float) -> None:
        self.graph = graph
        self.trust = trust
        self.floor = floor
        self.index: CandidateIndex = candidate_index(graph)
        self.extra = overridden(graph)
        self._entity_cache: dict[str, EntityInfo | None] = {}

    def entry(self, node_id: str) -> Entry | None:
        found = self.extra.get(node_id)
        if found is not None:
            return found
        return self.index.entries.get(node_id) if node_id in self.graph.nodes else None

    def tier(self, entry: Entry) -> Tier:
        return self.trust.tier(entry.sensitivity, entry.scope)

    def ranked(self, layers: Sequence[str]) -> Iterator[Candidate]:
        """The candidates of ``layers`` that pass trust and ``min_salience``, salience
        descending, ties in reading order (layer, then the index's order)."""
        trust, floor, extra, entries = self.trust, self.floor, self.extra, self.index.entries
        sources, heap = self._sources(layers)
        while heap:
            item = heap[0]
            source_at, at = item[5], item[6] + 1
            keys = sources[source_at if source_at >= 0 else -source_at - 1]
            if at < len(keys):
                k = keys[at]
                heapq.heapreplace(heap, (k[0], item[1], k[1], k[2], k[3], source_at, at))
            else:
                heapq.heappop(heap)
            if floor > 0 and -item[0] < floor:
                return  # every later candidate has a lower salience
            node_id = item[4]
            if source_at < 0:
                entry = extra[node_id]
            elif node_id in extra:
                continue  # entered again with what people set
            else:
                entry = entries[node_id]
            tier = trust.tier(entry.sensitivity, entry.scope)
            if tier != "omitted":
                yield entry, tier

    def _sources(self, layers: Sequence[str]) -> tuple[list[list[Any]], list[tuple[Any, ...]]]:
        """The sorted key lists ``ranked`` merges (those of the levels and scopes the caller
        may see; a negative source number marks the overridden nodes' list) and the heap of
        each list's first key ``(-salience, layer place, -created, ord, id, source, at)``."""
        trust = self.trust
        top = LEVEL[trust.max_sensitivity] + 1
        levels = [s for s in SENSITIVITIES if LEVEL[s] <= top]
        scopes = [*dict.fromkeys(trust.scopes), ""] if trust.scopes else None
        sources: list[list[Any]] = []
        heap: list[tuple[Any, ...]] = []
        for pos, layer in enumerate(layers):
            if scopes is None:
                found = [self.index.by_level.get((layer, s)) for s in levels]
            else:
                found = [self.index.by_scope.get((layer, s, sc)) for s in levels for sc in scopes]
            own = sorted(e.key for e in self.extra.values() if e.memory_type == layer)
            for keys, sign in (*((f, 1) for f in found), (own, -1)):
                if keys:
                    sources.append(keys)
                    k = keys[0]
                    number = len(sources) - 1 if sign > 0 else -len(sources)
                    heap.append((k[0], pos, k[1], k[2], k[3], number, 0))
        heapq.heapify(heap)
        return sources, heap

    def entities(self, descriptor: str, limit: int) -> list[Candidate]:
        """Entity records named exactly ``descriptor`` (step 4 of the module docstring)."""
        term = norm(descriptor)
        ids = {i for i in self.index.terms.get(term, ()) if i not in self.extra}
        ids.update(i for i, e in self.extra.items() if term in e.lookup)
        matches = [e for e in map(self.entry, ids) if e is not None]
        groups: list[list[Entry]] = []
        if self.trust.scopes:
            for scope in self.trust.scopes:
                own = [e for e in matches if e.scope in (scope, "")]
                own.sort(key=lambda e, s=scope: (e.scope != s, e.id))  # type: ignore[misc]
                groups.append(own[:limit])
        else:
            groups.append(sorted(matches, key=lambda e: (e.scope != "", e.id))[:limit])
        out: list[Candidate] = []
        for group in groups:
            for entry in group:
                tier = self.tier(entry)
                if tier != "omitted" and not (self.floor > 0 and entry.salience < self.floor):
                    out.append((entry, tier))
        return out

    def related_entity(self, node_id: str) -> EntityInfo | None:
        """The entity payload of ``node_id`` when the caller reads it in full."""
        if node_id in self._entity_cache:
            return self._entity_cache[node_id]
        found = self.entry(node_id)
        info = None
        if found is not None and found.entity is not None and self.tier(found) == "full":
            info = found.entity
        self._entity_cache[node_id] = info
        return info

    def relations(self, node_id: str) -> list[tuple[str, str, float, str]]:
        """``node_id``'s own relations in stored order, one per predicate and target:
        ``(predicate, target, weight, created_at)``."""
        node = self.graph.nodes[node_id]
        if not is_record(node):
            return [(p, t, 1.0, ZERO_TIME) for p, t in out_relations(self.graph, node_id)]
        found: dict[tuple[str, str], tuple[str, str, float, str]] = {}
        for relation in node.fields.get("relations") or ():
            if not isinstance(relation, Mapping):
                continue
            predicate, target = relation.get("predicate"), relation.get("target_id")
            if not isinstance(predicate, str) or not isinstance(target, str):
                continue
            weight = relation.get("weight")
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not weight:
                weight = 1.0
            stamp = relation.get("created_at")
            stamp = stamp if isinstance(stamp, str) and stamp else ZERO_TIME
            # Membrane's relations table: one row per (predicate, target), in first-seen
            # place, with the last weight and stamp
            found[(predicate, target)] = (predicate, target, float(weight), stamp)
        return list(found.values())

    def boost(self, candidate: Candidate, query: str) -> float:
        """The re-ranking boost of a candidate read in full (``query`` normalised)."""
        entry, tier = candidate
        if tier != "full":
            return 0.0
        score = 0.0
        info = entry.entity
        if info is not None:
            if _match(info.canonical, query):
                score += 100
            if any(_match(a, query) for a in info.aliases):
                score += 75
            if any(_match(t, query) for t in info.types):
                score += 15
        node = self.graph.nodes[entry.id]
        if is_record(node):
            score += _mention_boost(node.fields.get("interpretation"), query)
        for predicate, target, _, _ in self.relations(entry.id):
            related = self.related_entity(target)
            if related is None:
                continue
            bonus = _RELATION_BONUS.get(norm(predicate), 0.0)
            if _match(related.canonical, query):
                score += 60 + bonus
            if any(_match(a, query) for a in related.aliases):
                score += 45 + bonus
        return score

    def reranked(self, candidates: list[Candidate], descriptor: str) -> list[Candidate]:
        query = norm(descriptor)
        total = len(candidates)
        scores = [(total - i) + self.boost(c, query) for i, c in enumerate(candidates)]
        order = sorted(range(total), key=lambda i: -scores[i])
        return [candidates[i] for i in order]


def _mention_boost(interpretation: Any, query: str) -> float:
    """+30 for the first mention whose surface matches, else +20 if one of its aliases does;
    the first mention that matches ends the search (the readings)."""
    mentions = interpretation.get("mentions") if isinstance(interpretation, Mapping) else None
    for mention in mentions if isinstance(mentions, (list, tuple)) else ():
        if not isinstance(mention, Mapping):
            continue
        if _match(norm(mention.get("surface")), query):
            return 30.0
        aliases = mention.get("aliases")
        if isinstance(aliases, (list, tuple)) and any(_match(norm(a), query) for a in aliases):
            return 20.0
    return 0.0


def _match(value: str, query: str) -> bool:
    """Membrane's ``lexicalMatch`` on normalised strings: equal, or one contains the other."""
    return bool(value) and bool(query) and (value == query or query in value or value in query)


def _select(
    reader: _Reader, layers: Sequence[str], now: float, kept: int
) -> tuple[dict[str, Any] | None, list[Candidate]]:
    """The selector over the competence / plan_graph candidates (step 3 of the module
    docstring): the selection metadata (None when there is no such candidate) and the first
    ``kept`` of them, best first (ties keep the reading order)."""
    chosen_layers = tuple(layer for layer in layers if layer in SELECTED_TYPES)
    if not chosen_layers:
        return None, []
    own = reader.index.entries
    if any(
        e.memory_type in SELECTED_TYPES or own[i].memory_type in SELECTED_TYPES
        for i, e in reader.extra.items()
    ):  # attributes set on such a node: its entry in the arrays is not the one that holds
        found = [c for layer in chosen_layers for c in reader.ranked([layer])]
        arrays = SelectArrays([c[0] for c in found])
        picked = np.arange(len(found))
        full = np.array([c[1] == "full" for c in found], np.bool_)
    else:
        arrays = reader.index.select_arrays(chosen_layers)
        seen, full_all = arrays.tiers(reader.trust, reader.floor)
        picked = np.flatnonzero(seen)
        full = full_all[picked]
    if not len(picked):
        return None, []
    stamps = arrays.reinforced[picked]
    with np.errstate(invalid="ignore"):
        elapsed = now - stamps
        recency = np.where(
            np.isnan(stamps),
            0.5,
            np.where(elapsed <= 0, 1.0, np.exp(-np.maximum(elapsed, 0) * _LN2 / HALF_LIFE_S)),
        )
    scored = full & arrays.scored[picked]
    mean = (arrays.confidence[picked] + arrays.success[picked] + recency) / 3.0
    scores = np.where(scored, mean, 0.5)
    order = np.argsort(-scores, kind="stable")
    best_first = picked[order].tolist()
    values = scores[order].tolist()
    ids = [arrays.ids[i] for i in best_first]
    if len(values) == 1:
        confidence = min(values[0], 1.0)
    else:
        confidence = (values[0] - values[1]) / values[0] if values[0] > 0 else 0.0
    selection = {
        "selected": ids,
        "confidence": confidence,
        "needs_more": confidence < NEEDS_MORE_BELOW,
        "scores": dict(zip(ids, values, strict=True)),
    }
    tiers = full[order][:kept].tolist()
    chosen: list[Candidate] = [
        (arrays.entries[i], "full" if t else "redacted")
        for i, t in zip(best_first[:kept], tiers, strict=True)
    ]
    return selection, chosen


def _expand(
    reader: _Reader, roots: list[Candidate], node_limit: int, edge_limit: int, max_hops: int
) -> dict[str, Any]:
    """Step 6 and 7 of the module docstring: the response without ``selection``."""
    graph = reader.graph
    found: dict[str, tuple[Entry, Tier, bool, int]] = {}
    root_ids: list[str] = []
    queue: list[str] = []
    for entry, tier in roots:
        found[entry.id] = (entry, tier, True, 0)
        root_ids.append(entry.id)
        queue.append(entry.id)
        if len(found) >= node_limit:
            break
    edges: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for node_id in queue:
        _, tier, _, hop = found[node_id]
        if hop >= max_hops or tier != "full":
            continue  # a redacted node is a leaf (seed)
        for predicate, target, weight, stamp in reader.relations(node_id):
            if len(edges) >= edge_limit:
                break
            key = (node_id, predicate, target)
            if key in seen:
                continue
            if target not in found:
                other = reader.entry(target)
                if other is None:
                    continue
                other_tier = reader.tier(other)
                if other_tier == "omitted" or len(found) >= node_limit:
                    continue
                found[target] = (other, other_tier, False, hop + 1)
                queue.append(target)
            edges.append(
                {
                    "source_id": node_id,
                    "predicate": predicate,
                    "target_id": target,
                    "weight": weight,
                    "created_at": stamp,
                }
            )
            seen.add(key)
    ordered = sorted(found.values(), key=lambda f: (not f[2], f[3], -f[0].salience))
    nodes = []
    for entry, tier, root, hop in ordered:
        record = record_of(graph, entry.id)
        nodes.append(
            {"record": record if tier == "full" else redact(record), "root": root, "hop": hop}
        )
    return {"nodes": nodes, "edges": edges, "root_ids": root_ids}

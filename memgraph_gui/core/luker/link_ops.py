"""Link ops of a write batch: ``link_upsert`` (directions, symmetric relations) and ``link_delete``."""

from __future__ import annotations

from typing import Any

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.model import SYMMETRIC_RELATIONS, Edge
from memgraph_gui.core.graph.topology import js_string_gt, normalize_text
from memgraph_gui.core.graph.tx import Tx
from memgraph_gui.core.luker.node_ops import live
from memgraph_gui.core.luker.validate import MAX_RELATION, too_large

DIRECTIONS = ("outgoing", "incoming", "bidirectional")


def relation_name(value: Any) -> str:
    """A relation as stored: whitespace-collapsed, lower-cased, ``related`` when empty."""
    if value is not None and not isinstance(value, str):
        raise MemgraphError("BAD_ARGS", f"relation must be a string, got {type(value).__name__}")
    relation = normalize_text(value or "").lower() or "related"
    if len(relation) > MAX_RELATION:
        raise too_large(f"relation is {len(relation)} characters (at most {MAX_RELATION})")
    return relation


def direction_of(value: Any) -> str:
    direction = "bidirectional" if value is None or value == "" else value
    if isinstance(direction, str):
        direction = direction.strip().lower()
    if direction not in DIRECTIONS:
        raise MemgraphError(
            "BAD_ARGS", f"direction must be one of {', '.join(DIRECTIONS)}, got {value!r}"
        )
    return str(direction)


def resolve(tx: Tx, node_id: Any, ref: Any, refs: dict[str, str]) -> str:
    """A live node id from an id (preferred) or a batch ref; '' when neither resolves."""
    key = normalize_text(str(node_id or ""))
    if key and live(tx.node(key)):
        return key
    mapped = refs.get(normalize_text(str(ref or "")), "")
    return mapped if mapped and live(tx.node(mapped)) else ""


def edge_keys(source: str, target: str, relation: str, direction: str) -> list[tuple[str, str]]:
    """The (from, to) pairs a link stands for; symmetric relations are one canonical edge."""
    if relation in SYMMETRIC_RELATIONS:
        return [(target, source) if js_string_gt(source, target) else (source, target)]
    if direction == "incoming":
        return [(target, source)]
    if direction == "outgoing":
        return [(source, target)]
    return [(source, target), (target, source)]


def check_specs(links: list[Any]) -> None:
    """Refuse malformed link entries (not an object, bad relation, unknown direction) up front."""
    for index, link in enumerate(links):
        if not isinstance(link, dict):
            raise MemgraphError("BAD_ARGS", f"links[{index}] must be an object")
        relation_name(link.get("relation"))
        direction_of(link.get("direction"))


def upsert(
    tx: Tx, source: str, links: list[Any], refs: dict[str, str], seq: int, *, strict: bool
) -> int:
    """Add the links' edges from ``source``; returns how many edges are new.

    ``strict`` (a ``link_upsert`` op) refuses the whole op when a target does not resolve; inline
    links of a create skip such targets, as Luker does.
    """
    planned: list[tuple[str, str, str]] = []
    for index, link in enumerate(links):
        if not isinstance(link, dict):
            raise MemgraphError("BAD_ARGS", f"links[{index}] must be an object")
        target = resolve(
            tx,
            link.get("targetNodeId") or link.get("target_node_id"),
            link.get("targetRef") or link.get("target_ref"),
            refs,
        )
        relation, direction = (
            relation_name(link.get("relation")),
            direction_of(link.get("direction")),
        )
        if not target:
            if strict:
                wanted = link.get("targetNodeId") or link.get("targetRef") or "(none)"
                raise MemgraphError(
                    "NODE_NOT_FOUND", f"links[{index}]: target {wanted} is not a live node"
                )
            continue
        if target != source:
            planned += [(a, relation, b) for a, b in edge_keys(source, target, relation, direction)]
    added = 0
    for from_id, relation, to_id in planned:
        if tx.edge((from_id, relation, to_id)) is None:
            tx.put_edge(Edge(from_id, to_id, relation, seq))
            added += 1
    return added


def delete(tx: Tx, op: dict[str, Any]) -> int:
    """Remove a relation edge (or both directions); returns how many edges went.

    The direction is taken literally, as Luker's ``removeEdge`` does, for symmetric relations
    too: exactly ``outgoing`` removes only source->target, exactly ``incoming`` only
    target->source, and anything else (``bidirectional``, none, an unknown value) both. A
    symmetric edge is stored from the smaller id, so deleting it ``outgoing`` from the larger id
    removes nothing.
    """
    source = normalize_text(str(op.get("sourceNodeId") or ""))
    target = normalize_text(str(op.get("targetNodeId") or ""))
    relation = normalize_text(str(op.get("relation") or "")).lower()
    if not source or not target or not relation:
        raise MemgraphError(
            "VALIDATION_SKIP", "link_delete requires sourceNodeId, targetNodeId, and relation."
        )
    removed = 0
    for from_id, to_id in _delete_pairs(source, target, op.get("direction")):
        removed += tx.remove_edge((from_id, relation, to_id))
    return removed


def _delete_pairs(source: str, target: str, direction: Any) -> list[tuple[str, str]]:
    """The (from, to) pairs a ``link_delete`` removes: its direction, whatever the relation."""
    if direction == "outgoing":
        return [(source, target)]
    if direction == "incoming":
        return [(target, source)]
    return [(source, target), (target, source)]

"""Luker's memory-graph export: validate, normalise (as Luker does on load) and write back.

``parse_export`` checks the whole document before anything is written and raises
``ImportFormatError`` naming the offending path (``nodes.n_17.title: expected a string``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.domain.freeze import freeze
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.graph.topology import normalize_text
from memgraph_gui.core.luker.validate import MAX_TEXT, MAX_TITLE

COUNTERS = ("nodeSeq", "seqCounter", "appliedSeqTo", "loggedSeqTo", "sourceMessageCount")
_KNOWN_TOP = {
    "nodes",
    "edges",
    *COUNTERS,
    "lastRecallTrace",
    "lastRecallProjection",
    "lastExtractionDebug",
    "memgraph",
}
_NODE_SUFFIX = re.compile(r"^n_(\d+)$")


@dataclass
class ParsedStore:
    """A normalised store ready for ``Store.replace_all``."""

    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)


def parse_export(doc: Any) -> ParsedStore:
    """Validate and normalise a Luker export (or this tool's own export of one)."""
    if not isinstance(doc, Mapping):
        raise ImportFormatError(
            "", "expected a Luker memory-graph export: a JSON object with 'nodes' and 'edges'"
        )
    raw_nodes = doc.get("nodes", {})
    if isinstance(raw_nodes, list):
        raw_nodes = _nodes_from_list(raw_nodes)
    if not isinstance(raw_nodes, Mapping):
        raise ImportFormatError("nodes", "expected an object keyed by node id")
    raw_edges = doc.get("edges", [])
    if not isinstance(raw_edges, list):
        raise ImportFormatError("edges", "expected an array")
    nodes = [n for key, raw in raw_nodes.items() if (n := _node(str(key), raw)) is not None]
    nodes = _repair_hierarchy(nodes)
    edges = _edges(raw_edges, {n.id for n in nodes})
    return ParsedStore(nodes, edges, _meta(doc, nodes))


def _nodes_from_list(items: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for index, item in enumerate(items):
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            raise ImportFormatError(f"nodes[{index}].id", "expected a string id")
        out[item["id"]] = item
    return out


def _check(raw: Mapping[str, Any], key: str, kinds: tuple[type, ...], path: str, what: str) -> Any:
    value = raw.get(key)
    if value is not None and (
        not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)
    ):
        raise ImportFormatError(f"{path}.{key}" if path else key, f"expected {what}")
    return value


def _node(key: str, raw: Any) -> Node | None:
    path = f"nodes.{key}"
    if not isinstance(raw, Mapping):
        raise ImportFormatError(path, "expected an object")
    node_id = key.strip()
    if not node_id:
        raise ImportFormatError(path, "a node id must not be blank")
    level = _check(raw, "level", (str,), path, "a string")
    if (level or "semantic").strip() != "semantic":
        return None
    title = _check(raw, "title", (str,), path, "a string")
    if title is not None and len(title) > MAX_TITLE:
        raise ImportFormatError(f"{path}.title", f"longer than {MAX_TITLE:,} characters")
    type_ = _check(raw, "type", (str,), path, "a string")
    seq = _in_range(_check(raw, "seqTo", (int, float), path, "a number"), f"{path}.seqTo")
    depth = _in_range(
        _check(raw, "semanticDepth", (int, float), path, "a number"), f"{path}.semanticDepth"
    )
    fields = _check(raw, "fields", (Mapping,), path, "an object")
    _check_sizes(fields or {}, f"{path}.fields")
    children = _check(raw, "childrenIds", (list,), path, "an array of ids")
    parent = _check(raw, "parentId", (str,), path, "a string")
    for flag in ("archived", "semanticRollup"):
        _check(raw, flag, (bool,), path, "true or false")
    return Node(
        id=node_id,
        type=type_ or "semantic",
        level="semantic",
        title=normalize_text(title or node_id),
        seq_to=max(0, math.floor(seq)) if seq is not None and math.isfinite(seq) else 0,
        fields=freeze(dict(fields or {})),
        parent_id=(parent or "").strip(),
        children_ids=tuple(_child_ids(children or [], f"{path}.childrenIds")),
        archived=bool(raw.get("archived")),
        semantic_rollup=bool(raw.get("semanticRollup")),
        semantic_depth=int(depth) if depth is not None and math.isfinite(depth) else 0,
        floor_range=_floor_range(raw.get("floorRange"), f"{path}.floorRange"),
        superseded_by=(_check(raw, "supersededBy", (str,), path, "a string") or None),
    )


def _in_range(value: Any, path: str) -> Any:
    if isinstance(value, (int, float)) and math.isfinite(value) and abs(value) > 2**53 - 1:
        raise ImportFormatError(path, "out of range (at most 9,007,199,254,740,991)")
    return value


def _check_sizes(fields: Mapping[str, Any], path: str) -> None:
    for name, value in fields.items():
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ImportFormatError(f"{path}.{name}", f"longer than {MAX_TEXT:,} characters")


def _child_ids(items: list[Any], path: str) -> list[str]:
    out = []
    for index, item in enumerate(items):
        if item is None:
            continue
        if not isinstance(item, (str, int)) or isinstance(item, bool):
            raise ImportFormatError(f"{path}[{index}]", "expected a node id")
        if str(item).strip():
            out.append(str(item).strip())
    return out


def _floor_range(value: Any, path: str) -> tuple[int, int] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ImportFormatError(path, "expected {start, end}")
    start, end = value.get("start"), value.get("end")
    if not isinstance(start, (int, float)) or not isinstance(end, (int, float)):
        return None
    if not (_finite(start) and _finite(end)):
        return None
    low, high = float(start), float(end)
    return None if low < 0 or high < low else (math.floor(low), math.floor(high))


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _repair_hierarchy(nodes: list[Node]) -> list[Node]:
    """Luker's repair: clean childrenIds, drop bad parents, add each child to its parent's list."""
    valid = {n.id for n in nodes}
    fixed: dict[str, Node] = {}
    for node in nodes:
        kids = [c for c in dict.fromkeys(node.children_ids) if c != node.id and c in valid]
        parent = node.parent_id if node.parent_id in valid and node.parent_id != node.id else ""
        fixed[node.id] = replace(node, children_ids=tuple(kids), parent_id=parent)
    for node in list(fixed.values()):
        owner = fixed.get(node.parent_id) if node.parent_id else None
        if owner is not None and node.id not in owner.children_ids:
            fixed[owner.id] = replace(owner, children_ids=(*owner.children_ids, node.id))
    return [fixed[n.id] for n in nodes]


def _edges(items: list[Any], valid: set[str]) -> list[Edge]:
    out: dict[tuple[str, str, str], Edge] = {}
    for index, item in enumerate(items):
        path = f"edges[{index}]"
        if not isinstance(item, Mapping):
            raise ImportFormatError(path, "expected an object")
        ends = [_check(item, k, (str, int), path, "a node id") for k in ("from", "to")]
        relation = _check(item, "type", (str,), path, "a string")
        seq = _in_range(_check(item, "seqTo", (int, float), path, "a number"), f"{path}.seqTo")
        source, target = (str(e).strip() if e is not None else "" for e in ends)
        if not source or not target or source == target or not {source, target} <= valid:
            continue
        kind = normalize_text(relation or "") or "related"
        if (source, kind, target) not in out:
            out[(source, kind, target)] = Edge(
                source,
                target,
                kind,
                max(0, math.floor(seq)) if seq is not None and math.isfinite(seq) else None,
            )
    return list(out.values())


def _meta(doc: Mapping[str, Any], nodes: list[Node]) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for key in COUNTERS:
        value = _in_range(_check(doc, key, (int, float), "", "a number"), key)
        meta[key] = (
            max(0, math.floor(value)) if value is not None and math.isfinite(value) else None
        )
    suffixes = [int(m.group(1)) for n in nodes if (m := _NODE_SUFFIX.match(n.id))]
    meta["nodeSeq"] = max([meta["nodeSeq"] or 0, *suffixes])
    meta["seqCounter"] = max([meta["seqCounter"] or 0, *(n.seq_to for n in nodes)])
    applied = meta["appliedSeqTo"] if meta["appliedSeqTo"] is not None else meta["seqCounter"]
    meta["appliedSeqTo"] = applied
    meta["loggedSeqTo"] = max(meta["loggedSeqTo"] or 0, applied)
    meta["seqCounter"] = max(meta["seqCounter"], meta["loggedSeqTo"])
    meta["sourceMessageCount"] = meta["sourceMessageCount"] or 0
    trace = doc.get("lastRecallTrace")
    meta["lastRecallTrace"] = trace if isinstance(trace, list) else []
    projection = doc.get("lastRecallProjection")
    meta["lastRecallProjection"] = projection if isinstance(projection, Mapping) else None
    extra = {k: v for k, v in doc.items() if k not in _KNOWN_TOP}
    if extra:
        meta["lukerExtra"] = extra
    own = doc.get("memgraph")
    if isinstance(own, Mapping) and isinstance(own.get("injection"), Mapping):
        meta["injection"] = _injection(own["injection"])
    return meta


def build_export(nodes: list[Node], edges: list[Edge], meta: Mapping[str, Any]) -> dict[str, Any]:
    """The Luker export document (nodes keyed by id in store order, then edges, counters)."""
    doc: dict[str, Any] = {
        "nodes": {n.id: n.to_store_json() for n in sorted(nodes, key=lambda n: n.ord)},
        "edges": [e.to_store_json() for e in sorted(edges, key=lambda e: e.ord)],
    }
    for key in COUNTERS:
        doc[key] = meta.get(key, 0) or 0
    doc["lastRecallTrace"] = meta.get("lastRecallTrace") or []
    doc["lastRecallProjection"] = meta.get("lastRecallProjection")
    doc.update(meta.get("lukerExtra") or {})
    if meta.get("injection"):
        doc["memgraph"] = {"injection": meta["injection"]}
    return doc


def _injection(raw: Mapping[str, Any]) -> dict[str, list[str]]:
    """This tool's own ``memgraph.injection`` block: three arrays of ids."""
    out: dict[str, list[str]] = {}
    for key in ("alwaysInjectIds", "recallSelectedIds", "visibleIds"):
        ids = raw.get(key) or []
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ImportFormatError(f"memgraph.injection.{key}", "expected an array of node ids")
        out[key] = ids
    return out

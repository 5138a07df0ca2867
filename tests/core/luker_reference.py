"""Luker's drill and projection restated in plain Python over a Luker JSON document, step for step
as ``luker-store-format.md`` describes them (whole-store projection per hop, every projected edge
scanned per frontier node). The tests use it as the oracle; the drill benchmark times it as the
plain alternative."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

DEFAULT_RELATIONS = (
    "related",
    "involved_in",
    "mentions",
    "evidence",
    "contains",
    "updates",
    "advances",
    "occurred_at",
)
SYMMETRIC = {"allied_with", "hostile_to", "family_of", "partner_of"}
INTERNAL = {"contains", "semantic_contains"}
_SPACES = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACES.sub(" ", text).strip().lower()


def _js_gt(a: str, b: str) -> bool:
    return a.encode("utf-16-be") > b.encode("utf-16-be")


def nearest_visible(nodes: dict[str, Any], node_id: str, visible: set[str]) -> str:
    """``getNearestVisibleAncestorId``."""
    current, guard = str(node_id or "").strip(), set()
    while current and current not in guard:
        guard.add(current)
        node = nodes.get(current)
        if node is None or node.get("archived"):
            return ""
        if current in visible:
            return current
        current = str(node.get("parentId") or "").strip()
    return ""


def project_edges(
    doc: dict[str, Any],
    visible: Iterable[str],
    relation_types: Iterable[str] | None = None,
    exclude_internal: bool = False,
) -> list[dict[str, Any]]:
    """``buildProjectedEdges``: ``[{from, to, type, weight}]`` in first-raw-edge order."""
    nodes, wanted = doc["nodes"], set(visible)
    allow = {_norm(t) for t in relation_types} if relation_types else None
    merged: dict[tuple[str, str, str], dict[str, Any]] = {}
    for edge in doc["edges"]:
        kind = _norm(edge.get("type") or "") or "related"
        if (exclude_internal and kind in INTERNAL) or (allow is not None and kind not in allow):
            continue
        a = nearest_visible(nodes, edge["from"], wanted)
        b = nearest_visible(nodes, edge["to"], wanted)
        if not a or not b or a == b:
            continue
        if kind in SYMMETRIC and _js_gt(a, b):
            a, b = b, a
        found = merged.get((a, b, kind))
        if found is None:
            merged[(a, b, kind)] = {"from": a, "to": b, "type": kind, "weight": 1}
        else:
            found["weight"] += 1
    return list(merged.values())


def _children(nodes: dict[str, Any], node_id: str) -> list[str]:
    node = nodes.get(node_id) or {}
    return [c for c in node.get("childrenIds") or [] if c in nodes]


def drill(
    doc: dict[str, Any],
    seeds: Iterable[str],
    pool: Iterable[str],
    *,
    hops: int = 1,
    edge_types: Iterable[str] | None = None,
    include_children: bool = True,
    exclude_internal: bool = False,
) -> list[str]:
    """``expandFromSeeds`` with a pool: ``expandRouteCandidates`` plus the read API's
    ``excludeInternal`` post-filter. Returns ids in the answer's order."""
    nodes = doc["nodes"]
    seed_ids = list(dict.fromkeys(s.strip() for s in seeds if s.strip()))
    if not seed_ids:
        return []
    relations = [_norm(t) for t in edge_types or () if _norm(t)] or list(DEFAULT_RELATIONS)
    found: dict[str, None] = {}
    for node_id in dict.fromkeys(p.strip() for p in pool if p.strip()):
        if node_id in nodes and not nodes[node_id].get("archived"):
            found[node_id] = None
    for seed in seed_ids:
        if seed in nodes:
            _drill_seed(doc, seed, found, max(1, hops), relations, include_children)
    if exclude_internal and include_children:
        dropped = {c for s in seed_ids for c in _children(nodes, s)} - set(seed_ids)
        return [i for i in found if i not in dropped]
    return list(found)


def _drill_seed(
    doc: dict[str, Any],
    seed: str,
    found: dict[str, None],
    hops: int,
    relations: list[str],
    include_children: bool,
) -> None:
    nodes = doc["nodes"]
    found.setdefault(seed)
    seen, frontier = {seed}, [seed]
    for _ in range(hops):
        if not frontier:
            break
        projected = project_edges(doc, list(found), relations)  # the whole store, every hop
        nxt: list[str] = []
        for current in frontier:
            if nodes[current].get("archived"):
                continue
            reached = _children(nodes, current) if include_children else []
            for e in projected:  # every projected edge, for every frontier node
                if current in (e["from"], e["to"]):
                    reached.append(e["to"] if e["from"] == current else e["from"])
            for other in reached:
                if other in seen or other not in nodes or nodes[other].get("archived"):
                    continue
                seen.add(other)
                found.setdefault(other)
                nxt.append(other)
        frontier = nxt

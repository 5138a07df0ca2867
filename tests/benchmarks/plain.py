"""The obvious alternative, measured in the same run: plain Python over the Luker JSON document,
recomputing each answer per call the way Luker's own JavaScript does (no indexes, no caches)."""

from __future__ import annotations

import re
from typing import Any

from tests.core.luker_reference import drill as expand_from_seeds
from tests.core.luker_reference import project_edges

__all__ = ["expand_from_seeds", "project_edges"]  # Luker's drill and projection, step for step

_TOKEN = re.compile(r"[^a-z0-9\u4e00-\u9fff]+")
LEXICAL = ("title", "name", "summary", "state", "traits", "constraint", "key_sentences", "aliases")


def js(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ",".join(js(v) for v in value)
    return str(value)


def keyword_search(doc: dict[str, Any], schema: dict[str, Any], query: str, k: int = 20) -> list:
    qt = [t for t in _TOKEN.split(query.lower()) if len(t) >= 2]
    wanted, hits = set(qt), []
    for node in doc["nodes"].values():
        if node.get("archived"):
            continue
        spec = schema.get(node["type"], {})
        frags = [
            node["title"],
            *(
                js(node["fields"][c])
                for c in spec.get("tableColumns", [])
                if node["fields"].get(c) is not None
            ),
            *spec.get("keywords", []),
        ]
        tokens = {t for t in _TOKEN.split(" ".join(frags).lower()) if len(t) >= 2}
        score = len(tokens & wanted) / max(1, len(qt))
        if score > 0:
            hits.append((node, score))
    hits.sort(key=lambda h: -h[1])
    return hits[:k]


def find_by_name(doc: dict[str, Any], schema: dict[str, Any], query: str) -> list:
    q = query.strip().lower()
    out = []
    for node in doc["nodes"].values():
        if node.get("archived"):
            continue
        pk = schema.get(node["type"], {}).get("primaryKeyColumns", [])
        if q in node["title"].lower() or any(
            q in js(node["fields"].get(c) or "").lower() for c in pk
        ):
            out.append(node)
    out.sort(key=lambda n: (n["seqTo"], n["id"]))
    return out


def search_nodes_lexical(doc: dict[str, Any], query: str, limit: int = 5) -> list:
    q, out = query.lower(), []
    for node in doc["nodes"].values():
        if node.get("archived"):
            continue
        text = " ".join(
            t
            for t in (js(v) for v in [node["title"], *(node["fields"].get(f) for f in LEXICAL)])
            if t
        )
        if q in text.lower():
            out.append({"id": node["id"], "preview": text[:300]})
            if len(out) >= limit:
                break
    return out


def visible_candidates(doc: dict[str, Any], schema: dict[str, Any]) -> list:
    nodes = doc["nodes"]
    pool = {}
    for node in nodes.values():
        if node.get("archived"):
            continue
        mode = schema.get(node["type"], {}).get("compression", {}).get("mode")
        if mode != "hierarchical":
            pool[node["id"]] = node
            continue
        if any(
            nodes[c]["type"] == node["type"] and not nodes[c].get("archived")
            for c in node["childrenIds"]
            if c in nodes
        ):
            continue
        top = node
        while (
            top["parentId"] in nodes
            and not nodes[top["parentId"]].get("archived")
            and nodes[top["parentId"]]["type"] == node["type"]
        ):
            top = nodes[top["parentId"]]
        pool[top["id"]] = top
    return sorted(pool.values(), key=lambda n: (-n["seqTo"], -n["semanticDepth"], n["id"]))


def _nearest(nodes: dict[str, Any], node_id: str, visible: set[str]) -> str:
    seen: set[str] = set()
    while node_id and node_id not in seen:
        seen.add(node_id)
        node = nodes.get(node_id)
        if node is None or node.get("archived"):
            return ""
        if node_id in visible:
            return node_id
        node_id = node["parentId"]
    return ""


def edge_summary(doc: dict[str, Any], node_id: str, visible: set[str], limit: int = 8) -> dict:
    """Luker's buildEdgeSummary: project every edge onto the visible set, then tally one node."""
    nodes, merged = doc["nodes"], {}
    for edge in doc["edges"]:
        a, b = _nearest(nodes, edge["from"], visible), _nearest(nodes, edge["to"], visible)
        if a and b and a != b:
            key = (a, b, edge["type"].lower())
            merged[key] = merged.get(key, 0) + 1
    degree, relations, neighbors = 0, {}, {}
    for (a, b, kind), weight in merged.items():
        if node_id not in (a, b):
            continue
        other, way = (b, "out") if a == node_id else (a, "in")
        degree += weight
        relations[(kind, way)] = relations.get((kind, way), 0) + weight
        neighbors[other] = nodes[other]["seqTo"]
    samples = sorted(neighbors.items(), key=lambda kv: -kv[1])[:limit]
    return {"degree": degree, "relations": relations, "sample_neighbors": samples}


def get_node_by_id(doc: dict[str, Any], node_id: str) -> dict[str, Any] | None:
    """Luker's external ``getNodeById``: the node, and its neighbours from a scan of every edge."""
    node = doc["nodes"].get(node_id)
    if node is None:
        return None
    neighbors = [
        {"id": e["to"] if e["from"] == node_id else e["from"], "edgeType": e["type"]}
        for e in doc["edges"]
        if e["from"] == node_id or e["to"] == node_id
    ]
    return {"node": dict(node), "neighbors": neighbors}


def get_neighbors(
    doc: dict[str, Any], node_id: str, project_to: list[str] | None = None
) -> list[tuple[str, str, str]]:
    """Luker's ``getNeighbors``: a scan of every edge, each far end rolled up to the visible set
    (built from the id array per call) when ``project_to`` is given; ``(id, relation, way)``."""
    nodes = doc["nodes"]
    visible = None if project_to is None else {i.strip() for i in project_to if i.strip()}
    seen: set[tuple[str, str, str]] = set()
    out = []
    for edge in doc["edges"]:
        if edge["from"] == node_id:
            other, way = edge["to"], "out"
        elif edge["to"] == node_id:
            other, way = edge["from"], "in"
        else:
            continue
        if visible is not None:
            other = _nearest(nodes, other, visible)
        found = nodes.get(other) if other else None
        key = (other, edge["type"].lower(), way)
        if found is None or found.get("archived") or key in seen:
            continue
        seen.add(key)
        out.append(key)
    return out

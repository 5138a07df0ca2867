"""Small hand-made graphs for the read-API tests, loaded through the Luker importer."""

from __future__ import annotations

from typing import Any

from memgraph_gui.core.luker.interop import import_luker


def node(node_id: str, type: str = "event", seq: int = 1, **extra: Any) -> dict[str, Any]:
    """A stored Luker node (title = id, no fields) with ``extra`` keys on top."""
    out: dict[str, Any] = {
        "id": node_id,
        "type": type,
        "level": "semantic",
        "title": node_id,
        "seqTo": seq,
        "fields": {},
    }
    out.update(extra)
    return out


def char(node_id: str, seq: int = 1, **extra: Any) -> dict[str, Any]:
    """A character sheet node."""
    return node(node_id, "character_sheet", seq, **extra)


def edge(src: str, dst: str, relation: str, **extra: Any) -> dict[str, Any]:
    return {"from": src, "to": dst, "type": relation, **extra}


def load_store(store: Any, nodes: list[dict[str, Any]], edges: Any = (), **top: Any) -> Any:
    """Import the graph into ``store`` and return the store."""
    import_luker(store, {"nodes": {n["id"]: n for n in nodes}, "edges": list(edges), **top})
    return store


def load(store: Any, nodes: list[dict[str, Any]], edges: Any = (), **top: Any) -> Any:
    """Import the graph into ``store`` and return its Read API."""
    return load_store(store, nodes, edges, **top).read_api()


def ids(views: Any) -> list[str]:
    return [v.id for v in views]

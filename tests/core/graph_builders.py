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


def load_cyclic(store: Any, nodes: list[dict[str, Any]]) -> Any:
    """Write ``nodes`` straight into the store, parent cycles included, and return its Read API.

    The importer refuses parent cycles; a store can still hold them (Luker keeps them, and a file
    written by an older version may have them), so the read API must survive them. Each node is
    appended to its parent's ``childrenIds`` as Luker's loader does.
    """
    from memgraph_gui.core.domain.model import Node
    from memgraph_gui.core.luker.file_format import parse_export

    by_id = {n["id"]: {**n, "childrenIds": list(n.get("childrenIds", []))} for n in nodes}
    for item in by_id.values():
        if item.get("parentId"):
            by_id[item["parentId"]]["childrenIds"].append(item["id"])
    meta = {**parse_export({}).meta, "schema": store.graph.meta.get("schema")}
    store.replace_all([Node.from_store_json(n) for n in by_id.values()], [], meta)
    return store.read_api()


def ids(views: Any) -> list[str]:
    return [v.id for v in views]

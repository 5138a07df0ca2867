"""Small hand-made graphs for the read-API tests, loaded through the Luker importer."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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


def load_cyclic(
    store: Any, nodes: list[dict[str, Any]], edges: Iterable[tuple[str, str, str]] = ()
) -> Any:
    """Write ``nodes`` (and ``(from, to, type)`` edges) straight into the store, parent cycles
    included, and return its Read API.

    The importer refuses parent cycles; a store can still hold them (Luker keeps them, and a file
    written by an older version may have them), so the read API must survive them. Each node is
    appended to its parent's ``childrenIds`` as Luker's loader does.
    """
    from memgraph_gui.core.domain.model import Edge, Node
    from memgraph_gui.core.luker.file_format import parse_export

    by_id = {n["id"]: {**n, "childrenIds": list(n.get("childrenIds", []))} for n in nodes}
    for item in by_id.values():
        if item.get("parentId"):
            by_id[item["parentId"]]["childrenIds"].append(item["id"])
    meta = {**parse_export({}).meta, "schema": store.graph.meta.get("schema")}
    links = [Edge(a, b, kind, None, i) for i, (a, b, kind) in enumerate(edges)]
    store.replace_all([Node.from_store_json(n) for n in by_id.values()], links, meta)
    return store.read_api()


def ids(views: Any) -> list[str]:
    return [v.id for v in views]


def assert_hierarchy(nodes: Mapping[str, Any], edge_keys: Iterable[tuple[str, str, str]]) -> None:
    """The graph invariants: parent and children agree both ways (each child listed once), no
    parent cycles, every edge joins two distinct existing nodes, edge keys are unique."""
    for node in nodes.values():
        assert len(set(node.children_ids)) == len(node.children_ids), node.id
        if node.parent_id:
            assert node.parent_id in nodes, node.id
            assert nodes[node.parent_id].children_ids.count(node.id) == 1, node.id
        for child in node.children_ids:
            assert child in nodes and nodes[child].parent_id == node.id, (node.id, child)
        seen, current = {node.id}, node.parent_id
        while current:
            assert current not in seen, f"parent cycle through {current}"
            seen.add(current)
            current = nodes[current].parent_id
    keys = list(edge_keys)
    assert len(keys) == len(set(keys))
    for source, _kind, target in keys:
        assert source in nodes and target in nodes and source != target, (source, target)


# The drill fixture of layer C and the drill contract: a rollup r1 over e1/e2; characters
# a, b, c, x, s; an archived one; p2 with a child k1.
DRILL_NODES = [
    node("r1", seq=3, semanticRollup=True, semanticDepth=1, childrenIds=["e1", "e2"]),
    node("e1", seq=1, parentId="r1"),
    node("e2", seq=2, parentId="r1"),
    char("a", seq=4),
    char("b", seq=5),
    char("c", seq=6),
    char("x", seq=7),
    char("s", seq=8),
    char("dead", seq=9, archived=True),
    char("p2", seq=1, childrenIds=["k1"]),
    char("k1", seq=1, parentId="p2"),
]
DRILL_EDGES = [
    edge("r1", "e1", "contains"),
    edge("r1", "e2", "contains"),
    edge("e1", "a", "involved_in"),
    edge("a", "b", "mentions"),
    edge("b", "c", "mentions"),
    edge("a", "x", "allied_with"),
    edge("a", "dead", "mentions"),
    edge("a", "s", "contains"),
]

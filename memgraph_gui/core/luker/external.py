"""Luker's legacy read-only external API. A None / closed store gives empty results, never errors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from memgraph_gui.core.domain.results import NeighborRefs
from memgraph_gui.core.domain.text import utf16_prefix
from memgraph_gui.core.graph.neighbors import neighbor_refs
from memgraph_gui.core.graph.search import lexical_matches, lexical_text
from memgraph_gui.core.luker import args

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from memgraph_gui.core.domain.model import Node
    from memgraph_gui.core.graph.graph import Graph

PREVIEW_UNITS = 300


class GraphSource(Protocol):
    """What the legacy calls need of a store: ``MemoryStore`` and ``storage.Store`` both fit."""

    @property
    def closed(self) -> bool: ...

    def reading(self) -> AbstractContextManager[Graph]: ...


def _usable(store: GraphSource | None) -> bool:
    return store is not None and not store.closed


def get_currently_injected_node_ids(store: GraphSource | None) -> dict[str, frozenset[str]]:
    """Copies of ``alwaysInjectIds`` and ``recallSelectedIds`` (empty sets without a store)."""
    if not _usable(store):
        return {"alwaysInjectIds": frozenset(), "recallSelectedIds": frozenset()}
    assert store is not None
    with store.reading() as graph:
        state = graph.injection
    return {
        "alwaysInjectIds": state.always_inject_ids,
        "recallSelectedIds": state.recall_selected_ids,
    }


def _item(node: Node) -> dict[str, Any]:
    return {
        "id": node.id,
        "preview": utf16_prefix(lexical_text(node), PREVIEW_UNITS),
        "type": node.type,
        "time": node.seq_to,
    }


def search_nodes_lexical(
    store: GraphSource | None, query: Any, options: Any = None
) -> dict[str, list[dict[str, Any]]]:
    """Case-insensitive substring search: ``{nodes: [{id, preview, type, time}]}``, store order."""
    opts = args.options(options)
    limit = args.whole(opts.get("limit"), "limit", 5)
    limit = limit if limit > 0 else 5
    exclude = args.id_set(opts.get("excludeIds", opts.get("exclude_ids")), "excludeIds")
    text = query if isinstance(query, str) else ""
    if not _usable(store) or not text.strip():
        return {"nodes": []}
    assert store is not None
    out = []
    with store.reading() as graph:
        for node in lexical_matches(graph, text, exclude):
            out.append(_item(node))
            if len(out) >= limit:
                break
    return {"nodes": out}


def list_recent_nodes(
    store: GraphSource | None, options: Any = None
) -> dict[str, list[dict[str, Any]]]:
    """Newest first (reverse timeline order): ``{nodes: [{id, preview, type, time}]}``."""
    opts = args.options(options)
    limit = args.whole(opts.get("limit"), "limit", 10)
    limit = limit if limit > 0 else 10
    exclude = args.id_set(opts.get("excludeIds", opts.get("exclude_ids")), "excludeIds")
    if not _usable(store):
        return {"nodes": []}
    assert store is not None
    out = []
    with store.reading() as graph:
        for node_id in reversed(graph.timeline_ids()):
            node = graph.nodes[node_id]
            if node.archived or node.id in exclude:
                continue
            out.append(_item(node))
            if len(out) >= limit:
                break
    return {"nodes": out}


def get_node_by_id(
    store: GraphSource | None, node_id: Any, options: Any = None
) -> dict[str, Any] | None:
    """``{node, neighbors: [{id, edgeType}]}`` (the stored node, archived ones too) or None;
    ``neighbors`` is a ``NeighborRefs`` view (``to_json`` gives the list)."""
    opts = args.options(options)
    with_neighbors = args.flag(opts.get("includeNeighbors"), "includeNeighbors", True)
    key = node_id.strip() if isinstance(node_id, str) else ""
    if not _usable(store) or not key:
        return None
    assert store is not None
    with store.reading() as graph:
        node = graph.nodes.get(key)
        if node is None:
            return None
        neighbors = neighbor_refs(graph, key) if with_neighbors else NeighborRefs()
        return {"node": node.to_store_json(), "neighbors": neighbors}

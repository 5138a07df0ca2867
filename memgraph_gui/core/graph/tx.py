"""``Tx``: the staged overlay of one write batch over the store's ``Graph``.

Write operations read through the overlay (so later ops in a batch see earlier ones) and stage
puts; nothing reaches the graph or the file until the store commits the whole batch.
"""

from __future__ import annotations

from typing import Any

from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.images import (
    Change,
    NodeImage,
    dumps,
    edge_image,
    edge_key_text,
    node_image,
)
from memgraph_gui.core.domain.model import Edge, EdgeKey, Node, evolve
from memgraph_gui.core.domain.schema import Schema
from memgraph_gui.core.graph.graph import Graph

_ABSENT = object()


class Tx:
    """A write batch in progress. Only the store creates one (see ``Store.transaction``)."""

    def __init__(self, graph: Graph, next_node_ord: int, next_edge_ord: int) -> None:
        self.graph = graph
        self._nodes: dict[str, Node | None] = {}
        self._edges: dict[EdgeKey, Edge | None] = {}
        self._staged_at: dict[str, dict[EdgeKey, None]] = {}  # node id -> staged keys touching it
        self._meta: dict[str, Any] = {}
        self._first_node_ord, self._next_node_ord = next_node_ord, next_node_ord
        self._first_edge_ord, self._next_edge_ord = next_edge_ord, next_edge_ord
        self.changeset: ChangeSet | None = None
        self.label = ""
        self.kind = "do"
        self.target: int | None = None
        self.lazy_images = False
        """True: node images are ``NodeImage``s (made from the stored fields text, never parsed;
        for batches of thousands of nodes, e.g. an import)."""

    @property
    def node_ord_mark(self) -> int | None:
        """The highest node row number used so far, to record when this batch hands one out or
        removes a row (else None): a removed highest row must not free its number for reuse."""
        used = self._next_node_ord > self._first_node_ord
        removes = any(node is None for node in self._nodes.values())
        return self._next_node_ord - 1 if used or removes else None

    @property
    def edge_ord_mark(self) -> int | None:
        """As ``node_ord_mark``, for edge rows."""
        used = self._next_edge_ord > self._first_edge_ord
        removes = any(edge is None for edge in self._edges.values())
        return self._next_edge_ord - 1 if used or removes else None

    # -- nodes -----------------------------------------------------------------------------------
    def node(self, node_id: str) -> Node | None:
        """The node as staged so far, or None."""
        if node_id in self._nodes:
            return self._nodes[node_id]
        return self.graph.nodes.get(node_id)

    def put_node(self, node: Node) -> Node:
        """Stage ``node`` (a new one gets the next row order); returns the staged node."""
        if node.ord == 0:
            existing = self.node(node.id)
            if existing is not None:
                node = _with_ord(node, existing.ord)
            else:
                node = _with_ord(node, self._next_node_ord)
                self._next_node_ord += 1
        self._nodes[node.id] = node
        return node

    def remove_node(self, node_id: str) -> None:
        """Stage the removal of a node row (a purge; the Write API archives instead)."""
        self._nodes[node_id] = None

    # -- edges -----------------------------------------------------------------------------------
    def edge(self, key: EdgeKey) -> Edge | None:
        if key in self._edges:
            return self._edges[key]
        return self.graph.edges.get(key)

    def put_edge(self, edge: Edge) -> Edge:
        """Stage ``edge``; an existing edge with the same key keeps its row order."""
        if edge.ord == 0:
            existing = self.edge(edge.key)
            ord_ = existing.ord if existing is not None else self._take_edge_ord()
            edge = Edge(edge.from_id, edge.to_id, edge.type, edge.seq_to, ord_)
        self._stage_edge(edge.key, edge)
        return edge

    def remove_edge(self, key: EdgeKey) -> bool:
        """Stage an edge's removal; False if there was none."""
        if self.edge(key) is None:
            return False
        self._stage_edge(key, None)
        return True

    def _stage_edge(self, key: EdgeKey, edge: Edge | None) -> None:
        if key not in self._edges:
            self._staged_at.setdefault(key[0], {})[key] = None
            self._staged_at.setdefault(key[2], {})[key] = None
        self._edges[key] = edge

    def edge_keys_touching(self, node_id: str) -> list[EdgeKey]:
        """The keys of every edge (staged or stored, not removed) with ``node_id`` at an end."""
        keys = [e.key for e in self.graph.edges_of(node_id)]
        keys += self._staged_at.get(node_id, {})  # (not a scan of every staged edge)
        return [k for k in dict.fromkeys(keys) if self.edge(k) is not None]

    def edge_targets(self, node_id: str, type_: str) -> list[str]:
        """Where the edges of ``type_`` that leave ``node_id`` go, as staged so far."""
        return [k[2] for k in self.edge_keys_touching(node_id) if k[0] == node_id and k[1] == type_]

    def _take_edge_ord(self) -> int:
        self._next_edge_ord += 1
        return self._next_edge_ord - 1

    # -- meta ------------------------------------------------------------------------------------
    def meta(self, key: str, default: Any = None) -> Any:
        value = self._meta.get(key, _ABSENT)
        if value is _ABSENT:
            value = self.graph.meta.get(key, default)
        return default if value is None else value

    def set_meta(self, key: str, value: Any) -> None:
        self._meta[key] = value

    def counter(self, name: str) -> int:
        value = self.meta(name, 0)
        return int(value) if isinstance(value, (int, float)) else 0

    @property
    def schema(self) -> Schema:
        if "schema" in self._meta:
            return Schema.from_json(self._meta["schema"] or [])
        return self.graph.schema

    def dangling_edges(self) -> list[EdgeKey]:
        """Edges that the staged changes would leave with a missing end (removed nodes' remaining
        edges, and staged edges whose end does not exist)."""
        out = [
            key
            for key, edge in self._edges.items()
            if edge is not None and (self.node(key[0]) is None or self.node(key[2]) is None)
        ]
        for node_id, node in self._nodes.items():
            if node is None and node_id in self.graph.nodes:
                out += [e.key for e in self.graph.edges_of(node_id) if self.edge(e.key) is not None]
        return out

    # -- commit support --------------------------------------------------------------------------
    def collect(self) -> list[Change]:
        """The staged changes that differ from the graph, as before/after images."""
        out: list[Change] = []
        image = _lazy_image if self.lazy_images else node_image
        for node_id, after in self._nodes.items():
            before = self.graph.nodes.get(node_id)
            if before != after or (
                before is not None
                and after is not None
                and (before.ord != after.ord or before.fields_json() != after.fields_json())
            ):
                out.append(Change("node", node_id, image(before), image(after), after))
        for key, edge_after in self._edges.items():
            edge_before = self.graph.edges.get(key)
            if edge_before != edge_after:
                text = edge_key_text(key)
                images = edge_image(edge_before), edge_image(edge_after)
                out.append(Change("edge", text, *images, edge_after))
        for name, value in self._meta.items():
            old = self.graph.meta.get(name)
            if old != value or dumps(old) != dumps(value):
                out.append(Change("meta", name, old, value))
        return out


def _with_ord(node: Node, ord_: int) -> Node:
    return evolve(node, ord=ord_)


def _lazy_image(node: Node | None) -> NodeImage | None:
    return None if node is None else NodeImage(node)

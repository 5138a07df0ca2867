"""Luker's ``getNeighbors`` over the in-memory graph (a hub may have thousands of edges)."""

from __future__ import annotations

from itertools import compress

from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.domain.results import NeighborView
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.topology import incident_edges, nearest_visible


def neighbors(
    graph: Graph,
    source: str,
    relations: frozenset[str] | None,
    way: str,
    visible: frozenset[str] | set[str] | None,
) -> tuple[NeighborView, ...]:
    """The live neighbours of ``source`` in edge order, one per (neighbour, relation, direction).

    ``relations``: lower-cased relation names to follow (None: all). ``way``: ``in``, ``out`` or
    ``both``. ``visible``: each neighbour is rolled up to its nearest visible ancestor and
    dropped when there is none (None: raw neighbours).
    """
    if relations is None and way == "both" and visible is None:
        return _raw(graph, source)
    nodes = graph.nodes
    seen: set[tuple[str, str, str]] = set()
    found: list[Node] = []
    kinds: list[str] = []
    directions: list[str] = []
    for edge in incident_edges(graph, source):
        relation = edge.type.lower()
        if relations is not None and relation not in relations:
            continue
        other, direction = (edge.to_id, "out") if edge.from_id == source else (edge.from_id, "in")
        if way not in ("both", direction):
            continue
        if visible is not None:
            other = nearest_visible(graph, other, visible)
        key = (other, relation, direction)
        if key in seen:
            continue
        node = nodes.get(other)
        if node is None or node.archived:
            continue
        seen.add(key)
        found.append(node)
        kinds.append(relation)
        directions.append(direction)
    return NeighborView.from_columns(found, kinds, directions)


Rows = tuple[list[str], list[str], list[str]]
HUB = 256  # edges from which a node's distinct (neighbour, relation, direction) rows are kept


def _raw(graph: Graph, source: str) -> tuple[NeighborView, ...]:
    """All live neighbours over raw edges: the node's distinct rows (kept for a hub until its
    edges change), then the live ones among them."""

    def build() -> Rows:
        return _rows(source, incident_edges(graph, source))

    hub = len(graph.edges_of(source)) >= HUB
    others, kinds, directions = graph.of_edges(source, build) if hub else build()
    found = list(map(graph.nodes.get, others))
    live = [node is not None and not node.archived for node in found]
    if not all(live):
        kinds, directions = list(compress(kinds, live)), list(compress(directions, live))
    views: list[Node] = [node for node in found if node is not None and not node.archived]
    return NeighborView.from_columns(views, kinds, directions)


def _rows(source: str, edges: list[Edge]) -> Rows:
    """The distinct ``(neighbour, relation, direction)`` of ``source``'s ``edges`` (in store
    order), in that order."""
    seen: set[tuple[str, str, str]] = set()
    others: list[str] = []
    kinds: list[str] = []
    directions: list[str] = []
    for edge in edges:
        out = edge.from_id == source
        key = (edge.to_id if out else edge.from_id, edge.type.lower(), "out" if out else "in")
        if key not in seen:
            seen.add(key)
            others.append(key[0])
            kinds.append(key[1])
            directions.append(key[2])
    return others, kinds, directions

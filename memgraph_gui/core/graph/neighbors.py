"""Luker's ``getNeighbors`` over the in-memory graph (a hub may have thousands of edges)."""

from __future__ import annotations

from memgraph_gui.core.domain.model import Node
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

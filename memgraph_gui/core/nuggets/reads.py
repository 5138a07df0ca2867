"""Nuggets' reads over the graph: ``getNote`` and ``listNotes`` (store lock held by the caller;
``searchNotes`` is ``search``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.nuggets.model import is_note, nugget_of


def get_note(graph: Graph, nugget: str, note_id: str) -> Node | None:
    """The note ``note_id`` of ``nugget`` (hidden ones too), or None (another nugget's too)."""
    node = graph.nodes.get(note_id)
    if node is None or not is_note(node) or nugget_of(node) != nugget:
        return None
    return node


def matches(node: Node, options: Mapping[str, Any] | None) -> bool:
    """``matchesFilters``: hidden only with ``includeHidden``; subject / scope / type exact
    (an empty or missing value filters nothing)."""
    if options is None:
        return not node.archived
    if node.archived and not options.get("includeHidden"):
        return False
    fields = node.fields
    return all(
        not options.get(name) or fields.get(name) == options[name]
        for name in ("subject", "scope", "type")
    )


def list_notes(graph: Graph, nugget: str, options: Mapping[str, Any] | None = None) -> list[Node]:
    """``listNotes``: the nugget's notes that pass ``options`` (as ``matches`` says), oldest
    ``updatedAt`` first, ties in storage order; answered from the note index (no note parsed)."""
    from memgraph_gui.core.nuggets.note_index import note_index  # numpy: only when listing

    index = note_index(graph)
    nodes = index.nodes
    return [nodes[slot] for slot in index.select(nugget, options).tolist()]

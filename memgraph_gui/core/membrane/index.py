"""Every node's Membrane attributes, kept in step with the graph (``Graph.index``), and the tier
each node is read at by a caller.

The index holds each node's own attributes (a record's, or the default mapping); what people set
(the meta ``OVERRIDES``) is laid over them when read, so a meta change needs no rebuild. Built
once per graph (~50k nodes: each record's and note's fields parsed once), then told of every
node change. Read under the store lock, or on a graph nobody changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.membrane.attributes import OVERRIDES, Attributes, attributes_of
from memgraph_gui.core.membrane.trust import Tier, TrustContext

INDEX = "membrane-attributes"


class AttributeIndex:
    """Node id -> its own ``Attributes`` (without the overrides)."""

    def __init__(self, nodes: Iterable[Node]) -> None:
        self.own: dict[str, Attributes] = {node.id: attributes_of(node) for node in nodes}

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        if old is not None and (new is None or new.id != old.id):
            self.own.pop(old.id, None)
        if new is not None:
            self.own[new.id] = attributes_of(new)


def attribute_index(graph: Graph) -> AttributeIndex:
    """The graph's ``AttributeIndex`` (built on first use)."""
    return graph.index(INDEX, lambda: AttributeIndex(graph.nodes.values()))


def overrides(graph: Graph) -> Mapping[str, Any]:
    """What people set on Luker nodes and Nuggets notes (``{node id: {attribute: value}}``)."""
    value = graph.meta.get(OVERRIDES)
    return value if isinstance(value, Mapping) else {}


def attributes(graph: Graph, node_id: str) -> Attributes | None:
    """``node_id``'s attributes as they hold now (overrides laid over), None if no such node."""
    node = graph.nodes.get(node_id)
    if node is None:
        return None
    given = overrides(graph)
    if node_id in given:
        return attributes_of(node, given)
    return attribute_index(graph).own.get(node_id) or attributes_of(node)


def all_attributes(graph: Graph) -> dict[str, Attributes]:
    """Every node's attributes as they hold now (a fresh dict; overrides laid over)."""
    own = dict(attribute_index(graph).own)
    for node_id in overrides(graph):
        node = graph.nodes.get(node_id)
        if node is not None:
            own[node_id] = attributes_of(node, overrides(graph))
    return own


def tiers(graph: Graph, trust: TrustContext) -> dict[str, Tier]:
    """Each node's tier for ``trust`` (full, redacted or omitted)."""
    tier = trust.tier
    return {node_id: tier(a.sensitivity, a.scope) for node_id, a in all_attributes(graph).items()}

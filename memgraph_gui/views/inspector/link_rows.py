"""A node's semantic links as rows: one per (other node, relation), with its direction.

No Qt here. Hierarchy edges (``contains`` / ``semantic_contains``) are the parent and children
the header shows, so they are left out. A pair linked both ways with the same relation, and a
symmetric relation (stored once, canonically), are one "bidirectional" row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memgraph_gui.core.domain.model import SYMMETRIC_RELATIONS, Edge

ARROWS = {"outgoing": "→", "incoming": "←", "bidirectional": "↔"}


@dataclass(frozen=True, slots=True)
class LinkRow:
    """One link of the shown node: ``direction`` as ``removeLink`` / ``upsertLinks`` take it."""

    other_id: str
    relation: str
    direction: str

    @property
    def arrow(self) -> str:
        return ARROWS[self.direction]


def link_rows(node_id: str, edges: Iterable[Edge]) -> list[LinkRow]:
    """The rows for ``node_id``'s edges (outgoing first, then incoming, in edge order)."""
    seen: dict[tuple[str, str], set[str]] = {}
    for edge in edges:
        if edge.internal:
            continue
        if edge.from_id == node_id:
            other, way = edge.to_id, "outgoing"
        elif edge.to_id == node_id:
            other, way = edge.from_id, "incoming"
        else:
            continue
        seen.setdefault((other, edge.type), set()).add(way)
    rows = []
    for (other, relation), ways in seen.items():
        both = len(ways) == 2 or relation in SYMMETRIC_RELATIONS
        direction = "bidirectional" if both else next(iter(ways))
        rows.append(LinkRow(other, relation, direction))
    order = {"outgoing": 0, "bidirectional": 1, "incoming": 2}
    return sorted(rows, key=lambda r: order[r.direction])

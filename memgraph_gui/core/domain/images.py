"""Row images: the JSON form of nodes, edges and meta values in the change log."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from memgraph_gui.core.domain.model import Edge, EdgeKey, Node

Kind = Literal["node", "edge", "meta"]
_SEP = "\x1f"


@dataclass(frozen=True, slots=True)
class Change:
    """One row of a batch: ``before``/``after`` images (None = absent).

    ``value`` is the ``Node``/``Edge`` the after-image was made from, when the writer has it
    (saves rebuilding it from the image to write the row and update the graph).
    """

    kind: Kind
    key: str
    before: Any
    after: Any
    value: Any = field(default=None, compare=False)


def edge_key_text(key: EdgeKey) -> str:
    return _SEP.join(key)


def edge_key_from_text(text: str) -> EdgeKey:
    a, b, c = text.split(_SEP)
    return (a, b, c)


def node_image(node: Node | None) -> dict[str, Any] | None:
    if node is None:
        return None
    image = node.to_store_json()
    image["_ord"] = node.ord
    return image


def node_from_image(image: dict[str, Any]) -> Node:
    return Node.from_store_json(image, int(image.get("_ord", 0)))


def edge_image(edge: Edge | None) -> dict[str, Any] | None:
    if edge is None:
        return None
    image = edge.to_store_json()
    image["_ord"] = edge.ord
    return image


def edge_from_image(image: dict[str, Any]) -> Edge:
    seq = image.get("seqTo")
    return Edge(
        image["from"],
        image["to"],
        image["type"],
        None if seq is None else int(seq),
        int(image.get("_ord", 0)),
    )


def dumps(value: Any) -> str | None:
    """Compact JSON that keeps key order (a redo must restore ``fields`` in the same order)."""
    if value is None:
        return None
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)

"""Row images: the JSON form of nodes, edges and meta values in the change log."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
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


class NodeImage(Mapping[str, Any]):
    """``node_image(node)`` without building it: its keys read straight from the node, and
    its JSON text (``dumps``) made from the node's stored ``fields`` text, which is never
    parsed. For big batches of nodes whose ``fields`` are ``LazyFields`` (an import): building
    and dumping 50k images parsed and re-encoded every node's fields. ``fields`` reads as the
    node's own (read-only) mapping."""

    __slots__ = ("node",)

    def __init__(self, node: Node) -> None:
        self.node = node

    def _keys(self) -> list[str]:
        node = self.node
        keys = list(_IMAGE_KEYS)
        if node.floor_range is not None:
            keys.append("floorRange")
        if node.superseded_by:
            keys.append("supersededBy")
        keys.append("_ord")
        return keys

    def __getitem__(self, key: str) -> Any:
        if key not in self._keys():
            raise KeyError(key)
        return _IMAGE_GETTERS[key](self.node)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    @property
    def text(self) -> str:
        """The image as ``dumps`` writes ``node_image(node)`` (the same bytes)."""
        node = self.node
        if node.floor_range is not None or node.superseded_by:
            return _TEXT(node_image(node))  # rare: the general way
        string = _STRING
        children = _TEXT(list(node.children_ids)) if node.children_ids else "[]"
        return (
            f'{{"id":{string(node.id)},"type":{string(node.type)},'
            f'"level":{string(node.level)},"title":{string(node.title)},'
            f'"fields":{node.fields_json()},"seqTo":{int(node.seq_to)},'
            f'"parentId":{string(node.parent_id)},"childrenIds":{children},'
            f'"archived":{"true" if node.archived else "false"},'
            f'"semanticRollup":{"true" if node.semantic_rollup else "false"},'
            f'"semanticDepth":{int(node.semantic_depth)},"_ord":{int(node.ord)}}}'
        )


_IMAGE_KEYS = (
    *("id", "type", "level", "title", "fields", "seqTo", "parentId", "childrenIds"),
    *("archived", "semanticRollup", "semanticDepth"),
)
_IMAGE_GETTERS: dict[str, Any] = {
    "id": lambda n: n.id,
    "type": lambda n: n.type,
    "level": lambda n: n.level,
    "title": lambda n: n.title,
    "fields": lambda n: n.fields,
    "seqTo": lambda n: n.seq_to,
    "parentId": lambda n: n.parent_id,
    "childrenIds": lambda n: list(n.children_ids),
    "archived": lambda n: n.archived,
    "semanticRollup": lambda n: n.semantic_rollup,
    "semanticDepth": lambda n: n.semantic_depth,
    "floorRange": lambda n: {"start": n.floor_range[0], "end": n.floor_range[1]},
    "supersededBy": lambda n: n.superseded_by,
    "_ord": lambda n: n.ord,
}
_TEXT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_STRING = json.encoder.encode_basestring  # a string as ``_TEXT`` writes it (C)


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
    if isinstance(value, NodeImage):
        return value.text
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)

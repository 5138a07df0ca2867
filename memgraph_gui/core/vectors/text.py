"""What of a node is embedded, and the digest that tells a stored vector is still its own.

A node's text is its title, then the values of its type's schema columns in column order (every
field's values when the type has no columns, or is not in the schema), each scalar inside a value
on its own line; a value equal to the title is not repeated. At most ``MAX_CHARS`` characters
(an endpoint limits its input; a memory's gist is at its start). The digest is BLAKE2b-128 of the
text's UTF-8: the same text gives the same digest in every process.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.domain.schema import Schema
from memgraph_gui.core.domain.text import flatten_values
from memgraph_gui.core.graph.search import field_maps
from memgraph_gui.core.graph.topology import is_recall_diagnostic

MAX_CHARS = 4000


def node_text(node: Node, columns: Sequence[str] | None, fields: Mapping[str, Any]) -> str:
    """The text embedded for ``node`` (``fields``: its fields, as ``field_maps`` reads them)."""
    parts = [node.title] if node.title else []
    keys = columns if columns else list(fields)
    for key in keys:
        for text in flatten_values(fields.get(key)):
            if text != node.title:
                parts.append(text)
    return "\n".join(parts)[:MAX_CHARS]


def digest(text: str) -> bytes:
    """The text's digest (16 bytes)."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def searchable(node: Node) -> bool:
    """Whether ``vectorSearch`` may return ``node`` (the pool of ``keywordSearch``: active nodes,
    recall diagnostics left out)."""
    return not node.archived and not is_recall_diagnostic(node)


def texts_of(schema: Schema, nodes: Sequence[Node]) -> list[str]:
    """``node_text`` of each of ``nodes`` (their fields parsed in bulk) under ``schema``. Nodes
    are immutable: no lock is needed."""
    columns: dict[str, tuple[str, ...] | None] = {}
    out = []
    for node, fields in zip(nodes, field_maps(list(nodes)), strict=True):
        kind = node.type.lower()
        if kind not in columns:
            spec = schema.get(kind)
            columns[kind] = spec.columns if spec is not None else None
        out.append(node_text(node, columns[kind], fields))
    return out

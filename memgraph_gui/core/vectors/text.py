"""What of a node is embedded, and the digest that tells a stored vector is still its own.

A node's text is its title, then the values of its type's schema columns in column order, each
scalar inside a value on its own line; a value equal to the title is not repeated. A node whose
type has no columns (a Nuggets note, a Membrane record, a type the schema does not know) gives
the words of every field instead, leaving out what is bookkeeping rather than memory: the keys
in ``BOOKKEEPING`` at any depth (ids, links, vectors, stamps, provenance, audit logs, kinds,
scopes, sensitivities), numbers and flags, and strings that are machine tokens (timestamps, ids
such as ``note-astra-62827e2b``). At most ``MAX_CHARS`` characters (an endpoint limits its
input; a memory's gist is at its start). The digest is BLAKE2b-128 of the
text's UTF-8: the same text gives the same digest in every process.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.domain.schema import Schema
from memgraph_gui.core.domain.text import flatten_values
from memgraph_gui.core.graph.search import field_maps
from memgraph_gui.core.graph.topology import is_recall_diagnostic

MAX_CHARS = 4000


BOOKKEEPING = frozenset(
    {
        "id", "ids", "ref", "links", "vector", "relations", "identifiers", "evidence",
        "provenance", "audit_log", "lifecycle", "validity", "createdAt", "updatedAt",
        "lastAccessedAt", "lastHitSession", "created_at", "updated_at", "timestamp", "t",
        "nuggetName", "sourceKey", "source_id", "plan_id", "thread_id", "version",
        "kind", "type", "sensitivity", "scope", "source", "stability",
    }
)  # fmt: skip
"""Field keys (at any depth) whose values are bookkeeping, left out of a schema-less text."""
_TOKEN = re.compile(r"\d{4}-\d\d-\d\dT\S*|[^\s]*\d[^\s]*[-#_:][^\s]*|[^\s]*[-#_:][^\s]*\d[^\s]*")


def node_text(node: Node, columns: Sequence[str] | None, fields: Mapping[str, Any]) -> str:
    """The text embedded for ``node`` (``fields``: its fields, as ``field_maps`` reads them)."""
    parts = [node.title] if node.title else []
    if columns:
        found: Iterable[str] = (t for key in columns for t in flatten_values(fields.get(key)))
    else:
        found = _words(fields)
    parts += (text for text in found if text != node.title)
    return "\n".join(parts)[:MAX_CHARS]


def _words(value: Any) -> Iterator[str]:
    """The strings inside ``value`` that are memory, not bookkeeping (see the docstring)."""
    if isinstance(value, str):
        if value and not _TOKEN.fullmatch(value):
            yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _words(item)
    elif hasattr(value, "items"):
        for key, item in value.items():
            if key not in BOOKKEEPING:
                yield from _words(item)


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

"""Validation of one Luker node or edge, naming the offending path (``nodes.n_17.title``).

The callers have already refused NaN and Infinity anywhere in the document
(``json_values.require_finite``), so every number seen here is finite.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.domain.freeze import freeze
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.topology import normalize_text
from memgraph_gui.core.luker.validate import MAX_TEXT, MAX_TITLE

MAX_SAFE = 2**53 - 1
"""JavaScript's ``Number.MAX_SAFE_INTEGER``: the largest counter or ``seqTo`` Luker can hold."""
NODE_SUFFIX = re.compile(r"^n_(\d+)$")
"""An extracted node's id, ``n_<N>``; the highest N is the store's ``nodeSeq``."""


def check(raw: Mapping[str, Any], key: str, kinds: tuple[type, ...], path: str, what: str) -> Any:
    """``raw[key]`` when absent, None or of ``kinds`` (bool only if listed); else raise."""
    value = raw.get(key)
    if value is not None and (
        not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)
    ):
        raise ImportFormatError(f"{path}.{key}" if path else key, f"expected {what}")
    return value


def number(raw: Mapping[str, Any], key: str, path: str) -> int | float | None:
    """An optional number no larger in size than ``MAX_SAFE``."""
    value = check(raw, key, (int, float), path, "a number")
    if value is not None and abs(value) > MAX_SAFE:
        where = f"{path}.{key}" if path else key
        raise ImportFormatError(where, f"out of range (at most {MAX_SAFE:,})")
    return value  # type: ignore[no-any-return]


def whole(value: int | float | None, default: int = 0) -> int:
    """A number floored and clamped at 0, like Luker's ``Math.max(0, Math.floor(x))``."""
    return default if value is None else max(0, math.floor(value))


def parse_node(key: str, raw: Any, path: str) -> Node | None:
    """The node stored under ``key``, normalised as Luker does; None when not ``semantic``.

    A non-semantic node is dropped by Luker, so only its ``level`` is checked.
    """
    if not isinstance(raw, Mapping):
        raise ImportFormatError(path, "expected an object")
    node_id = key.strip()
    if not node_id:
        raise ImportFormatError(path, "a node id must not be blank")
    level = check(raw, "level", (str,), path, "a string")
    if (level or "semantic").strip() != "semantic":
        return None
    title = check(raw, "title", (str,), path, "a string")
    if title is not None and len(title) > MAX_TITLE:
        raise ImportFormatError(f"{path}.title", f"longer than {MAX_TITLE:,} characters")
    fields = check(raw, "fields", (Mapping,), path, "an object")
    _check_sizes(fields or {}, f"{path}.fields")
    for flag in ("archived", "semanticRollup"):
        check(raw, flag, (bool,), path, "true or false")
    parent, children = links(raw, path)
    depth = number(raw, "semanticDepth", path)
    return Node(
        id=node_id,
        type=check(raw, "type", (str,), path, "a string") or "semantic",
        level="semantic",
        title=normalize_text(title or node_id),
        seq_to=whole(number(raw, "seqTo", path)),
        fields=freeze(dict(fields or {})),
        parent_id=parent,
        children_ids=tuple(children),
        archived=bool(raw.get("archived")),
        semantic_rollup=bool(raw.get("semanticRollup")),
        semantic_depth=int(depth) if depth is not None else 0,
        floor_range=floor_range(raw.get("floorRange"), f"{path}.floorRange"),
        superseded_by=(check(raw, "supersededBy", (str,), path, "a string") or None),
    )


def links(raw: Mapping[str, Any], path: str) -> tuple[str, list[str]]:
    """A node's ``parentId`` (trimmed, ``""`` for none) and ``childrenIds`` (trimmed, no blanks)."""
    children = check(raw, "childrenIds", (list,), path, "an array of ids")
    parent = check(raw, "parentId", (str,), path, "a string")
    return (parent or "").strip(), _child_ids(children or [], f"{path}.childrenIds")


def parse_edge(item: Any, path: str) -> tuple[str, str, str, int | None]:
    """``(from, to, type, seqTo)`` of an edge; ends trimmed (maybe blank), type normalised."""
    if not isinstance(item, Mapping):
        raise ImportFormatError(path, "expected an object")
    ends = [check(item, k, (str, int), path, "a node id") for k in ("from", "to")]
    relation = check(item, "type", (str,), path, "a string")
    seq = number(item, "seqTo", path)
    source, target = (str(e).strip() if e is not None else "" for e in ends)
    kind = normalize_text(relation or "") or "related"
    return source, target, kind, None if seq is None else whole(seq)


def _check_sizes(fields: Mapping[str, Any], path: str) -> None:
    for name, value in fields.items():
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ImportFormatError(f"{path}.{name}", f"longer than {MAX_TEXT:,} characters")


def _child_ids(items: list[Any], path: str) -> list[str]:
    out = []
    for index, item in enumerate(items):
        if item is None:
            continue
        if not isinstance(item, (str, int)) or isinstance(item, bool):
            raise ImportFormatError(f"{path}[{index}]", "expected a node id")
        if str(item).strip():
            out.append(str(item).strip())
    return out


def floor_range(value: Any, path: str) -> tuple[int, int] | None:
    """``floorRange`` as ``(start, end)`` floored; None when absent or not ``0 <= start <= end``."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ImportFormatError(path, "expected {start, end}")
    start, end = value.get("start"), value.get("end")
    numbers = (int, float)
    if not isinstance(start, numbers) or not isinstance(end, numbers):
        return None
    if isinstance(start, bool) or isinstance(end, bool) or start < 0 or end < start:
        return None
    return math.floor(start), math.floor(end)

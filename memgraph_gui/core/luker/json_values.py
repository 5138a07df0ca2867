"""Checks on a decoded JSON document as a whole (values Python accepts but JSON does not)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.domain.strict_json import first_lone_surrogate


def require_finite(doc: Any, root: str = "") -> None:
    """Raise ``ImportFormatError`` at the first NaN or ±Infinity in ``doc`` (document order).

    Python's ``json`` reads ``NaN``/``Infinity`` and a caller may hand such floats in directly;
    neither is JSON. The error names the path (``nodes.n_3.fields.score``, ``edges[2].seqTo``;
    ``root`` prefixes it). Walks iteratively, so any nesting depth is fine. Pure; any thread.
    """
    path = first_non_finite(doc, root)
    if path is not None:
        raise ImportFormatError(path, "not a finite number (NaN and Infinity are not JSON)")


def require_storable(doc: Any, root: str = "") -> None:
    """``require_finite``, then ``ImportFormatError`` at the first string or key holding a lone
    surrogate (``nodes.n_3.title``), which Python's ``json`` reads from an escape such as
    ``"\\ud800"`` and no UTF-8 text can hold. What ``safe_io.read_json`` refuses in a file."""
    require_finite(doc, root)
    found = first_lone_surrogate(doc, root)
    if found is not None:
        raise ImportFormatError(*found)


def first_non_finite(doc: Any, root: str = "") -> str | None:
    """The path of the first non-finite float in ``doc``, or None when every number is finite."""
    if not _any_non_finite(doc):  # the common case, about 4x faster than tracking paths
        return None
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), doc)]
    while stack:
        keys, value = stack.pop()
        if isinstance(value, float):
            if not math.isfinite(value):
                return _path(root, keys)
            continue
        if isinstance(value, Mapping):
            items: list[tuple[str | int, Any]] = [(str(k), v) for k, v in value.items()]
        elif isinstance(value, (list, tuple)):
            items = list(enumerate(value))
        else:
            continue
        stack.extend(((*keys, k), v) for k, v in reversed(items) if isinstance(v, _WALKED))
    return None


_WALKED = (float, Mapping, list, tuple)


def _any_non_finite(doc: Any) -> bool:
    stack = [doc] if isinstance(doc, _WALKED) else []
    while stack:
        value = stack.pop()
        if isinstance(value, float):
            if not math.isfinite(value):
                return True
            continue
        for item in value.values() if isinstance(value, Mapping) else value:
            kind = type(item)
            if kind is str or kind is int or kind is bool or item is None:
                continue
            if kind is dict or kind is list or isinstance(item, _WALKED):
                stack.append(item)
    return False


def _path(root: str, keys: tuple[str | int, ...]) -> str:
    out = root
    for key in keys:
        out = f"{out}[{key}]" if isinstance(key, int) else f"{out}.{key}" if out else key
    return out

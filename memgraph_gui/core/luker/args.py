"""Argument checking for the public APIs: wrong types raise ``BAD_ARGS`` naming the argument."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from memgraph_gui.core.domain.errors import bad_args

__all__ = ["bad_args"]

MAX_SAFE_INTEGER = 2**53 - 1  # JavaScript's Number.MAX_SAFE_INTEGER: the seeds' number range


def options(value: Any, name: str = "options") -> Mapping[str, Any]:
    """An options object; None means ``{}``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise bad_args(f"{name}: expected an object")
    return value


def str_list(value: Any, name: str) -> list[str] | None:
    """An optional array of strings, trimmed, empties dropped; None or ``[]`` means no filter."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise bad_args(f"{name}: expected an array of strings")
    out: list[str] = []
    for item in value:
        if not isinstance(item, str):
            raise bad_args(f"{name}: expected an array of strings, got {type(item).__name__}")
        if item.strip():
            out.append(item.strip())
    return out or None


def lower_set(value: Any, name: str) -> frozenset[str] | None:
    """``str_list`` lower-cased as a set (for case-insensitive type / level filters)."""
    items = str_list(value, name)
    return None if items is None else frozenset(i.lower() for i in items)


def id_set(value: Any, name: str) -> frozenset[str]:
    """A set of ids from any array / set (a bare string is refused, not split into letters)."""
    if value is None:
        return frozenset()
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise bad_args(f"{name}: expected an array of ids")
    out = set()
    for item in value:
        if item is None:
            continue
        if not isinstance(item, (str, int)) or isinstance(item, bool):
            raise bad_args(f"{name}: expected an array of ids, got {type(item).__name__}")
        text = str(item).strip()
        if text:
            out.add(text)
    return frozenset(out)


def number(value: Any, name: str) -> float | None:
    """An optional finite number; None stays None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise bad_args(f"{name}: expected a number")
    if not math.isfinite(value):
        return None
    if abs(value) > MAX_SAFE_INTEGER:
        raise bad_args(f"{name}: {value:g} is out of range (at most {MAX_SAFE_INTEGER:,})")
    return float(value)


def whole(value: Any, name: str, default: int, minimum: int | None = None) -> int:
    """An integer option (floored); None gives ``default``; clamped to ``minimum``."""
    parsed = number(value, name)
    result = default if parsed is None else math.floor(parsed)
    return result if minimum is None else max(minimum, result)


def flag(value: Any, name: str, default: bool) -> bool:
    """A boolean option; None gives ``default``."""
    if value is None:
        return default
    if not isinstance(value, bool):
        raise bad_args(f"{name}: expected true or false")
    return value


def text(value: Any, name: str) -> str:
    """A string argument (None means empty)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise bad_args(f"{name}: expected a string")
    return value


def node_id(value: Any, name: str = "id") -> str:
    """An id argument, trimmed (numbers accepted and stringified)."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise bad_args(f"{name}: expected a string id")
    return str(value).strip()

"""Deep-freezing of JSON-like values, and the way back to plain JSON."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

EMPTY_MAPPING: Mapping[str, Any] = MappingProxyType({})


def freeze(value: Any) -> Any:
    """Return ``value`` with lists as tuples and dicts as read-only mappings, recursively."""
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    return value


def thaw(value: Any) -> Any:
    """Inverse of :func:`freeze`: tuples/sets become lists, mappings become dicts."""
    if isinstance(value, (tuple, list)):
        return [thaw(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(thaw(v) for v in value)
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    return value

"""Deep-freezing of JSON-like values, and the way back to plain JSON."""

from __future__ import annotations

from collections.abc import ItemsView, KeysView, Mapping, ValuesView
from types import MappingProxyType
from typing import Any

EMPTY_MAPPING: Mapping[str, Any] = MappingProxyType({})


_SCALARS = frozenset({str, int, float, bool, type(None)})


def freeze(value: Any) -> Any:
    """Return ``value`` with lists as tuples and dicts as read-only mappings, recursively."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        if all(type(v) in _SCALARS for v in value.values()):
            return MappingProxyType(value)
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if kind is list or kind is tuple:
        if all(type(v) in _SCALARS for v in value):
            return tuple(value)
        return tuple(freeze(v) for v in value)
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
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


class LazyFields(Mapping[str, Any]):
    """A read-only mapping parsed from JSON text on first use (keeps opening a big store fast)."""

    __slots__ = ("_data", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._data: Mapping[str, Any] | None = None

    def _load(self) -> Mapping[str, Any]:
        data = self._data
        if data is None:
            import json

            data = self._data = freeze(json.loads(self._text))
        return data

    @classmethod
    def loaded(cls, text: str, data: Mapping[str, Any]) -> LazyFields:
        """A mapping already parsed: ``data`` (frozen) is what ``text`` reads as."""
        fields = cls(text)
        fields._data = data
        return fields

    @property
    def text(self) -> str:
        """The JSON text this mapping was read from."""
        return self._text

    def __getitem__(self, key: str) -> Any:
        return self._load()[key]

    def __iter__(self) -> Any:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __contains__(self, key: object) -> bool:
        return key in self._load()

    def get(self, key: str, default: Any = None) -> Any:
        return self._load().get(key, default)

    # The parsed mapping's own views: C-level iteration, not a ``__getitem__`` call per value.
    def keys(self) -> KeysView[str]:
        return self._load().keys()

    def values(self) -> ValuesView[Any]:
        return self._load().values()

    def items(self) -> ItemsView[str, Any]:
        return self._load().items()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyFields) and other._text == self._text:
            return True  # the same text reads as the same mapping (without parsing either)
        if isinstance(other, Mapping):
            return dict(self._load()) == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LazyFields({dict(self._load())!r})"

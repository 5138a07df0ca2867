"""Argument checking for the public APIs: wrong types raise ``BAD_ARGS`` naming the argument."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from memgraph_gui.core.domain.errors import MemgraphError, bad_args
from memgraph_gui.core.domain.text import plainly_joined

__all__ = ["bad_args"]

MAX_SAFE_INTEGER = 2**53 - 1  # JavaScript's Number.MAX_SAFE_INTEGER: the seeds' number range
MAX_NESTING = 64  # arrays / objects inside an argument; the seeds' deepest shape needs about 12
MAX_STRING = 1_000_000  # characters in one string of a JSON call (the fields total cap)
SURROGATE = re.compile("[\ud800-\udfff]")  # in a str, always lone: UTF-8 cannot encode it
_SPACES = re.compile(r"\s+")


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
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
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


def relation_set(value: Any, name: str) -> frozenset[str] | None:
    """Relation names as Luker compares them: whitespace runs collapsed, trimmed, lower-cased;
    None or ``[]`` means no filter."""
    items = str_list(value, name)
    return None if items is None else frozenset(_SPACES.sub(" ", i).strip().lower() for i in items)


def id_set(value: Any, name: str) -> frozenset[str]:
    """A set of ids from any array / set (a bare string is refused, not split into letters)."""
    return frozenset(id_list(value, name))


def id_list(value: Any, name: str) -> tuple[str, ...]:
    """Ids from any array / set in their order, trimmed, blanks and repeats dropped (Luker's
    ``toIdSet``; ``null`` items skipped). A bare string is refused, not split into letters."""
    out = dict.fromkeys(stripped_ids(value, name))
    out.pop("", None)
    return tuple(out)


def stripped_ids(value: Any, name: str) -> list[str]:
    """``id_list`` without removing blanks and repeats (for callers that only test membership)."""
    if value is None:
        return []
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise bad_args(f"{name}: expected an array of ids")  # (an object is no array in JS)
    items = value if isinstance(value, (list, tuple)) else list(value)
    if set(map(type, items)) <= {str}:  # the common case, checked in C: ~10x faster
        return list(map(str.strip, items))
    return [node_id(item, name) for item in items if item is not None]


_SEPARATOR = "\x00"
_SEARCHED = 3  # up to this many wanted ids are searched for in the joined text


class IdArray:
    """A caller's id array (``visibleNodeIds``), checked as ``id_set`` checks it (the same
    errors, raised here) but kept as it came, so that a few ids can be looked for in it
    (``among``) without making a set of all of it: a caller's 20k ids are each a miss in the
    memory caches. One ``str.join`` checks that every item is a string and copies them into one
    text; an item that is not a string (a number, ``null``, junk) sends the array through
    ``id_set`` instead. A ``str`` subclass counts as its string value."""

    __slots__ = ("_ids", "_items", "_joined")

    def __init__(self, value: Any, name: str) -> None:
        self._ids: frozenset[str] | None = None  # when not all items are strings
        self._joined: str | None = None  # when they are, ASCII, with nothing to trim
        self._items: Collection[str] = ()
        if value is None:
            return
        if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
            raise bad_args(f"{name}: expected an array of ids")
        items = value if isinstance(value, (list, tuple, set, frozenset)) else list(value)
        try:
            joined = _SEPARATOR.join(items)
        except TypeError:  # not a string: checked, and made an id, item by item
            self._ids = id_set(items, name)
            return
        self._items = items
        if plainly_joined(joined, len(items)):
            self._joined = joined

    def among(self, wanted: Iterable[str]) -> set[str]:
        """Which of ``wanted`` (trimmed, non-blank ids) the array holds, as ``id_set`` reads it:
        with nothing to trim, each of a few wanted ids is one C-level search of the joined text
        (more: one pass looks each item up among them); else one pass trims each item and
        looks it up among the wanted."""
        looking = set(wanted)
        if self._ids is not None:
            return looking & self._ids
        if self._joined is not None:
            if len(looking) <= _SEARCHED:  # a search of the text costs ~1/3 of a look-up an item
                return {i for i in looking if _SEPARATOR not in i and _holds(self._joined, i)}
            return looking.intersection(self._items)
        return looking.intersection(map(str.strip, self._items))


def listed(value: Any, name: str, wanted: Iterable[str]) -> set[str]:
    """Which of ``wanted`` (trimmed, non-blank ids) the id array ``value`` holds, read as
    ``id_set`` reads it (the same errors): ``IdArray(value, name).among(wanted)``."""
    return IdArray(value, name).among(wanted)


def _holds(joined: str, item: str) -> bool:
    """Whether ``item`` is one of the items ``joined`` (see ``plainly_joined``) was made of."""
    sep = _SEPARATOR
    return (
        joined == item
        or joined.startswith(item + sep)
        or joined.endswith(sep + item)
        or f"{sep}{item}{sep}" in joined
    )


def number(value: Any, name: str) -> float | None:
    """An optional finite number; None stays None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise bad_args(f"{name}: expected a number")
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if abs(value) > MAX_SAFE_INTEGER:
        shown = f"{value:g}" if isinstance(value, float) else "the integer"
        raise bad_args(f"{name}: {shown} is out of range (at most {MAX_SAFE_INTEGER:,})")
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
        raise bad_args(f"{name}: expected a string id, got {type(value).__name__}")
    if isinstance(value, int) and abs(value) > MAX_SAFE_INTEGER:
        raise bad_args(f"{name}: integer id out of range (at most {MAX_SAFE_INTEGER:,})")
    return str(value).strip()


Trail = tuple[Any, Any] | None  # (parent trail, key or index): a path built only for errors


def check_data(value: Any, name: str, *, strict_json: bool = False) -> None:
    """Refuse argument data no store can hold, naming the place (``args[0].fields.name``).

    Always: a lone surrogate in a string or key, or nesting deeper than ``MAX_NESTING`` (which
    also stops cyclic Python containers) raises ``BAD_ARGS``. With ``strict_json`` (the JSON
    boundary) also: integers beyond JavaScript's safe range, non-finite floats and values that are
    not JSON data (``BAD_ARGS``), and strings over ``MAX_STRING`` characters (``TOO_LARGE``).
    Iterative, so any depth of input is answered without recursion; the first problem in
    document order is reported. Without ``strict_json`` a value that serialises cleanly is
    accepted at once (in C; the walk only runs to name a problem). Reads nothing, writes nothing.
    """
    if not strict_json and _encodes(value):
        return  # the common case, checked in C; the walk below names the place of a problem
    stack: list[tuple[Any, Trail, int]] = [(value, None, 0)]
    while stack:
        item, trail, depth = stack.pop()
        if isinstance(item, str):
            if _suspect(item, strict_json):
                _check_string(item, _path(name, trail), strict_json)
        elif isinstance(item, (Mapping, list, tuple, set, frozenset)):
            if depth >= MAX_NESTING:
                raise bad_args(f"{_path(name, trail)}: nested deeper than {MAX_NESTING} levels")
            stack.extend(reversed(_children(item, name, trail, depth + 1, strict_json)))
        elif strict_json and not _plain_scalar(item):
            _check_scalar(item, _path(name, trail))


def _encodes(value: Any) -> bool:
    """True when ``value`` serialises to JSON (values that are not JSON as their ``repr``) with
    no lone surrogate: then a Python caller's argument is storable. A cycle or runaway nesting
    fails here too and is named by the walk; nesting that Python can serialise is left to the
    schema checks (``validate`` caps ``fields`` at a few levels)."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (ValueError, RecursionError):
        return False
    return text.isascii() or SURROGATE.search(text) is None


def _suspect(text: str, strict_json: bool) -> bool:
    """Cheap pre-test: could ``text`` fail ``_check_string``?"""
    return (strict_json and len(text) > MAX_STRING) or not text.isascii()


def _plain_scalar(item: Any) -> bool:
    kind = type(item)
    if kind is int:
        return bool(-MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER)
    if kind is float:
        return math.isfinite(item)
    return item is None or kind is bool


def _children(
    item: Any, name: str, trail: Trail, depth: int, strict_json: bool
) -> list[tuple[Any, Trail, int]]:
    if not isinstance(item, Mapping):
        if strict_json and not isinstance(item, list):
            where = _path(name, trail)
            raise bad_args(f"{where}: expected JSON data, got {type(item).__name__}")
        return [(child, (trail, i), depth) for i, child in enumerate(item)]
    out: list[tuple[Any, Trail, int]] = []
    for raw_key, child in item.items():
        if strict_json and not isinstance(raw_key, str):
            where = _path(name, trail)
            raise bad_args(f"{where}: object keys must be strings, got {type(raw_key).__name__}")
        key = raw_key if isinstance(raw_key, str) else str(raw_key)
        if _suspect(key, strict_json):
            _check_string(key, f"{_path(name, trail)} (key {_quoted(key)})", strict_json)
        out.append((child, (trail, key), depth))
    return out


def _path(name: str, trail: Trail) -> str:
    """``name`` followed by the keys and indexes of ``trail`` (``args[0].fields["a b"]``)."""
    parts: list[str] = []
    while trail is not None:
        trail, key = trail
        if isinstance(key, int):
            parts.append(f"[{key}]")
        else:
            parts.append(f".{key}" if key.isidentifier() else f"[{_quoted(key)}]")
    return name + "".join(reversed(parts))


def _quoted(key: str) -> str:
    """A key as an ASCII JSON string (lone surrogates escaped), cut to 40 characters."""
    text = json.dumps(key[:40] + ("…" if len(key) > 40 else ""))
    return text


def _check_string(text: str, path: str, strict_json: bool) -> None:
    if strict_json and len(text) > MAX_STRING:
        raise MemgraphError(
            "TOO_LARGE", f"{path}: {len(text):,} characters (at most {MAX_STRING:,})"
        )
    if not text.isascii() and (found := SURROGATE.search(text)) is not None:
        raise bad_args(
            f"{path}: lone surrogate U+{ord(found.group()):04X} at character {found.start()} "
            "is not Unicode text (it cannot be encoded as UTF-8)"
        )


def _check_scalar(item: Any, path: str) -> None:
    if item is None or isinstance(item, bool):
        return
    if isinstance(item, int):
        if abs(item) > MAX_SAFE_INTEGER:
            raise bad_args(f"{path}: integer out of range (at most ±{MAX_SAFE_INTEGER:,})")
    elif isinstance(item, float):
        if not math.isfinite(item):
            raise bad_args(f"{path}: numbers must be finite")
    else:
        raise bad_args(f"{path}: expected JSON data, got {type(item).__name__}")

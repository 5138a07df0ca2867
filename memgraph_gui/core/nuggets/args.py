"""Argument checks of the Nuggets API: the wrong type raises ``BAD_ARGS`` naming the place
(``editNote: updates.tags[2] must be a string``); a refusal the contract allows (a missing note,
an empty key) is the caller's ``None`` / ``False``, never an error here. Pure."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from memgraph_gui.core.domain.errors import bad_args
from memgraph_gui.core.domain.strict_json import SURROGATE
from memgraph_gui.core.nuggets.metadata import js_number

META_STRINGS = ("subject", "scope", "type", "source", "stability")


def text(value: Any, place: str) -> str:
    """``value`` if it is a string a store can hold (no lone surrogate), else ``BAD_ARGS``."""
    if not isinstance(value, str):
        raise bad_args(f"{place} must be a string, got {json_kind(value)}")
    if not value.isascii() and SURROGATE.search(value):
        raise bad_args(f"{place} holds a lone surrogate, which no store can hold")
    return value


def optional_text(value: Any, place: str, default: str | None = None) -> str | None:
    """``text`` where ``None`` (JSON null, or left out) gives ``default``."""
    return default if value is None else text(value, place)


def flag(value: Any, place: str) -> bool | None:
    """A boolean, or ``None`` for null."""
    if value is None or isinstance(value, bool):
        return value
    raise bad_args(f"{place} must be true or false, got {json_kind(value)}")


def options(value: Any, place: str) -> Mapping[str, Any]:
    """An options object (``{}`` for null); keys it does not know are ignored, as Nuggets does."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise bad_args(f"{place} must be an object, got {json_kind(value)}")
    for key in value:
        text(key, f"{place} key")
    return value


def texts(value: Any, place: str) -> list[str]:
    """A list of strings (tags)."""
    if not isinstance(value, (list, tuple)):
        raise bad_args(f"{place} must be an array of strings, got {json_kind(value)}")
    return [text(item, f"{place}[{i}]") for i, item in enumerate(value)]


def number(value: Any, place: str) -> float | int:
    """A number: NaN and the infinities too (the metadata rules turn them into 0.7)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise bad_args(f"{place} must be a number, got {json_kind(value)}")
    return value


def meta(value: Any, place: str) -> dict[str, Any]:
    """A ``GraphNoteMetaInput``: the six fields that are given (null ones dropped), checked."""
    given = options(value, place)
    out: dict[str, Any] = {}
    for name in (*META_STRINGS, "confidence"):
        item = given.get(name)
        if item is None:
            continue
        where = f"{place}.{name}"
        out[name] = number(item, where) if name == "confidence" else text(item, where)
    return out


def links(value: Any, place: str) -> list[dict[str, Any]]:
    """Note links as ``updateNote`` takes them: objects with a string ``to`` and ``reason``
    (``createdAt`` a string when given; other keys kept as given, if JSON data)."""
    if not isinstance(value, (list, tuple)):
        raise bad_args(f"{place} must be an array of links, got {json_kind(value)}")
    out = []
    for i, link in enumerate(value):
        where = f"{place}[{i}]"
        if not isinstance(link, Mapping):
            raise bad_args(
                f"{where} must be an object {{to, reason, createdAt}}, got {json_kind(link)}"
            )
        text(link.get("to"), f"{where}.to")
        text(link.get("reason"), f"{where}.reason")
        if "createdAt" in link:
            text(link["createdAt"], f"{where}.createdAt")
        out.append(storable(dict(link), where))
    return out


def storable(value: Any, place: str) -> Any:
    """``value`` if it is strict JSON data a store can hold, else ``BAD_ARGS``."""
    try:
        dumped = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise bad_args(f"{place} is not JSON data a store can hold ({exc})") from exc
    if SURROGATE.search(dumped):
        raise bad_args(f"{place} holds a lone surrogate, which no store can hold")
    return value


def finite_or_zero(value: float | int) -> float | int:
    """A count as stored: NaN / Infinity (which graph.json cannot hold: Nuggets writes null and
    reads it back as 0) become 0; a whole number is an ``int``, as JavaScript writes it."""
    return js_number(value) if math.isfinite(value) else 0


def json_kind(value: Any) -> str:
    """What a JSON value is, in JSON's words (``a string``, ``null``, ``an array``, ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return type(value).__name__

"""JSON text exactly as JavaScript writes it: ``JSON.stringify(value, null, 2)``.

Python's ``json`` and JavaScript agree on strings (the same escapes, lower-case ``\\u00xx``) and on
the indented layout, but not on numbers, nor on the order of an object's keys:

- a JavaScript number is a double printed in its shortest form: ``1.0`` is ``1``, ``-0`` is ``0``,
  ``1e-7`` is ``1e-7`` (Python: ``1e-07``), ``1e16`` is ``10000000000000000`` (Python ``1e+16``),
  and an integer past 2**53 is the double nearest to it (``12345678901234567890`` is printed
  ``12345678901234567000``);
- an object lists its array-index keys (``"0"``, ``"17"``: canonical numbers below 2**32 - 1)
  first, in ascending order, then the other keys in insertion order (as ``JSON.parse`` made it).

``js_value`` turns a parsed document into the value JavaScript would hold (numbers it prints
like Python are left alone); ``stringify`` prints it.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping
from typing import Any

MAX_SAFE = 2**53
"""Integers up to this magnitude are exact as doubles (and print the same in both languages)."""
_MAX_INDEX = 2**32 - 2
_INDEX_KEY = re.compile(r"0|[1-9][0-9]{0,9}")
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Raw:
    """A number whose JavaScript text Python cannot print: substituted after ``json.dumps``."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def js_number_text(value: float) -> str:
    """``String(value)`` in JavaScript for a finite double (``Number.prototype.toString``)."""
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    if fraction == "0":
        fraction = ""
    digits = (whole + fraction).lstrip("0")
    # the decimal point sits after ``point`` digits of ``digits`` (value = 0.digits * 10**point)
    if whole == "0":
        point = int(exponent or 0) - (len(fraction) - len(fraction.lstrip("0")))
    else:
        point = len(whole) + int(exponent or 0)
    digits = digits.rstrip("0")
    k = len(digits)
    if k <= point <= 21:
        return sign + digits + "0" * (point - k)
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * -point + digits
    shown = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{shown}e{'+' if point - 1 >= 0 else '-'}{abs(point - 1)}"


def _number(value: Any, raw: bool = True) -> Any:
    """``value`` as JavaScript holds it: an int or float Python prints the same way, else
    ``_Raw`` (or, not ``raw``, the float)."""
    if isinstance(value, int):
        if -MAX_SAFE <= value <= MAX_SAFE:
            return value
        value = float(value)  # the double nearest, as JSON.parse makes it
    if value.is_integer() and abs(value) <= MAX_SAFE:
        return int(value)
    if not raw:
        return value
    text = js_number_text(value)
    return value if text == repr(value) else _Raw(text)


def is_index_key(key: str) -> bool:
    """Whether JavaScript orders ``key`` as an array index (before every other key)."""
    return _INDEX_KEY.fullmatch(key) is not None and int(key) <= _MAX_INDEX


def js_order(obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` with its array-index keys first, ascending, as a JavaScript object lists them
    (``obj`` itself when it has none)."""
    index_keys = [key for key in obj if is_index_key(key)]
    if not index_keys:
        return obj
    ordered = {key: obj[key] for key in sorted(index_keys, key=int)}
    ordered.update((key, value) for key, value in obj.items() if key not in ordered)
    return ordered


def ordered(value: Any) -> Any:
    """A copy of ``value`` (parsed JSON) whose objects list their keys in JavaScript's order
    (``js_order``); numbers and strings as they are."""
    kind = type(value)
    if kind is dict:
        return js_order({k: ordered(v) for k, v in value.items()})
    if kind is list:
        return [ordered(v) for v in value]
    return value


def js_value(value: Any, *, order_keys: bool = True, raw: bool = True) -> Any:
    """A copy of ``value`` (parsed JSON) as JavaScript would hold it: numbers as above, objects'
    keys in JavaScript's order (unless not ``order_keys``). Not ``raw``: plain JSON data still
    (a float Python prints otherwise stays a float), e.g. to store."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is int or kind is float:
        return _number(value, raw)
    if kind is dict or isinstance(value, Mapping):
        out = {k: js_value(v, order_keys=order_keys, raw=raw) for k, v in value.items()}
        return js_order(out) if order_keys else out
    if kind is list or kind is tuple:
        return [js_value(v, order_keys=order_keys, raw=raw) for v in value]
    if isinstance(value, _Raw):
        return value
    raise TypeError(f"not JSON data: {type(value).__name__}")


def stringify(value: Any, indent: int | None = 2, *, surrogates: bool = True) -> str:
    """``JSON.stringify(value, null, indent)`` (``indent`` 2, or None: compact) of parsed JSON
    data whose objects already list their keys in JavaScript's order (``ordered``); numbers are
    printed as JavaScript prints them. Lone surrogates are escaped as ``\\udxxx``
    (well-formed ``JSON.stringify``); not ``surrogates`` promises there are none (text read from
    a store: UTF-8 holds none), which saves a search of the whole text."""
    if indent == 2:
        text = _pretty(value, "")
    elif indent is None:
        text = _compact(value)
    else:
        raise ValueError("indent must be 2 or None")
    if surrogates and not text.isascii() and _SURROGATE.search(text) is not None:
        text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


_STRING = json.encoder.encode_basestring
"""A string as JSON text, non-ASCII as is (C): the escapes JavaScript writes."""
_HEADS: dict[str, dict[str, str]] = {}
"""Per indentation, per key: the text that starts a member (``\\n    "title": ``)."""


def _scalar(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if type(value) is int and -MAX_SAFE <= value <= MAX_SAFE:
        return int.__repr__(value)
    if type(value) is float:
        text = float.__repr__(value)
        if "e" not in text and text[-2:] != ".0":
            return text  # 1e-4 <= |value| < 1e16, not integral: both languages print it so
    if isinstance(value, _Raw):
        return value.text
    if isinstance(value, (int, float)):
        number = _number(value)
        return number.text if isinstance(number, _Raw) else repr(number)
    raise TypeError(f"not JSON data: {type(value).__name__}")


def _pretty(value: Any, pad: str) -> str:
    """``value`` at indentation ``pad``, as ``JSON.stringify(value, null, 2)`` lays it out.
    Measured at 50k notes: as fast as ``json.dumps(indent=2)``, which prints numbers otherwise."""
    kind = type(value)
    if kind is str:
        return _STRING(value)
    if kind is not dict and kind is not list:
        return _scalar(value)
    if not value:
        return "{}" if kind is dict else "[]"
    inner = pad + "  "
    if kind is dict:
        heads = _HEADS.get(inner)
        if heads is None:
            heads = _HEADS[inner] = {}
        parts = []
        for key, item in value.items():
            head = heads.get(key)
            if head is None:
                head = heads[key] = inner + _STRING(key) + ": "
            parts.append(head + (_STRING(item) if type(item) is str else _pretty(item, inner)))
        return "{\n" + ",\n".join(parts) + "\n" + pad + "}"
    try:
        body = (",\n" + inner).join(map(_STRING, value))  # a list of strings: all in C
    except TypeError:
        body = (",\n" + inner).join([_pretty(item, inner) for item in value])
    return "[\n" + inner + body + "\n" + pad + "]"


def _compact(value: Any) -> str:
    raws: list[_Raw] = []

    def default(obj: Any) -> Any:
        if isinstance(obj, _Raw):
            raws.append(obj)
            return f"{marker}{len(raws) - 1}{marker}"
        raise TypeError(f"not JSON data: {type(obj).__name__}")

    marker = "\x00js" + secrets.token_hex(8) + "\x00"
    text = json.dumps(
        js_value(value, order_keys=False),
        ensure_ascii=False,
        allow_nan=False,
        separators=(",", ":"),
        default=default,
    )
    if raws:
        escaped = json.dumps(marker)[1:-1]
        pattern = re.compile(f'"{re.escape(escaped)}(\\d+){re.escape(escaped)}"')
        text = pattern.sub(lambda m: raws[int(m.group(1))].text, text)
    return text

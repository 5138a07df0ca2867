"""JavaScript's ``JSON.stringify`` for JSON data, for comparing values the way Luker's code does.

Luker decides whether an edit "would change" a field by comparing ``JSON.stringify`` texts, so
``1`` and ``1.0`` are the same value, ``true`` and ``1`` are not, and object keys that look like
array indexes come first in ascending order (JavaScript's own property order).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

_MAX_INDEX = 2**32 - 2  # the largest array index: such keys lead a JavaScript object's key order


def js_json(value: Any) -> str:
    """``JSON.stringify(value)`` for JSON data (mappings, lists/tuples, str, numbers, bool, None).

    Non-finite numbers become ``null`` as in JavaScript. Pure; raises ``TypeError`` for values
    that are not JSON data.
    """
    if value is None or value is True or value is False:
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (int, float)):
        return js_number_text(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(js_json(item) for item in value) + "]"
    if isinstance(value, Mapping):
        indexed = sorted((i, k) for k in value if (i := _index(k)) is not None)
        keys = [k for _, k in indexed] + [k for k in value if _index(k) is None]
        return "{" + ",".join(f"{js_json(str(k))}:{js_json(value[k])}" for k in keys) + "}"
    raise TypeError(f"not JSON data: {type(value).__name__}")


def js_number_text(value: float) -> str:
    """A number as JavaScript prints it: ``3`` not ``3.0``, ``1e+21``, ``1e-7``, ``-0`` as ``0``."""
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return "null"
    if value == 0:
        return "0"
    sign, digits_tuple, exponent = Decimal(repr(value)).as_tuple()
    digits = "".join(map(str, digits_tuple)).rstrip("0") or "0"
    point = len(digits_tuple) + int(exponent)  # decimal point position after the first digit run
    return ("-" if sign else "") + _layout(digits, point)


def _layout(digits: str, point: int) -> str:
    """ECMAScript Number::toString's placement of ``digits`` for decimal exponent ``point``."""
    size = len(digits)
    if size <= point <= 21:
        return digits + "0" * (point - size)
    if 0 < point <= 21:
        return digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return "0." + "0" * -point + digits
    exp = point - 1
    mantissa = digits if size == 1 else digits[0] + "." + digits[1:]
    return f"{mantissa}e{'+' if exp >= 0 else '-'}{abs(exp)}"


def _index(key: Any) -> int | None:
    """The key as an array index when JavaScript treats it as one (canonical digits), else None."""
    text = str(key)
    if not text.isdigit() or not text.isascii() or (len(text) > 1 and text[0] == "0"):
        return None
    number = int(text)
    return number if number <= _MAX_INDEX else None

"""Text helpers shared by search and storage: flattening field values, haystacks, tokens."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from memgraph_gui.core.domain.model import Node

# Luker's keyword tokenizer: lower-case, split on anything that is not a-z, 0-9 or a CJK ideograph.
TOKEN_SPLIT = re.compile(r"[^a-z0-9\u4e00-\u9fff]+")


def js_number(value: float) -> str:
    """Render a number as JavaScript does (``3`` not ``3.0``)."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def flatten_values(value: Any) -> Iterable[str]:
    """Every scalar inside ``value`` as text, depth first."""
    if value is None:
        return
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from flatten_values(item)
    elif hasattr(value, "items"):
        for item in value.values():
            yield from flatten_values(item)
    else:
        text = js_string(value)
        if text:
            yield text


def node_search_text(node: Node) -> str:
    """Lower-cased title + every field value, one per line: the substring-search haystack."""
    values = node.fields.values()
    if all(type(value) is str for value in values):  # the common case, without the walk
        return "\n".join([p for p in (node.title, *values) if p]).lower()
    parts = [node.title, *flatten_values(node.fields)]
    return "\n".join(p for p in parts if p).lower()


def tokenize(text: str) -> list[str]:
    """Luker's keyword tokens of ``text`` (a run of CJK ideographs is one token)."""
    return [t for t in TOKEN_SPLIT.split(text.lower()) if t]


def js_string(value: Any) -> str:
    """JavaScript ``String(value)``: arrays join with ',', objects are ``[object Object]``."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, (list, tuple)):
        return ",".join("" if v is None else js_string(v) for v in value)
    if hasattr(value, "items"):
        return "[object Object]"
    return str(value)


def utf16_prefix(text: str, units: int) -> str:
    """The first ``units`` UTF-16 code units of ``text`` (JS ``slice(0, units)``)."""
    if len(text) <= units // 2 or all(ord(c) < 0x10000 for c in text[:units]):
        return text[:units]
    out, used = [], 0
    for ch in text:
        size = 2 if ord(ch) >= 0x10000 else 1
        if used + size > units:
            break
        out.append(ch)
        used += size
    return "".join(out)

"""Text helpers shared by the searches: flattening field values, the find text, tokens."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
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


FIND_SEPARATOR = "\x00"
"""Between the parts of a node's find text (``node_find_text``): a query without it can only
match inside one part."""


def find_needle(query: str) -> str:
    """What a find looks for: ``query`` without surrounding whitespace, case-folded
    (``str.casefold``: ``Straße`` and ``STRASSE`` both become ``strasse``). ``''`` means no
    query (the window shows everything, ``search_text`` returns nothing)."""
    return query.strip().casefold()


def node_find_parts(node: Node, fields: Mapping[str, Any] | None = None) -> list[str]:
    """The texts a find looks in: the node's id, its title and every scalar inside its field
    values, each on its own (``flatten_values``: list items and mapping values one by one,
    numbers and booleans as JavaScript writes them; field names, mapping keys, brackets and
    quotes are not text). ``fields`` stands in for ``node.fields`` when given (the same
    values, e.g. as ``search.field_maps`` parses them)."""
    values = (node.fields if fields is None else fields).values()
    if all(type(value) is str for value in values):  # the common case, without the walk
        return [p for p in (node.id, node.title, *values) if p]
    scalars = [text for value in values for text in flatten_values(value)]
    return [p for p in (node.id, node.title, *scalars) if p]


def node_find_text(node: Node, fields: Mapping[str, Any] | None = None) -> str:
    """The node's find parts joined by ``FIND_SEPARATOR``, case-folded: a needle (see
    ``find_needle``) without the separator is in it exactly when it is in one of the parts
    (``casefold`` maps each character on its own, so folding the joined text folds each part)."""
    return FIND_SEPARATOR.join(node_find_parts(node, fields)).casefold()


def node_finds(node: Node, needle: str) -> bool:
    """Whether the find ``needle`` (from ``find_needle``, non-empty) is in one of the node's
    find parts: the one definition of a match that every find (the window's Find box, the
    timeline filter, ``search_text``) answers."""
    if FIND_SEPARATOR in needle:  # can only be inside a part that holds the separator itself
        return any(needle in part.casefold() for part in node_find_parts(node))
    return needle in node_find_text(node)


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


def plainly_joined(joined: str, count: int) -> bool:
    """Is ``joined`` (``count`` >= 1 strings joined by one control character, e.g. NUL) plain
    ASCII with no character at or below a space but its ``count - 1`` separators, so that no
    item has anything ``str.strip`` would trim? One numpy pass over its bytes (~0.05 ms for
    20k ids; a regular expression's ``\\s`` took ~0.6 ms). False for no items."""
    if count < 1 or not joined.isascii():
        return False
    import numpy as np  # (here: an import-luker reads no id array and loads no numpy)

    codes = np.frombuffer(joined.encode("ascii"), np.uint8)
    return int(np.count_nonzero(codes <= 32)) == count - 1

"""Nuggets' text rules, exactly as its JavaScript applies them: whitespace, tags, tokens.

JavaScript's ``\\s`` and ``trim`` know a different whitespace set from Python's ``str.split`` /
``str.strip`` (NBSP, U+3000 and U+FEFF are whitespace in both; U+001C-U+001F and U+0085 only in
Python), so every rule here spells the JavaScript set out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

JS_SPACE = "\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
"""The characters of JavaScript's ``\\s`` (and of what ``String.prototype.trim`` strips), as a
character-class body."""
_SPACE_RUN = re.compile(f"[{JS_SPACE}]+")
_EDGES = re.compile(f"^[{JS_SPACE}]+|[{JS_SPACE}]+$")
_BLANK_LINES = re.compile(r"\n{3,}")
_TOKEN = re.compile(r"[a-z0-9/_:-]{2,}")
STOP_WORDS = frozenset(
    "a an and are as at be but by for from has have i in is it its of on or that the this to was"
    " with".split()
)


def js_trim(text: str) -> str:
    """``text.trim()`` in JavaScript."""
    return _EDGES.sub("", text)


def normalise_whitespace(text: str) -> str:
    """Content, values and link reasons as Nuggets stores them: CRLF -> LF, each line trimmed
    with its whitespace runs made one space, three or more newlines made two, the whole trimmed."""
    lines = text.replace("\r\n", "\n").split("\n")
    joined = "\n".join(_SPACE_RUN.sub(" ", js_trim(line)) for line in lines)
    return js_trim(_BLANK_LINES.sub("\n\n", joined))


def normalise_tag(tag: str) -> str:
    """A tag as stored: trimmed, lower-cased, whitespace runs made ``-`` (may be ``''``)."""
    return _SPACE_RUN.sub("-", js_trim(tag).lower())


def unique(items: Iterable[str]) -> list[str]:
    """``items`` without repeats, the first of each kept (JavaScript's ``[...new Set(items)]``)."""
    return list(dict.fromkeys(items))


def normalise_tags(tags: Iterable[str]) -> list[str]:
    """Tags as a write stores them: each normalised, repeats and empties dropped, first kept."""
    return [tag for tag in unique(normalise_tag(t) for t in tags) if tag]


def tokenize(text: str) -> list[str]:
    """Nuggets' tokens: lower-cased runs of ``[a-z0-9/_:-]`` of two or more, minus stop words
    (ASCII only: CJK text gives none)."""
    return [t for t in _TOKEN.findall(text.lower()) if t not in STOP_WORDS]


def title_tags(title: str) -> list[str]:
    """The tags a title (or fact key) implies, in Nuggets' order."""
    lower = title.lower()
    tags = []
    if "pref:" in lower:
        tags.append("preferences")
    if "learn" in lower:
        tags.append("learnings")
    if "/" in lower or "." in lower:
        tags.append("files")
    if "reflect" in lower:
        tags.append("reflection")
    if "style" in lower:
        tags.append("style")
    return tags

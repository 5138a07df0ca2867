"""A note's ``NoteVectorSpec`` (``buildVectorSpec``): the basis terms its FHRR vector is made of."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from memgraph_gui.core.nuggets.text import normalise_tag, tokenize, unique

MAX_TERMS = 20


def note_basis(note: Mapping[str, Any]) -> list[str]:
    """The note's basis terms, in order, repeats dropped, the first 20 kept."""
    titles = [f"title:{t}" for t in tokenize(_text(note.get("title")))[:4]]
    contents = [f"content:{t}" for t in tokenize(_text(note.get("content")))[:6]]
    tags = [f"tag:{normalise_tag(_text(t))}" for t in list(note.get("tags") or ())[:6]]
    links = [f"link:{_link_to(link)}" for link in list(note.get("links") or ())[:4]]
    head = [f"kind:{note.get('kind')}"]
    head += [f"{name}:{note.get(name)}" for name in ("subject", "scope", "type", "source")]
    head += [f"stability:{note.get('stability')}", f"note:{note.get('id')}"]
    return unique([*head, *titles, *contents, *tags, *links])[:MAX_TERMS]


def _text(value: Any) -> str:
    """A stored value as text (a hand-made file may hold a number where text belongs)."""
    if isinstance(value, str):
        return value
    return "" if value is None else json.dumps(value, ensure_ascii=False)


def _link_to(link: Any) -> str:
    """``${link.to}`` in JavaScript: a missing ``to`` (or a link that is not an object) reads
    ``undefined``."""
    if not isinstance(link, Mapping) or "to" not in link:
        return "undefined"
    to = link["to"]
    return to if isinstance(to, str) else "null" if to is None else json.dumps(to)


def utf16_length(text: str) -> int:
    """``text.length`` in JavaScript (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def vector_spec(note: Mapping[str, Any]) -> dict[str, Any]:
    """``{seed, basis}``: ``seed`` is the length of the basis joined by ``|`` in UTF-16 units."""
    basis = note_basis(note)
    return {"seed": utf16_length("|".join(basis)), "basis": basis}

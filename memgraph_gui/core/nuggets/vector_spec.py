"""A note's ``NoteVectorSpec`` (``buildVectorSpec``): the basis terms its FHRR vector is made of."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memgraph_gui.core.nuggets.text import normalise_tag, tokenize, unique

MAX_TERMS = 20


def note_basis(note: Mapping[str, Any]) -> list[str]:
    """The note's basis terms, in order, repeats dropped, the first 20 kept."""
    titles = [f"title:{t}" for t in tokenize(note.get("title", ""))[:4]]
    contents = [f"content:{t}" for t in tokenize(note.get("content", ""))[:6]]
    tags = [f"tag:{normalise_tag(t)}" for t in list(note.get("tags") or ())[:6]]
    links = [f"link:{link.get('to')}" for link in list(note.get("links") or ())[:4]]
    head = [f"kind:{note.get('kind')}"]
    head += [f"{name}:{note.get(name)}" for name in ("subject", "scope", "type", "source")]
    head += [f"stability:{note.get('stability')}", f"note:{note.get('id')}"]
    return unique([*head, *titles, *contents, *tags, *links])[:MAX_TERMS]


def utf16_length(text: str) -> int:
    """``text.length`` in JavaScript (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def vector_spec(note: Mapping[str, Any]) -> dict[str, Any]:
    """``{seed, basis}``: ``seed`` is the length of the basis joined by ``|`` in UTF-16 units."""
    basis = note_basis(note)
    return {"seed": utf16_length("|".join(basis)), "basis": basis}

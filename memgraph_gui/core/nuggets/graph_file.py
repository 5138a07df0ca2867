"""Nuggets' ``graph.json`` read, checked and normalised as Nuggets loads it (no store involved).

The whole document is checked before anything is written anywhere: a file that is not JSON
(empty too; ``NaN`` / ``Infinity`` are not JSON, as ``JSON.parse`` says; nor is a lone surrogate
escape, which no UTF-8 store can hold), not an object, whose ``notes`` is missing (Nuggets would
read no notes, and the import would drop them all) or not a list, with a note lacking ``id`` /
``title`` / ``tags`` (or holding a value Nuggets' own load would fail on: a link without a
string ``reason``, a non-string content), or with two notes sharing an id, raises
``ImportFormatError`` (``BAD_IMPORT``) naming the place, e.g. ``notes[12].title: missing``.

Each note is then normalised as the readings' "graph.json" section says (``normalise_note``): its
keys keep their place (unknown ones too), the keys Nuggets adds come after them in Nuggets' own
order, and the result is the value JavaScript would hold (numbers, key order: ``js_json``), so
that writing it back gives the bytes Nuggets would write.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.nuggets import js_json
from memgraph_gui.core.nuggets.args import json_kind
from memgraph_gui.core.nuggets.metadata import (
    META_KEYS,
    clamp_confidence,
    has_scope_prefix,
    infer_metadata,
    merge_metadata,
    prefix_scoped_key,
)
from memgraph_gui.core.nuggets.text import JS_SPACE, js_trim, normalise_tags, normalise_whitespace
from memgraph_gui.core.storage.safe_io import read_json_bytes

VERSION = 3
"""The graph.json version Nuggets writes (older files are migrated on load)."""
ADDED_KEYS = (
    *("nuggetName", "title", "content", "tags", "links", "vector", "hidden", "kind"),
    *("sourceKey", "hits", "lastHitSession", "createdAt", "updatedAt", "lastAccessedAt"),
    *META_KEYS,
)
"""The keys Nuggets' load sets, in the order it appends those a note lacks."""
UNSET_WHEN_NULL = ("sourceKey", "lastRewrittenAt", "archivedAt")
"""Optional keys: left out when missing or null."""

Progress = Callable[[int, int], None]
"""``progress(done, total)``: notes normalised so far."""

_NEEDS_SPACING = re.compile(
    f"[{JS_SPACE.replace(' ', '').replace(chr(10), '')}]| [ \\n]|\\n |\\n\\n\\n"
)
"""What ``normalise_whitespace`` would change inside a text (besides its two ends)."""
_SPACE_CHARS = frozenset("\t\n\x0b\x0c\r \xa0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | {
    chr(c) for c in range(0x2000, 0x200B)
}
_TAG_CHANGES = re.compile(f"[{JS_SPACE}]")
_INDEX_KEY_TEXT = re.compile(rb'"(?:0|[1-9][0-9]{0,9})"\s*:')
"""An object key JavaScript may order first (an array index): only then are keys reordered."""
_PROGRESS_EVERY = 5_000


@dataclass(frozen=True)
class GraphFile:
    """A graph.json read and normalised: ``notes`` in file order (fresh dicts, JavaScript's
    values), ``version`` as stored (None when absent), ``migrated`` when it was below 3, and the
    file's ``sha256`` (hex) and resolved ``path``."""

    path: str
    sha256: str
    version: Any
    notes: list[dict[str, Any]]

    @property
    def migrated(self) -> bool:
        return _migrates(self.version)


def read_graph_file(path: str | Path, *, now: str, progress: Progress | None = None) -> GraphFile:
    """Read, check and normalise the graph.json at ``path``; ``now`` (``…T12:34:56.789Z``) is the
    import's instant, given to notes without stamps. ``ImportFormatError`` for a bad file (see
    the module); nothing is written. Any thread."""
    source = Path(path)
    try:
        empty = source.stat().st_size == 0
    except OSError as exc:
        raise ImportFormatError("", f"cannot read {source}: {exc.strerror or exc}") from exc
    if empty:
        raise ImportFormatError("", f"{source} is empty: not valid JSON")
    doc, data = read_json_bytes(source, js_numbers=True)  # 1.0 read as 1, as JSON.parse
    # an array-index key, plainly or escaped (``"\\u0031"`` reads as "1"): only then are keys
    # put in JavaScript's order (a walk of every value)
    order_keys = _INDEX_KEY_TEXT.search(data) is not None or b"\\u003" in data
    notes = normalise_document(doc, now=now, order_keys=order_keys, progress=progress)
    version = doc.get("version")
    return GraphFile(str(source.resolve()), hashlib.sha256(data).hexdigest(), version, notes)


def normalise_document(
    doc: Any, *, now: str, order_keys: bool = True, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """The notes of a parsed graph.json document, checked and normalised (see the module).
    ``order_keys`` False promises that no object in ``doc`` has an array-index key (saves a
    walk). ``ImportFormatError`` naming the first problem."""
    if not isinstance(doc, dict):
        raise ImportFormatError("", f"expected a JSON object, found {json_kind(doc)}")
    raw_notes = doc.get("notes")
    if raw_notes is None:  # Nuggets would read no notes, and the import would drop them all
        raise ImportFormatError("notes", "missing: not a Nuggets graph.json")
    if not isinstance(raw_notes, list):
        raise ImportFormatError("notes", f"expected a list, found {json_kind(raw_notes)}")
    migrate = _migrates(doc.get("version"))
    seen: dict[str, int] = {}
    notes = []
    total = len(raw_notes)
    for index, raw in enumerate(raw_notes):
        note = normalise_note(raw, index, now=now, migrate=migrate, order_keys=order_keys)
        first = seen.setdefault(note["id"], index)
        if first != index:
            raise ImportFormatError(
                f"notes[{index}].id", f"{note['id']!r} is also the id of notes[{first}]"
            )
        notes.append(note)
        if progress is not None and (index + 1) % _PROGRESS_EVERY == 0:
            progress(index + 1, total)
    if progress is not None:
        progress(total, total)
    return notes


def _migrates(version: Any) -> bool:
    """Whether a file of ``version`` is migrated: a number below 3 (none: no migration)."""
    return type(version) in (int, float) and version < VERSION


def normalise_note(
    raw: Any, index: int, *, now: str, migrate: bool = False, order_keys: bool = True
) -> dict[str, Any]:
    """One note as Nuggets' load leaves it (a new dict; ``raw`` is not changed)."""
    where = f"notes[{index}]"
    if not isinstance(raw, dict):
        raise ImportFormatError(where, f"expected an object, found {json_kind(raw)}")
    _id, title, tags = _required(raw, where)
    content = _optional_string(raw, "content", where)
    source_key = _optional_string(raw, "sourceKey", where)
    note = js_json.ordered(raw) if order_keys else dict(raw)
    links = _links(note.get("links"), where)
    kind = "fact" if raw.get("kind") == "fact" else "note"
    name = note.get("nuggetName")
    if name is None:
        name = note.get("donnaName")
    note["nuggetName"] = "" if name is None else name
    legacy = migrate and not has_scope_prefix(source_key or title)
    if legacy and kind == "fact":
        note["title"] = prefix_scoped_key(title, content or "", tags)
        if source_key:
            source_key = prefix_scoped_key(source_key, content or "", tags)
    else:
        note["title"] = title if _trimmed(title) else js_trim(title)
    note["content"] = _spaced(content or "")
    note["tags"] = _tags(tags)
    note["links"] = links
    vector = note.get("vector")
    note["vector"] = vector if _js_truthy(vector) else {"seed": 0, "basis": []}
    note["hidden"] = _js_truthy(raw.get("hidden"))
    note["kind"] = kind
    note["sourceKey"] = source_key
    for key, default in (("hits", 0), ("lastHitSession", "")):
        if note.get(key) is None:
            note[key] = default
    created = raw.get("createdAt")
    note["createdAt"] = now if created is None else note["createdAt"]
    if note.get("updatedAt") is None:
        note["updatedAt"] = note["createdAt"]
    if note.get("lastAccessedAt") is None:
        note["lastAccessedAt"] = note["updatedAt"]
    note.update(_metadata(raw, note, kind, tags, content, source_key, legacy))
    for key in UNSET_WHEN_NULL:
        if note.get(key) is None:
            note.pop(key, None)
    return note


def _required(raw: dict[str, Any], where: str) -> tuple[str, str, list[str]]:
    note_id, title, tags = raw.get("id"), raw.get("title"), raw.get("tags")
    for key, value in (("id", note_id), ("title", title), ("tags", tags)):
        if value is None:
            raise ImportFormatError(f"{where}.{key}", "missing")
    if type(note_id) is not str or not note_id:
        raise ImportFormatError(
            f"{where}.id", f"expected a non-empty string, found {json_kind(note_id)}"
        )
    if type(title) is not str:
        raise ImportFormatError(f"{where}.title", f"expected a string, found {json_kind(title)}")
    if type(tags) is not list:
        raise ImportFormatError(f"{where}.tags", f"expected a list, found {json_kind(tags)}")
    for position, tag in enumerate(tags):
        if type(tag) is not str:
            found = json_kind(tag)
            raise ImportFormatError(
                f"{where}.tags[{position}]", f"expected a string, found {found}"
            )
    return note_id, title, tags


def _optional_string(raw: dict[str, Any], key: str, where: str) -> str | None:
    value = raw.get(key)
    if value is not None and type(value) is not str:
        raise ImportFormatError(f"{where}.{key}", f"expected a string, found {json_kind(value)}")
    return value


def _links(value: Any, where: str) -> list[Any]:
    """The note's links without repeats (same target, same reason in any case; first kept),
    dangling ones and reasons as stored. Falsy (none, ``[]``, ``0``, ``""``): no links."""
    if not _js_truthy(value):
        return []
    if type(value) is not list:
        raise ImportFormatError(f"{where}.links", f"expected a list, found {json_kind(value)}")
    seen: set[str] = set()
    kept = []
    for position, link in enumerate(value):
        place = f"{where}.links[{position}]"
        if type(link) is not dict:
            raise ImportFormatError(place, f"expected an object, found {json_kind(link)}")
        target, reason = link.get("to"), link.get("reason")
        if type(target) is not str:
            raise ImportFormatError(f"{place}.to", f"expected a string, found {json_kind(target)}")
        if type(reason) is not str:
            raise ImportFormatError(
                f"{place}.reason", f"expected a string, found {json_kind(reason)}"
            )
        key = f"{target}::{reason.lower()}"  # Nuggets' own key (two pairs may share it)
        if key not in seen:
            seen.add(key)
            kept.append(link)
    return kept


def _metadata(
    raw: dict[str, Any],
    note: dict[str, Any],
    kind: str,
    tags: list[str],
    content: str | None,
    source_key: str | None,
    legacy: bool,
) -> dict[str, Any]:
    """The six fields: stored ?? inferred (from the note as stored), confidence clamped; a
    migrated note's all inferred (from its new title and sourceKey)."""
    stored = {key: note.get(key) for key in META_KEYS}
    if not legacy and None not in stored.values():
        stored["confidence"] = _clamped(stored["confidence"])
        return stored
    inferred = infer_metadata(
        kind=kind,
        title=note["title"] if legacy else raw["title"],
        content=content or "",
        tags=tags,
        source_key=source_key if legacy else raw.get("sourceKey"),
    )
    merged = merge_metadata(inferred, None if legacy else stored)
    merged["confidence"] = _clamped(merged["confidence"])
    return merged


def _clamped(value: Any) -> Any:
    """``clamp_confidence(value)``; a number already in range stays as it is (``1`` stays an
    int, as JavaScript prints it)."""
    if not (type(value) in (int, float) and 0 <= value <= 1):
        value = clamp_confidence(value)
    return int(value) if type(value) is float and value.is_integer() else value  # 1: as JS


def _trimmed(text: str) -> bool:
    return not text or (text[0] not in _SPACE_CHARS and text[-1] not in _SPACE_CHARS)


def _spaced(text: str) -> str:
    """``normalise_whitespace(text)``, skipped for text it would not change."""
    if _trimmed(text) and _NEEDS_SPACING.search(text) is None:
        return text
    return normalise_whitespace(text)


def _tags(tags: list[str]) -> list[str]:
    """``normalise_tags(tags)``, skipped for tags it would not change."""
    joined = "\x00".join(tags)
    if (
        joined == joined.lower()
        and _TAG_CHANGES.search(joined) is None
        and "" not in tags
        and len(set(tags)) == len(tags)
    ):
        return list(tags)
    return normalise_tags(tags)


def _js_truthy(value: Any) -> bool:
    """``!!value`` in JavaScript for a JSON value (``[]`` and ``{}`` are true)."""
    if value is None or value is False:
        return False
    if type(value) in (int, float):
        return bool(value != 0)  # (NaN cannot come from JSON)
    if type(value) is str:
        return value != ""
    return True

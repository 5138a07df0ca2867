"""Which editor each column gets, and how editor values become an ``editNode`` patch.

No Qt here. Luker's schema lists column names only (``tableColumns``, ``requiredColumns``,
``primaryKeyColumns``, free-text ``columnHints``); a column's value may be a string, a number, a
boolean, an array or an object "depending on the column definition". So the editor follows the
stored value, and a column with no value yet falls back to its name and its hint.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from memgraph_gui.core.domain.freeze import thaw
from memgraph_gui.core.domain.schema import TypeSpec


class FieldKind(StrEnum):
    """The editor a column gets."""

    TEXT = "text"
    LONG_TEXT = "long_text"
    NUMBER = "number"
    BOOL = "bool"
    LIST = "list"
    CHOICE = "choice"
    JSON = "json"
    STAMP = "stamp"
    """An ISO 8601 UTC stamp, shown read-only and short (the whole stamp as tooltip)."""


LONG_COLUMNS = frozenset({"summary", "note", "description", "content", "body", "text"})
"""Columns that hold prose: a multi-line editor even when short."""
LIST_COLUMNS = frozenset({"aliases", "tags", "keywords"})
"""Columns that are arrays in Luker's own examples (``aliases: ['艾琳']``) when still empty."""
LONG_TEXT_CHARS = 60
_ONE_OF = re.compile(r"\bone of\s*:?\s*(?P<items>[^.\n]+)", re.IGNORECASE)
_WORD = re.compile(r"[\w-]+")


@dataclass(frozen=True, slots=True)
class ColumnSpec:
    """One row of the field form."""

    name: str
    kind: FieldKind
    required: bool = False
    primary_key: bool = False
    hint: str = ""
    choices: tuple[str, ...] = ()
    in_schema: bool = True
    read_only: bool = False
    """Shown, never edited (a note's hits and stamps)."""
    strict: bool = False
    """A ``CHOICE`` that takes only one of ``choices`` (a note's scope, type, ...)."""
    bounds: tuple[float, float] | None = None
    """A ``NUMBER``'s allowed range, both ends included (a note's confidence)."""
    protected: tuple[str, ...] = ()
    """``LIST`` items that cannot be removed or edited (a note's system tags)."""
    section: str = ""
    """A heading shown above the first row of each new section ('' for none)."""


def columns_for(spec: TypeSpec | None, fields: Mapping[str, Any]) -> list[ColumnSpec]:
    """The form's rows: the type's columns in schema order, then fields the schema lacks.

    The ``title`` column is the node's title (edited in the header), so it gets no row unless
    the fields really hold a ``title`` value.
    """
    out: list[ColumnSpec] = []
    if spec is not None:
        hints = spec.raw.get("columnHints") or {}
        for name in spec.columns:
            if name.lower() == "title" and name not in fields:
                continue
            hint = str(hints.get(name, ""))
            out.append(
                ColumnSpec(
                    name,
                    kind_of(name, fields.get(name), hint),
                    required=name in spec.required,
                    primary_key=name in spec.primary_key,
                    hint=hint,
                    choices=choices_from_hint(hint),
                )
            )
    known = {c.name for c in out} | set(spec.columns if spec is not None else ())
    for name in sorted(k for k in fields if k not in known):
        out.append(ColumnSpec(name, kind_of(name, fields[name], ""), in_schema=spec is None))
    return out


def kind_of(name: str, value: Any, hint: str = "") -> FieldKind:
    """The editor for ``value`` in column ``name`` (its name and hint decide when it is empty)."""
    if isinstance(value, bool):
        return FieldKind.BOOL
    if isinstance(value, (int, float)):
        return FieldKind.NUMBER
    if isinstance(value, (list, tuple)):
        return FieldKind.LIST
    if isinstance(value, Mapping):
        return FieldKind.JSON
    text = "" if value is None else str(value)
    choices = choices_from_hint(hint)
    if choices and (not text or text in choices):
        return FieldKind.CHOICE
    if name.lower() in LONG_COLUMNS or "\n" in text or len(text) > LONG_TEXT_CHARS:
        return FieldKind.LONG_TEXT
    if value is None and name.lower() in LIST_COLUMNS:
        return FieldKind.LIST
    return FieldKind.TEXT


def choices_from_hint(hint: str) -> tuple[str, ...]:
    """The values a hint such as "One of: active (推进中) / resolved / abandoned." allows."""
    match = _ONE_OF.search(hint or "")
    if match is None:
        return ()
    out: list[str] = []
    for part in re.split(r"[/|,]", match.group("items")):
        word = _WORD.search(part)
        if word and word.group(0) not in out:
            out.append(word.group(0))
    return tuple(out) if len(out) >= 2 else ()


def display_text(value: Any) -> str:
    """A scalar or object as editable text (objects and arrays as pretty JSON)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return json.dumps(thaw(value), ensure_ascii=False, indent=2)


def parse_number(text: str) -> int | float:
    """A finite number from ``text`` (an int when it is whole); ``ValueError`` otherwise."""
    stripped = text.strip().replace(",", "")
    try:
        return int(stripped)
    except ValueError:
        number = float(stripped)
    if not math.isfinite(number):
        raise ValueError(text)
    return number


def parse_json(text: str) -> Any:
    """JSON text as a value; ``ValueError`` naming the line when it does not parse."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc


def list_item_text(item: Any) -> str:
    """One list item as one line of text (strings as they are, anything else as JSON)."""
    if isinstance(item, str):
        return item
    return json.dumps(thaw(item), ensure_ascii=False)


def is_empty(value: Any) -> bool:
    """True for values that mean "clear this field" (nothing, blank text, an empty list)."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, tuple, Mapping)):
        return len(value) == 0
    return False


def patch_for(column: str, value: Any) -> tuple[dict[str, Any], list[str]]:
    """``(setFields, clearFields)`` for one column: an empty value clears it."""
    if is_empty(value):
        return {}, [column]
    return {column: thaw(value)}, []


def same_value(a: Any, b: Any) -> bool:
    """Equal as JSON data (tuples and lists alike; ``None`` and blank text alike)."""
    if is_empty(a) and is_empty(b):
        return True
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    return bool(thaw(a) == thaw(b))


def list_value(items: Sequence[Any]) -> list[Any]:
    """List items without the blank ones."""
    return [i for i in items if not (isinstance(i, str) and not i.strip())]


_STAMP = re.compile(r"^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$")


def stamp_text(value: Any) -> str:
    """``2026-11-20T09:15:00.000Z`` as ``2026-11-20 09:15:00`` (anything else as it is)."""
    text = display_text(value)
    match = _STAMP.match(text)
    return f"{match.group(1)} {match.group(2)}" if match else text

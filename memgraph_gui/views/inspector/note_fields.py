"""The field form's rows for a Nuggets note, in three sections: the note, its metadata, its use.

No widgets here. The value sets, the confidence range, the system tags and which fields are the
desk's to edit come from ``app.notes`` (the seed's, as the Nuggets API applies them); each row's
tooltip says what the field means.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memgraph_gui.app import notes
from memgraph_gui.views.inspector.field_kinds import ColumnSpec, FieldKind
from memgraph_gui.views.qt import tr

_HINTS = {
    "content": "The note's body, or the fact's value. Nuggets normalises its whitespace.",
    "tags": "Lower-cased, hyphenated tags. The nugget's name, scope:* and type:* are system "
    "tags: Nuggets writes them itself and they stay.",
    "kind": "fact: mirrored from the fact store (remember). note: a free-form note.",
    "hidden": "Hidden notes are left out of listNotes and searchNotes. Restore brings one back.",
    "subject": "Whose memory this is: user:primary, assistant:self, shared:project, "
    "session:current, …",
    "scope": "Who the memory belongs to.",
    "type": "What kind of memory this is.",
    "source": "How the memory was acquired.",
    "stability": "temporary: expected to expire after the session; durable: it lasts.",
    "confidence": "How certain the content is, from 0 to 1.",
    "hits": "How many distinct sessions recalled this note (Nuggets counts them).",
    "lastHitSession": "The session of the latest recall ('' if never recalled).",
    "createdAt": "When the note was first written (UTC).",
    "updatedAt": "When the note was last written (UTC).",
    "lastAccessedAt": "When the note was last read or recalled (UTC).",
    "lastRewrittenAt": "When a merge or a reflection last rewrote the note (UTC).",
    "archivedAt": "When the note was hidden (UTC).",
    "nuggetName": "The nugget that owns the note (it never changes).",
    "sourceKey": "The fact's key (it follows the title).",
}
_OPTIONAL = ("lastRewrittenAt", "archivedAt", "sourceKey")


def _column(name: str, kind: FieldKind, section: str = "", **extra: Any) -> ColumnSpec:
    return ColumnSpec(
        name,
        kind,
        hint=tr(_HINTS.get(name, "")),
        section=section,
        read_only=name in notes.READ_ONLY,
        **extra,
    )


def note_columns(note: Mapping[str, Any]) -> list[ColumnSpec]:
    """The rows for ``note`` (its JSON): content, tags (system tags protected), kind, hidden;
    the six metadata fields with their value sets; hits, the session and the stamps, read-only
    (the optional stamps and ``sourceKey`` only when the note has them)."""
    nugget = str(note.get("nuggetName", ""))
    choice = FieldKind.CHOICE
    rows = [
        _column("content", FieldKind.LONG_TEXT, tr("Note")),
        _column("tags", FieldKind.LIST, protected=notes.system_tag_patterns(nugget)),
        _column("kind", choice, choices=notes.KINDS, strict=True),
        _column("hidden", FieldKind.BOOL),
        _column("scope", choice, tr("Metadata"), choices=notes.SCOPES, strict=True),
        _column("subject", FieldKind.TEXT),
        _column("type", choice, choices=notes.TYPES, strict=True),
        _column("source", choice, choices=notes.SOURCES, strict=True),
        _column("stability", choice, choices=notes.STABILITIES, strict=True),
        _column("confidence", FieldKind.NUMBER, bounds=notes.CONFIDENCE_RANGE),
        _column("hits", FieldKind.NUMBER, tr("Use")),
        _column("lastHitSession", FieldKind.TEXT),
        _column("createdAt", FieldKind.STAMP),
        _column("updatedAt", FieldKind.STAMP),
        _column("lastAccessedAt", FieldKind.STAMP),
    ]
    rows += [
        _column(name, FieldKind.TEXT if name == "sourceKey" else FieldKind.STAMP)
        for name in _OPTIONAL
        if note.get(name) is not None
    ]
    rows.append(_column("nuggetName", FieldKind.TEXT))
    return rows

"""The desk's side of a Nuggets note: what a view may know of one, and the writes it may ask for.

Views never import ``core.nuggets``; they read a note's Nuggets fields, its value sets, system
tags and a merge preview here, and write through the factories below, each one Nuggets API call
on the single writer (so normalisation and inference apply exactly as for an agent) and one undo
step.

Every field edit carries the value it was based on (``expected``). Inside the write's own
transaction (after every other process's commit, before anything is staged), a field that moved
on to something else than the edit proposes refuses the edit with ``EDIT_CONFLICT`` (details
shaped as the Write API's: ``nodeId``, ``expected`` / ``current`` / ``proposed`` as ``{title?,
fields?: {name: value}}``), and nothing is written: another process's edit is never
overwritten silently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memgraph_gui.app.nuggets_desk import is_note
from memgraph_gui.app.qt import tr
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.freeze import thaw
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.nuggets import metadata, model
from memgraph_gui.core.nuggets.api import NuggetsApi
from memgraph_gui.core.nuggets.merge_preview import MergePreview, merge_preview
from memgraph_gui.core.nuggets.text import js_trim, normalise_tag, normalise_tags
from memgraph_gui.core.nuggets.text import normalise_whitespace as normalise_content

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core.memory import MemoryStore

Preview = MergePreview
"""What ``preview_merge`` answers (for the views' annotations)."""
OnError = Callable[[MemgraphError], None] | None
OnDone = Callable[[Any], None] | None

SCOPES: tuple[str, ...] = metadata.SCOPES
TYPES: tuple[str, ...] = metadata.TYPES
SOURCES: tuple[str, ...] = metadata.SOURCES
STABILITIES: tuple[str, ...] = metadata.STABILITIES
KINDS: tuple[str, ...] = model.KINDS
CHOICES: dict[str, tuple[str, ...]] = {
    "kind": KINDS,
    "scope": SCOPES,
    "type": TYPES,
    "source": SOURCES,
    "stability": STABILITIES,
}
"""The seed's value sets of the note fields that take one of them."""
CONFIDENCE_RANGE = (0.0, 1.0)
EDITABLE = ("title", "content", "tags", "kind", *metadata.META_KEYS)
"""The fields the desk edits (``updateNote`` / ``editNote``); the rest are the agent's."""
READ_ONLY = (
    "hidden",
    "hits",
    "lastHitSession",
    "createdAt",
    "updatedAt",
    "lastAccessedAt",
    "lastRewrittenAt",
    "archivedAt",
    "nuggetName",
    "sourceKey",
)
"""Fields shown but never edited here (hits and stamps are Nuggets' own; ``hidden`` changes by
Hide / Restore)."""


def note_of(node: Node | None) -> dict[str, Any] | None:
    """The note ``node`` stores, as Nuggets' JSON (a fresh dict), or None for any other node."""
    if node is None or not is_note(node):
        return None
    return model.note_json(node)


SYSTEM_PREFIXES = ("scope:", "type:")
"""The prefixes of the system tags Nuggets writes from a note's metadata."""


def is_system_tag(tag: str, nugget: str) -> bool:
    """Whether ``tag`` is one Nuggets writes itself: the nugget's name, ``scope:*``, ``type:*``."""
    return tag == normalise_tag(nugget) or tag.startswith(SYSTEM_PREFIXES)


def system_tag_patterns(nugget: str) -> tuple[str, ...]:
    """``is_system_tag`` as a tag list editor's protected entries: the nugget's own tag (when
    its name gives one) and the prefixes (an entry ending in ``:`` matches by prefix)."""
    own = normalise_tag(nugget)
    return (own, *SYSTEM_PREFIXES) if own else SYSTEM_PREFIXES


def system_tags(note: Mapping[str, Any]) -> list[str]:
    """The note's system tags, in its tag order."""
    nugget = str(note.get("nuggetName", ""))
    return [t for t in note.get("tags") or () if isinstance(t, str) and is_system_tag(t, nugget)]


def with_system_tags(tags: Sequence[str], stored: Mapping[str, Any]) -> list[str]:
    """``tags`` as the person edited them with every system tag of ``stored`` kept (protected
    from removal): the ones they dropped go back at their stored place among the others."""
    kept = list(tags)
    nugget = str(stored.get("nuggetName", ""))
    stored_tags = [t for t in stored.get("tags") or () if isinstance(t, str)]
    for index, tag in enumerate(stored_tags):
        if is_system_tag(tag, nugget) and tag not in kept:
            kept.insert(min(index, len(kept)), tag)
    return kept


# -- conflicts --------------------------------------------------------------------------------
def _normalised(field: str, value: Any) -> Any:
    """``value`` as Nuggets stores it for ``field`` (to tell agreement from a conflict)."""
    if field == "content" and isinstance(value, str):
        return normalise_content(value)
    if field == "title" and isinstance(value, str):
        return js_trim(value)
    if field == "tags" and isinstance(value, (list, tuple)):
        return normalise_tags(str(t) for t in value)
    if field == "confidence":
        return metadata.clamp_confidence(value)
    return thaw(value)


def _entry(field: str, value: Any) -> dict[str, Any]:
    return {"title": value} if field == "title" else {"fields": {field: value}}


def check_expected(note: Mapping[str, Any], field: str, expected: Any, proposed: Any) -> None:
    """Raise ``EDIT_CONFLICT`` when the stored ``field`` moved on from ``expected`` to something
    other than what ``proposed`` would store (a change to the very value proposed is agreement)."""
    stored = thaw(note.get(field))
    if stored == thaw(expected) or stored == _normalised(field, proposed):
        return
    raise MemgraphError(
        "EDIT_CONFLICT",
        f"edit {note.get('id')}: {field} was changed by another writer since you started "
        "editing. Nothing was written.",
        nodeId=note.get("id"),
        expected=_entry(field, thaw(expected)),
        current=_entry(field, stored),
        proposed=_entry(field, thaw(proposed)),
    )


# -- reads ------------------------------------------------------------------------------------
def _fresh_note(store: MemoryStore, note_id: str) -> dict[str, Any]:
    """The note as stored now, other processes' commits included (writer thread)."""
    store.sync()
    with store.reading() as graph:
        note = note_of(graph.nodes.get(note_id))
    if note is None:
        raise MemgraphError("NOTE_NOT_FOUND", f"edit {note_id}: the note is gone.", nodeId=note_id)
    return note


def _nuggets(store: MemoryStore, nugget: str, origin: str) -> NuggetsApi:
    """The Nuggets API of ``nugget``, writing as ``origin`` (the window's undo history)."""
    return store.nuggets(nugget, origin=origin)


def _answer(result: Any, what: str, note_id: str) -> Any:
    """Nuggets refuses with null / false: say so as an error a field can show."""
    if result is None or result is False:
        raise MemgraphError("OP_FAILED", f"{what} {note_id}: Nuggets refused it.", nodeId=note_id)
    return result


# -- writes -----------------------------------------------------------------------------------
def edit_field(
    app: AppModel,
    note_id: str,
    field: str,
    value: Any,
    *,
    expected: Any,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Write one field of a note through Nuggets (one undo step); ``expected`` is the value the
    person started from (``EDIT_CONFLICT`` when it moved on, see the module docstring).

    ``content`` goes through ``editNote(id, content)``, the other ``EDITABLE`` fields through
    ``updateNote(id, {field: value})``: a new title changes no metadata, tags keep their system
    tags (``with_system_tags``), Nuggets normalises, clamps and re-tags as it does for an agent.
    A confidence outside [0, 1] or a value outside a field's value set is refused (``BAD_ARGS``)
    before anything is written. ``on_done`` gets the note as stored.
    """
    if field not in EDITABLE:
        raise MemgraphError("BAD_ARGS", f"edit {note_id}: {field} is not edited here.")

    def write(api: NuggetsApi, note: Mapping[str, Any]) -> Any:
        proposed = _proposal(field, value, note)

        def check(stored: Mapping[str, Any]) -> None:
            check_expected(stored, field, expected, proposed)

        guarded = api.checked(note_id, check)
        if field == "content":
            return guarded.edit_note(note_id, proposed)
        return guarded.update_note(note_id, {field: proposed})

    _write_note(app, note_id, "edit", write, initiator, on_done, on_error)


def _proposal(field: str, value: Any, note: Mapping[str, Any]) -> Any:
    """The value to hand Nuggets for ``field`` (blank content is ``""``); ``BAD_ARGS`` for a
    value the field cannot take."""
    if field in ("content", "title", "subject"):
        text = "" if value is None else value
        if not isinstance(text, str):
            raise MemgraphError("BAD_ARGS", f"{field} must be text.")
        if field == "title" and not js_trim(text):
            raise MemgraphError("BAD_ARGS", "A note needs a title.")
        return text
    if field == "tags":
        items = [] if value is None else list(value)
        if not all(isinstance(t, str) for t in items):
            raise MemgraphError("BAD_ARGS", "Tags are text.")
        return with_system_tags(items, note)
    if field == "confidence":
        low, high = CONFIDENCE_RANGE
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not low <= value <= high
        ):
            raise MemgraphError("BAD_ARGS", "Confidence is a number from 0 to 1.")
        return float(value)
    choices = CHOICES.get(field, ())
    if value not in choices:
        raise MemgraphError("BAD_ARGS", f"{field} is one of {', '.join(choices)}.")
    return value


def hide_note(
    app: AppModel,
    note_id: str,
    *,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Hide (soft-delete) a note: Nuggets' ``deleteNote(id)`` (one undo step)."""

    def write(api: NuggetsApi, _note: Mapping[str, Any]) -> Any:
        return api.delete_note(note_id)

    _write_note(app, note_id, "hide", write, initiator, on_done, on_error)


def restore_note(
    app: AppModel,
    note_id: str,
    *,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Bring a hidden note back: ``updateNote(id, {hidden: false})`` (one undo step)."""

    def write(api: NuggetsApi, _note: Mapping[str, Any]) -> Any:
        return api.update_note(note_id, {"hidden": False})

    _write_note(app, note_id, "restore", write, initiator, on_done, on_error)


def _write_note(
    app: AppModel,
    note_id: str,
    what: str,
    write: Callable[[NuggetsApi, Mapping[str, Any]], Any],
    initiator: object | None,
    on_done: OnDone,
    on_error: OnError,
) -> None:
    """Run ``write(api, note)`` on the writer with the Nuggets API of the note's nugget (as the
    window's origin) and the note as stored now; a refusal (null / false) is ``OP_FAILED``."""
    origin = app.origin

    def op(store: MemoryStore) -> Any:
        note = _fresh_note(store, note_id)
        api = _nuggets(store, str(note.get("nuggetName", "")), origin)
        return _answer(write(api, note), what, note_id)

    app.run_store_op(op, initiator=initiator, on_done=on_done, on_error=on_error)


# -- merge ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MergeCandidates:
    """Two notes of one nugget that can be merged (``first`` / ``second`` as selected)."""

    nugget: str
    first: dict[str, Any]
    second: dict[str, Any]


def merge_candidates(app: AppModel, ids: Sequence[str]) -> MergeCandidates | str:
    """The two selected notes, or why they cannot be merged (a sentence for the person)."""
    if len(ids) != 2:
        return tr("Select exactly two notes to merge ({count} selected now).").format(
            count=len(ids)
        )
    nodes = [app.node(node_id) for node_id in ids]
    notes = [note_of(node) for node in nodes]
    for node_id, node, note in zip(ids, nodes, notes, strict=True):
        if note is None:
            what = node.title if node is not None else node_id
            return tr("“{title}” is not a Nuggets note: only notes can be merged.").format(
                title=what
            )
    first, second = notes
    assert first is not None and second is not None
    if first.get("nuggetName") != second.get("nuggetName"):
        return tr(
            "“{a}” belongs to the nugget “{na}” and “{b}” to “{nb}”: only notes of one "
            "nugget can be merged."
        ).format(
            a=first.get("title"),
            na=first.get("nuggetName"),
            b=second.get("title"),
            nb=second.get("nuggetName"),
        )
    if app.read_only:
        return tr("This memory is read-only: nothing can be merged.")
    return MergeCandidates(str(first.get("nuggetName", "")), first, second)


def preview_merge(app: AppModel, target_id: str, source_id: str) -> MergePreview | None:
    """What ``mergeNotes(target, source, …)`` will make of the target (None if one is gone)."""
    target = note_of(app.node(target_id))
    source = note_of(app.node(source_id))
    if target is None or source is None:
        return None
    nugget = target.get("nuggetName")
    with app.store.reading() as graph:
        others = [
            model.note_json(node)
            for node in graph.nodes.values()
            if model.is_note(node)
            and model.nugget_of(node) == nugget
            and node.id not in (target_id, source_id)
            and _links_to(node, source_id)
        ]
    return merge_preview(target, source, others)


def _links_to(node: Node, note_id: str) -> bool:
    """Whether the note ``node`` holds a link to ``note_id`` (dangling or not)."""
    links = node.fields.get("links") or ()
    return any(isinstance(link, Mapping) and link.get("to") == note_id for link in links)


def merge_notes(
    app: AppModel,
    target_id: str,
    source_id: str,
    reason: str,
    *,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """``mergeNotes(target, source, reason)`` of the notes' nugget (one undo step); ``on_done``
    gets the merged target; a refusal (a note gone, another nugget's) reaches ``on_error``."""
    origin = app.origin

    def op(store: MemoryStore) -> Any:
        target = _fresh_note(store, target_id)
        source = _fresh_note(store, source_id)
        if target.get("nuggetName") != source.get("nuggetName"):
            raise MemgraphError("BAD_ARGS", "Only notes of one nugget can be merged.")
        api = _nuggets(store, str(target.get("nuggetName", "")), origin)
        return _answer(api.merge_notes(target_id, source_id, reason), "merge", target_id)

    app.run_store_op(op, initiator=initiator, on_done=on_done, on_error=on_error)


@dataclass(frozen=True, slots=True)
class NoteLink:
    """One of a note's links as stored: ``to`` (an id), ``reason``, ``created_at``; the
    target's ``title`` and ``type``, or None when no such note exists (a dangling link)."""

    to: str
    reason: str
    created_at: str
    title: str | None
    type: str | None = None


def note_links(app: AppModel, note: Mapping[str, Any]) -> list[NoteLink]:
    """``note``'s links in stored order, each with its target's title (None: dangling)."""
    out = []
    for link in note.get("links") or ():
        if not isinstance(link, Mapping):
            continue
        to = str(link.get("to", ""))
        target = app.node(to) if to else None
        out.append(
            NoteLink(
                to,
                str(link.get("reason", "")),
                str(link.get("createdAt", "")),
                target.title if target is not None else None,
                target.type if target is not None else None,
            )
        )
    return out

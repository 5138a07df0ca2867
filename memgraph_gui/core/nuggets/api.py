"""``NuggetsApi``: one nugget's notes over one store, with Nuggets' own methods and rules
(``../shared/seeds/nuggets-graph-layer.txt``, ``../shared/nuggets-readings.md``).

Python names, Nuggets' positional order: ``remember(key, value, meta)``, ``create_note(title,
content, tags, meta)``, ``edit_note(id, content, updates)``, ``update_note(id, partial)``,
``delete_note(id, hard)``, ``add_link(a, b, reason)``, ``merge_notes(target, source, reason)``,
``record_hit(id, session)``, ``get_note(id)``, ``list_notes(filter)``. Options, metadata and
partial notes use the seed's camelCase keys; a note comes back as its MemoryNote JSON (a fresh
dict the caller may keep).

- A call sees only its nugget's notes: another nugget's note counts as missing.
- Each write is one store transaction, one ChangeSet and one undo step (op ``NUGGETS``) with a
  readable label ("Remember 'deploy-cmd'"); all of a call's stamps are one UTC instant in
  JavaScript's ``toISOString`` form. A refusal (a missing note, an empty key, a note linked to
  itself) answers ``None`` / ``False`` and writes nothing at all (no batch in the change log).
- The wrong argument type raises ``BAD_ARGS`` naming the place, before anything is read.
- Every write rebuilds the vector spec of each note it changes; reads change nothing.
- ``checked(note_id, check)`` gives the same API with a guard: each write first runs
  ``check(note)`` on that note as stored inside the write's own transaction (after every other
  process's commit); whatever ``check`` raises rolls the write back, so nothing can land
  between the check and the write (the desk's edit-conflict test).

The counters of Nuggets' own fact list (the hits and session ``remember`` copies into a fact's
note) are kept in the store's meta (``fact_meta_key``), one key per remembered fact, so they
undo with the step that changed them and leave graph.json alone.

Thread-safe (the store serialises writes); every method runs on the caller's thread.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.tx import Tx
from memgraph_gui.core.nuggets import args, reads
from memgraph_gui.core.nuggets.metadata import infer_metadata, merge_metadata
from memgraph_gui.core.nuggets.model import (
    NoteList,
    is_note,
    note_json,
    nugget_of,
    stage_note,
    unstage_note,
)
from memgraph_gui.core.nuggets.text import (
    js_trim,
    normalise_tags,
    normalise_whitespace,
    title_tags,
    unique,
)
from memgraph_gui.core.nuggets.vector_spec import vector_spec
from memgraph_gui.core.storage.store import Store

if TYPE_CHECKING:
    from memgraph_gui.core.nuggets.note_index import NoteIndex

FACT_META = "nuggetFact"
"""The first item of a fact counter's meta key (see ``fact_meta_key``)."""
LABEL_CHARS = 40
_PARTIAL_TEXTS = (
    *("lastHitSession", "lastAccessedAt", "lastRewrittenAt", "archivedAt"),
    *("kind", "sourceKey", "subject", "scope", "type", "source", "stability"),
)
"""The string fields ``updateNote`` sets as given (title and content are normalised first)."""
NoteCheck = Callable[[Mapping[str, Any]], None]
"""A guard of ``NuggetsApi.checked``: raises to refuse a write, given the note as stored."""


def iso_now() -> str:
    """Now, as JavaScript's ``new Date().toISOString()`` writes it (UTC, milliseconds, ``Z``)."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def fact_meta_key(nugget: str, key: str) -> str:
    """The meta key of the counters of ``nugget``'s fact ``key`` (any case)."""
    return json.dumps([FACT_META, nugget, key.lower()], ensure_ascii=False)


def quoted(title: str) -> str:
    """``'title'`` for an undo label: one line, at most ``LABEL_CHARS`` characters."""
    line = " ".join(title.split())
    if len(line) > LABEL_CHARS:
        line = line[: LABEL_CHARS - 1].rstrip() + "…"
    return f"'{line}'"


def dedupe_links(links: list[Any]) -> list[Any]:
    """A note's links unique by target + lower-cased reason, the first of each kept."""
    seen: set[tuple[str, str]] = set()
    out = []
    for link in links:
        if not isinstance(link, Mapping):  # not a link (a hand-made file): left as it is
            out.append(link)
            continue
        key = (str(link.get("to")), str(link.get("reason", "")).lower())
        if key not in seen:
            seen.add(key)
            out.append(link)
    return out


class NuggetsApi:
    """The Nuggets methods of the nugget ``name`` (verbatim: ``"My Work"`` is its own nugget)
    over ``store``. ``origin`` names the writer in the change log (default: this process)."""

    def __init__(self, store: Store, name: str, *, origin: str | None = None) -> None:
        self._store = store
        self.name = args.text(name, "the nugget name")
        self._origin = origin
        self._guard: tuple[str, NoteCheck] | None = None

    def checked(self, note_id: str, check: NoteCheck) -> NuggetsApi:
        """This API (same store, nugget and origin) whose every write first runs ``check(note)``
        inside its own transaction, on the note ``note_id`` as stored then (Nuggets' JSON, not
        to be changed), before anything is staged. What ``check`` raises leaves the call with
        nothing written; a missing note is not checked (the call answers None / False as
        usual). Reads are not checked."""
        guarded = NuggetsApi(self._store, self.name, origin=self._origin)
        guarded._guard = (note_id, check)
        return guarded

    # -- reads -------------------------------------------------------------------------------------
    def get_note(self, id: Any) -> dict[str, Any] | None:
        """``getNote``: the note ``id`` (hidden too), or None. Writes nothing."""
        note_id = args.text(id, "getNote: id")
        with self._store.reading() as graph:
            node = reads.get_note(graph, self.name, note_id)
            return None if node is None else note_json(node)

    def list_notes(self, filter: Any = None) -> NoteList:
        """``listNotes``: hidden ones only with ``includeHidden``; ``subject`` / ``scope`` /
        ``type`` exact (empty: no filter); oldest ``updatedAt`` first, ties in storage order.

        Returns a read-only ``NoteList`` (a sequence equal to the list of note dicts): the
        notes as they are now, each made a fresh dict only when read (~30 µs a note), so
        answering takes the selection's time alone; later writes do not change it, and it
        may be read on any thread. ``to_json()`` gives the plain list (the JSON boundary's)."""
        options = _filter(filter, "listNotes: filter")
        with self._store.reading() as graph:
            return NoteList(reads.list_notes(graph, self.name, options))

    def search_notes(
        self, query: Any, limit: Any = None, filter: Any = None
    ) -> list[dict[str, Any]]:
        """``searchNotes``: ``[{note, score, vectorScore, textScore}]``, best first, exact to
        Nuggets (``search.search_notes``); ``limit`` as JavaScript's ``slice`` takes it (None:
        5). Candidates are ``listNotes(filter)`` (hidden ones with ``includeHidden``, as the
        seed says). Writes nothing."""
        text = args.text(query, "searchNotes: query")
        options = _filter(filter, "searchNotes: filter")
        count = None if limit is None else args.number(limit, "searchNotes: limit")
        from memgraph_gui.core.nuggets import search  # numpy: only when searching

        with self._store.reading() as graph:
            return search.search_notes(graph, self.name, text, count, options)

    # -- writes ------------------------------------------------------------------------------------
    def remember(self, key: Any, value: Any, meta: Any = None) -> None:
        """``remember``: mirror the fact ``key`` = ``value`` into its note (``fact-...``), found
        by ``sourceKey`` in any case, hidden too; either trimmed empty: nothing. Undoable."""
        key = js_trim(args.text(key, "remember: key"))
        value = js_trim(args.text(value, "remember: value"))
        given = args.meta(meta, "remember: meta")
        if not key or not value:
            return
        with self._batch(f"Remember {quoted(key)}") as batch:
            counters = batch.fact(key) or {"hits": 0, "lastHitSession": ""}
            batch.set_fact(key, {"key": key, **_counters(counters)})
            existing = batch.fact_note(key)
            if existing is None:
                note: dict[str, Any] = {
                    "id": batch.new_id("fact"),
                    "nuggetName": self.name,
                    "title": key,
                    "content": "",
                    "tags": [],
                    "links": [],
                    "vector": {"seed": 0, "basis": []},
                    "hidden": False,
                    "kind": "fact",
                    "sourceKey": key,
                    "hits": 0,
                    "lastHitSession": "",
                    "createdAt": batch.now,
                    "updatedAt": batch.now,
                    "lastAccessedAt": batch.now,
                }
            else:
                note = existing
            inferred = infer_metadata(
                kind="fact", title=key, content=value, tags=_tags(note), source_key=key
            )
            metadata = merge_metadata(inferred, existing, given)
            note.update(title=key, content=normalise_whitespace(value), hidden=False)
            note.pop("archivedAt", None)  # seed: a visible note has none
            note["sourceKey"] = key
            system = [self.name, f"scope:{metadata['scope']}", f"type:{metadata['type']}"]
            note["tags"] = normalise_tags([*_tags(note), *system, *title_tags(key)])
            note.update(_counters(counters), updatedAt=batch.now, **metadata)
            batch.put(note)

    def create_note(
        self, title: Any, content: Any, tags: Any = None, meta: Any = None
    ) -> dict[str, Any]:
        """``createNote``: a new note (``note-...``), metadata inferred from the title, content,
        title tags and given tags unless given. Undoable; returns the note."""
        title = args.text(title, "createNote: title")
        content = args.text(content, "createNote: content")
        given_tags = [] if tags is None else args.texts(tags, "createNote: tags")
        given = args.meta(meta, "createNote: meta")
        trimmed = js_trim(title)
        body = normalise_whitespace(content)
        own_tags = normalise_tags([*title_tags(title), *given_tags])
        inferred = infer_metadata(
            kind="note", title=trimmed, content=body, tags=own_tags, source_key=None
        )
        metadata = merge_metadata(inferred, None, given)
        with self._batch(f"Create note {quoted(trimmed)}") as batch:
            note_id = batch.new_id("note")
            system = [f"scope:{metadata['scope']}", f"type:{metadata['type']}"]
            note = {
                "id": note_id,
                "nuggetName": self.name,
                "title": trimmed,
                "content": body,
                "tags": normalise_tags([self.name, *own_tags, *system]),
                "links": [],
                "vector": {"seed": 0, "basis": []},
                "hidden": False,
                "kind": "note",
                "hits": 0,
                "lastHitSession": "",
                "createdAt": batch.now,
                "updatedAt": batch.now,
                "lastAccessedAt": batch.now,
                **metadata,
            }
            batch.put(note)
        return batch.result(note_id)  # type: ignore[return-value]

    def edit_note(self, id: Any, content: Any, updates: Any = None) -> dict[str, Any] | None:
        """``editNote``: replace the content; ``updates`` may set ``title`` (when non-empty),
        ``tags``, ``hidden``, ``rewrittenAt`` (-> ``lastRewrittenAt``) and ``noteMeta``. Never
        re-infers metadata. Undoable; the note, or None when it is missing."""
        note_id = args.text(id, "editNote: id")
        content = args.text(content, "editNote: content")
        options = args.options(updates, "editNote: updates")
        title = options.get("title")  # as Nuggets: a falsy value is no value
        new_title = args.text(title, "editNote: updates.title") if _truthy(title) else None
        tags = options.get("tags")
        new_tags = args.texts(tags, "editNote: updates.tags") if _truthy(tags) else None
        hidden = options.get("hidden")  # "hidden if boolean": another type changes nothing
        stamp = options.get("rewrittenAt")
        rewritten = args.text(stamp, "editNote: updates.rewrittenAt") if _truthy(stamp) else None
        given = args.meta(options.get("noteMeta"), "editNote: updates.noteMeta")
        with self._batch("") as batch:
            note = batch.get(note_id)
            if note is None:
                return None
            previous_key = note.get("sourceKey")
            note["content"] = normalise_whitespace(content)
            if new_title is not None:
                note["title"] = js_trim(new_title)
            if note.get("kind") == "fact":
                note["sourceKey"] = note["title"]
            if new_tags is not None:
                note["tags"] = normalise_tags(new_tags)
            if isinstance(hidden, bool):
                note["hidden"] = hidden
            if rewritten is not None:
                note["lastRewrittenAt"] = rewritten
            self._finish_edit(batch, note, given, previous_key, copy_counters=False)
            batch.label = f"Edit {quoted(note['title'])}"
        return batch.result(note_id)

    def update_note(self, id: Any, partial: Any) -> dict[str, Any] | None:
        """``updateNote``: set each given field of the right type (a field of another type is
        left alone), except ``id``, ``nuggetName``, ``createdAt``, ``updatedAt`` and ``vector``.
        Undoable; the note, or None when it is missing."""
        note_id = args.text(id, "updateNote: id")
        given = args.options(partial, "updateNote: partial")
        tags = given.get("tags")  # as Nuggets: a given [] clears, a falsy value is no value
        new_tags = args.texts(tags, "updateNote: partial.tags") if _truthy(tags) else None
        links = given.get("links")
        new_links = args.links(links, "updateNote: partial.links") if _truthy(links) else None
        for name in ("title", "content", *_PARTIAL_TEXTS):
            if isinstance(given.get(name), str):
                args.text(given[name], f"updateNote: partial.{name}")
        with self._batch("") as batch:
            note = batch.get(note_id)
            if note is None:
                return None
            previous_key = note.get("sourceKey")
            _apply_partial(note, given, new_tags, new_links)
            self._finish_edit(batch, note, {}, previous_key, copy_counters=True)
            batch.label = f"Update {quoted(note['title'])}"
        return batch.result(note_id)

    def delete_note(self, id: Any, hard: Any = False) -> bool:
        """``deleteNote``: hide the note (``archivedAt`` = ``updatedAt`` = now, links kept; true
        again when already hidden), or with ``hard`` remove it, after which every note in the
        store drops its links to missing notes and to itself (``updatedAt`` untouched).
        Undoable; False when the note is missing."""
        note_id = args.text(id, "deleteNote: id")
        is_hard = bool(args.flag(hard, "deleteNote: hard"))
        with self._batch("") as batch:
            note = batch.get(note_id)
            if note is None:
                return False
            batch.forget_fact(note)
            if is_hard:
                batch.label = f"Delete {quoted(note['title'])}"
                batch.remove(note_id)
                batch.drop_dangling_links()
            else:
                batch.label = f"Hide {quoted(note['title'])}"
                note.update(hidden=True, archivedAt=batch.now, updatedAt=batch.now)
                batch.put(note)
        return True

    def add_link(self, a: Any, b: Any, reason: Any) -> bool:
        """``addLink``: ``{to, reason, createdAt: now}`` on both notes (each an id, else a
        title: trimmed, any case, hidden too, of equal titles the oldest ``updatedAt``); links
        are unique by target + lower-cased reason (a duplicate keeps the old link but still
        stamps both notes). Undoable; False for one note twice or a missing one."""
        first = args.text(a, "addLink: a")
        second = args.text(b, "addLink: b")
        why = normalise_whitespace(args.text(reason, "addLink: reason"))
        with self._batch("") as batch:
            one, other = batch.resolve(first), batch.resolve(second)
            if one is None or other is None or one["id"] == other["id"]:
                return False
            batch.label = f"Link {quoted(one['title'])} and {quoted(other['title'])}"
            for note, target in ((one, other), (other, one)):
                link = {"to": target["id"], "reason": why, "createdAt": batch.now}
                note["links"] = dedupe_links([*(note.get("links") or []), link])
                note["updatedAt"] = batch.now
                batch.put(note)
        return True

    def merge_notes(self, target: Any, source: Any, reason: Any) -> dict[str, Any] | None:
        """``mergeNotes``: fold ``source`` into ``target`` (each an id, else a title as for
        ``add_link``): unique content lines, tags and links joined, hits added; the source is
        hidden with one link to the target, and the nugget's links to the source then point to
        the target. Undoable; the target, or None when it is the source or one is missing."""
        target_ref = args.text(target, "mergeNotes: target")
        source_ref = args.text(source, "mergeNotes: source")
        why = normalise_whitespace(args.text(reason, "mergeNotes: reason"))
        with self._batch("") as batch:
            into, gone = batch.resolve(target_ref), batch.resolve(source_ref)
            if into is None or gone is None or into["id"] == gone["id"]:
                return None
            batch.label = f"Merge {quoted(gone['title'])} into {quoted(into['title'])}"
            into_id, gone_id = into["id"], gone["id"]
            lines = [js_trim(line) for note in (into, gone) for line in _content(note).split("\n")]
            into["content"] = "\n".join(unique(line for line in lines if line))
            into["tags"] = normalise_tags([*_tags(into), *_tags(gone)])
            moved = [link for link in _links(gone) if link.get("to") not in (into_id, gone_id)]
            into["links"] = dedupe_links([*_links(into), *moved])
            into["hits"] = _count(into.get("hits")) + _count(gone.get("hits"))
            into["updatedAt"] = into["lastRewrittenAt"] = batch.now
            gone.update(hidden=True, archivedAt=batch.now, updatedAt=batch.now)
            kept = [link for link in _links(gone) if link.get("to") != into_id]
            back = {"to": into_id, "reason": why, "createdAt": batch.now}
            gone["links"] = dedupe_links([*kept, back])
            batch.put(into)
            batch.put(gone)
            batch.forget_fact(gone)
            linking = batch.linking_to(gone_id)
            if all(note["id"] != into_id for note in linking):
                linking.append(into)
            for note in linking:
                links = [
                    {**link, "to": into_id} if link.get("to") == gone_id else link
                    for link in _links(note)
                ]
                if note["id"] == into_id:  # seed: a link left pointing at its own note goes
                    links = [link for link in links if link.get("to") != into_id]
                links = dedupe_links(links)
                if links != note.get("links", []):
                    note["links"] = links
                    batch.put(note)
            merged = batch.get(into_id)
            assert merged is not None
            if merged.get("kind") == "fact" and merged.get("sourceKey"):
                batch.rekey_fact(merged["sourceKey"], merged["title"])
        return batch.result(into_id)

    def record_hit(self, id: Any, session: Any = "") -> None:
        """``recordHit``: one more hit unless ``session`` (non-empty) is already the last hit's;
        ``lastAccessedAt`` = ``updatedAt`` = now. Undoable; an unknown id: nothing."""
        note_id = args.text(id, "recordHit: id")
        session_id = args.optional_text(session, "recordHit: session", "") or ""
        with self._batch("") as batch:
            note = batch.get(note_id)
            if note is None:
                return
            batch.label = f"Record hit on {quoted(note['title'])}"
            if not session_id or note.get("lastHitSession") != session_id:
                note["hits"] = _count(note.get("hits")) + 1
                note["lastHitSession"] = session_id
            note["lastAccessedAt"] = note["updatedAt"] = batch.now
            batch.put(note)

    # -- the write path ----------------------------------------------------------------------------
    def _finish_edit(
        self,
        batch: _Batch,
        note: dict[str, Any],
        given: Mapping[str, Any],
        previous_key: Any,
        *,
        copy_counters: bool,
    ) -> None:
        """What editNote and updateNote share: metadata (given ?? stored), the system tags (the
        nugget's first), no ``archivedAt`` on a visible note, ``updatedAt``, the fact list."""
        inferred = infer_metadata(
            kind=str(note.get("kind")),
            title=str(note.get("title", "")),
            content=str(note.get("content", "")),
            tags=_tags(note),
            source_key=note.get("sourceKey") if isinstance(note.get("sourceKey"), str) else None,
        )
        note.update(merge_metadata(inferred, note, given))
        system = [f"scope:{note['scope']}", f"type:{note['type']}"]
        note["tags"] = normalise_tags([self.name, *_tags(note), *system])
        if not note.get("hidden"):
            note.pop("archivedAt", None)
        note["updatedAt"] = batch.now
        batch.put(note)
        if note.get("kind") == "fact":
            key = previous_key or note.get("sourceKey") or note["title"]
            counters = batch.fact(key) if isinstance(key, str) else None
            if counters is not None:
                if copy_counters:
                    counters = {
                        "hits": note.get("hits"),
                        "lastHitSession": note.get("lastHitSession"),
                    }
                batch.forget_fact_key(key)
                batch.set_fact(note["title"], {"key": note["title"], **_counters(counters)})

    @contextmanager
    def _batch(self, label: str) -> Iterator[_Batch]:
        with self._store.transaction(OpKind.NUGGETS, label, origin=self._origin) as tx:
            batch = _Batch(tx, self.name, iso_now(), label)
            if self._guard is not None:
                note_id, check = self._guard
                note = batch.get(note_id)
                if note is not None:
                    check(note)
            yield batch
            batch.flush()


class _Batch:
    """One call's reads and writes inside its transaction: notes are read as JSON, changed in
    place and staged once, at the end, with their vector specs rebuilt."""

    def __init__(self, tx: Tx, nugget: str, now: str, label: str) -> None:
        self.tx, self.nugget, self.now, self.label = tx, nugget, now, label
        self._read: dict[str, dict[str, Any]] = {}  # every note read, as changed so far
        self._changed: dict[str, dict[str, Any]] = {}  # those to stage
        self._removed: list[str] = []

    # -- notes -------------------------------------------------------------------------------------
    def get(self, note_id: str) -> dict[str, Any] | None:
        """The nugget's note ``note_id`` as changed so far in this call (None: missing): the
        same dict each time, so a change made to it is never lost to a second read."""
        if note_id in self._removed:
            return None
        found = self._read.get(note_id)
        if found is None:
            node = self.tx.node(note_id)
            if node is None or not self._ours(node):
                return None
            found = self._read[note_id] = note_json(node)
        return found

    def _ours(self, node: Node) -> bool:
        return is_note(node) and nugget_of(node) == self.nugget

    def linking_to(self, note_id: str) -> list[dict[str, Any]]:
        """The nugget's notes (as changed so far) with a link to ``note_id``, in storage order."""
        found = []
        for entry in _index(self.tx).notes_of(self.nugget):
            read = self._read.get(entry.node.id)
            targets = entry.targets if read is None else _targets(read)
            if note_id in targets:
                found.append(self.get(entry.node.id))
        return [note for note in found if note is not None]

    def resolve(self, ref: str) -> dict[str, Any] | None:
        """The note ``ref`` names: an id, else a title (trimmed, any case, hidden included; of
        equal titles the oldest ``updatedAt``, then the first stored)."""
        found = self.get(ref)
        if found is not None:
            return found
        matches = _index(self.tx).with_title(self.nugget, ref)
        return self.get(min(matches).node.id) if matches else None

    def fact_note(self, key: str) -> dict[str, Any] | None:
        """The nugget's fact note whose ``sourceKey`` is ``key`` in any case (hidden too; of
        several, the first stored)."""
        matches = _index(self.tx).facts(self.nugget, key)
        return self.get(min(matches, key=_BY_ORD).node.id) if matches else None

    def new_id(self, kind: str) -> str:
        """``<kind>-<nugget>-<first 8 hex of a random UUID>``, not yet used in the store."""
        while True:
            note_id = f"{kind}-{self.nugget}-{uuid.uuid4().hex[:8]}"
            if self.tx.node(note_id) is None and note_id not in self._changed:
                return note_id

    def put(self, note: dict[str, Any]) -> None:
        """Mark ``note`` changed (staged, vector rebuilt, by ``flush``)."""
        self._read[note["id"]] = self._changed[note["id"]] = note

    def remove(self, note_id: str) -> None:
        """Mark the note ``note_id`` removed (unstaged by ``flush``)."""
        self._changed.pop(note_id, None)
        self._read.pop(note_id, None)
        self._removed.append(note_id)

    def drop_dangling_links(self) -> None:
        """Every note in the store (any nugget) drops its links to notes that do not exist
        and to itself (deduped; ``updatedAt`` untouched). Only notes holding such a link are
        read whole."""
        entries = _index(self.tx).all_notes()
        alive = {entry.node.id for entry in entries} - set(self._removed)
        for entry in entries:
            node = entry.node
            if node.id not in alive:
                continue
            read = self._read.get(node.id)
            targets = entry.targets if read is None else _targets(read)
            if all(to in alive and to != node.id for to in targets):
                continue
            note = read or note_json(node)
            kept = [
                link
                for link in _links(note)
                if link.get("to") in alive and link.get("to") != note["id"]
            ]
            note["links"] = dedupe_links(kept)
            self.put(note)

    # -- Nuggets' fact list ------------------------------------------------------------------------
    def fact(self, key: str) -> dict[str, Any] | None:
        """The counters of the nugget's fact ``key`` (any case), or None: no such fact."""
        value = self.tx.meta(fact_meta_key(self.nugget, key))
        return dict(value) if isinstance(value, Mapping) else None

    def set_fact(self, key: str, value: dict[str, Any]) -> None:
        self.tx.set_meta(fact_meta_key(self.nugget, key), value)

    def forget_fact_key(self, key: str) -> None:
        if self.fact(key) is not None:
            self.tx.set_meta(fact_meta_key(self.nugget, key), None)

    def forget_fact(self, note: Mapping[str, Any]) -> None:
        """A fact note deleted or merged away takes its fact out of the nugget's list."""
        key = note.get("sourceKey")
        if note.get("kind") == "fact" and isinstance(key, str) and key:
            self.forget_fact_key(key)

    def rekey_fact(self, old_key: str, new_key: str) -> None:
        counters = self.fact(old_key)
        if counters is not None:
            self.forget_fact_key(old_key)
            self.set_fact(new_key, {**counters, "key": new_key})

    # -- the end -----------------------------------------------------------------------------------
    def flush(self) -> None:
        """Stage what changed: removals, then each changed note with its vector spec rebuilt."""
        self.tx.label = self.label
        for note_id in self._removed:
            unstage_note(self.tx, note_id)
        for note in self._changed.values():
            note["vector"] = vector_spec(note)
            stage_note(self.tx, note)

    def result(self, note_id: str) -> dict[str, Any] | None:
        """The note as staged (a fresh copy), after ``flush``."""
        node = self.tx.node(note_id)
        return None if node is None else note_json(node)


def _index(tx: Tx) -> NoteIndex:
    """The store's note index (numpy: imported only when a call looks notes up)."""
    from memgraph_gui.core.nuggets.note_index import note_index

    return note_index(tx.graph)


_BY_ORD = attrgetter("ord")  # an index Entry's storage order


def _content(note: Mapping[str, Any]) -> str:
    content = note.get("content")
    return content if isinstance(content, str) else ""


def _tags(note: Mapping[str, Any]) -> list[str]:
    return [tag for tag in note.get("tags") or () if isinstance(tag, str)]


def _links(note: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A note's links that are links (objects), in order."""
    return [link for link in note.get("links") or () if isinstance(link, Mapping)]


def _targets(note: Mapping[str, Any]) -> tuple[Any, ...]:
    """Where ``note``'s links go (``to``, as stored), as ``NoteIndex`` keeps them."""
    return tuple(link.get("to") for link in _links(note))


def _apply_partial(
    note: dict[str, Any],
    given: Mapping[str, Any],
    tags: list[str] | None,
    links: list[dict[str, Any]] | None,
) -> None:
    """``updateNote``'s field by field part, in Nuggets' order (a fact's ``sourceKey`` follows
    its title before a given ``kind`` or ``sourceKey`` applies); the confidence is clamped
    later (``merge_metadata``)."""
    was_fact = note.get("kind") == "fact"
    if isinstance(given.get("title"), str):
        note["title"] = js_trim(given["title"])
    if isinstance(given.get("content"), str):
        note["content"] = normalise_whitespace(given["content"])
    if was_fact:
        note["sourceKey"] = note["title"]
    if tags is not None:
        note["tags"] = normalise_tags(tags)
    if links is not None:
        note["links"] = dedupe_links(links)
    if isinstance(given.get("hidden"), bool):
        note["hidden"] = given["hidden"]
    for name in ("hits", "confidence"):
        number = given.get(name)
        if isinstance(number, (int, float)) and not isinstance(number, bool):
            note[name] = args.finite_or_zero(number) if name == "hits" else number
    for name in _PARTIAL_TEXTS:
        if isinstance(given.get(name), str):
            note[name] = given[name]
    if note.get("kind") not in ("fact", "note"):
        note["kind"] = "note"  # as graph.json gives it back


def _truthy(value: Any) -> bool:
    """JavaScript's truthiness of a JSON value (``[]`` and ``{}`` are true, ``""`` and 0 false)."""
    if isinstance(value, (list, tuple, Mapping)):
        return True
    return bool(value) and not (isinstance(value, float) and math.isnan(value))


def _count(value: Any) -> int | float:
    """A hit count as a number (a stored value that is not one counts as 0)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0
    return args.finite_or_zero(value)


def _counters(source: Mapping[str, Any]) -> dict[str, Any]:
    session = source.get("lastHitSession")
    return {
        "hits": _count(source.get("hits")),
        "lastHitSession": session if isinstance(session, str) else "",
    }


def _filter(value: Any, place: str) -> dict[str, Any] | None:
    """A ``NoteFilterOptions`` (None: no options at all)."""
    if value is None:
        return None
    options = args.options(value, place)
    out: dict[str, Any] = {}
    if options.get("includeHidden") is not None:
        out["includeHidden"] = args.flag(options["includeHidden"], f"{place}.includeHidden")
    for name in ("subject", "scope", "type"):
        if options.get(name) is not None:
            out[name] = args.text(options[name], f"{place}.{name}")
    return out

"""``NoteIndex``: the notes of each nugget, kept in step with the graph (``Graph.index``), so a
Nuggets call never scans the whole store: a nugget's notes with what ``listNotes`` filters and
sorts on and where their links go, its notes by trimmed lower-cased title (``addLink`` /
``mergeNotes`` by title) and its facts by lower-cased ``sourceKey`` (``remember``).

Built on first use, then told of every node change. Each note's stored JSON is read once, as
plain data that is not kept: a store opened from its file holds its notes' fields as unparsed
text (``LazyFields``), and the index leaves them so. A one-shot ``memgraph call remember`` on a
50k-note store took 3.2 s and 165 MB so, against 4.7 s and 393 MB with the fields parsed in place
(this busy 2-core machine). Callers hold the store lock, as for any graph read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from memgraph_gui.core.domain.freeze import LazyFields
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.nuggets.model import is_note
from memgraph_gui.core.nuggets.text import js_trim

INDEX = "nuggets.notes"


class Entry(NamedTuple):
    """One note as ``listNotes`` sees it; entries sort in ``listNotes`` order (``updated``,
    then ``ord``, which is unique). ``targets``: where its links go (``to``, as stored)."""

    updated: str
    ord: int
    hidden: bool
    subject: object
    scope: object
    type: object
    targets: tuple[object, ...]
    node: Node


class _Place(NamedTuple):
    nugget: str
    title: str
    fact: str | None


class NoteIndex:
    """Per nugget: its notes (``entries``), title -> ids and fact key -> ids."""

    def __init__(self, nodes: Iterable[Node]) -> None:
        self.entries: dict[str, dict[str, Entry]] = {}
        self._titles: dict[str, dict[str, set[str]]] = {}
        self._facts: dict[str, dict[str, set[str]]] = {}
        self._ordered: dict[str, list[Entry]] = {}
        self._places: dict[str, _Place] = {}
        for node in nodes:
            self.node_changed(None, node)

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        if old is not None:
            self._drop(old.id)
        if new is not None and is_note(new):
            self._add(new, _plain(new))

    def ordered(self, nugget: str) -> list[Entry]:
        """The nugget's notes, oldest ``updatedAt`` first, ties in storage order (kept until
        one of the nugget's notes changes; do not modify)."""
        found = self._ordered.get(nugget)
        if found is None:
            found = self._ordered[nugget] = sorted(self.entries.get(nugget, {}).values())
        return found

    def with_title(self, nugget: str, title: str) -> list[Entry]:
        """The nugget's notes whose trimmed title is ``title`` (trimmed) in any case."""
        ids = self._titles.get(nugget, {}).get(js_trim(title).lower(), ())
        return [self.entries[nugget][note_id] for note_id in ids]

    def facts(self, nugget: str, key: str) -> list[Entry]:
        """The nugget's fact notes whose ``sourceKey`` is ``key`` in any case."""
        ids = self._facts.get(nugget, {}).get(key.lower(), ())
        return [self.entries[nugget][note_id] for note_id in ids]

    def all_entries(self) -> Iterable[Entry]:
        """Every note of every nugget (in no particular order)."""
        for entries in self.entries.values():
            yield from entries.values()

    def _add(self, node: Node, fields: Mapping[str, Any]) -> None:
        nugget = fields.get("nuggetName", "")
        nugget = nugget if isinstance(nugget, str) else ""
        updated = fields.get("updatedAt", "")
        links = fields.get("links")
        targets = (
            tuple(link.get("to") for link in links if isinstance(link, Mapping))
            if isinstance(links, (list, tuple))
            else ()
        )
        self.entries.setdefault(nugget, {})[node.id] = Entry(
            updated if isinstance(updated, str) else str(updated),
            node.ord,
            node.archived,
            fields.get("subject"),
            fields.get("scope"),
            fields.get("type"),
            targets,
            node,
        )
        self._ordered.pop(nugget, None)
        title = js_trim(node.title).lower()
        self._titles.setdefault(nugget, {}).setdefault(title, set()).add(node.id)
        key = fields.get("sourceKey")
        fact = key.lower() if node.type == "fact" and isinstance(key, str) else None
        if fact is not None:
            self._facts.setdefault(nugget, {}).setdefault(fact, set()).add(node.id)
        self._places[node.id] = _Place(nugget, title, fact)

    def _drop(self, node_id: str) -> None:
        place = self._places.pop(node_id, None)
        if place is None:
            return
        self.entries[place.nugget].pop(node_id, None)
        self._ordered.pop(place.nugget, None)
        _discard(self._titles.get(place.nugget, {}), place.title, node_id)
        if place.fact is not None:
            _discard(self._facts.get(place.nugget, {}), place.fact, node_id)


def note_index(graph: Graph) -> NoteIndex:
    """``graph``'s ``NoteIndex`` (built on first use; store lock held)."""
    return graph.index(INDEX, lambda: NoteIndex(graph.nodes.values()))


def _plain(node: Node) -> Mapping[str, Any]:
    """The note's fields to read a few values from: text not yet parsed is parsed here, for
    this once, and left as text in the node."""
    fields = node.fields
    if isinstance(fields, LazyFields):
        value = json.loads(fields.text)
        return value if isinstance(value, Mapping) else {}
    return fields


def _discard(table: dict[str, set[str]], key: str, note_id: str) -> None:
    ids = table.get(key)
    if ids is not None:
        ids.discard(note_id)
        if not ids:
            del table[key]

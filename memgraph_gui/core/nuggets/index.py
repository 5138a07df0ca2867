"""``NoteIndex``: the notes of each nugget, kept in step with the graph (``Graph.index``), so a
Nuggets call never scans the whole store: a nugget's notes with what ``listNotes`` filters and
sorts on, its notes by trimmed lower-cased title (``addLink`` / ``mergeNotes`` by title) and its
facts by lower-cased ``sourceKey`` (``remember``). Built on first use (each note's fields read
once), then told of every node change. Callers hold the store lock, as for any graph read.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.nuggets.model import is_note, nugget_of
from memgraph_gui.core.nuggets.text import js_trim

INDEX = "nuggets.notes"


class Entry(NamedTuple):
    """One note as ``listNotes`` sees it; entries sort in ``listNotes`` order (``updated``,
    then ``ord``, which is unique)."""

    updated: str
    ord: int
    hidden: bool
    subject: object
    scope: object
    type: object
    node: Node


class NoteIndex:
    """Per nugget: its notes (``entries``), title -> ids and fact key -> ids."""

    def __init__(self, nodes: Iterable[Node]) -> None:
        self.entries: dict[str, dict[str, Entry]] = {}
        self._titles: dict[str, dict[str, set[str]]] = {}
        self._facts: dict[str, dict[str, set[str]]] = {}
        self._ordered: dict[str, list[Entry]] = {}
        for node in nodes:
            self.node_changed(None, node)

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        if old is not None and is_note(old):
            self._drop(old)
        if new is not None and is_note(new):
            self._add(new)

    def ordered(self, nugget: str) -> list[Entry]:
        """The nugget's notes, oldest ``updatedAt`` first, ties in storage order (kept until
        one of the nugget's notes changes; do not modify)."""
        found = self._ordered.get(nugget)
        if found is None:
            found = self._ordered[nugget] = sorted(self.entries.get(nugget, {}).values())
        return found

    def _add(self, node: Node) -> None:
        nugget, fields = nugget_of(node), node.fields
        self._ordered.pop(nugget, None)
        updated = fields.get("updatedAt", "")
        self.entries.setdefault(nugget, {})[node.id] = Entry(
            updated if isinstance(updated, str) else str(updated),
            node.ord,
            node.archived,
            fields.get("subject"),
            fields.get("scope"),
            fields.get("type"),
            node,
        )
        self._titles.setdefault(nugget, {}).setdefault(_title_key(node), set()).add(node.id)
        key = _fact_key(node)
        if key is not None:
            self._facts.setdefault(nugget, {}).setdefault(key, set()).add(node.id)

    def _drop(self, node: Node) -> None:
        nugget = nugget_of(node)
        self._ordered.pop(nugget, None)
        self.entries.get(nugget, {}).pop(node.id, None)
        _discard(self._titles.get(nugget, {}), _title_key(node), node.id)
        key = _fact_key(node)
        if key is not None:
            _discard(self._facts.get(nugget, {}), key, node.id)

    def with_title(self, nugget: str, title: str) -> list[Node]:
        """The nugget's notes whose trimmed title is ``title`` (trimmed) in any case."""
        ids = self._titles.get(nugget, {}).get(js_trim(title).lower(), ())
        return [self.entries[nugget][note_id].node for note_id in ids]

    def facts(self, nugget: str, key: str) -> list[Node]:
        """The nugget's fact notes whose ``sourceKey`` is ``key`` in any case."""
        ids = self._facts.get(nugget, {}).get(key.lower(), ())
        return [self.entries[nugget][note_id].node for note_id in ids]


def note_index(graph: Graph) -> NoteIndex:
    """``graph``'s ``NoteIndex`` (built on first use; store lock held)."""
    return graph.index(INDEX, lambda: NoteIndex(graph.nodes.values()))


def _title_key(node: Node) -> str:
    return js_trim(node.title).lower()


def _fact_key(node: Node) -> str | None:
    key = node.fields.get("sourceKey")
    return key.lower() if node.type == "fact" and isinstance(key, str) else None


def _discard(table: dict[str, set[str]], key: str, note_id: str) -> None:
    ids = table.get(key)
    if ids is not None:
        ids.discard(note_id)
        if not ids:
            del table[key]

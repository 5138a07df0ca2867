"""How a Nuggets ``MemoryNote`` lives in the store: one node per note, one edge per linked note.

- The node's ``fields`` hold the whole note JSON, every key (unknown ones too) in the note's own
  key order, so a note exported after an import gives the same bytes. ``id``, ``title`` and
  ``hidden`` are mirrored in the node's ``id``, ``title`` and ``archived`` (the graph view,
  the timeline and search read those); ``note_json`` takes them from the node, so an edit made
  through the generic path (a title, archive / restore) still reaches graph.json.
- ``type`` is the note's ``kind`` (``fact`` / ``note``) and ``level`` is ``NOTE_LEVEL``, which
  marks a node as a note without parsing its fields (Luker's recall, pool and compaction only
  take ``semantic`` nodes, so notes stay out of them).
- ``seq_to`` is the note's place in creation order (meta counter ``NOTE_SEQ``): the timeline's
  order for notes.
- Each note's ``links`` stay in its fields as stored (reasons, stamps, order, links to notes that
  are gone); the graph gets one ``LINK_EDGE`` edge per distinct target that exists, from the
  note that holds the link. ``stage_note`` keeps the two in step.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, overload

from memgraph_gui.core.domain.freeze import LazyFields, thaw
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.graph.tx import Tx

NOTE_LEVEL = "nugget"
"""The ``level`` of every note node."""
LINK_EDGE = "note_link"
"""The edge type of a note link (``from`` holds the link, ``to`` is its target)."""
NOTE_SEQ = "noteSeq"
"""The meta counter that numbers notes in creation order (their ``seq_to``)."""
KINDS = ("fact", "note")


def is_note(node: Node) -> bool:
    """Whether ``node`` is a Nuggets note (cheap: no fields are parsed)."""
    return node.level == NOTE_LEVEL


def nugget_of(node: Node) -> str:
    """The name of the nugget that owns the note ``node`` (``''`` if none is stored)."""
    name = node.fields.get("nuggetName", "")
    return name if isinstance(name, str) else ""


def note_json(node: Node) -> dict[str, Any]:
    """The note as Nuggets' JSON (a fresh, mutable dict in the stored key order), with
    ``id``, ``title`` and ``hidden`` as the node has them now."""
    fields = node.fields
    note = json.loads(fields.text) if isinstance(fields, LazyFields) else thaw(fields)
    note["id"] = node.id
    note["title"] = node.title
    note["hidden"] = node.archived
    return note  # type: ignore[no-any-return]


def notes_json(nodes: Sequence[Node]) -> list[dict[str, Any]]:
    """``note_json`` of each node, in order (stored JSON texts parsed in one call)."""
    if not all(isinstance(node.fields, LazyFields) for node in nodes):
        return [note_json(node) for node in nodes]
    notes = json.loads("[" + ",".join(node.fields.text for node in nodes) + "]")  # type: ignore[attr-defined]
    for note, node in zip(notes, nodes, strict=True):
        note["id"], note["title"], note["hidden"] = node.id, node.title, node.archived
    return notes  # type: ignore[no-any-return]


class NoteList(Sequence[dict[str, Any]]):
    """A read-only answer of notes (``listNotes``): the selected nodes, each turned into its
    note (``note_json``: a fresh dict the caller may keep and change) only when it is read.

    Reading every note still costs ~30 µs a note; holding the answer costs nothing more. Nodes
    (and their ``LazyFields``) are immutable, so the answer stays the notes of the graph when it
    was made, whatever is written later, and may be read without the store lock. Nothing read is
    cached: each read gives a new dict. Equal to any sequence of the same note dicts (a list too).
    """

    __slots__ = ("_nodes",)

    def __init__(self, nodes: Iterable[Node] = ()) -> None:
        self._nodes: tuple[Node, ...] = tuple(nodes)

    def __len__(self) -> int:
        return len(self._nodes)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> NoteList: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | NoteList:
        if isinstance(index, slice):
            return NoteList(self._nodes[index])
        return note_json(self._nodes[index])

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return map(note_json, self._nodes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NoteList) and other._nodes == self._nodes:
            return True  # equal nodes read as equal notes (without parsing either)
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(repr(node.id) for node in islice(self._nodes, 5))
        more = ", ..." if len(self._nodes) > 5 else ""
        return f"NoteList({len(self._nodes):,} notes: [{shown}{more}])"

    def to_json(self) -> list[dict[str, Any]]:
        """Every note as Nuggets' JSON, in order (``notes_json``: the texts parsed in one call)."""
        return notes_json(self._nodes)


def note_node(note: Mapping[str, Any], *, seq_to: int, ord_: int = 0) -> Node:
    """The node that stores ``note`` (a whole MemoryNote: ``id``, ``title``, ``kind``, ...).
    ``note`` is copied (its JSON text kept with the frozen copy, so the row's column and
    ``note_json`` need no second conversion); ``ord_`` 0 lets ``Tx.put_node`` number a new row."""
    kind = note.get("kind")
    text = json.dumps(note, ensure_ascii=False, separators=(",", ":"))
    return Node(
        id=note["id"],
        type=kind if kind in KINDS else "note",
        level=NOTE_LEVEL,
        title=note.get("title", ""),
        seq_to=seq_to,
        fields=LazyFields(text),
        archived=bool(note.get("hidden", False)),
        ord=ord_,
    )


def link_targets(note: Mapping[str, Any]) -> list[str]:
    """The distinct targets of ``note``'s links, in link order, without the note itself."""
    own = note.get("id")
    targets = (link.get("to") for link in note.get("links") or () if isinstance(link, Mapping))
    return [t for t in dict.fromkeys(targets) if isinstance(t, str) and t and t != own]


def stage_note(tx: Tx, note: Mapping[str, Any]) -> Node:
    """Stage ``note`` (new or changed) in ``tx`` with the ``LINK_EDGE`` edges its links imply.

    A new note gets the next ``NOTE_SEQ`` number; a known one keeps its ``seq_to`` and row.
    Edges to targets that do not exist (yet) are not made; links themselves are kept. Edges
    from other notes to this one are theirs to keep (``stage_note`` of those notes).
    """
    old = tx.node(note["id"])
    if old is None:
        seq = tx.counter(NOTE_SEQ) + 1
        tx.set_meta(NOTE_SEQ, seq)
    else:
        seq = old.seq_to
    node = tx.put_node(note_node(note, seq_to=seq, ord_=old.ord if old is not None else 0))
    want = {t for t in link_targets(note) if tx.node(t) is not None}
    have = set(tx.edge_targets(node.id, LINK_EDGE))
    for target in have - want:
        tx.remove_edge((node.id, LINK_EDGE, target))
    for target in link_targets(note):
        if target in want and target not in have:
            tx.put_edge(Edge(node.id, target, LINK_EDGE))
    return node


def unstage_note(tx: Tx, note_id: str) -> None:
    """Stage the removal of the note ``note_id`` and of every edge that touches it (a hard
    delete; other notes' links to it are theirs to drop)."""
    for key in tx.edge_keys_touching(note_id):
        tx.remove_edge(key)
    tx.remove_node(note_id)

"""graph.json in and out of a store: ``import_graph_file`` and ``export_graph_file``.

Import replaces every nugget's notes with the file's (Luker nodes untouched) in ONE store
transaction, one undo step labelled ``Import graph.json (N notes)``; the file is read and
checked whole first (``graph_file``), so a bad file writes nothing. A note is stored as
``model`` says (its whole JSON in ``fields``, ``note_link`` edges for links whose target
exists). The notes take the file's order: kept in place when the file lists the store's notes
in their stored order (new ones after them), else numbered afresh in file order, so that
exporting gives the file's order back.

Export writes every note in storage order as ``JSON.stringify({version: 3, notes}, null, 2)``
plus a newline, through ``safe_io.write_text_atomic`` (temp file, fsync, rename, ``NAME.bak``).

The store remembers, per file, the SHA-256 of the bytes it last imported from or wrote to it
(``store_info`` key ``nuggets_files``; not part of the graph, so undo leaves it). An export over
a file whose bytes differ from that record (changed on disk since: an agent wrote it) is refused
with ``FILE_CHANGED_ON_DISK`` unless ``force``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from operator import attrgetter
from pathlib import Path
from typing import Any

from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import ImportFormatError, MemgraphError
from memgraph_gui.core.domain.freeze import LazyFields
from memgraph_gui.core.domain.model import Edge, EdgeKey, Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.nuggets import js_json
from memgraph_gui.core.nuggets.graph_file import (
    UNSET_WHEN_NULL,
    VERSION,
    GraphFile,
    read_graph_file,
)
from memgraph_gui.core.nuggets.model import LINK_EDGE, NOTE_LEVEL, NOTE_SEQ, is_note, link_targets
from memgraph_gui.core.storage import file_records
from memgraph_gui.core.storage.safe_io import write_bytes_atomic
from memgraph_gui.core.storage.store import Store

Progress = Callable[[int, int], None]
"""``progress(done, total)`` on the working thread."""
RECORD_KEY = "nuggets_files"
"""``store_info`` key: ``{resolved path: sha256 hex}`` of the graph.json files in step with the
store (imported from, or exported to)."""
_NOTE_TEXT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@dataclass(frozen=True)
class ImportResult:
    """What an import did: ``notes`` in the store now (the file's), of which ``added`` are new
    ids; ``removed`` notes the file did not hold; ``links`` note_link edges now; ``migrated``
    when the file's version was below 3; ``changes`` the transaction's ChangeSet."""

    path: str
    notes: int
    added: int
    removed: int
    links: int
    migrated: bool
    changes: ChangeSet | None

    def to_json(self) -> dict[str, Any]:
        return {
            "imported": self.path,
            "notes": self.notes,
            "added": self.added,
            "removed": self.removed,
            "links": self.links,
            "migrated": self.migrated,
        }


def now_stamp() -> str:
    """The current UTC instant as Nuggets writes it (``2026-11-26T05:12:03.123Z``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def import_graph_file(
    store: Store, path: str | Path, *, progress: Progress | None = None
) -> ImportResult:
    """Replace the store's notes with those of the graph.json at ``path`` (see the module):
    one transaction, one undo step. ``ImportFormatError`` (``BAD_IMPORT``) for a bad file and
    ``BAD_IMPORT`` for a note id that is a Luker node's: nothing written then. Other errors as
    for any write (``STORE_READ_ONLY``, ``STORE_BUSY``). Any thread."""
    return install_notes(store, read_for_import(path, progress=progress), progress=progress)


def read_for_import(path: str | Path, *, progress: Progress | None = None) -> GraphFile:
    """``read_graph_file(path)`` stamped now, its progress the first half of an import's
    (``install_notes`` reports the second). ``ImportFormatError``; writes nothing. Any thread."""
    report = progress or _quiet
    return read_graph_file(path, now=now_stamp(), progress=lambda d, t: report(d, 2 * t + 1))


def install_notes(
    store: Store,
    loaded: GraphFile,
    *,
    progress: Progress | None = None,
    origin: str | None = None,
) -> ImportResult:
    """Write a read and checked graph.json into ``store`` (see ``import_graph_file``), as a
    step of ``origin`` (default: the store's)."""
    report = progress or _quiet
    notes = loaded.notes
    total = 2 * len(notes) + 1
    texts = list(map(_NOTE_TEXT, notes))  # numbers as JavaScript holds them (``graph_file``)
    with store.reading() as graph:
        _refuse_foreign_ids(graph, notes)
    label = f"Import graph.json ({len(notes):,} notes)"
    with store.transaction(OpKind.BATCH, label, origin=origin) as tx:
        tx.lazy_images = True  # 50k images made from the texts, never parsed again
        graph = tx.graph
        _refuse_foreign_ids(graph, notes)
        old = sorted((n for n in graph.nodes.values() if is_note(n)), key=attrgetter("ord"))
        old_ids = {n.id for n in old}
        new_ids = [note["id"] for note in notes]
        keep = _keeps_order([n.id for n in old], new_ids, old_ids)
        counter = tx.counter(NOTE_SEQ)
        start = counter
        for position, (note, text) in enumerate(zip(notes, texts, strict=True)):
            before = graph.nodes.get(note["id"])
            if keep and before is not None:
                seq, ord_ = before.seq_to, before.ord
            else:
                counter += 1
                seq, ord_ = counter, 0
                if before is not None:
                    tx.remove_node(before.id)  # then ``put_node`` numbers it afresh
            tx.put_node(_note_node(note, text, seq, ord_))
            if position % 5_000 == 4_999:
                report(len(notes) + position + 1, total)
        gone = old_ids.difference(new_ids)
        for note_id in gone:
            tx.remove_node(note_id)
        if counter != start:
            tx.set_meta(NOTE_SEQ, counter)
        links = _stage_links(tx, graph, notes, old_ids, gone)
        file_records.record_in_transaction(store, RECORD_KEY, {loaded.path: loaded.sha256})
    report(total, total)
    return ImportResult(
        loaded.path,
        len(notes),
        len(set(new_ids) - old_ids),
        len(gone),
        links,
        loaded.migrated,
        tx.changeset,
    )


def _quiet(done: int, total: int) -> None:
    """No progress wanted."""


def _note_node(note: dict[str, Any], text: str, seq: int, ord_: int) -> Node:
    """The node of a normalised note whose compact JSON is ``text`` (parsed only if read)."""
    return Node(
        id=note["id"],
        type=note["kind"],
        level=NOTE_LEVEL,
        title=note["title"],
        seq_to=seq,
        fields=LazyFields(text),
        archived=note["hidden"],
        ord=ord_,
    )


def _refuse_foreign_ids(graph: Graph, notes: list[dict[str, Any]]) -> None:
    """``BAD_IMPORT`` naming the first note whose id is that of a node that is not a note."""
    nodes = graph.nodes
    for index, note in enumerate(notes):
        node = nodes.get(note["id"])
        if node is not None and not is_note(node):
            raise ImportFormatError(
                f"notes[{index}].id",
                f"{note['id']!r} is the id of a {node.type} node of this memory, not of a note",
            )


def _keeps_order(old_order: list[str], new_ids: list[str], old_ids: set[str]) -> bool:
    """True when the file lists the notes the store keeps in their stored order, before any
    new one: then every kept note keeps its row and number."""
    kept = [note_id for note_id in new_ids if note_id in old_ids]
    if kept != new_ids[: len(kept)]:
        return False  # a new note comes before a kept one
    wanted = set(kept)
    return kept == [note_id for note_id in old_order if note_id in wanted]


def _stage_links(
    tx: Any,
    graph: Graph,
    notes: list[dict[str, Any]],
    old_ids: set[str],
    gone: set[str],
) -> int:
    """Stage the ``note_link`` edges the notes' links imply (targets that exist after the
    import), remove the old notes' others and every edge of a note that is gone; returns the
    number of note_link edges the notes now have."""
    new_ids = {note["id"] for note in notes}
    nodes = graph.nodes

    def exists(node_id: str) -> bool:
        return node_id in new_ids or (node_id in nodes and node_id not in old_ids)

    want: dict[EdgeKey, None] = {}
    for note in notes:
        source = note["id"]
        for target in link_targets(note):
            if exists(target):
                want[(source, LINK_EDGE, target)] = None
    for key in graph.edges:
        if key[0] in gone or key[2] in gone:
            tx.remove_edge(key)
        elif key[1] == LINK_EDGE and key[0] in old_ids and key not in want:
            tx.remove_edge(key)
    for key in want:
        if key not in graph.edges:
            tx.put_edge(Edge(key[0], key[2], LINK_EDGE))
    return len(want)


# -- the record of files in step with the store ------------------------------------------------
def recorded_sha256(store: Store, path: str | Path) -> str | None:
    """The SHA-256 the store recorded for the file at ``path`` (None: never in step)."""
    value = file_records.recorded(store, RECORD_KEY).get(str(Path(path).resolve()))
    return value if isinstance(value, str) else None


def changed_on_disk(store: Store, path: str | Path) -> bool:
    """True when ``path`` holds bytes other than those the store last imported from or wrote
    to it (a file never imported into this store, or gone, is not "changed")."""
    known = recorded_sha256(store, path)
    if known is None:
        return False
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise MemgraphError("IO_ERROR", f"cannot read {path}: {exc.strerror or exc}") from exc
    return hashlib.sha256(data).hexdigest() != known


# -- export --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ExportResult:
    """``notes`` written to ``path`` (resolved), ``bytes`` long."""

    path: str
    notes: int
    bytes: int

    def to_json(self) -> dict[str, Any]:
        return {"written": self.path, "notes": self.notes, "bytes": self.bytes}


def graph_document_text(store: Store) -> tuple[str, int]:
    """Every note of the store in storage order as graph.json text (``JSON.stringify(doc,
    null, 2)`` + newline) and the number of notes. Any thread; reads one snapshot."""
    with store.reading() as graph:
        rows = [
            (node.id, node.title, node.archived, node.fields_json())
            for node in sorted(
                (n for n in graph.nodes.values() if is_note(n)), key=attrgetter("ord")
            )
        ]
    notes = json.loads("[" + ",".join(row[3] for row in rows) + "]")
    for index, (note_id, title, archived, _text) in enumerate(rows):
        note = notes[index]
        note["id"], note["title"], note["hidden"] = note_id, title, archived
        for key in UNSET_WHEN_NULL:
            if key in note and note[key] is None:
                del note[key]
    # keys are stored in JavaScript's order (the import orders them; writes keep the order),
    # and text read from the store holds no lone surrogate
    doc = {"version": VERSION, "notes": notes}
    return js_json.stringify(doc, surrogates=False) + "\n", len(notes)


def export_graph_file(
    store: Store, path: str | Path, *, force: bool = False, progress: Progress | None = None
) -> ExportResult:
    """Write every note of ``store`` to ``path`` as graph.json (see the module): temp file,
    fsync, rename, the previous file kept as ``NAME.bak``. ``FILE_CHANGED_ON_DISK`` when
    ``path`` changed on disk since the store imported it or wrote it, unless ``force``.
    Any thread."""
    report = progress or _quiet
    report(0, 3)
    text, count = graph_document_text(store)
    report(1, 3)
    target = Path(path)
    if not force and changed_on_disk(store, target):
        raise MemgraphError(
            "FILE_CHANGED_ON_DISK",
            f"{target} changed on disk since it was imported into this memory (another program "
            "wrote it); export with force (--force) to overwrite it",
            path=str(target),
        )
    data = text.encode("utf-8")
    del text
    write_bytes_atomic(target, data)  # the bytes exactly (no newline translation anywhere)
    report(2, 3)
    resolved = str(target.resolve())
    if not store.read_only:
        digest = hashlib.sha256(data).hexdigest()
        file_records.record_aside(store, RECORD_KEY, {resolved: digest})
    report(3, 3)
    return ExportResult(resolved, count, len(data))

"""A JSON file of Membrane ``MemoryRecord``s in and out of a store: ``import_records_file`` and
``export_records_file`` (``memgraph import-membrane`` / ``export-membrane``).

The file is a JSON list of records in Membrane's JSON (``pkg/schema``: ``id``, ``type``,
``sensitivity``, ``confidence``, ``salience``, ``scope``, ``tags``, ``created_at``, ...,
``relations`` on the source record, ``payload``, ``audit_log``). It is read strictly (UTF-8, no
``NaN`` / ``Infinity``, no lone surrogate, at most ``safe_io.MAX_IMPORT_BYTES``) and checked whole
before anything is written (``check_document``, then ``check_against`` the store inside the
import's own transaction). ``ImportFormatError`` (``BAD_IMPORT``) names the first place wrong,
e.g. ``records[3].sensitivity: unknown sensitivity 'secret' (one of public, low, medium, high,
hyper)``, for: a document that is not a list; a record that is not an object, without a string
``id`` or ``type``; an unknown memory type or sensitivity (``sensitivity`` is required, as
Membrane's own ``Validate`` requires it); ``salience`` / ``confidence`` that are not numbers
(``salience`` ≥ 0, ``confidence`` in [0, 1], as Membrane validates; missing means 0, Go's zero);
``scope`` not a string, ``tags`` not a list of strings, ``relations`` / ``payload`` of the wrong
kind; a relation that is not an object or lacks a string ``predicate`` / ``target_id``; a relation
whose target is neither a record of the file nor a node of the store; two records with one id; a
record whose id is already a node of the store (an import adds records, it never overwrites); an
id or predicate holding a control character; a name longer than ``MAX_NAME`` characters, or a
record longer than ``MAX_RECORD_CHARS`` as JSON.

Import (``install_records``) writes one node per record (``model``: level ``membrane``, its whole
JSON in its own key order as ``fields``, ``seq_to`` continuing the meta counter ``RECORD_SEQ``) and
one edge per distinct (record, predicate, target) of its relations (``model.relation_edges``;
targets in the file or the store), beside whatever else the store holds, in ONE transaction: one
ChangeSet, one undo step labelled ``Import 1,234 Membrane records``.

Relations and edges (how the desk's edits reach the file). The record's ``relations`` are kept
as stored; the edges leaving a record node say which of them still hold. ``export_relations``
gives, in order: each stored relation whose target is not a node of the store (kept as stored:
Membrane keeps relations to records it does not hold) or whose edge ``(record, predicate,
target)`` still exists (kept as stored: weight, stamp, unknown keys); then, for each edge leaving
the record that no stored relation stands for (a link drawn in the desk), a new relation
``{"predicate": edge type, "target_id": edge target}`` (not for the hierarchy's ``contains`` /
``semantic_contains`` edges: a parent's bookkeeping). A relation whose edge was removed in the
desk is left out. So an untouched import exports exactly what was imported.

Export writes every record in import order as ``json.dumps(records, ensure_ascii=False,
indent=2)`` plus a newline, through ``safe_io.write_bytes_atomic`` (temp file, fsync, rename,
the previous file kept as ``NAME.bak``). Any thread.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Any

from memgraph_gui.core.domain import strict_json
from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.membrane.model import (
    MEMORY_TYPES,
    RECORD_SEQ,
    SENSITIVITIES,
    is_record,
    record_json,
    record_node,
    relation_edges,
)
from memgraph_gui.core.storage.safe_io import read_json_bytes, write_bytes_atomic
from memgraph_gui.core.storage.store import Store

MAX_NAME = 1_000
"""Characters at most in a record's id, type, scope, each tag, a relation's predicate and
target id (they become node ids, edge types and index keys)."""
MAX_RECORD_CHARS = 1_000_000
"""Characters at most in one record's compact JSON (Luker's cap on a node's fields)."""
_CONTROL = re.compile("[\x00-\x1f\x7f]")
"""Not in an id or a predicate (they become node ids and edge keys, whose stored text joins
them with U+001F)."""
_TEXT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode
"""A record's stored text (the nodes' ``fields`` column: compact, UTF-8)."""
_SENSITIVITY_SET = frozenset(SENSITIVITIES)
_TYPE_SET = frozenset(MEMORY_TYPES)
_NUMBERS = (int, float)

Progress = Callable[[int, int], None]
"""``progress(done, total)`` on the working thread."""


@dataclass(frozen=True)
class RecordsFile:
    """A records document read and checked on its own (not yet against a store): ``records`` in
    file order (the parsed dicts, not copied), ``texts`` their compact JSON, ``path`` resolved
    (``""`` when it came from memory)."""

    path: str
    records: list[dict[str, Any]]
    texts: list[str]


@dataclass(frozen=True)
class ImportResult:
    """What an import wrote: ``records`` nodes, ``relations`` edges; ``changes`` its ChangeSet."""

    path: str
    records: int
    relations: int
    changes: ChangeSet | None

    def to_json(self) -> dict[str, Any]:
        return {"imported": self.path, "records": self.records, "relations": self.relations}


@dataclass(frozen=True)
class ExportResult:
    """``records`` written to ``path`` (resolved), ``bytes`` long."""

    path: str
    records: int
    bytes: int

    def to_json(self) -> dict[str, Any]:
        return {"written": self.path, "records": self.records, "bytes": self.bytes}


# -- reading and checking ------------------------------------------------------------------------
def read_records_file(path: str | Path) -> RecordsFile:
    """Read and check (``check_document``) the records file at ``path``. ``ImportFormatError``
    for a file that cannot be read, is empty, is not strict JSON or is not a records document;
    writes nothing. Any thread."""
    source = Path(path)
    try:
        empty = source.stat().st_size == 0
    except OSError as exc:
        raise ImportFormatError("", f"cannot read {source}: {exc.strerror or exc}") from exc
    if empty:
        raise ImportFormatError("", f"{source} is empty: not valid JSON")
    doc, _data = read_json_bytes(source)
    return check_document(doc, path=str(source.resolve()), prechecked=True)


def check_document(doc: Any, *, path: str = "", prechecked: bool = False) -> RecordsFile:
    """``doc`` (a parsed records document) checked on its own: everything in the module's list
    but what depends on the store (ids already there, targets outside the file). A document
    made in Python may also hold what no JSON file can (``NaN``, infinities, lone surrogates):
    refused too, unless ``prechecked`` says ``safe_io`` read it from a file. Pure."""
    if not isinstance(doc, list):
        raise ImportFormatError("", f"expected a JSON list of Membrane records, found {_kind(doc)}")
    seen: dict[str, int] = {}
    texts: list[str] = []
    for index, record in enumerate(doc):
        record_id = _check_record(record, index)
        first = seen.setdefault(record_id, index)
        if first != index:
            raise ImportFormatError(
                f"records[{index}].id", f"{record_id!r} is also the id of records[{first}]"
            )
        try:
            text = _TEXT(record)
        except ValueError as exc:  # only a document made in Python holds these
            raise ImportFormatError(
                f"records[{index}]", f"holds a number JSON cannot hold (NaN or Infinity): {exc}"
            ) from exc
        if not prechecked and not text.isascii() and strict_json.SURROGATE.search(text):
            found = strict_json.first_lone_surrogate(record, f"records[{index}]")
            if found is not None:
                raise ImportFormatError(*found)
        if len(text) > MAX_RECORD_CHARS:
            raise ImportFormatError(
                f"records[{index}]",
                f"{len(text):,} characters of JSON (at most {MAX_RECORD_CHARS:,})",
            )
        texts.append(text)
    return RecordsFile(path, doc, texts)


def check_against(nodes: Mapping[str, Node], loaded: RecordsFile) -> None:
    """``ImportFormatError`` naming the first record whose id is already a node of the store, or
    the first relation whose target is neither a record of the file nor a node of the store
    (``nodes``: the store's graph's). Pure."""
    ids = set()
    for index, record in enumerate(loaded.records):
        record_id = record["id"]
        node = nodes.get(record_id)
        if node is not None:
            what = "a Membrane record" if is_record(node) else f"of type {node.type!r}"
            raise ImportFormatError(
                f"records[{index}].id",
                f"{record_id!r} is already a node of this memory ({what}); an import adds "
                "records, it does not overwrite them",
            )
        ids.add(record_id)
    for index, record in enumerate(loaded.records):
        for position, relation in enumerate(record.get("relations") or ()):
            target = relation["target_id"]
            if target not in ids and target not in nodes:
                raise ImportFormatError(
                    f"records[{index}].relations[{position}].target_id",
                    f"{target!r} is neither a record of this file nor a node of this memory",
                )


def _check_record(record: Any, index: int) -> str:
    """The id of a record checked on its own; ``ImportFormatError`` naming what is wrong."""
    where = f"records[{index}]"
    if not isinstance(record, dict):
        raise ImportFormatError(
            where, f"expected an object (a Membrane record), found {_kind(record)}"
        )
    record_id = _name(record, "id", where)
    type_ = _name(record, "type", where)
    if type_ not in _TYPE_SET:
        raise ImportFormatError(
            f"{where}.type",
            f"unknown memory type {type_!r} (one of {', '.join(MEMORY_TYPES)})",
        )
    if "sensitivity" not in record:
        raise ImportFormatError(
            f"{where}.sensitivity", f"missing (one of {', '.join(SENSITIVITIES)})"
        )
    level = record["sensitivity"]
    if not isinstance(level, str) or level not in _SENSITIVITY_SET:
        raise ImportFormatError(
            f"{where}.sensitivity",
            f"unknown sensitivity {level!r} (one of {', '.join(SENSITIVITIES)})",
        )
    _number(record, "salience", where, 0.0, math.inf)
    _number(record, "confidence", where, 0.0, 1.0)
    _check_labels(record, where)
    _check_parts(record, where)
    return record_id


def _check_labels(record: dict[str, Any], where: str) -> None:
    """``scope``, ``tags`` and the two stamps."""
    scope = record.get("scope")
    if scope is not None:
        if not isinstance(scope, str):
            raise ImportFormatError(f"{where}.scope", f"expected a string, found {_kind(scope)}")
        _short(scope, f"{where}.scope")
    tags = record.get("tags")
    if tags is not None:
        if not isinstance(tags, list):
            raise ImportFormatError(
                f"{where}.tags", f"expected a list of strings, found {_kind(tags)}"
            )
        for position, tag in enumerate(tags):
            if not isinstance(tag, str):
                raise ImportFormatError(
                    f"{where}.tags[{position}]", f"expected a string, found {_kind(tag)}"
                )
            _short(tag, f"{where}.tags[{position}]")
    for key in ("created_at", "updated_at"):
        stamp = record.get(key)
        if stamp is not None and not isinstance(stamp, str):
            raise ImportFormatError(
                f"{where}.{key}", f"expected a time string, found {_kind(stamp)}"
            )


def _check_parts(record: dict[str, Any], where: str) -> None:
    """The parts that hold objects and lists, and each relation."""
    for key in ("payload", "lifecycle", "provenance", "interpretation"):
        value = record.get(key)
        if value is not None and not isinstance(value, dict):
            raise ImportFormatError(f"{where}.{key}", f"expected an object, found {_kind(value)}")
    audit = record.get("audit_log")
    if audit is not None and not isinstance(audit, list):
        raise ImportFormatError(f"{where}.audit_log", f"expected a list, found {_kind(audit)}")
    relations = record.get("relations")
    if relations is not None:
        if not isinstance(relations, list):
            raise ImportFormatError(
                f"{where}.relations", f"expected a list of relations, found {_kind(relations)}"
            )
        for position, relation in enumerate(relations):
            _check_relation(relation, f"{where}.relations[{position}]")


def _check_relation(relation: Any, where: str) -> None:
    if not isinstance(relation, dict):
        raise ImportFormatError(
            where, f"expected an object (predicate, target_id), found {_kind(relation)}"
        )
    _name(relation, "predicate", where)
    _name(relation, "target_id", where)
    weight = relation.get("weight")
    if weight is not None and (isinstance(weight, bool) or not isinstance(weight, _NUMBERS)):
        raise ImportFormatError(f"{where}.weight", f"expected a number, found {_kind(weight)}")


def _name(holder: dict[str, Any], key: str, where: str) -> str:
    """``holder[key]``: a non-empty string of at most ``MAX_NAME`` characters."""
    if key not in holder:
        raise ImportFormatError(f"{where}.{key}", "missing")
    value = holder[key]
    if not isinstance(value, str):
        raise ImportFormatError(f"{where}.{key}", f"expected a string, found {_kind(value)}")
    if not value:
        raise ImportFormatError(f"{where}.{key}", "empty")
    _short(value, f"{where}.{key}")
    control = _CONTROL.search(value)
    if control is not None:
        raise ImportFormatError(
            f"{where}.{key}",
            f"holds the control character U+{ord(control.group()):04X} at {control.start()} "
            "(ids and predicates are names)",
        )
    return value


def _short(value: str, where: str) -> None:
    if len(value) > MAX_NAME:
        raise ImportFormatError(where, f"{len(value):,} characters (at most {MAX_NAME:,})")


def _number(record: dict[str, Any], key: str, where: str, low: float, high: float) -> None:
    if key not in record:
        return
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, _NUMBERS):
        raise ImportFormatError(f"{where}.{key}", f"expected a number, found {_kind(value)}")
    if not (math.isfinite(value) and low <= value <= high):
        span = f"at least {low:g}" if high == math.inf else f"from {low:g} to {high:g}"
        raise ImportFormatError(f"{where}.{key}", f"{value!r} is out of range ({span})")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, _NUMBERS):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


# -- import --------------------------------------------------------------------------------------
def import_records_file(
    store: Store, path: str | Path, *, origin: str | None = None
) -> ImportResult:
    """Add the records of the file at ``path`` to ``store`` (see the module): one transaction,
    one undo step. ``ImportFormatError`` (``BAD_IMPORT``) for a bad file: nothing written. Other
    errors as for any write (``STORE_READ_ONLY``, ``STORE_BUSY``). Any thread."""
    return install_records(store, read_records_file(path), origin=origin)


def install_records(
    store: Store,
    loaded: RecordsFile,
    *,
    origin: str | None = None,
    label: str | None = None,
    progress: Progress | None = None,
) -> ImportResult:
    """Write checked records into ``store`` as a step of ``origin`` (default: the store's),
    labelled ``label`` (default ``Import N Membrane records``). Checks them against the store
    inside the transaction (``check_against``): ``ImportFormatError`` there rolls it back. Any
    thread; undoable (one step)."""
    records, texts = loaded.records, loaded.texts
    count = len(records)
    text = label or f"Import {count:,} Membrane record{'' if count == 1 else 's'}"
    relations = 0
    with store.transaction(OpKind.BATCH, text, origin=origin) as tx:
        tx.lazy_images = True  # images made from the texts, never parsed again
        graph = tx.graph
        check_against(graph.nodes, loaded)
        start = tx.counter(RECORD_SEQ)
        put_node, put_edge = tx.put_node, tx.put_edge
        for offset, (record, record_text) in enumerate(zip(records, texts, strict=True), 1):
            put_node(record_node(record, start + offset, record_text))
            if progress is not None and offset % 5_000 == 0:
                progress(offset, count)
        ids = {record["id"] for record in records}
        exists = ids.union(graph.nodes) if graph.nodes else ids
        for record in records:
            if record.get("relations"):
                for edge in relation_edges(record, exists):
                    put_edge(edge)
                    relations += 1
        if count:
            tx.set_meta(RECORD_SEQ, start + count)
    if progress is not None:
        progress(count, count)
    return ImportResult(loaded.path, count, relations, tx.changeset)


# -- export --------------------------------------------------------------------------------------
def export_relations(
    record: Mapping[str, Any], outgoing: Iterable[Edge], nodes: Collection[str]
) -> list[Any]:
    """The relations a record is exported with (see the module): its stored relations that
    still hold (target not a node of the store, or its edge still there), in stored order, then
    one ``{predicate, target_id}`` per edge in ``outgoing`` (the edges leaving the record, in
    order) that none of them stands for, but the hierarchy's own (``contains``,
    ``semantic_contains``: a parent's bookkeeping, not a relation). ``nodes``: the store's node
    ids. Pure."""
    edges = {(edge.type, edge.to_id): edge for edge in outgoing}
    kept: list[Any] = []
    covered: set[tuple[str, str]] = set()
    for relation in record.get("relations") or ():
        if not isinstance(relation, Mapping):
            kept.append(relation)
            continue
        key = (relation.get("predicate"), relation.get("target_id"))
        if key in edges:
            covered.add(key)
            kept.append(relation)
        elif key[1] not in nodes:
            kept.append(relation)
    added = [
        {"predicate": predicate, "target_id": target}
        for (predicate, target), edge in edges.items()
        if (predicate, target) not in covered and not edge.internal
    ]
    return kept + added


def records_document(graph: Graph) -> list[dict[str, Any]]:
    """Every record of ``graph`` in import order (``seq_to``, then row), as Membrane's JSON with
    the relations ``export_relations`` gives. Read under the store lock."""
    nodes = graph.nodes
    out = []
    for node in sorted(
        (n for n in nodes.values() if is_record(n)), key=attrgetter("seq_to", "ord")
    ):
        record = record_json(node)
        outgoing = [edge for edge in graph.edges_of(node.id) if edge.from_id == node.id]
        relations = export_relations(record, sorted(outgoing, key=attrgetter("ord")), nodes)
        if relations != (record.get("relations") or []):  # else as stored (``null`` too)
            record["relations"] = relations
        out.append(record)
    return out


def records_text(store: Store) -> tuple[str, int]:
    """Every record of the store as the export's text and the number of records. Any thread;
    reads one snapshot."""
    with store.reading() as graph:
        records = records_document(graph)
    return json.dumps(records, ensure_ascii=False, indent=2) + "\n", len(records)


def export_records_file(store: Store, path: str | Path) -> ExportResult:
    """Write every record of ``store`` to ``path`` (see the module): temp file, fsync, rename,
    the previous file kept as ``NAME.bak``. Any thread; writes nothing to the store."""
    text, count = records_text(store)
    data = text.encode("utf-8")
    target = Path(path)
    write_bytes_atomic(target, data)
    return ExportResult(str(target.resolve()), count, len(data))

"""Import and export of Luker files (memory graph and schema) to and from a store."""

from __future__ import annotations

import datetime as dt
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.injection import INJECTION_KEYS
from memgraph_gui.core.domain.pieces import release, releasing
from memgraph_gui.core.domain.schema import SCHEMA_FILE_TYPE, normalize_schema
from memgraph_gui.core.luker.file_format import ParsedStore, build_export, parse_export
from memgraph_gui.core.luker.import_report import REPORT_META_KEY, ImportPlan, ImportReport
from memgraph_gui.core.luker.json_values import require_storable
from memgraph_gui.core.storage.bulk import Progress
from memgraph_gui.core.storage.safe_io import read_json, write_json_atomic
from memgraph_gui.core.storage.store import Store


@dataclass(frozen=True)
class PreparedImport:
    """A Luker export (and optional schema) validated and normalised, not yet written."""

    parsed: ParsedStore
    schema: list[dict[str, Any]] | None

    @property
    def report(self) -> ImportReport:
        """Every repair reading the file made (and, after ``check_import``, what it adds)."""
        return self.parsed.report


def prepare_import(
    doc: Any, schema_doc: Any = None, *, prechecked: bool = False, source: str = ""
) -> PreparedImport:
    """Validate everything up front; raises ``ImportFormatError`` naming the bad path.

    Both documents are refused when they hold NaN, Infinity (``nodes.n_3.fields.score``,
    ``schema[0].compression.threshold``) or a lone surrogate, unless ``prechecked`` says they were
    read by ``safe_io.read_json``, which refuses those itself. Repairs made while normalising are
    in ``parsed.warnings`` and, each named, in ``report`` (whose ``source`` is ``source``). Pure;
    writes nothing.
    """
    schema = None
    if schema_doc is not None:
        if not prechecked:
            require_storable(schema_doc)
        schema = normalize_schema(schema_doc)
    parsed = parse_export(doc, prechecked=prechecked)
    if source:
        parsed = replace(parsed, report=replace(parsed.report, source=source))
    return PreparedImport(parsed, schema)


def release_document(doc: Any) -> None:
    """Drop a Luker document that ``prepare_import`` read and nothing else uses, a slice of
    nodes or links at a time: dropped whole, a 50k export's ~10^6 objects are freed in one call
    that holds the GIL 20-35 ms (a window importing on a worker thread cannot paint meanwhile).
    Only its ``nodes`` and ``edges`` are emptied, which ``prepare_import`` never keeps (the meta
    it makes may keep other members of ``doc``). Any thread."""
    if isinstance(doc, dict):
        for key in ("nodes", "edges"):
            members = doc.get(key)
            if isinstance(members, (dict, list)):
                release(members)


def releasing_prepared(prepared: PreparedImport) -> Iterator[bool]:
    """Drop the rows of a ``prepared`` import that is written and that nothing else will write,
    a step at a time (see ``pieces.dismantling``): its ~50k nodes and ~150k links (the store
    keeps copies) dropped with the last reference went in one call that held the GIL ~100 ms,
    on whichever thread let go of it last. Its report stays; it cannot be written again. Any
    thread."""
    for rows in (prepared.parsed.nodes, prepared.parsed.edges):
        for _ in releasing(rows):
            yield True


def prepare_import_files(
    path: str | os.PathLike[str], schema_path: str | os.PathLike[str] | None = None
) -> PreparedImport:
    """``prepare_import`` from files (a Luker export, and a schema export or bare array)."""
    schema_doc = read_json(schema_path) if schema_path is not None else None
    doc = read_json(path)
    return prepare_import(doc, schema_doc, prechecked=True, source=str(path))


def check_import(store: Store, prepared: PreparedImport) -> PreparedImport:
    """``prepared`` with its report completed by what writing it into ``store`` would do (nodes
    and links replaced, node types the schema does not know), and the report put in the meta the
    import writes (kept in the store as ``importReport``: see ``kept_report``). A read; any
    thread. ``install_import`` still refuses a store that got nodes since, unless ``replace``."""
    with store.reading() as graph:
        current_nodes, current_links = len(graph.nodes), len(graph.edges)
        current_types = [spec.id for spec in graph.schema.types]
    known = set(current_types if prepared.schema is None else _type_ids(prepared.schema))
    counts = Counter(n.type for n in prepared.parsed.nodes)
    types = tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    plan = ImportPlan(
        replace=current_nodes > 0,
        current_nodes=current_nodes,
        current_links=current_links,
        types=types,
        unknown_types=tuple(t for t, _n in types if t not in known),
        schema_replaced=prepared.schema is not None,
    )
    report = replace(prepared.report, plan=plan)
    meta = {**prepared.parsed.meta, REPORT_META_KEY: report.to_json()}
    return PreparedImport(replace(prepared.parsed, report=report, meta=meta), prepared.schema)


def kept_report(store: Store) -> ImportReport | None:
    """The report of the import that made ``store``'s contents (None: none kept, or unreadable)."""
    with store.reading() as graph:
        doc = graph.meta.get(REPORT_META_KEY)
    if not isinstance(doc, dict):
        return None
    try:
        return ImportReport.from_json(doc)
    except (KeyError, TypeError, ValueError):
        return None


def _type_ids(schema: list[dict[str, Any]]) -> list[str]:
    return [str(item.get("id", "")) for item in schema if isinstance(item, dict)]


def import_luker(
    store: Store,
    doc: Any,
    *,
    schema_doc: Any = None,
    replace: bool = False,
    backup: bool = True,
) -> ChangeSet:
    """Load a Luker export into ``store`` (validated in full first; one transaction).

    A store that already has nodes is refused unless ``replace``; replacing keeps the previous
    store as ``NAME.bak`` unless ``backup`` is False. Without ``schema_doc`` the store keeps its
    schema (Luker's default for a new store). Clears the undo history. The import's report is
    kept in the store (``kept_report``).
    """
    prepared = check_import(store, prepare_import(doc, schema_doc))
    return install_import(store, prepared, replace=replace, backup=backup)


def install_import(
    store: Store,
    prepared: PreparedImport,
    *,
    replace: bool = False,
    backup: bool = True,
    progress: Progress | None = None,
) -> ChangeSet:
    """Write a prepared import into ``store`` (see ``import_luker``). The emptiness check
    (``STORE_NOT_EMPTY`` unless ``replace``), the ``.bak`` copy and the kept schema are taken
    inside the replacement's own write lock, so no batch lands between them and the load.
    ``progress(done, total)`` reports the rows written (``Store.replace_all``)."""
    parsed, schema = prepared.parsed, prepared.schema
    meta = dict(parsed.meta)
    meta["schema"] = schema  # None: the store's own, read under the lock
    if "injection" in meta:
        ids = {n.id for n in parsed.nodes}
        kept = {k: [i for i in meta["injection"].get(k) or [] if i in ids] for k in INJECTION_KEYS}
        meta["injection"] = {  # visibleIds keeps its recorded order; the others are sets
            k: v if k == "visibleIds" else sorted(v) for k, v in kept.items()
        }
    return store.replace_all(
        parsed.nodes,
        parsed.edges,
        meta,
        backup=backup,
        if_empty=not replace,
        keep_meta=("schema",),
        progress=progress,
    )


def export_luker(store: Store) -> dict[str, Any]:
    """The store as a Luker memory-graph export document."""
    with store.reading() as graph:
        return build_export(list(graph.nodes.values()), list(graph.edges.values()), graph.meta)


def export_luker_file(store: Store, path: str | os.PathLike[str]) -> None:
    """Write ``export_luker`` safely (temp file, fsync, rename, ``.bak`` of the old file)."""
    write_json_atomic(path, export_luker(store))


def schema_document(store: Store, *, character: str = "") -> dict[str, Any]:
    """Luker's schema export file for the store's schema."""
    with store.reading() as graph:
        types = graph.schema.to_json()
    return {
        "type": SCHEMA_FILE_TYPE,
        "version": 1,
        "exportedAt": dt.datetime.now(dt.UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z"),
        "scope": "character" if character else "global",
        "characterName": character,
        "schema": types,
    }


def import_schema_file(store: Store, path: str | os.PathLike[str]) -> ChangeSet | None:
    """Replace the store's schema from a Luker schema export (or a bare array). Undoable."""
    from memgraph_gui.core.luker.write_api import WriteApi

    return WriteApi(store).set_schema(read_json(path)).changes

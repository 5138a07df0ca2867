"""Luker's memory-graph export: validate, normalise (as Luker does on load) and write back.

``parse_export`` checks the whole document before anything is written and raises
``ImportFormatError`` naming the offending path (``nodes.n_17.title: expected a string``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.domain.schema import SCHEMA_FILE_TYPE
from memgraph_gui.core.luker.bulk_parse import parse_edges, parse_nodes
from memgraph_gui.core.luker.hierarchy_repair import repair_hierarchy
from memgraph_gui.core.luker.import_report import ImportReport, LinkIssue, NodeIssue, NodeRef
from memgraph_gui.core.luker.json_values import require_storable
from memgraph_gui.core.luker.key_repair import repoint_hierarchy, resolve_claims
from memgraph_gui.core.luker.node_parse import NODE_SUFFIX, number, whole
from memgraph_gui.core.luker.oplog import replay_oplog
from memgraph_gui.core.luker.repair_log import LinkRepair, NodeRepair, RepairLog

COUNTERS = ("nodeSeq", "seqCounter", "appliedSeqTo", "loggedSeqTo", "sourceMessageCount")
_KNOWN_TOP = {
    "nodes",
    "edges",
    *COUNTERS,
    "lastRecallTrace",
    "lastRecallProjection",
    "lastExtractionDebug",
    "memgraph",
}


@dataclass
class ParsedStore:
    """A normalised store ready for ``Store.replace_all``, and what normalising it repaired.

    ``warnings`` has one line per kind of repair (dropped links and edges, children added to a
    parent's list, an operation log replayed); empty when the document was already consistent.
    ``report`` names each repair with the nodes it concerns (no ``plan`` yet: see
    ``interop.check_import``).
    """

    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    report: ImportReport = field(default_factory=lambda: ImportReport("", 0, 0, 0, 0))


def parse_export(doc: Any, *, prechecked: bool = False) -> ParsedStore:
    """Validate and normalise a Luker export (or this tool's own export of one). Pure; any thread.

    Accepted: Luker's store ``{nodes, edges, counters...}`` (``nodes`` an object keyed by id, or an
    array of nodes); an object holding only known store keys such as counters (an empty store,
    as Luker reads it); Luker's older ``{version, opLog}`` shape, replayed as Luker replays it
    (``oplog``). Normalised as Luker's loader does, then parent and children made to agree
    (``hierarchy_repair``); every repair is listed in ``warnings``.

    ``prechecked`` skips the walks looking for NaN, Infinity and lone surrogates, for a document
    read by ``safe_io.read_json`` (which refuses those itself).

    Raises:
        ImportFormatError: naming the path, for anything that is not such a document: NaN,
            Infinity or a lone surrogate anywhere, values of the wrong type, a parent cycle, a
            non-object, a Luker schema export, or an object with neither ``nodes`` nor ``edges``
            and unknown keys.
    """
    if not prechecked:
        require_storable(doc)
    if not isinstance(doc, Mapping):
        raise ImportFormatError(
            "", "expected a Luker memory-graph export: a JSON object with 'nodes' and 'edges'"
        )
    log = RepairLog()
    doc = _store_document(doc, log)
    raw_nodes = doc.get("nodes", {})
    if isinstance(raw_nodes, list):
        raw_nodes = _nodes_from_list(raw_nodes)
    if not isinstance(raw_nodes, Mapping):
        raise ImportFormatError("nodes", "expected an object keyed by node id")
    raw_edges = doc.get("edges", [])
    if not isinstance(raw_edges, list):
        raise ImportFormatError("edges", "expected an array")
    claims: list[tuple[str, str]] = []
    nodes = parse_nodes(raw_nodes, log, claims)
    dropped = {key: why for key, _title, why in log.dropped_nodes}
    aliases = resolve_claims(claims, {n.id for n in nodes} | set(dropped), log)
    nodes = repair_hierarchy(repoint_hierarchy(nodes, aliases, log), log)
    edges = parse_edges(raw_edges, {n.id for n in nodes}, log, aliases, dropped)
    report = _report(log, nodes, aliases, len(raw_nodes), len(raw_edges), len(edges))
    return ParsedStore(nodes, edges, _meta(doc, nodes), log.messages(), report)


def _report(
    log: RepairLog,
    nodes: list[Node],
    aliases: Mapping[str, str],
    file_nodes: int,
    file_links: int,
    links: int,
) -> ImportReport:
    """The repairs of ``log`` with every node named by id and title (as imported, or as the
    file wrote it for a node not imported)."""
    titles = {key: title or key for key, title, _why in log.dropped_nodes}
    titles.update((n.id, n.title) for n in nodes)

    def ref(node_id: str) -> NodeRef:
        if node_id not in titles and node_id in aliases:  # a node's inner id: that node's title
            return NodeRef(node_id, titles.get(aliases[node_id], ""))
        return NodeRef(node_id, titles.get(node_id, ""))

    def name(node_id: str) -> str:
        return ref(node_id).text() if node_id in titles else node_id

    def node_issue(repair: NodeRepair) -> NodeIssue:
        return NodeIssue(ref(repair.node), repair.what.format(*map(name, repair.others)))

    def link_issue(repair: LinkRepair) -> LinkIssue:
        moved = repair.moved_to
        return LinkIssue(
            repair.index,
            repair.relation,
            ref(repair.source),
            ref(repair.target),
            repair.reason,
            None if moved is None else (ref(moved[0]), ref(moved[1])),
        )

    return ImportReport(
        source="",
        file_nodes=file_nodes,
        file_links=file_links,
        nodes=len(nodes),
        links=links,
        dropped_nodes=tuple(NodeIssue(ref(key), why) for key, _title, why in log.dropped_nodes),
        key_mismatches=tuple(map(node_issue, log.key_mismatches)),
        dropped_links=tuple(map(link_issue, log.dropped_links)),
        moved_links=tuple(map(link_issue, log.moved_links)),
        parent_repairs=tuple(map(node_issue, log.parent_repairs)),
        notes=tuple(log.notes),
    )


def _store_document(doc: Mapping[str, Any], log: RepairLog) -> Mapping[str, Any]:
    """``doc`` itself, or the store replayed from an opLog; refuses what is not a memory graph."""
    if "nodes" in doc or "edges" in doc:
        return doc
    if "opLog" in doc:
        return replay_oplog(doc, log)
    if doc.get("type") == SCHEMA_FILE_TYPE or "schema" in doc:
        raise ImportFormatError(
            "",
            "this is a Luker schema export, not a memory graph (it has no 'nodes'); "
            "import it as a schema (--schema, or the 'schema import' command)",
        )
    unknown = sorted(str(key) for key in doc if key not in _KNOWN_TOP)
    if unknown:
        raise ImportFormatError(
            "",
            "not a Luker memory-graph export: it has neither 'nodes' nor 'edges' "
            f"(unknown keys: {', '.join(unknown)})",
        )
    return doc


def _nodes_from_list(items: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for index, item in enumerate(items):
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            raise ImportFormatError(f"nodes[{index}].id", "expected a string id")
        if item["id"] in out:
            raise ImportFormatError(f"nodes[{index}].id", "the same id as an earlier node")
        out[item["id"]] = item
    return out


def _meta(doc: Mapping[str, Any], nodes: list[Node]) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for key in COUNTERS:
        value = number(doc, key, "")
        meta[key] = None if value is None else whole(value)
    suffixes = [int(m.group(1)) for n in nodes if (m := NODE_SUFFIX.match(n.id))]
    meta["nodeSeq"] = max([meta["nodeSeq"] or 0, *suffixes])
    meta["seqCounter"] = max([meta["seqCounter"] or 0, *(n.seq_to for n in nodes)])
    applied = meta["appliedSeqTo"] if meta["appliedSeqTo"] is not None else meta["seqCounter"]
    meta["appliedSeqTo"] = applied
    meta["loggedSeqTo"] = max(meta["loggedSeqTo"] or 0, applied)
    meta["seqCounter"] = max(meta["seqCounter"], meta["loggedSeqTo"])
    meta["sourceMessageCount"] = meta["sourceMessageCount"] or 0
    trace = doc.get("lastRecallTrace")
    meta["lastRecallTrace"] = trace if isinstance(trace, list) else []
    projection = doc.get("lastRecallProjection")
    meta["lastRecallProjection"] = projection if isinstance(projection, Mapping) else None
    extra = {k: v for k, v in doc.items() if k not in _KNOWN_TOP}
    if extra:
        meta["lukerExtra"] = extra
    own = doc.get("memgraph")
    if isinstance(own, Mapping) and isinstance(own.get("injection"), Mapping):
        meta["injection"] = _injection(own["injection"])
    return meta


def build_export(nodes: list[Node], edges: list[Edge], meta: Mapping[str, Any]) -> dict[str, Any]:
    """The Luker export document (nodes keyed by id in store order, then edges, counters)."""
    doc: dict[str, Any] = {
        "nodes": {n.id: n.to_store_json() for n in sorted(nodes, key=lambda n: n.ord)},
        "edges": [e.to_store_json() for e in sorted(edges, key=lambda e: e.ord)],
    }
    for key in COUNTERS:
        doc[key] = meta.get(key, 0) or 0
    doc["lastRecallTrace"] = meta.get("lastRecallTrace") or []
    doc["lastRecallProjection"] = meta.get("lastRecallProjection")
    doc.update(meta.get("lukerExtra") or {})
    if meta.get("injection"):
        doc["memgraph"] = {"injection": meta["injection"]}
    return doc


def _injection(raw: Mapping[str, Any]) -> dict[str, list[str]]:
    """This tool's own ``memgraph.injection`` block: three arrays of ids."""
    out: dict[str, list[str]] = {}
    for key in ("alwaysInjectIds", "recallSelectedIds", "visibleIds"):
        ids = raw.get(key) or []
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ImportFormatError(f"memgraph.injection.{key}", "expected an array of node ids")
        out[key] = ids
    return out

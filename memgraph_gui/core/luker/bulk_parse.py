"""Whole-document passes of ``parse_export``: every node, then every edge, in one loop each.

The common shapes (what Luker and this tool write: exact JSON types, trimmed ids, a whole
``seqTo``) are read inline; anything else goes through ``node_parse``'s per-item validators, which
normalise it or raise ``ImportFormatError`` naming the path. Both ways give the same result for
every input the inline reading accepts, so the errors and repairs are exactly those of the
per-item validators, in document order.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from json.encoder import encode_basestring
from types import MappingProxyType
from typing import Any

from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.domain.freeze import LazyFields, freeze, thaw
from memgraph_gui.core.domain.model import NODE_FIELDS, Edge, Node, nodes_from_columns
from memgraph_gui.core.domain.pieces import release, slices
from memgraph_gui.core.graph.topology import normalize_text
from memgraph_gui.core.luker.node_parse import (
    MAX_SAFE,
    floor_range,
    parse_edge,
    parse_node,
)
from memgraph_gui.core.luker.repair_log import LinkRepair, RepairLog
from memgraph_gui.core.luker.validate import MAX_TEXT, MAX_TITLE

_FIELDS_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""The stored ``fields`` column's encoding (``Node.fields_json``), built once."""
_STRING = encode_basestring
"""A string as that encoder writes it (with ``ensure_ascii=False``)."""
_SCALARS = frozenset({int, float, bool, type(None)})
_COLUMNS = tuple(name for name in NODE_FIELDS if name not in ("level", "ord"))


def parse_nodes(
    raw_nodes: Mapping[Any, Any], log: RepairLog, claims: list[tuple[str, str]] | None = None
) -> list[Node]:
    """Every semantic node of ``raw_nodes`` (keyed by id) in document order, as ``parse_node``
    reads each; non-semantic ones are dropped (and logged). The key is the node's id, as Luker
    has it; a node whose own ``id`` (a string or number) differs is appended to ``claims`` as
    ``(key, id)`` for ``key_repair``.

    Raises:
        ImportFormatError: for the first invalid node, or a second node with the same id.
    """
    rows: list[tuple[Any, ...]] = []
    seen: set[str] = set()
    for key, raw in raw_nodes.items():
        text_key = str(key)
        values = _plain_node(text_key, raw) if type(raw) is dict else None
        if values is None:
            node = parse_node(text_key, raw, f"nodes.{text_key}")
            if node is None:
                title = raw.get("title")
                title = title if isinstance(title, str) else ""
                log.node_dropped(text_key, title, "level is not semantic")
                continue
            values = tuple(getattr(node, name) for name in _COLUMNS)
        node_id = values[0]
        if claims is not None and isinstance(raw, Mapping):
            claimed = _claimed_id(raw.get("id"))
            if claimed and claimed != node_id:
                claims.append((node_id, claimed))
        if node_id in seen:
            raise ImportFormatError(
                f"nodes.{text_key}", f"the same id as another node ({node_id!r})"
            )
        seen.add(node_id)
        rows.append(values)
    columns: dict[str, Any] = {name: [] for name in _COLUMNS}
    for part in slices(rows):  # one transposition of 50k rows held the GIL ~15 ms
        for column, values in zip(columns.values(), zip(*part, strict=True), strict=True):
            column.extend(values)
    columns["level"] = ("semantic",) * len(rows)
    columns["ord"] = (0,) * len(rows)
    release(rows)
    return nodes_from_columns(columns)


def _claimed_id(value: Any) -> str:
    """A node's own ``id`` as an edge end would name it (trimmed); ``""`` for anything else."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return ""
    return str(value).strip()


def _plain_node(key: str, raw: dict[str, Any]) -> tuple[Any, ...] | None:
    """The column values of a node in the common shape, or None to let ``parse_node`` read it."""
    get = raw.get
    level, kind, title = get("level"), get("type"), get("title")
    seq, parent, depth = get("seqTo"), get("parentId"), get("semanticDepth")
    archived, rollup, superseded = get("archived"), get("semanticRollup"), get("supersededBy")
    node_id = key.strip()
    if not (
        node_id
        and (level is None or level == "semantic")
        and (kind is None or type(kind) is str)
        and (title is None or (type(title) is str and len(title) <= MAX_TITLE))
        and (seq is None or (type(seq) is int and 0 <= seq <= MAX_SAFE))
        and (parent is None or type(parent) is str)
        and (depth is None or (type(depth) is int and -MAX_SAFE <= depth <= MAX_SAFE))
        and (archived is None or archived is True or archived is False)
        and (rollup is None or rollup is True or rollup is False)
        and (superseded is None or type(superseded) is str)
    ):
        return None
    fields = _plain_fields(get("fields"))
    children = _plain_children(get("childrenIds"))
    if fields is None or children is None:
        return None
    spans = get("floorRange")
    return (
        node_id,
        kind or "semantic",
        normalize_text(title or node_id),
        seq or 0,
        fields,
        (parent or "").strip(),
        children,
        bool(archived),
        bool(rollup),
        depth or 0,
        None if spans is None else _span(spans, key),
        superseded or None,
    )


def _plain_fields(fields: Any) -> LazyFields | None:
    """``fields`` frozen, with its stored JSON text made once; None unless a plain object whose
    strings are within ``MAX_TEXT``."""
    if fields is None:
        fields = {}
    elif type(fields) is not dict:
        return None
    flat = texts = True
    for value in fields.values():
        kind = type(value)
        if kind is str:
            if len(value) > MAX_TEXT:
                return None
        elif kind in _SCALARS:
            texts = False
        else:
            flat = texts = False
    if texts and all(type(key) is str for key in fields):  # what the encoder writes, sooner
        copy = dict(fields)
        text = "{" + ",".join([_STRING(k) + ":" + _STRING(v) for k, v in copy.items()]) + "}"
        return LazyFields.loaded(text, MappingProxyType(copy))
    if flat:  # scalars only: ``freeze`` would wrap a copy as it is, and ``thaw`` give it back
        copy = dict(fields)
        return LazyFields.loaded(_FIELDS_JSON(copy), MappingProxyType(copy))
    frozen = freeze(dict(fields))
    return LazyFields.loaded(_FIELDS_JSON(thaw(frozen)), frozen)


def _plain_children(children: Any) -> tuple[str, ...] | None:
    """``childrenIds`` when None or a list of trimmed, non-blank strings; else None."""
    if children is None or (type(children) is list and not children):
        return ()
    if type(children) is not list:
        return None
    for child in children:
        if type(child) is not str or not child or child.strip() != child:
            return None
    return tuple(children)


def _span(value: Any, key: str) -> tuple[int, int] | None:
    start, end = (value.get("start"), value.get("end")) if type(value) is dict else (None, None)
    if type(start) is int and type(end) is int and 0 <= start <= end:
        return start, end
    return floor_range(value, f"nodes.{key}.floorRange")


def parse_edges(
    items: list[Any],
    valid: set[str],
    log: RepairLog,
    aliases: Mapping[str, str] | None = None,
    dropped: Mapping[str, str] | None = None,
) -> list[Edge]:
    """Every edge of ``items`` between two distinct nodes of ``valid``, first of each
    ``(from, type, to)`` kept, in document order; the others dropped (and logged, each one).

    An end named in ``aliases`` (a node's own ``id`` that differs from its key) is moved to the
    node's key first, and the move logged. ``dropped`` maps the keys of nodes not imported to
    why, for the reason a link to one is dropped.

    Raises:
        ImportFormatError: for the first edge ``parse_edge`` refuses.
    """
    out: dict[tuple[str, str, str], Edge] = {}
    relations: dict[Any, str] = {}
    for index, item in enumerate(items):
        ends = _plain_edge(item, relations) if type(item) is dict else None
        if ends is None:
            ends = parse_edge(item, f"edges[{index}]")
        written, written_to, kind, seq = ends
        source = aliases.get(written, written) if aliases else written
        target = aliases.get(written_to, written_to) if aliases else written_to
        key = (source, kind, target)
        if source in valid and target in valid and source != target and key not in out:
            out[key] = Edge(source, target, kind, seq)
            if source != written or target != written_to:
                reason = "an end named a node by its id, not its key"
                log.link_moved(
                    LinkRepair(index, written, written_to, kind, reason, (source, target))
                )
            continue
        problem = _edge_problem(source, target, valid, dropped or {}) or (
            "a repeat of an earlier edge"
        )
        log.link_dropped(LinkRepair(index, written, written_to, kind, problem))
    edges = list(out.values())
    release(out)  # its 150k key tuples, freed in one call when dropped, held the GIL ~8 ms
    return edges


def _plain_edge(item: dict[str, Any], relations: dict[Any, str]) -> tuple[Any, ...] | None:
    """``parse_edge``'s answer for an edge with string ends and a whole ``seqTo``, or None."""
    source, target, relation, seq = (
        item.get("from"),
        item.get("to"),
        item.get("type"),
        item.get("seqTo"),
    )
    if not (
        type(source) is str
        and type(target) is str
        and (relation is None or type(relation) is str)
        and (seq is None or (type(seq) is int and 0 <= seq <= MAX_SAFE))
    ):
        return None
    kind = relations.get(relation)
    if kind is None:
        kind = relations[relation] = normalize_text(relation or "") or "related"
    return source.strip(), target.strip(), kind, seq


def _edge_problem(
    source: str, target: str, valid: set[str], dropped: Mapping[str, str]
) -> str | None:
    if not source or not target:
        return "an end is blank"
    if source == target:
        return "a self-edge"
    for end in (source, target):
        if end not in valid and end in dropped:
            return f"an end is a node not imported ({dropped[end]})"
    if source not in valid or target not in valid:
        return "an end names no node"
    return None

"""Luker's older persisted shape ``{version, opLog: [...]}``, replayed into a store document.

Before floor-state, Luker persisted a chat's memory as an operation log (``PERSISTED_STORE_VERSION``
8). It rebuilds the graph by replaying the log into an empty store (persistence.js
``buildRuntimeStoreFromPersistedState`` and ``applyMemoryLogEntryToStore``; the one-shot upgrade in
migrations/shapes/v8-oplog.js replays the same way). We replay exactly like that:

- entries in array order; an entry is ``{seq, ops}``, each op one of ``upsert_node`` (``node``, or
  the op itself: the node replaces any node with its id, reduced to Luker's snapshot keys, so
  ``floorRange``/``supersededBy`` are dropped and a missing ``type`` becomes ``"unknown"``),
  ``delete_node`` (``nodeId`` or ``id``; removes the node's descendants along ``childrenIds`` too,
  takes it off its parent's list and prunes its edges), ``upsert_edge`` / ``delete_edge`` (``edge``,
  or the op itself; ``(from, type, to)`` identifies an edge; blank ends and self-edges are ignored);
- after each entry Luker's hierarchy repair (``repairStoreAfterRollback``) runs, which also drops
  edges whose ends do not exist at that moment, and the counters rise to the entry's ``seq``;
- at the end ``appliedSeqTo`` rises to ``coveredSeqTo``; ``sourceMessageCount``,
  ``lastRecallTrace`` and ``lastRecallProjection`` carry over; ``swipeTailCache`` is dropped.

Where Luker silently skips a malformed entry or op, we refuse it naming its path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.luker.node_parse import (
    NODE_SUFFIX,
    check,
    links,
    number,
    parse_edge,
    parse_node,
    whole,
)
from memgraph_gui.core.luker.repair_log import RepairLog

_SNAPSHOT_KEYS = (
    "level",
    "title",
    "fields",
    "semanticDepth",
    "semanticRollup",
    "seqTo",
    "archived",
)
_OPS = ("upsert_node", "delete_node", "upsert_edge", "delete_edge")

EdgeKey = tuple[str, str, str]
"""``(from, to, type)`` of an edge during the replay."""


@dataclass
class _Replay:
    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    edges: list[EdgeKey] = field(default_factory=list)
    node_seq: int = 0
    seq_counter: int = 0
    applied: int = 0
    logged: int = 0
    latest: int = 0
    ops: int = 0


def replay_oplog(doc: Mapping[str, Any], log: RepairLog) -> dict[str, Any]:
    """The runtime store Luker rebuilds from ``doc["opLog"]``, as an export-shaped document.

    Raises:
        ImportFormatError: naming the entry or op (``opLog[3].ops[0].node.title``) that is malformed.
    """
    entries = doc.get("opLog")
    if not isinstance(entries, list):
        raise ImportFormatError("opLog", "expected an array of log entries")
    state = _Replay()
    for index, entry in enumerate(entries):
        _apply_entry(state, entry, f"opLog[{index}]")
    covered = max(whole(number(doc, "coveredSeqTo", "")), state.latest)
    applied = max(state.applied, covered)
    logged = max(state.logged, state.latest, applied)
    log.note(
        f"replayed Luker's older operation-log format ({len(entries):,} entries, "
        f"{state.ops:,} operations) into {len(state.nodes):,} nodes"
    )
    return {
        "nodes": state.nodes,
        "edges": [{"from": a, "to": b, "type": kind} for a, b, kind in state.edges],
        "nodeSeq": state.node_seq,
        "seqCounter": max(state.seq_counter, logged),
        "appliedSeqTo": applied,
        "loggedSeqTo": logged,
        "sourceMessageCount": doc.get("sourceMessageCount"),
        "lastRecallTrace": doc.get("lastRecallTrace"),
        "lastRecallProjection": doc.get("lastRecallProjection"),
    }


def _apply_entry(state: _Replay, entry: Any, path: str) -> None:
    if not isinstance(entry, Mapping):
        raise ImportFormatError(path, "expected a log entry {seq, ops}")
    seq = whole(number(entry, "seq", path))
    ops = check(entry, "ops", (list,), path, "an array of operations") or []
    for index, op in enumerate(ops):
        _apply_op(state, op, f"{path}.ops[{index}]")
    state.ops += len(ops)
    _luker_repair(state)
    state.logged = max(state.logged, seq)
    state.seq_counter = max(state.seq_counter, state.logged)
    state.applied = max(state.applied, seq)
    state.latest = max(state.latest, seq)


def _apply_op(state: _Replay, op: Any, path: str) -> None:
    if not isinstance(op, Mapping):
        raise ImportFormatError(path, "expected an operation object")
    kind = (check(op, "type", (str,), path, "a string") or "").strip().lower()
    if kind not in _OPS:
        raise ImportFormatError(f"{path}.type", f"expected one of {', '.join(_OPS)}")
    if kind == "delete_node":
        _delete_node(state, op, path)
        return
    key = "node" if kind == "upsert_node" else "edge"
    raw, where = (op, path) if op.get(key) is None else (op[key], f"{path}.{key}")
    if not isinstance(raw, Mapping):
        raise ImportFormatError(where, "expected an object")
    if kind == "upsert_node":
        _upsert_node(state, raw, where)
        return
    source, target, relation, _seq = parse_edge(raw, where)
    if source and target and source != target:
        edge = (source, target, relation)
        if kind == "delete_edge":
            state.edges = [e for e in state.edges if e != edge]
        elif edge not in state.edges:
            state.edges.append(edge)


def _upsert_node(state: _Replay, raw: Mapping[str, Any], path: str) -> None:
    node_id = (check(raw, "id", (str,), path, "a string id") or "").strip()
    if not node_id:
        raise ImportFormatError(f"{path}.id", "a node id must not be blank")
    parse_node(node_id, raw, path)  # validates a semantic node in full
    parent, children = links(raw, path)
    snapshot = {key: raw[key] for key in _SNAPSHOT_KEYS if key in raw}
    snapshot.update(id=node_id, type=raw.get("type") or "unknown")
    snapshot.update(parentId=parent, childrenIds=children)
    state.nodes[node_id] = snapshot
    if match := NODE_SUFFIX.match(node_id):
        state.node_seq = max(state.node_seq, int(match.group(1)))
    state.seq_counter = max(state.seq_counter, whole(number(raw, "seqTo", path)))


def _delete_node(state: _Replay, op: Mapping[str, Any], path: str) -> None:
    named = check(op, "nodeId", (str,), path, "a string")
    node_id = (named or check(op, "id", (str,), path, "a string") or "").strip()
    if not node_id:
        raise ImportFormatError(f"{path}.nodeId", "expected the id of the node to delete")
    doomed: dict[str, None] = {}
    stack = [node_id]
    while stack:  # Luker's dropNode recurses along childrenIds; a loop there is visited once
        current = stack.pop()
        if current in state.nodes and current not in doomed:
            doomed[current] = None
            stack.extend(state.nodes[current]["childrenIds"])
    for gone in doomed:
        parent = state.nodes.pop(gone)["parentId"]
        if parent in state.nodes:
            owner = state.nodes[parent]
            owner["childrenIds"] = [c for c in owner["childrenIds"] if c != gone]
    state.edges = [e for e in state.edges if e[0] not in doomed and e[1] not in doomed]


def _luker_repair(state: _Replay) -> None:
    """graph-ops.js ``repairStoreAfterRollback``, exactly: Luker runs it after every entry."""
    valid = set(state.nodes)
    for node_id, node in state.nodes.items():
        kept = (c for c in node["childrenIds"] if c != node_id and c in valid)
        node["childrenIds"] = list(dict.fromkeys(kept))
        if node["parentId"] == node_id or node["parentId"] not in valid:
            node["parentId"] = ""
    for node_id, node in state.nodes.items():
        owner = state.nodes.get(node["parentId"]) if node["parentId"] else None
        if owner is not None and node_id not in owner["childrenIds"]:
            owner["childrenIds"].append(node_id)
    state.edges = list(dict.fromkeys(e for e in state.edges if e[0] in valid and e[1] in valid))

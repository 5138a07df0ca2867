"""``applyExtractionBatch``: many ops, one transaction, refs resolved inside the batch.

Ops run in two passes like Luker's: creates, edits, deletes and link deletes in input order, then
every ``link_upsert`` and every create's inline ``links`` (so refs may point forward). A rejected op
changes nothing; the others commit together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.graph.topology import normalize_text
from memgraph_gui.core.graph.tx import Tx
from memgraph_gui.core.luker import link_ops, node_ops

OP_KINDS = ("create", "edit", "delete", "link_upsert", "link_delete")


@dataclass
class BatchOutcome:
    """What a batch did: the seed's ``applied`` / ``rejected`` plus counts for the wrappers."""

    applied: list[dict[str, Any]] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    edges_added: int = 0
    edges_removed: int = 0
    touched: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # edited nodes whose values already matched

    def to_json(self) -> dict[str, Any]:
        return {"applied": self.applied, "rejected": self.rejected}


def run_batch(tx: Tx, ops: list[Any], max_seq: int, *, preserve_seq: bool = False) -> BatchOutcome:
    """Apply ``ops`` inside ``tx``; per-op failures become ``rejected`` entries."""
    outcome = BatchOutcome()
    index = node_ops.BatchTitles.build(tx)
    refs: dict[str, str] = {}
    link_jobs: list[tuple[dict[str, Any], str, Any, list[Any], bool]] = []
    for op in ops:
        if not isinstance(op, dict):
            outcome.rejected.append(
                _rejection(
                    op,
                    MemgraphError("BAD_ARGS", f"an op must be an object, got {type(op).__name__}"),
                )
            )
            continue
        try:
            _first_pass(tx, index, op, max_seq, preserve_seq, refs, link_jobs, outcome)
        except MemgraphError as error:
            outcome.rejected.append(_rejection(op, error))
    for op, source_id, source_ref, links, strict in link_jobs:
        _link_pass(tx, op, source_id, source_ref, links, strict, refs, max_seq, outcome)
    return outcome


def _first_pass(
    tx: Tx,
    index: node_ops.BatchTitles,
    op: dict[str, Any],
    max_seq: int,
    preserve_seq: bool,
    refs: dict[str, str],
    link_jobs: list[tuple[dict[str, Any], str, Any, list[Any], bool]],
    outcome: BatchOutcome,
) -> None:
    kind = op.get("op", "create")
    if kind not in OP_KINDS:
        raise MemgraphError(
            "BAD_ARGS", f"unknown op {kind!r} (expected one of {', '.join(OP_KINDS)})"
        )
    if kind == "link_upsert":
        links = _links(op)
        link_jobs.append((op, op.get("sourceNodeId") or "", op.get("sourceRef"), links, True))
        return
    if kind == "create":
        links = _links(op) if op.get("links") is not None else []
        link_ops.check_specs(links)  # a bad inline link refuses the create, not just the link
        node = node_ops.create(tx, index, op, max_seq)
        ref = normalize_text(str(op.get("ref") or ""))
        if ref:
            refs[ref] = node.id
        outcome.applied.append({**op, "nodeId": node.id})
        outcome.touched.append(node.id)
        if links:
            link_jobs.append((op, node.id, None, links, False))
        return
    if kind == "edit":
        node, changed = node_ops.edit(tx, op, None if preserve_seq else max_seq)
        (outcome.touched if changed else outcome.unchanged).append(node.id)
    elif kind == "delete":
        outcome.touched.append(node_ops.archive(tx, op).id)
    else:
        outcome.edges_removed += link_ops.delete(tx, op)
    outcome.applied.append(op)


def _links(op: dict[str, Any]) -> list[Any]:
    links = op.get("links")
    if not isinstance(links, list):
        raise MemgraphError("BAD_ARGS", "links must be an array")
    return links


def _link_pass(
    tx: Tx,
    op: dict[str, Any],
    source_id: str,
    source_ref: Any,
    links: list[Any],
    strict: bool,
    refs: dict[str, str],
    max_seq: int,
    outcome: BatchOutcome,
) -> None:
    source = link_ops.resolve(tx, source_id, source_ref, refs)
    try:
        if not source:
            if strict:
                wanted = source_id or source_ref or "(none)"
                raise MemgraphError(
                    "NODE_NOT_FOUND", f"link_upsert: source {wanted} is not a live node"
                )
            return
        outcome.edges_added += link_ops.upsert(tx, source, links, refs, max_seq, strict=strict)
    except MemgraphError as error:
        if strict:
            outcome.rejected.append(_rejection(op, error))
        return
    if strict:
        outcome.applied.append(op)


def _rejection(op: Any, error: MemgraphError) -> dict[str, Any]:
    return {"op": op, "error": error.to_json()}  # code, message and any details

"""``WriteApi``: the seed's Write API. Every call is one transaction, one undo step, one ChangeSet.

Results are ``WriteResult``s: the seed's JSON payload (``result["id"]``) plus ``.changes``.
Argument errors raise ``BAD_ARGS`` before anything is read; a missing store raises
``MEMORY_STORE_MISSING``. ``on_commit(store)`` runs after each successful mutation.

Every call first refuses (``BAD_ARGS``, naming the place, e.g. ``ops[2].fields.name``) strings no
store can hold (lone surrogates) and nesting deeper than ``args.MAX_NESTING`` anywhere in its
arguments, so a Python caller never meets a raw ``UnicodeEncodeError`` and nothing is written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import MemgraphError, bad_args
from memgraph_gui.core.domain.results import WriteResult
from memgraph_gui.core.luker import args, node_ops
from memgraph_gui.core.luker.batch import BatchOutcome, run_batch
from memgraph_gui.core.luker.labels import create_label, quoted_title
from memgraph_gui.core.luker.node_ops import parse_expected
from memgraph_gui.core.luker.write_archive import ArchiveWrites
from memgraph_gui.core.luker.write_extra import ExtraWrites

if TYPE_CHECKING:
    from memgraph_gui.core.storage.store import Store


class WriteApi(ExtraWrites, ArchiveWrites):
    """Mutations over one store (or over None, where every call raises MEMORY_STORE_MISSING)."""

    def __init__(
        self,
        store: Store | None,
        *,
        on_commit: Callable[[Any], Any] | None = None,
        origin: str | None = None,
        preserve_seq_on_edit: bool = False,
    ) -> None:
        self._store = store
        self._on_commit = on_commit
        self._origin = origin
        self._preserve_seq = preserve_seq_on_edit

    # -- the recommended entry -------------------------------------------------------------------
    def apply_extraction_batch(
        self, *, ops: Any = None, max_seq: Any = None, label: str | None = None
    ) -> WriteResult:
        """Apply many ops atomically; failures land in ``rejected`` with ``{code, message}``."""
        if not isinstance(ops, list):
            raise bad_args("applyExtractionBatch: ops must be an array.")
        if label is not None and not isinstance(label, str):
            raise bad_args("applyExtractionBatch: label must be a string.")
        _storable(ops=ops, label=label)
        outcome, changes = self._run(OpKind.BATCH, label or _batch_label(ops), ops, max_seq)
        return WriteResult(outcome.to_json(), changes)

    # -- per-op wrappers -------------------------------------------------------------------------
    def create_node(
        self,
        *,
        type: Any = None,
        title: Any = None,
        fields: Any = None,
        links: Any = None,
        ref: Any = None,
    ) -> WriteResult:
        """Create a node (or merge into a same-type, same-title one); ``{id, ref?}``.

        Raises ``OP_FAILED`` (with ``rejected``) when the op is refused.
        """
        if not type:
            raise bad_args("createNode: type is required.")
        _storable(type=type, title=title, fields=fields, links=links, ref=ref)
        op: dict[str, Any] = {"op": "create", "type": type, "title": title or ""}
        op["fields"] = fields or {}
        if links is not None:
            op["links"] = [_link_spec(link, i) for i, link in enumerate(_list(links, "links"))]
        if ref:
            op["ref"] = ref
        label = create_label(type, title, fields)
        outcome, changes = self._run(OpKind.CREATE_NODE, label, [op], None)
        created = [a for a in outcome.applied if a.get("op") == "create"]
        if not created:
            first = outcome.rejected[0]["error"] if outcome.rejected else {}
            raise MemgraphError(
                "OP_FAILED",
                f"createNode failed: {first.get('message', '')}",
                rejected=outcome.rejected,
            )
        payload: dict[str, Any] = {"id": created[0]["nodeId"]}
        if ref:
            payload["ref"] = ref
        return WriteResult(payload, changes)

    def edit_node(
        self,
        *,
        id: Any = None,
        set_fields: Any = None,
        clear_fields: Any = None,
        title: Any = None,
        expected: Any = None,
        keep_seq: Any = False,
    ) -> WriteResult:
        """Patch a node: ``{ok: true, changed: true}`` after a change; ``{ok: true, changed: false,
        note: "values already match"}`` (nothing written, no undo step) when it would change
        nothing; ``{ok: false, error}`` when it is missing, archived or the patch is refused.

        ``expected`` (optional, ``{title?, fields?: {column: value | null}}``) is what the edit
        was based on. It is compared inside the write transaction, after every other process's
        commit: when the stored title or a named field has moved on (to a value other than the
        one proposed), the answer is ``{ok: false, error: {code: "EDIT_CONFLICT", nodeId,
        expected, current, proposed}}`` and nothing is written. Without it the edit is Luker's.
        A malformed ``expected`` raises ``BAD_ARGS`` before anything is read.

        ``keep_seq`` (default false: Luker's ``editNode``, which stamps the node's ``seqTo`` with
        the current seq) keeps the node's ``seqTo`` as it is: a person's correction (the desk's
        hand edits) does not move an old memory to the end of the timeline or make it look
        recent to recall. ``mark_current`` stamps it on request. Not a bool: ``BAD_ARGS``.
        """
        _storable(
            id=id, setFields=set_fields, clearFields=clear_fields, title=title, expected=expected
        )
        node_id = args.node_id(id)
        if not node_id:
            raise bad_args("editNode: id is required.")
        if not isinstance(keep_seq, bool):
            raise bad_args("editNode: keepSeq must be true or false.")
        op: dict[str, Any] = {
            "op": "edit",
            "nodeId": node_id,
            "setFields": set_fields or {},
            "clearFields": clear_fields or [],
        }
        if title is not None:
            op["title"] = title
        if expected is not None:
            parse_expected(expected, "editNode: expected")
            op["expected"] = expected
        label = f"Edit {quoted_title(self._title(node_id))}"
        outcome, changes = self._run(OpKind.EDIT_NODE, label, [op], None, keep_seq=keep_seq)
        result = _ok(outcome, changes)
        if not result["ok"]:
            return result
        if outcome.unchanged:
            payload = {"ok": True, "changed": False, "note": "values already match"}
            return WriteResult(payload, changes)
        return WriteResult({"ok": True, "changed": True}, changes)

    def mark_current(self, *, id: Any = None) -> WriteResult:
        """Stamp a live node's ``seqTo`` with the current seq (``meta.seqCounter``), as an agent's
        edit would: the desk's explicit "Mark as current". One undo step ("Mark 'Title' as
        current"); ``{ok: true, changed, seqTo}`` (``changed`` false, nothing written, when it
        is current already); ``{ok: false, error}`` for a missing, archived or non-semantic node.
        Not part of Luker's API.
        """
        _storable(id=id)
        node_id = args.node_id(id)
        if not node_id:
            raise bad_args("markCurrent: id is required.")
        store = self._require()
        label = f"Mark {quoted_title(self._title(node_id))} as current"
        try:
            with store.transaction(OpKind.EDIT_NODE, label, origin=self._origin) as tx:
                node, changed = node_ops.stamp_current(tx, node_id, tx.counter("seqCounter"))
        except MemgraphError as error:
            if error.code in ("NODE_NOT_FOUND", "NODE_ARCHIVED", "NODE_NOT_SEMANTIC"):
                return WriteResult({"ok": False, "error": error.to_json()}, None)
            raise
        self._committed(changed)
        return WriteResult({"ok": True, "changed": changed, "seqTo": node.seq_to}, tx.changeset)

    def delete_node(self, *, id: Any = None) -> WriteResult:
        """Archive (soft-delete) a node: ``{ok}``; restore with ``restore_node``."""
        _storable(id=id)
        node_id = args.node_id(id)
        if not node_id:
            raise bad_args("deleteNode: id is required.")
        outcome, changes = self._run(
            OpKind.ARCHIVE_NODE,
            f"Archive {quoted_title(self._title(node_id))}",
            [{"op": "delete", "nodeId": node_id}],
            None,
        )
        return _ok(outcome, changes)

    def upsert_links(self, *, source: Any = None, links: Any = None) -> WriteResult:
        """Add relation edges from ``source`` (``{id}``); ``{applied}`` = ops accepted (0 or 1)."""
        if not isinstance(source, dict) or not isinstance(links, list):
            raise bad_args("upsertLinks: source and links are required.")
        _storable(source=source, links=links)
        source_id = args.node_id(source.get("id"), "source.id")
        op = {
            "op": "link_upsert",
            "sourceNodeId": source_id,
            "sourceRef": source.get("ref"),
            "links": [_link_spec(link, i) for i, link in enumerate(links)],
        }
        label = f"Link {quoted_title(self._title(source_id))} to {len(links)} node(s)"
        outcome, changes = self._run(OpKind.UPSERT_LINKS, label, [op], None)
        payload: dict[str, Any] = {"applied": len(outcome.applied)}
        if outcome.rejected:
            payload["error"] = outcome.rejected[0]["error"]
        return WriteResult(payload, changes)

    def delete_links(
        self, *, source: Any = None, target: Any = None, relation: Any = None, direction: Any = None
    ) -> WriteResult:
        """Remove the ``relation`` edge(s) between two nodes: ``{removed}``."""
        _storable(source=source, target=target, relation=relation, direction=direction)
        source_id = args.node_id(source.get("id") if isinstance(source, dict) else None, "source")
        target_id = args.node_id(target.get("id") if isinstance(target, dict) else None, "target")
        if not source_id or not target_id or not relation or not isinstance(relation, str):
            raise bad_args("deleteLinks: source, target, relation required.")
        op = {
            "op": "link_delete",
            "sourceNodeId": source_id,
            "targetNodeId": target_id,
            "relation": relation.lower(),
            "direction": direction or "bidirectional",
        }
        outcome, changes = self._run(
            OpKind.DELETE_LINKS, f"Remove link '{relation.lower()}'", [op], None
        )
        payload: dict[str, Any] = {"removed": outcome.edges_removed}
        if outcome.rejected:
            payload["error"] = outcome.rejected[0]["error"]
        return WriteResult(payload, changes)

    # -- plumbing --------------------------------------------------------------------------------
    def _require(self) -> Store:
        if self._store is None or self._store.closed:
            raise MemgraphError("MEMORY_STORE_MISSING", "memory-graph write-api: no memory store")
        return self._store

    def _run(
        self, op_kind: OpKind, label: str, ops: list[Any], max_seq: Any, *, keep_seq: bool = False
    ) -> tuple[BatchOutcome, ChangeSet | None]:
        store = self._require()
        with store.transaction(op_kind, label, origin=self._origin) as tx:
            seq = args.whole(max_seq, "maxSeq", tx.counter("seqCounter"), minimum=0)
            outcome = run_batch(tx, ops, seq, preserve_seq=self._preserve_seq or keep_seq)
        self._committed(outcome.applied)
        return outcome, tx.changeset

    def _committed(self, applied: list[Any] | bool) -> None:
        if applied and self._on_commit is not None:
            self._on_commit(self._store)

    def _title(self, node_id: str) -> str:
        store = self._require()
        with store.reading() as graph:
            node = graph.nodes.get(node_id)
            return node.title if node is not None else node_id


def _storable(**arguments: Any) -> None:
    """Refuse (``BAD_ARGS``) lone surrogates / runaway nesting in any named argument."""
    for name, value in arguments.items():
        args.check_data(value, name)


def _batch_label(ops: list[Any]) -> str:
    return f"Apply {len(ops)} op{'s' if len(ops) != 1 else ''}"


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise bad_args(f"{name}: expected an array")
    return value


def _link_spec(link: Any, index: int) -> dict[str, Any]:
    """The seed's ``{target: {id|ref}, relation, direction}`` as a batch link entry."""
    if not isinstance(link, dict):
        raise bad_args(f"links[{index}]: expected an object")
    target = link.get("target")
    if isinstance(target, dict) and not any(k in link for k in ("targetNodeId", "targetRef")):
        rest = {k: v for k, v in link.items() if k != "target"}
        return {
            **rest,
            "targetNodeId": target.get("id") or "",
            "targetRef": target.get("ref") or "",
        }
    return dict(link)


def _ok(outcome: BatchOutcome, changes: ChangeSet | None) -> WriteResult:
    if outcome.applied:
        return WriteResult({"ok": True}, changes)
    error = (
        outcome.rejected[0]["error"]
        if outcome.rejected
        else {"code": "OP_FAILED", "message": "the op produced no change"}
    )
    return WriteResult({"ok": False, "error": error}, changes)

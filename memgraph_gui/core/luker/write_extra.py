"""The second half of ``WriteApi``: compaction, dissolve, restore, injection state and schema."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import MemgraphError, bad_args
from memgraph_gui.core.domain.injection import INJECTION_KEYS, InjectionState
from memgraph_gui.core.domain.model import Edge
from memgraph_gui.core.domain.results import WriteResult
from memgraph_gui.core.graph.compaction import build_rollup, check_children, detach_from_parent
from memgraph_gui.core.luker import args, node_ops
from memgraph_gui.core.luker.batch import run_batch
from memgraph_gui.core.luker.labels import create_label, quoted_title
from memgraph_gui.core.luker.validate import check_fields
from memgraph_gui.core.storage.history import History

if TYPE_CHECKING:
    from memgraph_gui.core.storage.store import Store


class ExtraWrites:
    """Mixin for ``WriteApi`` (uses its ``_require``, ``_origin`` and ``_committed``)."""

    _origin: str | None
    _preserve_seq: bool

    def _require(self) -> Store:
        raise NotImplementedError

    def _committed(self, applied: list[Any] | bool) -> None:
        raise NotImplementedError

    def compact_nodes(
        self, *, type: Any = None, child_ids: Any = None, summary: Any = None, fields: Any = None
    ) -> WriteResult:
        """Roll ``child_ids`` up under a new rollup of ``type``: ``{rollupNodeId}``. One undo step.

        Raises ``BAD_ARGS`` (no type, no children, empty summary), ``CHILD_NOT_FOUND``,
        ``CHILD_HAS_PARENT`` (a child already under a same-type parent).
        """
        _storable(type=type, childIds=child_ids, summary=summary, fields=fields)
        kind = args.text(type, "type").strip().lower()
        children = list(args.id_set(child_ids, "childIds")) and [
            str(c).strip() for c in child_ids if c is not None and str(c).strip()
        ]
        if not kind or not children:
            raise bad_args("compactNodes: type and non-empty childIds required.")
        if not isinstance(summary, str) or not summary.strip():
            raise bad_args("compactNodes: summary is required.")
        extra = check_fields(fields, "compactNodes")
        store = self._require()
        label = compact_label(len(set(children)), kind)
        with store.transaction(OpKind.COMPACT, label, origin=self._origin) as tx:
            if tx.schema.get(kind) is None:
                raise bad_args(f"compactNodes: unknown node type {kind!r}")
            nodes = check_children(tx, kind, children)
            rollup = build_rollup(tx, _next_id(tx), kind, nodes, summary, extra)
        self._committed(True)
        return WriteResult({"rollupNodeId": rollup.id}, tx.changeset)

    def compact_groups(self, *, type: Any = None, groups: Any = None) -> WriteResult:
        """Roll up several groups of ``type`` in one write: one transaction, one undo step
        ("Compact 4 groups"; one group keeps ``compactNodes``' label, "Compact 3 events").

        ``groups`` is a list of ``{childIds, summary, fields?}``, each checked as ``compactNodes``
        checks its arguments (``BAD_ARGS`` for the whole call, nothing written). A group the store
        refuses (``CHILD_NOT_FOUND``, ``CHILD_HAS_PARENT``) is left out and the others are rolled
        up. Returns ``{results, compacted}``: per group, in order, ``{rollupNodeId}`` or
        ``{error: {code, message}}``. Not part of Luker's API (agents call ``compactNodes``).
        """
        _storable(type=type, groups=groups)
        kind = args.text(type, "type").strip().lower()
        if not kind or not isinstance(groups, list) or not groups:
            raise bad_args("compactGroups: type and a non-empty groups array required.")
        wanted = [_group(g, i) for i, g in enumerate(groups)]
        store = self._require()
        with store.transaction(OpKind.COMPACT, "", origin=self._origin) as tx:
            if tx.schema.get(kind) is None:
                raise bad_args(f"compactGroups: unknown node type {kind!r}")
            results: list[dict[str, Any]] = []
            made: dict[int, int] = {}  # rollups staged so far per depth (their "#k" titles)
            for children, summary, extra in wanted:
                try:
                    nodes = check_children(tx, kind, children)
                except MemgraphError as exc:
                    results.append({"error": {"code": exc.code, "message": exc.message}})
                    continue
                depth = max(c.semantic_depth for c in nodes) + 1
                rollup = build_rollup(
                    tx, _next_id(tx), kind, nodes, summary, extra, made_before=made.get(depth, 0)
                )
                made[depth] = made.get(depth, 0) + 1
                results.append({"rollupNodeId": rollup.id, "childCount": len(nodes)})
            done = [r for r in results if "rollupNodeId" in r]
            tx.label = (
                compact_label(done[0]["childCount"], kind)
                if len(done) == 1
                else f"Compact {len(done)} groups"
            )
        self._committed(bool(done))
        for result in results:
            result.pop("childCount", None)
        return WriteResult({"results": results, "compacted": len(done)}, tx.changeset)

    def dissolve_rollup(self, *, id: Any = None) -> WriteResult:
        """Undo a compaction by hand: children return to their previous parent; rollup archived.

        A child goes back to the parent it had before it was rolled up (from the change log) when
        that parent is still live, else to the rollup's own parent, in the rollup's place.

        Returns ``{ok, childIds, parentId}``; ``NODE_NOT_FOUND`` / ``BAD_ARGS`` (not a rollup).
        """
        _storable(id=id)
        node_id = args.node_id(id)
        store = self._require()
        with store.reading() as graph:
            shown = graph.nodes.get(node_id)
            name = quoted_title(shown.title or node_id) if shown is not None else node_id
        with store.transaction(
            OpKind.DISSOLVE, f"Dissolve rollup {name}", origin=self._origin
        ) as tx:
            rollup = tx.node(node_id)
            if rollup is None:
                raise MemgraphError(
                    "NODE_NOT_FOUND", f"dissolveRollup: node {node_id} does not exist"
                )
            if not rollup.semantic_rollup:
                raise bad_args(f"dissolveRollup: {node_id} is not a rollup")
            moved = _dissolve(
                tx, rollup, lambda child: History(store).parent_before(child, node_id)
            )
        self._committed(True)
        return WriteResult(
            {"ok": True, "childIds": moved, "parentId": rollup.parent_id}, tx.changeset
        )

    def restore_node(self, *, id: Any = None) -> WriteResult:
        """Un-archive a node: ``{ok}``."""
        _storable(id=id)
        node_id = args.node_id(id)
        store = self._require()
        with store.reading() as graph:
            node = graph.nodes.get(node_id)
            label = (
                f"Restore {quoted_title(node.title or node_id)}"
                if node is not None
                else f"Restore {node_id}"
            )
        with store.transaction(OpKind.RESTORE_NODE, label, origin=self._origin) as tx:
            node_ops.restore(tx, node_id)
        self._committed(bool(tx.changeset and not tx.changeset.empty))
        return WriteResult({"ok": True}, tx.changeset)

    def set_injection_state(
        self, state: Any = None, *, undoable: bool = False, **keys: Any
    ) -> WriteResult:
        """Record injection ids (bridges, previews). Given keys replace, omitted keys stay.

        Keys: ``alwaysInjectIds``, ``recallSelectedIds``, ``visibleIds`` (arrays of node ids;
        ``visibleIds`` keeps the order given, the others are sets); unknown node ids raise
        ``NODE_NOT_FOUND``. Returns the new state. By default the write is recorded but not
        undoable (bridges report what the chat injected); with ``undoable=True`` it is one undo
        step "Apply recall preview" (the Recall lab applying its preview).
        """
        if not isinstance(undoable, bool):
            raise bad_args("undoable: expected true or false")
        _storable(state=state, **keys)
        given = dict(args.options(state, "state"))
        given.update({_camel(k): v for k, v in keys.items()})
        unknown = set(given) - set(INJECTION_KEYS)
        if unknown:
            raise bad_args(f"setInjectionState: unknown key(s) {', '.join(sorted(unknown))}")
        parsed = {k: args.id_list(v, k) for k, v in given.items()}
        store = self._require()
        label = "Apply recall preview" if undoable else "Set injection state"
        with store.transaction(
            OpKind.INJECTION, label, origin=self._origin, log_history=undoable
        ) as tx:
            missing = sorted({i for ids in parsed.values() for i in ids if tx.node(i) is None})
            if missing:
                raise MemgraphError(
                    "NODE_NOT_FOUND",
                    "setInjectionState: unknown node id(s): " + ", ".join(missing[:10]),
                )
            current = InjectionState.from_json(tx.meta("injection")).to_json()
            current.update(
                {k: list(v) if k == "visibleIds" else sorted(v) for k, v in parsed.items()}
            )
            tx.set_meta("injection", current)
        self._committed(bool(tx.changeset and not tx.changeset.empty))
        return WriteResult(InjectionState.from_json(current).to_json(), tx.changeset)

    def set_schema(self, schema: Any) -> WriteResult:
        """Replace the node-type schema (a Luker schema export or bare array). Undoable."""
        from memgraph_gui.core.domain.schema import normalize_schema

        _storable(schema=schema)
        types = normalize_schema(schema)
        store = self._require()
        with store.transaction(OpKind.SCHEMA, "Edit schema", origin=self._origin) as tx:
            tx.set_meta("schema", types)
        self._committed(True)
        return WriteResult({"types": len(types)}, tx.changeset)

    def set_summarize_instruction(
        self, *, type: Any = None, instruction: Any = None
    ) -> WriteResult:
        """Set one type's ``compression.summarizeInstruction`` (what an AI rollup draft is told
        besides the entries). The schema is read inside the write transaction, so a schema change
        another process committed meanwhile is kept. One undo step "Edit schema": ``{types}``.
        Raises ``BAD_ARGS`` (no such type, not a string) or ``BAD_IMPORT`` (over 100,000
        characters); nothing is written then."""
        from memgraph_gui.core.domain.schema import normalize_schema

        type_id = args.text(type, "type").strip().lower()
        text = args.text(instruction, "instruction").strip()
        _storable(instruction=text)
        store = self._require()
        with store.transaction(OpKind.SCHEMA, "Edit schema", origin=self._origin) as tx:
            schema = tx.schema.to_json()
            spec = next((t for t in schema if str(t.get("id", "")).lower() == type_id), None)
            if spec is None:
                raise bad_args(f"the schema has no type {type_id!r}")
            spec.setdefault("compression", {})["summarizeInstruction"] = text
            types = normalize_schema(schema)
            tx.set_meta("schema", types)
        self._committed(True)
        return WriteResult({"types": len(types)}, tx.changeset)

    def set_pins(self, pins: Any) -> WriteResult:
        """Pin nodes where the user put them: ``{node_id: [x, y]}``; ``None`` unpins a node.

        One undo step, labelled "Pin 'Title'", "Pin N nodes", "Unpin 'Title'" or "Unpin N
        nodes". Pins live in the meta key ``"pins"`` and override saved positions on read.
        Raises ``BAD_ARGS`` (not a mapping, coordinates that are not two finite numbers) and
        ``NODE_NOT_FOUND``; nothing is written then. Returns ``{"pins": all pins now}``.
        """
        parsed = _parse_pins(pins)
        store = self._require()
        with store.transaction(OpKind.PIN, "Pin", origin=self._origin) as tx:
            missing = sorted(i for i in parsed if tx.node(i) is None)
            if missing:
                raise MemgraphError(
                    "NODE_NOT_FOUND", "setPins: unknown node id(s): " + ", ".join(missing[:10])
                )
            current = dict(tx.meta("pins") or {})
            current.update(parsed)
            current = {k: v for k, v in sorted(current.items()) if v is not None}
            tx.set_meta("pins", current or None)
            tx.label = _pin_label(tx, parsed)
        self._committed(bool(tx.changeset and not tx.changeset.empty))
        return WriteResult({"pins": current}, tx.changeset)

    def create_pinned_node(
        self, *, type: Any = None, title: Any = None, fields: Any = None, at: Any = None
    ) -> WriteResult:
        """Create a node and pin it at ``at`` (``[x, y]``) in one transaction: one ChangeSet,
        one undo step labelled as the create ("Create event 'Title'"), whose undo takes the
        node and its pin away together (and redo brings both back). Luker's ``createNode``
        rule holds: a same-type node of the same title takes the create, and the pin.

        Returns ``{id}``. Raises ``BAD_ARGS`` (no type; ``at`` not two finite numbers) and
        ``OP_FAILED`` (with ``rejected``: the create was refused, e.g. a required field
        missing); nothing is written then. The desk's "New node here…"; not Luker's API.
        """
        if not type:
            raise bad_args("createPinnedNode: type is required.")
        _storable(type=type, title=title, fields=fields, at=at)
        where = _xy(at, "createPinnedNode: at")
        op = {"op": "create", "type": type, "title": title or "", "fields": fields or {}}
        store = self._require()
        label = create_label(type, title, fields)
        with store.transaction(OpKind.CREATE_NODE, label, origin=self._origin) as tx:
            seq = tx.counter("seqCounter")
            outcome = run_batch(tx, [op], seq, preserve_seq=self._preserve_seq)
            created = [a for a in outcome.applied if a.get("op") == "create"]
            if not created:  # raised inside: the transaction rolls back, nothing is written
                first = outcome.rejected[0]["error"] if outcome.rejected else {}
                raise MemgraphError(
                    "OP_FAILED",
                    f"createPinnedNode failed: {first.get('message', '')}",
                    rejected=outcome.rejected,
                )
            node_id = str(created[0]["nodeId"])
            pins = dict(tx.meta("pins") or {})
            pins[node_id] = where
            tx.set_meta("pins", dict(sorted(pins.items())))
        self._committed(True)
        return WriteResult({"id": node_id}, tx.changeset)


def _parse_pins(pins: Any) -> dict[str, list[float] | None]:
    """``{id: [x, y] | None}`` with finite numbers, or ``BAD_ARGS`` naming the bad entry."""
    if not isinstance(pins, dict) or not pins:
        raise bad_args("setPins: pins must be a non-empty object {nodeId: [x, y] or null}")
    parsed: dict[str, list[float] | None] = {}
    for key, value in pins.items():
        node_id = args.node_id(key)
        if value is None:
            parsed[node_id] = None
            continue
        parsed[node_id] = _xy(value, f"setPins: pins.{node_id}", "or null")
    return parsed


def _xy(value: Any, where: str, alternative: str = "") -> list[float]:
    """``[x, y]`` as two finite floats, or ``BAD_ARGS`` naming ``where``."""
    ok = isinstance(value, (list, tuple)) and len(value) == 2
    ok = ok and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    if not ok or not all(math.isfinite(v) for v in value):
        raise bad_args(f"{where} must be [x, y] finite numbers {alternative}".rstrip())
    return [float(value[0]), float(value[1])]


def _pin_label(tx: Any, parsed: dict[str, list[float] | None]) -> str:
    verb = "Unpin" if all(v is None for v in parsed.values()) else "Pin"
    if len(parsed) > 1:
        return f"{verb} {len(parsed)} nodes"
    node = tx.node(next(iter(parsed)))
    return f"{verb} {quoted_title(node.title or node.id)}"


def compact_label(count: int, type_id: str) -> str:
    """The undo label of a compaction: "Compact 12 events", "Compact 1 event",
    "Compact 3 character_sheets" (the type id, plural with an "s")."""
    return f"Compact {count} {type_id if count == 1 else type_id + 's'}"


def _group(group: Any, index: int) -> tuple[list[str], str, dict[str, Any]]:
    """One ``compactGroups`` entry as (child ids, summary, extra fields); ``BAD_ARGS`` naming it."""
    where = f"compactGroups: groups[{index}]"
    if not isinstance(group, dict):
        raise bad_args(f"{where}: expected an object")
    child_ids, summary = group.get("childIds"), group.get("summary")
    children = list(args.id_list(child_ids, f"groups[{index}].childIds"))
    if not children:
        raise bad_args(f"{where}: non-empty childIds required.")
    if not isinstance(summary, str) or not summary.strip():
        raise bad_args(f"{where}: summary is required.")
    return children, summary, check_fields(group.get("fields"), where)


def _storable(**arguments: Any) -> None:
    """Refuse (``BAD_ARGS``) lone surrogates / runaway nesting in any named argument."""
    for name, value in arguments.items():
        args.check_data(value, name)


def _dissolve(tx: Any, rollup: Any, previous_parent: Callable[[str], str]) -> list[str]:
    """Move the rollup's children out (each to the parent it had before the compaction when that
    one is still live, else to the rollup's own parent, taking the rollup's place) and archive it."""
    home = _live(tx, rollup.parent_id)
    slot = home.children_ids.index(rollup.id) if home and rollup.id in home.children_ids else None
    if rollup.parent_id and tx.node(rollup.parent_id) is not None:
        detach_from_parent(tx, rollup)  # an archived parent too: it must not keep listing it
    moved: list[str] = []
    for child_id in rollup.children_ids:
        child = tx.node(child_id)
        if child is None or child.parent_id != rollup.id:
            continue
        for relation in ("contains", "semantic_contains"):
            tx.remove_edge((rollup.id, relation, child_id))
        earlier = _live(tx, previous_parent(child_id))
        target = earlier if earlier is not None and earlier.id != rollup.id else home
        tx.put_node(replace(child, parent_id=target.id if target else ""))
        if target is not None:
            at = None if target is not home or slot is None else slot + len(moved)
            _attach(tx, target.id, child_id, at)
        moved.append(child_id)
    tx.put_node(replace(tx.node(rollup.id), children_ids=(), parent_id="", archived=True))
    return moved


def _live(tx: Any, node_id: str) -> Any:
    node = tx.node(node_id) if node_id else None
    return node if node is not None and not node.archived else None


def _attach(tx: Any, parent_id: str, child_id: str, at: int | None) -> None:
    """Add ``child_id`` to the parent's children (at ``at``, else last) with hierarchy edges."""
    parent = tx.node(parent_id)
    children = [c for c in parent.children_ids if c != child_id]
    children.insert(len(children) if at is None else min(at, len(children)), child_id)
    tx.put_node(replace(parent, children_ids=tuple(children)))
    tx.put_edge(Edge(parent_id, child_id, "contains"))
    if parent.semantic_rollup:
        tx.put_edge(Edge(parent_id, child_id, "semantic_contains"))


def _next_id(tx: Any) -> str:
    from memgraph_gui.core.luker.node_ops import _next_id as next_id

    return next_id(tx)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


__all__ = ["ChangeSet", "ExtraWrites"]

"""Node ops of a write batch: create (with Luker's title dedupe), edit, archive.

Every function validates first and stages second, so a ``MemgraphError`` leaves the batch untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from memgraph_gui.core.domain.errors import MemgraphError, bad_args
from memgraph_gui.core.domain.freeze import freeze, thaw
from memgraph_gui.core.domain.jsvalue import js_json
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.title_index import TitleIndex
from memgraph_gui.core.graph.topology import normalize_text
from memgraph_gui.core.graph.tx import Tx
from memgraph_gui.core.luker.validate import check_fields, check_title, missing_required, violation


@dataclass
class BatchTitles:
    """A batch's view of the title index: the graph's, plus nodes staged in this batch."""

    graph_titles: TitleIndex
    staged: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    summary_max: int = 0

    @staticmethod
    def build(tx: Tx) -> BatchTitles:
        titles = tx.graph.titles()
        return BatchTitles(titles, summary_max=titles.summary_max())

    def add(self, node: Node) -> None:
        self.staged.setdefault((node.type, node.title.lower()), []).append(node.id)

    def candidates(self, type_id: str, title: str) -> list[str]:
        key = (type_id, title.lower())
        return sorted(self.graph_titles.by_title.get(key, ())) + self.staged.get(key, [])


def live(node: Node | None, max_seq: int | None = None) -> bool:
    """Exists, not archived, semantic (and not newer than ``max_seq`` when given)."""
    return (
        node is not None
        and not node.archived
        and node.level == "semantic"
        and (max_seq is None or node.seq_to <= max_seq)
    )


def create(tx: Tx, index: BatchTitles, op: dict[str, Any], max_seq: int) -> Node:
    """Create a node, or merge into a live same-type node with the same title (any case)."""
    type_id = _type_of(tx, op)
    title = normalize_text(_str(op.get("title"), "title"))
    fields = check_fields(op.get("fields"), "create")
    check_title(title, "create")
    target = _explicit_target(tx, op, type_id, max_seq)
    if type_id == "event" and target is None:
        title = f"Summary {index.summary_max + 1}"
    elif not title:
        title = (
            normalize_text(
                str(next((fields[k] for k in ("name", "id", "key", "label") if fields.get(k)), ""))
            )
            or f"{type_id}_{max(1, max_seq)}"
        )
    if target is None and type_id != "event":
        target = _title_match(tx, index, type_id, title, max_seq)
    if target is not None:
        return _merge(tx, target, fields, max_seq)
    spec = tx.schema.get(type_id)
    if spec is not None and (missing := missing_required(spec, title, fields)):
        raise violation(f"create {type_id}: missing required column(s): {', '.join(missing)}")
    node = tx.put_node(
        Node(
            id=_next_id(tx),
            type=type_id,
            title=title,
            seq_to=max_seq,
            fields=freeze(_with_summary(fields)),
        )
    )
    tx.set_meta("seqCounter", max(tx.counter("seqCounter"), max_seq))
    index.add(node)
    if type_id == "event":
        index.summary_max = max(index.summary_max, int(title.split()[-1]))
    return node


def _type_of(tx: Tx, op: dict[str, Any]) -> str:
    raw = op.get("type")
    if not isinstance(raw, str) or not raw.strip():
        raise MemgraphError("VALIDATION_SKIP", "create requires a type")
    type_id = raw.strip().lower()
    if tx.schema.get(type_id) is None:
        known = ", ".join(s.id for s in tx.schema.types)
        raise violation(f"unknown node type {raw!r} (the schema has: {known})")
    return type_id


def _str(value: Any, name: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise violation(f"{name} must be a string, got {type(value).__name__}")
    return value


def _explicit_target(tx: Tx, op: dict[str, Any], type_id: str, max_seq: int) -> Node | None:
    node_id = normalize_text(str(op.get("nodeId") or ""))
    node = tx.node(node_id) if node_id else None
    return (
        node if node is not None and live(node, max_seq) and node.type.lower() == type_id else None
    )


def _title_match(tx: Tx, index: BatchTitles, type_id: str, title: str, max_seq: int) -> Node | None:
    for node_id in index.candidates(type_id, title):
        node = tx.node(node_id)
        if node is not None and live(node, max_seq) and node.title.lower() == title.lower():
            return node
    return None


def _with_summary(fields: dict[str, Any]) -> dict[str, Any]:
    """Luker's ``setNodeSummary``: the summary as one normalised line, dropped when empty."""
    out = dict(fields)
    if "summary" in out:
        from memgraph_gui.core.graph.brief import display_scalar

        summary = normalize_text(display_scalar(out["summary"]))
        if summary:
            out["summary"] = summary
        else:
            del out["summary"]
    return out


def _merge(tx: Tx, target: Node, incoming: dict[str, Any], max_seq: int) -> Node:
    merged = thaw(target.fields)
    merged.update(incoming)
    return tx.put_node(replace(target, fields=freeze(merged), seq_to=max(target.seq_to, max_seq)))


def _next_id(tx: Tx) -> str:
    seq = tx.counter("nodeSeq") + 1
    while tx.node(f"n_{seq}") is not None:
        seq += 1
    tx.set_meta("nodeSeq", seq)
    return f"n_{seq}"


def edit(tx: Tx, op: dict[str, Any], max_seq: int | None) -> tuple[Node, bool]:
    """Patch a live node: ``title``, ``setFields`` (None values skipped), ``clearFields`` (deleted).

    Returns the node and whether the patch changed it. A patch that would change nothing (Luker's
    "values already match": see ``_would_change``) stages nothing, not even a new ``seqTo``.
    With an ``expected`` entry (see ``parse_expected``) it first raises ``EDIT_CONFLICT`` when
    the stored title or a named field has moved on from the value expected (see
    ``check_expected``); nothing is staged then.
    """
    node = _editable(tx, op)
    set_fields = check_fields(op.get("setFields"), f"edit {node.id}")
    clear = op.get("clearFields") or []
    if not isinstance(clear, list) or not all(isinstance(c, str) for c in clear):
        raise violation(f"edit {node.id}: clearFields must be an array of column names")
    title = node.title
    if op.get("title") is not None:
        title = normalize_text(_str(op.get("title"), "title")) or node.title
        check_title(title, f"edit {node.id}")
    columns = [c.strip() for c in clear]
    if op.get("expected") is not None:
        check_expected(node, parse_expected(op["expected"]), set_fields, columns, op.get("title"))
    if title == node.title and not _would_change(node, set_fields, columns):
        return node, False
    fields = thaw(node.fields)
    fields.update({k: v for k, v in set_fields.items() if v is not None})
    for column in columns:
        fields.pop(column, None)
    spec = tx.schema.get(node.type.lower())
    touched = [*set_fields, *columns]
    if spec is not None and (missing := missing_required(spec, title, fields, touched)):
        raise violation(f"edit {node.id}: required column(s) cannot be empty: {', '.join(missing)}")
    seq = node.seq_to if max_seq is None else max(node.seq_to, max_seq)
    return tx.put_node(replace(node, title=title, fields=freeze(fields), seq_to=seq)), True


@dataclass(frozen=True)
class Expected:
    """What an edit was based on: the title and the fields (None: absent) the editor started from."""

    title: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)


def parse_expected(value: Any, where: str = "expected") -> Expected:
    """``{title?: string, fields?: {column: value | null}}`` as an ``Expected``; ``BAD_ARGS``
    naming the place for anything else (a null field value means "the field was absent")."""
    if not isinstance(value, dict):
        raise bad_args(f"{where}: expected an object {{title?, fields?}}")
    unknown = sorted(set(value) - {"title", "fields"})
    if unknown:
        raise bad_args(f"{where}: unknown key(s) {', '.join(unknown)} (accepted: fields, title)")
    title = value.get("title")
    if title is not None and not isinstance(title, str):
        raise bad_args(f"{where}.title: expected a string")
    fields = value.get("fields")
    if fields is None:
        fields = {}
    if not isinstance(fields, dict) or not all(isinstance(k, str) and k for k in fields):
        raise bad_args(f"{where}.fields: expected an object of column names")
    return Expected(title, dict(fields))


def check_expected(
    node: Node, expected: Expected, set_fields: dict[str, Any], clear: list[str], title: Any
) -> None:
    """Raise ``EDIT_CONFLICT`` when the stored node moved on from ``expected``.

    A title or field conflicts when its stored value differs (as JSON, a missing field being null)
    from the expected one and also from the value this edit proposes (a change to the very value
    proposed is agreement, not a conflict). The error carries ``nodeId`` and three objects shaped
    like ``expected`` holding only the conflicting entries: ``expected``, ``current`` (stored now)
    and ``proposed`` (what this edit would write; null for a cleared field, absent when the edit
    leaves it alone).
    """
    wanted: dict[str, Any] = {"fields": {}}
    current: dict[str, Any] = {"fields": {}}
    proposed: dict[str, Any] = {"fields": {}}
    parts: list[str] = []
    new_title = normalize_text(title) if isinstance(title, str) else None
    if expected.title is not None and node.title not in (expected.title, new_title):
        wanted["title"], current["title"] = expected.title, node.title
        if new_title is not None:
            proposed["title"] = new_title
        parts.append(
            f"the title (you started from {_shown(expected.title)}, now {_shown(node.title)})"
        )
    for name, value in expected.fields.items():
        stored = thaw(node.fields.get(name))
        mine: Any = _UNSET
        if set_fields.get(name) is not None:
            mine = set_fields[name]
        elif name in clear:
            mine = None
        stored_json = js_json(stored)
        if stored_json == js_json(value) or (mine is not _UNSET and stored_json == js_json(mine)):
            continue
        wanted["fields"][name], current["fields"][name] = value, stored
        if mine is not _UNSET:
            proposed["fields"][name] = mine
        parts.append(f"field {name!r} (you started from {_shown(value)}, now {_shown(stored)})")
    if not parts:
        return
    raise MemgraphError(
        "EDIT_CONFLICT",
        f"edit {node.id}: changed by another writer since you started editing: "
        + "; ".join(parts)
        + ". Nothing was written.",
        nodeId=node.id,
        expected=_drop_empty(wanted),
        current=_drop_empty(current),
        proposed=_drop_empty(proposed),
    )


_UNSET = object()
_SHOWN_CHARS = 60


def _shown(value: Any) -> str:
    """A value for a message: JSON text cut to ``_SHOWN_CHARS`` characters."""
    text = "nothing" if value is None else js_json(value)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def _drop_empty(shape: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in shape.items() if k != "fields" or v}


def _would_change(node: Node, set_fields: dict[str, Any], clear: list[str]) -> bool:
    """Luker's test: a non-null ``setFields`` value whose JSON differs from the stored value (a
    missing field counts as null), or a ``clearFields`` key the node has."""
    stored = node.fields
    if any(column in stored for column in clear):
        return True
    return any(
        value is not None and js_json(value) != js_json(stored.get(key))
        for key, value in set_fields.items()
    )


def _editable(tx: Tx, op: dict[str, Any]) -> Node:
    node_id = normalize_text(str(op.get("nodeId") or ""))
    if not node_id:
        raise MemgraphError("VALIDATION_SKIP", "edit requires nodeId.")
    node = tx.node(node_id)
    if node is None:
        raise MemgraphError("NODE_NOT_FOUND", f"edit: node {node_id} does not exist.")
    if node.archived:
        raise MemgraphError("NODE_ARCHIVED", f"edit: node {node_id} is archived.")
    if node.level != "semantic":
        raise MemgraphError(
            "NODE_NOT_SEMANTIC",
            f"edit: node {node_id} is not a semantic node (level={node.level}).",
        )
    claimed = str(op.get("type") or "").strip().lower()
    if claimed and claimed != node.type.lower():
        raise MemgraphError(
            "TYPE_MISMATCH",
            f'edit: op type "{claimed}" does not match node {node_id} type "{node.type}".',
        )
    return node


def archive(tx: Tx, op: dict[str, Any]) -> Node:
    """Archive (soft-delete) a node; links and parent/children stay, so restore is exact."""
    node_id = normalize_text(str(op.get("nodeId") or ""))
    if not node_id:
        raise MemgraphError("VALIDATION_SKIP", "delete requires nodeId.")
    node = tx.node(node_id)
    if node is None:
        raise MemgraphError("NODE_NOT_FOUND", f"delete: node {node_id} does not exist.")
    return node if node.archived else tx.put_node(replace(node, archived=True))


def restore(tx: Tx, node_id: str) -> Node:
    """Un-archive a node (the GUI's Restore)."""
    node = tx.node(node_id)
    if node is None:
        raise MemgraphError("NODE_NOT_FOUND", f"restore: node {node_id} does not exist.")
    return (
        node
        if not node.archived
        else tx.put_node(replace(node, archived=False, superseded_by=None))
    )


def stamp_current(tx: Tx, node_id: str, seq: int) -> tuple[Node, bool]:
    """Set a live semantic node's ``seqTo`` to ``seq`` (never lower it): "Mark as current".

    Returns the node and whether it changed; raises ``NODE_NOT_FOUND`` / ``NODE_ARCHIVED`` /
    ``NODE_NOT_SEMANTIC`` as ``edit`` does, staging nothing.
    """
    node = _editable(tx, {"nodeId": node_id})
    if node.seq_to >= seq:
        return node, False
    return tx.put_node(replace(node, seq_to=seq)), True

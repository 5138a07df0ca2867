"""Why an undo or redo is refused: each row the step would overwrite, named by title, with the
batch that changed it since (origin, time, label) and the values that would be overwritten.

The result is the ``details`` of an ``UNDO_CONFLICT`` error (plain JSON, so the CLI prints it and
the window shows it) and the preview of "undo anyway". Runs inside the write transaction that
found the conflict, so what it names is what the store holds at that moment.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.images import edge_key_from_text
from memgraph_gui.core.domain.images import edge_key_text as key_text
from memgraph_gui.core.domain.model import EdgeKey
from memgraph_gui.core.graph.tx import Tx

if TYPE_CHECKING:
    from memgraph_gui.core.storage.store import Store

CHANGED, REMOVED, ADDED = "changed", "removed", "added"
DANGLING = "dangling"  # a link made since to a node the step removes
ORPHANED = "orphaned"  # a link of the step itself whose node is gone since
_MORE_SHOWN = 3  # rows named in the message; ``details`` always has them all


@dataclass(frozen=True, slots=True)
class StepRef:
    """The step an undo/redo was asked for."""

    batch_id: int
    label: str
    origin: str
    ts: float

    def to_json(self) -> dict[str, Any]:
        return {"batchId": self.batch_id, "label": self.label, "origin": self.origin, "ts": self.ts}


@dataclass(frozen=True, slots=True)
class RowConflict:
    """One change-log row whose current image is not the one the step left (or expects)."""

    kind: str  # "node", "edge" or "meta"
    key: str
    current: Any
    expected: Any
    wanted: Any


def describe(
    store: Store,
    tx: Tx,
    step: StepRef,
    verb: str,
    rows: list[RowConflict],
    dangling: list[EdgeKey],
    own_edges: set[str],
) -> dict[str, Any]:
    """The ``details`` of an ``UNDO_CONFLICT``: ``{action, step, conflicts, seen}``.

    ``conflicts`` lists, per row, ``{kind, key, title, problem, fields, overwrites, by}``: ``by`` is
    the newest batch that touched the row after the step (``{batchId, label, origin, ts}``; None
    when the change log no longer has it); ``overwrites`` what forcing the step would overwrite
    (``{field, current, restored}``). ``seen`` is the newest change-log row among them: forcing
    the step is bound to it (see ``History.undo_anyway``).
    """
    after = _last_seq(store, step.batch_id)
    keys = [(r.kind, r.key) for r in rows] + [("edge", key_text(k)) for k in dangling]
    writers = _last_writers(store, after, keys)
    conflicts = [_row(tx, row, writers.get((row.kind, row.key))) for row in rows]
    conflicts += [
        _dangling(tx, key, key_text(key) in own_edges, writers.get(("edge", key_text(key))))
        for key in dangling
    ]
    seen = max((c["by"]["seq"] for c in conflicts if c["by"] is not None), default=after)
    return {
        "action": verb,
        "step": step.to_json(),
        "conflicts": conflicts,
        "seen": seen,
    }


def conflict_error(details: dict[str, Any]) -> MemgraphError:
    """The ``UNDO_CONFLICT`` error for ``describe``'s details, its message naming the first rows."""
    verb, step = details["action"], details["step"]
    parts = [_sentence(c) for c in details["conflicts"][:_MORE_SHOWN]]
    more = len(details["conflicts"]) - _MORE_SHOWN
    if more > 0:
        parts.append(f"and {more} more")
    message = f"cannot {verb} “{step['label']}”: " + "; ".join(parts)
    return MemgraphError("UNDO_CONFLICT", message, **details)


def quoted(conflict: dict[str, Any]) -> str:
    """A conflict's row as the message names it: “Eileen”, “Eileen” —knows→ “Tower”."""
    if conflict["kind"] == "edge":
        first, second = conflict["ends"]
        return f"“{first}” —{conflict['relation']}→ “{second}”"
    return f"“{conflict['title']}”"


def when(ts: float, now: float | None = None) -> str:
    """``21:04`` today, else ``2026-11-24 21:04`` (local time)."""
    moment, today = time.localtime(ts), time.localtime(now if now is not None else time.time())
    same_day = moment[:3] == today[:3]
    return time.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M", moment)


def _sentence(conflict: dict[str, Any]) -> str:
    what = quoted(conflict)
    thing = {"node": "the node", "edge": "the link", "meta": "the store's"}[conflict["kind"]]
    by = conflict["by"]
    who = f" by {by['origin']} at {when(by['ts'])}" if by is not None else ""
    problem = conflict["problem"]
    if problem == DANGLING:
        text = f"{thing} {what} was made since{who} and would be left without its node"
    elif problem == ORPHANED:
        text = f"{thing} {what} would be left without its node, removed since{who}"
    elif problem == REMOVED:
        text = f"{thing} {what} was removed since{who}"
    elif problem == ADDED:
        text = f"{thing} {what} was made again since{who}"
    else:
        text = f"{thing} {what} was changed since{who}"
    fields = conflict["fields"]
    if fields:
        text += f" ({'field' if len(fields) == 1 else 'fields'} {', '.join(fields)})"
    return text


def _row(tx: Tx, row: RowConflict, by: dict[str, Any] | None) -> dict[str, Any]:
    if row.current is None:
        problem = REMOVED
    elif row.expected is None:
        problem = ADDED
    else:
        problem = CHANGED
    columns = _changed_columns(row.current, row.expected) if row.kind == "node" else []
    return {
        "kind": row.kind,
        "key": row.key,
        **_names(tx, row.kind, row.key, row.current, row.expected, row.wanted),
        "problem": problem,
        "fields": [name for name, _ in columns],
        "overwrites": _overwrites(row, columns),
        "by": by,
    }


def _dangling(tx: Tx, key: EdgeKey, own: bool, by: dict[str, Any] | None) -> dict[str, Any]:
    text = key_text(key)
    return {
        "kind": "edge",
        "key": text,
        **_edge_names(tx, key),
        "problem": ORPHANED if own else DANGLING,
        "fields": [],
        "overwrites": [{"field": "link", "current": _edge_json(key), "restored": None}],
        "by": by,
    }


def _names(tx: Tx, kind: str, key: str, *images: Any) -> dict[str, Any]:
    """``title`` (a node's title, never only its id unless it has none), and for a link also
    ``ends`` (its nodes' titles) and ``relation``."""
    if kind == "edge":
        return _edge_names(tx, edge_key_from_text(key))
    if kind == "meta":
        return {"title": key}
    titles = [i.get("title") for i in images if isinstance(i, dict)]  # as it is now, first
    return {"title": next((t for t in titles if t), key)}


def _edge_names(tx: Tx, key: EdgeKey) -> dict[str, Any]:
    ends = []
    for node_id in (key[0], key[2]):
        node = tx.graph.nodes.get(node_id) or tx.node(node_id)  # as it is now, first
        ends.append(node.title if node is not None and node.title else node_id)
    return {"title": f"{ends[0]} —{key[1]}→ {ends[1]}", "ends": ends, "relation": key[1]}


def _edge_json(key: EdgeKey) -> dict[str, str]:
    return {"from": key[0], "type": key[1], "to": key[2]}


def _changed_columns(current: Any, expected: Any) -> list[tuple[str, bool]]:
    """The node's columns that differ, as ``(name, is_field)``: ``title``, ``archived``, … and
    each field of ``fields`` by its name."""
    if not isinstance(current, dict) or not isinstance(expected, dict):
        return []
    out = [
        (k, False)
        for k in sorted(set(current) | set(expected))
        if k not in ("fields", "_ord") and current.get(k) != expected.get(k)
    ]
    old, new = current.get("fields") or {}, expected.get("fields") or {}
    out += [(k, True) for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return out


def _overwrites(row: RowConflict, columns: list[tuple[str, bool]]) -> list[dict[str, Any]]:
    """What forcing the step would overwrite: per column changed since, its value now and the
    value it would get back; the whole row when the step adds or removes it."""
    if row.kind != "node" or not isinstance(row.current, dict) or not isinstance(row.wanted, dict):
        return [{"field": row.kind, "current": row.current, "restored": row.wanted}]
    out = []
    for name, is_field in columns:
        current = (row.current.get("fields") or {}) if is_field else row.current
        wanted = (row.wanted.get("fields") or {}) if is_field else row.wanted
        out.append({"field": name, "current": current.get(name), "restored": wanted.get(name)})
    return out


def _last_seq(store: Store, batch_id: int) -> int:
    rows = store.execute_read(
        "SELECT coalesce(max(seq), 0) FROM changes WHERE batch = ?", (batch_id,)
    )
    return int(rows[0][0])


def _last_writers(
    store: Store, after: int, keys: list[tuple[str, str]]
) -> dict[tuple[str, str], dict[str, Any]]:
    """For each ``(kind, key)``, the newest batch that changed it after change-log row
    ``after`` (one pass over the rows since, however many keys)."""
    if not keys:
        return {}
    wanted = json.dumps([f"{kind}:{key}" for kind, key in keys])
    rows = store.execute_read(
        "SELECT c.kind, c.key, c.seq, b.id, b.label, b.origin, b.ts FROM changes c "
        "JOIN batches b ON b.id = c.batch WHERE c.seq IN (SELECT max(seq) FROM changes "
        "WHERE seq > ? AND kind || ':' || key IN (SELECT value FROM json_each(?)) "
        "GROUP BY kind, key)",
        (after, wanted),
    )
    return {
        (kind, key): {"seq": seq, "batchId": batch_id, "label": label, "origin": origin, "ts": ts}
        for kind, key, seq, batch_id, label, origin, ts in rows
    }

"""Undo and redo over the change log: every ``do`` batch is one step; history survives reopening.

Undo re-applies a batch's before-images through the normal write path (so it yields a ChangeSet and
other processes see it); it refuses with ``UNDO_CONFLICT`` when something changed those rows since,
its details naming each row, who changed it and when (``undo_conflicts``). A refused step can then
be skipped (it stays in the log as not undone, and the step before it becomes the one to undo) or
reverted anyway as a new, undoable edit that overwrites what changed since.

Step statuses in ``batches``: ``active`` (undoable), ``undone`` (redoable), ``dead`` (undone, then
a newer step ended its redo chain), ``skipped`` / ``reverted`` (left in place by ``skip`` /
``undo_anyway``), ``none`` (not a history step).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.images import (
    edge_from_image,
    edge_key_from_text,
    loads,
    node_from_image,
)
from memgraph_gui.core.graph.tx import Tx
from memgraph_gui.core.storage.changelog import COUNTER_KEYS, same_image
from memgraph_gui.core.storage.undo_conflicts import (
    RowConflict,
    StepRef,
    conflict_error,
    describe,
)

if TYPE_CHECKING:
    from memgraph_gui.core.storage.store import Store


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the history: an undoable batch."""

    batch_id: int
    label: str
    op: str
    origin: str
    ts: float
    undone: bool
    skipped: bool = False  # left in the history, not undone (``skip`` or ``undo_anyway``)

    def to_json(self) -> dict[str, Any]:
        out = {
            "batchId": self.batch_id,
            "label": self.label,
            "op": self.op,
            "origin": self.origin,
            "ts": self.ts,
            "undone": self.undone,
        }
        if self.skipped:
            out["skipped"] = True
        return out

    @property
    def ref(self) -> StepRef:
        return StepRef(self.batch_id, self.label, self.origin, self.ts)


class History:
    """The undo/redo view of one store, optionally of one origin's steps only (a window undoes
    its own edits, not an agent's). Cheap to create; holds no state of its own."""

    def __init__(self, store: Store, origin: str | None = None) -> None:
        self._store = store
        self._origin = origin

    def steps(self, limit: int = 200, *, include_skipped: bool = False) -> list[Step]:
        """Newest first: active (undoable) and undone (redoable) steps, with
        ``include_skipped`` also the steps left in place by ``skip`` / ``undo_anyway``."""
        mine = "" if self._origin is None else "AND origin = ? "
        params: tuple[Any, ...] = (limit,) if self._origin is None else (self._origin, limit)
        statuses = "'active', 'undone'" + (", 'skipped', 'reverted'" if include_skipped else "")
        rows = self._store.execute_read(
            "SELECT id, label, op, origin, ts, status FROM batches WHERE kind='do' "
            f"AND status IN ({statuses}) {mine}ORDER BY id DESC LIMIT ?",
            params,
        )
        return [
            Step(r[0], r[1], r[2], r[3], r[4], r[5] == "undone", r[5] in ("skipped", "reverted"))
            for r in rows
        ]

    def undo_step(self) -> Step | None:
        """The step :meth:`undo` would revert, or None."""
        return next((s for s in self.steps() if not s.undone), None)

    def redo_step(self) -> Step | None:
        """The step :meth:`redo` would re-apply, or None."""
        undone = self._redoable(self.steps())
        return undone[-1] if undone else None

    def depth(self) -> tuple[int, int]:
        """(undoable steps, redoable steps), read in O(1) from counters kept by triggers."""
        if self._origin is not None:
            rows = self._store.execute_read(
                "SELECT active, undone FROM history_counts WHERE origin = ?", (self._origin,)
            )
            return (int(rows[0][0]), int(rows[0][1])) if rows else (0, 0)
        (active, undone, chain), *_ = self._store.execute_read(
            "SELECT coalesce(sum(active), 0), coalesce(sum(undone), 0), "
            "(SELECT CAST(value AS INTEGER) FROM store_info WHERE key = 'redo_chain') "
            "FROM history_counts"
        )
        return int(active), min(int(undone), int(chain or 0))

    def _redoable(self, steps: list[Step]) -> list[Step]:
        """Undone steps still redoable. An origin's own new step ends its chain (those steps are
        marked dead); in the whole-store history a step is redoable only when it was undone
        after the newest step anyone made."""
        undone = [s for s in steps if s.undone]
        if not undone or self._origin is not None:
            return undone
        (last_made,), *_ = self._store.execute_read(
            "SELECT coalesce(max(id), 0) FROM batches WHERE kind='do' AND status != 'none'"
        )
        undo_ids = dict(
            self._store.execute_read(
                "SELECT target, max(id) FROM batches WHERE kind='undo' GROUP BY target"
            )
        )
        return [s for s in undone if undo_ids.get(s.batch_id, 0) > last_made]

    def parent_before(self, child_id: str, rollup_id: str) -> str:
        """The parent ``child_id`` had just before a step moved it under ``rollup_id``, as the
        change log recorded it ('' when unknown, e.g. pruned). Inside a write, reads that write's
        view."""
        rows = self._store.execute_read(
            "SELECT json_extract(before, '$.parentId') FROM changes WHERE kind='node' AND key=? "
            "AND json_extract(after, '$.parentId') = ? "
            "AND coalesce(json_extract(before, '$.parentId'), '') != ? ORDER BY seq DESC LIMIT 1",
            (child_id, rollup_id, rollup_id),
        )
        return str(rows[0][0] or "") if rows else ""

    def undo(self) -> ChangeSet | None:
        """Revert the newest active step; None when there is nothing to undo. Not itself undoable.

        Raises ``UNDO_CONFLICT`` (nothing written) when rows it would restore changed since; its
        ``details`` are ``undo_conflicts.describe``'s (step, rows with titles, who changed them
        and when, what forcing would overwrite, ``seen``). Writer thread.
        """
        return self._revert(undo=True)

    def redo(self) -> ChangeSet | None:
        """Re-apply the oldest undone step; None when there is nothing to redo (conflicts as
        ``undo``)."""
        return self._revert(undo=False)

    def skip(self, batch_id: int) -> ChangeSet:
        """Leave the newest undoable step ``batch_id`` in the history as not undone, so the step
        before it is the next to undo. Changes no data (an empty ChangeSet labelled "Skip …");
        ``HISTORY_CHANGED`` when ``batch_id`` is no longer the newest undoable step."""
        with self._store.transaction(OpKind.UNDO, "", origin=self._origin) as tx:
            step = self._newest(batch_id)
            tx.label = f"Skip {step.label}"
            self._store.execute_write(
                "UPDATE batches SET status='skipped' WHERE id=? AND status='active'", (batch_id,)
            )
        assert tx.changeset is not None
        return tx.changeset

    def undo_anyway(self, batch_id: int, seen: int) -> ChangeSet:
        """Revert the newest undoable step ``batch_id`` although rows changed since: a new,
        undoable step ("Revert …") that restores the step's before-images over what is there now
        (links made since to a node it removes go too); the step is left as not undone.

        ``seen`` is the ``details["seen"]`` of the conflict the person was shown: when rows changed
        again since, it raises ``UNDO_CONFLICT`` with fresh details instead (nothing written).
        ``HISTORY_CHANGED`` when ``batch_id`` is no longer the newest undoable step. Writer thread.
        """
        with self._store.transaction(OpKind.UNDO, "", origin=self._origin) as tx:
            step = self._newest(batch_id)
            tx.label = f"Revert {step.label}"
            details = self._apply(tx, step, undo=True, force=True)
            if details is not None and details["seen"] != seen:
                raise conflict_error(details)
            self._store.execute_write(
                "UPDATE batches SET status='reverted' WHERE id=? AND status='active'", (batch_id,)
            )
        assert tx.changeset is not None
        return tx.changeset

    def _newest(self, batch_id: int) -> Step:
        step = self.undo_step()
        if step is None or step.batch_id != batch_id:
            raise MemgraphError(
                "HISTORY_CHANGED",
                f"step {batch_id} is no longer the newest one to undo; look at Edit ▸ Undo again",
            )
        return step

    def _revert(self, *, undo: bool) -> ChangeSet | None:
        # The step is chosen inside the write transaction (so no other writer can slip in), and
        # subscribers are told after the store's lock is released.
        kind = "undo" if undo else "redo"
        with self._store.transaction(
            OpKind.UNDO if undo else OpKind.REDO, "", origin=self._origin, kind=kind
        ) as tx:
            step = self.undo_step() if undo else self.redo_step()
            if step is None:
                return None
            tx.label, tx.target = f"{'Undo' if undo else 'Redo'} {step.label}", step.batch_id
            details = self._apply(tx, step, undo=undo, force=False)
            if details is not None:
                raise conflict_error(details)
            self._store.execute_write(
                "UPDATE batches SET status=? WHERE id=?",
                ("undone" if undo else "active", step.batch_id),
            )
        return tx.changeset

    def _apply(self, tx: Tx, step: Step, *, undo: bool, force: bool) -> dict[str, Any] | None:
        """Stage the step's before- (undo) or after-images (redo). Returns the conflict details
        when rows changed since or links would be left without a node (None when none); with
        ``force`` those links are removed too."""
        rows = self._store.execute_read(
            "SELECT kind, key, before, after FROM changes WHERE batch=? ORDER BY seq "
            + ("DESC" if undo else "ASC"),
            (step.batch_id,),
        )
        conflicts: list[RowConflict] = []
        for kind, key, before_text, after_text in rows:
            before, after = loads(before_text), loads(after_text)
            expected, wanted = (after, before) if undo else (before, after)
            current = _staged_image(tx, kind, key)
            if kind == "meta" and key in COUNTER_KEYS:
                _stage(tx, kind, key, _counter(key, current, expected, wanted))
                continue
            if not same_image(current, expected):
                conflicts.append(RowConflict(kind, key, current, expected, wanted))
            _stage(tx, kind, key, wanted)
        dangling = tx.dangling_edges()
        if force:
            for edge in dangling:
                tx.remove_edge(edge)
        if not conflicts and not dangling:
            return None
        own = {key for kind, key, *_ in rows if kind == "edge"}
        verb = "undo" if undo else "redo"
        return describe(self._store, tx, step.ref, verb, conflicts, dangling, own)


def _counter(key: str, current: Any, expected: Any, wanted: Any) -> Any:
    """Counters only grow for others: restore ours unless someone moved them since. ``nodeSeq``
    never goes back at all, so a node id is never handed out twice."""
    if key == "nodeSeq":
        return max(_int(current), _int(wanted))
    return wanted if current == expected else current


def _int(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _staged_image(tx: Tx, kind: str, key: str) -> Any:
    from memgraph_gui.core.domain.images import edge_image, node_image

    if kind == "node":
        return node_image(tx.node(key))
    if kind == "edge":
        return edge_image(tx.edge(edge_key_from_text(key)))
    return tx.meta(key)


def _stage(tx: Tx, kind: str, key: str, image: Any) -> None:
    if kind == "node":
        if image is None:
            tx.remove_node(key)
        else:
            tx.put_node(node_from_image(image))
    elif kind == "edge":
        if image is None:
            tx.remove_edge(edge_key_from_text(key))
        else:
            tx.put_edge(edge_from_image(image))
    else:
        tx.set_meta(key, image)

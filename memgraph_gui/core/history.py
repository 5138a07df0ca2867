"""Undo and redo over the change log: every ``do`` batch is one step; history survives reopening.

Undo re-applies a batch's before-images through the normal write path (so it yields a ChangeSet and
other processes see it); it refuses with ``UNDO_CONFLICT`` when something changed those rows since.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.changelog import current_image
from memgraph_gui.core.changes import ChangeSet, OpKind
from memgraph_gui.core.errors import MemgraphError
from memgraph_gui.core.images import edge_from_image, edge_key_from_text, loads, node_from_image
from memgraph_gui.core.tx import Tx

if TYPE_CHECKING:
    from memgraph_gui.core.store import MemoryStore


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the history: an undoable batch."""

    batch_id: int
    label: str
    op: str
    origin: str
    ts: float
    undone: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "batchId": self.batch_id,
            "label": self.label,
            "op": self.op,
            "origin": self.origin,
            "ts": self.ts,
            "undone": self.undone,
        }


class History:
    """The undo/redo view of one store, optionally of one origin's steps only (a window undoes
    its own edits, not an agent's). Cheap to create; holds no state of its own."""

    def __init__(self, store: MemoryStore, origin: str | None = None) -> None:
        self._store = store
        self._origin = origin

    def steps(self, limit: int = 200) -> list[Step]:
        """Newest first: active (undoable) and undone (redoable) steps."""
        mine = "" if self._origin is None else "AND origin = ? "
        params: tuple[Any, ...] = (limit,) if self._origin is None else (self._origin, limit)
        rows = self._store.execute_read(
            "SELECT id, label, op, origin, ts, status FROM batches WHERE kind='do' "
            f"AND status IN ('active', 'undone') {mine}ORDER BY id DESC LIMIT ?",
            params,
        )
        return [Step(r[0], r[1], r[2], r[3], r[4], r[5] == "undone") for r in rows]

    def undo_step(self) -> Step | None:
        """The step :meth:`undo` would revert, or None."""
        return next((s for s in self.steps() if not s.undone), None)

    def redo_step(self) -> Step | None:
        """The step :meth:`redo` would re-apply, or None."""
        undone = [s for s in self.steps() if s.undone]
        return undone[-1] if undone else None

    def depth(self) -> tuple[int, int]:
        """(undoable steps, redoable steps)."""
        steps = self.steps(limit=1_000_000)
        undone = sum(1 for s in steps if s.undone)
        return len(steps) - undone, undone

    def undo(self) -> ChangeSet | None:
        """Revert the newest active step; None when there is nothing to undo. Not itself undoable."""
        return self._revert(undo=True)

    def redo(self) -> ChangeSet | None:
        """Re-apply the oldest undone step; None when there is nothing to redo."""
        return self._revert(undo=False)

    def _revert(self, *, undo: bool) -> ChangeSet | None:
        store = self._store
        with store.lock:
            step = self.undo_step() if undo else self.redo_step()
            if step is None:
                return None
            label = f"{'Undo' if undo else 'Redo'} {step.label}"
            with store.transaction(
                OpKind.UNDO if undo else OpKind.REDO,
                label,
                origin=self._origin,
                kind="undo" if undo else "redo",
                target=step.batch_id,
            ) as tx:
                self._apply(tx, step.batch_id, undo=undo)
                store.execute_write(
                    "UPDATE batches SET status=? WHERE id=?",
                    ("undone" if undo else "active", step.batch_id),
                )
            return tx.changeset

    def _apply(self, tx: Tx, batch_id: int, *, undo: bool) -> None:
        rows = self._store.execute_read(
            "SELECT kind, key, before, after FROM changes WHERE batch=? ORDER BY seq "
            + ("DESC" if undo else "ASC"),
            (batch_id,),
        )
        for kind, key, before_text, after_text in rows:
            before, after = loads(before_text), loads(after_text)
            expected, wanted = (after, before) if undo else (before, after)
            if _staged_image(tx, kind, key) != expected:
                raise MemgraphError(
                    "UNDO_CONFLICT",
                    f"cannot {'undo' if undo else 'redo'}: {kind} {key!r} was changed since",
                )
            _stage(tx, kind, key, wanted)


def _staged_image(tx: Tx, kind: str, key: str) -> Any:
    from memgraph_gui.core.images import edge_image, node_image

    if kind == "node":
        return node_image(tx.node(key))
    if kind == "edge":
        return edge_image(tx.edge(edge_key_from_text(key)))
    value = tx.meta(key)
    return value if value is not None else current_image(tx.graph, kind, key)


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

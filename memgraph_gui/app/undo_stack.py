"""``UndoFacade``: a ``QUndoStack`` mirroring the core's undo history of this window's origin.

The core owns the truth (its change log undoes and redoes); the Qt stack only mirrors it, so the
Edit menu gets labels ("Undo Edit 'Eileen'") and a clean state for free. Every command is a
mirror whose ``redo``/``undo`` do nothing: the app model calls the core first and moves the stack
only when the core succeeded, so a refused undo (``UNDO_CONFLICT``) leaves both unchanged.
Invariant: ``stack.index()`` equals the core's undo depth for this origin, ``count() - index()``
its redo depth.

The desk writes as ``desk_origin()``, the same in every run, so the history it offers includes
the steps of earlier runs that the store keeps (an agent's steps have their own origin).
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from dataclasses import dataclass

from memgraph_gui.app.qt import QObject, QUndoCommand, QUndoStack

DESK = "memgraph-gui"


def desk_origin() -> str:
    """``memgraph-gui:USER``: who the window's steps are by in the change log, stable across
    restarts (so Undo offers the previous run's edits) and distinct from any agent's origin."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no login name in the environment or the password database
        user = ""
    return f"{DESK}:{user}" if user else DESK


@dataclass(frozen=True, slots=True)
class HistoryDepth:
    """The core's undo/redo depth for one origin after an op, with the labels of its steps
    (oldest first) when the mirror has to be rebuilt."""

    undo: int
    redo: int
    undo_labels: tuple[str, ...] = ()
    redo_labels: tuple[str, ...] = ()  # oldest undone first, i.e. the order redo re-applies


class _Mirror(QUndoCommand):
    """One core step; moving the stack does nothing (the core already did the work)."""

    def redo(self) -> None:
        pass

    def undo(self) -> None:
        pass


class UndoFacade:
    """Owns the ``QUndoStack``; GUI thread only.

    Its owner clears the stack before dropping it: with PySide6 ≤ 6.11, a stack destroyed with
    its pushed commands still in it left wrappers that crashed the next garbage collection.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        self.stack = QUndoStack(parent)

    def push_applied(self, label: str) -> None:
        """Mirror one new core step (its op already ran)."""
        self.stack.push(_Mirror(describe(label)))

    def reconcile(self, depth: HistoryDepth, full: Callable[[], HistoryDepth]) -> None:
        """Bring the mirror to ``depth`` after an op: one push for a new step (``depth`` needs
        only the newest label), one step back or forward after an undo/redo, else a rebuild
        from every label, which ``full()`` reads (rare: e.g. retention pruned steps)."""
        stack = self.stack
        index, redo = stack.index(), stack.count() - stack.index()
        if (index, redo) == (depth.undo, depth.redo):
            return
        if depth.undo == index + 1 and depth.redo == 0 and depth.undo_labels:
            self.push_applied(depth.undo_labels[-1])
        elif (depth.undo, depth.redo) == (index - 1, redo + 1):
            stack.undo()
        elif (depth.undo, depth.redo) == (index + 1, redo - 1):
            stack.redo()
        else:
            self.rebuild(full())

    def rebuild(self, depth: HistoryDepth) -> None:
        """Replace the mirror with ``depth``'s steps (e.g. after another store was opened)."""
        stack = self.stack
        stack.blockSignals(True)  # one round of change signals, not one per step
        try:
            stack.clear()
            undo = _padded(depth.undo_labels, depth.undo)
            redo = _padded(depth.redo_labels, depth.redo)
            for label in (*undo, *redo):
                stack.push(_Mirror(describe(label)))
            for _ in redo:
                stack.undo()
        finally:
            stack.blockSignals(False)
        stack.indexChanged.emit(stack.index())
        stack.canUndoChanged.emit(stack.canUndo())
        stack.canRedoChanged.emit(stack.canRedo())
        stack.undoTextChanged.emit(stack.undoText())
        stack.redoTextChanged.emit(stack.redoText())

    @property
    def in_sync_with(self) -> tuple[int, int]:
        """(undo depth, redo depth) the mirror shows."""
        return self.stack.index(), self.stack.count() - self.stack.index()


def _padded(labels: tuple[str, ...], count: int) -> tuple[str, ...]:
    return (("",) * max(0, count - len(labels)) + labels)[-count:] if count else ()


def describe(label: str) -> str:
    """The undo text for a core step label (the one place undo labels get localized)."""
    from memgraph_gui.app.qt import tr

    return tr(label, "undo") if label else tr("Change", "undo")

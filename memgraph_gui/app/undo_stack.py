"""``UndoFacade``: a ``QUndoStack`` mirroring the core's undo history of this window's origin.

The core owns the truth (its change log undoes and redoes); the Qt stack only mirrors it, so the
Edit menu gets labels ("Undo Edit 'Eileen'") and a clean state for free. Every command is a
mirror whose ``redo``/``undo`` do nothing: the app model calls the core first and moves the stack
only when the core succeeded, so a refused undo (``UNDO_CONFLICT``) leaves both unchanged.
Invariant: ``stack.index()`` equals the core's undo depth for this origin, ``count() - index()``
its redo depth.

The desk writes as ``desk_origin()``, the same in every run, so the history it offers includes
the steps of earlier runs that the store keeps (an agent's steps have their own origin). Labels
name titles, never ids: a label the store kept from before titles were used ("Dissolve rollup
n_1958", written by an older build), or one another writer made, has its node ids replaced by
the node's name when the mirror shows it (``readable_label``).
"""

from __future__ import annotations

import getpass
import re
from collections.abc import Callable
from dataclasses import dataclass

from memgraph_gui.app.qt import QObject, QUndoCommand, QUndoStack
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.luker.labels import quoted_title

DESK = "memgraph-gui"
NameOf = Callable[[str], str | None]  # a node id's name for a label; None: no such node / name
_WORD = re.compile(r"[^\s'\"“”()\[\],;:]+")


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

    def __init__(self, parent: QObject | None = None, *, name_of: NameOf | None = None) -> None:
        self.stack = QUndoStack(parent)
        self._name_of = name_of

    def readable(self, label: str) -> str:
        """``label`` with the node ids in it named (``readable_label``; as is without
        ``name_of``)."""
        return label if self._name_of is None else readable_label(label, self._name_of)

    def push_applied(self, label: str) -> None:
        """Mirror one new core step (its op already ran)."""
        self.stack.push(_Mirror(describe(self.readable(label))))

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
                stack.push(_Mirror(describe(self.readable(label))))
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


def readable_label(label: str, name_of: NameOf) -> str:
    """``label`` with each node id in it (outside its quoted title) replaced by that node's
    name, quoted and elided as new labels name a node: "Dissolve rollup n_1958" reads
    "Dissolve rollup 'Summary L2 #4'". A word is taken for an id only when it mixes digits
    with other characters and ``name_of`` names it (counts, words and unknown ids stay as
    they are). Pure given ``name_of``."""
    quotes = [i for i, ch in enumerate(label) if ch == "'"]
    if len(quotes) >= 2:  # 'a title' is kept as written (it may hold an apostrophe or an id)
        head, title, tail = (
            label[: quotes[0]],
            label[quotes[0] : quotes[-1] + 1],
            label[quotes[-1] + 1 :],
        )
        return _named(head, name_of) + title + _named(tail, name_of)
    return _named(label, name_of)


def _named(text: str, name_of: NameOf) -> str:
    def name(match: re.Match[str]) -> str:
        word = match.group(0)
        if not (any(c.isdigit() for c in word) and not word.isdigit()):
            return word
        shown = name_of(word)
        return quoted_title(shown) if shown else word

    return _WORD.sub(name, text)


def node_name(node: Node | None) -> str | None:
    """What a label calls ``node``: its title, else its ``name`` or ``summary`` field (an
    event often has no title); None without a node or any of them."""
    if node is None:
        return None
    for text in (node.title, node.fields.get("name"), node.fields.get("summary")):
        if isinstance(text, str) and text.strip():
            return text
    return None

"""Unsaved edits and leaving them: Save / Discard / Cancel, as every desktop editor asks.

A part that holds typing not yet written (the inspector, the rollup review) implements
``HoldsUnsaved``; whoever is about to leave it (a selection change, closing a dialog or the
window) calls ``settle``. The question itself is a plain function, ``ask_unsaved``, which the
parts keep as an attribute so tests replace it instead of driving a modal box.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import partial
from typing import Protocol

from memgraph_gui.views.qt import QMessageBox, Qt, QWidget, tr


class Choice(Enum):
    """The answer to "Save your changes?"."""

    SAVE = "save"
    DISCARD = "discard"
    CANCEL = "cancel"


Ask = Callable[[QWidget | None, str], Choice]


class HoldsUnsaved(Protocol):
    """A part that may hold edits not written yet. GUI thread only."""

    def has_unsaved_edits(self) -> bool:
        """True while something typed is neither written nor being written."""
        ...

    def unsaved_summary(self) -> str:
        """What is unsaved, for the question ("the title and 'goal' of “Eileen”")."""
        ...

    def save_unsaved(self, on_saved: Callable[[], None], on_failed: Callable[[], None]) -> bool:
        """Write every unsaved edit; ``on_saved`` runs once all are written, ``on_failed`` when
        one is refused (its field then shows why). False, writing nothing, when an edit cannot
        be written as it stands (invalid input, an unresolved conflict): it is shown instead."""
        ...

    def discard_unsaved(self) -> None:
        """Drop the unsaved edits: back to the stored values."""
        ...


@dataclass(frozen=True)
class Part:
    """A ``HoldsUnsaved`` made of functions: one part of a view (the node or the rollup shown),
    asked about on its own when the person leaves just that part."""

    has_unsaved_edits: Callable[[], bool]
    unsaved_summary: Callable[[], str]
    save_unsaved: Callable[[Callable[[], None], Callable[[], None]], bool]
    discard_unsaved: Callable[[], None]


def ask_unsaved(parent: QWidget | None, what: str) -> Choice:
    """The modal question: Save / Discard / Cancel (Cancel is the default and Esc)."""
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        tr("Unsaved changes"),
        tr("Save your changes to {what}?").format(what=what),
        QMessageBox.StandardButton.Save
        | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel,
        parent,
    )
    box.setObjectName("unsaved-changes")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setInformativeText(tr("If you don't save, what you typed is lost."))
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.setEscapeButton(QMessageBox.StandardButton.Cancel)
    answer = box.exec()
    if answer == QMessageBox.StandardButton.Save:
        return Choice.SAVE
    if answer == QMessageBox.StandardButton.Discard:
        return Choice.DISCARD
    return Choice.CANCEL


def settle(
    parent: QWidget | None,
    holders: Sequence[HoldsUnsaved | None],
    ask: Ask,
    *,
    then: Callable[[], object],
    failed: Callable[[], object] | None = None,
) -> bool:
    """Before leaving ``holders``: True when the caller may go on now (nothing unsaved, or the
    person chose Discard). False otherwise: Cancel, or Save, which writes first and calls
    ``then`` once everything is written (``failed`` when a write is refused or cannot start;
    the edits then stay where they are, showing why)."""
    dirty = [h for h in holders if h is not None and h.has_unsaved_edits()]
    if not dirty:
        return True
    choice = ask(parent, "; ".join(h.unsaved_summary() for h in dirty))
    if choice is Choice.DISCARD:
        for holder in dirty:
            holder.discard_unsaved()
        return True
    if choice is Choice.CANCEL:
        return False
    waiting = {id(h) for h in dirty}
    gave_up: list[bool] = []

    def saved(holder: HoldsUnsaved) -> None:
        waiting.discard(id(holder))
        if not waiting and not gave_up:
            then()

    def refused() -> None:
        if not gave_up:
            gave_up.append(True)
            if failed is not None:
                failed()

    for holder in dirty:
        if not holder.save_unsaved(partial(saved, holder), refused):
            refused()
    return False

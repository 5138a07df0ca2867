"""Ctrl+Z / Ctrl+Shift+Z reach the window's Undo / Redo from any of its widgets.

A text editor (``QLineEdit``, an editable ``QComboBox``, ``QPlainTextEdit``, ``QTextEdit``) claims
the undo keys for itself even when it has nothing of its own to undo, e.g. an inspector field
right after its edit was committed, so the window's Undo never ran. ``UndoKeys`` watches each
editor of the window once it gets focus and leaves the keys to it only while it has unsaved
typing it can undo (or redo); otherwise the key triggers the window's action.
"""

from __future__ import annotations

from memgraph_gui.views.qt import (
    QAction,
    QApplication,
    QComboBox,
    QKeySequence,
    QLineEdit,
    QObject,
    QPlainTextEdit,
    QtCore,
    QtGui,
    QtWidgets,
    QWidget,
    is_alive,
)

QEvent = QtCore.QEvent
QKeyEvent = QtGui.QKeyEvent
QTextEdit = QtWidgets.QTextEdit

_WATCHED = "memgraph_undo_keys"  # a property set on each editor that is watched already


class UndoKeys(QObject):
    """Routes the undo/redo keys of ``window`` (and its floating docks) to ``undo`` / ``redo``
    unless the focused text editor has its own unsaved typing. GUI thread only."""

    def __init__(self, window: QWidget, undo: QAction, redo: QAction) -> None:
        super().__init__(window)
        self._window = window
        self._actions = {"undo": undo, "redo": redo}
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if not is_alive(self) or new is None or not isinstance(new, _EDITORS):
            return
        if new.property(_WATCHED) or not _inside(new, self._window):
            return
        new.setProperty(_WATCHED, True)
        new.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        if not isinstance(event, QKeyEvent) or not isinstance(watched, QWidget):
            return False
        which = self._which(event)
        if which is None or has_own_typing(watched, which == "undo"):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # the key is ours: it comes back as the KeyPress below
            return True
        action = self._actions[which]
        if action.isEnabled():
            action.trigger()
        return True

    def _which(self, event: QKeyEvent) -> str | None:
        pressed = QKeySequence(event.keyCombination())
        for name, action in self._actions.items():
            shortcuts = action.shortcuts()
            if any(pressed.matches(k) == QKeySequence.SequenceMatch.ExactMatch for k in shortcuts):
                return name
        return None


_EDITORS = (QLineEdit, QComboBox, QPlainTextEdit, QTextEdit)


def has_own_typing(widget: QWidget, undo: bool) -> bool:
    """True when ``widget`` is a writable text editor with typing of its own to undo (unsaved:
    showing a stored value clears an editor's history and its modified flag) or, for redo,
    typing it undid: then the key acts on that text, as in every editor."""
    if isinstance(widget, QComboBox):
        line = widget.lineEdit()
        return line is not None and has_own_typing(line, undo)
    if isinstance(widget, QLineEdit):
        if widget.isReadOnly():
            return False
        return (
            widget.isModified() and widget.isUndoAvailable() if undo else widget.isRedoAvailable()
        )
    if isinstance(widget, (QPlainTextEdit, QTextEdit)):
        document = widget.document()
        if widget.isReadOnly():
            return False
        if undo:
            return document.isModified() and document.isUndoAvailable()
        return document.isRedoAvailable()
    return False


def _inside(widget: QWidget, window: QWidget) -> bool:
    """True when ``widget`` is in ``window`` itself or in a dock floated out of it (not in a
    dialog or wizard of its own, whose keys are its own business)."""
    top = widget.window()
    if top is window:
        return True
    return isinstance(top, QtWidgets.QDockWidget) and top.parentWidget() is window

"""The window's Find box and the graph: Enter steps to the next match, Shift+Enter to the
previous one (each selected and revealed in turn), and a label beside the box says how many
nodes the find finds ("12 matches", "3 of 12")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memgraph_gui.views.qt import QLabel, QLineEdit, QObject, Qt, QtGui, Signal

if TYPE_CHECKING:
    from memgraph_gui.views.graph.view import GraphView


class FindBox(QLineEdit):
    """A line edit that says ``stepped(forward)`` on Enter (True) and Shift+Enter (False) and
    keeps those keys. Only its key presses reach Python: an event filter ran Python for every
    event of the box, each paint of the window's toolbar included, and each waited for the GIL
    while a worker computed."""

    stepped = Signal(bool)

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.stepped.emit(not event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            event.accept()
            return
        super().keyPressEvent(event)


class FindStepper(QObject):
    """Steps ``view`` through the find's matches as ``box`` asks and shows ``view``'s
    ``find_status`` in ``label`` (plain text; the caller lays it out beside the box). GUI
    thread."""

    def __init__(self, box: FindBox, view: GraphView) -> None:
        super().__init__(box)
        self._box, self._view = box, view
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setContentsMargins(8, 0, 8, 0)
        view.find_status.connect(self.label.setText)
        box.stepped.connect(self._step)

    def _step(self, forward: bool) -> None:
        self._view.step_match(forward, self._box.text())

"""The window's Find box and the graph: Enter steps to the next match, Shift+Enter to the
previous one (each selected and revealed in turn), and a label beside the box says how many
nodes the find finds ("12 matches", "3 of 12")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memgraph_gui.views.qt import QLabel, QLineEdit, QObject, Qt, QtCore, QtGui

if TYPE_CHECKING:
    from memgraph_gui.views.graph.view import GraphView


class FindStepper(QObject):
    """Watches ``box`` for Enter / Shift+Enter and shows ``view``'s ``find_status`` in
    ``label`` (plain text; the caller lays it out beside the box). GUI thread."""

    def __init__(self, box: QLineEdit, view: GraphView) -> None:
        super().__init__(box)
        self._box, self._view = box, view
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setContentsMargins(8, 0, 8, 0)
        view.find_status.connect(self.label.setText)
        box.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QtCore.QEvent) -> bool:
        box: QLineEdit | None = getattr(self, "_box", None)
        view: GraphView | None = getattr(self, "_view", None)
        if box is None or view is None:  # (a window being torn down: its Python side goes
            return False  # first, while the box still gets events)
        if watched is box and event.type() == QtCore.QEvent.Type.KeyPress:
            assert isinstance(event, QtGui.QKeyEvent)
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                back = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
                view.step_match(not back, box.text())
                return True
        return False

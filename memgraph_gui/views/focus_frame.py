"""``FocusFrame``: a frame drawn around the window part that has the keyboard (the Find box, the
timeline, the graph, the inspector), so a person moving with Tab sees where keys go.

It is one transparent overlay, moved onto the part that holds the focus widget; it takes no
mouse events and no focus. GUI thread only.
"""

from __future__ import annotations

from collections.abc import Sequence

from memgraph_gui.views.qt import QApplication, QObject, Qt, QtCore, QtGui, QWidget, is_alive

FRAME_WIDTH = 2


class _Overlay(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setObjectName("focus-frame")

    def paintEvent(self, _event: QtGui.QPaintEvent) -> None:
        painter = QtGui.QPainter(self)
        pen = QtGui.QPen(self.palette().color(QtGui.QPalette.ColorRole.Highlight), FRAME_WIDTH)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        painter.setPen(pen)
        half = FRAME_WIDTH / 2
        painter.drawRect(QtCore.QRectF(self.rect()).adjusted(half, half, -half, -half))
        painter.end()


class FocusFrame(QObject):
    """Frames whichever of ``parts`` contains the focus widget (none when focus is elsewhere).
    ``part`` is the framed one."""

    def __init__(self, parts: Sequence[QWidget], window: QWidget) -> None:
        super().__init__(window)
        self._parts = list(parts)
        self._window = window
        self._overlay = _Overlay()
        self._overlay.setParent(window)  # owned by the window while it frames nothing
        self._overlay.hide()
        self.part: QWidget | None = None
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)

    def _on_focus_changed(self, _old: QWidget | None, now: QWidget | None) -> None:
        if not is_alive(self._overlay) or not is_alive(self._window):
            return  # (the window is being torn down)
        part = next((p for p in self._parts if now is not None and _within(now, p)), None)
        if part is self.part:
            return
        if self.part is not None and is_alive(self.part):
            self.part.removeEventFilter(self)
        self.part = part
        if part is None:
            self._overlay.hide()
            self._overlay.setParent(self._window)
            self._overlay.hide()
            return
        self._overlay.setParent(part)
        part.installEventFilter(self)
        self._place()
        self._overlay.show()

    def _place(self) -> None:
        if self.part is not None:
            self._overlay.setGeometry(self.part.rect())
            self._overlay.raise_()

    def eventFilter(self, watched: QObject, event: QtCore.QEvent) -> bool:
        if watched is self.part and event.type() in (
            QtCore.QEvent.Type.Resize,
            QtCore.QEvent.Type.ChildAdded,  # a new child would cover the frame
            QtCore.QEvent.Type.LayoutRequest,
        ):
            self._place()
        return False

    @property
    def shown(self) -> bool:
        """True when a part is framed and the frame is on screen."""
        return self.part is not None and self._overlay.isVisible()


def _within(widget: QWidget, part: QWidget) -> bool:
    return widget is part or part.isAncestorOf(widget)

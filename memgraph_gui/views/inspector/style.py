"""Small widget factories shared by the inspector's parts; every label is plain text.

Node text comes from LLMs and other people, and ``QLabel`` would run HTML it auto-detects, so
every label the inspector makes goes through ``plain_label``.
"""

from __future__ import annotations

from functools import lru_cache

from memgraph_gui.views.menu_text import menu_item
from memgraph_gui.views.qt import QtCore, QtGui, QWidget
from memgraph_gui.views.qt import QtWidgets as W
from memgraph_gui.views.theme import type_color

Qt = QtCore.Qt
ERROR_COLOR = "#c0392b"
ARCHIVED_BADGE = "#8a8a8a"


def plain_label(text: str = "", parent: QWidget | None = None) -> W.QLabel:
    """A ``QLabel`` that never interprets its text as rich text."""
    label = W.QLabel(parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    return label


def status_label() -> W.QLabel:
    """The wrapped, selectable line under a field for "Saving…" and the API's refusals."""
    label = plain_label()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setVisible(False)
    return label


def section_title(text: str) -> W.QLabel:
    """A bold section heading ("Fields", "Links")."""
    label = plain_label(text)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    label.setContentsMargins(0, 6, 0, 0)
    return label


def separator() -> W.QFrame:
    line = W.QFrame()
    line.setFrameShape(W.QFrame.Shape.HLine)
    line.setFrameShadow(W.QFrame.Shadow.Sunken)
    return line


def badge(text: str, color: str, parent: QWidget | None = None) -> W.QLabel:
    """A small rounded, coloured tag (a node type, "archived")."""
    label = plain_label(text, parent)
    label.setObjectName("badge")
    label.setStyleSheet(
        f"QLabel#badge {{ color: white; background: {color}; border-radius: 4px;"
        " padding: 1px 6px; font-weight: bold; }"
    )
    return label


def type_badge(type_id: str) -> W.QLabel:
    return badge(type_id, type_color(type_id))


def link_button(text: str = "") -> W.QPushButton:
    """A flat, link-coloured push button for a node (plain text; ``&`` is not a mnemonic)."""
    button = W.QPushButton()
    button.setFlat(True)
    button.setCursor(QtGui.QCursor(Qt.CursorShape.PointingHandCursor))
    button.setStyleSheet(
        "QPushButton { color: palette(link); text-align: left; padding: 1px 2px; border: none; }"
        "QPushButton:hover { text-decoration: underline; }"
        "QPushButton:disabled { color: palette(mid); }"
    )
    set_button_text(button, text)
    return button


BUTTON_CHARS = 48


def set_button_text(button: W.QAbstractButton, text: str) -> None:
    """Show ``text`` literally on a button (doubling ``&`` so Qt shows it, not a shortcut), on
    one line cut to ``BUTTON_CHARS`` characters with "…"; the whole text is the tooltip."""
    button.setText(menu_item(text, BUTTON_CHARS))
    button.setToolTip(text)


class ElidedLabel(W.QLabel):
    """A one-line plain-text label that cuts its text with "…" to the width it is given (the
    whole text is its tooltip and what ``full_text`` returns); it never widens its dock."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(W.QSizePolicy.Policy.Ignored, W.QSizePolicy.Policy.Preferred)
        self._full = ""

    @property
    def full_text(self) -> str:
        return self._full

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self._fit()

    def minimumSizeHint(self) -> QtCore.QSize:
        hint = super().minimumSizeHint()
        return QtCore.QSize(min(hint.width(), 40), hint.height())

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        shown = self.fontMetrics().elidedText(
            self._full, Qt.TextElideMode.ElideRight, max(20, self.contentsRect().width())
        )
        if shown != self.text():
            super().setText(shown)


def elided(text: str, widget: QWidget, width: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels in ``widget``'s font."""
    metrics = widget.fontMetrics()
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(20, width))


@lru_cache(maxsize=256)
def dot_icon(color: str, size: int = 10) -> QtGui.QIcon:
    """A filled circle (a node type's colour in a list); painted once per colour."""
    pixmap = QtGui.QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QtGui.QPainter(pixmap)
    painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    painter.setBrush(QtGui.QColor(color))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QtGui.QIcon(pixmap)


class DeleteKey(QtCore.QObject):
    """Event filter: Delete / Backspace on ``widget`` emit ``pressed`` instead of reaching the
    window's Delete shortcut (Archive Node), so they remove a list item or a link there."""

    pressed = QtCore.Signal()
    _KEYS = (Qt.Key.Key_Delete, Qt.Key.Key_Backspace)

    def __init__(self, widget: W.QAbstractItemView) -> None:
        super().__init__(widget)
        self._view = widget
        widget.installEventFilter(self)

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        kind = event.type()
        if kind not in (QtCore.QEvent.Type.ShortcutOverride, QtCore.QEvent.Type.KeyPress):
            return False
        editing = self._view.state() == W.QAbstractItemView.State.EditingState
        if editing or not isinstance(event, QtGui.QKeyEvent) or event.key() not in self._KEYS:
            return False
        if kind == QtCore.QEvent.Type.ShortcutOverride:
            event.accept()
            return True
        self.pressed.emit()
        return True

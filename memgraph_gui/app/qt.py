"""The one place that picks the Qt binding: PySide6 (QtCore and QtGui only: the app layer has no
widgets). ``memgraph_gui.views.qt`` adds the widgets, pyqtgraph and superqt on top of it."""

from __future__ import annotations

import os

os.environ.setdefault("QT_API", "pyside6")  # superqt (via qtpy) binds to PySide6 too

from PySide6 import QtCore, QtGui
from PySide6.QtCore import (
    QAbstractListModel,
    QAbstractTableModel,
    QByteArray,
    QCoreApplication,
    QElapsedTimer,
    QEventLoop,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QProcess,
    QProcessEnvironment,
    QSettings,
    QSortFilterProxyModel,
    Qt,
    QThread,
    QTimer,
    Signal,
    SignalInstance,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QColor,
    QFont,
    QIcon,
    QKeySequence,
    QShowEvent,
    QUndoCommand,
    QUndoStack,
)

__all__ = [
    "QAbstractListModel",
    "QAbstractTableModel",
    "QAction",
    "QByteArray",
    "QCloseEvent",
    "QColor",
    "QCoreApplication",
    "QElapsedTimer",
    "QEventLoop",
    "QFont",
    "QIcon",
    "QItemSelection",
    "QItemSelectionModel",
    "QKeySequence",
    "QModelIndex",
    "QObject",
    "QPersistentModelIndex",
    "QProcess",
    "QProcessEnvironment",
    "QSettings",
    "QShowEvent",
    "QSortFilterProxyModel",
    "QThread",
    "QTimer",
    "QUndoCommand",
    "QUndoStack",
    "Qt",
    "QtCore",
    "QtGui",
    "Signal",
    "SignalInstance",
    "Slot",
    "tr_n",
]


def tr(text: str, context: str = "memgraph") -> str:
    """Translate a user-visible string (no translations ship yet; the wrapping is what matters)."""
    return QCoreApplication.translate(context, text)


def tr_n(text: str, n: int, context: str = "memgraph") -> str:
    """Translate a counted string through Qt's plural handling: ``text`` holds ``%n`` (or
    ``%Ln``: the number with the locale's digit grouping), e.g. ``"%n group(s)"``; a
    translation supplies each plural form. With no translation loaded the English forms are
    made here: ``(s)`` becomes ``s`` unless ``n`` is 1."""
    translated = QCoreApplication.translate(context, text, None, n)
    if "(s)" in translated:
        translated = translated.replace("(s)", "" if n == 1 else "s")
    return translated


def is_alive(obj: QObject) -> bool:
    """False once the C++ side of ``obj`` was destroyed (signals can fire during teardown)."""
    import shiboken6

    return bool(shiboken6.isValid(obj))

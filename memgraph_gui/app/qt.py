"""The one place that picks the Qt binding: PySide6, imported before pyqtgraph would be."""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractListModel,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSettings,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QAction, QColor, QFont, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFormLayout,
    QFrame,
    QLabel,
    QListView,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

__all__ = [
    "QAbstractListModel",
    "QAbstractTableModel",
    "QAction",
    "QApplication",
    "QColor",
    "QCoreApplication",
    "QFileDialog",
    "QFont",
    "QFormLayout",
    "QFrame",
    "QIcon",
    "QKeySequence",
    "QLabel",
    "QListView",
    "QMainWindow",
    "QMessageBox",
    "QModelIndex",
    "QObject",
    "QPersistentModelIndex",
    "QSettings",
    "QSplitter",
    "QTableView",
    "QTimer",
    "QVBoxLayout",
    "QWidget",
    "Qt",
    "Signal",
    "Slot",
]


def tr(text: str, context: str = "memgraph") -> str:
    """Translate a user-visible string (no translations ship yet; the wrapping is what matters)."""
    return QCoreApplication.translate(context, text)


def app_icon() -> QIcon:
    """The application icon (an SVG shipped as package data)."""
    from importlib.resources import files

    return QIcon(str(files("memgraph_gui.resources") / "icons" / "memgraph.svg"))

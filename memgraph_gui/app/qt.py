"""The one place that picks the Qt binding: PySide6, imported before pyqtgraph would be."""

from __future__ import annotations

import os

os.environ.setdefault("QT_API", "pyside6")  # superqt (via qtpy) binds to PySide6 too

from PySide6 import QtCore, QtGui, QtWidgets
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
    QSettings,
    QSortFilterProxyModel,
    Qt,
    QThread,
    QTimer,
    Signal,
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
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QProgressDialog,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStatusBar,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

# isort: split
import pyqtgraph as pg  # after PySide6, so pyqtgraph binds to it
from superqt import QRangeSlider

__all__ = [
    "QAbstractItemView",
    "QAbstractListModel",
    "QAbstractTableModel",
    "QAction",
    "QApplication",
    "QByteArray",
    "QCloseEvent",
    "QColor",
    "QComboBox",
    "QCoreApplication",
    "QDialog",
    "QDialogButtonBox",
    "QDockWidget",
    "QDoubleSpinBox",
    "QElapsedTimer",
    "QEventLoop",
    "QFileDialog",
    "QFont",
    "QFormLayout",
    "QFrame",
    "QHBoxLayout",
    "QHeaderView",
    "QIcon",
    "QItemSelection",
    "QItemSelectionModel",
    "QKeySequence",
    "QLabel",
    "QLineEdit",
    "QListView",
    "QMainWindow",
    "QMenu",
    "QMessageBox",
    "QModelIndex",
    "QObject",
    "QPersistentModelIndex",
    "QPlainTextEdit",
    "QProgressBar",
    "QProgressDialog",
    "QPushButton",
    "QRangeSlider",
    "QSettings",
    "QShowEvent",
    "QSortFilterProxyModel",
    "QSpinBox",
    "QSplitter",
    "QStatusBar",
    "QStyleOptionViewItem",
    "QStyledItemDelegate",
    "QTableView",
    "QThread",
    "QTimer",
    "QToolBar",
    "QToolButton",
    "QUndoCommand",
    "QUndoStack",
    "QVBoxLayout",
    "QWidget",
    "QWizard",
    "QWizardPage",
    "Qt",
    "QtCore",
    "QtGui",
    "QtWidgets",
    "Signal",
    "Slot",
    "pg",
]


def tr(text: str, context: str = "memgraph") -> str:
    """Translate a user-visible string (no translations ship yet; the wrapping is what matters)."""
    return QCoreApplication.translate(context, text)


def is_alive(obj: QObject) -> bool:
    """False once the C++ side of ``obj`` was destroyed (signals can fire during teardown)."""
    import shiboken6

    return bool(shiboken6.isValid(obj))


def app_icon() -> QIcon:
    """The application icon (an SVG shipped as package data)."""
    from importlib.resources import files

    return QIcon(str(files("memgraph_gui.resources") / "icons" / "memgraph.svg"))

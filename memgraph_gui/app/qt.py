"""The one place that picks the Qt binding: PySide6, imported before pyqtgraph would be."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import (
    QAbstractListModel,
    QAbstractTableModel,
    QCoreApplication,
    QEventLoop,
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
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

# isort: split
import pyqtgraph as pg  # after PySide6, so pyqtgraph binds to it

__all__ = [
    "QAbstractItemView",
    "QAbstractListModel",
    "QAbstractTableModel",
    "QAction",
    "QApplication",
    "QColor",
    "QComboBox",
    "QCoreApplication",
    "QDialog",
    "QDialogButtonBox",
    "QDoubleSpinBox",
    "QEventLoop",
    "QFileDialog",
    "QFont",
    "QFormLayout",
    "QFrame",
    "QHBoxLayout",
    "QHeaderView",
    "QIcon",
    "QKeySequence",
    "QLabel",
    "QLineEdit",
    "QListView",
    "QMainWindow",
    "QMessageBox",
    "QModelIndex",
    "QObject",
    "QPersistentModelIndex",
    "QPlainTextEdit",
    "QProgressBar",
    "QPushButton",
    "QSettings",
    "QShowEvent",
    "QSortFilterProxyModel",
    "QSpinBox",
    "QSplitter",
    "QStyleOptionViewItem",
    "QStyledItemDelegate",
    "QTableView",
    "QThread",
    "QTimer",
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


def app_icon() -> QIcon:
    """The application icon (an SVG shipped as package data)."""
    from importlib.resources import files

    return QIcon(str(files("memgraph_gui.resources") / "icons" / "memgraph.svg"))

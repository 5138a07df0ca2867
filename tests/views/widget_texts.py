"""Every text the window shows: each visible widget's labels, line and text edits, buttons,
combos, tooltips, every cell of every visible item view, and the graph's labels and hover
texts of every drawn node (labels are placed only when zoomed in: each drawn node's is asked
for)."""

from __future__ import annotations

from typing import Any

from memgraph_gui.views.qt import Qt, QtWidgets


def window_texts(window: Any) -> list[str]:
    """Every text the window's visible widgets show (see the module docstring)."""
    out: list[str] = [window.windowTitle()]
    for widget in window.findChildren(QtWidgets.QWidget):
        if not widget.isVisible():
            continue
        out.append(widget.toolTip())
        if isinstance(widget, QtWidgets.QLabel):
            out.append(widget.text())
        elif isinstance(widget, QtWidgets.QLineEdit):
            out.append(widget.text())
        elif isinstance(widget, (QtWidgets.QPlainTextEdit, QtWidgets.QTextEdit)):
            out.append(widget.toPlainText())
        elif isinstance(widget, QtWidgets.QAbstractButton):
            out.append(widget.text())
        elif isinstance(widget, QtWidgets.QComboBox):
            out.extend(widget.itemText(i) for i in range(widget.count()))
        if isinstance(widget, QtWidgets.QAbstractItemView) and widget.model() is not None:
            out.extend(_model_texts(widget.model()))
    graph = getattr(window, "graph_view", None)
    if graph is not None and graph.scene is not None:
        scene = graph.scene
        for row in range(scene.n):
            if graph.visible[row]:
                node_id = scene.ids[row]
                out.extend([node_id, graph._label_of(node_id), graph._hover_of(node_id)])
        out.extend(graph.labels.texts())
        out.append(graph.hover_title.text())
        out.extend(graph.retrieval_marks.texts())
    return [t for t in out if t]


def _model_texts(model: Any, parent: Any = None) -> list[str]:
    from memgraph_gui.views.qt import QtCore

    parent = parent if parent is not None else QtCore.QModelIndex()
    out: list[str] = []
    try:
        columns = model.columnCount(parent)
    except TypeError:  # a list model (its columnCount is private in the binding)
        columns = 1
    for row in range(model.rowCount(parent)):
        for column in range(columns):
            index = model.index(row, column, parent)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                if value is not None:
                    out.append(str(value))
            if column == 0 and _has_rows(model, index):  # a tree's children
                out.extend(_model_texts(model, index))
    return out


def _has_rows(model: Any, index: Any) -> bool:
    try:
        return bool(model.rowCount(index) > 0)
    except TypeError:
        return False

"""``TimelineTableModel``: every node in timeline order; ids held, rows rendered lazily."""

from __future__ import annotations

from typing import Any

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.qt import (
    QAbstractTableModel,
    QColor,
    QFont,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    tr,
)
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.model import Node

TYPE_COLORS = {
    "event": "#4e79a7",
    "character_sheet": "#e15759",
    "location_state": "#59a14f",
    "thread": "#b07aa1",
}
COLUMNS = ("Seq", "Injected", "Type", "Title", "Content")
_SNIPPET = 160


def content_text(node: Node) -> str:
    """One line of a node's fields: the summary, else ``column: value`` pairs."""
    summary = node.fields.get("summary")
    if summary:
        text = str(summary)
    else:
        text = "; ".join(f"{k}: {_flat(v)}" for k, v in node.fields.items() if v not in ("", None))
    text = " ".join(text.split())
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 1] + "…"


def _flat(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


class TimelineTableModel(QAbstractTableModel):
    """One row per node id; cells are computed only when shown (50k rows stay cheap)."""

    def __init__(self, app: AppModel) -> None:
        super().__init__()
        self._app = app
        self._ids = app.timeline_ids()
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self.reload)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return tr(COLUMNS[section])
        return None

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        node = self._app.node(self._ids[index.row()])
        if node is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._cell(node, index.column())
        if role == Qt.ItemDataRole.ForegroundRole:
            if node.archived:
                return QColor("#9a9a9a")
            return QColor(TYPE_COLORS.get(node.type, "#444444")) if index.column() == 2 else None
        if role == Qt.ItemDataRole.FontRole and node.archived:
            font = QFont()
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{node.id} · {node.type} · seq {node.seq_to}"
        return None

    def _cell(self, node: Node, column: int) -> str:
        if column == 0:
            return str(node.seq_to)
        if column == 1:
            state = self._app.injection()
            return ("◆" if node.id in state.always_inject_ids else "") + (
                "★" if node.id in state.recall_selected_ids else ""
            )
        if column == 2:
            kind = node.type + (f" · L{node.semantic_depth}" if node.semantic_rollup else "")
            return kind + (f" ({tr('archived')})" if node.archived else "")
        if column == 3:
            return node.title
        return content_text(node)

    def node_id(self, row: int) -> str:
        return self._ids[row]

    def reload(self) -> None:
        self.beginResetModel()
        self._ids = self._app.timeline_ids()
        self.endResetModel()

    def _on_changes_applied(self, changes: ChangeSet, initiator: object | None) -> None:
        if changes.timeline_rows_changed or changes.nodes_updated:
            self.reload()
        elif changes.injection_changed and self._ids:
            self.dataChanged.emit(self.index(0, 1), self.index(len(self._ids) - 1, 1))

"""Table models of the compaction wizard and the rollup review: eligible groups (checkable),
a group's children's briefs, and live rollups. Display strings only: item views paint
``DisplayRole`` as plain text, so node text never runs as HTML."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from memgraph_gui.app.compaction_reads import GroupRow, RollupRow
from memgraph_gui.views.qt import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    Qt,
    QtCore,
    tr,
)

Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_ALIGN = Qt.ItemDataRole.TextAlignmentRole
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def plain_tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally (Qt guesses rich text in tooltips otherwise)."""
    return "<p style='white-space:pre-wrap'>" + html.escape(text) + "</p>"


def one_line(text: str, limit: int = 160) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


class WrappedTextDelegate(QStyledItemDelegate):
    """Rows as tall as their wrapped text at the column's width (Qt's own hint comes out a line
    short for mixed CJK/Latin text, which then gets elided)."""

    PADDING = 8

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QtCore.QSize:
        hint = super().sizeHint(option, index)
        text = index.data(_DISPLAY)
        width = option.rect.width() - 2 * self.PADDING
        if not isinstance(text, str) or not text or width <= 0:
            return hint
        bounds = option.fontMetrics.boundingRect(
            QtCore.QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text
        )
        return QtCore.QSize(hint.width(), max(hint.height(), bounds.height() + self.PADDING))


class _Table(QAbstractTableModel):
    """Rows of dataclasses; subclasses give the header and the cell text."""

    headers: tuple[str, ...] = ()
    numeric: frozenset[int] = frozenset()

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[Any] = []

    def set_rows(self, rows: Sequence[Any]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row_at(self, row: int) -> Any:
        return self._rows[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if role == _DISPLAY and orientation == Qt.Orientation.Horizontal:
            return self.headers[section]
        return None

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        if not index.isValid():
            return None
        item = self._rows[index.row()]
        if role == _DISPLAY:
            return self.cell(item, index.column())
        if role == _TOOLTIP:
            tip = self.tooltip(item, index.column())
            return plain_tooltip(tip) if tip else None
        if role == _ALIGN and index.column() in self.numeric:
            return _RIGHT
        return None

    def cell(self, item: Any, column: int) -> str:
        raise NotImplementedError

    def tooltip(self, item: Any, column: int) -> str | None:
        return None


class GroupsTableModel(_Table):
    """Eligible groups with a check box each (all checked at first)."""

    numeric = frozenset({1})

    def __init__(self) -> None:
        super().__init__()
        self.headers = (tr("Group"), tr("Nodes"), tr("Seq"), tr("Titles"), tr("Opens with"))
        self._checked: list[bool] = []

    def set_rows(self, rows: Sequence[Any]) -> None:
        self._checked = [True] * len(rows)
        super().set_rows(rows)

    def checked_groups(self) -> list[GroupRow]:
        return [row for row, on in zip(self._rows, self._checked, strict=True) if on]

    def set_all_checked(self, on: bool) -> None:
        self._checked = [on] * len(self._rows)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, 0))

    def tooltip(self, item: GroupRow, column: int) -> str | None:
        return item.opening or None if column == 4 else None

    def cell(self, item: GroupRow, column: int) -> str:
        if column == 0:
            return tr("Group {n}").format(n=item.number)
        if column == 1:
            return str(len(item.child_ids))
        if column == 2:
            return f"{item.seq_from}–{item.seq_to}"
        if column == 3:
            titles = (item.first_title, item.last_title)
            return one_line(" … ".join(dict.fromkeys(titles)), 80)
        return one_line(item.opening, 200)

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        if role == Qt.ItemDataRole.CheckStateRole and index.isValid() and index.column() == 0:
            on = self._checked[index.row()]
            return Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
        return super().data(index, role)

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.CheckStateRole or not index.isValid() or index.column():
            return False
        state = value.value if isinstance(value, Qt.CheckState) else int(value)
        self._checked[index.row()] = state == Qt.CheckState.Checked.value
        self.dataChanged.emit(index, index, [role])
        return True

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        return base | Qt.ItemFlag.ItemIsUserCheckable if index.column() == 0 else base


class BriefsTableModel(_Table):
    """A group's (or a rollup's) children: seq, title, summary (NodeBrief JSON rows)."""

    numeric = frozenset({0})

    def __init__(self) -> None:
        super().__init__()
        self.headers = (tr("Seq"), tr("Title"), tr("Summary"))

    def briefs(self) -> list[dict[str, Any]]:
        return list(self._rows)

    def cell(self, item: dict[str, Any], column: int) -> str:
        if column == 0:
            return str(item.get("toSeq", ""))
        if column == 1:
            return one_line(str(item.get("title", "")), 60)
        return " ".join(str(item.get("summary", "")).split())

    def tooltip(self, item: dict[str, Any], column: int) -> str | None:
        if column == 2:
            return str(item.get("summary", "")) or None
        return f"{item.get('id', '')} · {item.get('type', '')}" if column == 1 else None


class RollupsTableModel(_Table):
    """Live rollups: title, type, level, children, seq."""

    numeric = frozenset({2, 3, 4})

    def __init__(self) -> None:
        super().__init__()
        self.headers = (tr("Rollup"), tr("Type"), tr("Level"), tr("Children"), tr("Seq"))

    def cell(self, item: RollupRow, column: int) -> str:
        if column == 0:
            return one_line(item.title, 80)
        if column == 1:
            return item.type_id
        if column == 2:
            return f"L{item.depth}"
        return str(item.child_count if column == 3 else item.seq_to)

    def tooltip(self, item: RollupRow, column: int) -> str | None:
        return one_line(item.summary, 400) or None

    def row_of(self, rollup_id: str) -> int:
        """The row showing ``rollup_id``, or -1."""
        return next((i for i, r in enumerate(self._rows) if r.id == rollup_id), -1)

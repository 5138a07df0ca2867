"""``TimelineTableModel``: the filtered node ids in timeline order; rows rendered lazily.

Updates are incremental: an edit refreshes its row, a few added or removed nodes are inserted or
removed in place (``beginInsertRows``/``beginRemoveRows``), and only large change sets or a
reload reset the model. Cells read nodes lock-free from the app model and are cached per id.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.nuggets_desk import is_note, note_content, note_tip, nugget_of
from memgraph_gui.app.reads import level_of
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.collation import ascii_key, uca_key
from memgraph_gui.core.domain.injection import InjectionState
from memgraph_gui.core.domain.model import Node
from memgraph_gui.views.qt import (
    QAbstractTableModel,
    QColor,
    QFont,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    tr,
)
from memgraph_gui.views.theme import ARCHIVED_COLOR, injection_styles, type_color
from memgraph_gui.views.timeline.filters import TimelineFilter

COLUMNS = ("Seq", "Injected", "Type", "Title", "Content")
BADGE_COLUMN = 1
RESET_ABOVE = 200  # edited ids above which a reset is cheaper than row-by-row updates
MOVES_ABOVE = 40  # added/removed ids above which a reset is cheaper (each move re-indexes)
_SNIPPET = 160
_ROOT = QModelIndex()


def seq_tip() -> str:
    """What a node's Seq means (the timeline's Seq header and the inspector's Seq say it)."""
    return tr(
        "seqTo: the last chat turn this memory covers. The timeline is ordered by it, and "
        "recall treats a higher seq as more recent. Edits made in this window keep it; an "
        "agent's edit stamps the current turn, and Edit ▸ Mark as Current does so by hand."
    )


@dataclass(frozen=True, slots=True)
class TimelineRow:
    """One row's rendered cells (cached per id until the node changes)."""

    cells: tuple[str, str, str, str, str]
    type_color: QColor
    archived: bool
    tooltip: str


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


@cache
def _badge_marks() -> tuple[str, str, str]:
    always, recall, visible = injection_styles()
    return always.badge, recall.badge, visible.badge


def badges(node_id: str, state: InjectionState) -> str:
    """The injection badges of a node (◆ always, ★ recall, ○ visible pool)."""
    always, recall, visible = _badge_marks()
    return (
        (always if node_id in state.always_inject_ids else "")
        + (recall if node_id in state.recall_selected_ids else "")
        + (visible if node_id in state.visible_ids else "")
    )


class TimelineTableModel(QAbstractTableModel):
    """One row per shown node id. GUI thread only."""

    def __init__(self, app: AppModel) -> None:
        super().__init__()
        self._app = app
        self._filter = TimelineFilter()
        self._ids: list[str] = []
        self._seqs: dict[str, int] = {}
        self._ascii = True
        self.moving = False  # True while rows are removed/inserted (views ignore selection churn)
        self._row_of: dict[str, int] | None = None
        self._cache: dict[str, TimelineRow] = {}
        self._injection = app.injection()
        self._archived_color = QColor(ARCHIVED_COLOR)
        self._italic = QFont()
        self._italic.setItalic(True)
        self.reload()
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self.reload)
        app.lens.changed.connect(self.reload)  # "View as": the rows and cells it lets be seen

    # -- Qt model interface ------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return tr(COLUMNS[section])
        if role == Qt.ItemDataRole.ToolTipRole and section == 0:
            return seq_tip()
        return None

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        node_id = self._ids[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole and column == BADGE_COLUMN:
            return badges(node_id, self._injection)
        row = self._row(node_id)
        if row is None:
            return None
        return self._role(row, column, role)

    def _role(self, row: TimelineRow, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells[column]
        if role == Qt.ItemDataRole.ForegroundRole:
            if row.archived:
                return self._archived_color
            return row.type_color if column == 2 else None
        if role == Qt.ItemDataRole.FontRole and row.archived:
            return self._italic
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 1):
            align = Qt.AlignmentFlag.AlignRight if column == 0 else Qt.AlignmentFlag.AlignHCenter
            return int(align | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.tooltip
        return None

    def _row(self, node_id: str) -> TimelineRow | None:
        row = self._cache.get(node_id)
        if row is None:
            node = self._app.node(node_id)
            if node is None:
                return None
            row = self._cache[node_id] = _render(node)
        return row

    # -- public --------------------------------------------------------------------------------------
    @property
    def filter(self) -> TimelineFilter:
        return self._filter

    def set_filter(self, new: TimelineFilter) -> None:
        """Show only the nodes ``new`` passes (one reset)."""
        if new != self._filter:
            self._filter = new
            self.reload()

    def node_id(self, row: int) -> str:
        return self._ids[row]

    def row_of(self, node_id: str) -> int | None:
        """The row showing ``node_id``, or None when it is filtered out. O(log n + ties): a
        binary search by the seq the row was placed with (valid even after the node moved),
        then a look among the rows sharing that seq."""
        seq = self._seqs.get(node_id)
        if seq is None:
            return None
        ids, seqs = self._ids, self._seqs
        low = bisect.bisect_left(ids, seq, key=seqs.__getitem__)
        high = bisect.bisect_right(ids, seq, lo=low, key=seqs.__getitem__)
        for row in range(low, high):
            if ids[row] == node_id:
                return row
        return None

    def rows_of(self, node_ids: Iterable[str]) -> list[int]:
        """Rows of the shown ids among ``node_ids`` (sorted)."""
        if self._row_of is None:
            self._row_of = {node_id: row for row, node_id in enumerate(self._ids)}
        found = (self._row_of.get(i) for i in node_ids)
        return sorted(r for r in found if r is not None)

    def reload(self) -> None:
        """Rebuild the row list from the store (a reset)."""
        self.beginResetModel()
        self._cache.clear()
        self._injection = self._app.injection()
        others = self._filter.besides_text
        rows = self._app.timeline_rows(others.passes if others.active else None, self._filter.text)
        self._ids, self._seqs, self._ascii = rows.ids, rows.seqs, rows.ascii_ids
        self._row_of = None
        self.endResetModel()

    def _id_key(self, node_id: str) -> Any:
        return (ascii_key if self._ascii else uca_key)(node_id)

    # -- incremental updates ---------------------------------------------------------------------------
    def _on_changes_applied(self, changes: ChangeSet, initiator: object | None) -> None:
        if changes.injection_changed:
            self._update_badges()
        touched = changes.nodes_added | changes.nodes_updated | changes.nodes_removed
        moves = len(changes.nodes_added) + len(changes.nodes_removed)
        if changes.reloaded or len(touched) > RESET_ABOVE or moves > MOVES_ABOVE:
            self.reload()
            return
        for node_id in changes.nodes_removed:
            self._cache.pop(node_id, None)
            self._take(node_id)
        for node_id in changes.nodes_updated - changes.nodes_removed:
            self._cache.pop(node_id, None)
            self._refresh(node_id)
        for node_id in changes.nodes_added - changes.nodes_removed:
            self._place(node_id)

    def _update_badges(self) -> None:
        old, self._injection = self._injection, self._app.injection()
        if self._ids and old != self._injection:
            last = len(self._ids) - 1
            self.dataChanged.emit(
                self.index(0, BADGE_COLUMN),
                self.index(last, BADGE_COLUMN),
                [Qt.ItemDataRole.DisplayRole],
            )

    def _refresh(self, node_id: str) -> None:
        node = self._app.node(node_id)
        row = self.row_of(node_id)
        if node is None or not self._filter.passes(node):
            self._take(node_id)
        elif row is None or node.seq_to != self._seqs.get(node_id):
            self._take(node_id)  # its seq changed (an edit stamps the current seq): it moves
            self._place(node_id)
        else:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def _take(self, node_id: str) -> None:
        row = self.row_of(node_id)
        if row is None:
            return
        self.moving = True
        try:
            self.beginRemoveRows(_ROOT, row, row)
            del self._ids[row]
            del self._seqs[node_id]
            self._row_of = None
            self.endRemoveRows()
        finally:
            self.moving = False

    def _place(self, node_id: str) -> None:
        node = self._app.node(node_id)
        if node is None or not self._filter.passes(node) or node_id in self._seqs:
            return
        if self._ascii and not node_id.isascii():
            self.reload()  # a non-ASCII id switches the whole tie order to the UCA keys
            return
        row = self._insertion_row(node.seq_to, self._id_key(node_id))
        self.moving = True
        try:
            self.beginInsertRows(_ROOT, row, row)
            self._ids.insert(row, node_id)
            self._seqs[node_id] = node.seq_to
            self._row_of = None
            self.endInsertRows()
        finally:
            self.moving = False

    def _insertion_row(self, seq: int, key: Any) -> int:
        """Where (seq, key) goes: after lower seqs, among equal seqs by the id's collation."""
        ids, seqs = self._ids, self._seqs
        low = bisect.bisect_left(ids, seq, key=seqs.__getitem__)
        high = bisect.bisect_right(ids, seq, lo=low, key=seqs.__getitem__)
        return bisect.bisect_left(ids, key, lo=low, hi=high, key=self._id_key)


def _render(node: Node) -> TimelineRow:
    if is_note(node):
        return _render_note(node)
    level = level_of(node)
    kind = node.type + (f" · {level}" if node.semantic_rollup else "")
    if node.archived:
        kind += f" ({tr('archived')})"
    cells = (str(node.seq_to), "", kind, node.title, content_text(node))
    tooltip = f"{node.id} · {node.type} · {level} · seq {node.seq_to}"
    return TimelineRow(cells, QColor(type_color(node.type)), node.archived, tooltip)


def _render_note(node: Node) -> TimelineRow:
    """A Nuggets note: its kind and nugget, title (a fact's key), content; the tooltip says
    what the generic cells cannot (scope / type, confidence, hits, when it was made)."""
    kind = f"{node.type} · {nugget_of(node) or '?'}"
    if node.archived:
        kind += f" ({tr('hidden')})"
    content = note_content(node)
    if len(content) > _SNIPPET:
        content = content[: _SNIPPET - 1] + "…"
    cells = (str(node.seq_to), "", kind, node.title, content)
    created = str(node.fields.get("createdAt", ""))
    tooltip = tr("{id} · {about} · note {seq} in creation order{created}").format(
        id=node.id,
        about=note_tip(node),
        seq=node.seq_to,
        created=f" · {created[:16].replace('T', ' ')}" if created else "",
    )
    return TimelineRow(cells, QColor(type_color(node.type)), node.archived, tooltip)

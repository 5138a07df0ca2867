"""One ranking of the Recall lab as a column: its mark and name, its ranked nodes with their
scores, or, in their place, what its API said and what to do about it. Node text is plain
text (an item view never reads it as rich text)."""

from __future__ import annotations

from memgraph_gui.app.recall_lab import Ranking, extra_columns, problem_text
from memgraph_gui.views.qt import (
    QHBoxLayout,
    QLabel,
    Qt,
    QtWidgets,
    QVBoxLayout,
    QWidget,
    Signal,
    tr,
)
from memgraph_gui.views.theme import InjectionStyle

ID_ROLE = Qt.ItemDataRole.UserRole


class RankingColumn(QWidget):
    """A ranking's column; ``node_chosen(id)`` when a row is clicked or activated."""

    node_chosen = Signal(str)

    def __init__(self, style: InjectionStyle, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = style.key
        self.setObjectName(f"recall-lab-{style.key}")
        head = self._build_head(style)
        self._build_table(style)
        self._build_problem(style)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(3)
        box.addLayout(head)
        box.addWidget(self.note)
        box.addWidget(self.table, 1)
        box.addWidget(self.problem, 1)

    def _build_head(self, style: InjectionStyle) -> QHBoxLayout:
        glyph = QLabel(style.badge)
        glyph.setTextFormat(Qt.TextFormat.PlainText)
        glyph.setStyleSheet(f"color: {style.color}; font-size: 15px; font-weight: bold;")
        glyph.setToolTip(tr("How the graph marks this ranking's nodes"))
        self.title = QLabel(style.label)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.note = QLabel("")  # what it ran with: the nugget, the trust
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setStyleSheet("color: #5a6270;")
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.setSpacing(5)
        head.addWidget(glyph)
        head.addWidget(self.title)
        head.addStretch(1)
        return head

    def _build_table(self, style: InjectionStyle) -> None:
        self.table = QtWidgets.QTreeWidget()
        self.table.setObjectName(f"recall-lab-{style.key}-rows")
        extra = extra_columns(style.key)
        self.table.setColumnCount(3 + len(extra))
        self.table.setHeaderLabels(["#", tr("Node"), tr("Score"), *extra])
        self.table.setRootIsDecorated(False)
        self.table.setUniformRowHeights(True)
        self.table.setAlternatingRowColors(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        header = self.table.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QtWidgets.QHeaderView.ResizeMode.Stretch)
        for column in range(2, 3 + len(extra)):
            header.setSectionResizeMode(column, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.table.setMinimumWidth(160)
        self.table.itemClicked.connect(self._on_item)
        self.table.itemActivated.connect(self._on_item)

    def _build_problem(self, style: InjectionStyle) -> None:
        self.problem = QLabel("")
        self.problem.setObjectName(f"recall-lab-{style.key}-problem")
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.problem.setWordWrap(True)
        self.problem.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem.setStyleSheet(
            "background: #fff8e6; border: 1px solid #e8d7a8; border-radius: 3px; padding: 6px;"
        )
        self.problem.setVisible(False)

    def show_ranking(self, ranking: Ranking | None, note: str = "") -> None:
        """Show ``ranking`` (None: nothing asked yet) under ``note`` (what it ran with)."""
        self.note.setText(note or " ")  # (kept: the four tables stay aligned)
        self.table.clear()
        problem = problem_text(ranking) if ranking is not None else ""
        self.problem.setText(problem)
        self.problem.setVisible(bool(problem))
        self.table.setVisible(not problem)
        if ranking is None or problem:
            return
        items = []
        for rank, hit in enumerate(ranking.hits, start=1):
            score = f"{hit.score:.2f}"
            item = QtWidgets.QTreeWidgetItem([str(rank), hit.title, score, *hit.parts])
            item.setData(0, ID_ROLE, hit.node_id)
            tip = f"{hit.title}\n{hit.node_id}\n{score} · {hit.detail}" if hit.detail else ""
            item.setToolTip(1, tip or f"{hit.title}\n{hit.node_id}")
            right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            for column in (0, 2, *range(3, 3 + len(hit.parts))):
                item.setTextAlignment(column, right)
            items.append(item)
        self.table.addTopLevelItems(items)
        if not items:
            empty = QtWidgets.QTreeWidgetItem(["", tr("Nothing found"), ""])
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.table.addTopLevelItem(empty)

    def ids(self) -> list[str]:
        """The node ids listed, in rank order (tests)."""
        found = (item.data(0, ID_ROLE) for item in self._items())
        return [i for i in found if i]

    def titles(self) -> list[str]:
        """The titles listed, in rank order (tests)."""
        return [item.text(1) for item in self._items()]

    def _items(self) -> list[QtWidgets.QTreeWidgetItem]:
        count = self.table.topLevelItemCount()
        found = (self.table.topLevelItem(i) for i in range(count))
        return [item for item in found if item is not None]

    def _on_item(self, item: QtWidgets.QTreeWidgetItem, _column: int = 0) -> None:
        node_id = item.data(0, ID_ROLE)
        if isinstance(node_id, str) and node_id:
            self.node_chosen.emit(node_id)

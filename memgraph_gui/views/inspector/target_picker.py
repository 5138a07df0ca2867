""" "Add link…": pick the other node (search by name), the relation and the direction.

The search is the Read API's ``findByName`` (case-insensitive substring over titles and
primary-key columns such as aliases, so Chinese works; active nodes only, which is what a link
may target), plus an exact id. It runs 150 ms after the last keystroke.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memgraph_gui.core.domain.model import Node
from memgraph_gui.views.inspector.link_rows import ARROWS
from memgraph_gui.views.inspector.style import dot_icon, plain_label
from memgraph_gui.views.qt import QtCore, QTimer, QWidget, tr
from memgraph_gui.views.qt import QtWidgets as W
from memgraph_gui.views.theme import type_color

Qt = QtCore.Qt
Search = Callable[[str], Sequence[Node]]
MAX_RESULTS = 200
DEBOUNCE_MS = 150


def _directions() -> list[tuple[str, str]]:
    return [
        ("outgoing", tr("{arrow}  outgoing (this node → target)")),
        ("incoming", tr("{arrow}  incoming (target → this node)")),
        ("bidirectional", tr("{arrow}  both ways")),
    ]


class TargetPickerDialog(W.QDialog):
    """Modal picker; after ``accepted``, ``choice()`` is ``(target_id, relation, direction)``."""

    def __init__(
        self,
        search: Search,
        relations: Sequence[str],
        *,
        source: Node,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._search = search
        self._source = source
        self.setWindowTitle(tr("Add link"))
        self.resize(460, 480)
        self.query = W.QLineEdit()
        self.query.setPlaceholderText(tr("Search titles and aliases, or type an id…"))
        self.query.setClearButtonEnabled(True)
        self.results = _results_tree()
        self.count_label = plain_label()
        self.count_label.setEnabled(False)
        self.relation = W.QComboBox()
        self.relation.setEditable(True)
        self.relation.addItems(list(relations) or ["related"])
        if "related" in relations:
            self.relation.setCurrentText("related")
        self.direction = W.QComboBox()
        for key, text in _directions():
            self.direction.addItem(text.format(arrow=ARROWS[key]), key)
        self.buttons = W.QDialogButtonBox(
            W.QDialogButtonBox.StandardButton.Ok | W.QDialogButtonBox.StandardButton.Cancel
        )
        ok = self.buttons.button(W.QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setText(tr("Add link"))
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._build()
        self._connect()
        self._update_ok()

    def _build(self) -> None:
        layout = W.QVBoxLayout(self)
        source = plain_label(tr("From: {title}").format(title=self._source.title))
        source.setToolTip(f"{self._source.type} · {self._source.id}")
        layout.addWidget(source)
        layout.addWidget(self.query)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.count_label)
        form = W.QFormLayout()
        form.addRow(plain_label(tr("Relation")), self.relation)
        form.addRow(plain_label(tr("Direction")), self.direction)
        layout.addLayout(form)
        layout.addWidget(self.buttons)

    def _connect(self) -> None:
        self.query.textChanged.connect(self._on_query_changed)
        self._timer.timeout.connect(self.run_search)
        self.results.itemSelectionChanged.connect(self._update_ok)
        self.results.itemDoubleClicked.connect(self._on_double_clicked)
        self.relation.currentTextChanged.connect(self._update_ok)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

    # -- searching ---------------------------------------------------------------------------------
    def run_search(self) -> None:
        """Search now (the debounce timer calls this)."""
        self._timer.stop()
        text = self.query.text().strip()
        found = [n for n in self._search(text) if n.id != self._source.id] if text else []
        self.results.clear()
        for node in found[:MAX_RESULTS]:
            item = W.QTreeWidgetItem([node.title, node.type])
            item.setData(0, Qt.ItemDataRole.UserRole, node.id)
            item.setIcon(0, dot_icon(type_color(node.type)))
            item.setToolTip(0, f"{node.type} · {node.id}\n{node.title}")
            self.results.addTopLevelItem(item)
        first = self.results.topLevelItem(0)
        if first is not None:
            self.results.setCurrentItem(first)
        self.count_label.setText(_count_text(text, len(found)))
        self._update_ok()

    @property
    def source_id(self) -> str:
        """The node the link is to start from (the one shown when the picker opened)."""
        return self._source.id

    def choice(self) -> tuple[str, str, str] | None:
        """``(target_id, relation, direction)``, or None when nothing is picked."""
        item = self.results.currentItem()
        relation = self.relation.currentText().strip()
        if item is None or not item.isSelected() or not relation:
            return None
        target = str(item.data(0, Qt.ItemDataRole.UserRole))
        return target, relation, str(self.direction.currentData())

    # -- slots -------------------------------------------------------------------------------------
    def _on_query_changed(self, _text: str) -> None:
        self._timer.start()

    def _on_double_clicked(self, _item: W.QTreeWidgetItem, _column: int) -> None:
        if self.choice() is not None:
            self.accept()

    def _update_ok(self) -> None:
        ok = self.buttons.button(W.QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setEnabled(self.choice() is not None)


def _results_tree() -> W.QTreeWidget:
    tree = W.QTreeWidget()
    tree.setColumnCount(2)
    tree.setHeaderLabels([tr("Title"), tr("Type")])
    tree.setRootIsDecorated(False)
    tree.setUniformRowHeights(True)
    tree.setAllColumnsShowFocus(True)
    header = tree.header()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(0, W.QHeaderView.ResizeMode.Stretch)
    header.setSectionResizeMode(1, W.QHeaderView.ResizeMode.ResizeToContents)
    return tree


def _count_text(text: str, count: int) -> str:
    if not text:
        return tr("Type part of a name (any language) to find the node to link to.")
    if count == 0:
        return tr("No active node matches.")
    if count > MAX_RESULTS:
        return tr("Showing the first {shown} of {count:,} matches; type more to narrow.").format(
            shown=MAX_RESULTS, count=count
        )
    return tr("{count} matches").format(count=count) if count != 1 else tr("1 match")

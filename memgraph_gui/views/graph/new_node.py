"""The "New node here…" question of the graph's context menu: a node type, a title and the
type's other required fields (a thread needs a status and a note)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from memgraph_gui.views.qt import (
    QColor,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    Qt,
    QWidget,
    tr,
)
from memgraph_gui.views.theme import type_color


@dataclass(frozen=True, slots=True)
class NewNode:
    """A node to create: its type, its title and its required fields' text."""

    type_id: str
    title: str
    fields: Mapping[str, str] = field(default_factory=dict)


class NewNodeDialog(QDialog):
    """Asks for a type (from ``types``: id to its required columns besides the title; the
    first preselected), a title and each required column; OK needs them all not blank."""

    def __init__(self, types: Mapping[str, Sequence[str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("New node"))
        self._types = {k: tuple(v) for k, v in types.items()}
        self.type_box = QComboBox()
        for type_id in self._types:
            self.type_box.addItem(type_id.replace("_", " "), type_id)
            index = self.type_box.count() - 1
            color = QColor(type_color(type_id))
            self.type_box.setItemData(index, color, Qt.ItemDataRole.DecorationRole)
        self.title_box = QLineEdit()
        self.title_box.setPlaceholderText(tr("Title"))
        self.field_boxes: dict[str, QLineEdit] = {}
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.form = QFormLayout(self)
        self.form.addRow(tr("Type"), self.type_box)
        self.form.addRow(tr("Title"), self.title_box)
        self.form.addRow(self.buttons)
        self.title_box.textChanged.connect(self._update_ok)
        self.type_box.currentIndexChanged.connect(self._show_fields)
        self._show_fields()
        self.title_box.setFocus()

    def _show_fields(self) -> None:
        """One line per required column of the type chosen (besides the title)."""
        for box in self.field_boxes.values():
            self.form.removeRow(box)
        self.field_boxes = {}
        for i, column in enumerate(self._types.get(str(self.type_box.currentData()), ())):
            box = QLineEdit()
            box.textChanged.connect(self._update_ok)
            self.form.insertRow(2 + i, column.replace("_", " "), box)
            self.field_boxes[column] = box
        self._update_ok()

    def _update_ok(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        boxes = [self.title_box, *self.field_boxes.values()]
        ok.setEnabled(all(box.text().strip() for box in boxes))

    def answer(self) -> NewNode:
        """The type, the title and the required fields chosen (stripped)."""
        fields = {column: box.text().strip() for column, box in self.field_boxes.items()}
        return NewNode(str(self.type_box.currentData()), self.title_box.text().strip(), fields)


def ask_new_node(parent: QWidget | None, types: Mapping[str, Sequence[str]]) -> NewNode | None:
    """Ask for a new node's type, title and required fields (modal); None when cancelled."""
    dialog = NewNodeDialog(types, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.answer()

"""The "New node here…" question of the graph's context menu: a node type and a title."""

from __future__ import annotations

from collections.abc import Sequence

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

NewNode = tuple[str, str]
"""A node to create: its type and its title."""


class NewNodeDialog(QDialog):
    """Asks for a type (from ``types``, the first preselected) and a title; OK needs a title
    that is not blank."""

    def __init__(self, types: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("New node"))
        self.type_box = QComboBox()
        for type_id in types:
            self.type_box.addItem(type_id.replace("_", " "), type_id)
            index = self.type_box.count() - 1
            color = QColor(type_color(type_id))
            self.type_box.setItemData(index, color, Qt.ItemDataRole.DecorationRole)
        self.title_box = QLineEdit()
        self.title_box.setPlaceholderText(tr("Title"))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(tr("Type"), self.type_box)
        form.addRow(tr("Title"), self.title_box)
        form.addRow(self.buttons)
        self.title_box.textChanged.connect(self._update_ok)
        self._update_ok()
        self.title_box.setFocus()

    def _update_ok(self) -> None:
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.title_box.text().strip()))

    def answer(self) -> NewNode:
        """The type and the title (stripped) chosen."""
        return str(self.type_box.currentData()), self.title_box.text().strip()


def ask_new_node(parent: QWidget | None, types: Sequence[str]) -> NewNode | None:
    """Ask for a new node's type and title (modal); None when cancelled."""
    dialog = NewNodeDialog(types, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.answer()

"""``InstructionEditor``: what the AI draft is told besides the entries, for one node type.

It shows the type's ``compression.summarizeInstruction``; the wizard's AI drafts use the text as
it stands in the field, and "Save for this type" writes it into the schema (one undo step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memgraph_gui.app import ops
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.qt import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    Qt,
    QtWidgets,
    QVBoxLayout,
    QWidget,
    tr,
)

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel


class InstructionEditor(QWidget):
    """The instruction field of one type, with its save button and a one-line status."""

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._type_id = ""
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("summarize-instruction")
        self.editor.setPlaceholderText(
            tr("Optional, e.g. “Keep it under 80 words; name every character.”")
        )
        self.editor.setFixedHeight(self.editor.fontMetrics().lineSpacing() * 3 + 14)
        self.editor.textChanged.connect(self._update_button)
        self.save_button = QPushButton(tr("Save for this type"))
        self.save_button.setToolTip(tr("Keep this instruction in the memory's schema."))
        self.save_button.clicked.connect(self.save)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.save_button)
        row.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.editor)
        layout.addLayout(row)
        policy = QtWidgets.QSizePolicy.Policy
        self.setSizePolicy(policy.Preferred, policy.Maximum)  # no taller than its contents
        self._update_button()

    def load(self, type_id: str) -> None:
        """Show ``type_id``'s saved instruction (the field's edits for another type are dropped)."""
        self._type_id = type_id
        self.status.clear()
        self.editor.setPlainText(self.saved())

    def text(self) -> str:
        """The instruction as it stands in the field (what the AI draft is told)."""
        return self.editor.toPlainText().strip()

    def saved(self) -> str:
        """The type's instruction in the schema."""
        spec = self._app.schema().get(self._type_id)
        return str(spec.compression.get("summarizeInstruction") or "") if spec else ""

    def save(self) -> None:
        """Write the field into the schema on the single writer (one undo step). The outcome
        is told for the type it was saved for, even when another type is shown by then."""
        type_id = self._type_id
        if not type_id:
            return
        self.save_button.setEnabled(False)
        self.status.setStyleSheet("")
        self.status.setText(tr("Saving…"))
        ops.set_summarize_instruction(
            self._app,
            type_id,
            self.text(),
            initiator=self,
            on_done=lambda _result: self._on_saved(type_id),
            on_error=lambda error: self._on_failed(type_id, error),
        )

    def _on_saved(self, type_id: str) -> None:
        self.status.setStyleSheet("")
        if type_id == self._type_id:
            self.status.setText(tr("Saved in the schema (Edit ▸ Undo takes it back)."))
        else:  # another type is shown now: its field was not what was saved
            self.status.setText(tr("The instruction for {type} was saved.").format(type=type_id))
        self._update_button()

    def _on_failed(self, type_id: str, error: MemgraphError) -> None:
        self.status.setStyleSheet("color: #b3261e;")
        if type_id == self._type_id:
            self.status.setText(tr("Not saved: {message}").format(message=error.message))
        else:
            self.status.setText(
                tr("The instruction for {type} was not saved: {message}").format(
                    type=type_id, message=error.message
                )
            )
        self._update_button()

    def _update_button(self) -> None:
        self.save_button.setEnabled(bool(self._type_id) and self.text() != self.saved())

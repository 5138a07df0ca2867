"""The node's fields as a form built from its type's schema: one row per column.

Each row is a label (the column name, ``*`` when required, a ``key`` badge for a primary-key
column, the schema's hint as tooltip), an editor picked by ``field_kinds.kind_of`` and a status
line under it: "Saving…" while the write is in flight, the API's refusal in red after one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memgraph_gui.core.domain.schema import TypeSpec
from memgraph_gui.views.inspector.area_editors import ListEditor, TextAreaEditor
from memgraph_gui.views.inspector.editors import (
    BoolEditor,
    ChoiceEditor,
    FieldEditor,
    LineEditor,
    NumberEditor,
)
from memgraph_gui.views.inspector.field_kinds import ColumnSpec, FieldKind, columns_for
from memgraph_gui.views.inspector.style import ERROR_COLOR, plain_label, status_label
from memgraph_gui.views.qt import QtCore, QWidget, Signal, tr
from memgraph_gui.views.qt import QtWidgets as W

Qt = QtCore.Qt


def make_editor(column: ColumnSpec) -> FieldEditor:
    """The editor widget for one column."""
    kind = column.kind
    if kind is FieldKind.LONG_TEXT:
        return TextAreaEditor()
    if kind is FieldKind.JSON:
        return TextAreaEditor(json_mode=True)
    if kind is FieldKind.LIST:
        return ListEditor()
    if kind is FieldKind.NUMBER:
        return NumberEditor()
    if kind is FieldKind.BOOL:
        return BoolEditor()
    if kind is FieldKind.CHOICE:
        return ChoiceEditor(column.choices)
    return LineEditor()


class FieldLabel(QWidget):
    """A column name with its required / primary-key marks."""

    def __init__(self, column: ColumnSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = W.QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addStretch(1)
        self.name = plain_label(column.name)
        layout.addWidget(self.name)
        if column.required:
            mark = plain_label("*")
            mark.setStyleSheet(f"color: {ERROR_COLOR}; font-weight: bold;")
            mark.setToolTip(tr("Required: this column cannot be empty."))
            layout.addWidget(mark)
        if column.primary_key:
            badge = plain_label(tr("key"))
            badge.setObjectName("pk-badge")
            badge.setToolTip(
                tr("Primary-key column: findByName matches it and extraction merges on it.")
            )
            badge.setStyleSheet(
                "QLabel#pk-badge { color: #6b5b00; background: #f4e8b0; border-radius: 3px;"
                " padding: 0px 3px; font-size: 8pt; }"
            )
            badge.setSizePolicy(W.QSizePolicy.Policy.Fixed, W.QSizePolicy.Policy.Fixed)
            layout.addWidget(badge, 0, Qt.AlignmentFlag.AlignVCenter)
        self.setToolTip(_tooltip(column))


def _tooltip(column: ColumnSpec) -> str:
    lines = [column.name]
    if column.hint:
        lines.append(column.hint)
    if not column.in_schema:
        lines.append(tr("Not a column of this type's schema."))
    return "\n\n".join(lines)


class FieldRow:
    """One column's label, editor and status line (owned by ``FieldForm``)."""

    def __init__(self, column: ColumnSpec) -> None:
        self.column = column
        self.label = FieldLabel(column)
        self.editor = make_editor(column)
        self.status = status_label()
        self.cell = QWidget()
        layout = W.QVBoxLayout(self.cell)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.editor)
        layout.addWidget(self.status)

    @property
    def error(self) -> str:
        """The message shown under the field ('' when none)."""
        return self.status.text() if self.status.property("error") else ""

    def show_error(self, message: str) -> None:
        self.status.setProperty("error", True)
        self.status.setStyleSheet(f"color: {ERROR_COLOR};")
        self.status.setText(message)
        self.status.setVisible(True)

    def show_busy(self, busy: bool) -> None:
        self.editor.set_busy(busy)
        if busy:
            self.status.setProperty("error", False)
            self.status.setStyleSheet("color: palette(mid);")
            self.status.setText(tr("Saving…"))
            self.status.setVisible(True)
        elif not self.status.property("error"):
            self.clear_status()

    def clear_status(self) -> None:
        self.status.setProperty("error", False)
        self.status.clear()
        self.status.setVisible(False)


class FieldForm(QWidget):
    """The form; emits ``field_committed(column, value)`` for each finished edit."""

    field_committed = Signal(str, object)
    field_input_rejected = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = W.QFormLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self._layout.setFieldGrowthPolicy(W.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self._layout.setHorizontalSpacing(10)
        self._layout.setVerticalSpacing(8)
        self._rows: dict[str, FieldRow] = {}
        self._shape: tuple[tuple[str, FieldKind], ...] = ()
        self._editable = True

    @property
    def rows(self) -> dict[str, FieldRow]:
        return self._rows

    def row(self, column: str) -> FieldRow:
        return self._rows[column]

    def load(self, spec: TypeSpec | None, fields: Mapping[str, Any], *, keep_dirty: bool) -> None:
        """Show ``fields``; rows keep the user's unsaved edits when ``keep_dirty``."""
        columns = columns_for(spec, fields)
        shape = tuple((c.name, c.kind) for c in columns)
        if shape != self._shape:
            self._rebuild(columns)
            keep_dirty = False
        for name, row in self._rows.items():
            if keep_dirty and row.editor.is_dirty():
                continue
            row.editor.set_value(fields.get(name))
            row.clear_status()

    def set_editable(self, editable: bool) -> None:
        self._editable = editable
        for row in self._rows.values():
            row.editor.set_editable(editable)

    def label_widgets(self) -> list[QWidget]:
        return [row.label for row in self._rows.values()]

    def clear(self) -> None:
        self._rebuild([])

    def _rebuild(self, columns: list[ColumnSpec]) -> None:
        while self._layout.rowCount():
            self._layout.removeRow(0)
        self._rows = {}
        self._shape = tuple((c.name, c.kind) for c in columns)
        for column in columns:
            row = FieldRow(column)
            row.editor.set_editable(self._editable)
            committed = _Relay(row.editor, column.name, self.field_committed)
            rejected = _Relay(row.editor, column.name, self.field_input_rejected)
            row.editor.committed.connect(committed.relay)
            row.editor.input_rejected.connect(rejected.relay)
            row.editor.reverted.connect(row.clear_status)
            self._layout.addRow(row.label, row.cell)
            self._rows[column.name] = row
        if not columns:
            empty = plain_label(tr("This type has no columns."))
            empty.setEnabled(False)
            self._layout.addRow(empty)


class _Relay(QtCore.QObject):
    """Forwards one editor's signal with its column name (a child of the editor, so the
    connection goes when the row does)."""

    def __init__(self, editor: QWidget, column: str, signal: Any) -> None:
        super().__init__(editor)
        self._column = column
        self._signal = signal

    def relay(self, value: object) -> None:
        self._signal.emit(self._column, value)

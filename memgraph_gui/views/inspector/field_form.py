"""The node's fields as a form built from its type's schema: one row per column.

Each row is a label (the column name, ``*`` when required, a ``key`` badge for a primary-key
column, the schema's hint as tooltip), an editor picked by ``field_kinds.kind_of``, a conflict
panel (yours beside the stored value, Keep mine / Take theirs) shown when another writer moved the
value on, and a status line: "Saving…" while the write is in flight, the API's refusal in red
after one. Reloading never drops unsaved typing (see ``FieldForm.load``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from memgraph_gui.core.domain.schema import TypeSpec
from memgraph_gui.views.conflict import ConflictPanel
from memgraph_gui.views.inspector.area_editors import (
    ApplyBar,
    ListEditor,
    TagsEditor,
    TextAreaEditor,
)
from memgraph_gui.views.inspector.editors import (
    BoolEditor,
    ChoiceEditor,
    FieldEditor,
    LineEditor,
    NumberEditor,
    StampEditor,
)
from memgraph_gui.views.inspector.field_kinds import (
    ColumnSpec,
    FieldKind,
    columns_for,
    display_text,
    same_value,
)
from memgraph_gui.views.inspector.style import (
    ERROR_COLOR,
    plain_label,
    section_title,
    status_label,
)
from memgraph_gui.views.qt import QtCore, QWidget, Signal, tr
from memgraph_gui.views.qt import QtWidgets as W

Qt = QtCore.Qt
_NOTHING: Any = object()


def make_editor(column: ColumnSpec) -> FieldEditor:
    """The editor widget for one column."""
    kind = column.kind
    if kind is FieldKind.LONG_TEXT:
        return TextAreaEditor()
    if kind is FieldKind.JSON:
        return TextAreaEditor(json_mode=True)
    if kind is FieldKind.LIST:
        return TagsEditor(column.protected) if column.protected else ListEditor()
    if kind is FieldKind.NUMBER:
        return NumberEditor(bounds=column.bounds)
    if kind is FieldKind.BOOL:
        return BoolEditor()
    if kind is FieldKind.CHOICE:
        return ChoiceEditor(column.choices, strict=column.strict)
    if kind is FieldKind.STAMP:
        return StampEditor()
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
        if column.read_only:
            self.name.setEnabled(False)  # greyed: shown, not edited here
        self.setToolTip(_tooltip(column))


def _tooltip(column: ColumnSpec) -> str:
    lines = [column.name]
    if column.hint:
        lines.append(column.hint)
    if not column.in_schema:
        lines.append(tr("Not a column of this type's schema."))
    if column.read_only:
        lines.append(tr("Read-only here."))
    return "\n\n".join(lines)


class FieldRow:
    """One column's label, editor, conflict panel and status line (owned by ``FieldForm``).

    A conflict is either *in the editor* (the person's value stays in the editor; ``theirs`` is
    the stored value it collided with) or *kept aside* (the column changed kind under the
    person's typing: the new editor shows the stored value and ``kept`` holds what they typed).
    """

    def __init__(
        self, column: ColumnSpec, make: Callable[[ColumnSpec], FieldEditor] = make_editor
    ) -> None:
        self.column = column
        self.label = FieldLabel(column)
        self.editor = make(column)
        self.conflict = ConflictPanel()
        self.status = status_label()
        self.theirs: Any = None
        self.kept: Any = _NOTHING
        self.cell = QWidget()
        layout = W.QVBoxLayout(self.cell)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.editor)
        layout.addWidget(self.conflict)
        layout.addWidget(self.status)

    @property
    def error(self) -> str:
        """The message shown under the field ('' when none)."""
        return self.status.text() if self.status.property("error") else ""

    def unsaved(self) -> bool:
        """True while the row holds typing that is neither written nor being written."""
        editor = self.editor
        return self.conflict.pending or (editor.is_dirty() and not editor.busy)

    @property
    def kept_aside(self) -> bool:
        """True when the person's value is kept beside an editor of another kind."""
        return self.kept is not _NOTHING

    def mine(self) -> Any:
        """The person's value in a conflict (``ValueError`` when the editor holds no value)."""
        return self.kept if self.kept is not _NOTHING else self.editor.value()

    def show_conflict(self, theirs: Any, *, kept: Any = _NOTHING) -> None:
        """Show the person's value beside ``theirs`` (the stored value now)."""
        self.theirs = theirs
        self.kept = kept
        mine = kept if kept is not _NOTHING else self.editor.draft()
        note = None
        if kept is not _NOTHING:
            note = tr("Changed elsewhere while you were typing; your text is kept here.")
        self.conflict.show_conflict(display_text(mine), display_text(theirs), note=note)
        self._show_apply_bar(False)  # Keep mine / Take theirs are the choice now

    def _show_apply_bar(self, shown: bool) -> None:
        """The editor's own Revert / Apply buttons (text areas and lists): hidden during a
        conflict, then back to the editor's rule (shown while it holds unsaved changes)."""
        bar = getattr(self.editor, "bar", None)
        if not isinstance(bar, ApplyBar):
            return
        if shown:
            bar.set_dirty(self.editor.writable and self.editor.is_dirty())
        else:
            bar.revert_button.setVisible(False)
            bar.apply_button.setVisible(False)

    def follow(self, value: Any) -> None:
        """The editor now shows ``value`` (stored): a kept-aside conflict compares with it."""
        if self.conflict.pending and self.kept is not _NOTHING:
            self.theirs = value
            self.conflict.update_theirs(display_text(value))

    def keep_mine(self) -> tuple[bool, Any]:
        """The person chose Keep mine: the conflict ends and ``(True, value)`` says what to
        write over the stored value; ``(False, None)`` when nothing is to be written (the
        editor holds no value: the error is shown; or theirs equals it now)."""
        try:
            mine = self.mine()
        except ValueError as exc:
            self.show_error(str(exc))
            return False, None
        theirs, kept_aside = self.theirs, self.kept_aside
        self.resolve()
        if not kept_aside:
            self.editor.rebase(theirs)
        if same_value(mine, self.editor.baseline):
            self.editor.set_value(self.editor.baseline)
            return False, None
        return True, mine

    def resolve(self) -> None:
        """The person chose: no conflict any more."""
        self.kept = _NOTHING
        self.theirs = None
        self.conflict.dismiss()
        self._show_apply_bar(True)

    def show_error(self, message: str) -> None:
        self.status.setProperty("error", True)
        self.status.setStyleSheet(f"color: {ERROR_COLOR};")
        self.status.setText(message)
        self.status.setVisible(True)

    def show_busy(self, busy: bool) -> None:
        self.editor.set_busy(busy)
        bar = getattr(self.editor, "bar", None)
        if isinstance(bar, ApplyBar):  # "Saving…" in the bar's room: the form does not move
            saying = busy and self.status.isHidden()
            bar.set_note(tr("Saving…") if saying else "")
            if saying:
                return
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

    def discard(self) -> None:
        """Drop the person's typing and any conflict: back to the stored value."""
        self.resolve()
        self.editor.revert()
        self.clear_status()


class FieldForm(QWidget):
    """The form; emits ``field_committed(column, value)`` for each finished edit and
    ``keep_mine_requested(column)`` when the person keeps their value in a conflict (the form
    itself loads the stored value on "Take theirs"). ``make`` picks each row's editor
    (``make_editor``'s choice by default)."""

    field_committed = Signal(str, object)
    field_input_rejected = Signal(str, str)
    keep_mine_requested = Signal(str)

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        make: Callable[[ColumnSpec], FieldEditor] = make_editor,
    ) -> None:
        super().__init__(parent)
        self._make = make
        self._headings: list[W.QLabel] = []
        self._layout = W.QFormLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self._layout.setFieldGrowthPolicy(W.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        # a label goes above its field when both do not fit side by side: a list field's
        # controls and Apply / Revert beside "addressing_user" needed 400 px, and at 1024×700
        # the inspector took them from the graph's half
        self._layout.setRowWrapPolicy(W.QFormLayout.RowWrapPolicy.WrapLongRows)
        self._layout.setHorizontalSpacing(10)
        self._layout.setVerticalSpacing(8)
        self._rows: dict[str, FieldRow] = {}
        self._columns: tuple[ColumnSpec, ...] = ()
        self._empty: W.QLabel | None = None
        self._editable = True

    @property
    def rows(self) -> dict[str, FieldRow]:
        return self._rows

    def row(self, column: str) -> FieldRow:
        return self._rows[column]

    def unsaved_columns(self) -> list[str]:
        """The columns holding unsaved typing or an unresolved conflict, in form order."""
        return [name for name, row in self._rows.items() if row.unsaved()]

    def load(
        self,
        spec: TypeSpec | None,
        fields: Mapping[str, Any],
        *,
        keep_dirty: bool,
        fresh: Collection[str] = (),
        columns: Sequence[ColumnSpec] | None = None,
    ) -> None:
        """Show ``fields``. With ``keep_dirty`` nothing the person typed is lost: a row with
        unsaved typing keeps it and its baseline (so its write is checked against what it was
        based on), also when the column's editor changes kind (the typing is then kept aside,
        beside the new editor) or the column disappears; an untouched row follows ``fields``.
        Without it every row shows ``fields`` and conflicts are dropped (another node). The
        ``fresh`` columns (just written) show ``fields`` in any case. ``columns`` (a note's
        fields) replaces the rows ``spec`` would give."""
        columns = list(columns) if columns is not None else columns_for(spec, fields)
        if keep_dirty:
            names = {c.name for c in columns}
            columns += [
                r.column
                for n, r in self._rows.items()
                if n not in names and n not in fresh and r.unsaved()
            ]
        replaced: dict[str, FieldRow] = {}
        if tuple(columns) != self._columns:
            replaced = self._rebuild(columns, keep=keep_dirty, fresh=fresh)
        for name, row in self._rows.items():
            value = fields.get(name)
            old = replaced.get(name)
            if old is not None:
                _carry(old, row, value)
            elif keep_dirty and name not in fresh and row.editor.is_dirty():
                continue
            else:
                row.editor.set_value(value)
                row.clear_status()
                if keep_dirty:
                    row.follow(value)
                else:
                    row.resolve()
        for old in replaced.values():
            _delete(old)

    def set_editable(self, editable: bool) -> None:
        self._editable = editable
        for row in self._rows.values():
            row.editor.set_editable(editable and not row.column.read_only)

    def label_widgets(self) -> list[QWidget]:
        return [row.label for row in self._rows.values()]

    def clear(self) -> None:
        self._rebuild([], keep=False)

    def _rebuild(
        self, columns: list[ColumnSpec], *, keep: bool, fresh: Collection[str] = ()
    ) -> dict[str, FieldRow]:
        """Lay out ``columns``, reusing the rows whose column is unchanged. Returns the replaced
        rows that held unsaved typing (when ``keep``), for ``load`` to carry over and delete."""
        while self._layout.rowCount():
            self._layout.takeRow(0)
        if self._empty is not None:
            self._empty.hide()  # (deleted when the event loop next runs)
            self._empty.deleteLater()
            self._empty = None
        for heading in self._headings:
            heading.hide()
            heading.deleteLater()
        self._headings = []
        section = ""
        old, self._rows = self._rows, {}
        self._columns = tuple(columns)
        replaced: dict[str, FieldRow] = {}
        for column in columns:
            row = old.pop(column.name, None)
            if row is not None and row.column != column:
                if keep and column.name not in fresh and row.unsaved():
                    replaced[column.name] = row
                else:
                    _delete(row)
                row = None
            if row is None:
                row = self._new_row(column)
            if column.section and column.section != section:
                heading = section_title(column.section)
                self._headings.append(heading)
                self._layout.addRow(heading)
            section = column.section or section
            self._layout.addRow(row.label, row.cell)
            self._rows[column.name] = row
        for row in old.values():
            _delete(row)
        if not columns:
            self._empty = plain_label(tr("This type has no columns."))
            self._empty.setEnabled(False)
            self._layout.addRow(self._empty)
        return replaced

    def _new_row(self, column: ColumnSpec) -> FieldRow:
        row = FieldRow(column, self._make)
        row.editor.set_editable(self._editable and not column.read_only)
        line = getattr(row.editor, "line", None)
        if column.read_only and isinstance(line, W.QLineEdit):
            line.setFrame(False)  # a value to read (and copy), not a box to type in
            line.setStyleSheet("QLineEdit { background: transparent; }")
            line.setPlaceholderText(tr("none"))
        committed = _Relay(row.editor, column.name, self.field_committed)
        rejected = _Relay(row.editor, column.name, self.field_input_rejected)
        keep = _Relay(row.editor, column.name, self.keep_mine_requested)
        row.editor.committed.connect(committed.relay)
        row.editor.input_rejected.connect(rejected.relay)
        row.editor.reverted.connect(row.clear_status)
        row.conflict.keep_mine.connect(keep.relay_name)
        row.conflict.take_theirs.connect(_TakeTheirs(row).take)
        return row


def _carry(old: FieldRow, new: FieldRow, value: Any) -> None:
    """Move ``old``'s unsaved typing into ``new`` (the same column, laid out anew): into the
    editor when it is of the same kind, else kept aside beside it, compared with ``value``."""
    same_kind = old.column.kind is new.column.kind
    if same_kind and old.kept is _NOTHING:
        new.editor.restore_draft(old.editor.baseline, old.editor.draft())
        if old.conflict.pending:
            new.show_conflict(old.theirs)
        return
    new.editor.set_value(value)
    kept = old.kept if old.kept is not _NOTHING else old.editor.draft()
    new.show_conflict(value, kept=kept)


def _delete(row: FieldRow) -> None:
    row.label.hide()
    row.cell.hide()
    row.label.deleteLater()
    row.cell.deleteLater()


class _TakeTheirs(QtCore.QObject):
    """ "Take theirs": load the stored value the conflict showed (a child of the row's editor)."""

    def __init__(self, row: FieldRow) -> None:
        super().__init__(row.editor)
        self._row = row

    def take(self) -> None:
        row = self._row
        theirs = row.theirs
        row.resolve()
        row.editor.set_value(theirs)
        row.clear_status()


class _Relay(QtCore.QObject):
    """Forwards one editor's signal with its column name (a child of the editor, so the
    connection goes when the row does)."""

    def __init__(self, editor: QWidget, column: str, signal: Any) -> None:
        super().__init__(editor)
        self._column = column
        self._signal = signal

    def relay(self, value: object) -> None:
        self._signal.emit(self._column, value)

    def relay_name(self) -> None:
        self._signal.emit(self._column)

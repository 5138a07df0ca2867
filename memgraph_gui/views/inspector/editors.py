"""Single-line field editors: text, number, choice, true/false.

Every editor shows one column's stored value (its *baseline*) and emits ``committed(value)`` once
per finished user edit that changes it: Enter or leaving the field for a line, picking an entry
for a choice, a click for a check box. ``None`` (or blank text) means "clear the field". An input
that cannot be a value at all (``"12x"`` in a number field) emits ``input_rejected(message)`` instead.
While the write is in flight (``set_busy``) the editor is read-only; a refused value is
remembered so leaving the field does not send it again.
"""

from __future__ import annotations

from typing import Any

from memgraph_gui.views.inspector.field_kinds import (
    display_text,
    parse_number,
    same_value,
    stamp_text,
)
from memgraph_gui.views.qt import QtWidgets as W
from memgraph_gui.views.qt import QWidget, Signal, tr

_NOTHING = object()


class FieldEditor(QWidget):
    """Base of every column editor (see the module docstring for the contract)."""

    committed = Signal(object)
    input_rejected = Signal(str)
    reverted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._baseline: Any = None
        self._refused: Any = _NOTHING
        self._busy = False
        self._editable = True

    # -- contract ----------------------------------------------------------------------------------
    def set_value(self, value: Any) -> None:
        """Show ``value`` as the stored value (drops the user's unsaved text)."""
        self._baseline = value
        self._refused = _NOTHING
        self._show(value)
        self._state_changed()

    def value(self) -> Any:
        """The value the editor holds now; ``ValueError`` when it is not a value."""
        raise NotImplementedError

    @property
    def baseline(self) -> Any:
        """The stored value the person started editing from (what an edit is based on)."""
        return self._baseline

    @property
    def busy(self) -> bool:
        """True while a write of this editor's value is in flight."""
        return self._busy

    def draft(self) -> Any:
        """What the person has in the editor: its value, or the raw text when that is no value
        (``"12x"`` in a number field); ``_show(draft())`` shows it again."""
        try:
            return self.value()
        except ValueError:
            return self._raw_text()

    def restore_draft(self, baseline: Any, draft: Any) -> None:
        """Show ``draft`` (from ``draft()`` of an editor of the same kind) as unsaved typing
        based on ``baseline``."""
        self._baseline = baseline
        self._refused = _NOTHING
        self._show(draft)
        self._state_changed()

    def rebase(self, baseline: Any) -> None:
        """Keep the person's typing, now based on ``baseline`` ("Keep mine")."""
        self._baseline = baseline
        self._refused = _NOTHING
        self._state_changed()

    def is_dirty(self) -> bool:
        """True when the editor holds something other than the stored value."""
        try:
            return not same_value(self.value(), self._baseline)
        except ValueError:
            return True

    def set_busy(self, busy: bool) -> None:
        self._busy = busy
        self._state_changed()

    def set_editable(self, editable: bool) -> None:
        self._editable = editable
        self._state_changed()

    def mark_refused(self, value: Any) -> None:
        """Remember a value the API refused (so it is not sent again unchanged)."""
        self._refused = value

    def revert(self) -> None:
        """Back to the stored value."""
        self._refused = _NOTHING
        self._show(self._baseline)
        self._state_changed()
        self.reverted.emit()

    # -- for subclasses ----------------------------------------------------------------------------
    def _raw_text(self) -> Any:
        """The editor's text when ``value`` refuses it (editors that take free text override)."""
        return self._baseline

    @property
    def writable(self) -> bool:
        return self._editable and not self._busy

    def _show(self, value: Any) -> None:
        raise NotImplementedError

    def _state_changed(self) -> None:
        """Reflect ``writable`` / dirtiness in the widgets."""

    def _try_commit(self) -> None:
        if not self.writable:
            return
        try:
            value = self.value()
        except ValueError as exc:
            self.input_rejected.emit(str(exc))
            return
        if same_value(value, self._baseline):
            return
        if self._refused is not _NOTHING and same_value(value, self._refused):
            return
        self.committed.emit(value)


def _bare(layout: W.QBoxLayout) -> W.QBoxLayout:
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(4)
    return layout


class LineEditor(FieldEditor):
    """One line of text; commits on Enter or when focus leaves it (``required``: never blank)."""

    def __init__(self, parent: QWidget | None = None, *, required: bool = False) -> None:
        super().__init__(parent)
        self._required = required
        self.line = W.QLineEdit()
        self.line.setPlaceholderText(tr("empty"))
        _bare(W.QHBoxLayout(self)).addWidget(self.line)
        self.line.editingFinished.connect(self._on_editing_finished)
        self.setFocusProxy(self.line)

    def value(self) -> Any:
        text = self.line.text()
        if self._required and not text.strip():
            raise ValueError(tr("This cannot be empty."))
        return text

    def _raw_text(self) -> Any:
        return self.line.text()

    def _show(self, value: Any) -> None:
        self.line.setText(display_text(value))
        self.line.setCursorPosition(0)

    def _state_changed(self) -> None:
        self.line.setReadOnly(not self.writable)

    def _on_editing_finished(self) -> None:
        self._try_commit()


class StampEditor(LineEditor):
    """A stamp, read-only: ``stamp_text`` of it, the whole stamp as tooltip."""

    def value(self) -> Any:
        return self.baseline  # nothing is typed here

    def _show(self, value: Any) -> None:
        self.line.setText(stamp_text(value))
        self.line.setCursorPosition(0)
        whole = display_text(value)
        self.line.setToolTip(tr("{stamp} (UTC)").format(stamp=whole) if whole else "")


class NumberEditor(LineEditor):
    """A number (int when whole); blank clears the field. With ``bounds`` (both ends included)
    a number outside them, or a blank, is no value."""

    def __init__(
        self, parent: QWidget | None = None, *, bounds: tuple[float, float] | None = None
    ) -> None:
        super().__init__(parent)
        self.bounds = bounds
        if bounds is None:
            self.line.setPlaceholderText(tr("number"))
        else:
            self.line.setPlaceholderText(_range_text(bounds))
            self.line.setToolTip(tr("A number from {range}").format(range=_range_text(bounds)))

    def value(self) -> Any:
        text = self.line.text()
        if not text.strip() and self.bounds is None:
            return None
        try:
            number = parse_number(text)
        except ValueError:
            raise ValueError(tr("“{text}” is not a number.").format(text=text.strip())) from None
        if self.bounds is not None and not self.bounds[0] <= number <= self.bounds[1]:
            raise ValueError(
                tr("{number} is out of range: it must be from {range}.").format(
                    number=text.strip(), range=_range_text(self.bounds)
                )
            )
        return number


def _range_text(bounds: tuple[float, float]) -> str:
    low, high = (display_text(int(b) if float(b).is_integer() else b) for b in bounds)
    return f"{low} – {high}"


class ChoiceEditor(FieldEditor):
    """One of the values the column's hint names, or any other text typed in; ``strict``: only
    one of ``choices`` (a stored value outside them is shown, and is no value to write)."""

    def __init__(
        self, choices: tuple[str, ...], parent: QWidget | None = None, *, strict: bool = False
    ) -> None:
        super().__init__(parent)
        self._choices = choices
        self.strict = strict
        self.combo = W.QComboBox()
        self.combo.setEditable(not strict)
        self.combo.setInsertPolicy(W.QComboBox.InsertPolicy.NoInsert)
        self.combo.addItems(list(choices))
        _bare(W.QHBoxLayout(self)).addWidget(self.combo)
        self.combo.activated.connect(self._on_activated)
        edit = self.combo.lineEdit()
        if edit is not None:
            edit.editingFinished.connect(self._on_editing_finished)
        self.setFocusProxy(self.combo)

    def value(self) -> Any:
        text = self.combo.currentText()
        if self.strict and text not in self._choices and text != display_text(self.baseline):
            raise ValueError(
                tr("“{text}” is not one of {choices}.").format(
                    text=text, choices=", ".join(self._choices)
                )
            )
        return text

    def _raw_text(self) -> Any:
        return self.combo.currentText()

    def _show(self, value: Any) -> None:
        text = display_text(value)
        if text and self.combo.findText(text) < 0:
            self.combo.addItem(text)
        if self.strict:
            self.combo.setCurrentIndex(self.combo.findText(text))
        else:
            self.combo.setCurrentText(text)

    def _state_changed(self) -> None:
        self.combo.setEnabled(self.writable)

    def _on_activated(self, _index: int) -> None:
        self._try_commit()

    def _on_editing_finished(self) -> None:
        self._try_commit()


class BoolEditor(FieldEditor):
    """True or false; a click commits."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.box = W.QCheckBox()
        _bare(W.QHBoxLayout(self)).addWidget(self.box)
        self.box.clicked.connect(self._on_clicked)
        self.setFocusProxy(self.box)

    def value(self) -> Any:
        return self.box.isChecked()

    def _show(self, value: Any) -> None:
        self.box.setChecked(bool(value))
        self.box.setText(tr("true") if value else tr("false"))

    def _state_changed(self) -> None:
        self.box.setEnabled(self.writable)

    def _on_clicked(self, checked: bool) -> None:
        self.box.setText(tr("true") if checked else tr("false"))
        self._try_commit()

"""The inspector's "Membrane" section: every node's sensitivity, salience, memory type, scope and
tags, each with where its value comes from, and a Membrane record's payload, provenance and
audit log (read-only, pretty JSON in plain text).

The attributes are a ``FieldForm`` like the node's fields, so they behave alike: a sensitivity
and a memory type are picked from the seed's value sets, salience is a spin box from 0 to 1,
scope a line, tags a list (Apply / Revert). Each finished edit is one write through
``app.membrane_desk.set_attributes`` (one undo step, "Set sensitivity of 'Eileen' to high")
based on the value the editor started from: when another writer moved it on, nothing is written
and the row shows both values with "Keep mine" / "Take theirs". "Reset to default" takes back
what was set on a Luker node or a Nuggets note. Completions are bound to the node and attribute
they were for (one arriving after the person moved on is kept for their return); untouched rows
follow other writers' changes live; the section is a ``HoldsUnsaved`` part of the inspector.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from memgraph_gui.app import membrane_desk
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.membrane_desk import DEFAULT, RECORD, SET, MembraneAttributes
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.inspector.editors import FieldEditor, _bare
from memgraph_gui.views.inspector.field_form import FieldForm, make_editor
from memgraph_gui.views.inspector.field_kinds import ColumnSpec, FieldKind
from memgraph_gui.views.inspector.style import plain_label, section_title, status_label
from memgraph_gui.views.qt import QtCore, QWidget, tr
from memgraph_gui.views.qt import QtWidgets as W

Qt = QtCore.Qt
SALIENCE_DECIMALS = 3
_HINTS = {
    "sensitivity": "Who may read it: a caller allowed up to this level reads it in full, one "
    "level below it reads it redacted, lower callers never see it.",
    "salience": "How important it is to recall, from 0 to 1.",
    "memory_type": "Membrane's kind of memory: it decides which layer retrieval reads it in.",
    "scope": "Only callers allowed this scope see it (empty: unscoped, every caller).",
    "tags": "Free-form labels.",
}
_SOURCE_TEXT = {
    RECORD: "from the record",
    DEFAULT: "default mapping",
    SET: "set by you",
}
RECORD_PARTS = ("payload", "provenance", "audit_log")
"""The record's keys shown read-only under the attributes."""


def attribute_columns() -> list[ColumnSpec]:
    """The section's rows, in ``membrane_desk.NAMES`` order."""
    choice = FieldKind.CHOICE
    specs = {
        "sensitivity": ColumnSpec(
            "sensitivity", choice, choices=membrane_desk.SENSITIVITIES, strict=True
        ),
        "salience": ColumnSpec("salience", FieldKind.NUMBER, bounds=membrane_desk.SALIENCE_RANGE),
        "memory_type": ColumnSpec(
            "memory_type", choice, choices=membrane_desk.MEMORY_TYPES, strict=True
        ),
        "scope": ColumnSpec("scope", FieldKind.TEXT),
        "tags": ColumnSpec("tags", FieldKind.LIST),
    }
    out = []
    for name in membrane_desk.NAMES:
        spec = specs[name]
        out.append(
            ColumnSpec(
                spec.name,
                spec.kind,
                hint=tr(_HINTS[name]),
                choices=spec.choices,
                strict=spec.strict,
                bounds=spec.bounds,
            )
        )
    return out


class SpinEditor(FieldEditor):
    """A number in ``bounds`` as a spin box; commits when editing finishes (Enter, leaving it),
    not on every arrow click. A stored value with more decimals than shown stays that value
    until the person changes it."""

    def __init__(self, bounds: tuple[float, float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spin = W.QDoubleSpinBox()
        self.spin.setDecimals(SALIENCE_DECIMALS)
        self.spin.setRange(*bounds)
        self.spin.setSingleStep(0.05)
        self.spin.setKeyboardTracking(False)
        self.spin.setToolTip(
            tr("A number from {low:g} to {high:g}").format(low=bounds[0], high=bounds[1])
        )
        _bare(W.QHBoxLayout(self)).addWidget(self.spin)
        self.spin.editingFinished.connect(self._try_commit)
        self.setFocusProxy(self.spin)

    def value(self) -> Any:
        shown = self.spin.value()
        base = self.baseline
        if isinstance(base, (int, float)) and round(float(base), SALIENCE_DECIMALS) == shown:
            return base
        return shown

    def _show(self, value: Any) -> None:
        number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0
        self.spin.setValue(float(number))

    def _state_changed(self) -> None:
        self.spin.setReadOnly(not self.writable)
        buttons = W.QAbstractSpinBox.ButtonSymbols
        self.spin.setButtonSymbols(buttons.UpDownArrows if self.writable else buttons.NoButtons)


def _editor_for(column: ColumnSpec) -> FieldEditor:
    if column.kind is FieldKind.NUMBER and column.bounds is not None:
        return SpinEditor(column.bounds)
    return make_editor(column)


def pretty(value: Any) -> str:
    """JSON text for reading: indented, keys in stored order, non-ASCII kept."""
    return json.dumps(value, indent=2, ensure_ascii=False)


@dataclass
class _Saving:
    """A "Save" of the node's unsaved attributes: the writes still out, and what comes next."""

    node_id: str
    waiting: set[str]
    on_saved: Callable[[], None]
    on_failed: Callable[[], None]


@dataclass
class _Parked:
    """An edit refused after the person moved on from its node: shown when they return."""

    value: Any
    baseline: Any
    error: MemgraphError


class MembraneSection(QWidget):
    """The "Membrane" section for the node the inspector shows (see the module docstring).

    The inspector calls ``show_node`` when it shows another node, ``follow`` with every
    ChangeSet, ``set_editable`` with its writable state, ``forget`` when the store is replaced,
    and asks it about unsaved edits (``has_unsaved_edits`` ... as ``HoldsUnsaved``). GUI thread.
    """

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("membrane-section")
        self._app = app
        self._node_id: str | None = None
        self._shown: MembraneAttributes | None = None
        self._in_flight: dict[tuple[str, str], int] = {}
        self._parked: dict[tuple[str, str], _Parked] = {}
        self._pending_save: _Saving | None = None
        self._editable = True
        self.title = section_title(tr("Membrane"))
        self.form = FieldForm(make=_editor_for)
        self.sources: dict[str, W.QLabel] = {}
        self.reset_button = W.QPushButton(tr("Reset to default"))
        self.reset_button.setToolTip(
            tr("Take back the attributes set here: back to the default mapping (undoable)")
        )
        self.reset_button.setAutoDefault(False)
        self.reset_status = status_label()
        self.record_title = section_title(tr("Membrane record"))
        self.record_stamps = plain_label()
        self.record_stamps.setWordWrap(True)
        self.record_stamps.setEnabled(False)
        self.record_boxes: dict[str, W.QPlainTextEdit] = {}
        self.record_labels: dict[str, W.QLabel] = {}
        self._build()
        self.form.field_committed.connect(self._write)
        self.form.field_input_rejected.connect(self._on_input_rejected)
        self.form.keep_mine_requested.connect(self._keep_mine)
        self.reset_button.clicked.connect(self.reset_to_default)
        self.form.load(None, {}, keep_dirty=False, columns=attribute_columns())
        self._add_source_labels()

    # -- layout ------------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = W.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.title)
        layout.addWidget(self.form)
        reset_row = W.QHBoxLayout()
        reset_row.addStretch(1)
        reset_row.addWidget(self.reset_button)
        layout.addLayout(reset_row)
        layout.addWidget(self.reset_status)
        layout.addWidget(self.record_title)
        layout.addWidget(self.record_stamps)
        names = {
            "payload": tr("Payload"),
            "provenance": tr("Provenance"),
            "audit_log": tr("Audit log"),
        }
        for key in RECORD_PARTS:
            label = plain_label(names[key])
            box = W.QPlainTextEdit()
            box.setObjectName(f"membrane-{key}")
            box.setReadOnly(True)
            box.setTabChangesFocus(True)
            box.setLineWrapMode(W.QPlainTextEdit.LineWrapMode.WidgetWidth)
            box.setMaximumHeight(180)
            self.record_labels[key] = label
            self.record_boxes[key] = box
            layout.addWidget(label)
            layout.addWidget(box)

    def _add_source_labels(self) -> None:
        """One grey line under each editor: where its value comes from."""
        for name, row in self.form.rows.items():
            label = plain_label()
            label.setObjectName(f"membrane-source-{name}")
            label.setStyleSheet("color: palette(mid); font-size: 8pt;")
            cell_layout = row.cell.layout()
            assert isinstance(cell_layout, W.QVBoxLayout)
            cell_layout.insertWidget(1, label)
            self.sources[name] = label

    def label_widgets(self) -> list[QWidget]:
        """The row labels (the inspector aligns them with its own)."""
        return self.form.label_widgets()

    # -- showing -----------------------------------------------------------------------------------
    @property
    def node_id(self) -> str | None:
        return self._node_id

    def show_node(self, node_id: str | None) -> None:
        """Show ``node_id``'s attributes (None: nothing), dropping the typing shown before (the
        inspector asked first) and bringing back the refused edits parked for it."""
        self._node_id = node_id
        self._pending_save = None
        self.reset_status.setVisible(False)
        self._load(keep_dirty=False)
        for name, row in self.form.rows.items():
            busy = node_id is not None and (node_id, name) in self._in_flight
            if row.editor.busy != busy:
                row.show_busy(busy)
        if node_id is not None:
            self._restore_parked(node_id)

    def _load(self, *, keep_dirty: bool, fresh: tuple[str, ...] = ()) -> None:
        shown = self._app.membrane_attributes(self._node_id) if self._node_id else None
        self._shown = shown
        self.setVisible(shown is not None)
        if shown is None:
            return
        self.form.load(
            None, shown.values, keep_dirty=keep_dirty, fresh=fresh, columns=attribute_columns()
        )
        for name, label in self.sources.items():
            source = shown.sources[name]
            text = tr(_SOURCE_TEXT[source])
            if source == SET and shown.defaults is not None:
                default = _shown_value(name, shown.defaults[name])
                text = tr("set by you (default: {value})").format(value=default)
            label.setText(text)
        self.reset_button.setVisible(not shown.is_record)
        self.reset_button.setEnabled(self._editable and bool(shown.overridden))
        self._show_record()

    def _show_record(self) -> None:
        record = self._app.membrane_record(self._node_id) if self._node_id else None
        shown = record is not None
        self.record_title.setVisible(shown)
        self.record_stamps.setVisible(shown)
        for key in RECORD_PARTS:
            self.record_labels[key].setVisible(shown)
            self.record_boxes[key].setVisible(shown)
        if record is None:
            return
        self.record_stamps.setText(
            tr("Created {created} · updated {updated} · confidence {confidence}").format(
                created=record.get("created_at", "?"),
                updated=record.get("updated_at", "?"),
                confidence=record.get("confidence", "?"),
            )
        )
        for key in RECORD_PARTS:
            box = self.record_boxes[key]
            text = pretty(record[key]) if key in record else tr("(none)")
            if box.toPlainText() != text:
                box.setPlainText(text)

    def set_editable(self, editable: bool) -> None:
        """Writable (a live node of a writable memory) or read-only."""
        self._editable = editable
        self.form.set_editable(editable)
        overridden = self._shown is not None and bool(self._shown.overridden)
        self.reset_button.setEnabled(editable and overridden)

    def follow(self, changes: ChangeSet) -> None:
        """Another write landed: untouched rows follow it, typing stays."""
        node_id = self._node_id
        if node_id is not None and (
            changes.reloaded or membrane_desk.attributes_changed(changes, node_id)
        ):
            self._load(keep_dirty=True)
            self.form.set_editable(self._editable)

    def forget(self) -> None:
        """The store was replaced: writes and refused edits belong to the memory closed."""
        self._in_flight.clear()
        self._parked.clear()

    # -- writes ------------------------------------------------------------------------------------
    def _write(self, name: str, value: Any) -> None:
        """Write one attribute of the node shown, based on what its editor started from."""
        node_id = self._node_id
        if node_id is None or self._app.read_only or name not in self.form.rows:
            return
        row = self.form.row(name)
        baseline = row.editor.baseline
        key = (node_id, name)
        self._in_flight[key] = self._in_flight.get(key, 0) + 1
        row.show_busy(True)
        membrane_desk.set_attributes(
            self._app,
            node_id,
            {name: value},
            expect={name: baseline},
            initiator=self,
            on_done=partial(self._on_saved, node_id, name),
            on_error=partial(self._on_refused, node_id, name, value, baseline),
        )

    def _landed(self, node_id: str, name: str) -> None:
        key = (node_id, name)
        left = self._in_flight.get(key, 0) - 1
        if left > 0:
            self._in_flight[key] = left
        else:
            self._in_flight.pop(key, None)

    def _on_saved(self, node_id: str, name: str, _result: object) -> None:
        self._landed(node_id, name)
        if node_id != self._node_id:
            return  # shown again later, it loads what is stored
        self.form.row(name).show_busy(False)
        self._load(keep_dirty=True, fresh=(name,))
        self.form.set_editable(self._editable)
        self._save_landed(node_id, name, ok=True)

    def _on_refused(
        self, node_id: str, name: str, value: Any, baseline: Any, error: MemgraphError
    ) -> None:
        self._landed(node_id, name)
        if node_id != self._node_id:
            self._parked[(node_id, name)] = _Parked(value, baseline, error)
            self._app.op_failed.emit(error, self)
            return
        row = self.form.row(name)
        row.show_busy(False)
        row.editor.mark_refused(value)
        self._show_refusal(name, error)
        self._save_landed(node_id, name, ok=False)

    def _show_refusal(self, name: str, error: MemgraphError) -> None:
        row = self.form.row(name)
        if error.code == "EDIT_CONFLICT":
            current = (error.details.get("current") or {}).get("fields") or {}
            row.show_conflict(current.get(name))
        else:
            row.show_error(_sentence(error))

    def _keep_mine(self, name: str) -> None:
        """Write the person's value over the stored one the conflict showed."""
        write, mine = self.form.row(name).keep_mine()
        if write:
            self._write(name, mine)

    def _on_input_rejected(self, name: str, message: str) -> None:
        if name in self.form.rows:
            self.form.row(name).show_error(message)

    def reset_to_default(self) -> None:
        """Take back what was set on the node shown (based on the values shown)."""
        shown, node_id = self._shown, self._node_id
        if shown is None or node_id is None or shown.is_record or self._app.read_only:
            return
        names = shown.overridden
        if not names:
            return
        self.reset_status.setVisible(False)
        self.reset_button.setEnabled(False)
        membrane_desk.reset_attributes(
            self._app,
            node_id,
            None,  # all of them: "Reset the Membrane attributes of …"
            expect={name: shown.values[name] for name in names},
            initiator=self,
            on_done=partial(self._on_reset, node_id),
            on_error=partial(self._on_reset_refused, node_id),
        )

    def _on_reset(self, node_id: str, _result: object) -> None:
        if node_id == self._node_id:
            self._load(keep_dirty=True, fresh=membrane_desk.NAMES)
            self.form.set_editable(self._editable)

    def _on_reset_refused(self, node_id: str, error: MemgraphError) -> None:
        if node_id != self._node_id:
            self._app.op_failed.emit(error, self)
            return
        self._load(keep_dirty=True)
        self.reset_status.setStyleSheet("color: #c0392b;")
        self.reset_status.setText(_sentence(error))
        self.reset_status.setVisible(True)

    # -- unsaved edits (HoldsUnsaved) --------------------------------------------------------------
    def has_unsaved_edits(self) -> bool:
        """True while the node shown has typing neither written nor being written, a conflict
        waiting for a choice, or an edit was refused after the person moved on."""
        return bool(self._parked) or self.shown_unsaved()

    def unsaved_summary(self) -> str:
        """What is unsaved: "the Membrane sensitivity of “Eileen”", refused edits too."""
        parts = [self.shown_summary()] if self.shown_unsaved() else []
        for node_id in dict.fromkeys(node_id for node_id, _ in self._parked):
            parts.append(
                tr("a refused Membrane edit of “{title}”").format(title=self._title(node_id))
            )
        return "; ".join(parts)

    def save_unsaved(self, on_saved: Callable[[], None], on_failed: Callable[[], None]) -> bool:
        """Write every unsaved attribute of the node shown (``save_shown``); a refused edit of
        another node is left for the person (``on_failed`` once the shown ones are written)."""
        if not self._parked:
            return self.save_shown(on_saved, on_failed)
        return self.save_shown(on_failed, on_failed)

    def discard_unsaved(self) -> None:
        """Back to the stored values: typing, conflicts and refused edits are dropped."""
        self._parked.clear()
        self.discard_shown()

    @property
    def saving(self) -> bool:
        """True while a "Save" of the node's attributes waits for its writes."""
        return self._pending_save is not None

    def shown_unsaved(self) -> bool:
        """True while the node shown holds unsaved typing or a conflict."""
        return self._node_id is not None and bool(self.form.unsaved_columns())

    def shown_summary(self) -> str:
        """ "the Membrane sensitivity and tags of “Eileen”" ('' when nothing is unsaved)."""
        names = self.form.unsaved_columns() if self._node_id is not None else []
        if not names:
            return ""
        listed = ", ".join(names[:-1]) + (tr(" and ") if len(names) > 1 else "") + names[-1]
        title = self._title(self._node_id or "")
        return tr("the Membrane {names} of “{title}”").format(names=listed, title=title)

    def _title(self, node_id: str) -> str:
        node = self._app.node(node_id)
        return node.title if node is not None and node.title else node_id

    def save_shown(self, on_saved: Callable[[], None], on_failed: Callable[[], None]) -> bool:
        """Write every unsaved attribute of the node shown; ``on_saved`` once all landed,
        ``on_failed`` when one is refused. False, writing nothing, for a conflict waiting for a
        choice or input that is no value (shown under its row)."""
        node_id = self._node_id
        unsaved = self.form.unsaved_columns() if node_id is not None else []
        if node_id is None or not unsaved:
            on_saved()
            return True
        if any(self.form.row(name).conflict.pending for name in unsaved):
            return False
        values = {}
        for name in unsaved:
            try:
                values[name] = self.form.row(name).editor.value()
            except ValueError as exc:
                self.form.row(name).show_error(str(exc))
                return False
        self._pending_save = _Saving(node_id, set(values), on_saved, on_failed)
        for name, value in values.items():
            self._write(name, value)
        return True

    def discard_shown(self) -> None:
        """Drop the typing and conflicts of the node shown."""
        for name in self.form.unsaved_columns():
            self.form.row(name).discard()

    def _save_landed(self, node_id: str, name: str, *, ok: bool) -> None:
        pending = self._pending_save
        if pending is None or pending.node_id != node_id or name not in pending.waiting:
            return
        pending.waiting.discard(name)
        if not ok:
            self._pending_save = None
            pending.on_failed()
        elif not pending.waiting:
            self._pending_save = None
            pending.on_saved()

    def _restore_parked(self, node_id: str) -> None:
        for key in [k for k in self._parked if k[0] == node_id]:
            parked = self._parked.pop(key)
            row = self.form.row(key[1])
            row.editor.restore_draft(parked.baseline, parked.value)
            row.editor.mark_refused(parked.value)
            self._show_refusal(key[1], parked.error)


def _shown_value(name: str, value: Any) -> str:
    if name == "tags":
        return ", ".join(str(t) for t in value) if value else tr("none")
    if name == "scope":
        return value or tr("none")
    if name == "salience":
        return f"{float(value):g}"
    return str(value)


def _sentence(error: MemgraphError) -> str:
    message = error.message.strip() or error.code
    return message[:1].upper() + message[1:]

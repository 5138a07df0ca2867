"""Multi-line field editors: prose (and JSON objects), and lists with one item per row.

Both commit explicitly, since a half-typed paragraph or list must not be written: the Apply
button or Ctrl+Enter (a text area also commits when focus moves elsewhere in the window).
Esc or Revert go back to the stored value. The Apply / Revert buttons show only while the editor
holds unsaved changes, but their room is kept while the field is editable, so they appear and
go (typing, Apply, a conflict) without moving the fields below; they take no focus, so clicking
them never commits twice.
"""

from __future__ import annotations

from typing import Any

from memgraph_gui.views.inspector.editors import FieldEditor, _bare
from memgraph_gui.views.inspector.field_kinds import (
    display_text,
    list_item_text,
    list_value,
    parse_json,
)
from memgraph_gui.views.inspector.style import DeleteKey, dot_icon
from memgraph_gui.views.qt import QtCore, QtGui, QWidget, Signal, tr
from memgraph_gui.views.qt import QtWidgets as W

Qt = QtCore.Qt
_TRIGGERS = (
    W.QAbstractItemView.EditTrigger.DoubleClicked
    | W.QAbstractItemView.EditTrigger.EditKeyPressed
    | W.QAbstractItemView.EditTrigger.SelectedClicked
)
_MEASURED_CHARS = 4000  # enough for MAX_LINES lines at any width
_NO_EDIT = W.QAbstractItemView.EditTrigger.NoEditTriggers
_EDITABLE = (
    Qt.ItemFlag.ItemIsEditable
    | Qt.ItemFlag.ItemIsSelectable
    | Qt.ItemFlag.ItemIsEnabled
    | Qt.ItemFlag.ItemIsDragEnabled
)


COMPACT_BUTTON = "QPushButton { padding: 3px 10px; }"
"""Apply / Revert as wide as their text: the style's 80 px minimum made a list field's bar
286 px, and at 1024×700 the inspector took that from the graph's half."""


class ApplyBar(QWidget):
    """ "[Revert] [Apply]" under an editor with unsaved changes (``lead`` widgets go left)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lead = _bare(W.QHBoxLayout())
        layout = _bare(W.QHBoxLayout(self))
        layout.addLayout(self.lead)
        self.note = W.QLabel()  # "Saving…" while Apply's write is in flight (the bar's room)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setStyleSheet("color: palette(mid);")
        layout.addWidget(self.note)
        layout.addStretch(1)
        self.revert_button = W.QPushButton(tr("Revert"))
        self.revert_button.setToolTip(tr("Back to the stored value (Esc)"))
        self.apply_button = W.QPushButton(tr("Apply"))
        self.apply_button.setToolTip(tr("Save this field (Ctrl+Enter)"))
        for button in (self.revert_button, self.apply_button):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setAutoDefault(False)
            button.setStyleSheet(COMPACT_BUTTON)  # beside a list's controls in a narrow dock
            policy = button.sizePolicy()
            policy.setRetainSizeWhenHidden(True)  # hiding them never moves what is below
            button.setSizePolicy(policy)
            layout.addWidget(button)

    def set_dirty(self, dirty: bool) -> None:
        """Show the buttons only while there is something to apply (their room stays)."""
        self.revert_button.setVisible(dirty)
        self.apply_button.setVisible(dirty)

    def set_note(self, text: str) -> None:
        """A short note beside the buttons ("" for none): it takes none of the form's room."""
        self.note.setText(text)

    def set_reserved(self, reserved: bool) -> None:
        """Keep the bar's room (an editable field) or give it up (a read-only one: nothing to
        apply there, and that does not change while the person clicks)."""
        self.setVisible(reserved or self.lead.count() > 0)


class _PlainText(W.QPlainTextEdit):
    """A plain-text area that asks to commit on Ctrl+Enter / focus out and to revert on Esc."""

    commit_requested = Signal()
    revert_requested = Signal()
    resized = Signal()

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)  # re-wraps the text first
        self.resized.emit()

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.commit_requested.emit()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.revert_requested.emit()
            return
        super().keyPressEvent(event)

    def focusOutEvent(self, event: QtGui.QFocusEvent) -> None:
        super().focusOutEvent(event)
        passing = (Qt.FocusReason.ActiveWindowFocusReason, Qt.FocusReason.PopupFocusReason)
        if event.reason() not in passing:
            self.commit_requested.emit()


class TextAreaEditor(FieldEditor):
    """Multi-line plain text, or a JSON object when ``json_mode`` (parsed on commit)."""

    MIN_LINES, MAX_LINES = 2, 12

    def __init__(self, *, json_mode: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._json = json_mode
        self._probe = QtGui.QTextDocument(self)
        option = QtGui.QTextOption()
        option.setWrapMode(QtGui.QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self._probe.setDefaultTextOption(option)
        self.area = _PlainText()
        self.area.setTabChangesFocus(True)
        self.area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.area.setWordWrapMode(QtGui.QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.bar = ApplyBar()
        layout = _bare(W.QVBoxLayout(self))
        layout.addWidget(self.area)
        layout.addWidget(self.bar)
        self.bar.set_dirty(False)
        self.bar.set_reserved(self._editable)
        self.area.textChanged.connect(self._on_text_changed)
        self.area.commit_requested.connect(self._on_commit_requested)
        self.area.revert_requested.connect(self.revert)
        self.area.resized.connect(self._fit_height)
        self.bar.apply_button.clicked.connect(self._on_commit_requested)
        self.bar.revert_button.clicked.connect(self.revert)
        self.setFocusProxy(self.area)

    def value(self) -> Any:
        text = self.area.toPlainText()
        if not self._json or not text.strip():
            return text
        try:
            return parse_json(text)
        except ValueError as exc:
            raise ValueError(tr("Not valid JSON ({where}).").format(where=exc)) from None

    def apply(self) -> None:
        """Commit now (what Apply and Ctrl+Enter do)."""
        self._try_commit()

    def _raw_text(self) -> Any:
        return self.area.toPlainText()

    def _show(self, value: Any) -> None:
        self.area.setPlainText(display_text(value))
        self._fit_height()

    def _state_changed(self) -> None:
        self.area.setReadOnly(not self.writable)
        self.bar.set_dirty(self.writable and self.is_dirty())
        self.bar.set_reserved(self._editable)  # not ``writable``: a save in flight keeps it

    def _on_text_changed(self) -> None:
        self._fit_height()
        self.bar.set_dirty(self.writable and self.is_dirty())

    def _on_commit_requested(self) -> None:
        self._try_commit()

    def _fit_height(self) -> None:
        """As tall as the wrapped text (measured like the area lays it out, CJK fallback fonts
        included), between ``MIN_LINES`` and ``MAX_LINES`` lines. The text is measured at the
        area's width without a scroll bar, and the bar is shown only when the text is taller
        than ``MAX_LINES``: a bar that came and went with the height (the text a line taller
        in the narrower viewport) made the area resize itself for ever at some widths."""
        area, probe = self.area, self._probe
        probe.setDefaultFont(area.font())
        probe.setDocumentMargin(area.document().documentMargin())
        probe.setPlainText(area.toPlainText()[:_MEASURED_CHARS])
        probe.setTextWidth(max(40, area.width() - 2 * area.frameWidth()))
        line = area.fontMetrics().lineSpacing()
        margin = 2 * area.document().documentMargin()
        low, high = self.MIN_LINES * line + margin, self.MAX_LINES * line + margin
        needed = probe.size().height()
        bar = Qt.ScrollBarPolicy.ScrollBarAsNeeded if needed > high else _NO_BAR
        if area.verticalScrollBarPolicy() != bar:
            area.setVerticalScrollBarPolicy(bar)
        height = min(high, max(low, needed))
        area.setFixedHeight(int(height) + 2 * area.frameWidth() + 1)


_NO_BAR = Qt.ScrollBarPolicy.ScrollBarAlwaysOff


class ListEditor(FieldEditor):
    """A list edited as rows: add, remove, reorder, double-click (or F2) to edit an item."""

    MIN_ROWS = 4  # enough to read a short list and see where the next item goes
    MAX_ROWS = 6

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = W.QListWidget()
        self.list.setEditTriggers(_TRIGGERS)
        self.list.setDragDropMode(W.QAbstractItemView.DragDropMode.InternalMove)
        self.list.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.list.setStyleSheet("QListWidget::item { padding: 1px 3px; }")
        self.bar = ApplyBar()
        self._buttons = self._tool_buttons()
        for button in self._buttons.values():
            self.bar.lead.addWidget(button)
        layout = _bare(W.QVBoxLayout(self))
        layout.addWidget(self.list)
        layout.addWidget(self.bar)
        self.bar.set_dirty(False)
        self._connect()
        self.setFocusProxy(self.list)

    def _tool_buttons(self) -> dict[str, W.QToolButton]:
        tips = {
            "+": tr("Add an item"),
            "−": tr("Remove the selected item"),
            "↑": tr("Move the selected item up"),
            "↓": tr("Move the selected item down"),
        }
        buttons = {}
        for text, tip in tips.items():
            button = W.QToolButton()
            button.setText(text)
            button.setToolTip(tip)
            button.setAutoRaise(True)
            button.setFixedSize(24, 22)
            buttons[text] = button
        return buttons

    def _connect(self) -> None:
        self._buttons["+"].clicked.connect(self._on_add_clicked)
        self._buttons["−"].clicked.connect(self._on_remove_clicked)
        self._delete_key = DeleteKey(self.list)
        self._delete_key.pressed.connect(self._on_remove_clicked)
        self._buttons["↑"].clicked.connect(self._on_up_clicked)
        self._buttons["↓"].clicked.connect(self._on_down_clicked)
        self.list.itemChanged.connect(self._on_items_changed)
        self.list.model().rowsMoved.connect(self._on_items_changed)
        self.bar.apply_button.clicked.connect(self.apply)
        self.bar.revert_button.clicked.connect(self.revert)
        shortcut = QtGui.QShortcut(QtGui.QKeySequence("Ctrl+Return"), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(self.apply)

    # -- public: what the buttons do ---------------------------------------------------------------
    def items(self) -> list[str]:
        """The rows' text, top to bottom."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    def add_item(self, text: str = "", *, edit: bool = False) -> None:
        """Append a row (and start editing it when ``edit``)."""
        item = W.QListWidgetItem(text)
        item.setFlags(_EDITABLE)
        self.list.addItem(item)
        self.list.setCurrentItem(item)
        if edit:
            self.list.editItem(item)
        self._on_items_changed()

    def remove_row(self, row: int) -> None:
        if 0 <= row < self.list.count():
            self.list.takeItem(row)
            self._on_items_changed()

    def move_row(self, row: int, delta: int) -> None:
        target = row + delta
        if 0 <= row < self.list.count() and 0 <= target < self.list.count():
            item = self.list.takeItem(row)
            self.list.insertItem(target, item)
            self.list.setCurrentRow(target)
            self._on_items_changed()

    def apply(self) -> None:
        """Commit the list (finishing an item still being typed first)."""
        if self.list.state() == W.QAbstractItemView.State.EditingState:
            self.list.setFocus()  # the item delegate commits its text on focus change
        self._try_commit()

    # -- FieldEditor -------------------------------------------------------------------------------
    def value(self) -> Any:
        out = []
        for i in range(self.list.count()):
            item = self.list.item(i)
            original = item.data(Qt.ItemDataRole.UserRole)
            keep = original is not None and item.text() == list_item_text(original)
            out.append(original if keep else item.text())
        return list_value(out)

    def _show(self, value: Any) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        items = value if isinstance(value, (list, tuple)) else ([] if value is None else [value])
        for entry in items:
            item = W.QListWidgetItem(list_item_text(entry))
            item.setData(Qt.ItemDataRole.UserRole, None if isinstance(entry, str) else entry)
            item.setFlags(_EDITABLE)
            self.list.addItem(item)
        self.list.blockSignals(False)
        self._fit_height()

    def _state_changed(self) -> None:
        writable = self.writable
        self.list.setEditTriggers(_TRIGGERS if writable else _NO_EDIT)
        self.list.setDragEnabled(writable)
        self.bar.set_dirty(writable and self.is_dirty())
        self.bar.setVisible(self._editable)  # kept while a save is in flight: nothing moves

    def _fit_height(self) -> None:
        rows = min(self.MAX_ROWS, max(self.MIN_ROWS, self.list.count()))
        height = self.list.sizeHintForRow(0) if self.list.count() else self.fontMetrics().height()
        self.list.setFixedHeight(rows * max(height, 18) + 2 * self.list.frameWidth() + 2)

    # -- slots -------------------------------------------------------------------------------------
    def _on_items_changed(self, *_args: object) -> None:
        self._fit_height()
        self.bar.set_dirty(self.writable and self.is_dirty())

    def _on_add_clicked(self) -> None:
        self.add_item("", edit=True)

    def _on_remove_clicked(self) -> None:
        if self.writable:
            self.remove_row(self.list.currentRow())

    def _on_up_clicked(self) -> None:
        self.move_row(self.list.currentRow(), -1)

    def _on_down_clicked(self) -> None:
        self.move_row(self.list.currentRow(), 1)


SYSTEM_TAG_COLOR = "#7a6a2a"


class TagsEditor(ListEditor):
    """A list of tags where some are *protected*: shown marked (a coloured dot, italic, a
    tooltip), never editable, and refused by Remove (``input_rejected`` says why). An entry of
    ``protected`` ending in ``:`` protects every tag that starts with it (``scope:``)."""

    def __init__(self, protected: tuple[str, ...], parent: QWidget | None = None) -> None:
        self.protected = protected
        super().__init__(parent)
        self.list.setToolTip(
            tr("Tags. Marked ones are system tags Nuggets writes itself: they stay.")
        )

    def is_protected(self, tag: str) -> bool:
        """Whether ``tag`` is a system tag here."""
        return any(
            tag.startswith(entry) if entry.endswith(":") else tag == entry
            for entry in self.protected
        )

    def remove_row(self, row: int) -> None:
        item = self.list.item(row) if 0 <= row < self.list.count() else None
        if item is not None and self.is_protected(item.text()):
            self.input_rejected.emit(
                tr("“{tag}” is a system tag: Nuggets keeps it, so it cannot be removed.").format(
                    tag=item.text()
                )
            )
            return
        super().remove_row(row)

    def _show(self, value: Any) -> None:
        super()._show(value)
        self._mark()

    def _on_items_changed(self, *_args: object) -> None:
        self._mark()
        super()._on_items_changed()

    def _mark(self) -> None:
        """Mark the protected rows (and make them read-only) without signalling a change."""
        blocked = self.list.blockSignals(True)
        for index in range(self.list.count()):
            item = self.list.item(index)
            system = self.is_protected(item.text())
            if bool(item.data(_SYSTEM_ROLE)) == system and item.data(_SYSTEM_ROLE) is not None:
                continue
            item.setData(_SYSTEM_ROLE, system)
            font = item.font()
            font.setItalic(system)
            item.setFont(font)
            if system:
                item.setFlags(_EDITABLE & ~Qt.ItemFlag.ItemIsEditable)
                item.setIcon(dot_icon(SYSTEM_TAG_COLOR))
                item.setForeground(QtGui.QBrush(QtGui.QColor(SYSTEM_TAG_COLOR)))
                item.setToolTip(tr("System tag: Nuggets writes it itself; it cannot be removed."))
            else:
                item.setFlags(_EDITABLE)
                item.setIcon(QtGui.QIcon())
                item.setData(Qt.ItemDataRole.ForegroundRole, None)
                item.setToolTip("")
        self.list.blockSignals(blocked)


_SYSTEM_ROLE = Qt.ItemDataRole.UserRole + 1

"""``FilterBar``: the timeline's filter controls (text, type, level, archived, nugget, seq range).

Emits ``filter_changed(TimelineFilter)``; text typing is debounced so 50k rows are filtered once
per pause, not per keystroke.
"""

from __future__ import annotations

from memgraph_gui.views.nugget_combo import NuggetCombo
from memgraph_gui.views.qt import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    Qt,
    QtGui,
    QTimer,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
    tr,
    tr_n,
)
from memgraph_gui.views.timeline.filters import Archived, TimelineFilter
from memgraph_gui.views.timeline.seq_slider import SeqRangeSlider

_ARCHIVED: tuple[tuple[Archived, str], ...] = (
    ("all", "Active and archived"),
    ("active", "Active only"),
    ("archived", "Archived only"),
)


class StayOpenMenu(QMenu):
    """A menu of check boxes that stays open while several are ticked (a plain ``QMenu`` closes
    on every click). Enter, Return and Space tick the highlighted entry too."""

    def mouseReleaseEvent(self, event: QtGui.QMouseEvent) -> None:
        action = self.actionAt(event.position().toPoint())
        if action is not None and action.isCheckable() and action.isEnabled():
            action.trigger()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        action = self.activeAction()
        keys = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
        if action is not None and action.isCheckable() and event.key() in keys:
            action.trigger()
            return
        super().keyPressEvent(event)


class FilterBar(QWidget):
    """Filter controls over the timeline. ``set_choices`` fills the type/level lists."""

    filter_changed = Signal(object)  # TimelineFilter

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QLineEdit()
        self.text.setPlaceholderText(tr("Filter by text (id, title, fields)…"))
        self.text.setClearButtonEnabled(True)
        self.types = QToolButton()
        self.types.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.types.setMenu(StayOpenMenu(self.types))
        self.level = QComboBox()
        self.archived = QComboBox()
        for combo in (self.level, self.archived):  # narrow docks elide them, never clip them
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(8)
        for key, label in _ARCHIVED:
            self.archived.addItem(tr(label), key)
        self.nugget = NuggetCombo()  # shown when the store holds Nuggets notes
        self.seq = SeqRangeSlider()
        self._debounce = QTimer(self, singleShot=True, interval=180)
        self._debounce.timeout.connect(self._emit)
        self._layout()
        self.text.textChanged.connect(self._debounce.start)
        self.level.currentIndexChanged.connect(self._emit)
        self.archived.currentIndexChanged.connect(self._emit)
        self.nugget.chosen.connect(self._emit)
        self.seq.range_changed.connect(self._emit)
        self._set_types_text()

    def _layout(self) -> None:
        choices = QHBoxLayout()
        choices.setContentsMargins(0, 0, 0, 0)
        for widget in (self.types, self.level):
            choices.addWidget(widget, 1)
        column = QVBoxLayout(self)
        column.setContentsMargins(4, 4, 4, 2)
        column.setSpacing(3)
        column.addWidget(self.text)
        column.addLayout(choices)  # two rows, so a narrow dock shows every label whole
        states = QHBoxLayout()
        states.setContentsMargins(0, 0, 0, 0)
        states.addWidget(self.archived, 1)
        states.addWidget(self.nugget, 1)
        column.addLayout(states)
        bottom = QHBoxLayout()
        bottom.addWidget(QLabel(tr("Seq")))
        bottom.addWidget(self.seq, 1)
        column.addLayout(bottom)

    def set_choices(
        self,
        types: list[str],
        levels: list[str],
        seq_range: tuple[int, int],
        nuggets: list[str] | None = None,
    ) -> None:
        """Offer these types, levels, seq bounds and nuggets (keeps what the user picked where
        possible; a picked nugget that is gone falls back to all, with one ``filter_changed``)."""
        menu = self.types.menu()
        checked = {a.text() for a in menu.actions() if not a.isChecked()}
        menu.clear()
        for type_id in types:
            action = menu.addAction(type_id)
            action.setCheckable(True)
            action.setChecked(type_id not in checked)
            action.toggled.connect(self._on_type_toggled)
        current = self.level.currentData()
        self.level.blockSignals(True)
        self.level.clear()
        self.level.addItem(tr("All levels"), None)
        for level in levels:
            self.level.addItem(level, level)
        self.level.setCurrentIndex(max(0, self.level.findData(current)))
        self.level.blockSignals(False)
        self.seq.set_bounds(*seq_range)
        self._set_types_text()
        self.nugget.set_nuggets(nuggets or [])

    def current(self) -> TimelineFilter:
        """The filter the controls show."""
        actions = self.types.menu().actions()
        shown = frozenset(a.text() for a in actions if a.isChecked())
        types = None if len(shown) == len(actions) else shown
        level = self.level.currentData()
        low, high = self.seq.chosen()
        return TimelineFilter(
            types=types,
            levels=frozenset({level}) if level else None,
            archived=self.archived.currentData() or "all",
            text=self.text.text().strip(),
            seq_min=low,
            seq_max=high,
            nugget=self.nugget.current(),
        )

    def _on_type_toggled(self, _checked: bool) -> None:
        self._set_types_text()
        self._emit()

    def _set_types_text(self) -> None:
        actions = self.types.menu().actions()
        shown = sum(a.isChecked() for a in actions)
        if shown == len(actions):
            self.types.setText(tr("All types"))
        else:
            self.types.setText(tr_n("{shown} of %n type(s)", len(actions)).format(shown=shown))

    def clear(self) -> None:
        """Show every node again: no text, every type, all levels, archived too, every nugget,
        the whole seq range (one ``filter_changed``)."""
        quiet = (
            *(self.text, self.level, self.archived, self.nugget, self.seq),
            *self.types.menu().actions(),
        )
        for widget in quiet:
            widget.blockSignals(True)
        self.text.clear()
        for action in self.types.menu().actions():
            action.setChecked(True)
        self.level.setCurrentIndex(0)
        self.archived.setCurrentIndex(0)
        self.nugget.choose(None)
        self.seq.reset()
        for widget in quiet:
            widget.blockSignals(False)
        self._set_types_text()
        self._emit()

    def _emit(self) -> None:
        self._debounce.stop()
        self.filter_changed.emit(self.current())

"""``SeqRangeSlider``: a two-handled slider over the store's seq range, with its values shown."""

from __future__ import annotations

from memgraph_gui.views.qt import QHBoxLayout, QLabel, QRangeSlider, Qt, QTimer, QWidget, Signal


class SeqRangeSlider(QWidget):
    """Pick ``[low, high]`` within the bounds; ``chosen()`` gives None for an untouched end."""

    range_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._slider = QRangeSlider(Qt.Orientation.Horizontal)  # type: ignore[no-untyped-call]
        self._label = QLabel()
        self._label.setMinimumWidth(90)
        self._label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self._bounds = (0, 0)
        self._settle = QTimer(self, singleShot=True, interval=120)
        self._settle.timeout.connect(self.range_changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._slider, 1)
        layout.addWidget(self._label)
        self._slider.valueChanged.connect(self._on_value_changed)
        self.set_bounds(0, 0)

    def set_bounds(self, low: int, high: int) -> None:
        """New bounds; a range the user had narrowed is kept inside them."""
        was_low, was_high = self.chosen()
        self._bounds = (low, max(low, high))
        self._slider.blockSignals(True)
        self._slider.setRange(*self._bounds)
        start = low if was_low is None else max(low, min(was_low, high))
        end = high if was_high is None else max(start, min(was_high, high))
        self._slider.setValue((start, end))
        self._slider.blockSignals(False)
        self._show()

    def chosen(self) -> tuple[int | None, int | None]:
        """The picked range; an end left at its bound is None (no limit)."""
        low, high = _ends(self._slider.value())
        return (
            None if low <= self._bounds[0] else low,
            None if high >= self._bounds[1] else high,
        )

    def set_chosen(self, low: int, high: int) -> None:
        """Move the handles (as a user would)."""
        self._slider.setValue((low, high))

    def reset(self) -> None:
        """Back to the whole range (no limit at either end); no ``range_changed``."""
        self._settle.stop()
        self._slider.blockSignals(True)
        self._slider.setValue(self._bounds)
        self._slider.blockSignals(False)
        self._show()

    def _on_value_changed(self, _value: object) -> None:
        self._show()
        self._settle.start()

    def _show(self) -> None:
        low, high = _ends(self._slider.value())
        self._label.setText(f"{low:,} – {high:,}")


def _ends(value: object) -> tuple[int, int]:
    pair = tuple(value) if isinstance(value, (tuple, list)) else (0, 0)
    return int(pair[0]), int(pair[-1])

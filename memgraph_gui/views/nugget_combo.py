"""``NuggetCombo``: the nugget facet of a Nuggets memory ("All nuggets", or one nugget's notes),
shared by the timeline's filter bar and the graph."""

from __future__ import annotations

from collections.abc import Sequence

from memgraph_gui.views.qt import QComboBox, QWidget, Signal, tr


class NuggetCombo(QComboBox):
    """Pick a nugget: ``None`` (every node, the default) or a nugget's name (only its notes).

    Hidden while the store has no notes, so a Luker memory shows no empty control.
    ``chosen(name | None)`` is emitted when the person picks, and when ``set_nuggets`` drops
    the picked nugget (it left the store): the combo is back on "All nuggets" then.
    """

    chosen = Signal(object)  # str | None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("nugget-filter")
        self.setToolTip(tr("Show only the notes of one Nuggets nugget"))
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(8)
        self.addItem(tr("All nuggets"), None)
        self.setVisible(False)
        self.currentIndexChanged.connect(self._on_index_changed)

    def nuggets(self) -> list[str]:
        """The names offered, in order."""
        return [self.itemData(i) for i in range(1, self.count())]

    def current(self) -> str | None:
        """The nugget picked, or None for all."""
        data = self.currentData()
        return data if isinstance(data, str) else None

    def set_nuggets(self, names: Sequence[str]) -> None:
        """Offer ``names`` (the store's nuggets): the pick stays when its nugget still exists."""
        names = list(names)
        if names == self.nuggets():
            self.setVisible(bool(names))
            return
        picked = self.current()
        self.blockSignals(True)
        while self.count() > 1:
            self.removeItem(1)
        for name in names:
            self.addItem(name or tr("(no nugget)"), name)
        self.setCurrentIndex(max(0, self.findData(picked)) if picked is not None else 0)
        self.blockSignals(False)
        self.setVisible(bool(names))
        if picked is not None and self.current() != picked:
            self.chosen.emit(None)

    def choose(self, name: str | None) -> None:
        """Pick ``name`` (None: all) as the person would."""
        self.setCurrentIndex(max(0, self.findData(name)) if name is not None else 0)

    def _on_index_changed(self, _index: int) -> None:
        self.chosen.emit(self.current())

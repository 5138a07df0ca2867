"""``Selection``: the node ids selected across every pane (napari's ``Selection``: a set plus one
current id). Lives in the AppModel; views select through it and listen to ``changed``."""

from __future__ import annotations

from collections.abc import Iterable

from memgraph_gui.app.qt import QObject, Signal


class Selection(QObject):
    """Selected node ids and the current one. GUI thread only.

    ``changed(ids, current, source)`` fires once per real change; ``source`` is whoever selected
    (a view ignores its own echo).
    """

    changed = Signal(object, object, object)  # frozenset[str], str | None, source | None

    def __init__(self) -> None:
        super().__init__()
        self._ids: frozenset[str] = frozenset()
        self._current: str | None = None

    @property
    def ids(self) -> frozenset[str]:
        return self._ids

    @property
    def current(self) -> str | None:
        """The node the inspector shows (the last one clicked), or None."""
        return self._current

    def select(
        self, ids: Iterable[str], *, current: str | None = None, source: object | None = None
    ) -> None:
        """Replace the selection; ``current`` defaults to one of ``ids`` (the first given)."""
        chosen = list(dict.fromkeys(ids))
        new_ids = frozenset(chosen)
        new_current = current if current is not None else (chosen[0] if chosen else None)
        if new_current is not None and new_current not in new_ids:
            new_ids = new_ids | {new_current}
        if new_ids == self._ids and new_current == self._current:
            return
        self._ids, self._current = new_ids, new_current
        self.changed.emit(new_ids, new_current, source)

    def clear(self, *, source: object | None = None) -> None:
        self.select((), source=source)

    def forget(self, removed: Iterable[str]) -> None:
        """Drop ids that no longer exist (after a commit removed them)."""
        gone = self._ids.intersection(removed)
        if gone:
            keep = [i for i in self._ids if i not in gone]
            current = self._current if self._current not in gone else None
            self.select(sorted(keep), current=current)

"""``SnapshotLoader``: the graph view's full reload read and built off the GUI thread.

After an import or a ``replace_all`` the view draws a new graph of up to 50k nodes; reading its
snapshot under the store lock (~0.5 s at 50k in a window) and building the arrays of its picture
(~0.1 s) on the GUI thread froze the window that long. Here both run on a plain thread and the
result is handed to the GUI thread, which only shows it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memgraph_gui.app.graph_data import GraphSnapshot, store_snapshot
from memgraph_gui.app.process_tuning import bulk_work
from memgraph_gui.app.qt import QObject, Qt, Signal

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel


class SnapshotLoader(QObject):
    """``load(build, on_done)``: on a plain thread, ``build(store_snapshot(store))`` of the
    app's current store; then ``on_done(result)`` on the GUI thread, or ``on_error(exc)`` when
    the read or ``build`` raised.

    The last load wins: a result arrives only if no ``load`` or ``cancel`` came after its own,
    the app is open and its store is still the one read (another memory opened since: dropped).
    """

    _loaded = Signal(object)

    def __init__(self, app: AppModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._ticket = 0
        self._in_flight = False
        self._loaded.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    @property
    def in_flight(self) -> bool:
        """True from a ``load`` until its result is delivered or dropped."""
        return self._in_flight

    def load(
        self,
        build: Callable[[GraphSnapshot], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[Exception], None],
    ) -> None:
        """Start reading; returns at once (GUI thread)."""
        self._ticket += 1
        self._in_flight = True
        ticket, store = self._ticket, self._app.store

        def work() -> None:
            result: Any
            try:
                with bulk_work():  # ~10^5 objects: no collections of them on the way
                    result = build(store_snapshot(store))
            except Exception as exc:  # e.g. the store closed meanwhile; the caller decides
                result = exc
            self._loaded.emit((ticket, store, on_done, on_error, result))

        threading.Thread(target=work, name="memgraph-graph-snapshot", daemon=True).start()

    def cancel(self) -> None:
        """Drop the load in flight, if any (GUI thread)."""
        self._ticket += 1
        self._in_flight = False

    def _deliver(
        self, item: tuple[int, Any, Callable[..., None], Callable[..., None], Any]
    ) -> None:
        ticket, store, on_done, on_error, result = item
        if ticket != self._ticket:
            return  # superseded
        self._in_flight = False
        if self._app.closed or self._app.store is not store:
            return
        if isinstance(result, Exception):
            on_error(result)
        else:
            on_done(result)

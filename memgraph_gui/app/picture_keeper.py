"""``PictureKeeper``: keeps the picture stored beside the layout current while a window is open,
so the next open of a big memory draws it from one read (``MemoryStore.refresh_picture``).

After an open, and after a change the window sees (its own, an undo, another process's, a
layout saved here or elsewhere: any write its single writer ran), it waits ``QUIET_MS``; then,
if the kept picture is stale, it makes a new one on a plain thread (read-only, a slice at a
time: ~0.5 s at 200k nodes) and writes it on the single writer (one transaction, ~0.1 s; not an
undo step, no ChangeSet). A change during the wait does not restart it, so an agent writing
every few seconds cannot hold it off; the injection state such an agent writes does not make
the picture stale. A picture made of content that changed before it was written is not written
(the next round makes it again). Its result lands only on the store it was made for, while
that store is still open.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any, Protocol

from memgraph_gui.app.op_runners import StoreOpRunner
from memgraph_gui.app.qt import QObject, Qt, QTimer, Signal, SignalInstance

if TYPE_CHECKING:
    from memgraph_gui.core.domain.errors import MemgraphError
    from memgraph_gui.core.memory import MemoryStore

log = logging.getLogger(__name__)
QUIET_MS = 10_000
"""How long after an open or a change the kept picture is looked at."""


class PictureHost(StoreOpRunner, Protocol):
    """The AppModel as the keeper uses it."""

    store_replaced: SignalInstance
    store_replacing: SignalInstance
    changes_applied: SignalInstance
    busy_changed: SignalInstance
    closing: SignalInstance

    @property
    def store(self) -> MemoryStore: ...

    @property
    def closed(self) -> bool: ...


class PictureKeeper(QObject):
    """Keeps ``app``'s store's picture current (GUI thread API). ``written`` tells when a
    picture was written or dropped (tests, diagnostics)."""

    written = Signal()
    _made = Signal(object)

    def __init__(self, app: PictureHost, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self.quiet_ms = QUIET_MS  # (tests shorten it)
        self._timer.timeout.connect(self._look)
        self._looking = False  # a thread is making a picture
        self._again = False  # ... and something changed meanwhile: look again after it
        self._made.connect(self._write, Qt.ConnectionType.QueuedConnection)
        app.store_replaced.connect(self._soon)
        app.changes_applied.connect(self._soon)
        app.busy_changed.connect(self._writer_busy)  # (a layout saved here: no ChangeSet)
        app.store_replacing.connect(self._timer.stop)
        app.closing.connect(self._timer.stop)

    def _writer_busy(self, busy: bool) -> None:
        if not busy:
            self._soon()

    def _soon(self, *_args: Any) -> None:
        """Look ``QUIET_MS`` from the first change since the last look."""
        if self._looking:
            self._again = True
        elif not self._timer.isActive():
            self._timer.start(self.quiet_ms)

    def _look(self) -> None:
        app = self._app
        store = app.store
        if app.closed or store.closed or store.read_only or store.path == ":memory:":
            return
        self._looking, self._again = True, False

        def work() -> None:
            try:
                kept: Any = store.stale_picture()
            except Exception as exc:  # e.g. the store closed meanwhile
                kept = exc
            self._made.emit((store, kept))

        threading.Thread(target=work, name="memgraph-picture", daemon=True).start()

    def _write(self, item: tuple[MemoryStore, Any]) -> None:
        store, kept = item
        self._looking = False
        app = self._app
        if app.closed or app.store is not store:
            return  # made for a store left meanwhile: dropped
        if self._again:
            self._soon()
        if isinstance(kept, Exception):
            log.debug("memgraph: making the kept picture failed", exc_info=kept)
            return
        if kept is None:
            return  # current, or nothing to keep

        def written(result: Any) -> None:
            if result:
                self.written.emit()

        def refused(error: MemgraphError) -> None:  # busy, read-only meanwhile: next round
            log.info("memgraph: the kept picture was not written: %s", error)

        app.run_store_op(
            lambda s: s.keep_picture(kept) if s is store else False,
            on_done=written,
            on_error=refused,
        )

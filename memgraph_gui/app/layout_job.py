"""``LayoutJob``: the force layout on a worker thread, streaming frames to the GUI thread.

The job takes its input snapshot (``store.layout_input()``) under the store lock on the GUI
thread, then runs ``stream_layout`` on a plain thread that never touches the store. Frames are
handed over "latest wins": the worker keeps only the newest frame and pokes the GUI thread once
until it has taken it, so a slow GUI never queues stale pictures. The last frame is saved on the
single writer (not an undo step). A new run, ``cancel()`` or a replaced store stops the old
run, whose leftovers are dropped by generation.

Hand-off: after offering a frame the worker waits until the GUI thread has drawn it (at most
``HANDOFF_WAIT``; the first picture ``FIRST_FRAME_WAIT``), so the frame's handling and paint
have the GIL and a core to themselves. Measured at 200k on 2 cores with other processes busy
(load ~2.5; ``tests/benchmarks/bench_graph_view.py``'s streamed re-layout, the same run): a
frame took 21.6 ms (median, p95 30.7 ms) of wall time for 11.4 ms of the GUI thread's CPU, the
rest spent runnable without a core while the worker computed; with the hand-off 10.8 ms (p95
15.2 ms), while the layout ran 8.1 s instead of 7.8 s to the same 45 steps and quality.

A run given an ``OverviewSeed`` (a memory whose rows mostly have no position) first lays out the
overview the view shows at fit zoom and hands that picture over (stage ``"overview"``, the view's
rows), then reads the store and refines every row from it (``app.overview_layout``).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from memgraph_gui.app.graph_data import save_positions
from memgraph_gui.app.overview_layout import OverviewSeed, lay_out_overview, overview_start
from memgraph_gui.app.process_tuning import share_gil, tuned
from memgraph_gui.app.qt import QObject, Qt, QTimer, Signal, tr

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core.layout import LayoutInput

log = logging.getLogger(__name__)
MIN_FRAME_GAP = 0.1  # seconds between frames handed to the GUI


@dataclass(frozen=True, slots=True)
class LayoutUpdate:
    """One frame for the view: the laid-out ids and their positions (row = id). ``stage`` is
    ``"overview"`` (the overview laid out, its members placed), ``"start"``, ``"refine"`` or
    ``"done"``."""

    ids: tuple[str, ...]
    pos: np.ndarray
    stage: str
    iteration: int
    done: bool


class LayoutJob(QObject):
    """Runs one layout at a time for ``app``'s store. GUI thread API.

    Signals: ``frame_ready(LayoutUpdate)`` (throttled, latest wins); ``progress_changed(str)``
    for the status bar (empty when idle); ``finished(bool)`` (True when it ran to the end and
    saved, False when cancelled or failed); ``saved()`` once the positions are in the store.
    """

    frame_ready = Signal(object)
    progress_changed = Signal(str)
    finished = Signal(bool)
    saved = Signal()
    _poked = Signal(int)
    _ended = Signal(int, object)

    def __init__(self, app: AppModel, *, seconds: float = 6.0, parent: QObject | None = None):
        super().__init__(parent)
        self._app = app
        self.seconds = seconds
        self._generation = 0
        self._stop = threading.Event()
        self._drawn = threading.Event()  # set: the GUI has drawn the frame handed over
        self._lock = threading.Lock()
        self._reading = threading.Lock()  # held by a worker while it reads the store
        self._latest: LayoutUpdate | None = None
        self._held_back = False  # the GUI holds frames back until ``MIN_FRAME_GAP`` has passed
        self._ids: tuple[str, ...] = ()
        self._shown: LayoutUpdate | None = None
        self._thread: threading.Thread | None = None
        self._stopping: list[threading.Thread] = []  # cancelled runs still finishing a step
        self._last_emit = 0.0
        self._throttle = QTimer(self)
        self._throttle.setSingleShot(True)
        self._throttle.timeout.connect(self._on_throttle_due)
        self._poked.connect(self._on_poked, Qt.ConnectionType.QueuedConnection)
        self._ended.connect(self._on_ended, Qt.ConnectionType.QueuedConnection)
        app.store_replacing.connect(self._on_store_leaving)
        app.store_replaced.connect(self.cancel)
        app.closing.connect(self.shutdown)

    @property
    def running(self) -> bool:
        """True while a run is under way (until its end reached the GUI thread)."""
        return self._thread is not None

    def start(self, *, full: bool = False, overview: OverviewSeed | None = None) -> None:
        """Cancel any run and start a new one from the store's current state: incremental from
        the saved positions (new nodes placed, known ones kept), or ``full`` from scratch (pins
        kept). With ``overview``, its cut is laid out first (a frame of stage ``"overview"``
        for ``overview.ids``, within ~0.5 s at 50k), then every row is refined from it."""
        self.cancel()
        with self._lock:
            self._generation += 1
            self._latest = None
            self._held_back = False
        self._ids = ()
        self._shown = None
        stop = self._stop = threading.Event()
        drawn = self._drawn = threading.Event()
        generation = self._generation
        self._thread = threading.Thread(
            target=self._work,
            args=(self._app.store, full, overview, generation, stop, drawn),
            name="memgraph-layout",
            daemon=True,
        )
        self.progress_changed.emit(tr("Laying out the graph…"))
        _share_the_gil(True)
        self._thread.start()

    def cancel(self) -> None:
        """Stop the running layout (if any); its remaining frames are dropped. Never blocks."""
        if self._thread is None:
            return
        self._stop.set()
        self._drawn.set()  # a worker waiting for a frame to be drawn goes on (and stops)
        self._throttle.stop()
        self._stopping.append(self._thread)
        self._thread = None
        _share_the_gil(False)
        with self._lock:  # a frame offered from now on by the old run is dropped
            self._generation += 1
            self._latest = None
            self._held_back = False
        self.progress_changed.emit("")
        self.finished.emit(False)

    def _on_store_leaving(self) -> None:
        """The store is about to be closed: stop the run, and let a read of it under way end
        first (the worker reads it after an overview's layout, ~0.3 s at 50k; a read
        connection closed under it crashed the process). Blocks at most that long."""
        self.cancel()
        with self._reading:
            pass

    def shutdown(self, timeout: float = 10.0) -> None:
        """Cancel and join every worker (window closing, store closing): no thread may outlive
        the Qt objects it reports to."""
        self.cancel()
        for thread in self._stopping:
            thread.join(timeout)
        self._stopping = [t for t in self._stopping if t.is_alive()]

    def wait(self, timeout: float = 10.0) -> None:
        """Join the worker thread (shutdown and tests)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    # -- worker thread -----------------------------------------------------------------------------
    def _work(self, *args: Any) -> None:
        if not tuned():  # BLAS threads are the entry point's to limit
            self._stream(*args)
            return
        from threadpoolctl import threadpool_limits

        # one BLAS thread: on a 2-core machine the other core stays free for the GUI thread
        with threadpool_limits(limits=1, user_api="blas"):
            self._stream(*args)

    def _stream(
        self,
        store: Any,
        full: bool,
        overview: OverviewSeed | None,
        generation: int,
        stop: threading.Event,
        drawn: threading.Event,
    ) -> None:
        error: BaseException | None = None
        try:
            first = None
            if overview is not None:  # the overview's picture first, then every row from it
                first = lay_out_overview(overview, should_stop=stop.is_set)
                if not stop.is_set():  # the first picture, the costliest to draw
                    update = LayoutUpdate(overview.ids, first, "overview", 0, False)
                    self._hand_over(update, generation, drawn, FIRST_FRAME_WAIT)
            inp = self._read(store, full, stop)
            if inp is not None:
                if overview is not None and first is not None:
                    inp = _from_overview(inp, overview.ids, first)
                self._run(inp, first is not None, generation, stop, drawn)
        except Exception as exc:  # reported on the GUI thread
            error = exc
        self._emit_safely(self._ended, generation, error)

    def _read(self, store: Any, full: bool, stop: threading.Event) -> LayoutInput | None:
        """The store's layout input, or None once the run is stopped (never read then: the
        store may be closing). The snapshot takes the store lock itself (~0.3 s at 50k: not
        on the GUI thread)."""
        with self._reading:
            if stop.is_set():
                return None
            inp: LayoutInput = store.layout_input(include_positions=not full)
            return inp

    def _run(
        self,
        inp: LayoutInput,
        from_start: bool,
        generation: int,
        stop: threading.Event,
        drawn: threading.Event,
    ) -> None:
        """Stream ``inp``'s layout to the GUI (``from_start``: refined from ``inp.start``, whose
        picture the GUI has already: its first frame is not handed over)."""
        from memgraph_gui.core.layout import stream_layout

        ids = tuple(inp.ids)
        frames = stream_layout(
            inp, seconds=self.seconds, should_stop=stop.is_set, refine_start=from_start
        )
        for frame in frames:
            if stop.is_set():
                break
            if from_start and frame.stage == "start":
                continue
            done = frame.stage == "done"
            update = LayoutUpdate(ids, frame.pos, frame.stage, frame.iteration, done)
            wait = FIRST_FRAME_WAIT if frame.stage == "start" else HANDOFF_WAIT
            self._hand_over(update, generation, drawn, wait)

    @staticmethod
    def _emit_safely(signal: Any, *args: Any) -> None:
        """Emit from the worker; the job may have been destroyed meanwhile (window closed)."""
        try:
            signal.emit(*args)
        except RuntimeError:  # "Signal source has been deleted": nobody is left to tell
            pass

    def _hand_over(
        self, update: LayoutUpdate, generation: int, drawn: threading.Event, wait: float
    ) -> None:
        """Offer ``update``, then (unless it is the last) wait until the GUI thread has drawn
        it, at most ``wait`` seconds: its frame then has the GIL to itself. Returns at once
        when the run was cancelled (``cancel`` sets ``drawn``) or the GUI holds frames back
        now (throttled); a GUI that is gone or stuck costs ``wait`` per frame, never more."""
        drawn.clear()
        if self._offer(update, generation) and not update.done:
            drawn.wait(wait)

    def _offer(self, update: LayoutUpdate, generation: int) -> bool:
        """Make ``update`` the latest frame (poking the GUI unless a poke is pending); True
        when the GUI is to draw it soon, False when its run was cancelled (dropped) or the GUI
        holds frames back."""
        with self._lock:
            if generation != self._generation:
                return False  # cancelled after its stop check: never the next run's frame
            first = self._latest is None
            self._latest = update
            held_back = self._held_back
        if first:
            self._emit_safely(self._poked, generation)
        return not held_back

    # -- GUI thread --------------------------------------------------------------------------------
    def _take(self) -> LayoutUpdate | None:
        with self._lock:
            update, self._latest = self._latest, None
            self._held_back = False
        return update

    def _on_poked(self, generation: int) -> None:
        if generation != self._generation:
            return
        wait = self._last_emit + MIN_FRAME_GAP - time.monotonic()
        if wait > 0:  # leave the GUI idle frames between layout frames; the latest still wins
            with self._lock:
                self._held_back = True
            self._drawn.set()  # not drawn now: the worker goes on meanwhile
            self._throttle.start(int(wait * 1000) + 1)
            return
        update = self._take()
        if update is not None:
            self._last_emit = time.monotonic()
            self._shown, self._ids = update, update.ids
            self.progress_changed.emit(self._progress_text(update.stage, update.iteration))
            self.frame_ready.emit(update)
        # a 0 ms timer fires after the paint the frame asked for (posted events go first)
        QTimer.singleShot(0, self._drawn.set)

    def _on_throttle_due(self) -> None:
        self._on_poked(self._generation)

    def _on_ended(self, generation: int, error: object) -> None:
        if generation != self._generation:
            return
        _share_the_gil(False)
        self._throttle.stop()
        last = self._take() or self._shown
        self._thread = None
        self.progress_changed.emit("")
        if error is not None:
            log.error("memgraph: the layout failed", exc_info=error)  # type: ignore[arg-type]
            self.finished.emit(False)
            return
        if last is not None:
            if not (last is self._shown and last.done):  # the view has not seen the end yet
                last = LayoutUpdate(last.ids, last.pos, "done", last.iteration, True)
                self.frame_ready.emit(last)
            save_positions(self._app, last.ids, last.pos, on_done=self._on_saved)
        self.finished.emit(True)

    def _on_saved(self, _result: object) -> None:
        self.saved.emit()

    def _progress_text(self, stage: str, iteration: int) -> str:
        if stage in ("start", "overview"):
            return tr("Laying out {n} nodes…").format(n=len(self._ids))
        return tr("Refining the layout ({n} nodes, step {i})…").format(
            n=len(self._ids), i=iteration
        )


def _from_overview(inp: LayoutInput, ids: tuple[str, ...], pos: np.ndarray) -> LayoutInput:
    """``inp`` (the store's rows) starting where the overview put ``ids``; pins as stored."""
    from memgraph_gui.core.layout import LayoutInput

    start = overview_start(ids, tuple(inp.ids), pos)
    pinned = np.zeros(len(inp.ids), bool) if inp.pinned is None else np.asarray(inp.pinned)
    if inp.start is not None:
        start[pinned] = np.asarray(inp.start)[pinned]
    return LayoutInput(inp.ids, inp.edges, start, pinned, inp.weights)


FIRST_FRAME_WAIT = 0.3  # seconds the worker waits for the first picture to be drawn
HANDOFF_WAIT = 0.1  # seconds the worker waits at most for any later frame to be drawn
_LAYOUT = object()  # the layout runs' claim on the short switch interval


def _share_the_gil(layout_running: bool) -> None:
    """While the worker computes, hand the GIL back to the GUI thread within 1 ms instead of
    Python's default 5 ms: a frame's many short Qt calls each wait for it (measured: the p95
    frame while a 50k layout streams). Only when the entry point opted in; an import running
    meanwhile keeps it short after the layout ends (``process_tuning.share_gil``)."""
    share_gil(_LAYOUT, layout_running)

"""LayoutJob: frames stream to the GUI thread, the last one is saved (not an undo step),
cancel stops a run and drops its frames, a replaced store cancels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest


@pytest.fixture
def app(demo_app: Any) -> Any:
    return demo_app


def test_frames_arrive_and_the_last_one_is_saved(app: Any, qtbot: Any) -> None:
    from memgraph_gui.app.layout_job import LayoutJob

    job = LayoutJob(app, seconds=3.0)
    frames: list[Any] = []
    progress: list[str] = []
    job.frame_ready.connect(frames.append)
    job.progress_changed.connect(progress.append)
    depth = app.undo.in_sync_with
    assert app.store.positions() == {}
    with qtbot.waitSignal(job.saved, timeout=20000):
        job.start()
    assert frames[0].stage == "start" and frames[-1].done
    assert len({f.stage for f in frames}) >= 2
    saved = app.store.positions()
    last = frames[-1]
    assert len(saved) == len(last.ids)
    assert np.allclose([saved[i] for i in last.ids], last.pos)
    assert app.undo.in_sync_with == depth  # not an undo step
    assert progress[0] and progress[-1] == "" and not job.running


def test_cancel_stops_the_run_and_drops_its_frames(app: Any, qtbot: Any) -> None:
    from memgraph_gui.app.layout_job import LayoutJob

    job = LayoutJob(app, seconds=30.0)
    frames: list[Any] = []
    with qtbot.waitSignal(job.frame_ready, timeout=20000):
        job.start()
    job.frame_ready.connect(frames.append)
    thread = job._thread
    with qtbot.waitSignal(job.finished, timeout=2000) as blocker:
        job.cancel()
    assert blocker.args == [False] and not job.running
    thread.join(10)
    assert not thread.is_alive()
    qtbot.wait(100)
    assert frames == []
    app.runner.wait_idle()
    assert app.store.positions() == {}


def test_replacing_the_store_cancels_the_run(app: Any, qtbot: Any, tmp_path: Path) -> None:
    from memgraph_gui.app.layout_job import LayoutJob
    from memgraph_gui.core import MemoryStore

    job = LayoutJob(app, seconds=30.0)
    with qtbot.waitSignal(job.frame_ready, timeout=20000):
        job.start()
    with qtbot.waitSignal(job.finished, timeout=5000) as blocker:
        app.replace_store(MemoryStore.open(tmp_path / "other.memgraph"))
    assert blocker.args == [False] and not job.running


def test_the_store_is_never_closed_under_the_layouts_read(
    app: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A switch of memory while the worker reads the store (at the start of a run, or after
    an overview's layout) waits for that read: a read connection closed under it crashed the
    process."""
    import threading
    import time

    from memgraph_gui.app.layout_job import LayoutJob
    from memgraph_gui.core import MemoryStore

    job = LayoutJob(app, seconds=30.0)
    store, real = app.store, app.store.layout_input
    inside, open_when_read = threading.Event(), []

    def slow_read(**kwargs: Any) -> Any:
        inside.set()
        time.sleep(0.3)  # the switch comes meanwhile
        open_when_read.append(not store.closed)
        if store.closed:
            raise RuntimeError("read a closed store")
        return real(**kwargs)

    monkeypatch.setattr(store, "layout_input", slow_read)
    job.start()
    assert inside.wait(10)
    app.replace_store(MemoryStore.open(tmp_path / "other.memgraph"))
    assert open_when_read == [True] and store.closed and not job.running


def _offered(job: Any, seconds: float = 20.0) -> Any:
    """The frame the worker has offered, waited for without spinning the event loop (the GUI
    thread draws nothing meanwhile)."""
    import time

    deadline = time.monotonic() + seconds
    while job._latest is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return job._latest


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that waits (nearly) forever for each frame to be drawn: only the hand-off's
    release (the GUI drew it, the run was cancelled or replaced) lets it go on."""
    from memgraph_gui.app import layout_job

    monkeypatch.setattr(layout_job, "HANDOFF_WAIT", 1000.0)
    monkeypatch.setattr(layout_job, "FIRST_FRAME_WAIT", 1000.0)


def test_the_worker_waits_until_the_gui_drew_its_frame(
    app: Any, qtbot: Any, patient: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the GUI thread has not drawn the frame handed over, the worker computes nothing
    further (its Python would share the GIL with the frame's handling and paint); released,
    it computes the next frame and waits again. The GUI releases it only after the frame's
    handlers ran, and every frame arrives in order to the last."""
    import time

    from memgraph_gui.app import layout_job
    from memgraph_gui.app.layout_job import LayoutJob
    from memgraph_gui.core.layout import stream

    monkeypatch.setattr(stream, "FRAME_INTERVAL", 0.0)  # a frame after every step
    monkeypatch.setattr(layout_job, "MIN_FRAME_GAP", 0.0)  # (a frame held back lets it go)
    job = LayoutJob(app, seconds=30.0)
    frames: list[Any] = []
    held: list[bool] = []
    job.frame_ready.connect(frames.append)
    job.frame_ready.connect(lambda _frame: held.append(not job._drawn.is_set()))
    job.start(full=True)
    first = _offered(job)
    assert first is not None and first.stage == "start"
    time.sleep(0.3)  # a 600-node layout runs to its end in far less when nobody waits
    assert job._latest is first
    job._drawn.set()  # as the GUI thread does once it drew the frame (no event loop here)
    deadline = time.monotonic() + 20
    while job._latest is first and time.monotonic() < deadline:
        time.sleep(0.01)
    second = job._latest
    time.sleep(0.3)
    assert job._latest is second and second.stage == "refine" and second.iteration == 1
    with qtbot.waitSignal(job.saved, timeout=20000):
        pass
    assert frames[0] is second and frames[-1].done  # the first was never taken: latest wins
    assert held and all(held)
    assert [f.iteration for f in frames] == sorted(f.iteration for f in frames)


def test_cancel_releases_a_worker_waiting_for_its_frame(
    app: Any, qtbot: Any, patient: None
) -> None:
    from memgraph_gui.app.layout_job import LayoutJob

    job = LayoutJob(app, seconds=30.0)
    frames: list[Any] = []
    job.frame_ready.connect(frames.append)
    job.start(full=True)
    assert _offered(job) is not None  # the worker now waits for the GUI to draw it
    thread = job._thread
    job.cancel()
    thread.join(10)
    assert not thread.is_alive()
    qtbot.wait(100)
    assert frames == [] and not job.running


def test_a_new_run_draws_its_frames_while_the_old_one_waited(
    app: Any, qtbot: Any, patient: None
) -> None:
    """A run started while the previous one's worker waits for a frame the GUI never drew:
    the old worker ends, its frame is dropped, the new run's frames arrive and it saves."""
    from memgraph_gui.app.layout_job import LayoutJob

    job = LayoutJob(app, seconds=30.0)
    frames: list[Any] = []
    job.frame_ready.connect(frames.append)
    job.start(full=True)
    old = _offered(job)
    old_thread = job._thread
    with qtbot.waitSignal(job.saved, timeout=20000):
        job.start(full=True)
        new_thread = job._thread
    old_thread.join(10)
    assert not old_thread.is_alive() and not new_thread.is_alive()
    assert frames and all(f is not old for f in frames) and frames[-1].done
    assert frames[0].stage == "start"


def test_a_gui_that_never_draws_holds_the_worker_a_bounded_time(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The GUI thread spins no event loop at all (busy, or gone): the worker still runs to
    its end, waiting at most ``HANDOFF_WAIT`` per frame."""
    from memgraph_gui.app import layout_job

    monkeypatch.setattr(layout_job, "HANDOFF_WAIT", 0.05)
    monkeypatch.setattr(layout_job, "FIRST_FRAME_WAIT", 0.05)
    job = layout_job.LayoutJob(app, seconds=5.0)
    job.start(full=True)
    thread = job._thread
    thread.join(20)
    assert not thread.is_alive()
    assert job._latest is not None and job._latest.done  # the last frame, never taken
    job.shutdown()


def test_a_frame_held_back_by_the_throttle_lets_the_worker_go_on(
    app: Any, qtbot: Any, patient: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frames offered sooner than ``MIN_FRAME_GAP`` after the last one are not drawn now: the
    worker goes on meanwhile (it would wait for nothing), the run ends and its last frame is
    drawn and saved."""
    from memgraph_gui.app import layout_job
    from memgraph_gui.core.layout import stream

    monkeypatch.setattr(stream, "FRAME_INTERVAL", 0.0)  # a frame after every step
    monkeypatch.setattr(layout_job, "MIN_FRAME_GAP", 1000.0)  # every later frame held back
    job = layout_job.LayoutJob(app, seconds=30.0)
    frames: list[Any] = []
    job.frame_ready.connect(frames.append)
    with qtbot.waitSignal(job.saved, timeout=20000):
        job.start(full=True)
    assert frames[0].stage == "start" and frames[-1].done and len(frames) == 2

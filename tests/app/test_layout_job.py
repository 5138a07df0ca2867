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

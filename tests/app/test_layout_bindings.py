"""A layout run is bound to the store it was started for: a frame its worker offers after the
run was cancelled (the store replaced) never reaches the view, and never holds up the frames of
the next run."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np


class _Frame:
    """A layout frame whose ``stage`` can stall: the worker read ``stop`` just before and is
    descheduled here, as happens when the GUI thread cancels at that moment."""

    def __init__(self, pos: np.ndarray, stage: str, stall: threading.Event | None = None):
        self.pos, self._stage, self.iteration = pos, stage, 1
        self._stall = stall
        self.reached = threading.Event()

    @property
    def stage(self) -> str:
        self.reached.set()
        if self._stall is not None:
            assert self._stall.wait(20)
        return self._stage


class _Streams:
    """``stream_layout`` for two runs: the first yields its start frame and then stalls right
    after a stop check; the second yields its start frame, then ``done`` on ``finish``."""

    def __init__(self) -> None:
        self.stall, self.finish = threading.Event(), threading.Event()
        self.late: list[_Frame] = []
        self.runs: list[tuple[str, ...]] = []

    def __call__(
        self, inp: Any, *, seconds: float, should_stop: Any, refine_start: bool = False
    ) -> Any:
        self.runs.append(tuple(inp.ids))
        pos = np.zeros((len(inp.ids), 2))
        yield _Frame(pos, "start")
        if len(self.runs) == 1:
            frame = _Frame(pos + 5.0, "refine", self.stall)
            self.late.append(frame)
            yield frame
        else:
            self.finish.wait(20)
            yield _Frame(pos, "done")

    def stalled(self) -> bool:
        return bool(self.late) and self.late[0].reached.is_set()


def _other_store(path: Path) -> Any:
    from memgraph_gui.core import MemoryStore

    other = MemoryStore.open(path)
    for title in ("One", "Two", "Three"):
        other.write_api().create_node(type="location_state", title=title)
    return other


def test_a_frame_offered_after_the_store_was_replaced_is_dropped(
    demo_app: Any, qtbot: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    from memgraph_gui.app.layout_job import LayoutJob
    from memgraph_gui.core import layout

    app, streams = demo_app, _Streams()
    monkeypatch.setattr(layout, "stream_layout", streams)
    job = LayoutJob(app, seconds=30.0)
    frames: list[Any] = []
    job.frame_ready.connect(frames.append)
    with qtbot.waitSignal(job.frame_ready, timeout=10000):
        job.start()
    first_ids = frames[0].ids
    qtbot.waitUntil(streams.stalled, timeout=10000)
    app.replace_store(_other_store(tmp_path / "other.memgraph"))
    old = job._stopping[-1]
    streams.stall.set()  # the old worker goes on and offers its frame now
    old.join(10)
    assert not old.is_alive()
    frames.clear()
    job.start()  # the new store's layout
    qtbot.waitUntil(lambda: bool(frames), timeout=5000)  # its first frame is not held up
    assert all(f.ids != first_ids for f in frames)
    assert frames[0].ids == streams.runs[1] and len(streams.runs[1]) == 3
    with qtbot.waitSignal(job.saved, timeout=10000):
        streams.finish.set()
    assert all(f.ids == streams.runs[1] for f in frames)
    assert set(app.store.positions()) == set(streams.runs[1])  # nothing of the first store

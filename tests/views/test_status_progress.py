"""The status bar's progress bar belongs to whoever shows it: one piece of work ending (an
export, an open) does not hide the bar of another still running (the layout)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _window(qtbot: Any, path: Path) -> Any:  # type: ignore[no-untyped-def]
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(path))
    window = MainWindow(app)
    window.files.dialogs = False
    qtbot.addWidget(window)
    return app, window


@pytest.fixture
def layout_held_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's layout streams its frames but, instead of ending, waits to be cancelled:
    a small demo converges within a second, sooner than an export on a busy machine ends."""
    from memgraph_gui.core import layout

    real = layout.stream_layout

    def held(inp: Any, *, should_stop: Any, **options: Any) -> Iterator[Any]:
        for frame in real(inp, should_stop=should_stop, **options):
            if frame.stage == "done":
                while not should_stop():
                    time.sleep(0.01)
                return
            yield frame

    monkeypatch.setattr(layout, "stream_layout", held)


def test_an_export_ending_leaves_the_layouts_progress(
    qtbot, demo_template: Path, tmp_path: Path, layout_held_open: None
) -> None:
    path = tmp_path / "d.memgraph"
    shutil.copy(demo_template, path)
    app, window = _window(qtbot, path)
    job = window.graph_view.layout_job
    job.seconds = 30.0
    window.graph_view.relayout()
    qtbot.waitUntil(lambda: window.status.progress.isVisibleTo(window), timeout=5000)
    window.files.export_file(str(tmp_path / "out.json"))
    app.runner.wait_idle()
    assert (tmp_path / "out.json").exists() and job.running
    assert window.status.progress.isVisibleTo(window)  # the layout still works
    job.cancel()
    assert not window.status.progress.isVisibleTo(window)
    app.close()


def test_an_open_ending_leaves_the_progress_of_the_layout_it_started(
    qtbot, demo_template: Path, tmp_path: Path, layout_held_open: None
) -> None:
    path = tmp_path / "unlaid.memgraph"
    shutil.copy(demo_template, path)  # no saved layout: laid out once open
    app, window = _window(qtbot, tmp_path / "start.memgraph")
    job = window.graph_view.layout_job
    job.seconds = 30.0
    opened: list[str] = []
    window.files.opened.connect(opened.append)
    window.open_path(str(path))
    qtbot.waitUntil(lambda: app.store.path == str(path) and bool(opened), timeout=10000)
    # the layout starts once the picture is painted, after the open's end: its progress shows
    qtbot.waitUntil(
        lambda: job.running and window.status.progress.isVisibleTo(window), timeout=5000
    )
    job.cancel()
    assert not window.status.progress.isVisibleTo(window)
    app.close()

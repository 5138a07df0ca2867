"""``PictureKeeper``: while a window is open, the picture kept beside the layout follows the
store (its own edits and another process's), is written only for the store it was made of, and
never for a read-only one."""

from __future__ import annotations

import json
import threading
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.storage import layout_io, stored_picture
from tests.core.processes import memgraph


@pytest.fixture
def app(demo_app: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The demo laid out, counted as big enough to keep a picture, looked at 50 ms after a
    change."""
    monkeypatch.setattr(layout_io, "PICTURE_MIN_NODES", 100)
    inp = demo_app.store.layout_input()
    demo_app.store.save_positions(inp.ids, np.arange(2.0 * len(inp.ids)).reshape(-1, 2))
    demo_app.pictures.quiet_ms = 50
    return demo_app


def _current(path: str) -> bool:
    """Is the picture kept in ``path`` its content now (as a fresh open sees it)?"""
    with MemoryStore.open(path, create=False) as store:
        return (
            store.stale_picture() is None
            and store.storage.read_aside(stored_picture.stored_version) is not None
        )


def test_an_edit_here_is_followed_by_a_current_picture(app: Any, qtbot: Any) -> None:
    node = app.store.layout_input().ids[3]
    with qtbot.waitSignal(app.pictures.written, timeout=20000):
        app.run_op(lambda w: w.edit_node(id=node, title="Edited in the window"))
    assert _current(app.path)
    seen: list[Any] = []
    with MemoryStore.open(app.path, create=False, on_preview=lambda p, _s: seen.append(p)) as s:
        [drawn] = seen
        assert drawn.titles[drawn.ids.index(node)] == "Edited in the window"
        assert drawn.ids == s.picture().ids


def test_another_process_edit_is_followed_too(app: Any, qtbot: Any) -> None:
    with qtbot.waitSignal(app.pictures.written, timeout=20000):
        app.pictures._soon()  # (the open: the demo copy keeps no picture yet)
    node = app.store.layout_input().ids[5]
    with qtbot.waitSignal(app.pictures.written, timeout=20000):
        edit = json.dumps([{"id": node, "title": "Theirs"}])
        done = memgraph("--db", app.path, "call", "editNode", edit)
        assert done.returncode == 0, done.stderr
    assert _current(app.path)


def test_a_picture_made_for_a_store_left_meanwhile_is_dropped(
    app: Any, qtbot: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look at the first store is held until another memory is open: nothing is written to
    either."""
    gate, started = threading.Event(), threading.Event()
    real = MemoryStore.stale_picture

    def held(self: MemoryStore, **kwargs: Any) -> Any:
        started.set()
        assert gate.wait(20)
        return real(self, **kwargs)

    monkeypatch.setattr(MemoryStore, "stale_picture", held)
    first = app.path
    app.pictures._soon()
    qtbot.waitUntil(started.is_set, timeout=10000)
    other = tmp_path / "other.memgraph"
    with MemoryStore.open(other) as store:
        store.write_api().create_node(type="location_state", title="Elsewhere")
    written: list[bool] = []
    app.pictures.written.connect(lambda: written.append(True))
    app.replace_store(MemoryStore.open(other, create=False))
    gate.set()
    qtbot.wait(400)
    assert written == []
    for path in (first, str(other)):
        with MemoryStore.open(path, create=False) as store:
            assert store.storage.read_aside(stored_picture.stored_version) is None


def test_the_injection_state_an_agent_writes_does_not_rewrite_it(app: Any, qtbot: Any) -> None:
    with qtbot.waitSignal(app.pictures.written, timeout=20000):
        app.pictures._soon()
    written: list[bool] = []
    app.pictures.written.connect(lambda: written.append(True))
    ids = list(app.store.layout_input().ids)
    for turn in range(3):
        state = json.dumps([{"recallSelectedIds": [ids[turn]]}])
        done = memgraph("--db", app.path, "call", "setInjectionState", state)
        assert done.returncode == 0, done.stderr
    qtbot.waitUntil(lambda: app.last_external_change is not None, timeout=10000)
    qtbot.wait(800)  # the keeper looked (50 ms after the change) and found it current
    assert written == [] and _current(app.path)


def test_a_layout_saved_in_the_window_is_kept_with_its_picture(app: Any, qtbot: Any) -> None:
    """A save of positions commits no ChangeSet; the writer going idle is the cue."""
    with qtbot.waitSignal(app.pictures.written, timeout=20000):
        app.pictures._soon()
    from memgraph_gui.app.graph_data import save_positions

    inp = app.store.layout_input()
    with qtbot.waitSignal(app.pictures.written, timeout=20000):
        save_positions(app, inp.ids, np.full((len(inp.ids), 2), 3.0))
    assert _current(app.path)
    seen: list[Any] = []
    MemoryStore.open(app.path, create=False, on_preview=lambda p, _s: seen.append(p)).close()
    assert seen[0].pos[0].tolist() == [3.0, 3.0]

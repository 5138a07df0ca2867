"""``PictureKeeper``: while a window is open, the picture kept beside the layout follows the
store (its own edits, another process's, a layout saved here) through a child process once the
memory is quiet; the injection state an agent writes does not start one; a child for a store
the window left is ended and writes nothing."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.storage import stored_picture
from tests.core.processes import memgraph


@pytest.fixture
def app(demo_app: Any) -> Any:
    """The demo laid out, counted as big enough to keep a picture, looked at 50 ms after a
    change."""
    inp = demo_app.store.layout_input()
    demo_app.store.save_positions(inp.ids, np.arange(2.0 * len(inp.ids)).reshape(-1, 2))
    demo_app.pictures.quiet_ms = 50
    demo_app.pictures.min_nodes = 100
    return demo_app


def _kept(path: str) -> stored_picture.Version | None:
    with MemoryStore.open(path, create=False) as store:
        return store.storage.read_aside(stored_picture.stored_version)


def _current(path: str) -> bool:
    """Is the picture kept in ``path`` its content now (as a fresh open sees it)?"""
    with MemoryStore.open(path, create=False) as store:
        return _kept(path) is not None and not store.picture_wanted(min_nodes=100)


def _written(qtbot: Any, app: Any) -> None:
    with qtbot.waitSignal(app.pictures.finished, timeout=60000) as done:
        app.pictures.soon()
    assert done.args == [True]


def test_an_edit_here_is_followed_by_a_current_picture(app: Any, qtbot: Any) -> None:
    node = app.store.layout_input().ids[3]
    with qtbot.waitSignal(app.pictures.finished, timeout=60000) as done:
        app.run_op(lambda w: w.edit_node(id=node, title="Edited in the window"))
    assert done.args == [True] and _current(app.path)
    seen: list[Any] = []
    with MemoryStore.open(app.path, create=False, on_preview=lambda p, _s: seen.append(p)) as s:
        [drawn] = seen
        assert drawn.titles[drawn.ids.index(node)] == "Edited in the window"
        assert drawn.ids == s.picture().ids


def test_another_process_edit_is_followed_too(app: Any, qtbot: Any) -> None:
    _written(qtbot, app)
    node = app.store.layout_input().ids[5]
    with qtbot.waitSignal(app.pictures.finished, timeout=60000) as done:
        edit = json.dumps([{"id": node, "title": "Theirs"}])
        answer = memgraph("--db", app.path, "call", "editNode", edit)
        assert answer.returncode == 0, answer.stderr
    assert done.args == [True] and _current(app.path)


def test_the_injection_state_an_agent_writes_starts_no_child(app: Any, qtbot: Any) -> None:
    _written(qtbot, app)
    ended: list[bool] = []
    app.pictures.finished.connect(ended.append)
    ids = list(app.store.layout_input().ids)
    for turn in range(3):
        state = json.dumps([{"recallSelectedIds": [ids[turn]]}])
        done = memgraph("--db", app.path, "call", "setInjectionState", state)
        assert done.returncode == 0, done.stderr
    qtbot.waitUntil(lambda: app.last_external_change is not None, timeout=10000)
    qtbot.wait(500)
    assert ended == [] and not app.pictures.running and _current(app.path)


def test_a_layout_saved_in_the_window_is_kept_with_its_picture(app: Any, qtbot: Any) -> None:
    """A save of positions commits no ChangeSet; the writer going idle is the cue."""
    from memgraph_gui.app.graph_data import save_positions

    _written(qtbot, app)
    inp = app.store.layout_input()
    with qtbot.waitSignal(app.pictures.finished, timeout=60000) as done:
        save_positions(app, inp.ids, np.full((len(inp.ids), 2), 3.0))
    assert done.args == [True] and _current(app.path)
    seen: list[Any] = []
    MemoryStore.open(app.path, create=False, on_preview=lambda p, _s: seen.append(p)).close()
    assert seen[0].pos[0].tolist() == [3.0, 3.0]


def test_a_child_for_a_store_left_is_ended_and_writes_nothing(
    app: Any, qtbot: Any, tmp_path: Any
) -> None:
    app.pictures.soon()
    qtbot.waitUntil(lambda: app.pictures.running, timeout=10000)
    first = app.path
    other = tmp_path / "other.memgraph"
    with MemoryStore.open(other) as store:
        store.write_api().create_node(type="location_state", title="Elsewhere")
    ended: list[bool] = []
    app.pictures.finished.connect(ended.append)
    app.replace_store(MemoryStore.open(other, create=False))
    assert not app.pictures.running
    qtbot.wait(300)
    assert ended == [] and _kept(first) is None and _kept(str(other)) is None


def test_a_current_picture_starts_no_child(app: Any, qtbot: Any) -> None:
    _written(qtbot, app)
    app.pictures.soon()
    qtbot.wait(300)
    assert not app.pictures.running  # current: looked at in SQL, no child

"""File ▸ Open keeps one graph alive at a time: once the next file is checked, the memory open
so far is let go (its writes finish, it is closed) before the next graph is built, and the
window stands on an empty memory meanwhile. A build that fails then opens the memory let go
again; a newer open wins; an in-memory memory (which cannot be opened again) stays until the
switch; another process writing the memory let go loses nothing."""

from __future__ import annotations

import gc
import threading
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core.domain.model import Node
from tests.core.processes import run_python
from tests.views.test_open_race import _drawn_titles, _titles


def _store_file(tmp_path: Path, name: str, titles: list[str], *, laid_out: bool = True) -> Path:
    """A small store with ``titles`` as nodes (and a saved layout: it has a preview)."""
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.layout import compute_layout

    path = tmp_path / name
    with MemoryStore.open(path) as store:
        api = store.write_api()
        for title in titles:
            api.create_node(type="location_state", title=title)
        if laid_out:
            inp = store.layout_input()
            store.save_positions(inp.ids, compute_layout(inp, seconds=0.2))
    return path


class Builds:
    """``rows.build_graph`` seen from the tests: each build is named by the first title among
    its nodes that a test watches; ``probe`` runs at each build (on the opening thread) and
    records what it returns; a build can be held until a gate opens, or made to raise."""

    def __init__(self, real: Any) -> None:
        self._real = real
        self.watched: set[str] = set()
        self.probe: Any = lambda: None
        self.seen: list[tuple[str, Any]] = []
        self.gates: dict[str, threading.Event] = {}
        self.started: dict[str, threading.Event] = {}
        self.failures: dict[str, BaseException] = {}

    def hold(self, title: str) -> threading.Event:
        self.watched.add(title)
        self.started[title] = threading.Event()
        gate = self.gates[title] = threading.Event()
        return gate

    def fail(self, title: str, error: BaseException) -> None:
        self.watched.add(title)
        self.failures[title] = error

    def __call__(self, tables: Any) -> Any:
        titles = {row[4] for row in tables.nodes}
        name = next((t for t in sorted(self.watched) if t in titles), "")
        if name:
            self.seen.append((name, self.probe()))
            if name in self.started:
                self.started[name].set()
                assert self.gates[name].wait(20), "a held build was never released"
            failure = self.failures.pop(name, None)
            if failure is not None:
                raise failure
        return self._real(tables)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Builds:
    from memgraph_gui.core.storage import rows

    spy = Builds(rows.build_graph)
    monkeypatch.setattr(rows, "build_graph", spy)
    return spy


def _window(qtbot: Any, path: Path | str) -> Any:  # type: ignore[no-untyped-def]
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(path))
    window = MainWindow(app)
    window.files.dialogs = False
    qtbot.addWidget(window)
    return app, window


def _nodes_titled(prefix: str) -> int:
    """``Node`` objects alive in this process whose title starts with ``prefix``."""
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Node) and o.title.startswith(prefix))


def _opened(qtbot: Any, app: Any, window: Any, path: Path) -> None:
    qtbot.waitUntil(lambda: app.store.path == str(path) and not window.files.opening, timeout=15000)


def _use_every_pane(qtbot: Any, app: Any, window: Any) -> None:
    """Find, filter, refresh the rollup review and the status bar, and write: on the stand-in
    every read works (and finds nothing) and the write is refused, not lost."""
    window.find_box.setText("one")
    window._apply_find()
    qtbot.wait(400)  # the timeline's filter applies after a pause
    window.compaction.review.refresh()
    window.status.refresh()
    assert window.timeline.rowCount() == 0
    refused: list[Any] = []
    app.run_op(
        lambda w: w.create_node(type="location_state", title="Lost?"), on_error=refused.append
    )
    app.runner.wait_idle()
    assert [e.code for e in refused] == ["STORE_OPENING"]


@pytest.mark.parametrize("laid_out", [True, False])
def test_the_memory_left_is_closed_before_the_next_graph_is_built(
    qtbot, tmp_path: Path, builds: Builds, laid_out: bool
) -> None:
    """While the next graph is built the memory left is closed and nothing of it is alive; the
    window shows the file coming (its picture when it has a saved layout, else nothing; its
    name; no rows yet), every pane keeps working, and a write asked for meanwhile is refused
    rather than lost."""
    from memgraph_gui.core import MemoryStore

    a = _store_file(tmp_path, "a.memgraph", ["A one", "A two"])
    b = _store_file(tmp_path, "b.memgraph", ["B one"], laid_out=laid_out)
    app, window = _window(qtbot, a)
    first = app.store
    app.selection.select([next(iter(first.graph.nodes))])
    window.compaction.open_review()
    assert window.inspector.node_id is not None and window.timeline.rowCount() == 2
    gate = builds.hold("B one")
    builds.probe = lambda: first.closed
    window.open_path(str(b))
    qtbot.waitUntil(builds.started["B one"].is_set, timeout=15000)
    if laid_out:
        qtbot.waitUntil(lambda: window.graph_view.preview_stamp is not None, timeout=10000)
        assert window.graph_view.scene.n == 1  # the file coming, drawn from its layout
    else:
        qtbot.wait(100)
        assert window.graph_view.preview_stamp is None and window.graph_view.scene.n == 0
    assert builds.seen == [("B one", True)]  # closed before the build began
    assert first.closed and app.store is not first and not app.store.closed
    assert app.opening == str(b) and app.left == str(a)
    assert _nodes_titled("A ") == 0  # no pane keeps anything of the memory left
    assert window.timeline.rowCount() == 0 and window.inspector.node_id is None
    assert window.windowTitle().startswith("b.memgraph")
    assert window.status.file.text() == "b.memgraph"
    _use_every_pane(qtbot, app, window)
    gate.set()
    _opened(qtbot, app, window, b)
    assert _titles(app) == {"B one"} and _drawn_titles(app, window) == {"B one"}
    assert app.opening is None and app.left is None
    assert window.status.counts.text().startswith("1 nodes")
    assert window.timeline.rowCount() == 1  # found by "one"
    with MemoryStore.open(a, create=False) as check:
        assert {n.title for n in check.graph.nodes.values()} == {"A one", "A two"}
    window.close()
    app.close()


@pytest.mark.parametrize(
    "bad",
    [
        "not a store",
        "UPDATE nodes SET fields = '{broken' WHERE title = 'B one'",
        "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', '[broken')",
    ],
)
def test_a_file_that_fails_its_check_leaves_the_open_memory_untouched(
    qtbot, tmp_path: Path, builds: Builds, bad: str
) -> None:
    """Only a checked file makes the window let go: the open memory stays (the same store,
    open, writable); a good file after it does let go first."""
    import sqlite3

    a = _store_file(tmp_path, "a.memgraph", ["A one"])
    b = _store_file(tmp_path, "b.memgraph", ["B one"])
    if bad == "not a store":
        b.write_text("not a store\n" * 50)
    else:
        with sqlite3.connect(b) as raw:
            raw.execute(bad)
    app, window = _window(qtbot, a)
    first = app.store
    builds.watched |= {"B one", "C one"}
    builds.probe = lambda: first.closed
    window.open_path(str(b))
    qtbot.waitUntil(lambda: not window.files.opening, timeout=15000)
    assert len(window.problems_shown) == 1
    assert app.store is first and not first.closed and app.opening is None
    assert app.apply_sync(lambda w: w.create_node(type="location_state", title="A two"))
    assert _titles(app) == {"A one", "A two"} and window.timeline.rowCount() == 2
    c = _store_file(tmp_path, "c.memgraph", ["C one"])
    window.open_path(str(c))
    _opened(qtbot, app, window, c)
    assert builds.seen == [("C one", True)]  # the damaged file was never built
    window.close()
    app.close()


def test_a_build_that_fails_after_the_let_go_opens_the_memory_left_again(
    qtbot, tmp_path: Path, builds: Builds
) -> None:
    """Out of memory while building the next graph: the memory let go is opened again with
    every write made before (also those still queued when the open began), shown in every
    pane, and the problem is reported."""
    a = _store_file(tmp_path, "a.memgraph", ["A one"])
    b = _store_file(tmp_path, "b.memgraph", ["B one"])
    app, window = _window(qtbot, a)
    first = app.store
    app.apply_sync(lambda w: w.create_node(type="location_state", title="A written"))
    builds.fail("B one", MemoryError())
    builds.probe = lambda: first.closed
    app.run_op(lambda w: w.create_node(type="location_state", title="A queued"))
    window.open_path(str(b))
    qtbot.waitUntil(lambda: not window.files.opening, timeout=15000)
    assert builds.seen == [("B one", True)]
    assert first.closed and app.store is not first and not app.store.closed
    assert app.store.path == str(a) and app.opening is None and app.left is None
    assert _titles(app) == {"A one", "A written", "A queued"}
    [problem] = window.problems_shown
    assert "MemoryError" in problem.message and str(b) in problem.message
    assert window.graph_view.preview_stamp is None
    qtbot.waitUntil(lambda: _drawn_titles(app, window) == _titles(app), timeout=10000)
    assert window.timeline.rowCount() == 3
    assert window.windowTitle().startswith("a.memgraph")
    assert window.status.file.text() == "a.memgraph"
    assert app.apply_sync(lambda w: w.create_node(type="location_state", title="A after"))
    window.close()
    app.close()


def test_when_the_memory_left_cannot_be_opened_again_an_empty_one_stays_open(
    qtbot, tmp_path: Path, builds: Builds
) -> None:
    a = _store_file(tmp_path, "a.memgraph", ["A one"])
    b = _store_file(tmp_path, "b.memgraph", ["B one"])
    app, window = _window(qtbot, a)
    gate = builds.hold("B one")
    builds.fail("B one", MemoryError())
    window.open_path(str(b))
    qtbot.waitUntil(builds.started["B one"].is_set, timeout=15000)
    a.unlink()  # gone while the next file was built
    gate.set()
    qtbot.waitUntil(lambda: not window.files.opening, timeout=15000)
    assert not app.store.closed and app.path == ":memory:" and app.opening is None
    [problem] = window.problems_shown
    assert "MemoryError" in problem.message and str(a) in problem.message
    assert app.apply_sync(lambda w: w.create_node(type="location_state", title="Kept"))
    assert window.windowTitle().startswith("(unsaved memory)")
    window.close()
    app.close()


def test_an_open_asked_for_while_the_next_graph_is_built_wins(
    qtbot, tmp_path: Path, builds: Builds
) -> None:
    a = _store_file(tmp_path, "a.memgraph", ["A one"])
    b = _store_file(tmp_path, "b.memgraph", ["B one"])
    c = _store_file(tmp_path, "c.memgraph", ["C one"])
    app, window = _window(qtbot, a)
    first = app.store
    gate = builds.hold("B one")
    builds.probe = lambda: (first.closed, app.store.path)
    window.open_path(str(b))
    qtbot.waitUntil(builds.started["B one"].is_set, timeout=15000)
    assert window.windowTitle().startswith("b.memgraph")
    c_gate = builds.hold("C one")
    window.open_path(str(c))
    qtbot.waitUntil(builds.started["C one"].is_set, timeout=15000)
    assert window.windowTitle().startswith("c.memgraph")
    assert window.status.file.text() == "c.memgraph"
    c_gate.set()
    _opened(qtbot, app, window, c)
    assert builds.seen == [("B one", (True, ":memory:")), ("C one", (True, ":memory:"))]
    assert first.closed and _titles(app) == {"C one"}
    shown = app.store
    gate.set()  # the older build ends now: dropped
    qtbot.wait(300)
    assert app.store is shown and not shown.closed and _titles(app) == {"C one"}
    assert _drawn_titles(app, window) == {"C one"} and window.problems_shown == []
    window.close()
    app.close()


def test_a_failing_open_asked_for_while_the_next_graph_is_built_brings_back_the_first(
    qtbot, tmp_path: Path, builds: Builds
) -> None:
    """The memory was let go for a file whose open was then superseded by one that fails: the
    window ends on the memory it had, never on the empty stand-in."""
    a = _store_file(tmp_path, "a.memgraph", ["A one"])
    b = _store_file(tmp_path, "b.memgraph", ["B one"])
    broken = tmp_path / "broken.memgraph"
    broken.write_text("not a store\n" * 50)
    app, window = _window(qtbot, a)
    first = app.store
    gate = builds.hold("B one")
    window.open_path(str(b))
    qtbot.waitUntil(builds.started["B one"].is_set, timeout=15000)
    window.open_path(str(broken))
    _opened(qtbot, app, window, a)
    assert first.closed and app.store is not first and _titles(app) == {"A one"}
    assert [p.code for p in window.problems_shown] == ["NOT_A_STORE"]
    shown = app.store
    gate.set()
    qtbot.wait(300)
    assert app.store is shown and not shown.closed and app.opening is None
    window.close()
    app.close()


def test_an_in_memory_memory_is_not_let_go_before_the_switch(
    qtbot, tmp_path: Path, builds: Builds
) -> None:
    """An unsaved in-memory memory cannot be opened again: it stays open until the next file
    is in (a file-backed one, opened next, is let go first)."""
    a = _store_file(tmp_path, "a.memgraph", ["A one"])
    b = _store_file(tmp_path, "b.memgraph", ["B one"])
    app, window = _window(qtbot, ":memory:")
    memory = app.store
    app.apply_sync(lambda w: w.create_node(type="location_state", title="Unsaved"))
    builds.watched |= {"A one", "B one"}
    builds.probe = lambda: (memory.closed, app.store.path)
    window.open_path(str(a))
    _opened(qtbot, app, window, a)
    first = app.store
    builds.probe = lambda: (first.closed, app.store.path)
    window.open_path(str(b))
    _opened(qtbot, app, window, b)
    assert builds.seen == [("A one", (False, ":memory:")), ("B one", (True, ":memory:"))]
    assert memory.closed and first.closed
    window.close()
    app.close()


WRITER = """
    import sys, time
    from memgraph_gui.core import MemoryStore
    path, count = sys.argv[1], int(sys.argv[2])
    with MemoryStore.open(path, create=False, origin="agent") as store:
        api = store.write_api()
        print("ready", flush=True)
        for i in range(count):
            api.create_node(type="location_state", title=f"Agent {i}")
            time.sleep(0.01)
    print("done", flush=True)
"""


@pytest.mark.parametrize("build_fails", [False, True])
def test_another_process_writing_the_memory_left_loses_nothing(
    qtbot, tmp_path: Path, builds: Builds, build_fails: bool
) -> None:
    """An agent commits to the memory open in the window all through an open (the let-go, the
    build, and the reopen when the build fails); the window's own queued writes go in too."""
    from memgraph_gui.core import MemoryStore

    a = _store_file(tmp_path, "a.memgraph", ["A one"])
    b = _store_file(tmp_path, "b.memgraph", ["B one"])
    app, window = _window(qtbot, a)
    first = app.store
    count = 60
    agent = run_python(WRITER, str(a), str(count))
    assert agent.stdout is not None and agent.stdout.readline().strip() == "ready"
    gate = builds.hold("B one")
    if build_fails:
        builds.fail("B one", MemoryError())
    builds.probe = lambda: first.closed
    for i in range(5):
        app.run_op(lambda w, i=i: w.create_node(type="location_state", title=f"Desk {i}"))
    window.open_path(str(b))
    qtbot.waitUntil(builds.started["B one"].is_set, timeout=15000)
    qtbot.wait(200)  # the agent goes on writing while the window stands on nothing
    gate.set()
    qtbot.waitUntil(lambda: not window.files.opening, timeout=15000)
    out, err = agent.communicate(timeout=60)
    assert agent.returncode == 0 and out.strip() == "done", err
    assert builds.seen == [("B one", True)] and first.closed
    wanted = {"A one"} | {f"Agent {i}" for i in range(count)} | {f"Desk {i}" for i in range(5)}
    with MemoryStore.open(a, create=False) as check:
        assert {n.title for n in check.graph.nodes.values()} == wanted
    if build_fails:
        assert app.store.path == str(a)
        qtbot.waitUntil(lambda: _titles(app) == wanted, timeout=10000)
        qtbot.waitUntil(lambda: window.timeline.rowCount() == len(wanted), timeout=10000)
    else:
        assert app.store.path == str(b) and _titles(app) == {"B one"}
    window.close()
    app.close()

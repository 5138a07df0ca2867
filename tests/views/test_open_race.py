"""The last File ▸ Open wins: an open still in flight when another is asked for is dropped (its
store closed, its preview and problems never shown), and an import asked for while a memory
opens waits for it and goes into that memory."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest


def _store_file(tmp_path: Path, name: str, titles: list[str]) -> Path:
    """A small store with ``titles`` as nodes and a saved layout (so it has a preview)."""
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.layout import compute_layout

    path = tmp_path / name
    with MemoryStore.open(path) as store:
        api = store.write_api()
        for title in titles:
            api.create_node(type="location_state", title=title)
        inp = store.layout_input()
        store.save_positions(inp.ids, compute_layout(inp, seconds=0.2))
    return path


class GatedOpens:
    """``MemoryStore.open`` for the window's opens: a held path waits for its gate before it
    opens; every store made is kept (to check which were closed), every open that ended
    without one too (a superseded open stops before building its graph), and every open that
    read and checked its rows (``checked``: it then asks the window to let go)."""

    def __init__(self, real: Any) -> None:
        self._real = real
        self._gates: dict[str, threading.Event] = {}
        self.stores: dict[str, list[Any]] = {}
        self.stopped: dict[str, list[BaseException]] = {}
        self.checked: set[str] = set()

    def hold(self, path: Path) -> threading.Event:
        gate = self._gates[str(path)] = threading.Event()
        self.forget(path)  # only the window's open counts from here on
        return gate

    def forget(self, path: Path) -> None:
        for seen in (self.stores, self.stopped):
            seen.pop(str(path), None)
        self.checked.discard(str(path))

    def __call__(self, path: Any, **kwargs: Any) -> Any:
        gate = self._gates.get(str(path))
        if gate is not None:
            assert gate.wait(20), "a held open was never released"
        hook = kwargs.get("before_build")
        if hook is not None:

            def checked() -> None:
                self.checked.add(str(path))
                hook()

            kwargs["before_build"] = checked
        try:
            store = self._real(path, **kwargs)
        except BaseException as exc:
            self.stopped.setdefault(str(path), []).append(exc)
            raise
        self.stores.setdefault(str(path), []).append(store)
        return store

    def one(self, path: Path) -> Any:
        """The store the window's open of ``path`` made (the newest)."""
        return self.stores[str(path)][-1]

    def gone(self, path: Path) -> bool:
        """The window's open of ``path`` ended, and left no open store: it stopped before
        building its graph, or the store it made was closed."""
        made = self.stores.get(str(path))
        return bool(self.stopped.get(str(path))) or bool(made and made[-1].closed)


@pytest.fixture
def opens(monkeypatch: pytest.MonkeyPatch) -> GatedOpens:
    from memgraph_gui.core import MemoryStore

    gated = GatedOpens(MemoryStore.open)
    monkeypatch.setattr(MemoryStore, "open", gated)
    return gated


def _window(qtbot: Any) -> Any:  # type: ignore[no-untyped-def]
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(":memory:"))
    window = MainWindow(app)
    window.files.dialogs = False
    qtbot.addWidget(window)
    return app, window


def _titles(app: Any) -> set[str]:
    return {n.title for n in app.store.graph.nodes.values()}


def _drawn_titles(app: Any, window: Any) -> set[str]:
    scene = window.graph_view.scene
    return {app.node(i).title for i in scene.ids if app.node(i) is not None}


def test_two_quick_opens_end_on_the_second(qtbot, tmp_path: Path, opens: GatedOpens) -> None:
    first = _store_file(tmp_path, "first.memgraph", ["Only in first"])
    second = _store_file(tmp_path, "second.memgraph", ["Only in second", "Also second"])
    app, window = _window(qtbot)
    drawn: list[object] = []
    window.files.previewed.connect(lambda _snap, stamp: drawn.append(stamp))
    gate = opens.hold(first)
    window.open_path(str(first))
    window.open_path(str(second))
    qtbot.waitUntil(lambda: app.store.path == str(second), timeout=10000)
    assert not window.files.opening
    previews_before = list(drawn)
    gate.set()  # the first file opens only now, after the second is shown
    qtbot.waitUntil(lambda: opens.gone(first), timeout=10000)
    qtbot.wait(50)
    assert app.store.path == str(second) and not app.store.closed
    assert _titles(app) == {"Only in second", "Also second"}
    assert _drawn_titles(app, window) == {"Only in second", "Also second"}
    assert drawn == previews_before  # nothing of the first file was drawn after the second
    assert window.graph_view.preview_stamp is None
    assert window.windowTitle().startswith("second.memgraph")
    app.close()


def test_three_quick_opens_end_on_the_third_whatever_order_they_finish(
    qtbot, tmp_path: Path, opens: GatedOpens
) -> None:
    paths = [_store_file(tmp_path, f"{n}.memgraph", [f"Only in {n}"]) for n in ("a", "b", "c")]
    app, window = _window(qtbot)
    gates = [opens.hold(p) for p in paths]
    for path in paths:
        window.open_path(str(path))
    for index in (2, 0, 1):  # the last one asked for finishes first, then the others
        gates[index].set()
        qtbot.waitUntil(
            lambda i=index: str(paths[i]) in opens.stores or opens.gone(paths[i]), timeout=10000
        )
        qtbot.waitUntil(lambda: not window.files.opening, timeout=10000)
        qtbot.wait(50)
    qtbot.waitUntil(lambda: opens.gone(paths[0]) and opens.gone(paths[1]))
    assert app.store is opens.one(paths[2]) and not app.store.closed
    assert _titles(app) == {"Only in c"} and _drawn_titles(app, window) == {"Only in c"}
    app.close()


def test_a_superseded_open_that_fails_says_nothing(
    qtbot, tmp_path: Path, opens: GatedOpens
) -> None:
    broken = tmp_path / "broken.memgraph"
    broken.write_text("not a store\n" * 50)
    good = _store_file(tmp_path, "good.memgraph", ["Good"])
    app, window = _window(qtbot)
    gate = opens.hold(broken)
    window.open_path(str(broken))
    window.open_path(str(good))
    qtbot.waitUntil(lambda: app.store.path == str(good), timeout=10000)
    gate.set()
    qtbot.wait(300)  # the broken file's answer comes, and is dropped
    assert window.problems_shown == []
    assert app.store.path == str(good)
    app.close()


def test_the_preview_of_a_superseded_open_is_never_drawn(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first file reads its rows only once the second open is under way: its picture is
    not drawn while the second opens, nor after."""
    from memgraph_gui.core import MemoryStore

    first = _store_file(tmp_path, "first.memgraph", ["Only in first"])
    second = _store_file(tmp_path, "second.memgraph", ["Only in second"])
    app, window = _window(qtbot)
    real_open = MemoryStore.open
    made: dict[str, Any] = {}
    first_rows, second_go = threading.Event(), threading.Event()

    def gated(path: Any, **kwargs: Any) -> Any:
        hook = kwargs.get("on_preview")
        if str(path) == str(first) and hook is not None:

            def late(preview: Any, stamp: Any) -> None:
                assert first_rows.wait(20)
                hook(preview, stamp)

            kwargs["on_preview"] = late
        if str(path) == str(second):
            assert second_go.wait(20)
        try:
            store = made[str(path)] = real_open(path, **kwargs)
        except BaseException as exc:
            made[str(path)] = exc  # stopped before building its graph
            raise
        return store

    monkeypatch.setattr(MemoryStore, "open", gated)
    drawn: list[object] = []
    window.files.previewed.connect(lambda _snap, stamp: drawn.append(stamp))
    window.open_path(str(first))
    window.open_path(str(second))
    first_rows.set()
    qtbot.waitUntil(lambda: str(first) in made, timeout=10000)
    qtbot.wait(100)
    assert drawn == [] and window.graph_view.preview_stamp is None
    second_go.set()
    qtbot.waitUntil(lambda: app.store.path == str(second), timeout=10000)
    qtbot.waitUntil(lambda: _gone(made[str(first)]), timeout=10000)
    assert len(drawn) == 1  # the second file's own picture only
    assert _drawn_titles(app, window) == {"Only in second"}
    app.close()


def test_a_preview_drawn_for_a_dropped_open_gives_way(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first file's picture is on screen when the second is asked for (which has no saved
    layout, so no picture of its own): the first file's picture goes at once."""
    from memgraph_gui.core import MemoryStore

    first = _store_file(tmp_path, "first.memgraph", ["Only in first"])
    second = tmp_path / "second.memgraph"
    with MemoryStore.open(second) as store:  # no saved layout: no preview
        store.write_api().create_node(type="location_state", title="Only in second")
    app, window = _window(qtbot)
    real_open = MemoryStore.open
    made: dict[str, Any] = {}
    held = threading.Event()

    def slow_after_preview(path: Any, **kwargs: Any) -> Any:
        hook = kwargs.get("on_preview")
        if str(path) == str(first) and hook is not None:

            def then_wait(preview: Any, stamp: Any) -> None:
                hook(preview, stamp)
                held.wait(20)

            kwargs["on_preview"] = then_wait
        try:
            store = made[str(path)] = real_open(path, **kwargs)
        except BaseException as exc:
            made[str(path)] = exc  # stopped before building its graph
            raise
        return store

    monkeypatch.setattr(MemoryStore, "open", slow_after_preview)
    window.open_path(str(first))
    qtbot.waitUntil(lambda: window.graph_view.preview_stamp is not None, timeout=10000)
    window.open_path(str(second))
    assert window.graph_view.preview_stamp is None  # the first file's picture is gone
    assert window.graph_view.scene.n == 0  # the open (empty) memory is drawn meanwhile
    qtbot.waitUntil(lambda: app.store.path == str(second), timeout=10000)
    held.set()
    qtbot.waitUntil(lambda: str(first) in made and _gone(made[str(first)]))
    assert _drawn_titles(app, window) == {"Only in second"}
    app.close()


def _gone(made: Any) -> bool:
    """An open that stopped before building its graph, or made a store now closed."""
    return isinstance(made, BaseException) or made.closed


def _luker_export(tmp_path: Path, titles: list[str]) -> Path:
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.luker import interop

    out = tmp_path / "export.json"
    with MemoryStore.open(tmp_path / "source.memgraph") as store:
        for title in titles:
            store.write_api().create_node(type="location_state", title=title)
        interop.export_luker_file(store.storage, out)
    return out


def test_an_import_asked_for_while_a_memory_opens_goes_into_that_memory(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.qt import Qt

    export = _luker_export(tmp_path, ["Imported one", "Imported two"])
    target = _store_file(tmp_path, "target.memgraph", ["Was there"])
    opens = GatedOpens(MemoryStore.open)
    monkeypatch.setattr(MemoryStore, "open", opens)
    app, window = _window(qtbot)
    empty = app.store
    gate = opens.hold(target)
    window.open_path(str(target))
    window.files.import_file(str(export))
    app.runner.wait_idle()
    assert _titles(app) == set()  # the open memory is not the one the import is for
    with qtbot.waitSignal(window.files.import_checked, timeout=20000) as shown:
        gate.set()
    dialog = shown.args[0]
    assert app.store.path == str(target)
    assert str(target) in dialog.summary.text() + dialog.windowTitle() + _texts(dialog)
    qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _titles(app) == {"Imported one", "Imported two"}, timeout=10000)
    assert empty.closed and not app.store.closed
    app.close()


def _texts(widget: object) -> str:
    """Every label's text in ``widget`` (the report dialog names the memory it replaces)."""
    from memgraph_gui.views.qt import QLabel

    return " ".join(label.text() for label in widget.findChildren(QLabel))  # type: ignore[attr-defined]


def test_an_import_waiting_for_an_open_that_is_superseded_is_dropped_visibly(
    qtbot, tmp_path: Path, opens: GatedOpens
) -> None:
    export = _luker_export(tmp_path, ["Imported"])
    first = _store_file(tmp_path, "first.memgraph", ["First"])
    second = tmp_path / "second.memgraph"
    app, window = _window(qtbot)
    gate = opens.hold(first)
    window.open_path(str(first))
    window.files.import_file(str(export))
    window.files.open_path(str(second), create=True)
    assert "not started" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: app.store.path == str(second), timeout=10000)
    gate.set()
    qtbot.waitUntil(lambda: opens.gone(first))
    app.runner.wait_idle()
    assert _titles(app) == set()  # the import was for the first file; nothing went anywhere
    with opens._real(first) as check:
        assert {n.title for n in check.graph.nodes.values()} == {"First"}
    app.close()


def test_a_node_to_select_once_open_is_for_that_file_only(qtbot, tmp_path: Path) -> None:
    """``--select`` names a node of the file given with it: when that file fails to open, the
    node is not selected in the next file opened."""
    broken = tmp_path / "broken.memgraph"
    broken.write_text("not a store\n" * 50)
    good = _store_file(tmp_path, "good.memgraph", ["Good"])
    app, window = _window(qtbot)
    window.open_path(str(broken))
    window.select_when_open("n_1")
    qtbot.waitUntil(lambda: not window.files.opening, timeout=10000)
    assert [p.code for p in window.problems_shown] == ["NOT_A_STORE"]
    window.open_path(str(good))
    qtbot.waitUntil(lambda: app.store.path == str(good), timeout=10000)
    assert app.node("n_1") is not None and app.selection.current is None
    app.close()


def test_an_open_that_lands_after_the_app_closed_is_closed_too(
    qtbot, tmp_path: Path, opens: GatedOpens
) -> None:
    path = _store_file(tmp_path, "late.memgraph", ["Late"])
    app, window = _window(qtbot)
    first = app.store
    gate = opens.hold(path)
    window.open_path(str(path))
    window.close()
    app.close()
    gate.set()
    qtbot.waitUntil(lambda: opens.gone(path), timeout=10000)
    assert app.store is first and app.closed  # nothing was attached to a closed model


def test_a_newer_open_landing_while_the_older_waits_for_the_writer_wins(
    qtbot, tmp_path: Path, opens: GatedOpens
) -> None:
    """The first file's rows are in while a long write runs, so letting go of the open memory
    waits for the writer (and the window keeps working); the second file, asked for meanwhile,
    asks to let go during that wait."""
    from memgraph_gui.views.qt import QTimer

    first = _store_file(tmp_path, "first.memgraph", ["First"])
    second = _store_file(tmp_path, "second.memgraph", ["Second"])
    app, window = _window(qtbot)
    writer = threading.Event()
    app.run_op(lambda _w: writer.wait(20))  # a long write: the writer is busy

    def release_when_second_is_made() -> None:
        for _ in range(2000):
            if str(second) in opens.checked:
                break
            threading.Event().wait(0.01)
        threading.Event().wait(0.2)  # its answer is queued to the GUI thread by now
        writer.set()

    def open_second_once_the_first_is_in() -> None:  # runs inside the first one's wait
        if str(first) in opens.checked:
            poll.stop()
            window.open_path(str(second))

    opens.forget(first)
    opens.forget(second)
    poll = QTimer(window, interval=20)
    poll.timeout.connect(open_second_once_the_first_is_in)
    poll.start()
    threading.Thread(target=release_when_second_is_made, daemon=True).start()
    window.open_path(str(first))
    qtbot.waitUntil(lambda: opens.gone(first), timeout=15000)
    qtbot.waitUntil(lambda: app.store.path == str(second), timeout=15000)
    qtbot.wait(100)
    assert app.store.path == str(second) and not app.store.closed
    assert _titles(app) == {"Second"} and not window.files.opening
    app.close()


def test_a_switch_waits_for_a_write_longer_than_the_runners_wait(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write still running when the file is in is never cut short: the switch waits for it
    (``wait_idle`` gives up after its timeout, shortened here), and its answer is delivered."""
    from memgraph_gui.app.runner import OpRunner

    path = _store_file(tmp_path, "next.memgraph", ["Next"])
    app, window = _window(qtbot)
    first = app.store
    real_wait = OpRunner.wait_idle
    monkeypatch.setattr(OpRunner, "wait_idle", lambda self, timeout=0.2: real_wait(self, timeout))
    done: list[object] = []

    def long_write(w: Any) -> object:
        threading.Event().wait(1.5)
        return w.create_node(type="location_state", title="Written")

    app.run_op(long_write, on_done=lambda result: done.append((result, first.closed)))
    window.open_path(str(path))
    qtbot.waitUntil(lambda: app.store.path == str(path), timeout=10000)
    assert len(done) == 1 and done[0][1] is False  # answered while its store was still open
    assert first.closed
    app.close()


def test_a_recent_file_opened_while_the_demo_builds_wins(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started without a file, the window opens the demo (built on first use, slow); a file
    picked from Open Recent meanwhile is what the window ends on."""
    from memgraph_gui.app import opening
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.window_settings import remember_file

    recent = _store_file(tmp_path, "recent.memgraph", ["Recent"])
    demo_path = tmp_path / "demo.memgraph"
    building, demos = threading.Event(), []

    def slow_demo() -> Any:
        assert building.wait(20)
        store = MemoryStore.open(demo_path)
        demos.append(store)
        return store

    monkeypatch.setattr(opening, "open_demo", slow_demo)
    monkeypatch.setattr(opening, "demo_path", lambda: demo_path)
    remember_file(str(recent))
    app, window = _window(qtbot)
    window.open_demo()  # as `memgraph-gui` with no FILE does
    window.files.recent_menu.aboutToShow.emit()
    (action,) = [a for a in window.files.recent_menu.actions() if a.data() == str(recent)]
    action.trigger()
    qtbot.waitUntil(lambda: app.store.path == str(recent), timeout=10000)
    building.set()
    qtbot.waitUntil(lambda: bool(demos) and demos[0].closed, timeout=10000)
    assert app.store.path == str(recent) and _titles(app) == {"Recent"}
    app.close()

"""Opening a file draws its saved picture before the store is open, then keeps it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any


def _laid_out(demo_template: Path, tmp_path: Path, name: str) -> Path:
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.layout import compute_layout

    path = tmp_path / name
    shutil.copy(demo_template, path)
    with MemoryStore.open(path) as store:
        inp = store.layout_input()
        store.save_positions(inp.ids, compute_layout(inp, seconds=1.0))
    return path


def _window(qtbot: Any):  # type: ignore[no-untyped-def]
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(":memory:"))
    window = MainWindow(app)
    window.files.dialogs = False
    qtbot.addWidget(window)
    return app, window


def test_the_picture_is_drawn_from_the_file_then_adopted(qtbot, demo_template, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = _laid_out(demo_template, tmp_path, "a.memgraph")
    app, window = _window(qtbot)
    previews: list[Any] = []
    window.files.previewed.connect(
        lambda _snap, _stamp: previews.append(
            (window.graph_view.scene, window.graph_view.preview_stamp, app.store.path)
        )
    )
    window.open_path(str(path))
    qtbot.waitUntil(lambda: bool(previews), timeout=10000)
    preview_scene, stamp, store_then = previews[0]
    assert preview_scene.placed.all() and stamp is not None
    assert store_then == ":memory:"  # drawn before the store was in
    qtbot.waitUntil(lambda: not window.files.opening, timeout=10000)
    assert window.graph_view.scene is preview_scene  # same content: the picture is kept
    assert window.graph_view.preview_stamp is None
    assert not window.graph_view.layout_job.running
    active = {n.id for n in app.store.graph.nodes.values() if not n.archived}
    assert set(preview_scene.ids) == active
    window.close()
    app.close()


def test_a_file_changed_while_opening_is_drawn_from_the_store(
    qtbot, demo_template, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    from memgraph_gui.core import MemoryStore

    path = _laid_out(demo_template, tmp_path, "b.memgraph")
    app, window = _window(qtbot)
    seen: list[Any] = []

    def change_the_file(_snap: object, _stamp: object) -> None:  # an agent writes meanwhile
        seen.append(window.graph_view.scene)
        with MemoryStore.open(path, origin="agent") as other:
            other.write_api().create_node(type="location_state", title="Written meanwhile")

    window.files.previewed.connect(change_the_file)
    window.open_path(str(path))
    qtbot.waitUntil(lambda: not window.files.opening, timeout=10000)
    assert seen  # the preview is delivered before the open (queued in that order)
    assert window.graph_view.scene is not seen[0]  # the stamps differ: drawn from the store
    titles = {app.node(i).title for i in window.graph_view.scene.ids}
    assert "Written meanwhile" in titles
    window.close()
    app.close()


def test_a_failed_open_after_the_preview_draws_the_open_memory_again(
    qtbot, demo_template, tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.domain.errors import MemgraphError

    path = _laid_out(demo_template, tmp_path, "c.memgraph")
    app, window = _window(qtbot)
    real_open = MemoryStore.open

    def preview_then_refuse(target: object, **kwargs: object) -> MemoryStore:
        real_open(target, **kwargs).close()  # reads the rows, so the picture is delivered
        raise MemgraphError("STORE_BUSY", "the memory store is busy")

    drawn: list[Any] = []
    window.files.previewed.connect(
        lambda _snap, stamp: drawn.append((stamp, window.graph_view.scene.n))
    )
    monkeypatch.setattr(MemoryStore, "open", preview_then_refuse)
    window.open_path(str(path))
    qtbot.waitUntil(lambda: not window.files.opening, timeout=10000)
    monkeypatch.setattr(MemoryStore, "open", real_open)
    assert len(drawn) == 1 and drawn[0][1] > 0  # the failing file's picture was drawn first
    assert [p.code for p in window.problems_shown] == ["STORE_BUSY"]
    assert window.graph_view.preview_stamp is None
    assert window.graph_view.scene is not None and window.graph_view.scene.n == 0
    assert app.store.path == ":memory:"
    window.close()
    app.close()


def test_a_click_in_the_picture_of_a_file_that_failed_selects_nothing_later(
    qtbot, demo_template, tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """The node clicked in a failed file's picture is not selected in the next file opened
    (a copy with the same ids and no saved layout, so no picture of its own)."""
    import shutil

    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.domain.errors import MemgraphError
    from memgraph_gui.views.qt import Qt

    path = _laid_out(demo_template, tmp_path, "e.memgraph")
    unlaid = tmp_path / "f.memgraph"
    shutil.copy(demo_template, unlaid)
    app, window = _window(qtbot)
    graph = window.graph_view
    real_open = MemoryStore.open

    def preview_then_refuse(target: object, **kwargs: object) -> MemoryStore:
        real_open(target, **kwargs).close()
        raise MemgraphError("STORE_BUSY", "the memory store is busy")

    clicked: list[str] = []

    def click(_snap: object, _stamp: object) -> None:
        graph._on_node_clicked(0, Qt.KeyboardModifier.NoModifier)
        clicked.append(graph.scene.ids[0])

    window.files.previewed.connect(click)
    monkeypatch.setattr(MemoryStore, "open", preview_then_refuse)
    window.open_path(str(path))
    qtbot.waitUntil(lambda: not window.files.opening, timeout=10000)
    monkeypatch.setattr(MemoryStore, "open", real_open)
    assert clicked
    window.open_path(str(unlaid))
    qtbot.waitUntil(lambda: app.store.path == str(unlaid), timeout=10000)
    qtbot.wait(50)
    assert app.node(clicked[0]) is not None  # the same ids are there ...
    assert app.selection.current is None  # ... but the click was for the file that failed
    window.close()
    app.close()


def test_the_preview_shows_titles_and_a_click_selects_once_open(
    qtbot, demo_template, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    path = _laid_out(demo_template, tmp_path, "d.memgraph")
    app, window = _window(
        qtbot,
    )
    graph = window.graph_view
    clicked: list[str] = []

    def click_while_opening(_snap: object, _stamp: object) -> None:
        scene = graph.scene
        row = next(r for r, title in enumerate(scene.titles) if title)
        assert graph._title_of(scene.ids[row]) == scene.titles[row]  # hover text, store not open
        graph._on_node_clicked(row, Qt.KeyboardModifier.NoModifier)
        clicked.append(scene.ids[row])
        assert app.selection.current is None  # nothing to select in yet

    from memgraph_gui.views.qt import Qt

    window.files.previewed.connect(click_while_opening)
    window.open_path(str(path))
    qtbot.waitUntil(lambda: bool(clicked) and app.selection.current == clicked[0], timeout=10000)
    assert window.inspector.node_id == clicked[0]
    assert graph.scene.titles == ()  # titles come from the store now
    window.close()
    app.close()

"""A window opening a memory whose picture is kept beside its layout draws that picture first
and keeps it once the store is in (no second read of the graph); a stale one is never drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.views.test_open_race import _store_file, _window

TITLES = ["Harbour", "Lighthouse", "Old mill", "Bridge"]


@pytest.fixture
def kept_file(tmp_path: Path) -> Path:
    from memgraph_gui.core import MemoryStore

    path = _store_file(tmp_path, "kept.memgraph", TITLES)
    with MemoryStore.open(path, create=False) as store:
        assert store.refresh_picture(min_nodes=1)
    return path


def _open(qtbot: Any, path: Path) -> tuple[Any, Any, list[Any], list[str]]:
    """Open ``path`` in a new window; what was previewed (snapshots) and how the store's open
    read its picture."""
    from memgraph_gui.core.storage import store as store_module

    app, window = _window(qtbot)
    drawn: list[Any] = []
    ways: list[str] = []
    status = window.status
    window.files.previewed.connect(
        lambda snap, _stamp: drawn.append(
            (snap, view.scene, status.file.text(), status.counts.text())
        )
    )
    view = window.graph_view
    real_rows, real_kept = store_module.deliver, store_module.deliver_picture
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store_module, "deliver", lambda *a: (ways.append("rows"), real_rows(*a)))
        patch.setattr(
            store_module, "deliver_picture", lambda *a: (ways.append("kept"), real_kept(*a))
        )
        window.open_path(str(path))
        qtbot.waitUntil(lambda: app.store.path == str(path), timeout=10000)
        qtbot.waitUntil(lambda: not window.files.opening, timeout=10000)
    return app, window, drawn, ways


def test_the_kept_picture_is_drawn_and_kept_when_the_store_is_in(
    qtbot: Any, kept_file: Path
) -> None:
    app, window, drawn, ways = _open(qtbot, kept_file)
    assert ways == ["kept"] and len(drawn) == 1
    (picture, scene, named, counted) = drawn[0]
    assert named == kept_file.name and counted == "opening…"  # not the empty stand-in's
    assert window.status.file.text() == kept_file.name
    assert window.status.counts.text().startswith(f"{len(TITLES)} nodes")
    view = window.graph_view
    qtbot.waitUntil(lambda: view.preview_stamp is None, timeout=10000)
    qtbot.wait(200)
    assert view.scene is scene and scene.ids == picture.ids  # adopted, not read again
    assert {app.node(i).title for i in view.scene.ids} == set(TITLES)
    assert set(picture.titles) == set(TITLES)
    app.close()


def test_a_stale_kept_picture_is_not_drawn(qtbot: Any, kept_file: Path) -> None:
    from memgraph_gui.core import MemoryStore

    with MemoryStore.open(kept_file, create=False) as store:
        node = next(n for n in store.graph.nodes.values() if n.title == "Bridge")
        store.write_api().edit_node(id=node.id, title="Stone bridge")
    app, window, drawn, ways = _open(qtbot, kept_file)
    assert ways == ["rows"] and len(drawn) == 1
    assert "Stone bridge" in drawn[0][0].titles and "Bridge" not in drawn[0][0].titles
    qtbot.waitUntil(lambda: window.graph_view.preview_stamp is None, timeout=10000)
    assert {app.node(i).title for i in window.graph_view.scene.ids} == {
        *TITLES[:3],
        "Stone bridge",
    }
    app.close()


def test_after_an_agents_injection_turn_the_kept_picture_is_still_adopted(
    qtbot: Any, kept_file: Path
) -> None:
    """The picture was made before the change; it is the store's content all the same, and is
    handed over with the store's stamp as of the open, which the window adopts."""
    from memgraph_gui.core import MemoryStore

    with MemoryStore.open(kept_file, create=False) as store:
        some = next(iter(store.graph.nodes))
        store.write_api().set_injection_state({"recallSelectedIds": [some]})
    app, window, drawn, ways = _open(qtbot, kept_file)
    assert ways == ["kept"]
    view = window.graph_view
    qtbot.waitUntil(lambda: view.preview_stamp is None, timeout=10000)
    qtbot.wait(200)
    assert view.scene is drawn[0][1]
    app.close()


def test_the_find_index_is_made_before_the_window_has_the_store(
    qtbot: Any, kept_file: Path
) -> None:
    """The first find of a big memory built its index on the GUI thread (~1.7 s at 200k)."""
    app, window, _drawn, _ways = _open(qtbot, kept_file)
    index = app.store.peek_graph._indexes.get("find")
    assert index is not None and not index._pending  # built, every node in its blocks
    window.find_box.setText("Lighthouse")
    qtbot.waitUntil(lambda: window.find_stepper.label.text() != "", timeout=10000)
    qtbot.wait(400)  # the timeline's own filter pause (180 ms) ends before the store closes
    app.close()

"""A File ▸ Open lets go of the memory it leaves: once the window has switched, nothing (the app
model, the views, their caches, signal connections, the undo mirror) keeps the previous store or
its graph alive, so a run of opens holds one graph, not one per open (issue 19)."""

from __future__ import annotations

import gc
import shutil
import weakref
from pathlib import Path
from typing import Any


def _window(qtbot: Any) -> tuple[Any, Any]:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(":memory:"))
    window = MainWindow(app)
    window.files.dialogs = False
    qtbot.addWidget(window)
    window.show()
    return app, window


def _open(qtbot: Any, app: Any, window: Any, path: Path) -> None:
    window.files.open_path(str(path))
    qtbot.waitUntil(lambda: app.store.path == str(path), timeout=20000)
    qtbot.waitUntil(window.settled, timeout=20000)


def test_the_memory_left_by_an_open_is_freed(qtbot, demo_template: Path, tmp_path: Path) -> None:
    files = [tmp_path / f"memory-{i}.memgraph" for i in range(3)]
    for path in files:
        shutil.copy(demo_template, path)
    app, window = _window(qtbot)
    left: list[tuple[weakref.ref[Any], weakref.ref[Any]]] = []
    for path in files:
        _open(qtbot, app, window, path)
        ids = app.timeline_ids()
        app.selection.select([ids[0]])  # the inspector and the graph view show a node
        app.apply_sync(lambda w, i=ids[1]: w.edit_node(id=i, title="Seen"))  # an undo step
        qtbot.waitUntil(window.settled, timeout=20000)
        with app.store.reading() as graph:
            left.append((weakref.ref(app.store), weakref.ref(graph)))
    qtbot.wait(50)  # deferred refreshes of the views run
    gc.collect()
    store_refs, graph_refs = zip(*left[:-1], strict=True)
    assert [ref() for ref in store_refs] == [None, None]
    assert [ref() for ref in graph_refs] == [None, None]
    assert left[-1][0]() is app.store

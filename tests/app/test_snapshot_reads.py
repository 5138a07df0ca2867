"""The graph view's snapshot holds the store lock only to look up lists made before: a new
graph comes with them (``warm``, before it is published), and the saved positions (SQL and a
50k dict) are read off the lock; the GUI thread's reads waited ~20 ms for both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.app import graph_data
from memgraph_gui.app.reads import warm
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.graph import picture
from memgraph_gui.core.storage import layout_io


def test_a_new_graph_is_warmed_with_the_snapshot_lists(demo_store: Any) -> None:
    with demo_store.reading() as graph:
        warm(graph)
        timeline, live, keys = picture.snapshot_lists(graph)
        assert picture.snapshot_lists(graph)[1] is live  # memoised, not copied again
        assert timeline == graph.timeline_ids() and keys == list(graph.edges)
        assert [node.id for node in live] == timeline


def test_a_warmed_graph_gives_its_snapshot_ready_made_rows_equal_to_fresh_ones(
    demo_store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``warm`` makes the view's rows; a snapshot then computes none (it only adds the
    positions) and gives the same arrays as one computed from the lists, read-only."""
    import numpy as np

    fresh = graph_data.store_snapshot(demo_store)
    with demo_store.reading() as graph:
        assert graph.memoised(picture.GRAPH_ROWS) is None  # not warmed: computed per snapshot
        warm(graph)
        made = graph.memoised(picture.GRAPH_ROWS)
    assert made is not None

    def computed(*_args: Any) -> Any:
        raise AssertionError("a warmed graph's rows are computed again")

    monkeypatch.setattr(layout_io, "drawn_rows", computed)
    snap = graph_data.store_snapshot(demo_store)
    for name in ("ids", "types", "depths", "rollups", "parents", "edges", "hierarchy"):
        assert np.array_equal(np.asarray(getattr(snap, name)), getattr(fresh, name)), name
    assert np.array_equal(snap.pos, fresh.pos, equal_nan=True)
    assert snap.edges is made["edges"] and not snap.edges.flags.writeable


def test_a_write_drops_the_snapshot_lists(demo_store: Any) -> None:
    with demo_store.reading() as graph:
        before = picture.snapshot_lists(graph)
    demo_store.write_api().create_node(type="location_state", title="Added")
    with demo_store.reading() as graph:
        after = picture.snapshot_lists(graph)
    assert after is not before and len(after[0]) == len(before[0]) + 1


def test_a_write_drops_the_warmed_rows_and_the_next_snapshot_shows_it(demo_store: Any) -> None:
    with demo_store.reading() as graph:
        warm(graph)
    made = demo_store.write_api().create_node(type="location_state", title="Added")
    with demo_store.reading() as graph:
        assert graph.memoised(picture.GRAPH_ROWS) is None
    assert made["id"] in graph_data.store_snapshot(demo_store).ids


def test_a_snapshot_reads_positions_and_pins_off_the_store_lock(
    demo_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    path = tmp_path / "p.memgraph"
    shutil.copy(demo_template, path)
    with MemoryStore.open(path) as store:
        lock = store.storage.lock
        held: list[bool] = []
        real = layout_io.positions.read_positions

        def reading(conn: Any) -> Any:
            held.append(lock._is_owned())
            return real(conn)

        monkeypatch.setattr(layout_io.positions, "read_positions", reading)
        snap = graph_data.store_snapshot(store)
        assert held == [False] and len(snap.ids) > 0  # (pins: the graph's meta, no SQL)


def test_the_app_layers_reads_beside_its_watcher_never_call_sqlite(
    demo_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window's reads (the panes', on the GUI thread) leave catching up to the app's
    watcher: none of them asks SQLite for the data version."""
    import shutil
    import threading

    from memgraph_gui.app.app_model import AppModel
    from tests.core.test_watched_reads import data_version_callers

    path = tmp_path / "w.memgraph"
    shutil.copy(demo_template, path)
    app = AppModel(MemoryStore.open(path))
    callers = data_version_callers(monkeypatch)
    first = app.timeline_ids()[0]
    for _ in range(20):
        app.counts()
        app.edges_of(first)
        app.timeline_rows(None)
    assert threading.current_thread().name not in callers
    app.close()

"""The read-only file preview the window draws while a store opens."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from memgraph_gui.core import MemoryStore


def test_a_preview_has_what_the_graph_draws_and_the_store_stamp(demo_store) -> None:  # type: ignore[no-untyped-def]
    store = demo_store
    ids = [n.id for n in store.graph.nodes.values() if not n.archived][:3]
    store.save_positions(ids, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    store.write_api().set_pins({ids[0]: [9.0, 9.0]})
    preview = MemoryStore.preview(store.path)
    assert preview is not None
    active = {n.id for n in store.graph.nodes.values() if not n.archived}
    assert {row[0] for row in preview.nodes} == active
    assert len(preview.edges) == len(store.graph.edges)
    assert sorted(preview.positions) == [(ids[0], 1.0, 2.0), (ids[1], 3.0, 4.0), (ids[2], 5.0, 6.0)]
    assert preview.pins == {ids[0]: (9.0, 9.0)}
    assert preview.stamp == store.stamp
    store.write_api().edit_node(id=ids[1], title="changed")
    assert MemoryStore.preview(store.path).stamp != preview.stamp  # type: ignore[union-attr]


def test_no_preview_of_files_that_are_not_stores(tmp_path: Path) -> None:
    notes = tmp_path / "notes.memgraph"
    notes.write_text("not sqlite at all" * 50)
    foreign = tmp_path / "foreign.memgraph"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    conn.close()
    for path in (notes, foreign, tmp_path / "missing.memgraph"):
        assert MemoryStore.preview(path) is None
    assert MemoryStore.preview(":memory:") is None
    before = foreign.read_bytes()
    MemoryStore.preview(foreign)
    assert foreign.read_bytes() == before and not Path(str(foreign) + "-wal").exists()

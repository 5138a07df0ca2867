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
    graph = store.graph
    active = {n.id for n in graph.nodes.values() if not n.archived}
    assert {row[0] for row in preview.nodes} == active
    assert len(preview.edges) == len(graph.edges)
    saved = sorted((r[0], r[4], r[5]) for r in preview.nodes if r[4] is not None)
    assert saved == [(ids[0], 1.0, 2.0), (ids[1], 3.0, 4.0), (ids[2], 5.0, 6.0)]
    assert preview.positioned == 3
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


def test_the_snapshot_from_a_preview_equals_the_one_from_the_store(demo_store) -> None:  # type: ignore[no-untyped-def]
    """Same rows per id, same edges (as id pairs), same positions and pins."""
    import numpy as np

    from memgraph_gui.app.graph_data import _read_graph, _with_positions, snapshot_from_preview
    from memgraph_gui.core.layout import compute_layout

    store = demo_store
    inp = store.layout_input()
    store.save_positions(inp.ids, compute_layout(inp, seconds=0.5))
    store.write_api().set_pins({inp.ids[0]: [7.0, 8.0]})
    quick = snapshot_from_preview(MemoryStore.preview(store.path))  # type: ignore[arg-type]
    with store.reading() as graph:
        full = _with_positions(_read_graph(graph), store.positions(), store.pins())
    assert set(quick.ids) == set(full.ids)
    at = {node_id: row for row, node_id in enumerate(quick.ids)}
    perm = np.array([at[i] for i in full.ids])
    assert [quick.types[r] for r in perm] == list(full.types)
    assert np.array_equal(quick.depths[perm], full.depths)
    assert np.array_equal(quick.rollups[perm], full.rollups)
    assert np.allclose(quick.pos[perm], full.pos) and np.array_equal(
        quick.pinned[perm], full.pinned
    )

    def pairs(snap):  # type: ignore[no-untyped-def]
        return sorted(
            (snap.ids[a], snap.ids[b], bool(h))
            for (a, b), h in zip(snap.edges.tolist(), snap.hierarchy, strict=True)
        )

    assert pairs(quick) == pairs(full)

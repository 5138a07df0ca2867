"""The open-time preview the window draws while a store finishes opening."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.storage.preview import StorePreview


def _open_with_preview(path: str) -> tuple[MemoryStore, list[StorePreview]]:
    seen: list[StorePreview] = []
    return MemoryStore.open(path, create=False, on_preview=seen.append), seen


def test_a_preview_has_what_the_graph_draws_and_the_store_stamp(demo_store) -> None:  # type: ignore[no-untyped-def]
    store = demo_store
    ids = [n.id for n in store.graph.nodes.values() if not n.archived][:3]
    store.save_positions(ids, np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    store.write_api().set_pins({ids[0]: [9.0, 9.0]})
    store.write_api().delete_node(id=ids[2])
    reopened, seen = _open_with_preview(store.path)
    with reopened:
        [preview] = seen
        graph = reopened.graph
        active = [n for n in graph.nodes.values() if not n.archived]
        assert preview.ids == tuple(n.id for n in active)  # ord order, archived left out
        assert preview.types == tuple(n.type for n in active)
        assert preview.titles == tuple(n.title for n in active)
        assert preview.depths == tuple(n.semantic_depth for n in active)
        assert list(map(bool, preview.rollups)) == [n.semantic_rollup for n in active]
        edges = sorted(zip(preview.sources, preview.kinds, preview.targets, strict=True))
        assert edges == sorted(graph.edges)
        assert preview.positions[ids[1]] == (3.0, 4.0)
        assert preview.pins == {ids[0]: (9.0, 9.0)}
        assert preview.positioned == 2  # ids[0] (pinned) and ids[1]; ids[2] is archived
        assert preview.stamp == reopened.stamp


def test_a_failing_preview_is_logged_and_the_store_still_opens(
    demo_store, caplog: pytest.LogCaptureFixture
) -> None:  # type: ignore[no-untyped-def]
    def broken(_preview: StorePreview) -> None:
        raise RuntimeError("boom")

    with MemoryStore.open(demo_store.path, on_preview=broken) as reopened:
        assert len(reopened.graph.nodes) == len(demo_store.graph.nodes)
    assert "preview failed" in caplog.text


def test_no_preview_of_files_that_are_not_stores(tmp_path: Path) -> None:
    notes = tmp_path / "notes.memgraph"
    notes.write_text("not sqlite at all" * 50)
    foreign = tmp_path / "foreign.memgraph"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    conn.close()
    before = foreign.read_bytes()
    for path in (notes, foreign):
        seen: list[StorePreview] = []
        with pytest.raises(MemgraphError):
            MemoryStore.open(path, create=False, on_preview=seen.append)
        assert seen == []
    assert foreign.read_bytes() == before


def test_the_snapshot_from_a_preview_equals_the_one_from_the_store(demo_store) -> None:  # type: ignore[no-untyped-def]
    """Same rows per id, same edges (as id pairs), same positions and pins."""
    from memgraph_gui.app.graph_data import snapshot_from_preview, store_snapshot
    from memgraph_gui.core.layout import compute_layout

    store = demo_store
    inp = store.layout_input()
    store.save_positions(inp.ids, compute_layout(inp, seconds=0.5))
    store.write_api().set_pins({inp.ids[0]: [7.0, 8.0]})
    store.write_api().delete_node(id=inp.ids[1])
    reopened, seen = _open_with_preview(store.path)
    with reopened:
        quick = snapshot_from_preview(seen[0])
        full = store_snapshot(reopened)
    assert set(quick.ids) == set(full.ids) and inp.ids[1] not in quick.ids
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

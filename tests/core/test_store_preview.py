"""The open-time preview the window draws while a store finishes opening: a ``Picture`` of the
file's saved layout, taken from its rows (no picture kept, or a stale one)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.graph.picture import Picture
from tests.core.test_stored_picture import picture_content

Seen = list[tuple[Picture, tuple[str, int]]]


def _open_with_preview(path: str) -> tuple[MemoryStore, Seen]:
    seen: Seen = []
    store = MemoryStore.open(path, create=False, on_preview=lambda p, s: seen.append((p, s)))
    return store, seen


def _laid_out(store: MemoryStore) -> list[str]:
    inp = store.layout_input()
    store.save_positions(inp.ids, np.arange(2.0 * len(inp.ids)).reshape(-1, 2))
    return list(inp.ids)


def test_a_preview_is_the_picture_the_store_draws_with_its_stamp(demo_store) -> None:  # type: ignore[no-untyped-def]
    store = demo_store
    ids = _laid_out(store)
    store.write_api().set_pins({ids[0]: [9.0, 9.0]})
    store.write_api().delete_node(id=ids[2])
    reopened, seen = _open_with_preview(store.path)
    with reopened:
        [(picture, stamp)] = seen
        assert stamp == reopened.stamp
        full = reopened.picture()
        assert set(picture.ids) == set(full.ids) and ids[2] not in picture.ids  # archived out
        assert picture_content(picture, titles=False) == picture_content(full, titles=False)
        active = [n for n in reopened.graph.nodes.values() if not n.archived]
        assert picture.ids == tuple(n.id for n in active)  # in ``ord`` order
        assert picture.titles == tuple(n.title for n in active)
        row = picture.ids.index(ids[0])
        assert picture.pos[row].tolist() == [9.0, 9.0] and picture.pinned[row]


def test_no_preview_while_a_node_has_no_saved_place(demo_store) -> None:  # type: ignore[no-untyped-def]
    store = demo_store
    ids = store.layout_input().ids
    store.save_positions(ids[1:], np.zeros((len(ids) - 1, 2)))
    reopened, seen = _open_with_preview(store.path)
    with reopened:
        assert seen == []  # laid out once open instead


def test_a_failing_preview_is_logged_and_the_store_still_opens(
    demo_store, caplog: pytest.LogCaptureFixture
) -> None:  # type: ignore[no-untyped-def]
    _laid_out(demo_store)

    def broken(_picture: Picture, _stamp: tuple[str, int]) -> None:
        raise RuntimeError("boom")

    with MemoryStore.open(demo_store.path, on_preview=broken) as reopened:
        assert len(reopened.graph.nodes) == len(demo_store.graph.nodes)
    assert "preview failed" in caplog.text


def test_no_preview_of_files_that_are_not_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph_gui.core.storage import store as store_module

    seen: list[object] = []
    monkeypatch.setattr(store_module, "deliver", lambda *a: seen.append(a))
    monkeypatch.setattr(store_module, "deliver_picture", lambda *a: seen.append(a))
    notes = tmp_path / "notes.memgraph"
    notes.write_text("not sqlite at all" * 50)
    foreign = tmp_path / "foreign.memgraph"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
    conn.close()
    before = foreign.read_bytes()
    for path in (notes, foreign):
        with pytest.raises(MemgraphError):
            _open_with_preview(str(path))
    assert seen == [] and foreign.read_bytes() == before

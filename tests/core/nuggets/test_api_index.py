"""The note index (``core.nuggets.index``) stays in step with every way the graph changes: our
writes, their undo and redo, the generic write path, a reopened file."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.freeze import LazyFields
from memgraph_gui.core.nuggets import api, model, reads
from memgraph_gui.core.nuggets.index import note_index
from tests.core.nuggets.oracle_runner import ticking_clock


def _titles(store: MemoryStore, nugget: str = "n") -> list[str]:
    return [note["title"] for note in store.nuggets(nugget).list_notes({"includeHidden": True})]


def test_undo_redo_and_other_writes_keep_lists_and_title_lookups_right(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api, "iso_now", ticking_clock())  # no two calls in one millisecond
    nug = store.nuggets("n")
    a = nug.create_note("Alpha", "a")
    nug.create_note("Beta", "b")
    assert _titles(store) == ["Alpha", "Beta"]  # builds the index
    nug.edit_note(a["id"], "a2")  # Alpha now updated last
    assert _titles(store) == ["Beta", "Alpha"]
    store.history.undo()
    assert _titles(store) == ["Alpha", "Beta"]
    store.history.redo()
    assert _titles(store) == ["Beta", "Alpha"]
    nug.remember("k", "v")
    store.history.undo()
    assert _titles(store) == ["Beta", "Alpha"]
    assert nug.add_link("k", "Alpha", "r") is False

    # a node changed outside the Nuggets API (a title, archived): the note reads it
    with store.storage.transaction(OpKind.BATCH, "rename") as tx:
        node = tx.node(a["id"])
        assert node is not None
        tx.put_node(replace(node, title="Gamma"))
    note = nug.get_note(a["id"])
    assert note is not None and note["title"] == "Gamma"
    assert nug.add_link("gamma", "beta", "r") is True
    assert nug.add_link("alpha", "beta", "r") is False
    with store.storage.transaction(OpKind.BATCH, "archive") as tx:
        node = tx.node(a["id"])
        assert node is not None
        tx.put_node(replace(node, archived=True))
    assert _titles(store) == ["Gamma", "Beta"]  # linked in one call: a tie, storage order
    assert [n["title"] for n in nug.list_notes()] == ["Beta"]


def test_a_reopened_store_lists_the_same_notes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api, "iso_now", ticking_clock())
    path = tmp_path / "n.memgraph"
    with MemoryStore.open(path) as store:
        nug = store.nuggets("n")
        for title in ("one", "two", "three"):
            nug.create_note(title, "x", [], {"scope": "project" if title != "two" else "user"})
        nug.remember("user:k", "v")
        nug.delete_note(nug.list_notes()[0]["id"])
        before = nug.list_notes({"includeHidden": True})
        project = nug.list_notes({"scope": "project", "includeHidden": True})
    with MemoryStore.open(path) as store:
        nug = store.nuggets("n")
        assert nug.list_notes({"includeHidden": True}) == before
        assert nug.list_notes({"scope": "project", "includeHidden": True}) == project
        assert [n["title"] for n in project] == ["three", "one"]
        with store.reading() as graph:
            nodes = reads.list_notes(graph, "n", {"includeHidden": True})
            assert model.notes_json(nodes) == [model.note_json(node) for node in nodes]
            [fact] = [n["id"] for n in before if n["title"] == "user:k"]
            assert [e.node.id for e in note_index(graph).facts("n", "USER:K")] == [fact]


def test_building_the_index_leaves_the_stored_text_unparsed(tmp_path: Path) -> None:
    """A one-shot call on a big store pays one plain parse per note, not a frozen copy of
    every note kept in memory (``LazyFields`` stays text)."""
    path = tmp_path / "n.memgraph"
    with MemoryStore.open(path) as store:
        for i in range(20):
            store.nuggets("n").remember(f"key {i}", "v")
    with MemoryStore.open(path) as store:
        store.nuggets("n").remember("key 3", "w")
        assert len(store.nuggets("n").list_notes({"scope": "user"})) == 20
        untouched = [
            node.title
            for node in store.graph.nodes.values()
            if isinstance(node.fields, LazyFields) and node.fields._data is None  # type: ignore[attr-defined]
        ]
        assert len(untouched) == 19 and "key 3" not in untouched  # the one written: compared

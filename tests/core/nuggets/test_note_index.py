"""The one note index (``core.nuggets.note_index``) behind every Nuggets call and the desk's
nugget facet: built once (one parse of each note), and kept in step with every way the graph
changes: our writes, their undo and redo, the generic write path, hard deletes, a reopened file."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.freeze import LazyFields
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.nuggets import api, model, reads
from memgraph_gui.core.nuggets import note_index as note_index_module
from memgraph_gui.core.nuggets.note_index import note_index
from memgraph_gui.core.nuggets.reads import list_notes
from memgraph_gui.core.nuggets.search import search_notes
from tests.core.nuggets.oracle_runner import ticking_clock
from tests.core.nuggets.test_search import _ids, _note, _store, _write


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


def test_the_index_follows_writes_undo_and_deletes_one_note_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = _store(*(_note(f"n{i}", f"note {i}", "filler", day=1) for i in range(30)))
    graph = store.graph
    assert len(search_notes(graph, "n", "deploy", 100)) == 30
    index = note_index(graph)
    parsed: list[int] = []
    real = note_index_module.parsed_fields

    def counting(nodes: list[Node]) -> Any:
        parsed.append(len(nodes))
        return real(nodes)

    monkeypatch.setattr(note_index_module, "parsed_fields", counting)

    _write(store, _note("n7", "note 7", "deploy the server", day=5))
    top = search_notes(graph, "n", "deploy", 1)[0]
    assert top["note"]["id"] == "n7" and top["textScore"] == 1.75
    assert _ids(list_notes(graph, "n"))[-1] == "n7"  # the newest updatedAt goes last
    assert parsed == [1] and note_index(graph) is index

    store.history.undo()
    assert search_notes(graph, "n", "deploy", 1)[0]["textScore"] == 0
    assert _ids(list_notes(graph, "n"))[7] == "n7"

    _write(store, _note("n3", "note 3", "deploy", hidden=True, day=6))
    assert "n3" not in _ids(search_notes(graph, "n", "deploy", 100))
    assert _ids(search_notes(graph, "n", "deploy", 1, {"includeHidden": True})) == ["n3"]
    with store.storage.transaction(OpKind.BATCH, "hard") as tx:
        model.unstage_note(tx, "n3")
    assert "n3" not in _ids(list_notes(graph, "n", {"includeHidden": True}))
    _write(store, _note("new", "deploy", "deploy", day=7))  # takes the freed slot
    assert _ids(search_notes(graph, "n", "deploy", 1)) == ["new"]
    assert len(list_notes(graph, "n")) == 30
    assert parsed == [1, 1, 1, 0, 1]  # one note parsed per write, none for the hard delete


def test_phrase_test_over_many_blocks_is_exact() -> None:
    rng = np.random.default_rng(3)
    words = ["tea", "steam", "deploy", "我们", "x\x00y", "server", "the"]
    notes = [
        _note(f"p{i}", "t", " ".join(rng.choice(words, size=rng.integers(0, 6)).tolist()))
        for i in range(700)
    ]
    store = _store(*notes)
    index = note_index(store.graph)

    def check() -> None:
        every = index.select("n", {"includeHidden": True})
        for slots in (every, every[::7], every[300:301]):  # all, a sparse subset, one
            for phrase in ("tea", "stea", "我们 s", "x\x00y", "zz", "y s", "t\ndeploy", "e"):
                brute = [phrase in index.haystacks[s] for s in slots.tolist()]
                assert index.phrase_hits(phrase, slots).tolist() == brute, phrase

    check()
    _write(store, _note("p300", "t", "steam tea"), _note("p650", "t", "", hidden=True))
    with store.storage.transaction(OpKind.BATCH, "hard") as tx:
        model.unstage_note(tx, "p3")
    check()
    assert "p3" not in _ids(list_notes(store.graph, "n", {"includeHidden": True}))


def _counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many notes each parse of the note index reads (recorded from now on)."""
    parsed: list[int] = []
    real = note_index_module.parsed_fields

    def counting(nodes: list[Node]) -> Any:
        parsed.append(len(nodes))
        return real(nodes)

    monkeypatch.setattr(note_index_module, "parsed_fields", counting)
    return parsed


def test_every_caller_shares_one_index_and_each_note_is_parsed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """listNotes, searchNotes, the writes' lookups (remember by key, addLink by title, a hard
    delete's linkers) and the desk's nugget facet all read one index, built by one parse."""
    from memgraph_gui.app.nuggets_desk import warm_nuggets

    monkeypatch.setattr(api, "iso_now", ticking_clock())
    path = tmp_path / "n.memgraph"
    with MemoryStore.open(path) as store:
        nug = store.nuggets("n")
        nug.remember("user:k", "v")
        a = nug.create_note("Alpha", "tea")
        nug.create_note("Beta", "tea")
        store.nuggets("m").create_note("Gamma", "x")
    with MemoryStore.open(path) as store:
        parsed = _counting_parses(monkeypatch)
        with store.reading() as graph:
            assert [n.title for n in list_notes(graph, "n")] == ["user:k", "Alpha", "Beta"]
            assert len(search_notes(graph, "n", "tea", 5)) == 3
            warm_nuggets(graph)
            facet = graph.derived("app.nuggets", dict)
            assert {name: len(ids) for name, ids in facet.items()} == {"m": 1, "n": 3}
            names = [name for name in graph._indexes if str(name).startswith("nuggets.")]
            assert names == [note_index_module.INDEX_NAME]
        assert parsed == [4]  # every note once, for all of them
        nug = store.nuggets("n")
        nug.remember("USER:K", "w")  # found by key, any case
        assert nug.add_link("alpha", "beta", "r") is True  # by title
        assert nug.delete_note(a["id"], True) is True  # the linker drops its link
        beta = nug.list_notes()[-1]
        assert beta["title"] == "Beta" and beta["links"] == []
        assert [n["title"] for n in nug.list_notes()] == ["USER:K", "Beta"]
        assert parsed == [4, 1, 2, 1]  # then only the notes each write changed


@pytest.mark.parametrize("warming", ["warm_up", "window"])
def test_warm_up_and_the_windows_warm_build_the_search_part_too(
    warming: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After ``MemoryStore.warm_up`` (``memgraph call -``) or the window's ``reads.warm`` (off
    the GUI thread), the first searchNotes parses no note and tokenizes no haystack."""
    from memgraph_gui.app.reads import warm

    path = tmp_path / "n.memgraph"
    with MemoryStore.open(path) as store:
        for i in range(5):
            store.nuggets("n").remember(f"key {i}", "deploy the server")
    with MemoryStore.open(path) as store:
        parsed = _counting_parses(monkeypatch)
        if warming == "warm_up":
            store.warm_up()
        else:
            with store.reading() as graph:
                warm(graph)
        assert parsed == [5]
        tokenized: list[str] = []
        real = note_index_module.tokenize

        def counting(text: str) -> list[str]:
            tokenized.append(text)
            return real(text)

        monkeypatch.setattr(note_index_module, "tokenize", counting)
        with store.reading() as graph:
            assert len(search_notes(graph, "n", "deploy", 5)) == 5
            index = note_index(graph)
            assert not np.isnan(index.sequence_factor[: len(index.sequence_seeds)]).any()
        assert parsed == [5] and tokenized == []

"""``NuggetsApi.list_notes``' answer, a ``NoteList``: a read-only sequence of the selected notes,
each made a fresh dict when read, equal to the plain list, a snapshot of the graph at the call,
and the same JSON at the boundary as the plain list gave."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.results import to_jsonable
from memgraph_gui.core.jsonapi import call, dumps
from memgraph_gui.core.nuggets import model
from memgraph_gui.core.nuggets.model import NoteList
from memgraph_gui.core.nuggets.reads import list_notes


def _note(note_id: str, day: int, **more: Any) -> dict[str, Any]:
    return {
        "id": note_id,
        "nuggetName": "n",
        "title": f"title {note_id}",
        "content": f'content of {note_id} — 用户 喜欢 \u2028 "quoted"',
        "tags": ["n"],
        "links": [],
        "hidden": False,
        "kind": "note",
        "updatedAt": f"2026-01-0{day}T00:00:00.000Z",
        "scope": "project",
        "unknownKey": {"kept": [1, 2.5, None, True]},
        **more,
    }


@pytest.fixture
def store() -> Any:
    with MemoryStore.open(":memory:") as opened:
        with opened.storage.transaction(OpKind.BATCH, "notes") as tx:
            for note in (_note("c", 3), _note("a", 1), _note("b", 2), _note("h", 1, hidden=True)):
                model.stage_note(tx, note)
            model.stage_note(tx, _note("u", 4, scope="user"))
        yield opened


def _plain(store: MemoryStore, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return [model.note_json(node) for node in list_notes(store.graph, "n", options)]


def test_answer_is_a_read_only_sequence_equal_to_the_plain_list(store: MemoryStore) -> None:
    answer = store.nuggets("n").list_notes({"scope": "project"})
    plain = _plain(store, {"scope": "project"})
    assert isinstance(answer, NoteList) and isinstance(answer, Sequence)
    assert [note["id"] for note in plain] == ["a", "b", "c"]
    assert answer == plain and plain == answer and answer == tuple(plain)
    assert not answer != plain
    assert answer == store.nuggets("n").list_notes({"scope": "project"})  # two answers
    assert answer != plain[:2] and answer != [*plain[:2], {**plain[2], "title": "x"}]
    assert answer != "abc"
    assert answer != 3
    assert answer != store.nuggets("n").list_notes()
    assert store.nuggets("nobody").list_notes() == [] and not store.nuggets("nobody").list_notes()
    assert not hasattr(answer, "append") and not hasattr(answer, "__setitem__")
    with pytest.raises(TypeError):
        hash(answer)


def test_indexing_slicing_len_and_iteration(store: MemoryStore) -> None:
    answer = store.nuggets("n").list_notes({"includeHidden": True})
    plain = _plain(store, {"includeHidden": True})
    assert len(answer) == len(plain) == 5
    assert [answer[i] for i in range(-5, 5)] == [plain[i] for i in range(-5, 5)]
    assert list(answer) == plain and list(reversed(answer)) == plain[::-1]
    assert list(answer[0]) == list(plain[0])  # the stored key order
    for part in (
        slice(1, 3),
        slice(None, None, -1),
        slice(-2, None),
        slice(4, 1, -2),
        slice(9, 12),
    ):
        assert isinstance(answer[part], NoteList)
        assert answer[part] == plain[part] and list(answer[part]) == plain[part]
    with pytest.raises(IndexError):
        answer[5]
    with pytest.raises(IndexError):
        answer[-6]
    assert answer.index(plain[2]) == 2 and plain[3] in answer and answer.count(plain[1]) == 1


def test_each_read_is_a_fresh_dict_the_caller_may_change(store: MemoryStore) -> None:
    answer = store.nuggets("n").list_notes()
    first = answer[0]
    assert first is not answer[0]
    first["title"] = "changed"
    first["tags"].append("mine")
    assert answer[0]["title"] == "title a" and answer[0]["tags"] == ["n"]
    assert next(iter(answer)) is not next(iter(answer))
    assert answer.to_json() is not answer.to_json()
    assert model.note_json(store.graph.nodes["a"])["title"] == "title a"  # the store untouched


def test_a_later_write_does_not_change_an_answer_already_returned(store: MemoryStore) -> None:
    nug = store.nuggets("n")
    answer = nug.list_notes({"scope": "project"})
    before = _plain(store, {"scope": "project"})
    nug.edit_note("a", "new content", {"title": "new title"})
    nug.update_note("b", {"hidden": True})
    assert nug.delete_note("c", True) is True
    nug.create_note("another", "project note", None, {"scope": "project"})
    assert nug.list_notes({"scope": "project"}) != before  # the store did change
    assert answer == before and len(answer) == 3
    assert list(answer) == before and answer.to_json() == before and answer[-1]["id"] == "c"


def test_json_at_the_boundary_is_unchanged_byte_for_byte(store: MemoryStore) -> None:
    for options in ({"scope": "project"}, {"includeHidden": True}, None):
        plain = _plain(store, options)
        args: list[Any] = ["n"] if options is None else ["n", options]
        result = call(store, "listNotes", args)
        assert type(result) is list
        assert dumps(result) == dumps(plain)
        answer = store.nuggets("n").list_notes(options)
        assert dumps(to_jsonable(answer)) == dumps(plain) == dumps(list(answer))
    [one] = call(store, "listNotes", ["n", {"scope": "user"}])
    assert dumps(one) == (
        '{"id":"u","nuggetName":"n","title":"title u","content":"content of u — 用户 喜欢 '
        '\u2028 \\"quoted\\"","tags":["n"],"links":[],"hidden":false,"kind":"note",'
        '"updatedAt":"2026-01-04T00:00:00.000Z","scope":"user","unknownKey":{"kept":[1,2.5,'
        "null,true]}}"
    )


def test_repr_names_the_count_and_the_first_ids(store: MemoryStore) -> None:
    assert repr(store.nuggets("n").list_notes({"scope": "project"})) == (
        "NoteList(3 notes: ['a', 'b', 'c'])"
    )
    many = NoteList(list_notes(store.graph, "n", {"includeHidden": True}) * 2)
    assert repr(many) == "NoteList(10 notes: ['a', 'h', 'b', 'c', 'u', ...])"
    assert repr(NoteList()) == "NoteList(0 notes: [])"

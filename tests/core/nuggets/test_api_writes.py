"""The Nuggets writes, rule by rule (``../shared/nuggets-readings.md`` § Writes)."""

from __future__ import annotations

import re

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.nuggets import model
from memgraph_gui.core.nuggets.api import NuggetsApi
from memgraph_gui.core.nuggets.vector_spec import vector_spec
from tests.core.nuggets.conftest import STAMP, state, steps


def _only(nug: NuggetsApi) -> dict:
    [note] = nug.list_notes({"includeHidden": True})
    return note


def test_remember_creates_a_fact_note_with_one_stamp_and_its_system_tags(
    store: MemoryStore, nug: NuggetsApi
) -> None:
    assert nug.remember("  project:deploy-cmd ", "  pnpm \u3000 deploy\r\n\r\n\r\nnow ") is None
    note = _only(nug)
    assert re.fullmatch(r"fact-n-[0-9a-f]{8}", note["id"])
    assert note["title"] == note["sourceKey"] == "project:deploy-cmd"
    assert note["content"] == "pnpm deploy\n\nnow"
    assert note["tags"] == ["n", "scope:project", "type:project"]
    assert STAMP.match(note["createdAt"])
    assert note["createdAt"] == note["updatedAt"] == note["lastAccessedAt"]
    assert (note["hits"], note["lastHitSession"], note["hidden"], note["kind"]) == (
        0,
        "",
        False,
        "fact",
    )
    assert note["vector"] == vector_spec(note)
    assert list(note) == [
        *("id", "nuggetName", "title", "content", "tags", "links", "vector", "hidden", "kind"),
        *("sourceKey", "hits", "lastHitSession", "createdAt", "updatedAt", "lastAccessedAt"),
        *("subject", "scope", "type", "source", "confidence", "stability"),
    ]
    assert steps(store) == ["Remember 'project:deploy-cmd'"]
    [step] = store.history.steps()
    assert step.op == OpKind.NUGGETS
    node = store.graph.nodes[note["id"]]
    assert (node.level, node.type, node.title) == (model.NOTE_LEVEL, "fact", note["title"])


def test_remember_with_an_empty_key_or_value_writes_nothing(
    store: MemoryStore, nug: NuggetsApi
) -> None:
    before = state(store)
    assert nug.remember(" \xa0", "v") is None
    assert nug.remember("k", "\u3000\ufeff") is None
    assert state(store) == before and steps(store) == []


def test_remember_again_finds_the_fact_in_any_case_hidden_too(nug: NuggetsApi) -> None:
    nug.remember("User:Pref:Tea", "green")
    first = _only(nug)
    assert nug.delete_note(first["id"]) is True
    nug.remember("user:pref:TEA", "black", {"confidence": 0.5})
    again = _only(nug)
    assert again["id"] == first["id"] and again["createdAt"] == first["createdAt"]
    assert again["title"] == again["sourceKey"] == "user:pref:TEA"
    assert again["content"] == "black" and again["hidden"] is False
    assert "archivedAt" not in again  # seed: a visible note has none
    assert again["confidence"] == 0.5
    assert again["type"] == first["type"] == "preference"
    assert again["tags"] == first["tags"] == ["n", "scope:user", "type:preference", "preferences"]


def test_create_note_normalises_and_orders_tags(nug: NuggetsApi, store: MemoryStore) -> None:
    named = store.nuggets("My Work")
    note = named.create_note(" Learn the style ", "a \t b", [" Foo  Bar ", "foo-bar", "", "X"])
    assert note["id"].startswith("note-My Work-")
    assert note["title"] == "Learn the style" and note["content"] == "a b"
    assert note["tags"] == [
        *("my-work", "learnings", "style", "foo-bar", "x"),
        *(f"scope:{note['scope']}", f"type:{note['type']}"),
    ]
    assert "sourceKey" not in note
    assert nug.list_notes() == []  # another nugget's notes are not ours
    assert named.get_note(note["id"]) == note


def test_add_link_on_both_ends_deduped_and_refused_for_one_note(
    store: MemoryStore, nug: NuggetsApi
) -> None:
    a = nug.create_note("Alpha", "x")
    b = nug.create_note("Beta", "y")
    assert nug.add_link(" alpha ", b["id"], " because\u3000 so ") is True
    a1, b1 = nug.get_note(a["id"]), nug.get_note(b["id"])
    assert a1 is not None and b1 is not None
    assert a1["links"] == [{"to": b["id"], "reason": "because so", "createdAt": a1["updatedAt"]}]
    assert b1["links"] == [{"to": a["id"], "reason": "because so", "createdAt": a1["updatedAt"]}]
    assert set(store.graph.edges) == {
        (a["id"], model.LINK_EDGE, b["id"]),
        (b["id"], model.LINK_EDGE, a["id"]),
    }
    assert nug.add_link(a["id"], "BETA", "BECAUSE SO") is True  # a duplicate: old link kept
    a2 = nug.get_note(a["id"])
    assert a2 is not None and a2["links"] == a1["links"] and a2["updatedAt"] >= a1["updatedAt"]
    before = state(store)
    assert nug.add_link("alpha", a["id"], "self") is False
    assert nug.add_link("alpha", "missing", "x") is False
    assert state(store) == before


def test_wrong_argument_types_raise_bad_args_naming_the_place(nug: NuggetsApi) -> None:
    with pytest.raises(MemgraphError, match=r"remember: meta\.confidence must be a number"):
        nug.remember("k", "v", {"confidence": "1"})
    with pytest.raises(MemgraphError, match=r"createNote: tags\[1\] must be a string"):
        nug.create_note("t", "c", ["a", 2])
    with pytest.raises(MemgraphError, match="BAD_ARGS"):
        nug.add_link("a", None, "r")
    with pytest.raises(MemgraphError, match=r"createNote: content holds a lone surrogate"):
        nug.create_note("t", "c\ud800")
    with pytest.raises(MemgraphError, match=r"updateNote: partial\.links\[0\] is not JSON data"):
        nug.update_note("i", {"links": [{"to": "a", "reason": "r", "x": float("nan")}]})
    assert nug.list_notes({"includeHidden": True}) == []


def test_checked_runs_the_check_inside_each_write_and_a_refusal_writes_nothing(
    tmp_path: pytest.TempPathFactory,
) -> None:
    """``checked(id, check)``: the check sees the note as another store committed it after
    this one last read (so it runs inside the write's transaction); what it raises leaves
    nothing written, for every write that touches the note; a passing check lets it through."""
    db = tmp_path / "s.memgraph"  # type: ignore[operator]
    with MemoryStore.open(db) as mine, MemoryStore.open(db) as other:
        nug = mine.nuggets("n")
        note = nug.create_note("Deploy", "pnpm deploy", [])
        nug.create_note("Other", "x", [])
        assert note is not None
        other.sync()
        theirs = other.nuggets("n")
        assert theirs.update_note(note["id"], {"title": "Deploy now"}) is not None
        after_theirs = state(other)
        seen: list[str] = []

        def refuse(stored: object) -> None:
            seen.append(stored["title"])  # type: ignore[index]
            raise MemgraphError("EDIT_CONFLICT", "moved on")

        guarded = nug.checked(note["id"], refuse)  # ``mine`` has not read their edit yet
        for write in (
            lambda: guarded.edit_note(note["id"], "new"),
            lambda: guarded.update_note(note["id"], {"subject": "x"}),
            lambda: guarded.delete_note(note["id"]),
            lambda: guarded.merge_notes("Other", note["id"], "dup"),
            lambda: guarded.add_link("Other", "Deploy now", "r"),
        ):
            with pytest.raises(MemgraphError) as raised:
                write()
            assert raised.value.code == "EDIT_CONFLICT"
        assert seen == ["Deploy now"] * 5
        mine.sync()
        assert state(mine) == after_theirs
        assert nug.checked(note["id"], lambda stored: None).edit_note(note["id"], "new")
        assert nug.get_note(note["id"])["content"] == "new"  # type: ignore[index]

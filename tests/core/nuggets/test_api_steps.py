"""Each Nuggets write is one transaction, one ChangeSet and one undo step whose undo gives back
the exact prior state; a refusal and a read write nothing at all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.nuggets.api import NuggetsApi


def _world(store: MemoryStore) -> dict[str, str]:
    """Notes of two nuggets: facts, notes, links, a hidden one, hits. Their ids by name."""
    nug, other = store.nuggets("n"), store.nuggets("o")
    nug.remember("user:tea", "green")
    nug.remember("project:cmd", "make")
    a = nug.create_note("Alpha", "line 1\nline 2", ["x"])
    b = nug.create_note("Beta", "line 2\nline 3")
    c = nug.create_note("Gamma", "g")
    nug.add_link("Alpha", "Beta", "ab")
    nug.add_link("Gamma", "Beta", "gb")
    nug.record_hit(b["id"], "s")
    nug.delete_note(c["id"])
    o = other.create_note("Other", "o")
    other.update_note(o["id"], {"links": [{"to": a["id"], "reason": "cross", "createdAt": "t"}]})
    tea = next(n for n in nug.list_notes() if n["title"] == "user:tea")
    return {"a": a["id"], "b": b["id"], "c": c["id"], "o": o["id"], "tea": tea["id"]}


Write = Callable[[NuggetsApi, dict[str, str]], Any]
WRITES: dict[str, tuple[Write, str]] = {
    "remember new": (lambda n, i: n.remember("user:coffee", "none"), "Remember 'user:coffee'"),
    "remember again": (
        lambda n, i: n.remember("USER:TEA", "black", {"confidence": 0.5}),
        "Remember 'USER:TEA'",
    ),
    "createNote": (lambda n, i: n.create_note("New", "body", ["t"]), "Create note 'New'"),
    "editNote": (
        lambda n, i: n.edit_note(i["tea"], "oolong", {"title": "user:tea2", "tags": ["q"]}),
        "Edit 'user:tea2'",
    ),
    "editNote restore": (lambda n, i: n.edit_note(i["c"], "g", {"hidden": False}), "Edit 'Gamma'"),
    "updateNote": (
        lambda n, i: n.update_note(i["a"], {"hits": 3, "scope": "project", "links": []}),
        "Update 'Alpha'",
    ),
    "deleteNote soft": (lambda n, i: n.delete_note(i["a"]), "Hide 'Alpha'"),
    "deleteNote hard": (lambda n, i: n.delete_note(i["b"], True), "Delete 'Beta'"),
    "deleteNote hard fact": (lambda n, i: n.delete_note(i["tea"], True), "Delete 'user:tea'"),
    "addLink": (lambda n, i: n.add_link("alpha", "gamma", "ag"), "Link 'Alpha' and 'Gamma'"),
    "addLink duplicate": (
        lambda n, i: n.add_link("beta", "alpha", "AB"),
        "Link 'Beta' and 'Alpha'",
    ),
    "mergeNotes": (lambda n, i: n.merge_notes("Alpha", "Beta", "dup"), "Merge 'Beta' into 'Alpha'"),
    "mergeNotes facts": (
        lambda n, i: n.merge_notes("user:tea", "project:cmd", "dup"),
        "Merge 'project:cmd' into 'user:tea'",
    ),
    "recordHit": (lambda n, i: n.record_hit(i["b"], "s"), "Record hit on 'Beta'"),
}


def _batches(store: MemoryStore) -> int:
    return int(store.storage.execute_read("SELECT count(*) FROM batches")[0][0])


@pytest.mark.parametrize("name", sorted(WRITES))
def test_a_write_is_one_step_and_its_undo_gives_back_the_exact_prior_state(
    store: MemoryStore, name: str
) -> None:
    ids = _world(store)
    write, label = WRITES[name]
    before, batches = store.dump(), _batches(store)
    seen: list[ChangeSet] = []
    store.subscribe(seen.append)
    write(store.nuggets("n"), ids)
    after = store.dump()
    assert after != before
    assert [(c.op, c.label) for c in seen] == [(OpKind.NUGGETS, label)]
    assert _batches(store) == batches + 1
    assert store.history.steps()[0].label == label
    undone = store.history.undo()
    assert undone is not None and undone.label == f"Undo {label}"
    assert store.dump() == before
    store.history.redo()
    assert store.dump() == after


REFUSALS: dict[str, tuple[Write, Any]] = {
    "remember empty key": (lambda n, i: n.remember("  ", "v"), None),
    "remember empty value": (lambda n, i: n.remember("k", "\u3000"), None),
    "editNote missing": (lambda n, i: n.edit_note("nope", "x"), None),
    "editNote other nugget": (lambda n, i: n.edit_note(i["o"], "x"), None),
    "updateNote missing": (lambda n, i: n.update_note("nope", {"title": "x"}), None),
    "deleteNote missing": (lambda n, i: n.delete_note("nope", True), False),
    "deleteNote other nugget": (lambda n, i: n.delete_note(i["o"]), False),
    "addLink same note": (lambda n, i: n.add_link(i["a"], " ALPHA ", "r"), False),
    "addLink missing": (lambda n, i: n.add_link("Alpha", "nope", "r"), False),
    "addLink other nugget": (lambda n, i: n.add_link("Alpha", "Other", "r"), False),
    "mergeNotes same": (lambda n, i: n.merge_notes("alpha", i["a"], "r"), None),
    "mergeNotes missing": (lambda n, i: n.merge_notes("Alpha", "nope", "r"), None),
    "recordHit missing": (lambda n, i: n.record_hit("nope", "s"), None),
    "getNote": (lambda n, i: n.get_note(i["c"]) and None, None),
    "listNotes": (lambda n, i: n.list_notes({"includeHidden": True}) and None, None),
}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_a_refusal_or_a_read_writes_nothing(store: MemoryStore, name: str) -> None:
    ids = _world(store)
    call, answer = REFUSALS[name]
    before, batches = store.dump(), _batches(store)
    seen: list[ChangeSet] = []
    store.subscribe(seen.append)
    assert call(store.nuggets("n"), ids) == answer
    assert store.dump() == before
    assert _batches(store) == batches and seen == []

"""Where the seed wins over the Nuggets code, and the rules the oracle scenarios cannot show
(``../shared/nuggets-readings.md``, the points marked **seed**, and our own store's rules)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.nuggets import api as api_module
from memgraph_gui.core.nuggets import model
from memgraph_gui.core.nuggets.api import NuggetsApi
from memgraph_gui.core.nuggets.vector_spec import vector_spec
from tests.core.nuggets.conftest import STAMP
from tests.core.nuggets.oracle_runner import stored_notes


def _get(nug: NuggetsApi, note_id: str) -> dict[str, Any]:
    note = nug.get_note(note_id)
    assert note is not None
    return note


def _fact(nug: NuggetsApi, key: str) -> dict[str, Any]:
    [note] = [n for n in nug.list_notes({"includeHidden": True}) if n.get("sourceKey") == key]
    return note


# -- metadata: stability and session scope (seed) -----------------------------------------------
@pytest.mark.parametrize(
    ("key", "stability"),
    [
        ("_private", "temporary"),
        ("tmp-cache", "temporary"),
        ("TMP value", "temporary"),
        ("scratch pad", "temporary"),
        ("session:topic", "temporary"),
        ("my tmp file", "durable"),  # the code: "tmp" anywhere; seed: a prefix only
        ("notes scratch", "durable"),
        ("user:tmp", "durable"),
    ],
)
def test_stability_is_temporary_only_for_the_seeds_prefixes(
    nug: NuggetsApi, key: str, stability: str
) -> None:
    nug.remember(key, "v")
    assert _fact(nug, key)["stability"] == stability


def test_a_given_session_scope_makes_a_note_temporary_unless_a_stability_is_given_or_stored(
    nug: NuggetsApi,
) -> None:
    assert nug.create_note("t", "c", [], {"scope": "session"})["stability"] == "temporary"
    given = nug.create_note("u", "c", [], {"scope": "session", "stability": "durable"})
    assert given["stability"] == "durable"
    nug.remember("colour", "blue", {"scope": "session"})
    fact = _fact(nug, "colour")
    assert (fact["scope"], fact["stability"], fact["subject"]) == (
        "session",
        "temporary",
        "user:primary",  # a given scope keeps the inferred subject
    )
    nug.remember("city", "Oslo")
    nug.remember("city", "Bergen", {"scope": "session"})  # stored durable stays
    assert _fact(nug, "city")["stability"] == "durable"
    assert _fact(nug, "city")["tags"] == ["n", "scope:user", "type:fact", "scope:session"]


# -- tags on edit (seed: the nugget tag stays, first) ---------------------------------------------
def test_edit_and_update_keep_the_nugget_tag_first(store: MemoryStore) -> None:
    nug = store.nuggets("My Work")
    note = nug.create_note("T", "c", ["a"])
    edited = nug.edit_note(note["id"], "c2", {"tags": ["X y", "a"]})
    assert edited is not None
    assert edited["tags"] == ["my-work", "x-y", "a", "scope:user", "type:note"]
    cleared = nug.edit_note(note["id"], "c3", {"tags": []})  # a given [] clears the tags
    assert cleared is not None and cleared["tags"] == ["my-work", "scope:user", "type:note"]
    updated = nug.update_note(note["id"], {"tags": ["z"], "scope": "project"})
    assert updated is not None
    assert updated["tags"] == ["my-work", "z", "scope:project", "type:note"]


def test_edit_never_re_infers_metadata_nor_adds_title_tags(nug: NuggetsApi) -> None:
    note = nug.create_note("plain", "words")
    edited = nug.edit_note(note["id"], "the project repo file", {"title": "pref: my style.md"})
    assert edited is not None and edited["title"] == "pref: my style.md"
    for name in ("subject", "scope", "type", "source", "confidence", "stability"):
        assert edited[name] == note[name]
    assert edited["tags"] == note["tags"]


# -- a visible note has no archivedAt (seed) ------------------------------------------------------
def test_restoring_by_edit_update_or_remember_drops_archived_at(nug: NuggetsApi) -> None:
    a = nug.create_note("A", "a")
    b = nug.create_note("B", "b")
    nug.remember("k", "v")
    fact = _fact(nug, "k")
    for note in (a, b, fact):
        assert nug.delete_note(note["id"]) is True
        hidden = _get(nug, note["id"])
        assert hidden["hidden"] is True and hidden["archivedAt"] == hidden["updatedAt"]
        assert STAMP.match(hidden["archivedAt"])
    restored_a = nug.edit_note(a["id"], "a", {"hidden": False})
    restored_b = nug.update_note(b["id"], {"hidden": False, "archivedAt": "2020"})
    nug.remember("K", "again")
    for note in (restored_a, restored_b, _fact(nug, "K")):
        assert note is not None and note["hidden"] is False and "archivedAt" not in note
    hidden_again = nug.edit_note(a["id"], "a", {"hidden": True})  # hiding sets no archivedAt
    assert hidden_again is not None and "archivedAt" not in hidden_again


# -- merge (seed: a link left pointing at its own note goes) ------------------------------------
def test_merge_of_linked_notes_leaves_no_self_link(store: MemoryStore, nug: NuggetsApi) -> None:
    target = nug.create_note("Target", "t")
    source = nug.create_note("Source", "s")
    nug.add_link("Target", "Source", "related")
    merged = nug.merge_notes("target", "source", "dup")
    assert merged is not None and merged["links"] == []
    gone = _get(nug, source["id"])
    assert [link["to"] for link in gone["links"]] == [target["id"]]
    assert [link["reason"] for link in gone["links"]] == ["dup"]
    assert gone["hidden"] is True
    assert gone["archivedAt"] == gone["updatedAt"] == merged["updatedAt"]
    assert merged["lastRewrittenAt"] == merged["updatedAt"]
    assert set(store.graph.edges) == {(source["id"], model.LINK_EDGE, target["id"])}


def test_merge_moves_the_nuggets_links_to_the_target_keeping_their_stamps(
    store: MemoryStore, nug: NuggetsApi
) -> None:
    target = nug.create_note("Target", "t")
    source = nug.create_note("Source", "s")
    third = nug.create_note("Third", "x")
    nug.add_link("Third", "Source", "ts")
    before = _get(nug, third["id"])
    nug.merge_notes(target["id"], source["id"], "dup")
    after = _get(nug, third["id"])
    assert after["links"] == [{**before["links"][0], "to": target["id"]}]
    assert after["updatedAt"] == before["updatedAt"]  # updatedAt untouched
    assert after["vector"] == vector_spec(after) != before["vector"]
    assert (third["id"], model.LINK_EDGE, target["id"]) in store.graph.edges
    assert (third["id"], model.LINK_EDGE, source["id"]) not in store.graph.edges


# -- hard delete: the whole store's links (all nuggets) -------------------------------------------
def test_hard_delete_drops_links_to_missing_notes_in_every_nugget(
    store: MemoryStore, nug: NuggetsApi
) -> None:
    other = store.nuggets("other")
    a = nug.create_note("A", "a")
    b = nug.create_note("B", "b")
    c = other.create_note("C", "c")
    nug.add_link("A", "B", "ab")
    nug.update_note(a["id"], {"links": [*_get(nug, a["id"])["links"], _link("ghost")]})
    other.update_note(c["id"], {"links": [_link(b["id"]), _link(c["id"]), _link("ghost")]})
    stamps = {n["id"]: n["updatedAt"] for n in stored_notes(store)}
    assert nug.delete_note(b["id"], True) is True
    assert nug.get_note(b["id"]) is None and b["id"] not in store.graph.nodes
    for note in stored_notes(store):
        assert note["links"] == []
        assert note["updatedAt"] == stamps[note["id"]]
        assert note["vector"] == vector_spec(note)
    assert not store.graph.edges


def _link(to: str) -> dict[str, str]:
    return {"to": to, "reason": "r", "createdAt": "2026-01-01T00:00:00.000Z"}


# -- hits: the fact's own counters ----------------------------------------------------------------
def test_remember_sets_the_facts_own_counters_never_record_hits(nug: NuggetsApi) -> None:
    nug.remember("k", "v")
    note_id = _fact(nug, "k")["id"]
    for session in ("a", "a", "b", "a"):
        nug.record_hit(note_id, session)
    assert (_get(nug, note_id)["hits"], _get(nug, note_id)["lastHitSession"]) == (3, "a")
    nug.remember("k", "v2")  # recordHit never fed the fact's counters
    assert (_get(nug, note_id)["hits"], _get(nug, note_id)["lastHitSession"]) == (0, "")
    nug.update_note(note_id, {"hits": 7, "lastHitSession": "s"})
    nug.record_hit(note_id, "t")
    nug.remember("k", "v3")
    assert (_get(nug, note_id)["hits"], _get(nug, note_id)["lastHitSession"]) == (7, "s")
    nug.delete_note(note_id)  # a delete takes the fact out of the list: remember starts at 0
    nug.update_note(note_id, {"hits": 4})
    nug.remember("k", "v4")
    assert (_get(nug, note_id)["hits"], _get(nug, note_id)["lastHitSession"]) == (0, "")


def test_remember_of_an_imported_fact_starts_its_counters_at_zero(store: MemoryStore) -> None:
    imported = {"id": "fact-n-00000000", "nuggetName": "n", "title": "k", "content": "v"}
    imported |= {"tags": [], "links": [], "hidden": False, "kind": "fact", "sourceKey": "k"}
    imported |= {"hits": 9, "lastHitSession": "old"}
    with store.storage.transaction(api_module.OpKind.LOAD, "import") as tx:
        model.stage_note(tx, imported)
    nug = store.nuggets("n")
    nug.remember("K", "w")
    note = _get(nug, "fact-n-00000000")
    assert (note["hits"], note["lastHitSession"], note["title"]) == (0, "", "K")


# -- ids and stamps -------------------------------------------------------------------------------
def test_a_new_id_never_reuses_one_in_the_store(
    store: MemoryStore, nug: NuggetsApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = nug.create_note("A", "a")
    taken = uuid.UUID(first["id"].removeprefix("note-n-") + "0" * 24)
    fresh = uuid.UUID("abcdef12" + "0" * 24)
    draws = iter([taken, taken, fresh])
    monkeypatch.setattr(api_module.uuid, "uuid4", lambda: next(draws))
    assert nug.create_note("B", "b")["id"] == "note-n-abcdef12"
    assert len(stored_notes(store)) == 2


def test_one_instant_per_call(nug: NuggetsApi) -> None:
    a = nug.create_note("A", "a")
    assert a["createdAt"] == a["updatedAt"] == a["lastAccessedAt"]
    nug.create_note("B", "b")
    nug.add_link("A", "B", "r")
    one, other = _get(nug, a["id"]), nug.list_notes()[-1]
    assert one["updatedAt"] == other["updatedAt"] == one["links"][0]["createdAt"]
    assert STAMP.match(one["updatedAt"])


# -- refusals and other nuggets ------------------------------------------------------------------
def test_another_nuggets_note_counts_as_missing(store: MemoryStore, nug: NuggetsApi) -> None:
    theirs = store.nuggets("other").create_note("Theirs", "x")
    mine = nug.create_note("Mine", "y")
    before = store.dump()
    assert nug.get_note(theirs["id"]) is None
    assert nug.edit_note(theirs["id"], "z") is None
    assert nug.update_note(theirs["id"], {"title": "z"}) is None
    assert nug.delete_note(theirs["id"]) is False
    assert nug.add_link(mine["id"], theirs["id"], "r") is False
    assert nug.add_link("Mine", "Theirs", "r") is False
    assert nug.merge_notes(mine["id"], theirs["id"], "r") is None
    assert nug.record_hit(theirs["id"]) is None
    assert store.nuggets("nobody").list_notes({"includeHidden": True}) == []
    assert store.dump() == before


def test_update_note_takes_fields_of_the_right_type_only(nug: NuggetsApi) -> None:
    note = nug.create_note("T", "c")
    updated = nug.update_note(
        note["id"],
        {
            "title": 5,
            "hidden": "yes",
            "hits": float("nan"),
            "confidence": float("inf"),
            "kind": "banana",
            "id": "x",
            "nuggetName": "y",
            "createdAt": "z",
            "vector": {"seed": 1, "basis": []},
        },
    )
    assert updated is not None
    assert (updated["id"], updated["nuggetName"], updated["title"]) == (note["id"], "n", "T")
    assert (updated["hidden"], updated["hits"], updated["confidence"]) == (False, 0, 0.7)
    assert updated["kind"] == "note" and updated["createdAt"] == note["createdAt"]
    assert updated["vector"] == vector_spec(updated)


def test_odd_stored_notes_are_written_over_without_a_crash(store: MemoryStore) -> None:
    odd = {"id": "note-n-0dd00000", "nuggetName": "n", "title": "Odd", "tags": ["ok", 3]}
    odd |= {"links": ["junk", {"to": "ghost", "reason": "r", "createdAt": "t"}], "kind": "note"}
    with store.storage.transaction(api_module.OpKind.LOAD, "import") as tx:
        model.stage_note(tx, odd)
    nug = store.nuggets("n")
    other = nug.create_note("Other", "x")
    assert nug.add_link("odd", "other", "r") is True
    assert _get(nug, odd["id"])["links"][0] == "junk"  # not a link: left as it is
    merged = nug.merge_notes("other", "odd", "dup")
    assert merged is not None and merged["tags"][-1] == "ok"
    assert [link["to"] for link in merged["links"]] == ["ghost"]
    assert nug.delete_note(other["id"], True) is True
    assert _get(nug, odd["id"])["links"] == []

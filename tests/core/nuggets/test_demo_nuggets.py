"""``memgraph demo --nuggets``: notes made by Nuggets' rules, written in one transaction."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.nuggets import generate_nuggets, load_nuggets_demo
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.nuggets import model
from memgraph_gui.core.nuggets.metadata import SCOPES, SOURCES, STABILITIES, TYPES
from memgraph_gui.core.nuggets.text import normalise_tags, normalise_whitespace, title_tags
from memgraph_gui.core.nuggets.vector_spec import vector_spec
from tests.core.processes import memgraph

ID = re.compile(r"^(fact|note)-(astra|webshop)-[0-9a-f]{8}$")
STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
FACT_KEYS = [
    *("id", "nuggetName", "title", "content", "tags", "links", "vector", "hidden", "kind"),
    *("sourceKey", "hits", "lastHitSession", "createdAt", "updatedAt", "lastAccessedAt"),
    *("subject", "scope", "type", "source", "confidence", "stability"),
]
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def notes() -> list[dict]:
    return generate_nuggets(1200, seed=7)


def test_same_seed_same_notes_and_another_seed_others(notes: list[dict]) -> None:
    assert generate_nuggets(1200, seed=7) == notes
    assert [n["id"] for n in generate_nuggets(1200, seed=8)] != [n["id"] for n in notes]
    assert len(notes) == 1200
    assert Counter(n["nuggetName"] for n in notes).keys() == {"astra", "webshop"}


def test_each_note_is_as_nuggets_writes_it(notes: list[dict]) -> None:
    ids = {n["id"] for n in notes}
    assert len(ids) == len(notes)
    for note in notes:
        assert ID.match(note["id"]) and note["id"].split("-")[1] == note["nuggetName"]
        assert note["id"].startswith(note["kind"] + "-")
        keys = list(note)
        own = [k for k in FACT_KEYS if k != "sourceKey" or note["kind"] == "fact"]
        assert keys[: len(own)] == own  # Nuggets' key order; then lastRewrittenAt / archivedAt
        assert set(keys[len(own) :]) <= {"lastRewrittenAt", "archivedAt"}
        for name in ("createdAt", "updatedAt", "lastAccessedAt"):
            assert STAMP.match(note[name])
        assert note["createdAt"] <= note["lastAccessedAt"] <= note["updatedAt"]
        assert note["content"] == normalise_whitespace(note["content"])
        assert note["tags"] == normalise_tags(note["tags"])
        assert note["vector"] == vector_spec(note)
        assert note["scope"] in SCOPES and note["type"] in TYPES
        assert note["source"] in SOURCES and note["stability"] in STABILITIES
        assert 0 <= note["confidence"] <= 1
        assert note["hidden"] == ("archivedAt" in note)  # a visible note has none
        if note["lastHitSession"]:
            assert note["hits"] > 0
        elif "lastRewrittenAt" not in note:  # (a merge adds the source's hits, not its session)
            assert note["hits"] == 0


def test_tags_and_metadata_follow_the_keys(notes: list[dict]) -> None:
    for note in notes:
        key, tags = note["title"], note["tags"]
        system = [note["nuggetName"], f"scope:{note['scope']}", f"type:{note['type']}"]
        lower = key.lower()
        if note["kind"] == "fact":
            assert note["sourceKey"] == key
            assert tags == [*system, *title_tags(key)]  # new fact: [nugget, scope, type, title]
            prefix = lower.split(":", 1)[0]
            if prefix in SCOPES:
                assert note["scope"] == prefix
            if lower.startswith(("session:", "_", "tmp", "scratch")):
                assert note["stability"] == "temporary"
            if ":pref:" in lower:
                assert note["type"] == "preference"
            if lower.startswith(("file:", "edited:")):
                assert (note["source"], note["confidence"]) == ("tool_observation", 0.98)
        elif "lastRewrittenAt" not in note:  # createNote: [nugget, title tags, given, scope, type]
            assert tags[0] == note["nuggetName"] and tags[-2:] == system[1:]
            assert tags[1 : 1 + len(title_tags(key))] == title_tags(key)


def test_links_are_on_both_ends_within_a_nugget(notes: list[dict]) -> None:
    by_id = {n["id"]: n for n in notes}
    merges = 0
    for note in notes:
        seen = [(link["to"], link["reason"].lower()) for link in note["links"]]
        assert len(seen) == len(set(seen))
        for link in note["links"]:
            other = by_id[link["to"]]
            assert other["nuggetName"] == note["nuggetName"] and other is not note
            assert STAMP.match(link["createdAt"])
            if link["reason"] == "merged duplicate":  # mergeNotes: the source's own link only
                merges += 1
                assert note["hidden"] and "lastRewrittenAt" in other
                continue
            back = [b for b in other["links"] if b["to"] == note["id"]]
            assert any(b["reason"] == link["reason"] for b in back)
    assert merges >= 1
    degree = sorted(len(n["links"]) for n in notes)
    assert degree[-1] >= 20 and degree[len(degree) // 2] <= 3  # a few hubs, most notes small


def test_it_reads_like_a_memory(notes: list[dict]) -> None:
    kinds = Counter(n["kind"] for n in notes)
    assert kinds["fact"] > 300 and kinds["note"] > 300
    assert sum(1 for n in notes if CJK.search(n["content"] + n["title"])) > 50
    scopes = Counter(n["scope"] for n in notes)
    assert all(scopes[s] for s in SCOPES)
    assert {"preference", "reflection", "project", "self_model"} <= {n["type"] for n in notes}
    hidden = sum(n["hidden"] for n in notes)
    assert 0 < hidden < len(notes) // 10
    assert len({n["confidence"] for n in notes}) > 5
    hits = [n["hits"] for n in notes]
    assert max(hits) >= 5 and hits.count(0) > len(hits) // 3
    days = {n["createdAt"][:10] for n in notes}
    assert len(days) > 30  # spread over weeks


def test_written_in_one_transaction_as_notes_and_links(notes: list[dict]) -> None:
    store = MemoryStore.open(":memory:")
    changes = load_nuggets_demo(store, 1200, seed=7)
    graph = store.graph
    assert len(changes.nodes_added) == len(notes) == len(graph.nodes)
    assert store.history.depth() == (1, 0)  # one undo step
    for seq, note in enumerate(notes, start=1):
        node = graph.nodes[note["id"]]
        assert model.note_json(node) == note and list(model.note_json(node)) == list(note)
        assert node.seq_to == seq and node.archived == note["hidden"]
    links = {(n["id"], link["to"]) for n in notes for link in n["links"]}
    assert set(graph.edges) == {(a, model.LINK_EDGE, b) for a, b in links}
    api = store.nuggets("astra")  # the agent goes on with the demo's notes
    fact = next(n for n in notes if n["nuggetName"] == "astra" and n["kind"] == "fact")
    api.remember(fact["sourceKey"].upper(), "changed")
    again = api.get_note(fact["id"])
    assert again is not None and again["content"] == "changed"
    assert again["createdAt"] == fact["createdAt"] and again["links"] == fact["links"]
    assert len(store.graph.nodes) == len(notes)
    store.history.undo()
    with pytest.raises(MemgraphError) as refused:
        load_nuggets_demo(store, 50, seed=1)
    assert refused.value.code == "BAD_ARGS"
    assert len(store.graph.nodes) == len(notes)


def test_cli_writes_the_demo(tmp_path: Path) -> None:
    db = tmp_path / "n.memgraph"
    done = memgraph("--db", str(db), "demo", "--nuggets", "--nodes", "300", "--seed", "3")
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert info["nodes"] == 300 and info["edges"] > 200 and info["archived"] > 0
    again = memgraph("--db", str(db), "demo", "--nuggets")
    assert again.returncode == 1 and json.loads(again.stdout)["error"]["code"] == "BAD_ARGS"

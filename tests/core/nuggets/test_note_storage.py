"""A note is a node, its links are kept as stored and mirrored as edges (``core.nuggets.model``)."""

from __future__ import annotations

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.nuggets import model
from memgraph_gui.core.nuggets.text import normalise_tags, normalise_whitespace, tokenize


def _note(note_id: str, *links: str, **extra: object) -> dict[str, object]:
    note: dict[str, object] = {"id": note_id, "nuggetName": "n", "title": note_id, "tags": []}
    note["links"] = [
        {"to": to, "reason": "r", "createdAt": "2026-01-01T00:00:00.000Z"} for to in links
    ]
    note.update({"hidden": False, "kind": "note"} | extra)
    return note


def test_links_to_existing_notes_become_edges_and_dangling_ones_stay_in_the_note() -> None:
    store = MemoryStore.open(":memory:")
    a = _note("a", "b", "gone", "b", "a", zeta=1)
    with store.storage.transaction(OpKind.BATCH, "put") as tx:
        model.stage_note(tx, _note("b", hidden=True))
        model.stage_note(tx, a)
    graph = store.graph
    assert sorted(graph.edges) == [("a", model.LINK_EDGE, "b")]
    assert model.note_json(graph.nodes["a"]) == a  # every key, in its order, dangling link kept
    assert list(model.note_json(graph.nodes["a"])) == list(a)
    b = graph.nodes["b"]
    assert (b.level, b.type, b.archived, b.seq_to) == (model.NOTE_LEVEL, "note", True, 1)
    assert graph.nodes["a"].seq_to == 2 and graph.meta["noteSeq"] == 2

    with store.storage.transaction(OpKind.BATCH, "unlink") as tx:
        model.stage_note(tx, _note("a", "gone"))
    assert not store.graph.edges
    with store.storage.transaction(OpKind.BATCH, "relink") as tx:
        model.stage_note(tx, _note("a", "b"))
    with store.storage.transaction(OpKind.BATCH, "hard") as tx:
        model.unstage_note(tx, "b")
    assert list(store.graph.nodes) == ["a"] and not store.graph.edges
    assert store.graph.nodes["a"].seq_to == 2  # a known note keeps its place


def test_text_rules_use_javascripts_whitespace() -> None:
    assert normalise_whitespace(" a\u3000\u3000b \r\n\r\n\r\n\r\nc\x1c ") == "a b\n\nc\x1c"
    assert normalise_whitespace("x\u2028 y\n\n\n") == "x y"
    assert normalise_tags([" My  Work ", "my-work", "", "\xa0"]) == ["my-work"]
    assert tokenize("The web/app-v2_x 我们 is OK a1") == ["web/app-v2_x", "ok", "a1"]

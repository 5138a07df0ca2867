"""``searchNotes`` and ``listNotes`` rule by rule (the readings' "Reads"); the note index that
answers them is tested in ``test_note_index``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.nuggets import model, vectors
from memgraph_gui.core.nuggets.metadata import infer_metadata
from memgraph_gui.core.nuggets.reads import list_notes
from memgraph_gui.core.nuggets.search import search_notes
from memgraph_gui.core.nuggets.text import normalise_tags, title_tags
from memgraph_gui.core.nuggets.vector_spec import vector_spec

STAMP = "2026-01-0{}T00:00:00.000Z"


def _note(
    note_id: str,
    title: str,
    content: str = "",
    *,
    day: int = 1,
    nugget: str = "n",
    kind: str = "note",
    hidden: bool = False,
    **meta: Any,
) -> dict[str, Any]:
    tags = normalise_tags([nugget, *title_tags(title)])
    inferred = infer_metadata(kind=kind, title=title, content=content, tags=tags, source_key=None)
    note: dict[str, Any] = {
        "id": note_id,
        "nuggetName": nugget,
        "title": title,
        "content": content,
        "tags": tags,
        "links": [],
        "hidden": hidden,
        "kind": kind,
        "updatedAt": STAMP.format(day),
        **inferred,
        **meta,
    }
    note["vector"] = vector_spec(note)
    return note


def _store(*notes: dict[str, Any]) -> MemoryStore:
    store = MemoryStore.open(":memory:")
    _write(store, *notes)
    return store


def _write(store: MemoryStore, *notes: dict[str, Any]) -> None:
    with store.storage.transaction(OpKind.BATCH, "notes") as tx:
        for note in notes:
            model.stage_note(tx, note)


def _ids(found: list[Any]) -> list[str]:
    return [r["note"]["id"] if isinstance(r, dict) else r.id for r in found]


def _raw(result: dict[str, Any]) -> float:
    note = result["note"]
    boost = (0.05 if note["stability"] == "durable" else 0) + (
        0.03 if note["scope"] in ("user", "self") else 0
    )
    text = min(result["textScore"], 1.5) / 1.5
    return 0.42 * result["vectorScore"] + 0.48 * text + boost + 0.05 * note["confidence"]


def test_score_is_a_softmax_of_the_weighted_sum_over_all_candidates() -> None:
    store = _store(
        _note("a", "deploy server", "run the deploy on the server", confidence=1.0),
        _note("b", "tea", "user likes green tea", stability="temporary", confidence=0.0),
        _note("c", "coffee", "nothing here", scope="project"),
        _note("d", "deploy notes", "deploy", day=2),
    )
    every = search_notes(store.graph, "n", "deploy server", 10)
    assert len(every) == 4
    raws = [_raw(r) for r in every]
    assert raws == sorted(raws, reverse=True)
    weights = [math.exp((raw - raws[0]) / 0.35) for raw in raws]
    for result, weight in zip(every, weights, strict=True):
        assert result["score"] == pytest.approx(weight / sum(weights), rel=1e-12)
        assert 0 <= result["score"] <= 1 and 0 <= result["vectorScore"] <= 1
        assert 0 <= result["textScore"] <= 1.75
    assert sum(r["score"] for r in every) == pytest.approx(1, rel=1e-11)
    # limit 1: the same probability (the softmax still spans all four candidates)
    (first,) = search_notes(store.graph, "n", "deploy server", 1)
    assert first == every[0] and first["score"] < 1
    assert first["note"] == model.note_json(store.graph.nodes[first["note"]["id"]])


def test_text_score_is_phrase_plus_token_share() -> None:
    store = _store(
        _note("a", "Deploy", "Run the deploy on the SERVER.\n我们喜欢喝茶", scope="project")
    )

    def text(query: str) -> float:
        return float(search_notes(store.graph, "n", query, 1)[0]["textScore"])

    assert text("deploy server") == 1.0  # no phrase; both tokens
    assert text("  ON THE server ") == 1.75  # phrase; its one token ("on", "the" stop)
    assert text("deploy missing") == 0.5
    assert text("喜欢") == 0.75  # a phrase without tokens
    assert text("   ") == 0 and text("") == 0
    assert text("on the") == 0.75  # a phrase whose tokens are all stop words
    assert text("the and") == 0  # neither
    assert text("project") == 1.75  # the scope is in the haystack, on its own line
    # the phrase spans the tag line and the subject's; "shared" is no token of the note, whose
    # token is the whole run "shared:project"
    assert text("n\nshared") == 0.75


def test_ties_keep_list_order_and_hidden_notes_count_only_when_asked() -> None:
    same = {"content": "same words", "scope": "user"}
    store = _store(
        _note("z", "twin", day=2, **same),
        _note("y", "twin", day=1, **same),
        _note("x", "twin", day=2, hidden=True, **same),
    )
    found = search_notes(store.graph, "n", "words", 5)
    assert _ids(found) == ["y", "z"]  # oldest updatedAt first, then storage order
    assert found[0]["score"] == found[1]["score"]
    with_hidden = search_notes(store.graph, "n", "words", 5, {"includeHidden": True})
    assert _ids(with_hidden) == ["y", "z", "x"]  # the seed: includeHidden applies
    assert with_hidden[0]["score"] == pytest.approx(1 / 3, rel=1e-11)


def test_filters_nuggets_and_limits() -> None:
    store = _store(
        _note("u", "tea", "user likes tea", scope="user", type="preference"),
        _note("p", "repo", "tea in the repo", scope="project", day=2),
        _note("o", "tea", "tea", nugget="other"),
    )
    graph = store.graph
    assert _ids(search_notes(graph, "n", "tea", 5, {"scope": "project"})) == ["p"]
    assert _ids(search_notes(graph, "n", "tea", 5, {"type": "preference"})) == ["u"]
    assert search_notes(graph, "n", "tea", 5, {"scope": "nope"}) == []
    assert len(search_notes(graph, "n", "tea", 5, {"scope": "", "type": None})) == 2
    assert _ids(search_notes(graph, "other", "tea")) == ["o"]
    assert search_notes(graph, "unknown", "tea") == []
    assert len(search_notes(graph, "n", "tea", 0)) == 0
    assert len(search_notes(graph, "n", "tea", -1)) == 1  # slice(0, -1)
    assert len(search_notes(graph, "n", "tea", 1.9)) == 1
    assert len(search_notes(graph, "n", "tea", None)) == 2  # the default, 5
    assert len(search_notes(graph, "n", "tea", math.nan)) == 0
    assert len(search_notes(graph, "n", "tea", math.inf)) == 2
    assert _ids(list_notes(graph, "n", {"subject": "user:primary"})) == ["u"]


def test_a_filter_term_moves_the_vector_score_only_where_metadata_meets_it() -> None:
    # query basis [query:tea, scope:user]: "scope:user" sits at position 1, where every note
    # has its "subject:..." term (seed "subj"): no effect; a subject filter does meet it
    store = _store(_note("u", "tea", "tea", scope="user"))
    plain = search_notes(store.graph, "n", "tea")[0]["vectorScore"]
    scoped = search_notes(store.graph, "n", "tea", 5, {"scope": "user"})[0]["vectorScore"]
    subject = search_notes(store.graph, "n", "tea", 5, {"subject": "user:primary"})
    assert abs(plain - 0.5) < 0.02 and abs(scoped - 0.5) < 0.02
    assert subject[0]["vectorScore"] > 0.6


def test_fhrr_primitives_match_nuggets() -> None:
    # values printed by Nuggets' own core.ts under node
    assert vectors.mulberry32(12345, 1)[0] == 0.9797282677609473
    assert vectors.term_seed("我们好") == 3834743014
    assert vectors.term_seed("ab") == 0x6261 and vectors.term_seed("") == 0
    assert vectors.term_seed("\ud800x") == int.from_bytes(b"\xef\xbf\xbdx", "little")
    assert vectors.basis_seeds([]) == (vectors.term_seed("empty"),)
    note = [
        "kind:fact",
        "subject:user:primary",
        "scope:user",
        "type:fact",
        "source:explicit_user",
        "stability:durable",
        "note:x",
        "title:ab",
        "我们好",
    ]
    query = vectors.basis_seeds(["query:foo", "subject:user:primary", "scope:user"])
    assert 2 * vectors.vector_score(query, vectors.basis_seeds(note)) - 1 == pytest.approx(
        0.3829778145498544, abs=1e-14
    )
    assert 2 * vectors.vector_score(query, vectors.basis_seeds([])) - 1 == pytest.approx(
        -0.0004308940250681661, abs=1e-14
    )
    row = vectors.unit_row(vectors.basis_seeds(note))
    direct = vectors.vector_score(vectors.basis_seeds(note), vectors.basis_seeds(note))
    assert direct == pytest.approx((float(np.dot(row, row)) + 1) / 2, abs=1e-14)
    assert float(np.dot(row, row)) == pytest.approx(1, abs=1e-12)


def test_list_notes_order_and_filters() -> None:
    store = _store(
        _note("c", "one", day=3),
        _note("a", "two", day=1, hidden=True),
        _note("b", "three", day=3),
        _note("d", "four", day=2, scope="project"),
    )
    graph = store.graph
    assert _ids(list_notes(graph, "n")) == ["d", "c", "b"]
    assert _ids(list_notes(graph, "n", {})) == ["d", "c", "b"]
    assert _ids(list_notes(graph, "n", {"includeHidden": True})) == ["a", "d", "c", "b"]
    assert _ids(list_notes(graph, "n", {"scope": "project", "includeHidden": 1})) == ["d"]

"""``vectorSearch`` with embedding profiles: the store setting, the seed's rows, vectors kept true
to the nodes' text (edits here and in another process), the keeper, ``memgraph embed``."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.luker.interop import import_luker
from memgraph_gui.core.vectors import hashed
from memgraph_gui.core.vectors.index import VectorIndex
from memgraph_gui.core.vectors.profiles import HASHED_SPEC, HashedEmbedder, ProfileSpec
from tests.core.processes import call_result, memgraph, run_python
from tests.core.vectors.fake_embeddings_server import Reply


def _node(node_id: str, title: str, summary: str = "", **extra: Any) -> dict[str, Any]:
    return {
        "id": node_id,
        "type": extra.pop("type", "event"),
        "level": "semantic",
        "title": title,
        "seqTo": extra.pop("seq", 1),
        "fields": {"summary": summary} if summary else {},
        "parentId": None,
        "childrenIds": [],
        "archived": False,
        **extra,
    }


NODES = [
    _node("e1", "Eileen betrays the king", "the betrayal at the gate", seq=1),
    _node("e2", "A quiet afternoon tea", "cakes and tea in the garden", seq=2),
    _node("e3", "艾琳背叛了国王", "城门前的背叛", seq=3),
    _node("e4", "The storm at sea", "waves and thunder", seq=4),
    _node("c1", "Eileen", type="character_sheet", seq=5),
    _node("old", "The betrayal remembered", seq=6, archived=True),
    _node("r1", "betrayal trace", type="recall_trace", seq=7),
]


def _store(path: Path | str = ":memory:") -> MemoryStore:
    store = MemoryStore.open(path)
    import_luker(store, {"nodes": {n["id"]: n for n in NODES}, "edges": []})
    return store


def _ids(rows: Any) -> list[str]:
    return [row.node.id for row in rows]


def _code(call: Any) -> str:
    with pytest.raises(MemgraphError) as info:
        call()
    return info.value.code


def test_no_profile_raises_and_never_falls_back() -> None:
    with _store() as store:
        api = store.read_api()
        assert _code(lambda: api.vector_search(query="betrayal")) == "NO_EMBEDDING_PROFILE"
        assert api.vector_search(query="  ") == ()
        store.vectors().set_profile("hashed-ngrams-v1")
        assert api.vector_search(query="betrayal")
        store.vectors().set_profile(None)
        assert _code(lambda: api.vector_search(query="betrayal")) == "NO_EMBEDDING_PROFILE"


def test_setting_the_profile_is_one_undo_step() -> None:
    with _store() as store:
        changes = store.vectors().set_profile("hashed-ngrams-v1")
        assert changes is not None and changes.label == "Use embedding profile hashed-ngrams-v1"
        assert store.vectors().set_profile(HASHED_SPEC) is None  # already: nothing written
        store.history.undo()
        assert store.vectors().profile() is None


def test_a_damaged_or_unknown_setting_is_refused_plainly() -> None:
    with _store() as store:
        with store.storage.transaction(store_op(), "damage") as tx:
            tx.set_meta("embeddingProfile", {"name": "x", "kind": "quantum"})
        api = store.read_api()
        with pytest.raises(MemgraphError) as info:
            api.vector_search(query="betrayal")
        assert info.value.code == "NO_EMBEDDING_PROFILE" and "unusable" in info.value.message
        assert _code(lambda: store.vectors().set_profile("no-such-profile")) == "BAD_ARGS"
        bad = {"name": "e", "kind": "endpoint", "baseUrl": "ftp://x", "model": "m"}
        assert _code(lambda: store.vectors().set_profile(bad)) == "BAD_ARGS"


def store_op() -> Any:
    from memgraph_gui.core.domain.changes import OpKind

    return OpKind.BATCH


def test_rows_are_the_seeds_ranked_views() -> None:
    with _store() as store:
        store.vectors().set_profile("hashed-ngrams-v1")
        api = store.read_api()
        hits = api.vector_search(query="the betrayal of the king", k=3)
        assert len(hits) == 3 and hits[0].node.id == "e1"
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True) and 0 < scores[0] <= 1
        row = hits[0].to_json()
        assert row["scoreMode"] == "vector" and row["id"] == "e1" and "fields" in row
        every = _ids(api.vector_search(query="betrayal", k=50))
        assert "old" not in every and "r1" not in every  # archived, recall diagnostics
        assert _ids(api.vector_search(query="Eileen", types=["Character_Sheet"])) == ["c1"]
        assert _ids(api.vector_search(query="国王的背叛", k=1)) == ["e3"]
        assert len(api.vector_search(query="betrayal", k=0)) == 1  # as keywordSearch: k >= 1
        assert _code(lambda: api.vector_search(query="x", k="3")) == "BAD_ARGS"
        assert _code(lambda: api.vector_search(query=3)) == "BAD_ARGS"


def test_scores_are_the_cosine_of_the_profile_vectors() -> None:
    with _store() as store:
        store.vectors().set_profile("hashed-ngrams-v1")
        hits = store.read_api().vector_search(query="waves and thunder at sea", k=1)
        text = "The storm at sea\nwaves and thunder"
        want = float(hashed.embed(["waves and thunder at sea"])[0] @ hashed.embed([text])[0])
        assert hits[0].node.id == "e4" and hits[0].score == pytest.approx(want, abs=1e-5)


def test_an_edit_here_is_searched_at_once_and_the_old_text_no_more() -> None:
    with _store() as store:
        store.vectors().set_profile("hashed-ngrams-v1")
        api = store.read_api()
        assert _ids(api.vector_search(query="waves and thunder", k=1)) == ["e4"]
        store.write_api().edit_node(id="e4", title="Dragon fire", set_fields={"summary": "ash"})
        assert _ids(api.vector_search(query="dragon fire and ash", k=1)) == ["e4"]
        hits = api.vector_search(query="waves and thunder", k=5)
        assert all(h.node.id != "e4" or h.score < 0.3 for h in hits)
        store.write_api().delete_node(id="e4")
        assert "e4" not in _ids(api.vector_search(query="dragon fire and ash", k=10))


def test_vectors_are_stored_per_profile_and_reused_when_reopened(tmp_path: Path) -> None:
    path = tmp_path / "v.memgraph"
    with _store(path) as store:
        store.vectors().set_profile("hashed-ngrams-v1")
        report = store.vectors().embed_all()
        assert report.embedded == 5 and report.reused == 0  # 7 nodes: 1 archived, 1 diagnostic
        assert store.vectors().status().stored == 5
    raw = sqlite3.connect(path)
    rows = raw.execute("SELECT profile, id, length(vec), length(digest) FROM vectors").fetchall()
    raw.close()
    assert {r[0] for r in rows} == {"hashed-ngrams-v1"} and len(rows) == 5
    assert {r[2] for r in rows} == {hashed.DIM * 4} and {r[3] for r in rows} == {16}
    with MemoryStore.open(path) as store:
        assert store.vectors().embed_all().embedded == 0  # every stored one is still true


def test_another_processs_edit_is_never_searched_with_the_old_vector(tmp_path: Path) -> None:
    """Process B changes a node's text with a plain library write (no keeper: nothing
    re-embeds it); A, which has the old vector in memory and in the file, must not use it."""
    path = tmp_path / "v.memgraph"
    with _store(path) as store:
        store.vectors().set_profile("hashed-ngrams-v1")
        store.vectors().embed_all()
        api = store.read_api()
        assert _ids(api.vector_search(query="cakes and tea in the garden", k=1)) == ["e2"]
        child = run_python(
            """
            import sys
            from memgraph_gui.core import MemoryStore
            with MemoryStore.open(sys.argv[1]) as s:
                s.write_api().edit_node(id="e2", title="Siege engines", set_fields={"summary": "rams"})
            """,
            str(path),
        )
        assert child.wait(60) == 0, child.stderr.read() if child.stderr else ""
        hits = {h.node.id: h.score for h in api.vector_search(query="cakes and tea", k=10)}
        assert hits.get("e2", 0) < 0.3
        assert _ids(api.vector_search(query="siege engines and rams", k=1)) == ["e2"]


def test_the_cli_keeps_what_a_call_writes_embedded(tmp_path: Path) -> None:
    path = tmp_path / "v.memgraph"
    with _store(path) as store:
        store.vectors().set_profile("hashed-ngrams-v1")
        store.vectors().embed_all()
    call_result(path, "call", "editNode", json.dumps([{"id": "e1", "title": "Moonlit harbour"}]))
    raw = sqlite3.connect(path)
    stored = raw.execute("SELECT digest FROM vectors WHERE id = 'e1'").fetchone()[0]
    raw.close()
    from memgraph_gui.core.vectors.text import digest

    assert stored == digest("Moonlit harbour\nthe betrayal at the gate")


def test_memgraph_embed_sets_the_profile_and_reports_progress(tmp_path: Path) -> None:
    path = tmp_path / "v.memgraph"
    _store(path).close()
    done = memgraph("embed", "--db", str(path))
    assert done.returncode == 1 and "NO_EMBEDDING_PROFILE" in done.stdout
    done = memgraph("embed", "--db", str(path), "--profile", "hashed-ngrams-v1")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["profile"] == {"name": "hashed-ngrams-v1", "kind": "hashed"}
    assert answer["embedded"] == 5 and answer["nodes"] == 5
    assert "5 of 5 texts (100%)" in done.stderr
    done = memgraph("embed", "--db", str(path))
    assert json.loads(done.stdout)["embedded"] == 0 and "up to date" in done.stderr
    hits = call_result(path, "call", "vectorSearch", json.dumps([{"query": "storm", "k": 1}]))
    assert hits[0]["id"] == "e4" and hits[0]["scoreMode"] == "vector"
    done = memgraph("embed", "--db", str(path), "--profile", "none")
    assert json.loads(done.stdout) == {"profile": None}
    done = memgraph("embed", "--db", str(path), "--base-url", "http://x")
    assert done.returncode == 2 or "BAD_ARGS" in done.stdout


class _Failing:
    """An embedder that fails on its ``fail_at``-th call (after the earlier ones worked)."""

    spec = ProfileSpec("failing", "hashed")

    def __init__(self, fail_at: int, cancel: threading.Event | None = None) -> None:
        self.calls, self.fail_at, self.cancel = 0, fail_at, cancel

    def embed(self, texts: Any, *, cancel: Any = None, progress: Any = None) -> np.ndarray:
        self.calls += 1
        if self.calls == self.fail_at:
            if self.cancel is not None:
                self.cancel.set()
            else:
                raise MemgraphError("EMBEDDING_FAILED", "the endpoint went away")
        return HashedEmbedder().embed(texts, cancel=cancel, progress=progress)


def _many(store: MemoryStore, count: int) -> None:
    nodes = [_node(f"m{i}", f"memory number {i}", f"about thing {i}", seq=i) for i in range(count)]
    import_luker(store, {"nodes": {n["id"]: n for n in nodes}, "edges": []}, replace=True)


@pytest.mark.parametrize("how", ["failure", "cancel"])
def test_a_failed_or_cancelled_run_keeps_every_stored_vector_true(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setattr("memgraph_gui.core.vectors.index.CHUNK", 100)
    path = tmp_path / "v.memgraph"
    with MemoryStore.open(path) as store:
        _many(store, 350)
        cancel = threading.Event() if how == "cancel" else None
        index = VectorIndex(store.storage, "test-key", _Failing(3, cancel))
        with pytest.raises(MemgraphError) as info:
            index.refresh(cancel=cancel)
        assert info.value.code == (
            "EMBEDDING_FAILED" if how == "failure" else "EMBEDDING_CANCELLED"
        )
    raw = sqlite3.connect(path)
    rows = raw.execute("SELECT id, digest, vec FROM vectors WHERE profile = 'test-key'").fetchall()
    raw.close()
    assert len(rows) == 200  # the two chunks made before; nothing of the failed one
    from memgraph_gui.core.vectors.text import digest

    for node_id, mark, vec in rows:
        i = int(node_id[1:])
        text = f"memory number {i}\nabout thing {i}"
        assert mark == digest(text)
        assert np.allclose(np.frombuffer(vec, np.float32), hashed.embed([text])[0])


def test_an_endpoint_that_fails_midway_leaves_the_stored_vectors_as_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, embeddings_server: Any
) -> None:
    """A whole run through the endpoint profile: the server answers the first batches, then
    fails for good; every row stored is the server's (normalised) vector of its node's text,
    searches work with what there is, and a later run completes the rest."""
    monkeypatch.setattr("memgraph_gui.core.vectors.index.CHUNK", 64)
    monkeypatch.setenv("MEMGRAPH_EMBEDDING_API_KEY", "sk-test")
    path = tmp_path / "v.memgraph"
    profile = {"name": "fake", "kind": "endpoint", "baseUrl": embeddings_server.url, "model": "m"}
    with MemoryStore.open(path) as store:
        _many(store, 200)
        vectors = store.vectors()
        vectors.set_profile(profile)
        embeddings_server.script(Reply(), Reply(), Reply(status=400, body=_error()))
        with pytest.raises(MemgraphError) as info:
            vectors.embed_all()
        assert info.value.code == "EMBEDDING_FAILED" and "bad input" in info.value.message
        assert vectors.status().stored == 128  # two whole batches, nothing of the third
        spec = vectors.profile()
        assert spec is not None
        raw = sqlite3.connect(path)
        rows = raw.execute("SELECT id, vec FROM vectors WHERE profile = ?", (spec.key,))
        for node_id, vec in rows.fetchall():
            i = int(node_id[1:])
            want = np.array(embeddings_server.vector(f"memory number {i}\nabout thing {i}"))
            got = np.frombuffer(vec, np.float32)
            assert np.allclose(got, want / np.linalg.norm(want), atol=1e-6)
        raw.close()
        assert vectors.embed_all().embedded == 72
        assert _ids(
            store.read_api().vector_search(query="memory number 7\nabout thing 7", k=1)
        ) == ["m7"]
        sent = [text for batch in embeddings_server.inputs() for text in batch]
        assert embeddings_server.requests[-1].headers.get("authorization") == "Bearer sk-test"
        assert sent.count("memory number 0\nabout thing 0") == 1  # nothing embedded twice


def _error() -> dict[str, Any]:
    return {"error": {"message": "bad input", "type": "invalid_request_error", "code": None}}


def test_a_closed_store_and_its_vectors_are_freed(tmp_path: Path) -> None:
    """The per-store index (a 50 MB matrix at 50k nodes) must not keep a store the window left."""
    import gc
    import weakref

    store = _store(tmp_path / "v.memgraph")
    store.vectors().set_profile("hashed-ngrams-v1")
    assert store.read_api().vector_search(query="storm")
    gone = weakref.ref(store.storage)
    store.close()
    del store
    gc.collect()
    assert gone() is None

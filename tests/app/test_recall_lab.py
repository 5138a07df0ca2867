"""The Recall lab's model: the four rankings of a message over a small store, each with its
scores or its API's refusal, what lands (never a result for an older message or another
store) and what runs them again (an edit here or in another process, the lens, the nugget)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.app import recall_lab
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.recall_lab import FULL_TRUST, LabResult, problem_text
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.membrane.trust import TrustContext
from memgraph_gui.core.vectors import hashed
from tests.nugget_notes import note_store

MESSAGE = "deploy migrations"


def lab_store(path: Path) -> MemoryStore:
    """Nuggets notes in two nuggets (``tests.nugget_notes``) and two Luker nodes."""
    store = note_store(path)
    write = store.write_api(origin="setup")
    write.create_node(type="character_sheet", title="Eileen", fields={"summary": "A deploy lead"})
    write.create_node(type="event", title="Harbour", fields={"summary": "Rain on the harbour"})
    return store


@pytest.fixture
def app(qapp: object, tmp_path: Path) -> Any:
    model = AppModel(lab_store(tmp_path / "lab.memgraph"))
    yield model
    model.close()


def ask(qtbot: Any, lab: Any, message: str = MESSAGE) -> LabResult:
    with qtbot.waitSignal(lab.result_changed, timeout=10_000) as blocker:
        lab.set_message(message)
    result: LabResult = blocker.args[0]
    assert result is not None and result.query.message == message
    return result


def test_every_ranking_filled_with_scores(app: Any, qtbot: Any) -> None:
    lab = app.recall_lab
    assert lab.nuggets() == ["home", "work"] and lab.nugget == "home"
    lab.set_nugget("work")
    result = ask(qtbot, lab)
    keyword = result.rankings["keyword"]
    assert keyword.error is None
    assert keyword.ids[:2] == ("note-work-deploy01", "note-work-deploy02")
    assert [h.score for h in keyword.hits[:2]] == [1.0, 1.0]
    assert keyword.hits[0].title == "Deploy checklist"
    notes = result.rankings["notes"]
    assert notes.error is None and set(notes.ids[:2]) == {
        "note-work-deploy01",
        "note-work-deploy02",
    }
    assert all(i.startswith(("note-work", "fact-work")) for i in notes.ids)  # the work nugget's
    assert notes.hits[0].score > notes.hits[-1].score and "text" in notes.hits[0].detail
    retrieve = result.rankings["retrieve"]
    assert retrieve.error is None and retrieve.hits
    assert retrieve.hits[0].detail == "root"
    assert result.query.trust is None  # the lens is off: full trust
    assert result.stamp == app.stamp
    assert lab.marks()["keyword"] == keyword.ids and lab.marks()["picked"] == ()


def test_vector_search_says_no_embedding_profile(app: Any, qtbot: Any) -> None:
    result = ask(qtbot, app.recall_lab)
    vector = result.rankings["vector"]
    assert vector.hits == () and vector.error is not None
    assert vector.error.code == "NO_EMBEDDING_PROFILE"
    text = problem_text(vector)
    assert "No embedding profile" in text and "memgraph --db FILE embed --profile" in text
    assert "Tools ▸ Embedding profile…" in text


def test_vector_search_ranks_with_the_active_profile(app: Any, qtbot: Any) -> None:
    lab = app.recall_lab
    ask(qtbot, lab)
    with qtbot.waitSignal(lab.result_changed, timeout=10_000) as blocker:
        app.apply_sync(lambda _w: app.store.vectors(origin=app.origin).set_profile(hashed.PROFILE))
    vector = blocker.args[0].rankings["vector"]
    assert vector.error is None and vector.hits
    expected = app.read_api().vector_search(query=MESSAGE, k=20)
    assert vector.ids == tuple(r.node.id for r in expected)
    assert [h.score for h in vector.hits] == [float(r.score) for r in expected]
    assert vector.hits[0].score >= vector.hits[-1].score
    assert lab.marks()["vector"] == vector.ids


def test_a_result_for_an_older_message_never_lands(
    app: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    lab = app.recall_lab
    gate = threading.Event()
    real = recall_lab.rank_all

    def held(store: Any, query: Any, k: int = 20) -> Any:
        if query.message == "first":
            gate.wait(10)
        return real(store, query, k)

    monkeypatch.setattr(recall_lab, "rank_all", held)
    monkeypatch.setattr(recall_lab, "TYPE_MS", 1500)  # "second" runs well after "first" lands
    landed: list[Any] = []
    lab.result_changed.connect(landed.append)
    lab.set_message("first")
    lab.run_now()  # held on the worker thread
    lab.set_message("second")  # asked for, not run yet (the typing debounce)
    gate.set()
    qtbot.wait(400)  # "first" arrives with the newest ticket, but for an older message
    assert landed == [] and lab.result is None
    qtbot.waitUntil(lambda: bool(landed), timeout=10_000)
    assert [r.query.message for r in landed] == ["second"]


def test_a_run_superseded_never_lands(
    app: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    lab = app.recall_lab
    gate = threading.Event()
    real = recall_lab.rank_all
    calls: list[str] = []

    def held(store: Any, query: Any, k: int = 20) -> Any:
        calls.append(query.message)
        if len(calls) == 1:
            gate.wait(10)
        return real(store, query, k)

    monkeypatch.setattr(recall_lab, "rank_all", held)
    lab.set_message(MESSAGE)
    lab.run_now()
    lab.set_nugget("work")  # asked anew: the held run is for the other nugget
    lab.run_now()
    qtbot.waitUntil(lambda: lab.result is not None, timeout=10_000)
    gate.set()
    qtbot.wait(200)
    assert lab.result.query.nugget == "work"
    assert set(lab.result.rankings["notes"].ids) <= {
        "note-work-deploy01",
        "note-work-deploy02",
        "fact-work-cmd00001",
        "note-work-style001",
    }


def test_editing_a_ranked_node_runs_again(app: Any, qtbot: Any) -> None:
    lab = app.recall_lab
    before = ask(qtbot, lab, "Eileen")
    (hit,) = [h for h in before.rankings["keyword"].hits if h.title == "Eileen"]
    with qtbot.waitSignal(lab.result_changed, timeout=10_000) as blocker:
        done = app.apply_sync(lambda w: w.edit_node(id=hit.node_id, title="Eileen Marsh"))
    assert done.payload["changed"]
    after = blocker.args[0]
    assert after.stamp != before.stamp and after.stamp == app.stamp
    titles = {h.node_id: h.title for h in after.rankings["keyword"].hits}
    assert titles[hit.node_id] == "Eileen Marsh"


def test_another_processs_write_runs_again(app: Any, qtbot: Any) -> None:
    lab = app.recall_lab
    ask(qtbot, lab, "lighthouse keeper")
    assert lab.result.rankings["keyword"].hits == ()
    other = MemoryStore.open(app.path, origin="agent")
    try:
        with qtbot.waitSignal(lab.result_changed, timeout=10_000) as blocker:
            other.write_api(origin="agent").create_node(
                type="character_sheet", title="Lighthouse keeper"
            )
    finally:
        other.close()
    hits = blocker.args[0].rankings["keyword"].hits
    assert [h.title for h in hits] == ["Lighthouse keeper"]


def test_the_lens_decides_retrieve_graphs_trust(app: Any, qtbot: Any) -> None:
    lab = app.recall_lab
    ask(qtbot, lab)
    trust = TrustContext("public", False, "guest", ())
    with qtbot.waitSignal(lab.result_changed, timeout=10_000) as blocker:
        app.lens.set_trust(trust)
    assert blocker.args[0].query.trust == trust
    assert lab.query().trust == trust
    app.lens.set_trust(None)
    assert FULL_TRUST.max_sensitivity == "hyper" and FULL_TRUST.authenticated


def test_blank_message_and_another_store_clear_it(app: Any, qtbot: Any, tmp_path: Path) -> None:
    lab = app.recall_lab
    ask(qtbot, lab)
    with qtbot.waitSignal(lab.result_changed, timeout=5000) as blocker:
        lab.set_message("  ")
    assert blocker.args[0] is None and lab.marks()["keyword"] == ()
    ask(qtbot, lab)
    other = MemoryStore.open(tmp_path / "empty.memgraph")
    with qtbot.waitSignal(lab.result_changed, timeout=5000) as blocker:
        app.replace_store(other)
    assert blocker.args[0] is None
    assert lab.nuggets() == [] and lab.nugget is None
    qtbot.waitUntil(lambda: lab.result is not None, timeout=10_000)  # asked again there
    assert lab.result.rankings["keyword"].hits == ()
    assert lab.result.rankings["notes"].error.code == "NO_NOTES"

"""The Recall lab's route part: the route model's input for the message (the blocks as
``build_route_input`` makes them), Run recall (refused plainly without an endpoint; against a
local fake chat endpoint: the ids picked and why, the preview of what the chat would get;
failures said plainly; an answer for an older message never lands) and applying the picks
as one undo step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.app import recall_route
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.settings import DraftEndpoint, save_endpoint
from memgraph_gui.core.luker.route_input import build_route_input
from tests.app.chat_server import fake_chat
from tests.app.test_recall_lab import MESSAGE, lab_store


@pytest.fixture
def app(qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(recall_route, "read_api_key", lambda: ("sk-lab", ""))
    store = lab_store(tmp_path / "lab.memgraph")
    write = store.write_api(origin="setup")
    ids = [n.id for n in store.read_api().list_visible_candidates()]
    write.set_injection_state({"alwaysInjectIds": ids[:1], "visibleIds": ids[:1]})
    model = AppModel(store)
    yield model
    model.close()


def routed(qtbot: Any, app: Any, message: str = MESSAGE) -> Any:
    route = app.recall_lab.route
    with qtbot.waitSignal(route.routed_changed, timeout=10_000) as blocker:
        app.recall_lab.set_message(message)
    return blocker.args[0]


def answer(ids: list[str], reasons: dict[str, str]) -> str:
    return json.dumps({"selected_ids": ids, "reasons": reasons})


def test_the_route_input_is_the_blocks_for_the_message(app: Any, qtbot: Any) -> None:
    got = routed(qtbot, app)
    assert got.message == MESSAGE and got.stamp == app.stamp and got.error is None
    expected = build_route_input(app.read_api(), MESSAGE)
    assert got.route == expected
    assert got.route.candidate_rows and got.route.schema_overview
    assert "candidateRows" in got.route.text and MESSAGE in got.route.text
    assert got.route.tokens > 0


def test_run_recall_says_what_it_needs_without_an_endpoint(app: Any, qtbot: Any) -> None:
    routed(qtbot, app)
    route = app.recall_lab.route
    assert "Preferences" in route.problem() and "endpoint" in route.problem()
    assert route.run_recall() is False and not route.recall_running


def test_run_recall_picks_and_previews(app: Any, qtbot: Any) -> None:
    got = routed(qtbot, app)
    candidates = got.route.candidate_ids
    pick = [candidates[1], candidates[0]]
    reply = answer([*pick, "n_nowhere"], {candidates[1]: "names the deploy", "n_nowhere": "?"})
    lab, route = app.recall_lab, app.recall_lab.route
    with fake_chat(reply) as chat:
        save_endpoint(DraftEndpoint(chat.url, "route-model", 5.0))
        assert route.problem() == ""
        with qtbot.waitSignal(route.recall_changed, timeout=10_000) as blocker:
            assert route.run_recall()
            assert route.recall_running
    picked = blocker.args[0]
    assert picked.ids == tuple(pick) and picked.unknown == ("n_nowhere",)
    assert picked.reasons == {candidates[1]: "names the deploy"}
    assert picked.message == MESSAGE and picked.model == "route-model"
    assert picked.visible_ids == candidates
    (request,) = chat.requests
    assert request["auth"] == "Bearer sk-lab" and request["body"]["model"] == "route-model"
    assert request["body"]["messages"][-1]["content"] == got.route.text
    assert lab.marks()["picked"] == tuple(pick)
    always = app.injection().always_inject_ids
    lines = picked.preview.splitlines()
    rest = [i for i in pick if i not in always]
    assert lines[0] == f"recall_selected ({len(rest)}):"
    assert f"always_inject ({len(always)}):" in lines
    briefs = [json.loads(line) for line in lines if line.startswith("{")]
    assert [b["id"] for b in briefs] == [*rest, *sorted(always)]
    read = app.read_api()
    assert briefs == [read.get_node_brief(b["id"]).to_json() for b in briefs]


def test_a_failed_request_is_said_plainly(app: Any, qtbot: Any) -> None:
    routed(qtbot, app)
    route = app.recall_lab.route
    with fake_chat((500, {"error": {"message": "the model is asleep"}})) as chat:
        save_endpoint(DraftEndpoint(chat.url, "route-model", 5.0))
        with qtbot.waitSignal(route.recall_failed, timeout=10_000) as blocker:
            route.run_recall()
    assert "500" in blocker.args[0] and "the model is asleep" in blocker.args[0]
    assert route.picked is None and not route.recall_running


def test_an_unusable_answer_is_said_plainly(app: Any, qtbot: Any) -> None:
    routed(qtbot, app)
    route = app.recall_lab.route
    with fake_chat("I would pick the deploy notes.") as chat:
        save_endpoint(DraftEndpoint(chat.url, "route-model", 5.0))
        with qtbot.waitSignal(route.recall_failed, timeout=10_000) as blocker:
            route.run_recall()
    assert blocker.args[0].startswith("BAD_ROUTE_ANSWER")


def test_an_answer_for_an_older_message_never_lands(app: Any, qtbot: Any) -> None:
    got = routed(qtbot, app)
    route = app.recall_lab.route
    landed: list[Any] = []
    route.recall_changed.connect(landed.append)
    with fake_chat(answer([got.route.candidate_ids[0]], {})) as chat:
        save_endpoint(DraftEndpoint(chat.url, "route-model", 5.0))
        route.run_recall()
        app.recall_lab.set_message("something else entirely")
        qtbot.waitUntil(lambda: bool(chat.requests), timeout=10_000)
        qtbot.wait(300)
    assert landed == [] and route.picked is None
    assert app.recall_lab.marks()["picked"] == ()


def test_apply_is_one_undo_step(app: Any, qtbot: Any) -> None:
    got = routed(qtbot, app)
    route = app.recall_lab.route
    pick = [got.route.candidate_ids[1]]  # (nothing was recall-selected before)
    with fake_chat(answer(pick, {})) as chat:
        save_endpoint(DraftEndpoint(chat.url, "route-model", 5.0))
        with qtbot.waitSignal(route.recall_changed, timeout=10_000):
            route.run_recall()
    before = app.injection()
    steps = app.undo.stack.count()
    with qtbot.waitSignal(route.applied, timeout=10_000):
        assert route.apply()
    app.runner.wait_idle()
    state = app.injection()
    assert state.recall_selected_ids == frozenset(pick)
    assert state.visible_order == got.route.candidate_ids
    assert state.always_inject_ids == before.always_inject_ids
    assert app.undo.stack.count() == steps + 1
    assert app.undo.stack.undoText() == "Apply recall preview"
    with qtbot.waitSignal(app.changes_applied, timeout=10_000):
        app.undo_last()
    app.runner.wait_idle()
    assert app.injection() == before


def test_apply_refused_when_a_pick_is_gone(app: Any, qtbot: Any) -> None:
    got = routed(qtbot, app)
    route = app.recall_lab.route
    pick = got.route.candidate_ids[0]
    with fake_chat(answer([pick], {})) as chat:
        save_endpoint(DraftEndpoint(chat.url, "route-model", 5.0))
        with qtbot.waitSignal(route.recall_changed, timeout=10_000):
            route.run_recall()
    app.apply_sync(lambda w: w.delete_node(id=pick))
    before = app.injection()
    with qtbot.waitSignal(route.apply_failed, timeout=10_000) as blocker:
        route.apply()
    assert blocker.args[0].code == "NODE_NOT_FOUND" and pick in blocker.args[0].message
    assert "run it again" in blocker.args[0].message
    assert app.injection() == before

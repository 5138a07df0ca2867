"""The Recall lab under the trust lens ("View as"): no payload text of a record the actor
reads redacted or not at all shows in the lab (its rankings, the route input, Run recall's
picks, reasons and preview), while with the lens off the same lab shows it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.app import recall_route
from memgraph_gui.app.settings import DraftEndpoint, save_endpoint
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.membrane.trust import TrustContext
from tests.app.chat_server import fake_chat
from tests.lens_records import put_records, record, secret_texts
from tests.qt_sandbox import window_over
from tests.views.widget_texts import window_texts

MEDIUM = TrustContext("medium", True, "build-agent", ())
RECORDS = [
    record("r-a", "public", relations=[("knows", "r-high")], salience=0.9),
    record("r-med", "medium", salience=0.4),
    record("r-high", "high", relations=[("leaks", "r-a")], salience=0.95),  # redacted
    record("r-hyper", "hyper", relations=[("leaks", "r-a")], salience=0.99),  # omitted
]
HIDDEN = [t for r in RECORDS if r["id"] in ("r-high", "r-hyper") for t in secret_texts(r)]
MESSAGE = "who likes what: the semantic memories"


@pytest.fixture
def shown(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(recall_route, "read_api_key", lambda: ("", ""))
    path = tmp_path / "lens.memgraph"
    with MemoryStore.open(path) as store:
        put_records(store, RECORDS)
    app, window = window_over(qtbot, path)
    qtbot.waitUntil(lambda: window.graph_view.scene is not None and window.settled())
    window.recall_lab_dock.toggleViewAction().trigger()
    qtbot.waitUntil(window.recall_lab_dock.isVisible)
    yield app, window, window.recall_lab
    window.close()
    app.close()


def _leaks(window: Any, panel: Any) -> set[str]:
    found = set()
    for index in range(panel.tabs.count()):
        panel.tabs.setCurrentIndex(index)
        text = "\n".join(window_texts(window))
        found |= {secret for secret in HIDDEN if secret in text}
    return found


def test_nothing_above_the_tier_shows_in_the_lab(qtbot: Any, shown: Any) -> None:
    app, window, panel = shown
    route = app.recall_lab.route
    with qtbot.waitSignal(route.routed_changed, timeout=10_000):
        panel.set_message(MESSAGE)
    reply = json.dumps(
        {
            "selected_ids": ["r-high", "r-hyper", "r-a"],
            "reasons": {"r-high": "Subjr-highSecret", "r-hyper": "Objr-hyperSecret"},
        }
    )
    with fake_chat(reply) as chat:
        save_endpoint(DraftEndpoint(chat.url, "route-model", 5.0))
        with qtbot.waitSignal(route.recall_changed, timeout=10_000):
            assert route.run_recall()
    assert _leaks(window, panel)  # the lens off: the curator sees every text
    with qtbot.waitSignal(app.recall_lab.result_changed, timeout=10_000):
        app.lens.set_trust(MEDIUM)
    app.lens.wait()
    qtbot.wait(100)
    assert _leaks(window, panel) == set()
    keyword = panel.columns["keyword"]
    assert "r-hyper" not in keyword.ids()  # omitted: not listed at all
    assert "hidden by the lens" in keyword.note.text()
    assert not panel.recall.run.isEnabled() and not panel.route_input.copy.isEnabled()
    with qtbot.waitSignal(app.recall_lab.result_changed, timeout=10_000):
        app.lens.set_trust(None)
    qtbot.wait(100)
    assert _leaks(window, panel)

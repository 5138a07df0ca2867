"""The Recall lab's route tabs in the window: the route input with its token estimate and
Copy; Run recall disabled without an endpoint (saying what it needs, Preferences… at hand);
against a local fake chat endpoint: the picks and why, marked on the graph, the injection
preview; Apply as one step that Ctrl+Z undoes from anywhere in the window."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.app import recall_route
from memgraph_gui.app.settings import DraftEndpoint, save_endpoint
from memgraph_gui.views.qt import QApplication, Qt
from tests.app.chat_server import fake_chat
from tests.app.test_recall_lab import MESSAGE, lab_store
from tests.qt_sandbox import window_over


@pytest.fixture
def shown(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(recall_route, "read_api_key", lambda: ("", ""))
    path = tmp_path / "lab.memgraph"
    lab_store(path).close()
    app, window = window_over(qtbot, path)
    qtbot.waitUntil(lambda: window.graph_view.scene is not None and window.settled())
    window.recall_lab_dock.toggleViewAction().trigger()
    qtbot.waitUntil(window.recall_lab_dock.isVisible)
    panel = window.recall_lab
    with qtbot.waitSignal(app.recall_lab.route.routed_changed, timeout=10_000):
        panel.set_message(MESSAGE)
    yield app, window, panel
    window.close()
    app.close()


def test_route_input_tab_shows_the_blocks_and_copies_them(qtbot: Any, shown: Any) -> None:
    app, _window, panel = shown
    tab = panel.route_input
    panel.tabs.setCurrentWidget(tab)
    route = app.recall_lab.route.routed.route
    assert tab.text.toPlainText() == route.text and tab.text.isReadOnly()
    summary = tab.summary.text()
    assert f"about {route.tokens:,} tokens" in summary
    assert f"candidateRows: {len(route.candidate_rows)} rows" in summary
    QApplication.clipboard().setText("")
    qtbot.mouseClick(tab.copy, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == route.text


def test_run_recall_says_what_it_needs_without_an_endpoint(qtbot: Any, shown: Any) -> None:
    _app, window, panel = shown
    tab = panel.recall
    panel.tabs.setCurrentWidget(tab)
    assert not tab.run.isEnabled()
    assert "Preferences" in tab.run.toolTip() and "Preferences" in tab.status.text()
    assert tab.preferences.isVisible() and not tab.apply.isEnabled()
    opened: list[bool] = []
    window.compaction.preferences.triggered.disconnect()
    window.compaction.preferences.triggered.connect(lambda: opened.append(True))
    qtbot.mouseClick(tab.preferences, Qt.MouseButton.LeftButton)
    assert opened == [True]


def test_run_recall_picks_marks_previews_and_applies(qtbot: Any, shown: Any) -> None:
    app, window, panel = shown
    tab = panel.recall
    panel.tabs.setCurrentWidget(tab)
    candidates = app.recall_lab.route.routed.route.candidate_ids
    pick = [candidates[1]]
    reply = json.dumps({"selected_ids": pick, "reasons": {pick[0]: "the deploy lead"}})
    with fake_chat(reply) as chat:
        save_endpoint(DraftEndpoint(chat.url, "route-model", 5.0))
        tab.refresh()  # (as on coming back from Preferences)
        assert tab.run.isEnabled() and not tab.preferences.isVisible()
        with qtbot.waitSignal(app.recall_lab.route.recall_changed, timeout=10_000):
            qtbot.mouseClick(tab.run, Qt.MouseButton.LeftButton)
    assert tab.picked_ids() == pick
    assert tab.picks.topLevelItem(0).text(2) == "the deploy lead"
    assert "route-model picked 1 of" in tab.status.text()
    graph = window.graph_view
    assert {graph.scene.ids[r] for r in graph.recall_marks.rows("picked")} == set(pick)
    assert "recall_selected (1):" in tab.preview.toPlainText()
    assert tab.apply.isEnabled()
    before = app.injection()
    with qtbot.waitSignal(app.recall_lab.route.applied, timeout=10_000):
        qtbot.mouseClick(tab.apply, Qt.MouseButton.LeftButton)
    assert app.injection().recall_selected_ids == frozenset(pick)
    assert "Ctrl+Z" in tab.apply_status.text()
    assert window.undo_action.text() == "&Undo Apply recall preview"
    tab.picks.setFocus()
    with qtbot.waitSignal(app.changes_applied, timeout=10_000):
        qtbot.keyClick(tab.picks, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    app.runner.wait_idle()
    assert app.injection() == before


def test_clicking_a_pick_selects_it(qtbot: Any, shown: Any) -> None:
    app, window, panel = shown
    tab = panel.recall
    panel.tabs.setCurrentWidget(tab)
    candidates = app.recall_lab.route.routed.route.candidate_ids
    with fake_chat(json.dumps({"selected_ids": [candidates[0]], "reasons": {}})) as chat:
        save_endpoint(DraftEndpoint(chat.url, "route-model", 5.0))
        with qtbot.waitSignal(app.recall_lab.route.recall_changed, timeout=10_000):
            assert app.recall_lab.route.run_recall()
    item = tab.picks.topLevelItem(0)
    rect = tab.picks.visualItemRect(item)
    qtbot.mouseClick(tab.picks.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert app.selection.current == candidates[0]
    assert window.inspector.node_id == candidates[0]


def test_tab_goes_through_the_lab_in_order(qtbot: Any, shown: Any) -> None:
    _app, window, panel = shown
    tab = panel.recall
    panel.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(tab.preferences.isVisible)
    panel.message.setFocus()
    qtbot.waitUntil(panel.message.hasFocus)
    visited = []
    for _ in range(6):
        window.focusNextPrevChild(True)
        visited.append(QApplication.focusWidget())
    # Run recall and Apply are disabled (no endpoint, nothing picked): Tab passes them by
    assert visited[:5] == [
        panel.nugget,
        panel.tabs.tabBar(),
        tab.preferences,
        tab.picks,
        tab.preview,
    ]
    assert visited[5] is window.find_box  # round to the window's first stop

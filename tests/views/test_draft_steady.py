"""The compaction wizard's draft (issue 20): the offline draft keeps every child's facts, the AI
request caps the children's text to a stated budget and says when it cut, the panel keeps its
buttons and the keyboard focus steady while a draft arrives, and without a system keyring an AI
key can still be used for this run (kept in memory only)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from wizard_helpers import local_server

from memgraph_gui.views.qt import QApplication, QtCore
from tests.keyring_fakes import installed_keyring

QPoint = QtCore.QPoint

DEMO_THREE = [  # three events as the demo writes them
    {
        "id": "n_1",
        "toSeq": 9,
        "title": "Summary 9",
        "summary": "时间：第3天；地点：银月城。Eileen draws her sword against Rowan（拔剑对峙）。"
        "The alliance holds, for now.",
    },
    {
        "id": "n_2",
        "toSeq": 10,
        "title": "Summary 10",
        "summary": "时间：第3天；地点：雾沼。Mira saves the life of Dorian（救下）。局势暂时稳定。",
    },
    {
        "id": "n_3",
        "toSeq": 11,
        "title": "Summary 11",
        "summary": "时间：第3天；地点：码头。Rowan duels Mira（决斗）。"
        "Blood is spilled and cannot be taken back.",
    },
]


@pytest.fixture
def server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with local_server() as running:
        yield running


@pytest.fixture
def no_keyring() -> Iterator[None]:
    from keyring.backends import fail

    from memgraph_gui.app.secrets import use_for_this_run

    with installed_keyring(fail.Keyring()):
        yield
        use_for_this_run("")


def _panel(qtbot: Any, url: str, briefs: list[dict[str, Any]]) -> Any:
    from memgraph_gui.app.settings import DraftEndpoint
    from memgraph_gui.views.wizard.draft_panel import DraftPanel

    panel = DraftPanel(endpoint=lambda: DraftEndpoint(url, "test-model", 5.0))
    qtbot.addWidget(panel)
    panel.resize(520, 420)
    panel.set_group("event", briefs)
    panel.show()
    qtbot.waitExposed(panel)
    panel.activateWindow()
    return panel


def test_the_offline_draft_of_three_demo_events_keeps_every_place(qtbot: Any) -> None:
    panel = _panel(qtbot, "", DEMO_THREE)
    text = panel.text()
    assert all(place in text for place in ("银月城", "雾沼", "码头"))  # before: only 银月城
    assert all(who in text for who in ("Eileen", "Rowan", "Mira", "Dorian"))
    assert len(text.splitlines()) == 3


def test_the_ai_request_is_capped_and_the_wizard_says_it_cut(qtbot: Any, server: Any) -> None:
    from memgraph_gui.app.llm_client import AI_INPUT_CHARS

    url, requests = server
    briefs = [
        {"id": f"n_{i}", "toSeq": i, "title": f"Summary {i}", "summary": f"Eileen {i}. " * 120}
        for i in range(20)
    ]
    panel = _panel(qtbot, url + "/ok", briefs)
    with qtbot.waitSignal(panel.ai_finished, timeout=10_000):
        panel.draft_with_ai()
        waiting = panel.status.text()
    assert "Asking test-model" in waiting
    assert f"capped at {AI_INPUT_CHARS} characters" in waiting and "20 of 20" in waiting
    (request,) = requests
    content = request["body"]["messages"][-1]["content"]
    entries = content.split("\n\n", 1)[1]
    assert len(entries) <= AI_INPUT_CHARS and entries.count("…") == 20
    assert f"capped at {AI_INPUT_CHARS} characters" in content
    assert f"capped at {AI_INPUT_CHARS} characters" in panel.status.text()  # stays after


def test_a_small_group_is_sent_whole_with_no_note(qtbot: Any, server: Any) -> None:
    url, requests = server
    panel = _panel(qtbot, url + "/ok", DEMO_THREE)
    with qtbot.waitSignal(panel.ai_finished, timeout=10_000):
        panel.draft_with_ai()
    content = requests[0]["body"]["messages"][-1]["content"]
    assert "capped" not in content and "银月城" in content and "码头" in content
    assert panel.status.text() == ""


def _where(panel: Any, widget: Any) -> QPoint:
    return widget.mapTo(panel, QPoint(0, 0))


def test_buttons_and_focus_stay_put_while_a_draft_arrives(qtbot: Any, server: Any) -> None:
    url, _ = server
    briefs = [{"toSeq": i, "title": f"S{i}", "summary": "Eileen. " * 500} for i in range(20)]
    panel = _panel(qtbot, url + "/ok", briefs)
    panel.editor.setPlainText("My own words.")  # the answer will wait in the bar
    QApplication.processEvents()
    before = [_where(panel, b) for b in (panel.offline_button, panel.ai_button)]
    panel.ai_button.setFocus()
    QApplication.processEvents()
    with qtbot.waitSignal(panel.ai_finished, timeout=10_000):
        panel.ai_button.click()
        QApplication.processEvents()
        assert panel.window().focusWidget() is panel.cancel_button  # the focus moved with it
        assert _where(panel, panel.cancel_button) == before[1]
        assert _where(panel, panel.offline_button) == before[0]
    QApplication.processEvents()
    assert not panel.pending_bar.isHidden() and panel.status.text()  # bar and note shown
    assert panel.window().focusWidget() is panel.ai_button
    assert [_where(panel, b) for b in (panel.offline_button, panel.ai_button)] == before


def test_without_a_keyring_a_typed_key_is_used_for_this_run(
    qtbot: Any, tmp_path: Any, server: Any, no_keyring: None
) -> None:
    from memgraph_gui.app.secrets import get_api_key, run_key
    from memgraph_gui.views.preferences import PreferencesDialog
    from memgraph_gui.views.qt import QSettings

    url, requests = server
    store = QSettings(str(tmp_path / "prefs.ini"), QSettings.Format.IniFormat)
    dialog = PreferencesDialog(settings_store=store)
    qtbot.addWidget(dialog)
    assert dialog.key_edit.isEnabled()
    assert "kept in memory" in dialog.key_note.text()
    dialog.key_edit.setText("sk-this-run")
    dialog.accept()
    assert dialog.result() == 1 and run_key() == "sk-this-run"
    assert get_api_key() == "sk-this-run"
    assert "sk-this-run" not in (tmp_path / "prefs.ini").read_text()

    again = PreferencesDialog(settings_store=store)
    qtbot.addWidget(again)
    assert "kept for this run" in again.key_edit.placeholderText()
    assert again.forget_button.isEnabled()

    panel = _panel(qtbot, url + "/ok", DEMO_THREE)
    with qtbot.waitSignal(panel.ai_finished, timeout=10_000):
        panel.draft_with_ai()
    assert requests[-1]["auth"] == "Bearer sk-this-run"

    again.forget_button.click()
    again.accept()
    assert run_key() == ""


def test_approving_the_wizards_offline_draft_keeps_every_childs_place(
    qtbot: Any, compactable_app: Any, wizard_settings: None
) -> None:
    """Over the demo: the rollup written from the offline draft names each child's place."""
    import re

    from memgraph_gui.app.settings import DraftEndpoint
    from memgraph_gui.views.qt import Qt
    from memgraph_gui.views.wizard import CompactionWizard

    app = compactable_app
    wizard = CompactionWizard(app, endpoint=DraftEndpoint)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.groups_page.preview is not None, timeout=5000)
    model = wizard.groups_page.model
    for row in range(1, model.rowCount()):  # one group: the review ends with its approval
        model.setData(model.index(row, 0), Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    (group,) = model.checked_groups()
    wizard.next()
    review = wizard.review_page
    places = []
    for child_id in group.child_ids:
        summary = str(app.node(child_id).fields.get("summary") or "")
        found = re.search(r"地点：([^。；]+)", summary)
        assert found, summary
        places.append(found.group(1))
    qtbot.mouseClick(review.approve_button, Qt.MouseButton.LeftButton)
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: bool(wizard.report().rollup_ids()), timeout=5000)
    rollup_id = wizard.report().rollup_ids()[0]
    written = str(app.node(rollup_id).fields["summary"])
    assert all(place in written for place in places), (places, written)


def test_the_review_page_keeps_focus_and_buttons_while_an_ai_draft_arrives(
    qtbot: Any, compactable_app: Any, wizard_settings: None, server: Any
) -> None:
    """A keyboard user presses "Draft with AI": the focus stays on that button's place (Cancel,
    then the AI button again) and Approve / Skip and the draft buttons do not move."""
    from memgraph_gui.app.settings import DraftEndpoint
    from memgraph_gui.views.qt import Qt
    from memgraph_gui.views.wizard import CompactionWizard

    url, _ = server
    wizard = CompactionWizard(
        compactable_app, endpoint=lambda: DraftEndpoint(url + "/ok", "test-model", 5.0)
    )
    qtbot.addWidget(wizard)
    wizard.resize(900, 600)
    wizard.show()
    qtbot.waitExposed(wizard)
    wizard.activateWindow()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.groups_page.preview is not None, timeout=5000)
    wizard.next()
    review = wizard.review_page
    draft = review.draft
    draft.editor.setPlainText("My own words.")  # the answer waits in the bar
    QApplication.processEvents()
    watched = [review.approve_button, review.skip_button, draft.offline_button, draft.ai_button]
    before = [w.mapTo(wizard, QPoint(0, 0)) for w in watched]
    draft.ai_button.setFocus()
    QApplication.processEvents()
    with qtbot.waitSignal(draft.ai_finished, timeout=10_000):
        qtbot.keyClick(draft.ai_button, Qt.Key.Key_Space)
        QApplication.processEvents()
        assert wizard.focusWidget() is draft.cancel_button
    QApplication.processEvents()
    assert not draft.pending_bar.isHidden()
    assert wizard.focusWidget() is draft.ai_button
    assert [w.mapTo(wizard, QPoint(0, 0)) for w in watched] == before

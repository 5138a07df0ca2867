"""AI drafts against a local OpenAI-compatible server, the preferences dialog and the keyring."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from wizard_helpers import local_server

from tests.keyring_fakes import installed_keyring

BRIEFS = [
    {"id": "n_1", "toSeq": 1, "title": "Summary 1", "summary": "Eileen finds a letter."},
    {"id": "n_2", "toSeq": 2, "title": "Summary 2", "summary": "Rowan burns it."},
]


@pytest.fixture
def settings_store(tmp_path: Path) -> Any:
    from memgraph_gui.views.qt import QSettings

    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    return QSettings(str(tmp_path / "prefs.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    from keyring.backends import fail

    with installed_keyring(fail.Keyring()):
        yield


@pytest.fixture
def server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with local_server() as running:
        yield running


def _panel(qtbot: Any, url: str, timeout: float = 5.0) -> Any:
    from memgraph_gui.app.settings import DraftEndpoint
    from memgraph_gui.views.wizard.draft_panel import DraftPanel

    panel = DraftPanel(endpoint=lambda: DraftEndpoint(url, "test-model", timeout))
    qtbot.addWidget(panel)
    panel.set_group("event", BRIEFS)
    return panel


def _ask(qtbot: Any, panel: Any) -> None:
    with qtbot.waitSignal(panel.ai_finished, timeout=10_000):
        panel.draft_with_ai()


def test_offline_draft_is_there_from_the_start(qtbot) -> None:
    panel = _panel(qtbot, "")
    assert panel.text() == "Eileen finds a letter.\nRowan burns it."  # a line per child
    assert not panel.edited


def test_ai_draft_fills_an_untouched_editor_and_sends_the_key(
    qtbot, server, memory_keyring
) -> None:
    url, requests = server
    memory_keyring.set_password("memgraph-gui", "draft-endpoint", "sk-secret")
    panel = _panel(qtbot, url + "/ok/v1")
    _ask(qtbot, panel)
    assert panel.text() == "Eileen and Rowan part."
    assert panel.ai_button.isEnabled() and panel.status.text() == ""
    (request,) = requests
    assert request["path"] == "/ok/v1/chat/completions"
    assert request["auth"] == "Bearer sk-secret"
    assert request["body"]["model"] == "test-model"
    assert "Rowan burns it." in request["body"]["messages"][-1]["content"]


def test_ai_draft_never_overwrites_edits_without_asking(qtbot, server, memory_keyring) -> None:
    url, _ = server
    panel = _panel(qtbot, url + "/ok")
    panel.editor.setPlainText("My own words.")
    _ask(qtbot, panel)
    assert panel.text() == "My own words." and not panel.pending_bar.isHidden()
    panel.keep_button.click()
    assert panel.text() == "My own words." and panel.pending_bar.isHidden()
    _ask(qtbot, panel)
    panel.replace_button.click()
    assert panel.text() == "Eileen and Rowan part."
    panel.editor.setPlainText("Edited again.")
    panel.draft_offline()
    assert panel.text() == "Edited again." and not panel.pending_bar.isHidden()


def test_a_slow_endpoint_hits_the_timeout_with_a_clear_message(
    qtbot, server, memory_keyring
) -> None:
    url, _ = server
    panel = _panel(qtbot, url + "/slow", timeout=0.5)
    before = panel.text()
    _ask(qtbot, panel)
    assert "did not answer within 0.5 seconds" in panel.status.text()
    assert panel.text() == before and panel.ai_button.isEnabled()


def test_a_401_shows_the_servers_message(qtbot, server, memory_keyring) -> None:
    url, _ = server
    panel = _panel(qtbot, url + "/auth")
    _ask(qtbot, panel)
    text = panel.status.text()
    assert "HTTP 401" in text and "Incorrect API key provided" in text


def test_a_401_without_a_keyring_says_no_key_was_sent(qtbot, server, no_keyring) -> None:
    url, requests = server
    panel = _panel(qtbot, url + "/auth")
    _ask(qtbot, panel)
    assert "No API key was sent" in panel.status.text()
    assert "No system keyring" in panel.status.text()
    assert requests[0]["auth"] is None


def test_bad_json_and_no_endpoint_are_clear(qtbot, server, memory_keyring) -> None:
    url, _ = server
    panel = _panel(qtbot, url + "/junk")
    _ask(qtbot, panel)
    assert "not valid JSON" in panel.status.text()
    unset = _panel(qtbot, "")
    unset.draft_with_ai()
    assert "No AI endpoint is set" in unset.status.text()


def test_an_answer_for_a_group_already_left_is_dropped(qtbot, server, memory_keyring) -> None:
    url, _ = server
    panel = _panel(qtbot, url + "/ok")
    with qtbot.waitSignal(panel.ai_finished, timeout=10_000):
        panel.draft_with_ai()
        panel.set_group("event", BRIEFS[:1])
    assert panel.text() == "Eileen finds a letter."


def test_cancel_frees_the_panel_at_once_and_drops_the_late_answer(
    qtbot, server, memory_keyring
) -> None:
    url, _ = server
    panel = _panel(qtbot, url + "/slow")  # answers a draft after 3 s
    panel.show()
    before = panel.text()
    panel.draft_with_ai()
    assert panel.waiting and panel.ai_button.isHidden() and panel.cancel_button.isVisible()
    panel.cancel_button.click()
    assert not panel.waiting and panel.ai_button.isVisible() and panel.ai_button.isEnabled()
    assert panel.cancel_button.isHidden() and panel.status.text() == "AI draft cancelled."
    with qtbot.waitSignal(panel.ai_finished, timeout=10_000):
        pass  # the cancelled request's answer comes, and is dropped
    assert panel.text() == before and panel.status.text() == "AI draft cancelled."
    assert panel.pending_bar.isHidden()


def test_a_new_request_after_a_cancel_gets_its_own_answer_only(
    qtbot, server, memory_keyring
) -> None:
    from memgraph_gui.app.settings import DraftEndpoint
    from memgraph_gui.views.wizard.draft_panel import DraftPanel

    url, _ = server
    urls = [url + "/slow"]
    panel = DraftPanel(endpoint=lambda: DraftEndpoint(urls[-1], "test-model", 5.0))
    qtbot.addWidget(panel)
    panel.set_group("event", BRIEFS)
    panel.draft_with_ai()
    panel.cancel_ai()
    urls.append(url + "/ok")
    with qtbot.waitSignal(panel.ai_finished, timeout=10_000):
        panel.draft_with_ai()
    assert panel.text() == "Eileen and Rowan part." and not panel.waiting
    panel.editor.setPlainText("My own words.")
    with qtbot.waitSignal(panel.ai_finished, timeout=10_000):
        pass  # the slow, cancelled answer
    assert panel.text() == "My own words." and panel.pending_bar.isHidden()
    assert not panel.ai_button.isHidden() and panel.cancel_button.isHidden()


def test_unreachable_host_is_named(qtbot, memory_keyring) -> None:
    from memgraph_gui.app.llm_client import DraftError, request_completion
    from memgraph_gui.app.settings import DraftEndpoint

    with pytest.raises(DraftError, match=r"Could not reach http://127\.0\.0\.1:9/chat/completions"):
        request_completion(DraftEndpoint("http://127.0.0.1:9", "m", 2.0), [])


# -- preferences and keyring ----------------------------------------------------------------------
def _prefs(qtbot: Any, store: Any) -> Any:
    from memgraph_gui.views.preferences import PreferencesDialog

    dialog = PreferencesDialog(settings_store=store)
    qtbot.addWidget(dialog)
    return dialog


def test_preferences_save_settings_and_key(qtbot, settings_store, memory_keyring) -> None:
    from memgraph_gui.app.secrets import get_api_key
    from memgraph_gui.app.settings import DraftEndpoint, load_endpoint

    dialog = _prefs(qtbot, settings_store)
    assert dialog.key_edit.isEnabled()
    dialog.url_edit.setText(" http://localhost:8080/v1 ")
    dialog.model_edit.setText("qwen2.5")
    dialog.timeout_spin.setValue(12)
    dialog.key_edit.setText("sk-abc")
    dialog.accept()
    assert dialog.result() == 1
    assert load_endpoint(settings_store) == DraftEndpoint("http://localhost:8080/v1", "qwen2.5", 12)
    assert get_api_key() == "sk-abc"
    assert "sk-abc" not in Path(settings_store.fileName()).read_text()

    again = _prefs(qtbot, settings_store)
    assert again.url_edit.text() == "http://localhost:8080/v1" and again.key_edit.text() == ""
    assert "saved" in again.key_edit.placeholderText() and again.forget_button.isEnabled()
    again.forget_button.click()
    again.accept()
    assert get_api_key() == ""


def test_preferences_without_a_keyring_explain_and_still_save(
    qtbot, settings_store, no_keyring
) -> None:
    from memgraph_gui.app.secrets import SecretsUnavailable, get_api_key
    from memgraph_gui.app.settings import load_endpoint

    with pytest.raises(SecretsUnavailable, match="No system keyring"):
        get_api_key()
    dialog = _prefs(qtbot, settings_store)
    assert dialog.key_edit.isEnabled()  # a key can still be used for this run
    assert "No system keyring is available" in dialog.key_note.text()
    assert "for this run only" in dialog.key_note.text()
    dialog.url_edit.setText("http://localhost:1234/v1")
    dialog.accept()
    assert dialog.result() == 1
    assert load_endpoint(settings_store).base_url == "http://localhost:1234/v1"


def test_test_connection_reports_success_and_failure(
    qtbot, settings_store, server, memory_keyring
) -> None:
    url, requests = server
    dialog = _prefs(qtbot, settings_store)
    dialog.url_edit.setText(url + "/ok")
    dialog.key_edit.setText("sk-typed")
    with qtbot.waitSignal(dialog.test_finished, timeout=10_000):
        dialog.test_connection()
    assert dialog.test_result.text().startswith("Connected")
    assert requests[-1]["auth"] == "Bearer sk-typed"
    dialog.url_edit.setText(url + "/auth")
    with qtbot.waitSignal(dialog.test_finished, timeout=10_000):
        dialog.test_connection()
    assert "HTTP 401" in dialog.test_result.text()


def test_timeout_setting_is_clamped(settings_store) -> None:
    from memgraph_gui.app.settings import KEY_TIMEOUT, clamp_timeout, load_endpoint

    settings_store.setValue(KEY_TIMEOUT, "abc")
    assert load_endpoint(settings_store).timeout == 30.0
    assert clamp_timeout(0) == 1.0 and clamp_timeout(1e9) == 600.0
    assert clamp_timeout(float("nan")) == 30.0

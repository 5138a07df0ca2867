"""The compaction wizard's asynchronous answers land on what they were asked for: an
instruction save on its type, an AI draft on its group."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from wizard_helpers import local_server


@pytest.fixture(autouse=True)
def _sandboxed_settings(wizard_settings: None) -> None:
    """Every test here keeps its settings in its own folder."""


@pytest.fixture
def app(compactable_app: Any) -> Any:
    return compactable_app


def _instruction_of(app: Any, type_id: str) -> str:
    with app.store.reading() as graph:
        spec = graph.schema.get(type_id)
        return str(spec.compression.get("summarizeInstruction") or "")


def _editor(qtbot: Any, app: Any) -> Any:
    from memgraph_gui.views.wizard.instruction import InstructionEditor

    editor = InstructionEditor(app)
    qtbot.addWidget(editor)
    editor.load("event")
    return editor


def test_an_instruction_saved_for_one_type_is_not_reported_on_the_next(qtbot, app) -> None:
    editor = _editor(qtbot, app)
    editor.editor.setPlainText("Name every character.")
    editor.save()
    editor.load("character_sheet")  # the user picks another type before the save is done
    app.runner.wait_idle()
    assert _instruction_of(app, "event") == "Name every character."
    assert editor.editor.toPlainText() == ""  # character_sheet's own (empty) instruction
    assert editor.status.text() == "The instruction for event was saved."


def test_an_instruction_refused_for_one_type_names_it_on_the_next(qtbot, app) -> None:
    editor = _editor(qtbot, app)
    editor.editor.setPlainText("word " * 25_000)  # over the schema's limit
    editor.save()
    editor.load("character_sheet")
    app.runner.wait_idle()
    assert editor.status.text().startswith("The instruction for event was not saved:")
    assert _instruction_of(app, "event") == ""


def test_an_ai_draft_asked_for_group_one_never_lands_on_group_two(
    qtbot, app, memory_keyring
) -> None:
    from memgraph_gui.app.settings import DraftEndpoint
    from memgraph_gui.views.wizard import CompactionWizard

    with local_server() as (url, _requests):
        wizard = CompactionWizard(
            app, endpoint=lambda: DraftEndpoint(url + "/slow", "test-model", 10.0)
        )
        qtbot.addWidget(wizard)
        wizard.show()
        wizard.next()
        qtbot.waitUntil(lambda: wizard.groups_page.preview is not None, timeout=5000)
        wizard.next()
        page = wizard.review_page
        first = page.group
        page.draft.draft_with_ai()  # for group 1 (answers after 3 s)
        page.skip()
        assert page.group is not first and page.group is not None
        page.draft.editor.setPlainText("My words for group two.")
        with qtbot.waitSignal(page.draft.ai_finished, timeout=10_000):
            pass  # group 1's answer comes now
        assert page.draft.text() == "My words for group two."
        assert page.draft.pending_bar.isHidden()
        assert "group you left" in page.draft.status.text()  # dropped, and said so
        assert not page.draft.waiting and page.draft.ai_button.isVisible()


def test_a_connection_test_names_the_model_it_asked_not_the_one_typed_since(
    qtbot, tmp_path: Path, memory_keyring
) -> None:
    from memgraph_gui.views.preferences import PreferencesDialog
    from memgraph_gui.views.qt import QSettings

    settings = QSettings(str(tmp_path / "prefs.ini"), QSettings.Format.IniFormat)
    with local_server() as (url, _requests):
        dialog = PreferencesDialog(settings_store=settings)
        qtbot.addWidget(dialog)
        dialog.url_edit.setText(url + "/slow")
        dialog.model_edit.setText("asked-model")
        with qtbot.waitSignal(dialog.test_finished, timeout=10_000):
            dialog.test_connection()
            dialog.model_edit.setText("typed-since")  # while the answer is on its way
        assert dialog.test_result.text().startswith("Connected: asked-model answered")

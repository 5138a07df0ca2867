"""Tools ▸ Embedding profile… and the embedding's progress in the status bar (offscreen)."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.app.vector_desk import HASHED_SPEC
from tests.keyring_fakes import installed_keyring


@pytest.fixture
def window(qtbot: Any, demo_template: Path, tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    path = tmp_path / "d.memgraph"
    shutil.copy(demo_template, path)
    app = AppModel(MemoryStore.open(path))
    win = MainWindow(app)
    qtbot.addWidget(win)
    win.resize(1024, 700)
    win.show()
    yield app, win
    win.close()
    app.close()


def open_dialog(win: Any) -> Any:
    actions = [a for a in win.tools_menu.actions() if a is win.embedding_profile.action]
    assert actions and actions[0].text() == "&Embedding profile…"
    actions[0].trigger()
    return win.embedding_profile.dialog


def test_the_dialog_sets_the_profile_as_one_undo_step(qtbot: Any, window: Any) -> None:
    app, win = window
    dialog = open_dialog(win)
    assert dialog.hashed_button.isChecked()  # the suggestion when none is set
    assert "off" in dialog.counts.text()
    assert not dialog.endpoint_form.isEnabled()
    depth = app.undo.stack.count()
    with qtbot.waitSignal(app.vectors.job_ended, timeout=60000):
        dialog.accept()
        app.runner.wait_idle()
    assert app.vectors.state.profile == HASHED_SPEC
    assert app.undo.stack.count() == depth + 1
    assert "embedding profile hashed-ngrams-v1" in app.undo.stack.undoText()
    assert app.vectors.wait_idle()
    again = open_dialog(win)
    assert again.hashed_button.isChecked()
    state = app.vectors.state
    assert state.nodes is not None and state.nodes > 500 and state.stored == state.nodes
    assert f"{state.stored:,} of {state.nodes:,} nodes have vectors" in again.counts.text()
    again.reject()
    win.undo_action.trigger()  # Ctrl+Z: vector search off again
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: app.vectors.state.profile is None)
    assert app.undo.stack.index() == depth  # undone: Redo offers it
    assert "embedding profile hashed-ngrams-v1" in app.undo.stack.redoText()


def test_an_endpoint_needs_its_fields_and_keeps_its_key_in_the_keyring(
    qtbot: Any, window: Any, memory_keyring: Any
) -> None:
    app, win = window
    dialog = open_dialog(win)
    dialog.endpoint_button.setChecked(True)
    assert dialog.endpoint_form.isEnabled()
    dialog.url_edit.setText("ftp://nowhere")
    dialog.model_edit.setText("text-embedding-3-small")
    dialog.accept()
    assert dialog.isVisible() and "baseUrl" in dialog.error.text()
    assert app.vectors.state.profile is None
    dialog.url_edit.setText("http://127.0.0.1:9/v1")
    dialog.name_edit.setText("local")
    dialog.key_edit.setText("sk-test")
    with qtbot.waitSignal(app.vectors.job_ended, timeout=60000) as ended:
        dialog.accept()
        app.runner.wait_idle()
    assert memory_keyring.get_password("memgraph-gui", "embedding-endpoint") == "sk-test"
    spec = app.vectors.state.profile
    assert spec is not None and spec.kind == "endpoint" and spec.name == "local"
    # nothing listens there: the child's failure is told plainly, in the status bar too
    assert "127.0.0.1:9" in ended.args[0]
    assert app.vectors.state.error == ended.args[0]
    error = win.status.embedding.error
    assert error.isVisible() and "Embedding failed" in error.text()
    assert "sk-test" not in error.toolTip()
    again = open_dialog(win)
    assert "127.0.0.1:9" in again.counts.text() and "failed" in again.counts.text()
    assert again.endpoint_button.isChecked() and again.url_edit.text() == "http://127.0.0.1:9/v1"
    depth = app.undo.stack.count()
    with qtbot.waitSignal(app.vectors.job_ended, timeout=60000) as retried:
        again.accept()  # the same profile after a failure: tried again, no new undo step
    assert "127.0.0.1:9" in retried.args[0]
    assert app.undo.stack.count() == depth


def test_without_a_keyring_a_key_is_kept_for_this_run(
    qtbot: Any, window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from keyring.backends import fail

    with installed_keyring(fail.Keyring()):
        app, win = window
        dialog = open_dialog(win)
        assert "No system keyring" in dialog.key_note.text()
        assert dialog.key_note.isHidden()  # the endpoint is not chosen: no red note about it
        dialog.show()
        shown = dialog.height()
        dialog.endpoint_button.setChecked(True)
        note = dialog.key_note
        assert not note.isHidden() and dialog.height() > shown
        assert note.height() >= note.heightForWidth(note.width())  # every line shown
        dialog.url_edit.setText("http://127.0.0.1:9/v1")
        dialog.model_edit.setText("m")
        dialog.key_edit.setText("sk-run-only")
        dialog.accept()
        assert app.vectors.run_key == "sk-run-only"
        app.runner.wait_idle()
        assert app.vectors.wait_idle(60000)


def test_the_model_choice_says_when_its_package_is_missing(
    qtbot: Any, window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph_gui.views import embedding_profile

    _app, win = window
    monkeypatch.setattr(embedding_profile, "model_available", lambda: False)
    dialog = open_dialog(win)
    assert not dialog.model_button.isEnabled()
    assert not dialog.model_note.isHidden()
    assert "pip install 'memgraph-gui[model]'" in dialog.model_note.text()
    dialog.reject()
    monkeypatch.setattr(embedding_profile, "model_available", lambda: True)
    dialog = open_dialog(win)
    assert dialog.model_button.isEnabled() and dialog.model_note.isHidden()


def test_the_status_bar_shows_progress_with_a_cancel(
    qtbot: Any, window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph_gui.core.vectors import api as vector_api
    from memgraph_gui.core.vectors import index as vector_index

    app, win = window
    monkeypatch.setattr(vector_index, "CHUNK", 100)
    gate = threading.Event()
    real = vector_api.VectorApi.embed_all

    def held(self: Any, progress: Any = None, cancel: Any = None) -> Any:
        def step(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total)
            if done >= 100:
                gate.wait(10)

        return real(self, step, cancel)

    monkeypatch.setattr(vector_api.VectorApi, "embed_all", held)
    app.vectors.child_process = False  # a thread the test can hold mid-way
    status = win.status.embedding
    assert not status.label.isVisible() and not status.cancel.isVisible()
    app.vectors.set_profile(HASHED_SPEC)
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: "of" in status.label.text() and status.label.isVisible())
    assert status.label.text().startswith("Embedding 100 of")
    assert status.cancel.isVisible()
    assert win.status.progress.isVisible()  # the shared bar (the layout's too, while it runs)
    text, done, total = win.status._work["embedding"]
    assert (text, done) == (status.label.text(), 100) and total > 500
    with qtbot.waitSignal(app.vectors.job_ended, timeout=10000):
        qtbot.mouseClick(status.cancel, _left())
        gate.set()
    assert not status.label.isVisible() and not status.cancel.isVisible()
    assert "embedding" not in win.status._work
    assert not status.error.isVisible()  # a cancel is no failure


def _left() -> Any:
    from memgraph_gui.views.qt import Qt

    return Qt.MouseButton.LeftButton

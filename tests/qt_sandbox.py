"""Settings sandbox for Qt tests: QSettings go to a temporary folder, never the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def sandboxed_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point QSettings (INI format, user scope) at a fresh temporary folder for each test."""
    from PySide6.QtCore import QCoreApplication, QSettings

    folder = tmp_path_factory.mktemp("settings")
    QCoreApplication.setOrganizationName("memgraph-tests")
    QCoreApplication.setApplicationName("memgraph-gui-tests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):  # Qt's own too
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    yield folder


@pytest.fixture(autouse=True)
def unsaved_question_never_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows built in a test answer "Save your changes?" with Discard instead of a modal box
    (a test that is about the question replaces ``ask_unsaved`` on the part it drives), so closing
    them after the test never waits for a click."""
    from memgraph_gui.views import unsaved

    monkeypatch.setattr(unsaved, "ask_unsaved", lambda _parent, _what: unsaved.Choice.DISCARD)


def app_over_copy(template: Path, folder: Path) -> Iterator[object]:
    """An ``AppModel`` over a private copy of ``template``, closed afterwards (for fixtures)."""
    import shutil

    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    target = folder / template.name
    shutil.copy(template, target)
    model = AppModel(MemoryStore.open(target))
    yield model
    model.close()


@pytest.fixture
def demo_app(qapp: object, demo_template: Path, tmp_path: Path) -> Iterator[object]:
    """An ``AppModel`` over a copy of the session's 600-node demo store."""
    yield from app_over_copy(demo_template, tmp_path)


@pytest.fixture
def inspector(qtbot: Any, app: Any) -> Any:
    """A shown ``NodeInspector`` over the test module's ``app``."""
    from memgraph_gui.views.inspector import NodeInspector

    view = NodeInspector(app)
    qtbot.addWidget(view)
    view.resize(380, 900)
    view.show()
    return view


@pytest.fixture
def agent(app: Any) -> Iterator[Any]:
    """Another writer on the same file (an agent's process, as far as the window can tell)."""
    from memgraph_gui.core import MemoryStore

    other = MemoryStore.open(app.path, create=False)
    yield other
    other.close()


class Asked:
    """A replacement for the Save / Discard / Cancel question that records each question."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.questions: list[str] = []

    def __call__(self, _parent: Any, what: str) -> Any:
        self.questions.append(what)
        return self.answer


def window_over(qtbot: Any, path: Path, *, activate: bool = True) -> tuple[Any, Any]:
    """An app model over the store at ``path`` and its main window, shown (and active)."""
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(path))
    window = MainWindow(app)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    if activate:
        window.activateWindow()
    return app, window

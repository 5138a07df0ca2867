"""File ▸ Import Nuggets graph.json… / Export Nuggets graph.json…: checked off the GUI thread
first, one question, then one undoable write; a bad file is explained and writes nothing; an
export over a graph.json changed on disk asks before overwriting it (offscreen, real stores)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

WAIT = 20000
NOW = "2026-11-26T05:00:00.000Z"


def _note(note_id: str, **extra: Any) -> dict[str, Any]:
    note = {"id": note_id, "nuggetName": "n", "title": f"Title {note_id}", "tags": ["n"]}
    return {**note, "createdAt": NOW, **extra}


def _source(tmp_path: Path, doc: Any, name: str = "graph.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def _window(qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    store = MemoryStore.open(tmp_path / "w.memgraph")
    store.write_api().create_node(type="character_sheet", title="Ann")
    app = AppModel(store)
    window = MainWindow(app)
    qtbot.addWidget(window)
    return app, window


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The titles of the message boxes the window would block on (answered at once: Cancel)."""
    from PySide6.QtWidgets import QMessageBox

    titles: list[str] = []

    def record(box: QMessageBox) -> int:
        titles.append(box.windowTitle())
        return 0

    monkeypatch.setattr(QMessageBox, "exec", record)
    return titles


def _notes(app: Any) -> list[str]:
    from memgraph_gui.core.nuggets.model import is_note

    with app.store.reading() as graph:
        return [n.id for n in sorted(graph.nodes.values(), key=lambda n: n.ord) if is_note(n)]


def test_the_file_menu_offers_both(qtbot, tmp_path: Path) -> None:
    _app, window = _window(qtbot, tmp_path)
    texts = [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    assert "Import &Nuggets graph.json…" in texts and "Export N&uggets graph.json…" in texts


def test_import_is_checked_then_asked_then_one_undo_step(qtbot, tmp_path: Path) -> None:
    app, window = _window(qtbot, tmp_path)
    files = window.nuggets_files
    questions: list[Any] = []

    def answer(_parent: Any, check: Any) -> bool:
        questions.append(check)
        assert _notes(app) == []  # asked before any write
        return True

    files.ask_import = answer
    source = _source(tmp_path, {"version": 3, "notes": [_note("b"), _note("a")]})
    with qtbot.waitSignal(files.imported, timeout=WAIT) as done:
        files.import_file(str(source))
    assert [q.path for q in questions] == [str(source)] and questions[0].notes == 2
    assert done.args[0].notes == 2 and _notes(app) == ["b", "a"]
    qtbot.waitUntil(
        lambda: app.undo.stack.undoText() == "Import graph.json (2 notes)", timeout=WAIT
    )
    assert not window.status.progress.isVisible()
    app.undo_last()
    qtbot.waitUntil(lambda: _notes(app) == [], timeout=WAIT)
    assert "Ann" in [n.title for n in app.store.graph.nodes.values()]  # Luker nodes untouched


def test_cancel_at_the_question_writes_nothing(qtbot, tmp_path: Path) -> None:
    app, window = _window(qtbot, tmp_path)
    files = window.nuggets_files
    files.ask_import = lambda _parent, _check: False
    before = app.store.dump()
    with qtbot.waitSignal(files.checked, timeout=WAIT):
        files.import_file(str(_source(tmp_path, {"notes": [_note("a")]})))
    qtbot.wait(200)
    assert app.store.dump() == before


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("", "is empty"),
        ('{"notes": [{"id": "a", "tags": []}]}', "notes[0].title: missing"),
        ('{"notes": "x"}', "notes: expected a list"),
    ],
)
def test_a_bad_file_is_explained_and_nothing_is_written(
    qtbot, tmp_path: Path, asked: list[str], text: str, place: str
) -> None:
    app, window = _window(qtbot, tmp_path)
    files = window.nuggets_files
    files.ask_import = lambda _parent, _check: pytest.fail("a bad file asks nothing")
    before = app.store.dump()
    source = _source(tmp_path, text)
    with qtbot.waitSignal(files.failed, timeout=WAIT) as failed:
        files.import_file(str(source))
    assert place in failed.args[0].message
    assert asked == ["Import failed — nothing was changed"]
    assert app.store.dump() == before and source.read_text(encoding="utf-8") == text


def test_export_writes_the_notes_and_asks_before_overwriting_a_changed_file(
    qtbot, tmp_path: Path
) -> None:
    _app, window = _window(qtbot, tmp_path)
    files = window.nuggets_files
    files.ask_import = lambda _parent, _check: True
    source = _source(tmp_path, {"version": 3, "notes": [_note("a")]})
    with qtbot.waitSignal(files.imported, timeout=WAIT):
        files.import_file(str(source))
    with qtbot.waitSignal(files.exported, timeout=WAIT) as written:
        files.export_file(str(source))
    assert written.args[0].notes == 1
    exported = source.read_bytes()
    assert json.loads(exported)["notes"][0]["id"] == "a" and exported.endswith(b"}\n")
    source.write_text('{"version": 3, "notes": []}')  # the agent wrote it meanwhile
    agent = source.read_bytes()
    overwrite: list[bool] = [False]
    questions: list[str] = []

    def answer(_parent: Any, path: str, error: Any) -> bool:
        questions.append(path)
        assert error.code == "FILE_CHANGED_ON_DISK"
        return overwrite[0]

    files.ask_overwrite = answer
    files.export_file(str(source))
    qtbot.waitUntil(lambda: len(questions) == 1, timeout=WAIT)
    qtbot.wait(100)
    assert source.read_bytes() == agent  # declined: left as it is
    overwrite[0] = True
    with qtbot.waitSignal(files.exported, timeout=WAIT):
        files.export_file(str(source))
    assert questions == [str(source), str(source)]
    assert source.read_bytes() == exported
    assert Path(f"{source}.bak").read_bytes() == agent


def test_a_check_for_a_memory_closed_since_is_dropped(qtbot, tmp_path: Path) -> None:
    from memgraph_gui.core import MemoryStore

    app, window = _window(qtbot, tmp_path)
    files = window.nuggets_files
    files.ask_import = lambda _parent, _check: pytest.fail("a stale check asks nothing")
    files.import_file(str(_source(tmp_path, {"notes": [_note("a")]})))
    app.replace_store(MemoryStore.open(tmp_path / "other.memgraph"))
    qtbot.wait(500)
    assert _notes(app) == []

"""File ▸ Import Luker export…: the file is read and checked first, one dialog then shows every
repair and what is added or replaced, and only accepting it writes (offscreen, real stores)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.core.test_import_report import renamed_key_document

FAILED = "Import failed — nothing was changed"


def _window(qtbot, path: Path):  # type: ignore[no-untyped-def]
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(path))
    window = MainWindow(app)
    qtbot.addWidget(window)
    return app, window


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The titles of every message box the window would block on (answered at once: Cancel)."""
    from PySide6.QtWidgets import QMessageBox

    titles: list[str] = []

    def record(box: QMessageBox) -> int:
        titles.append(box.windowTitle())
        return 0

    monkeypatch.setattr(QMessageBox, "exec", record)
    return titles


def _source(tmp_path: Path, doc: Any, name: str = "graph.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def _demo(tmp_path: Path, demo_template: Path) -> Path:
    path = tmp_path / "demo.memgraph"
    shutil.copy(demo_template, path)
    return path


def _check(qtbot, window, source: Path):  # type: ignore[no-untyped-def]
    """Ask for the import and return the report dialog once it shows."""
    with qtbot.waitSignal(window.files.import_checked, timeout=20000) as shown:
        window.files.import_file(str(source))
    return shown.args[0]


def test_the_report_shows_before_any_write_and_cancel_writes_nothing(
    qtbot, tmp_path: Path, demo_template: Path, asked: list[str]
) -> None:
    from memgraph_gui.views.qt import QPlainTextEdit, Qt

    path = _demo(tmp_path, demo_template)
    app, window = _window(qtbot, path)
    before = app.store.dump()
    dialog = _check(qtbot, window, _source(tmp_path, renamed_key_document()))
    assert dialog.isVisible() and dialog.windowTitle() == "Replace this memory?"
    assert asked == []  # the one question is this dialog
    assert app.store.dump() == before and not Path(f"{path}.bak").exists()
    summary = dialog.summary.text()
    assert dialog.summary.textFormat() == Qt.TextFormat.PlainText
    assert "Replaces this memory's 600 nodes" in summary and "100 nodes and 900 links" in summary
    assert "75 links moved" in summary and f"kept as {path}.bak" in summary
    details = dialog.details
    assert isinstance(details, QPlainTextEdit) and details.isReadOnly()
    text = details.toPlainText()
    assert "“Kain's oath” (n_42_renamed): its id is n_42" in text
    assert text.count("now “Kain's oath” (n_42_renamed)") == 75
    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    assert app.runner.wait_idle()
    qtbot.wait(50)
    assert app.store.dump() == before and not Path(f"{path}.bak").exists()
    assert window.files.report_dialog is None
    app.close()


def test_accepting_the_report_replaces_the_memory_and_keeps_the_report(
    qtbot, tmp_path: Path, demo_template: Path, asked: list[str]
) -> None:
    from memgraph_gui.core.luker.interop import kept_report
    from memgraph_gui.views.qt import Qt

    path = _demo(tmp_path, demo_template)
    app, window = _window(qtbot, path)
    dialog = _check(qtbot, window, _source(tmp_path, renamed_key_document()))
    with qtbot.waitSignal(window.files.imported, timeout=20000) as done:
        qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    graph = app.store.graph
    assert len(graph.nodes) == 100 and len(graph.edges) == 900
    assert len(graph.edges_of("n_42_renamed")) == 75
    assert Path(f"{path}.bak").exists() and asked == []
    kept = kept_report(app.store.storage)
    assert kept is not None and kept == done.args[0]
    app.close()


def test_a_file_that_fails_the_check_never_asks_to_replace(
    qtbot, tmp_path: Path, demo_template: Path, asked: list[str]
) -> None:
    path = _demo(tmp_path, demo_template)
    app, window = _window(qtbot, path)
    before = app.store.dump()
    bad = _source(tmp_path, {"nodes": {"n_1": {"title": 5}}, "edges": []}, "bad.json")
    checked: list[object] = []
    window.files.import_checked.connect(checked.append)
    window.files.import_file(str(bad))
    qtbot.waitUntil(lambda: bool(asked), timeout=20000)
    assert asked == [FAILED] and checked == []
    assert window.files.report_dialog is None
    assert app.store.dump() == before and not Path(f"{path}.bak").exists()
    app.close()


def test_an_empty_memory_is_asked_to_import_not_to_replace(
    qtbot, tmp_path: Path, asked: list[str]
) -> None:
    from memgraph_gui.views.qt import Qt

    app, window = _window(qtbot, tmp_path / "empty.memgraph")
    doc = {
        "nodes": {"n_1": {"type": "rule_constraint", "title": "No <b>magic</b> at night"}},
        "edges": [{"from": "n_1", "to": "n_9"}],
    }
    dialog = _check(qtbot, window, _source(tmp_path, doc))
    assert dialog.windowTitle() == "Import this Luker file?"
    assert dialog.accept_button.text() == "Import"
    text = dialog.details.toPlainText()
    assert "rule_constraint: 1 node  (new: not in the schema)" in text
    assert "edges[0] “No <b>magic</b> at night” (n_1) —related→ n_9 (no such node)" in text
    assert app.counts().nodes == 0
    with qtbot.waitSignal(window.files.imported, timeout=20000):
        qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    assert app.counts().nodes == 1 and asked == []
    assert not Path(f"{tmp_path / 'empty.memgraph'}.bak").exists()
    app.close()


def test_a_check_for_a_memory_closed_meanwhile_is_dropped(
    qtbot, tmp_path: Path, asked: list[str]
) -> None:
    from memgraph_gui.core import MemoryStore

    app, window = _window(qtbot, tmp_path / "first.memgraph")
    checked: list[object] = []
    window.files.import_checked.connect(checked.append)
    window.files.import_file(str(_source(tmp_path, renamed_key_document())))
    other = MemoryStore.open(tmp_path / "second.memgraph")
    app.replace_store(other)  # before the check could report: it is about the first memory
    qtbot.wait(1500)
    assert checked == [] and asked == [] and window.files.report_dialog is None
    assert app.counts().nodes == 0
    app.close()


def test_a_checked_import_is_written_only_into_the_memory_it_was_checked_against(
    qtbot, tmp_path: Path, demo_template: Path, asked: list[str]
) -> None:
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.qt import Qt

    app, window = _window(qtbot, _demo(tmp_path, demo_template))
    dialog = _check(qtbot, window, _source(tmp_path, renamed_key_document()))
    app.replace_store(MemoryStore.open(tmp_path / "other.memgraph"))  # e.g. a script's switch
    before = app.store.dump()
    qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(asked), timeout=20000)
    assert asked == [FAILED] and app.store.dump() == before
    app.close()


def test_the_check_runs_off_the_gui_thread_reporting_each_stage(
    qtbot, tmp_path: Path, demo_app, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from memgraph_gui.app import files

    real = files.interop.prepare_import
    threads: list[threading.Thread] = []

    def prepare(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(files.interop, "prepare_import", prepare)
    stages: list[tuple[int, int]] = []
    done: list[files.ImportCheck] = []
    checker = files.ImportChecker()
    checker.check(
        demo_app,
        str(_source(tmp_path, renamed_key_document())),
        on_progress=lambda d, t, _text: stages.append((d, t)),
        on_done=done.append,
        on_error=lambda error: pytest.fail(str(error)),
    )
    qtbot.waitUntil(lambda: bool(done), timeout=20000)
    assert stages == [(0, 3), (1, 3), (2, 3)]
    assert threads and threads[0] is not threading.main_thread()
    assert done[0].replace and done[0].report.plan is not None


def test_the_imported_message_agrees_in_number(qapp) -> None:  # type: ignore[no-untyped-def]
    from memgraph_gui.views.file_actions import _imported_message

    assert _imported_message(1, 1, 1) == "Imported 1 node and 1 link (1 repair, as listed)."
    assert _imported_message(1_200, 0, 0) == "Imported 1,200 nodes and 0 links, with no repairs."
    assert _imported_message(2, 3, 4) == "Imported 2 nodes and 3 links (4 repairs, as listed)."


def test_a_tuned_window_checks_with_the_collector_paused_throughout(
    qtbot, tmp_path: Path, demo_app, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before, only the file read paused it: parsing and comparing a 50k file then set off full
    collections of the growing heap (0.2-0.35 s each, holding the GIL: the window froze)."""
    import gc

    from memgraph_gui.app import files, process_tuning

    collecting: dict[str, bool] = {}
    for name in ("prepare_import", "check_import"):
        real = getattr(files.interop, name)

        def spy(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            collecting[_name] = gc.isenabled()
            return _real(*args, **kwargs)

        monkeypatch.setattr(files.interop, name, spy)
    process_tuning.tune_process()
    done: list[object] = []
    checker = files.ImportChecker()
    try:
        checker.check(
            demo_app,
            str(_source(tmp_path, renamed_key_document())),
            on_progress=lambda *_: None,
            on_done=done.append,
            on_error=done.append,
        )
        qtbot.waitUntil(lambda: bool(done), timeout=20000)
    finally:
        process_tuning.tune_process(False)
        gc.unfreeze()
    assert isinstance(done[0], files.ImportCheck)
    assert collecting == {"prepare_import": False, "check_import": False}
    assert gc.isenabled()

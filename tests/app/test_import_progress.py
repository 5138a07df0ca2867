"""An import through the window reports its progress on the GUI thread, and the window's reads
are served from the old graph while it loads (never a half-loaded one)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from memgraph_gui.app import files
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.luker.interop import export_luker


def test_an_import_reports_progress_on_the_gui_thread_and_reads_see_the_old_graph(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = MemoryStore.open(":memory:")
    load_demo(source, 12_000, 5)
    export = tmp_path / "export.json"
    export.write_text(json.dumps(export_luker(source.storage)), encoding="utf-8")
    source.close()
    app = AppModel(MemoryStore.open(tmp_path / "s.memgraph"))
    app.store.write_api().create_node(type="character_sheet", title="Before")
    gui = threading.current_thread()
    reports: list[tuple[int, int, bool, int]] = []

    def on_progress(done: int, total: int) -> None:
        reports.append((done, total, threading.current_thread() is gui, app.counts().nodes))

    checked: list[object] = []
    checker = files.ImportChecker()  # kept: its signals bring the result back
    checker.check(
        app,
        str(export),
        on_progress=lambda *_: None,
        on_done=checked.append,
        on_error=checked.append,
    )
    qtbot.waitUntil(lambda: bool(checked), timeout=60_000)
    check = checked[0]
    assert isinstance(check, files.ImportCheck) and check.replace, check
    finished: list[object] = []
    released_on: list[threading.Thread] = []
    release = files.interop.release_prepared

    def releasing(prepared: object) -> None:
        released_on.append(threading.current_thread())
        release(prepared)  # type: ignore[arg-type]

    monkeypatch.setattr(files.interop, "release_prepared", releasing)
    files.install_import(
        app, check, on_done=finished.append, on_error=finished.append, on_progress=on_progress
    )
    qtbot.waitUntil(lambda: bool(finished), timeout=60_000)
    assert finished[0] is check.report, finished  # the report, not an error
    assert len(reports) >= 3
    assert all(on_gui for _, _, on_gui, _ in reports)
    dones = [done for done, *_ in reports]
    assert dones == sorted(dones) and reports[-1][0] == reports[-1][1]
    # while the rows were being written, the window read the old graph (1 node), never a part
    assert {seen for done, total, _, seen in reports if done < total} <= {1, 12_000}
    assert app.counts().nodes == 12_000
    # the written rows were dropped on the writer, a slice at a time, not whole on the GUI
    # thread when the window lets go of the check (~100 ms frozen after a 50k import)
    assert len(released_on) == 1 and released_on[0] is not gui
    assert not check.prepared.parsed.nodes and not check.prepared.parsed.edges
    assert check.report.nodes == 12_000
    app.close()

"""An import through the window reports its progress on the GUI thread, and the window's reads
are served from the old graph while it loads (never a half-loaded one)."""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Iterator
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
    release = files.interop.releasing_prepared

    def releasing(prepared: object) -> Iterator[bool]:
        for step in release(prepared):  # type: ignore[arg-type]
            released_on.append(threading.current_thread())
            yield step

    monkeypatch.setattr(files.interop, "releasing_prepared", releasing)
    old_graph = weakref.ref(app.store.peek_graph)
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
    # the written rows, and the graph replaced, are freed on the GUI thread a step at a time
    # between frames: not whole where the last reference goes (on the writer, or where the
    # window lets go of the check), which froze the window 100-160 ms after a 50k import
    qtbot.waitUntil(lambda: app.disposal.pending() == 0, timeout=10_000)
    assert len(released_on) >= 12 and set(released_on) == {gui}
    assert not check.prepared.parsed.nodes and not check.prepared.parsed.edges
    assert old_graph() is None
    assert check.report.nodes == 12_000
    app.close()

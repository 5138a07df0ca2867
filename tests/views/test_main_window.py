"""The minimal main window over a real store (offscreen)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _window(qtbot, path: Path):  # type: ignore[no-untyped-def]
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(path))
    window = MainWindow(app)
    qtbot.addWidget(window)
    return app, window


def test_window_lists_every_node_and_counts(qtbot, demo_template: Path, tmp_path: Path) -> None:
    import shutil

    path = tmp_path / "d.memgraph"
    shutil.copy(demo_template, path)
    app, window = _window(qtbot, path)
    assert window.timeline.rowCount() == 600
    assert window.status.counts.text().startswith("600 nodes")
    first = window.timeline.index(0, 3).data()
    assert isinstance(first, str) and first
    app.close()


def test_external_process_write_shows_up(qtbot, tmp_path: Path) -> None:
    from memgraph_gui.core import MemoryStore

    path = tmp_path / "x.memgraph"
    MemoryStore.open(path).close()
    app, window = _window(qtbot, path)
    assert window.timeline.rowCount() == 0
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        subprocess.run(
            [
                sys.executable,
                "-m",
                "memgraph_gui.cli",
                "--db",
                str(path),
                "call",
                "createNode",
                '[{"type": "character_sheet", "title": "Eileen"}]',
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
    qtbot.waitUntil(lambda: window.timeline.rowCount() == 1, timeout=5000)
    assert window.timeline.index(0, 3).data() == "Eileen"
    qtbot.waitUntil(lambda: "none" not in window.status.external.text(), timeout=5000)
    app.close()


def test_node_text_is_plain_text(qtbot, tmp_path: Path) -> None:
    from memgraph_gui.core import MemoryStore

    path = tmp_path / "h.memgraph"
    with MemoryStore.open(path) as s:
        s.write_api().create_node(type="character_sheet", title="<b>bold</b><img src=x>")
    app, window = _window(qtbot, path)
    assert window.timeline.index(0, 3).data() == "<b>bold</b><img src=x>"
    app.close()


def test_screenshot_command_writes_a_png(tmp_path: Path, demo_template: Path) -> None:
    import shutil

    out = tmp_path / "shot.png"
    store = tmp_path / "demo.memgraph"
    shutil.copy(demo_template, store)  # the window saves its layout into the file it opens
    result = subprocess.run(
        [sys.executable, "-m", "memgraph_gui", "--screenshot", str(out), str(store)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_corrupt_file_is_explained_and_the_demo_opens(tmp_path: Path, monkeypatch) -> None:
    bad = tmp_path / "bad.memgraph"
    bad.write_bytes(b"this is not sqlite" * 100)
    out = tmp_path / "shot.png"
    env_home = tmp_path / "home"
    result = subprocess.run(
        [sys.executable, "-m", "memgraph_gui", "--screenshot", str(out), str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "XDG_DATA_HOME": str(env_home)},
    )
    assert result.returncode == 0
    assert "could not be opened" in result.stderr
    assert out.exists()


def _problems(monkeypatch):  # type: ignore[no-untyped-def]
    """Record the dialogs the window would show instead of blocking on them."""
    from memgraph_gui.views import file_actions

    shown: list = []
    monkeypatch.setattr(
        file_actions, "show_problem", lambda _parent, problem: shown.append(problem)
    )
    return shown


@pytest.mark.parametrize(
    ("damage", "code", "title"),
    [
        ("bad-json", "STORE_DAMAGED", "The memory store is damaged"),
        ("foreign", "STORE_FOREIGN", "Another program's database"),
        ("not-sqlite", "NOT_A_STORE", "Not a memory store"),
    ],
)
def test_a_file_that_cannot_be_used_shows_a_dialog_and_the_app_stays_usable(
    qtbot, tmp_path: Path, monkeypatch, damage: str, code: str, title: str
) -> None:
    import sqlite3

    from memgraph_gui.core import MemoryStore

    bad = tmp_path / "bad.memgraph"
    if damage == "not-sqlite":
        bad.write_text("just some notes\n" * 100)
    elif damage == "foreign":
        with sqlite3.connect(bad) as raw:
            raw.execute("CREATE TABLE notes (body TEXT)")
        raw.close()
    else:
        with MemoryStore.open(bad) as s:
            s.write_api().create_node(type="character_sheet", title="Eileen")
        with sqlite3.connect(bad) as raw:
            raw.execute("UPDATE nodes SET fields = '{oops'")
        raw.close()
    shown = _problems(monkeypatch)
    app, window = _window(qtbot, tmp_path / "good.memgraph")
    good = app.store
    window.open_path(str(bad))
    qtbot.waitUntil(lambda: not window.files.opening, timeout=10000)
    assert [(p.code, p.title, p.fatal) for p in shown] == [(code, title, True)]
    assert str(bad) in shown[0].message and "Traceback" not in shown[0].message
    assert app.store is good and not good.closed  # the open memory is still there, usable
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        app.apply_sync(lambda w: w.create_node(type="location_state", title="Tower"))
    assert window.timeline.rowCount() == 1
    app.close()


def test_a_read_only_store_opens_with_a_notice(qtbot, tmp_path: Path, monkeypatch) -> None:
    from memgraph_gui.app import opening
    from memgraph_gui.core import MemoryStore

    path = tmp_path / "ro.memgraph"
    with MemoryStore.open(path) as s:
        s.write_api().create_node(type="character_sheet", title="Eileen")
    real_open = MemoryStore.open

    def open_read_only(target, **kwargs):  # type: ignore[no-untyped-def]
        store = real_open(target, **kwargs)
        store.storage.read_only = "file"  # as a chmod 444 file opens (tested for real in core)
        return store

    monkeypatch.setattr(opening.MemoryStore, "open", open_read_only)
    shown = _problems(monkeypatch)
    app, window = _window(qtbot, tmp_path / "good.memgraph")
    window.open_path(str(path))
    qtbot.waitUntil(lambda: not window.files.opening, timeout=10000)
    assert [(p.code, p.fatal) for p in shown] == [("STORE_READ_ONLY", False)]
    assert app.store.path == str(path) and window.timeline.rowCount() == 1
    app.close()


def test_selection_stays_in_sync_across_the_three_panes(
    qtbot, demo_template: Path, tmp_path: Path
) -> None:
    """Graph click -> timeline row and inspector; timeline row -> graph ring and inspector;
    inspector child link -> graph ring and timeline row."""
    import shutil

    from PySide6.QtCore import QPointF

    from memgraph_gui.views.qt import Qt

    path = tmp_path / "sync.memgraph"
    shutil.copy(demo_template, path)
    app, window = _window(qtbot, path)
    graph, timeline, inspector = window.graph_view, window.timeline_panel, window.inspector
    scene = graph.scene
    row = next(  # a rollup the overview shows (it folds some away)
        r for r in range(scene.n) if app.node(scene.ids[r]).children_ids and graph.visible[r]
    )
    rollup = scene.ids[row]
    graph.view.setRange(
        xRange=(scene.pos[row, 0] - 1e-3, scene.pos[row, 0] + 1e-3),
        yRange=(scene.pos[row, 1] - 1e-3, scene.pos[row, 1] + 1e-3),
        padding=0,
    )
    qtbot.wait(50)
    point = graph.view.mapViewToScene(QPointF(*scene.pos[row]))
    qtbot.mouseClick(
        graph.plot.viewport(), Qt.MouseButton.LeftButton, pos=graph.plot.mapFromScene(point)
    )
    assert app.selection.current == rollup
    assert inspector.node_id == rollup
    selected = [i.row() for i in timeline.table.selectionModel().selectedRows()]
    assert selected == [window.timeline.row_of(rollup)]

    other_row = window.timeline.row_of(app.node(rollup).children_ids[0])
    timeline.table.selectRow(other_row)
    child = window.timeline.node_id(other_row)
    assert inspector.node_id == child and graph.selection.rows == {scene.index[child]}

    assert app.node(child).parent_id == rollup
    inspector.header.parent_button.click()  # the inspector's parent link
    assert app.selection.current == rollup and graph.selection.rows == {row}
    assert [i.row() for i in timeline.table.selectionModel().selectedRows()] == [
        window.timeline.row_of(rollup)
    ]
    app.close()

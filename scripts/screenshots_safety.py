"""Take the README's shots of the desk's safety nets under a real X display (Xvfb), as a user sees them.

    Xvfb :77 -screen 0 1600x1000x24 &
    DISPLAY=:77 QT_QPA_PLATFORM=xcb .venv/bin/python scripts/screenshots_safety.py docs/screenshots [WxH]

Writes, each over a private copy of the bundled 2,000-node demo:

- ``inspector-conflict.png``: the inspector after an event's summary was typed into while another
  process (``memgraph call editNode``) changed it: Yours / Stored now, the difference, Keep mine /
  Take theirs;
- ``undo-conflict.png``: Ctrl+Z after two inspector edits (A, then B) when another process has
  changed B since: the dialog naming the node, the field, who and when, with Skip this step /
  Undo anyway… / Cancel;
- ``import-report.png``: File ▸ Import of a Luker export (made with ``memgraph export-luker``)
  in which one node's key differs from its own ``id`` and one node has a type the schema lacks:
  the one report shown before anything is written, with Replace this memory / Cancel.

The window is 1560×940 unless WxH is given (``1024x700`` checks that nothing is clipped on a
small screen). Dialogs are separate windows, so the shots are taken from the screen (the window's
rectangle), not rendered from the widget. The other process is the ``memgraph`` command next to
the running Python (as an agent runs it), so the dialogs name it ``memgraph:PID``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SUMMARY_THEIRS = (
    "时间：第1天；地点：古塔。Lina draws her sword against Kain Ashford（拔剑对峙）。"
    "Blood is spilled, and the oath between the two houses cannot be taken back."
)
SUMMARY_MINE = " She regrets it at dawn and buries the sword under the old tower."


def main(out_dir: str, size: str = "1560x940") -> None:
    from memgraph_gui.views.qt import QApplication

    qt = QApplication.instance() or QApplication(sys.argv[:1])
    qt.setOrganizationName("memgraph-screenshots-safety")
    width, height = (int(v) for v in size.lower().split("x"))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    _inspector_conflict(qt, out, (width, height))
    _undo_conflict(qt, out, (width, height))
    _import_report(qt, out, (width, height))


# -- the shots -------------------------------------------------------------------------------------
def _inspector_conflict(qt: Any, out: Path, size: tuple[int, int]) -> None:
    work = _demo_copy()
    window, app = _window(qt, work, size)
    event = _first(app, "event")
    app.selection.select([event])
    _settle(qt, window)
    row = window.inspector.form.row("summary")
    _type_at_end(qt, row.editor.area, SUMMARY_MINE)
    _memgraph(work, "editNode", {"id": event, "setFields": {"summary": SUMMARY_THEIRS}})
    _wait(qt, lambda: app.store.graph.nodes[event].fields.get("summary") == SUMMARY_THEIRS)
    row.editor.apply()  # what leaving the field or Ctrl+Enter does
    _wait(qt, lambda: row.conflict.pending)
    _settle(qt, window)
    window.inspector_dock.grab().save(str(out / "inspector-conflict.png"))
    _close(window, app)


def _undo_conflict(qt: Any, out: Path, size: tuple[int, int]) -> None:
    work = _demo_copy()
    window, app = _window(qt, work, size)
    first, second = _characters(app)[:2]
    for node_id, goal in ((first, "protect the inn"), (second, "find the lost crown")):
        app.selection.select([node_id])
        _settle(qt, window)
        editor = window.inspector.form.row("goal").editor
        editor.line.selectAll()
        _type_at_end(qt, editor.line, goal)
        editor.line.editingFinished.emit()  # Enter
        _wait(qt, lambda n=node_id, g=goal: app.store.graph.nodes[n].fields.get("goal") == g)
    _memgraph(work, "editNode", {"id": second, "setFields": {"goal": "marry into the royal house"}})
    _wait(qt, lambda: app.store.graph.nodes[second].fields.get("goal") != "find the lost crown")
    _wait(qt, window.undo_action.isEnabled)
    window.timeline_panel.setFocus()
    window.undo_action.trigger()  # Ctrl+Z
    _wait(qt, lambda: window.undo_conflict is not None and window.undo_conflict.isVisible())
    _settle(qt, window)
    _screen_shot(qt, window, out / "undo-conflict.png")
    window.undo_conflict.reject()
    _close(window, app)


def _import_report(qt: Any, out: Path, size: tuple[int, int]) -> None:
    work = _demo_copy()
    export = work.with_name("memory-graph-chat.json")
    _run(work, "export-luker", str(export))
    document = json.loads(export.read_text(encoding="utf-8"))
    nodes = document["nodes"]
    characters = [k for k, n in nodes.items() if n["type"] == "character_sheet"]
    nodes[characters[0]]["id"] = f"{characters[0]}_old"  # a key that differs from its own id
    nodes[characters[1]]["type"] = "prophecy"  # a type the schema does not define
    export.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    window, app = _window(qt, work, size)
    window.files.import_file(str(export))  # what File ▸ Import Luker export… does with the file
    _wait(qt, lambda: _visible(getattr(window.files, "report_dialog", None)), 60)
    _settle(qt, window)
    _screen_shot(qt, window, out / "import-report.png")
    window.files.report_dialog.reject()  # Cancel: nothing is written
    _close(window, app)


# -- helpers ----------------------------------------------------------------------------------------
def _demo_copy() -> Path:
    from memgraph_gui.app.opening import demo_path, open_demo

    open_demo().close()  # make sure the demo exists, then work on a copy
    work = Path(tempfile.mkdtemp(prefix="shots-safety-")) / "demo.memgraph"
    shutil.copy(demo_path(), work)
    return work


def _window(qt: Any, path: Path, size: tuple[int, int]) -> tuple[Any, Any]:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core.memory import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(":memory:"))
    window = MainWindow(app)
    window.files.dialogs = False
    window.move(0, 0)
    window.resize(*size)
    window.show()
    window.open_path(str(path))
    _settle(qt, window)
    return window, app


def _first(app: Any, type_id: str) -> str:
    graph = app.store.graph
    live = [n for n in graph.nodes.values() if n.type == type_id and not n.archived]
    return min(live, key=lambda n: (n.seq_to, n.id)).id


def _characters(app: Any) -> list[str]:
    graph = app.store.graph
    live = [n for n in graph.nodes.values() if n.type == "character_sheet" and not n.archived]
    return [n.id for n in sorted(live, key=lambda n: (n.seq_to, n.id))]


def _type_at_end(qt: Any, widget: Any, text: str) -> None:
    """Type ``text`` with real key events (as a person does), after what the field holds."""
    from PySide6.QtGui import QTextCursor
    from PySide6.QtTest import QTest

    widget.setFocus()
    if hasattr(widget, "moveCursor"):
        widget.moveCursor(QTextCursor.MoveOperation.End)
    QTest.keyClicks(widget, text)
    qt.processEvents()


def _memgraph(path: Path, method: str, *args: Any) -> None:
    """Another process (an agent) calls the API on the same file."""
    _run(path, "call", method, json.dumps(list(args), ensure_ascii=False))


def _run(path: Path, *argv: str) -> None:
    command = shutil.which("memgraph", path=str(Path(sys.executable).parent))
    base = [command] if command else [sys.executable, "-m", "memgraph_gui.cli"]
    subprocess.run([*base, "--db", str(path), *argv], check=True, capture_output=True, cwd=ROOT)


def _screen_shot(qt: Any, window: Any, target: Path) -> None:
    """The window's rectangle of the screen: the window and any dialog over it."""
    frame = window.frameGeometry()
    screen = qt.primaryScreen()
    screen.grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height()).save(str(target))


def _visible(widget: Any) -> bool:
    return widget is not None and widget.isVisible()


def _settle(qt: Any, window: Any, timeout: float = 90.0) -> None:
    _wait(qt, window.settled, timeout)
    for _ in range(30):
        _pump(qt)
        time.sleep(0.02)


def _wait(qt: Any, done: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        _pump(qt)
        time.sleep(0.01)


def _pump(qt: Any) -> None:
    """What the event loop does between events, including ``deleteLater`` (``processEvents``
    alone leaves deferred deletes to a running ``exec``, and widgets taken out of a layout would
    stay on screen)."""
    from PySide6.QtCore import QEvent

    qt.processEvents()
    qt.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _close(window: Any, app: Any) -> None:
    from memgraph_gui.views.unsaved import Choice

    window.ask_unsaved = window.inspector.ask_unsaved = lambda *_: Choice.DISCARD
    window.close()
    app.close()


if __name__ == "__main__":
    main(*sys.argv[1:3])

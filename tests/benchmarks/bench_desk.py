"""Whole-window benchmarks on the 50,000-node demo (run on demand, not in CI).

    python -m tests.benchmarks.bench_desk [--db FILE] [--nodes 50000]

Builds the demo with a saved layout (``memgraph demo`` + ``memgraph layout``) unless ``--db``
names one, then, each against the obvious alternative in the same run:

- open → interactive: a fresh window process opens the file and draws the graph from its saved
  positions (timed from the open request to the end of the first paint of the complete picture:
  the store hands over its rows before building its graph; pan and zoom work), vs the
  same file without saved positions (open + first layout frame); and when the whole window is
  ready (the store open: timeline, inspector, selection, editing);
- one edit → GUI-thread time: a title edit made through the app's writer; the time the GUI
  thread spends delivering the ChangeSet to every pane, running their deferred refreshes and
  repainting what changed, vs the pre-desk way (a model reset and a full count per ChangeSet);
- the memory of the window process after opening (peak RSS), bar 600 MB.

Prints a markdown table: measure, result, bar, alternative, ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]

from tests.benchmarks.bench_graph_view import build_store  # noqa: E402  (after QT_QPA_PLATFORM)

PROBE = r"""
import json, os, resource, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.views.qt import QApplication, QEventLoop, QTimer
from memgraph_gui.core.memory import MemoryStore
from memgraph_gui.views.main_window import MainWindow
qt = QApplication([])
app = AppModel(MemoryStore.open(":memory:"))
window = MainWindow(app)
window.resize(1400, 900)
window.show()
qt.processEvents()
empty = window.graph_view.scene
painted = []  # when each paint of the graph's viewport ended
plot = window.graph_view.plot
paint = plot.paintEvent
def timed_paint(event):
    paint(event)
    painted.append(time.perf_counter())
plot.paintEvent = timed_paint
tick = QTimer()
tick.start(50)  # wakes the loop below now and then, as a window's own timers do
def complete():
    scene = window.graph_view.scene
    return scene is not empty and scene is not None and scene.n and scene.placed.all()
def first_paint_after(moment):
    while not painted or painted[-1] < moment:
        qt.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    return next(t for t in painted if t >= moment)
start = time.perf_counter()
window.open_path(sys.argv[1])
while not complete():  # from saved positions (a preview, then the store) or a first layout frame
    qt.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
drawn = first_paint_after(time.perf_counter()) - start
while window.files.opening:
    qt.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
ready = time.perf_counter() - start
window.graph_view.shutdown()
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"interactive": drawn, "ready": ready, "rss_mb": rss,
                  "nodes": window.graph_view.scene.n}))
app.close()
"""


def probe(path: Path) -> dict[str, Any]:
    """Open ``path`` in a fresh window process; its timings and peak RSS."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def without_positions(path: Path, folder: Path) -> Path:
    """A copy of the store with its saved layout cleared."""
    import sqlite3

    copy = folder / "no-layout.memgraph"
    with sqlite3.connect(path) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    with sqlite3.connect(copy) as conn:
        conn.execute("DELETE FROM positions")
    return copy


def edit_rows(path: Path, edits: int = 20) -> tuple[float, float]:
    """Median GUI-thread seconds per edit: the desk's incremental panes vs a reset per edit."""
    from memgraph_gui.app import ops
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core.memory import MemoryStore
    from memgraph_gui.views.main_window import MainWindow
    from memgraph_gui.views.qt import QApplication

    qt = QApplication.instance() or QApplication([])
    app = AppModel(MemoryStore.open(path))
    window = MainWindow(app)
    window.resize(1400, 900)
    window.show()
    _settle(qt, window)
    live = [i for i in app.timeline_ids() if not app.node(i).archived]  # editable ones
    ids = live[-edits * 3 :: 3]
    ours = [_one_edit(qt, window, app, ops, node_id, reset=False) for node_id in ids]
    theirs = [_one_edit(qt, window, app, ops, node_id, reset=True) for node_id in ids]
    window.graph_view.shutdown()
    window.close()
    app.close()
    return statistics.median(ours), statistics.median(theirs)


def _settle(qt: Any, window: Any) -> None:
    for _ in range(200):
        qt.processEvents()
        if window.settled():
            break
        time.sleep(0.01)
    qt.processEvents()


def _one_edit(qt: Any, window: Any, app: Any, ops: Any, node_id: str, *, reset: bool) -> float:
    """Select a node (inspector, timeline row and graph ring show it), then edit its title as
    another writer would (so the inspector reloads too); time the GUI thread from the op's
    completion (the undo mirror, the ChangeSet delivered to every pane) through the panes'
    deferred refreshes and repaints."""
    spent: list[float] = []
    runner = app.runner
    finished = runner._on_finished

    def timed(item: Any) -> None:
        start = time.perf_counter()
        finished(item)
        if reset:  # the pre-desk way: a reset and a full count for every ChangeSet
            window.timeline.reload()
            app.read(lambda g: sum(1 for n in g.nodes.values() if n.archived))
        qt.processEvents()  # the panes' deferred (0 ms) refreshes and the repaint they asked for
        spent.append(time.perf_counter() - start)

    app.selection.select([node_id])  # shown in the inspector, revealed in timeline and graph
    for _ in range(5):
        qt.processEvents()
    runner._finished.disconnect()
    runner._finished.connect(timed)
    ops.edit_node(app, node_id, title=f"Edited {time.time():.6f}")
    while not spent:
        qt.processEvents()
        time.sleep(0.001)
    runner._finished.disconnect()
    runner._finished.connect(finished)
    for _ in range(3):
        qt.processEvents()
    return spent[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path)
    parser.add_argument("--nodes", type=int, default=50_000)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-desk-"))
    path = options.db or folder / "demo.memgraph"
    if options.db is None:
        build_store(path, options.nodes)
    saved = [probe(path) for _ in range(5)]
    fresh = probe(without_positions(path, folder))
    interactive = statistics.median(s["interactive"] for s in saved)
    ready = statistics.median(s["ready"] for s in saved)
    edit, reset = edit_rows(path)
    rss = max(s["rss_mb"] for s in saved)
    rows = [
        (
            "open → interactive, graph from saved positions",
            f"{interactive:.2f} s",
            "≤ 1.5 s",
            f"no saved layout (open + first layout frame): {fresh['interactive']:.2f} s",
            fresh["interactive"] / interactive,
        ),
        (
            "  … whole window ready (store open: timeline, inspector, editing)",
            f"{ready:.2f} s",
            "",
            f"no saved layout: {fresh['ready']:.2f} s",
            None,
        ),
        (
            "one edit → GUI-thread time",
            f"{edit * 1000:.1f} ms",
            "≤ 16 ms",
            f"reset + full count per ChangeSet: {reset * 1000:.1f} ms",
            reset / edit,
        ),
        ("RSS of the window after open (peak)", f"{rss:.0f} MB", "≤ 600 MB", "", None),
    ]
    print(f"\n{saved[0]['nodes']:,} active nodes\n")
    print("| measure | result | bar | alternative (same run) | ratio |\n|---|---:|---|---|---:|")
    for name, result, bar, other, ratio in rows:
        shown = f"{ratio:.1f}×" if ratio else ""
        print(f"| {name} | {result} | {bar} | {other} | {shown} |")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

"""The window keeps painting while a 50k import runs (run on demand, not in CI).

    python -m tests.benchmarks.bench_import_window [--nodes 50000] [--baseline SRC]

A fresh window process (offscreen) shows a memory and imports a Luker export of the ``--nodes``
demo through the path File ▸ Import takes (``app.files.import_luker``, replacing). Two shapes:
the window shows a 200-node memory, and the window shows a memory as big as the import (its
whole graph and picture replaced: the old ones are freed while the new one is shown). The
window is given 8 s to settle (a big memory's first layout) before the import starts.
The probe opts in to the window's process tuning as its ``main`` does. Meanwhile a 10 ms timer on
the GUI thread repaints the window and reads through the app model (``counts()``, ``node`` and
``edges_of`` of an event, which take the store lock, as the panes do); the gap between two
ticks is a frame.
Frames are reported per phase: the check (reading and parsing the file off the GUI thread, until
its result is back), the write (from then until the commit, seen on the writer thread) and the
swap (from the commit until the import's completion callback plus 1 s: the window takes the new
graph, reloads its panes and paints it); the old code, which had no separate check, counts its
whole import as the write. Each phase gives median / p95 / longest frame.

``--baseline SRC`` runs the same probe with ``PYTHONPATH=SRC`` (e.g. a checkout of the code
before issue 19, whose bulk load held the store lock), and prints the ratio of the longest
frames. Bar: frames ≤ 33 ms while the import runs and its result is shown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import inspect, json, os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
store_path, export = sys.argv[1], sys.argv[2]
from memgraph_gui.app import files
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.core.memory import MemoryStore
from memgraph_gui.views.main_window import MainWindow
try:
    from memgraph_gui.views.qt import QApplication, QEventLoop, QTimer
except ImportError:  # the code before issue 19 imported Qt directly
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication
try:  # as the window's main does (the code before issue 19 had no such opt-in)
    from memgraph_gui.app.process_tuning import tune_process
    tune_process()
except ImportError:
    pass
qt = QApplication([])
app = AppModel(MemoryStore.open(store_path))
window = MainWindow(app)
window.resize(1400, 900)
window.show()
settle = time.perf_counter() + float(sys.argv[3])
while time.perf_counter() < settle:
    qt.processEvents()
    time.sleep(0.01)
ticks, reports, marks = [], [], {}
def tick():
    app.counts()
    app.node("n_1")  # a read under the store lock, as the timeline's and inspector's are
    app.edges_of("n_150")  # (not n_1's: in the story demo it is the 11k-edge protagonist,
    # whose link list no pane reads every frame)
    window.repaint()
    ticks.append(time.perf_counter())
timer = QTimer()
timer.timeout.connect(tick)
timer.start(10)
# the commit, seen on the writer thread as it happens (the window is told of it right after)
app.store.subscribe(lambda changes: marks.setdefault("applied", time.perf_counter()))
ended = []
progress = lambda done, total: reports.append((time.perf_counter(), done, total))
marks["start"] = time.perf_counter()
if hasattr(files, "ImportChecker"):  # issue 19: read and checked first (off the GUI thread)
    checked = []
    checker = files.ImportChecker()
    checker.check(app, export, on_progress=lambda *a: None, on_done=checked.append,
                  on_error=checked.append)
    while not checked:
        qt.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    marks["checked"] = time.perf_counter()
    files.install_import(app, checked[0], on_done=ended.append, on_error=ended.append,
                         on_progress=progress)
    checked.clear()  # the window keeps no reference either: the check is freed where it ends
else:
    kwargs = {}
    if "on_progress" in inspect.signature(files.import_luker).parameters:
        kwargs["on_progress"] = progress
    files.import_luker(app, export, replace=True, on_done=ended.append, on_error=ended.append,
                       **kwargs)
while not ended:
    qt.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
marks["done"] = time.perf_counter()
until = marks["done"] + 1.0
while time.perf_counter() < until:
    qt.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
timer.stop()
marks.setdefault("applied", marks["done"])
print(json.dumps({"ticks": ticks, "marks": marks, "reports": len(reports),
                  "nodes": app.counts().nodes,
                  "ok": not isinstance(ended[0], Exception) and not hasattr(ended[0], "code")}))
window.graph_view.shutdown()
app.close()
"""


CLI = [sys.executable, "-m", "memgraph_gui.cli"]


def make_export(nodes: int, folder: Path) -> Path:
    """A Luker export of the ``nodes`` demo."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    big, export = folder / "big.memgraph", folder / "export.json"
    subprocess.run([*CLI, "--db", str(big), "demo", "--nodes", str(nodes)], check=True, env=env)
    subprocess.run([*CLI, "--db", str(big), "export-luker", str(export)], check=True, env=env)
    return export


def probe(source: Path, export: Path, folder: Path, shown: int) -> dict:
    """The window of the code in ``source`` over a store of ``shown`` nodes (made by that code:
    an older one cannot open a newer store format) importing ``export``."""
    store = folder / f"window-{abs(hash(str(source)))}-{shown}.memgraph"
    env = {**os.environ, "PYTHONPATH": str(source), "QT_QPA_PLATFORM": "offscreen"}
    subprocess.run(
        [*CLI, "--db", str(store), "demo", "--nodes", str(shown)],
        check=True,
        env=env,
        capture_output=True,
        cwd=folder,  # not this checkout's: ``-m`` puts the working folder first on the path
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(store), str(export), "1" if shown < 1000 else "8"],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,
    )
    if done.returncode:
        raise SystemExit(f"the probe of {source} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def frames(result: dict, start: str, end: str, extra: float = 0.0) -> list[float]:
    """Milliseconds between consecutive ticks inside [marks[start], marks[end] + extra]."""
    low, high = result["marks"][start], result["marks"][end] + extra
    inside = [t for t in result["ticks"] if low <= t <= high]
    return [1000 * (b - a) for a, b in pairwise(inside)]


def summary(gaps: list[float]) -> str:
    if not gaps:
        return "—"
    p95 = sorted(gaps)[int(0.95 * (len(gaps) - 1))]
    return f"{statistics.median(gaps):.0f} / {p95:.0f} / {max(gaps):.0f} ms ({len(gaps)})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--baseline", help="source folder of the code to compare with")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        export = make_export(options.nodes, folder)
        runs = {}
        for shown in (200, options.nodes):
            runs[f"now, {shown:,}-node window"] = probe(ROOT, export, folder, shown)
            if options.baseline:
                runs[f"baseline, {shown:,}-node window"] = probe(
                    Path(options.baseline), export, folder, shown
                )
    print(f"\nImport of {options.nodes:,} nodes in the window: frames median / p95 / max (count)\n")
    print("| code | check | write | swap and first paint | whole import | took | progress |")
    print("|---|---|---|---|---|---:|---:|")
    worst: dict[str, dict[str, float]] = {}
    for code, result in runs.items():
        assert result["ok"] and result["nodes"] == options.nodes, result
        marks = result["marks"]
        checked = "checked" if "checked" in marks else "start"
        phases = {
            "check": frames(result, "start", checked),
            "write": frames(result, checked, "applied"),
            "swap": frames(result, "applied", "done", extra=1.0),
            "whole": frames(result, "start", "done", extra=1.0),
        }
        worst[code] = {name: max(gaps, default=0.0) for name, gaps in phases.items()}
        took = marks["done"] - marks["start"]
        cells = " | ".join(summary(phases[name]) for name in ("check", "write", "swap", "whole"))
        print(f"| {code} | {cells} | {took:.2f} s | {result['reports']} |")
    print()
    for code, now in worst.items():
        if not code.startswith("now"):
            continue
        shape = code.removeprefix("now, ")
        for name in ("check", "write", "swap", "whole"):
            verdict = "ok" if now[name] <= 33 else "OVER the 33 ms bar"
            line = f"{shape}, longest frame, {name}: {now[name]:.0f} ms ({verdict})"
            before = worst.get(f"baseline, {shape}", {}).get(name)
            if before is not None and now[name]:
                line += f"; baseline {before:.0f} ms ({before / now[name]:.1f}x)"
            print(line)


if __name__ == "__main__":
    main()

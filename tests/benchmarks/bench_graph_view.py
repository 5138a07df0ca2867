"""Graph view benchmarks on the 50,000-node demo (run on demand, not in CI).

    python -m tests.benchmarks.bench_graph_view [--db FILE] [--nodes 50000]

Builds the demo (``memgraph demo --nodes 50000 --seed 11``) and saves a layout for it
(``memgraph layout``) unless ``--db`` names one that has it, opens a ``GraphView`` offscreen
(900x700) and times, each against the obvious alternative in the same run:

- highlight repaint: injection overlay ``setData`` + a forced repaint, vs re-brushing all spots;
- pan step: a 20 px pan + repaint with the edge cache, vs without it;
- a layout frame: in-place position update + repaint, vs ``setData(pos=...)`` + repaint;
- frames while a real layout streams on the worker: GUI frame handling + repaint, and the
  longest event-loop stall seen by a 16 ms timer; each frame's wall time split into the GUI
  thread's own CPU, its wait for a core (the run queue, from ``/proc/thread-self/schedstat``:
  other processes' load) and the rest (waiting for the GIL beside the layout's worker).

Prints a markdown table: measure, result, bar, alternative, ratio.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from tests.benchmarks import bench_store

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

Row = tuple[str, float, str, str, float | None]


def timed(fn: Callable[[], Any], repeat: int = 15) -> float:
    """Median seconds of ``repeat`` calls after one warm-up call."""
    return bench_store.timed(fn, repeat, warm=True)


def build_store(path: Path, nodes: int) -> None:
    """The demo plus a saved layout, through the CLI (as a user would)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    cli = [sys.executable, "-m", "memgraph_gui.cli", "--db", str(path)]
    subprocess.run([*cli, "demo", "--nodes", str(nodes), "--seed", "11"], check=True, env=env)
    subprocess.run([*cli, "layout", "--seconds", "20"], check=True, env=env)


def open_view(path: Path) -> tuple[Any, Any, Any]:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.graph import GraphView
    from memgraph_gui.views.qt import QApplication

    qapp = QApplication.instance() or QApplication([])
    app = AppModel(MemoryStore.open(path))
    start = time.perf_counter()
    view = GraphView(app)
    view.resize(900, 700)
    view.show()
    qapp.processEvents()
    print(f"open: GraphView built and shown in {time.perf_counter() - start:.2f} s", flush=True)
    assert not view.layout_job.running, "the store has no saved layout"
    view.fit()
    settle(qapp)
    repaint(view)
    return qapp, app, view


def settle(qapp: Any, seconds: float = 0.4) -> None:
    """Let the view's timers run (the zoom of the fit settles: caches back on, edges shown)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        qapp.processEvents()
        time.sleep(0.005)


def repaint(view: Any) -> None:
    view.plot.viewport().repaint()


def run_queue_wait() -> float:
    """Seconds the calling thread has waited for a core so far (Linux schedstat; 0.0 where
    there is none)."""
    try:
        with open("/proc/thread-self/schedstat") as stats:
            return int(stats.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def bench_highlight(view: Any, rows: list[Row]) -> None:
    from memgraph_gui.core.domain.injection import InjectionState
    from memgraph_gui.views.graph.palette import node_brush

    scene = view.scene
    assert view.edges.drawn(True) and view.edges.drawn(False), "edges must be drawn"
    assert view.nodes.cacheMode() == view.edges.chunks[True][0].cacheMode() != 0, "caches on"
    rng = np.random.default_rng(1)
    picks = [rng.choice(scene.n, 50, replace=False) for _ in range(2)]
    states = [InjectionState(recall_selected_ids=frozenset(scene.ids[i] for i in p)) for p in picks]
    base = [node_brush(t) for t in scene.types]
    hot = node_brush("highlight-bench")
    flip = [0]

    def overlay() -> None:
        flip[0] ^= 1
        view.injection.show(scene, states[flip[0]], view.visible)
        repaint(view)

    def rebrush() -> None:
        flip[0] ^= 1
        brushes = list(base)
        for row in picks[flip[0]]:
            brushes[row] = hot
        view.nodes.setBrush(brushes)
        repaint(view)

    ours, alt = timed(overlay), timed(rebrush, 5)
    view.nodes.setBrush(base)
    rows.append(("highlight repaint (50 nodes)", ours, "≤ 16 ms", "re-brush all spots", alt))


def bench_pan(view: Any, rows: list[Row]) -> None:
    step = [1.0]

    def pan() -> None:
        (x0, x1), _ = view.view.viewRange()
        px = (x1 - x0) / max(1, view.plot.width())
        step[0] = -step[0]
        view.view.translateBy(x=20 * px * step[0], y=0)
        repaint(view)

    view.edges.set_cached(True)
    ours = timed(pan)
    view.edges.set_cached(False)
    alt = timed(pan, 5)
    view.edges.set_cached(True)
    rows.append(("pan step (20 px)", ours, "≤ 50 ms", "pan without the edge cache", alt))


def bench_frame(view: Any, rows: list[Row]) -> None:
    scene = view.scene
    frames = [scene.pos + d for d in (0.01, -0.01)]
    flip = [0]
    view.edges.suspend(True)  # as while a big layout streams

    def in_place() -> None:
        flip[0] ^= 1
        scene.pos[:] = frames[flip[0]]
        view._positions_moved(edges=False)
        repaint(view)

    def set_data() -> None:
        flip[0] ^= 1
        scene.pos[:] = frames[flip[0]]
        view.nodes.setData(
            pos=scene.pos, size=scene.sizes, brush=[b for b in view.nodes.data["brush"]]
        )
        repaint(view)

    ours, alt = timed(in_place), timed(set_data, 5)
    view.edges.suspend(False)
    rows.append(("layout frame (in place)", ours, "≤ 33 ms", "setData(pos=...)", alt))


def bench_streaming(qapp: Any, view: Any, rows: list[Row]) -> None:
    """A real full re-layout on the worker: GUI frame handling + repaint, and loop stalls."""
    from memgraph_gui.views.qt import QTimer

    handled: list[tuple[str, float]] = []
    cpu_times: list[float] = []  # the GUI thread's own CPU time (without waiting for a core)
    queued: list[float] = []  # the GUI thread's wait for a core meanwhile (other processes)
    parts: list[tuple[float, float]] = []  # (the frame's handling, the repaint), wall
    ticks: list[float] = []
    original = view._on_frame_ready

    def on_frame(update: Any) -> None:
        start, cpu, queue = time.perf_counter(), time.thread_time(), run_queue_wait()
        original(update)
        middle = time.perf_counter()
        repaint(view)
        end = time.perf_counter()
        handled.append((update.stage, end - start))
        cpu_times.append(time.thread_time() - cpu)
        queued.append(run_queue_wait() - queue)
        parts.append((middle - start, end - middle))

    view.layout_job.frame_ready.disconnect(view._on_frame_ready)
    view.layout_job.frame_ready.connect(on_frame)
    timer = QTimer()
    timer.setInterval(16)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    view.layout_job.seconds = 8.0
    timer.start()
    view.relayout()
    deadline = time.monotonic() + 60
    while view.layout_job.running and time.monotonic() < deadline:
        qapp.processEvents()
        time.sleep(0.002)
    timer.stop()
    streaming_rows(handled, cpu_times, parts, ticks, rows, queued)


def streaming_rows(
    handled: list[tuple[str, float]],
    cpu_times: list[float],
    parts: list[tuple[float, float]],
    ticks: list[float],
    rows: list[Row],
    queued: list[float] | None = None,
) -> None:
    """The rows of ``bench_streaming``: each frame's (stage, seconds), its GUI-thread CPU, its
    (handling, repaint) split, the 16 ms timer's ticks meanwhile, and (``queued``) each frame's
    wait for a core."""
    gaps = np.diff(ticks) if len(ticks) > 1 else np.zeros(1)
    streaming = [(stage, t) for stage, t in handled if stage != "done"]
    times = np.array([t for _, t in streaming])
    for name, value in (("median", np.median(times)), ("p95", np.percentile(times, 95))):
        label = f"frame while layout streams ({name} of {len(times)})"
        rows.append((label, float(value), "≤ 33 ms", "", None))
    label = "  GUI-thread CPU per frame (median; the rest is waiting for a core or the GIL)"
    rows.append((label, float(np.median(cpu_times)), "", "", None))
    if queued is not None:
        streamed = np.array([stage != "done" for stage, _ in handled])
        wall = np.array([t for _, t in handled])
        gil = np.maximum(wall - np.array(cpu_times) - np.array(queued), 0.0)[streamed]
        queued = list(np.array(queued)[streamed])
        label = "  … waiting for a core per frame (median / p95; other processes' load)"
        label += f": p95 {np.percentile(queued, 95) * 1000:.1f} ms"
        rows.append((label, float(np.median(queued)), "", "", None))
        label = "  … the rest per frame, waiting for the GIL (median / p95)"
        rows.append(
            (
                label + f": p95 {np.percentile(gil, 95) * 1000:.1f} ms",
                float(np.median(gil)),
                "",
                "",
                None,
            )
        )
    label = "  … of which the frame's handling / the repaint (medians)"
    handling, painting = (float(np.median([p[i] for p in parts])) for i in (0, 1))
    rows.append((label + f": {handling * 1000:.1f} ms + repaint", painting, "", "", None))
    worst = max(streaming, key=lambda item: item[1])
    rows.append((f"  slowest streaming frame ({worst[0]})", worst[1], "", "", None))
    rows.append(("  longest event-loop stall meanwhile", float(gaps.max()), "", "", None))
    last = [t for stage, t in handled if stage == "done"]
    label = "  the last frame (layout done: every edge drawn again, once)"
    rows.append((label, last[-1] if last else float("nan"), "", "", None))


def report(rows: list[Row]) -> None:
    print("| measure | result | bar | alternative | ratio |")
    print("|---|---:|---|---|---:|")
    for name, ours, bar, alt_name, alt in rows:
        alt_text = f"{alt_name}: {alt * 1000:.1f} ms" if alt is not None else "—"
        ratio = f"{alt / ours:.0f}× faster" if alt is not None and ours > 0 else "—"
        print(f"| {name} | {ours * 1000:.1f} ms | {bar} | {alt_text} | {ratio} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a laid-out demo store (built if missing)")
    parser.add_argument("--nodes", type=int, default=50_000)
    args = parser.parse_args(argv)
    path = args.db or Path(tempfile.mkdtemp()) / "bench-graph.memgraph"
    if not path.exists():
        build_store(path, args.nodes)
    folder = Path(tempfile.mkdtemp())
    work = folder / "copy.memgraph"
    shutil.copy(path, work)  # the streaming run saves a new layout
    qapp, app, view = open_view(work)
    print(f"{view.scene.n} nodes, {len(view.scene.edges)} edges drawn", flush=True)
    rows: list[Row] = []
    bench_highlight(view, rows)
    bench_pan(view, rows)
    bench_frame(view, rows)
    bench_streaming(qapp, view, rows)
    report(rows)
    view.shutdown()
    app.close()
    shutil.rmtree(folder, ignore_errors=True)
    os._exit(0)  # skip interpreter teardown: Qt/pyqtgraph objects can crash it at exit


if __name__ == "__main__":
    raise SystemExit(main())

"""The overview by rollup level at 50k (run on demand, not in CI).

    python -m tests.benchmarks.bench_overview [--db FILE] [--nodes 50000]
    python -m tests.benchmarks.bench_overview --first-picture [--nodes 50000]

Builds the story-shaped demo (``memgraph demo --nodes N --seed 11``) with a saved layout unless
``--db`` names one, opens a ``GraphView`` offscreen (1200x800) and times, in the same run:

- the overview's build: the cut at the level chosen for the mark budget, the projection of every
  relation edge onto it, merged per pair, and the edge budget (``compute_folded``), against
  Luker's own projection of the same cut through the Read API (``projectEdges``, per edge);
- the overview built, shown and painted (the build again, visible rows, sizes, merged lines,
  marks, a forced repaint), against showing every node and edge (level All) and painting that;
- unfolding one rollup by hand (GUI time: the new cut, its lines, and the repaint), the bar
  50 ms, against redrawing the whole memory unfolded.

Bars (issue 20): overview build and paint ≤ 200 ms, unfold of one rollup ≤ 50 ms GUI time.

``--first-picture`` instead opens the same demo *without* a layout (``memgraph demo`` alone, as
after an import) and times, from "store shown" (the ``GraphView`` built over it) on, the overview
laid out first and drawn, the full layout's first frame and its end, against the path without the
overview step (the whole memory streamed from PivotMDS, as before) in the same run, each on a
fresh copy of the store, each twice (in both orders) and averaged. Also the GUI thread's time
per layout frame (handling and a forced repaint; CPU time beside it), the final layout's
edge-length ratio, and how far the picture moves from its first laid-out frame to the last
(residual after the best similarity transform, relative to the picture's RMS radius: 0 = the
first picture only grew or turned).
Bars (issue 20): the overview laid out in ≤ 0.5 s, the first useful picture within 2 s.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from tests.benchmarks.bench_graph_view import build_store, settle


def timed(fn: Callable[[], Any], repeat: int = 7) -> float:
    """Median seconds of ``repeat`` calls after one warm-up call."""
    fn()
    samples = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - began)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", help="a store with a saved layout (default: a generated demo)")
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--first-picture", action="store_true", help="a store without layout")
    options = parser.parse_args(argv)
    if options.first_picture:
        return first_picture(options.nodes)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(options.db) if options.db else Path(folder) / "overview.memgraph"
        if not options.db:
            build_store(path, options.nodes)
        return run(path)


def run(path: Path) -> int:
    from memgraph_gui.app import overview
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.graph import GraphView
    from memgraph_gui.views.graph.folding import compute_folded
    from memgraph_gui.views.qt import QApplication

    qapp = QApplication.instance() or QApplication([])
    app = AppModel(MemoryStore.open(path))
    view = GraphView(app)
    view.resize(1200, 800)
    view.show()
    settle(qapp, 1.0)
    scene = view.scene
    settings = view.fold_settings()
    folded = compute_folded(scene, settings)
    shown = [scene.ids[r] for r in np.flatnonzero(folded.cut.shown)]
    print(
        f"{scene.n:,} nodes, {len(scene.edges):,} edges; level {folded.cut.level}: "
        f"{folded.cut.count:,} marks, {len(folded.links.pairs):,} merged lines, "
        f"{int(folded.kept.drawn.sum()):,} drawn",
        flush=True,
    )
    build = timed(lambda: compute_folded(scene, settings))
    read = app.read_api()
    luker = timed(lambda: read.project_edges(visible_node_ids=shown), repeat=3)

    def show(level: int | None) -> None:
        view.show_level(level)
        view.plot.viewport().repaint()

    paint = timed(lambda: show(None))
    every = timed(lambda: show(overview.ALL), repeat=3)
    view.show_level(None)
    settle(qapp)
    row = _middling_rollup(folded.cut)

    def unfold_and_fold() -> float:
        began = time.perf_counter()
        view.toggle_fold(scene.ids[row])
        view.plot.viewport().repaint()
        spent = time.perf_counter() - began
        view.opened.clear()
        view.show_level(None)
        return spent

    unfold = statistics.median(unfold_and_fold() for _ in range(7))
    report(build, luker, paint, every, unfold)
    view.shutdown()
    app.close()
    return 0


def _middling_rollup(cut: Any) -> int:
    """A folded rollup of middling size (what it holds)."""
    rollups = cut.folded()
    held = cut.held[rollups]
    return int(rollups[np.argsort(held)[len(held) // 2]])


def report(build: float, luker: float, paint: float, every: float, unfold: float) -> None:
    """The markdown table, and the bars."""
    rows = [
        (
            "overview build (cut, projection, budget)",
            build,
            "≤ 200 ms with paint",
            "Luker's projectEdges of the same cut",
            luker,
        ),
        (
            "overview built, shown and painted",
            paint,
            "≤ 200 ms",
            "every node and edge shown and painted",
            every,
        ),
        (
            "unfold one rollup (GUI time, painted)",
            unfold,
            "≤ 50 ms",
            "every node and edge shown and painted",
            every,
        ),
    ]
    print("\n| measure | result | bar | alternative | alternative result | ratio |")
    print("|---|---:|---|---|---:|---:|")
    for name, ours, bar, alt, theirs in rows:
        print(
            f"| {name} | {ours * 1000:.0f} ms | {bar} | {alt} | {theirs * 1000:.0f} ms | "
            f"{theirs / ours:.1f}x |"
        )
    print(f"\noverview build + paint: {paint * 1000:.0f} ms ({'ok' if paint <= 0.2 else 'OVER'})")
    print(f"unfold: {unfold * 1000:.0f} ms ({'ok' if unfold <= 0.05 else 'OVER'})")


def first_picture(nodes: int) -> int:
    """Store shown → overview drawn → first full-layout frame → done, with and without the
    overview step, on copies of one demo without a layout; each path twice (one run before
    the other path's, one after), averaged."""
    import os
    import shutil
    import subprocess
    import sys

    import scipy.fft
    import scipy.sparse.csgraph
    import scipy.spatial  # noqa: F401  (imported as the window has them: not timed)

    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder) / "fresh.memgraph"
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        cli = [sys.executable, "-m", "memgraph_gui.cli", "--db", str(base)]
        subprocess.run([*cli, "demo", "--nodes", str(nodes), "--seed", "11"], check=True, env=env)
        runs: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
        for at, overview_first in enumerate((False, True, True, False)):  # each order once
            copy = Path(folder) / f"copy-{at}.memgraph"
            shutil.copy(base, copy)
            runs[overview_first].append(_time_first_picture(copy, overview_first))
    report_first_picture(_merged(runs[True]), _merged(runs[False]))
    os._exit(0)  # skip interpreter teardown: Qt/pyqtgraph objects can crash it at exit


@contextlib.contextmanager
def _patched(overview_first: bool) -> Iterator[list[float]]:
    """Time the overview's own layout on the worker (the seconds go to the list yielded); without
    ``overview_first``, the view takes the path before (the whole memory from PivotMDS)."""
    from memgraph_gui.app import layout_job
    from memgraph_gui.views.graph.view import GraphView

    worker: list[float] = []
    lay_out, seed = layout_job.lay_out_overview, GraphView._overview_seed

    def timed_overview(*args: Any, **kwargs: Any) -> np.ndarray:
        start = time.perf_counter()
        pos = lay_out(*args, **kwargs)
        worker.append(time.perf_counter() - start)
        return pos

    layout_job.lay_out_overview = timed_overview  # type: ignore[assignment]
    if not overview_first:
        GraphView._overview_seed = lambda _self: None  # type: ignore[method-assign]
    try:
        yield worker
    finally:
        layout_job.lay_out_overview = lay_out  # type: ignore[assignment]
        GraphView._overview_seed = seed  # type: ignore[method-assign]


def _time_first_picture(path: Path, overview_first: bool) -> dict[str, Any]:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.graph import GraphView
    from memgraph_gui.views.qt import QApplication

    qapp = QApplication.instance() or QApplication([])
    app = AppModel(MemoryStore.open(path))
    assert not app.store.positions()
    frames: list[tuple[str, float, float, float, np.ndarray]] = []
    with _patched(overview_first) as worker:
        began = time.perf_counter()  # "store shown": the view reads and builds its picture
        view = GraphView(app)
        view.resize(1200, 800)
        view.show()
        original = view._on_frame_ready

        def on_frame(update: Any) -> None:
            start, cpu = time.perf_counter(), time.thread_time()
            original(update)
            view.plot.viewport().repaint()
            now = time.perf_counter()
            spent, cpu_spent = now - start, time.thread_time() - cpu
            frames.append((update.stage, now - began, spent, cpu_spent, view.scene.pos.copy()))

        view.layout_job.frame_ready.disconnect(view._on_frame_ready)
        view.layout_job.frame_ready.connect(on_frame)
        shown_at = time.perf_counter() - began
        deadline, started = time.monotonic() + 120, False
        while time.monotonic() < deadline:  # the layout starts once the picture is painted
            qapp.processEvents()
            running = view.layout_job.running
            if started and not running:
                break
            started = started or running
            time.sleep(0.002)
    result = _result(view, frames, shown_at, worker)
    view.shutdown()
    app.close()
    return result


def _result(
    view: Any, frames: list[tuple[str, float, float, float, np.ndarray]], built: float, worker: list
) -> dict[str, Any]:
    from memgraph_gui.core.layout import layout_quality

    return {
        "built": built,
        "overview": worker[0] if worker else float("nan"),
        "first": frames[0][:2],
        "full": next((f[1] for f in frames if f[0] in ("start", "refine")), float("nan")),
        "done": frames[-1][1],
        "gui": [f[2] for f in frames],
        "first_gui": frames[0][2],
        "slowest": max(frames, key=lambda f: f[2])[0],
        "cpu": [f[3] for f in frames],
        "quality": layout_quality(frames[-1][4], view.scene.edges),
        "moved": _moved(frames[0][4], frames[-1][4]),
        "frames": len(frames),
        "marks": int(view.visible.sum()),
        "n": view.scene.n,
    }


def _merged(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The runs of one path as one: the mean of each time and measure, every frame's cost."""
    merged = dict(results[0])
    for key, value in merged.items():
        if isinstance(value, list):
            merged[key] = [x for r in results for x in r[key]]
        elif isinstance(value, float):
            merged[key] = statistics.fmean(r[key] for r in results)
    merged["first"] = results[0]["first"][0], statistics.fmean(r["first"][1] for r in results)
    merged["frames"] = statistics.fmean(r["frames"] for r in results)
    return merged


def _moved(first: np.ndarray, last: np.ndarray) -> float:
    """How far ``last`` is from ``first`` after the best scaling, rotation and shift, over the
    RMS radius of ``last``."""
    a, b = first - first.mean(axis=0), last - last.mean(axis=0)
    u, singular, vt = np.linalg.svd(a.T @ b)
    fitted = singular.sum() / (a**2).sum() * a @ (u @ vt)
    return float(np.sqrt(((fitted - b) ** 2).sum(axis=1).mean() / (b**2).sum(axis=1).mean()))


def report_first_picture(ours: dict[str, Any], before: dict[str, Any]) -> None:
    """The table: overview first against the whole memory streamed from PivotMDS."""
    ms = lambda s: f"{s * 1000:,.0f} ms"  # noqa: E731
    print(f"\n{ours['n']:,} nodes without a layout; {ours['marks']:,} marks shown at fit zoom")
    print(
        "\n| measure (from the store shown) | overview first | without (PivotMDS of all) | ratio |"
    )
    print("|---|---:|---:|---:|")
    rows = [
        ("the view built and shown (rows on a disc, the layout started)",
         ours["built"], before["built"]),
        ("  the overview laid out on the worker (cut, members placed)",
         ours["overview"], float("nan")),
        (f"first laid-out picture drawn ({ours['first'][0]} / {before['first'][0]})",
         ours["first"][1], before["first"][1]),
        ("first frame of the full layout drawn", ours["full"], before["full"]),
        ("full layout done and drawn", ours["done"], before["done"]),
        ("GUI time per layout frame, median (handling + repaint)",
         statistics.median(ours["gui"]), statistics.median(before["gui"])),
        ("  … the first laid-out picture's frame", ours["first_gui"], before["first_gui"]),
        (f"  … the slowest frame (a {ours['slowest']} / {before['slowest']} frame)",
         max(ours["gui"]), max(before["gui"])),
        ("  … GUI-thread CPU per frame, median",
         statistics.median(ours["cpu"]), statistics.median(before["cpu"])),
    ]  # fmt: skip
    for name, a, b in rows:
        other, ratio = ("—", "") if b != b else (ms(b), f"{b / a:.2f}x")
        print(f"| {name} | {ms(a)} | {other} | {ratio} |")
    print(f"| frames drawn | {ours['frames']:.1f} | {before['frames']:.1f} | |")
    print(
        f"| final edge-length ratio (lower is better) | {ours['quality']:.3f} | "
        f"{before['quality']:.3f} | |"
    )
    print(
        f"| picture moved from its first laid-out frame to the last | {ours['moved']:.2f} | "
        f"{before['moved']:.2f} | |"
    )
    took, first = ours["overview"], ours["first"][1]
    print(f"\noverview laid out in {ms(took)} ({'ok' if took <= 0.5 else 'OVER'} 0.5 s),")
    print(f"drawn {ms(first - ours['built'])} after the view was shown;")
    print(f"first useful picture {ms(first)} after the store was shown", end=" ")
    print(f"({'ok' if first <= 2 else 'OVER'} 2 s)")


if __name__ == "__main__":
    raise SystemExit(main())

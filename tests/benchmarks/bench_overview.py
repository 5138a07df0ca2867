"""The overview by rollup level at 50k (run on demand, not in CI).

    python -m tests.benchmarks.bench_overview [--db FILE] [--nodes 50000]

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
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
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
    options = parser.parse_args(argv)
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


if __name__ == "__main__":
    raise SystemExit(main())

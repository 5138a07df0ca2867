"""Layout benchmarks on the 50,000-node demo (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_layout [--nodes 50000] [--seed 11] [--networkx-full]

Builds ``memgraph demo --nodes N --seed S`` in a temporary folder and prints a markdown table:
each measure, its result, the bar from issue 12, the obvious alternative measured in the same
run, and their ratio.

- networkx ``spring_layout`` is O(n^2) per iteration. By default it is timed (iterations=1) on
  random induced subgraphs of 2,500 / 5,000 / 10,000 nodes and extrapolated to the whole graph
  with the fitted power law (``--networkx-full`` times the whole graph once instead, ~80 s).
- The quality reference is PivotMDS (our start) + 50 iterations of textbook numpy
  Fruchterman-Reingold (ideal edge length k = 1 at one unit of area per node, attraction d^2/k,
  repulsion k^2/d from the nodes within 2k found with a ``cKDTree``, linear cooling from a tenth
  of the width). The design's uncapped run took 346 s; here each node's near field is capped
  at its ``--reference-cap`` (32) nearest nodes within 2k, which takes ~0.4 s per iteration.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.layout import (
    LayoutInput,
    compute_layout,
    layout_quality,
    overlap_fraction,
    stream,
    stream_layout,
)
from memgraph_gui.core.layout.start import clean_edges, start_layout

Row = tuple[str, str, str, str, str, str]  # measure, result, bar, alternative, ratio, ok

WRAPPER = """
import atexit, runpy, sys
def peak():
    hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM")][0]
    print("RSS_MB", int(hwm.split()[1]) / 1024, file=sys.stderr)
atexit.register(peak)
sys.argv = ["memgraph", *sys.argv[1:]]
runpy.run_module("memgraph_gui.cli", run_name="__main__")
"""


def whole_process(path: Path) -> tuple[float, float, dict[str, Any]]:
    """Wall seconds, peak RSS (MB) and the answer of ``memgraph --db PATH layout --fresh``."""
    began = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", WRAPPER, "--db", str(path), "layout", "--fresh"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    wall = time.perf_counter() - began
    rss = float(result.stderr.split("RSS_MB")[-1].split()[0])
    return wall, rss, json.loads(result.stdout.splitlines()[-1])


def networkx_per_iteration(inp: LayoutInput, sizes: list[int]) -> tuple[float, str, dict]:
    """Seconds per ``spring_layout`` iteration at the whole graph's size, how it was found, and
    the measured seconds per subgraph size."""
    import networkx as nx

    rng = np.random.default_rng(0)
    measured: dict[int, float] = {}
    for size in sizes:
        graph = _subgraph(inp, rng.choice(len(inp.ids), size, replace=False))
        began = time.perf_counter()
        nx.spring_layout(graph, iterations=1, seed=0)
        measured[size] = time.perf_counter() - began
    n = len(inp.ids)
    if n in measured:
        return measured[n], "measured", measured
    slope, offset = np.polyfit(np.log(list(measured)), np.log(list(measured.values())), 1)
    estimate = float(np.exp(offset + slope * np.log(n)))
    how = f"extrapolated from {', '.join(f'{s:,}' for s in measured)} nodes, time ∝ n^{slope:.2f}"
    return estimate, how, measured


def _subgraph(inp: LayoutInput, rows: np.ndarray) -> Any:
    import networkx as nx

    keep = np.zeros(len(inp.ids), dtype=bool)
    keep[rows] = True
    graph = nx.Graph()
    graph.add_nodes_from(rows.tolist())
    edges = inp.edges[keep[inp.edges[:, 0]] & keep[inp.edges[:, 1]]]
    graph.add_edges_from(edges.tolist())
    return graph


def cold_first_frame(path: Path) -> float:
    """Seconds to the first frame in a fresh process (scipy's imports included)."""
    code = (
        "import sys, time; from memgraph_gui.core import MemoryStore;"
        "from memgraph_gui.core.layout import stream_layout;"
        "inp = MemoryStore.open(sys.argv[1], create=False).layout_input(include_positions=False);"
        "t = time.perf_counter(); next(stream_layout(inp)); print(time.perf_counter() - t)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    return float(result.stdout.strip())


def our_per_iteration(inp: LayoutInput) -> tuple[float, float, np.ndarray, int]:
    """Time to the first frame, seconds per refinement iteration, the final positions and the
    iteration count of one full streamed run (scipy's modules already imported)."""
    import scipy.fft
    import scipy.sparse.csgraph
    import scipy.spatial  # noqa: F401

    began = time.perf_counter()
    frames = stream_layout(inp, seconds=60)
    next(frames)
    first_at = time.perf_counter() - began
    last = collections.deque(frames, maxlen=1)[0]  # the "done" frame always comes
    refine = time.perf_counter() - began - first_at
    return first_at, refine / max(last.iteration, 1), last.pos, last.iteration


def reference_layout(inp: LayoutInput, cap: int, iterations: int = 50) -> tuple[np.ndarray, float]:
    """PivotMDS + ``iterations`` of textbook FR with a capped cKDTree near field; seconds."""
    from scipy.spatial import cKDTree

    began = time.perf_counter()
    links = clean_edges(inp.edges, len(inp.ids))
    pos = start_layout(links, len(inp.ids), 0)  # one unit of area per node: k = 1
    start_temperature = float(np.ptp(pos, axis=0).max()) / 10
    for it in range(iterations):
        dist, near = cKDTree(pos).query(pos, k=cap + 1, distance_upper_bound=2.0)
        dist, near = dist[:, 1:], near[:, 1:]
        valid = np.isfinite(dist) & (dist > 0)
        safe = np.where(valid, near, 0)
        diff = pos[:, None, :] - pos[safe]
        weight = np.where(valid, 1.0 / np.where(valid, dist, 1.0) ** 2, 0.0)  # k^2/d along r/d
        force = (diff * weight[:, :, None]).sum(axis=1)
        edge = pos[links[:, 1]] - pos[links[:, 0]]
        pull = edge * np.linalg.norm(edge, axis=1)[:, None]  # d^2/k along r/d
        for axis in (0, 1):
            force[:, axis] += np.bincount(links[:, 0], pull[:, axis], len(pos))
            force[:, axis] -= np.bincount(links[:, 1], pull[:, axis], len(pos))
        length = np.maximum(np.linalg.norm(force, axis=1), 1e-12)[:, None]
        temperature = start_temperature * (1 - it / iterations)
        pos = pos + force / length * np.minimum(length, temperature)
    return pos, time.perf_counter() - began


def incremental(inp: LayoutInput, pos: np.ndarray, new: int = 100, *, local: bool = True) -> float:
    """Seconds to place ``new`` nodes (random rows forgotten) into a finished layout; without
    ``local``, every step computes the forces over the whole graph (as before ``LocalForces``)."""
    start = pos.copy()
    start[np.random.default_rng(1).choice(len(pos), new, replace=False)] = np.nan
    kept, stream.LOCAL_MAX = stream.LOCAL_MAX, (stream.LOCAL_MAX if local else 0)
    try:
        began = time.perf_counter()
        compute_layout(LayoutInput(inp.ids, inp.edges, start), seconds=60)
        return time.perf_counter() - began
    finally:
        stream.LOCAL_MAX = kept


def _s(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms" if seconds < 1 else f"{seconds:,.2f} s"


def _x(times: float) -> str:
    return f"{times:,.0f}×" if times >= 10 else f"{times:.2f}×"


def _ok(good: bool) -> str:
    return "yes" if good else "NO"


def measure(path: Path, options: argparse.Namespace) -> tuple[list[Row], list[str]]:
    """Every row of the table, plus notes."""
    wall, rss, answer = whole_process(path)
    cold = cold_first_frame(path)
    store = MemoryStore.open(path, create=False)
    inp = store.layout_input(include_positions=False)
    first_at, per_it, pos, iterations = our_per_iteration(inp)
    sizes = [s for s in (2_500, 5_000, 10_000) if s < len(inp.ids)] or [len(inp.ids)]
    sizes = [len(inp.ids)] if options.networkx_full else sizes
    nx_it, how, measured = networkx_per_iteration(inp, sizes)
    ref_pos, ref_time = reference_layout(inp, options.reference_cap)
    ours_q, ref_q = layout_quality(pos, inp.edges), layout_quality(ref_pos, inp.edges)
    ours_o, ref_o = overlap_fraction(pos, inp.edges), overlap_fraction(ref_pos, inp.edges)
    began = time.perf_counter()
    store.save_positions(inp.ids, pos)
    save = time.perf_counter() - began
    step, whole = incremental(inp, pos), incremental(inp, pos, local=False)
    one, one_whole = incremental(inp, pos, 1), incremental(inp, pos, 1, local=False)
    store.close()
    rows: list[Row] = [
        ("first usable layout (PivotMDS frame)", _s(first_at), "≤ 2 s",
         f"networkx spring_layout, 1 iteration: {_s(nx_it)}", _x(nx_it / first_at),
         _ok(first_at <= 2)),
        ("  … first call in a fresh process (scipy imports included)", _s(cold), "≤ 2 s",
         "", _x(nx_it / cold), _ok(cold <= 2)),
        (f"layout per iteration ({iterations} iterations)", _s(per_it), "≥ 200× faster",
         f"networkx spring_layout per iteration: {_s(nx_it)}", _x(nx_it / per_it),
         _ok(nx_it / per_it >= 200)),
        ("converged layout, whole `memgraph layout --fresh` process", _s(wall), "≤ 8 s",
         f"networkx, 50 iterations: {_s(50 * nx_it)}", _x(50 * nx_it / wall), _ok(wall <= 8)),
        ("converged layout quality (median edge / median random pair)", f"{ours_q:.3f}",
         "≤ 1.25× reference", f"reference PivotMDS + 50 FR its: {ref_q:.3f} ({_s(ref_time)})",
         f"{ours_q / ref_q:.2f}×", _ok(ours_q <= 1.25 * ref_q)),
        ("nodes piled on another (overlap_fraction)", f"{ours_o:.2%}", "not piled up",
         f"reference: {ref_o:.2%}", "", _ok(ours_o <= max(ref_o, 0.02))),
        (f"save {len(inp.ids):,} positions (one transaction)", _s(save), "≤ 0.5 s", "", "",
         _ok(save <= 0.5)),
        ("place 100 new nodes into the finished layout", _s(step), "",
         f"forces over the whole graph each step: {_s(whole)}", _x(whole / step), ""),
        ("  … one new node", _s(one), "",
         f"forces over the whole graph each step: {_s(one_whole)}", _x(one_whole / one), ""),
        ("  … a full layout again, for comparison", _s(first_at + per_it * iterations), "",
         "", "", ""),
        ("peak RSS of the `memgraph layout` process", f"{rss:,.0f} MB", "", "", "", ""),
    ]  # fmt: skip
    notes = [
        f"`memgraph layout` answered {json.dumps(answer)}",
        f"networkx per iteration: {how}; measured "
        + ", ".join(f"{s:,} nodes {_s(t)}" for s, t in measured.items()),
    ]
    return rows, notes


def report(rows: list[Row], notes: list[str], nodes: int, edges: int) -> str:
    lines = [
        f"memgraph layout benchmarks — demo of {nodes:,} nodes, {edges:,} edges",
        "",
        "| measure | result | bar | alternative (same run) | ratio | ok |",
        "|---|---:|---|---|---:|---|",
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
        *(f"- {note}" for note in notes),
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--networkx-full", action="store_true")
    parser.add_argument("--reference-cap", type=int, default=32)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.memgraph"
        with MemoryStore.open(path) as setup:
            load_demo(setup, options.nodes, options.seed)
            edges = len(setup.graph.edges)
        rows, notes = measure(path, options)
        print(report(rows, notes, options.nodes, edges))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

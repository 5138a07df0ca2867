"""This app's layouts against the best ones installable here, on the same graphs (on demand).

    pip install -e '.[bench]'   # igraph, crategraph-forceatlas2, fa2-modified
    .venv/bin/python -m tests.benchmarks.bench_layout_compare [--nodes 50000] [--seed 11]

Graphs: the story-shaped demo (``memgraph demo --nodes N --seed S``, a protagonist in a third
of the events), the uniform one (``--shape uniform``), and overview cuts of the story demo
(events folded into their rollup at each of ``--levels`` (3 and 4), every edge projected onto
the shown nodes and merged, its count as the weight: what the graph view lays out at fit zoom).

Methods, each in its own process with a ``--timeout`` (run one at a time: the machine is
shared):
- ``ours``: ``stream_layout`` (PivotMDS, then the hub-damped particle-mesh FR of
  ``core.layout.forces``), its default schedule; the first frame's time is shown too. On the
  cut it gets ``seconds=0.5`` (the overview's budget) and the merged counts as weights.
- ``time``: ``arrange_by_time`` (Hilbert curve in seq order), the View ▸ Arrange by time picture.
- igraph ``layout_fruchterman_reingold(grid=True)`` (C, 500 iterations) and ``layout_drl`` (C).
- ForceAtlas2 with Gephi's defaults: crategraph-forceatlas2 (Rust, Barnes-Hut, both cores;
  ``--fa2-iterations``, default 300 at 50k, 1000 on the cut) and fa2-modified (Cython,
  Barnes-Hut; ~5 s per iteration at 50k, so on the cut only unless ``--fa2-modified-50k``).
Quality is ``layout_quality``: median edge length / median random-pair distance (1.0 = random,
lower = neighbours closer), over the graph's distinct edges.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.layout import layout_quality

Graph = dict[str, np.ndarray]


def graph_of(store: MemoryStore) -> Graph:
    """The store's active nodes and edges as arrays, with what ``arrange_by_time`` needs."""
    inp = store.layout_input(include_positions=False)
    index = {node_id: row for row, node_id in enumerate(inp.ids)}
    with store.reading() as graph:
        nodes = [graph.nodes[i] for i in inp.ids]
    return {
        "edges": inp.edges.astype(np.int64),
        "weights": np.ones(len(inp.edges)),
        "seqs": np.array([float(n.seq_to or 0) for n in nodes]),
        "parents": np.array([index.get(n.parent_id, -1) for n in nodes]),
        "depth": np.array([n.semantic_depth for n in nodes]),
        "timeline": np.array([n.type == "event" for n in nodes]),
    }


def overview_cut(full: Graph, level: int) -> Graph:
    """Fold every event into its highest ancestor of depth at most ``level`` (Luker's nearest
    visible ancestor when that level is shown), keep entities as themselves, project every
    edge onto the shown nodes and merge each pair into one edge weighted by its count."""
    parents, depth = full["parents"], full["depth"]
    shown = np.arange(len(parents))
    for _ in range(64):
        up = parents[shown]
        climb = (up >= 0) & (depth[np.maximum(up, 0)] <= level) & full["timeline"][shown]
        if not climb.any():
            break
        shown = np.where(climb, up, shown)
    keep, rows = np.unique(shown, return_inverse=True)
    ends = np.sort(rows[full["edges"]], axis=1)
    ends = ends[ends[:, 0] != ends[:, 1]]
    pairs, counts = np.unique(ends, axis=0, return_counts=True)
    where = np.full(len(parents) + 1, -1)  # the last slot answers parent -1
    where[keep] = np.arange(len(keep))
    return {
        "edges": pairs,
        "weights": counts.astype(np.float64),
        "seqs": full["seqs"][keep],
        "parents": where[parents[keep]],
        "depth": full["depth"][keep],
        "timeline": full["timeline"][keep],
    }


# --- the methods; each runs in a child process (see ``run_method``) -----------------------


def ours(g: Graph, budget: float | None) -> dict[str, Any]:
    """``stream_layout`` with scipy's modules imported first, as in the running app."""
    import scipy.fft
    import scipy.sparse.csgraph
    import scipy.spatial  # noqa: F401

    from memgraph_gui.core.layout import LayoutInput, stream_layout

    weighted = not np.all(g["weights"] == 1)
    inp = LayoutInput(
        tuple(map(str, range(len(g["seqs"])))),
        g["edges"],
        weights=g["weights"] if weighted else None,
    )
    began = time.perf_counter()
    frames = stream_layout(inp, **({"seconds": budget} if budget else {}))
    first = next(frames)
    first_at, first_q = time.perf_counter() - began, layout_quality(first.pos, g["edges"])
    last = collections.deque(frames, maxlen=1)[0]  # the "done" frame always comes
    return {
        "pos": last.pos,
        "seconds": time.perf_counter() - began,
        "note": f"first frame {first_at:.2f} s (q {first_q:.2f}); {last.iteration} its",
    }


def by_time(g: Graph, _budget: float | None) -> dict[str, Any]:
    from memgraph_gui.core.layout import arrange_by_time

    began = time.perf_counter()
    pos = arrange_by_time(
        [str(i) for i in range(len(g["seqs"]))],
        g["seqs"],
        g["parents"],
        g["edges"],
        on_timeline=g["timeline"],
    )
    return {"pos": pos, "seconds": time.perf_counter() - began, "note": ""}


def _igraph(g: Graph) -> Any:
    import igraph

    return igraph.Graph(n=len(g["seqs"]), edges=g["edges"].tolist())


def igraph_fr(g: Graph, _budget: float | None) -> dict[str, Any]:
    graph = _igraph(g)
    began = time.perf_counter()
    pos = np.array(graph.layout_fruchterman_reingold(grid=True, niter=500).coords)
    return {"pos": pos, "seconds": time.perf_counter() - began, "note": "grid, 500 its"}


def igraph_drl(g: Graph, _budget: float | None) -> dict[str, Any]:
    graph = _igraph(g)
    began = time.perf_counter()
    pos = np.array(graph.layout_drl().coords)
    return {"pos": pos, "seconds": time.perf_counter() - began, "note": "default settings"}


# Gephi's ForceAtlas2 defaults (Barnes-Hut at theta 1.2): the package's ``infer_settings``
# (theta 0.5, strong gravity) took 3.6x longer per iteration at 50k.
FA2_SETTINGS = {
    "barnesHutOptimize": True,
    "barnesHutTheta": 1.2,
    "scalingRatio": 2.0,
    "gravity": 1.0,
}


def crategraph_fa2(g: Graph, iterations: float | None) -> dict[str, Any]:
    import crategraph_forceatlas2 as fa2

    n = len(g["seqs"])
    its = int(iterations or 300)
    began = time.perf_counter()
    pos = fa2.layout(n, g["edges"], iterations=its, threads=2, **FA2_SETTINGS)
    return {"pos": pos, "seconds": time.perf_counter() - began, "note": f"{its} its"}


def fa2_modified(g: Graph, iterations: float | None) -> dict[str, Any]:
    from fa2_modified import ForceAtlas2
    from scipy.sparse import csr_matrix

    n = len(g["seqs"])
    its = int(iterations or 300)
    both = np.concatenate([g["edges"], g["edges"][:, ::-1]])
    adj = csr_matrix((np.ones(len(both)), (both[:, 0], both[:, 1])), shape=(n, n))
    adj.data[:] = 1.0
    start = np.random.default_rng(0).random((n, 2))
    began = time.perf_counter()
    pos = ForceAtlas2(verbose=False).forceatlas2(adj, pos=start, iterations=its)
    return {"pos": np.array(pos), "seconds": time.perf_counter() - began, "note": f"{its} its"}


METHODS: dict[str, Callable[[Graph, float | None], dict[str, Any]]] = {
    "ours": ours,
    "time": by_time,
    "igraph FR (grid)": igraph_fr,
    "igraph DrL": igraph_drl,
    "ForceAtlas2 (crategraph, Rust)": crategraph_fa2,
    "ForceAtlas2 (fa2-modified)": fa2_modified,
}


def child(folder: Path, method: str, argument: float | None) -> None:
    """In the child process: run ``method`` on the saved graph, save its positions."""
    g = dict(np.load(folder / "graph.npz"))
    result = METHODS[method](g, argument)
    np.save(folder / "pos.npy", np.asarray(result["pos"], dtype=np.float64))
    print(json.dumps({"seconds": result["seconds"], "note": result["note"]}))


def run_method(g: Graph, method: str, argument: float | None, timeout: float) -> list[str]:
    """One table row: the method's time and quality on ``g``, or why there is none."""
    with tempfile.TemporaryDirectory() as folder:
        np.savez(Path(folder) / "graph.npz", **g)
        code = (
            "import sys; from pathlib import Path; "
            "from tests.benchmarks.bench_layout_compare import child; "
            "child(Path(sys.argv[1]), sys.argv[2], "
            "float(sys.argv[3]) if sys.argv[3] != '-' else None)"
        )
        arg = "-" if argument is None else str(argument)
        try:
            done = subprocess.run(
                [sys.executable, "-c", code, folder, method, arg],
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return [method, f"> {timeout:.0f} s", "—", "stopped at the timeout"]
        if done.returncode:
            last = (done.stderr.strip().splitlines() or ["?"])[-1]
            return [method, "—", "—", f"failed: {last[:80]}"]
        answer = json.loads(done.stdout.strip().splitlines()[-1])
        pos = np.load(Path(folder) / "pos.npy")
    quality = layout_quality(pos, g["edges"])
    return [method, f"{answer['seconds']:.2f} s", f"{quality:.3f}", answer["note"]]


def plan(options: argparse.Namespace, big: bool) -> list[tuple[str, float | None]]:
    """The methods to run on a graph and their argument (a time budget or an iteration count)."""
    its = options.fa2_iterations if big else 1000
    rows: list[tuple[str, float | None]] = [
        ("ours", None if big else 0.5),
        ("time", None),
        ("igraph FR (grid)", None),
        ("igraph DrL", None),
        ("ForceAtlas2 (crategraph, Rust)", its),
    ]
    if not big or options.fa2_modified_50k:
        rows.append(("ForceAtlas2 (fa2-modified)", its if big else 300))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--levels", default="3,4", help="the overview cuts' rollup levels")
    parser.add_argument("--timeout", type=float, default=400)
    parser.add_argument("--fa2-iterations", type=int, default=300)
    parser.add_argument("--fa2-modified-50k", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated graph names to run")
    options = parser.parse_args()
    graphs: dict[str, Graph] = {}
    with tempfile.TemporaryDirectory() as folder:
        for shape in ("story", "uniform"):
            with MemoryStore.open(Path(folder) / f"{shape}.memgraph") as store:
                load_demo(store, options.nodes, options.seed, shape)
                graphs[shape] = graph_of(store)
    names = {
        f"story {options.nodes:,}": graphs["story"],
        f"uniform {options.nodes:,}": graphs["uniform"],
    }
    for level in (int(w) for w in options.levels.split(",") if w.strip()):
        names[f"story L{level} overview cut"] = overview_cut(graphs["story"], level)
    only = [w.strip() for w in options.only.split(",") if w.strip()]
    lines = []
    for name, g in names.items():
        if only and not any(w in name for w in only):
            continue
        kind = "merged edges" if "cut" in name else "edges"
        size = f"{len(g['seqs']):,} nodes, {len(g['edges']):,} {kind}"
        lines += [f"### {name} ({size})", "", "| method | time | quality | note |"]
        lines.append("|---|---:|---:|---|")
        for method, argument in plan(options, "cut" not in name):
            row = run_method(g, method, argument, options.timeout)
            lines.append("| " + " | ".join(row) + " |")
            print(lines[-1], file=sys.stderr, flush=True)
        lines.append("")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

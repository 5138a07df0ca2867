"""``projectEdges`` and ``expandFromSeeds`` on generated demo stores (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_drill [--nodes 50000] [--sizes 10000,50000,200000]

Builds ``memgraph demo --nodes N --seed 11`` for each size. The visible set is 20,283 ids at 50k
(the candidate pool topped up with live ids drawn at random; the same share of the store at other
sizes); the hub is the node with the most edges. Prints two markdown tables:

- at ``--nodes``: each call's time, the plain-Python alternative measured in the same run (Luker's
  algorithm over the Luker JSON document, recomputed per call as its JavaScript does: see
  ``tests/core/luker_reference.py``), their ratio, and the bar from issue 13;
- the growth check: both calls at every size, with the time per 10,000 nodes (flat for linear
  work; an O(N²) call would double it at each fourfold size).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memgraph_gui.core import MemoryStore, jsonapi
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.luker.interop import export_luker
from tests.benchmarks import bench_store, plain

POOL_AT_50K = 20_283
Row = tuple[str, float, float | None, str, float | None]


def timed(fn: Callable[[], Any]) -> float:
    """Median seconds of 7 calls after one warm-up call."""
    return bench_store.timed(fn, 7, warm=True)


def once(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


class Bench:
    """One demo store, its hub and its visible pool (recorded as the injection's visibleIds)."""

    def __init__(self, folder: Path, nodes: int) -> None:
        self.nodes = nodes
        self.store = MemoryStore.open(folder / f"demo{nodes}.memgraph")
        load_demo(self.store, nodes, seed=11)
        self.read = self.store.read_api()
        with self.store.reading() as graph:
            degree = Counter(i for e in graph.edges.values() for i in (e.from_id, e.to_id))
            live = [i for i, n in graph.nodes.items() if not n.archived]
            self.edges = len(graph.edges)
        self.hub = degree.most_common(1)[0][0]
        size = round(POOL_AT_50K * nodes / 50_000)
        pool = [self.hub, *(n.id for n in self.read.list_visible_candidates())]
        drawn = random.Random(nodes).sample(live, min(len(live), size))
        self.pool = list(dict.fromkeys(pool + drawn))[:size]
        self.store.write_api().set_injection_state({"visibleIds": self.pool})

    def project(self) -> Any:
        return self.read.project_edges(visible_node_ids=list(self.pool))

    def project_json(self) -> Any:
        return jsonapi.call(self.store, "projectEdges", [{"visibleNodeIds": list(self.pool)}])

    def read_all(self) -> Any:
        return list(self.project())

    def drill(self) -> Any:
        return self.read.expand_from_seeds([self.hub], hops=2, project_to="visible")

    def touch(self) -> None:
        """An ordinary edit, after which every whole-graph cache is rebuilt on first use."""
        self.store.write_api().edit_node(id=self.hub, set_fields={"goal": f"bench {time.time()}"})


def main_rows(bench: Bench) -> list[Row]:
    """The main table; ours first, then the plain alternative (whose JSON copy of the store
    would otherwise slow our calls' garbage collection), then both answers compared."""
    size = f"{len(bench.pool):,}"
    rows: list[Row] = [
        (f"projectEdges, {size} visibleNodeIds", timed(bench.project), None, "≤ 70 ms", 0.070),
        ("  … first call after an edit", _cold(bench, bench.project), None, "", None),
        ("  … and every edge read as a ProjectedEdge", timed(bench.read_all), None, "", None),
        (
            "  … as JSON (`memgraph call`: arguments checked, JSON data out)",
            timed(bench.project_json),
            None,
            "",
            None,
        ),
        (
            f"expandFromSeeds([hub], hops 2, projectTo 'visible'), {size} visibleIds",
            timed(bench.drill),
            None,
            "≤ 0.5 s",
            0.5,
        ),
        ("  … first call after an edit", _cold(bench, bench.drill), None, "", None),
    ]
    doc, pool, hub = export_luker(bench.store), bench.pool, bench.hub
    plain_project = once(lambda: plain.project_edges(doc, pool, None, True))
    plain_drill = once(lambda: plain.expand_from_seeds(doc, [hub], pool, hops=2))
    assert bench.project().to_json() == plain.project_edges(doc, pool, None, True)
    assert [n.id for n in bench.drill()] == plain.expand_from_seeds(doc, [hub], pool, hops=2)
    rows[0] = (*rows[0][:2], plain_project, *rows[0][3:])
    rows[4] = (*rows[4][:2], plain_drill, *rows[4][3:])
    return rows


def _cold(bench: Bench, fn: Callable[[], Any]) -> float:
    samples = []
    for _ in range(3):
        bench.touch()
        samples.append(once(fn))
    return statistics.median(samples)


def report(bench: Bench, rows: list[Row]) -> str:
    lines = [
        f"drill and projection — {bench.nodes:,} nodes, {bench.edges:,} edges, hub {bench.hub}",
        "",
        "| call | memgraph | plain Python | ratio | bar | ok |",
        "|---|---:|---:|---:|---|---|",
    ]
    for name, ours, theirs, bar, limit in rows:
        ratio = f"{theirs / ours:,.0f}× faster" if theirs else ""
        ok = "" if limit is None else ("yes" if ours <= limit else "NO")
        shown = _ms(theirs) if theirs else ""
        lines.append(f"| {name} | {_ms(ours)} | {shown} | {ratio} | {bar} | {ok} |")
    return "\n".join(lines)


def growth_row(bench: Bench) -> str:
    """One size of the growth check: both calls, and their time per 10,000 nodes."""
    project, drill = timed(bench.project), timed(bench.drill)
    per = 10_000 / bench.nodes
    return (
        f"| {bench.nodes:,} | {bench.edges:,} | {len(bench.pool):,} "
        f"| {_ms(project)} ({_ms(project * per)}) | {_ms(drill)} ({_ms(drill * per)}) |"
    )


def growth(rows: list[str]) -> str:
    return "\n".join(
        [
            "growth — both calls at every size (median of 7 warm calls; per 10k nodes in brackets)",
            "",
            "| nodes | edges | visible | projectEdges | expandFromSeeds (hub, 2 hops) |",
            "|---:|---:|---:|---:|---:|",
            *rows,
        ]
    )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.2f} ms" if seconds < 0.1 else f"{seconds * 1000:,.0f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=50_000, help="the size of the main table")
    parser.add_argument(
        "--sizes", default="10000,50000,200000", help="comma-separated sizes of the growth check"
    )
    options = parser.parse_args(argv)
    sizes = [int(s) for s in options.sizes.split(",") if s.strip()]
    table, rows = "", []
    with tempfile.TemporaryDirectory() as folder:
        for nodes in sorted({options.nodes, *sizes}):  # one store in memory at a time
            print(f"building the {nodes:,}-node demo …", flush=True)
            bench = Bench(Path(folder), nodes)
            if nodes == options.nodes:
                table = report(bench, main_rows(bench))
            if nodes in sizes:
                rows.append(growth_row(bench))
            bench.store.close()
            del bench
            gc.collect()
    print(table)
    print()
    print(growth(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

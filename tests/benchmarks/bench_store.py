"""Store and API benchmarks on a generated 50,000-node demo (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_store [--nodes 50000]

Prints one row per operation: memgraph's time, the plain-Python alternative's time measured in
the same run (see ``plain.py``), their ratio, and the bar from the design.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memgraph_gui.core import MemoryStore, external
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.luker.interop import export_luker
from tests.benchmarks import plain

Row = tuple[str, float, float | None, str, float | None]


def timed(fn: Callable[[], Any], repeat: int = 5, *, warm: bool = False) -> float:
    """Median seconds of ``repeat`` calls (after one untimed call when ``warm``)."""
    if warm:
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def cold(store: MemoryStore, fn: Callable[[], Any], *, create: bool = False) -> float:
    """Seconds for ``fn`` right after a write: an edit, or a create (which changes structure)."""
    if create:
        store.write_api().create_node(type="character_sheet", title=f"Bench {time.time()}")
    else:
        store.write_api().edit_node(id="n_1", set_fields={"goal": f"bench {time.time()}"})
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench_reads(store: MemoryStore, doc: dict[str, Any], rows: list[Row]) -> None:
    read = store.read_api()
    schema = {t["id"]: t for t in read.get_schema().schema.to_json()}
    queries = ["Eileen sword betrayal", "银月城", "secret deal", "艾琳"]
    for query in queries:  # warm the per-node caches once, as a running app would
        read.keyword_search(query=query)
        read.find_by_name(query=query)
        external.search_nodes_lexical(store, query)
    rows.append(
        (
            "keywordSearch (k=20)",
            timed(lambda: [read.keyword_search(query=q) for q in queries]) / 4,
            timed(lambda: [plain.keyword_search(doc, schema, q) for q in queries], 1) / 4,
            "≤ 20 ms",
            0.020,
        )
    )
    rows.append(
        (
            "  … first call after a create",
            cold(store, lambda: read.keyword_search(query="Eileen sword"), create=True),
            None,
            "≤ 20 ms",
            0.020,
        )
    )
    rows.append(
        (
            "findByName",
            timed(lambda: [read.find_by_name(query=q) for q in queries]) / 4,
            timed(lambda: [plain.find_by_name(doc, schema, q) for q in queries], 1) / 4,
            "≤ 20 ms",
            0.020,
        )
    )
    rows.append(
        (
            "searchNodesLexical (rare term)",
            timed(lambda: external.search_nodes_lexical(store, "zzz-not-there")),
            timed(lambda: plain.search_nodes_lexical(doc, "zzz-not-there"), 3),
            "≤ 20 ms",
            0.020,
        )
    )
    candidates = read.list_visible_candidates
    rows.append(
        (
            "listVisibleCandidates",
            timed(candidates),
            timed(lambda: plain.visible_candidates(doc, schema), 3),
            "≤ 100 ms",
            0.100,
        )
    )
    rows.append(("  … first call after an edit", cold(store, candidates), None, "≤ 100 ms", 0.100))
    rows.append(
        (
            "  … first call after a create",
            cold(store, candidates, create=True),
            None,
            "≤ 100 ms",
            0.100,
        )
    )
    ids = [n.id for n in read.list_visible_candidates()][:300]
    visible = set(ids) | {n.id for n in read.list_visible_candidates()}
    for i in ids:
        read.get_node_brief(i)
    plain_summary = timed(lambda: plain.edge_summary(doc, ids[0], visible), 1)
    rows.append(
        (
            "getNodeBrief (per node, 300 candidates)",
            timed(lambda: [read.get_node_brief(i) for i in ids], 3) / len(ids),
            plain_summary,
            "≤ 1 ms",
            0.001,
        )
    )
    rows.append(
        (
            "getEdgeSummary (per node)",
            timed(lambda: [read.get_edge_summary(i) for i in ids], 3) / len(ids),
            plain_summary,
            "",
            None,
        )
    )
    rows.append(
        (
            "  … first brief after a write",
            cold(store, lambda: read.get_node_brief(ids[0])),
            None,
            "",
            None,
        )
    )


def batch_ops(store: MemoryStore) -> list[dict[str, Any]]:
    events = [n.id for n in store.read_api().list_nodes(types=["event"])][-400:]
    ops: list[dict[str, Any]] = []
    for i in range(400):
        ops.append(
            {
                "op": "create",
                "type": "character_sheet",
                "ref": f"c{i}",
                "title": f"Bench Person {i}",
                "fields": {"aliases": f"别名{i}"},
            }
        )
    for i in range(300):
        ops.append({"op": "edit", "nodeId": events[i], "setFields": {"summary": f"edited {i}"}})
    for i in range(300):
        ops.append(
            {
                "op": "link_upsert",
                "sourceRef": f"c{i}",
                "links": [
                    {"targetNodeId": events[i], "relation": "involved_in", "direction": "outgoing"}
                ],
            }
        )
    return ops


def bench_writes(store: MemoryStore, rows: list[Row]) -> None:
    """A 1,000-op batch and its undo (median of 3), against one write per op and a full reload."""
    write = store.write_api()
    batches, undos = [], []
    for _ in range(3):
        ops = batch_ops(store)
        start = time.perf_counter()
        result = write.apply_extraction_batch(ops=ops)
        batches.append(time.perf_counter() - start)
        assert not result["rejected"], result["rejected"][:2]
        start = time.perf_counter()
        store.history.undo()
        undos.append(time.perf_counter() - start)
    single = batch_ops(store)[:50]
    start = time.perf_counter()
    for op in single:
        write.apply_extraction_batch(ops=[op])
    one_by_one = (time.perf_counter() - start) / len(single) * 1000
    for _ in single:
        store.history.undo()
    from memgraph_gui.core.luker.interop import import_luker

    snapshot = export_luker(store)
    start = time.perf_counter()
    import_luker(store, snapshot, replace=True, backup=False)  # the reload alone, no NAME.bak
    reload = time.perf_counter() - start
    rows.append(
        (
            "applyExtractionBatch, 1,000 ops",
            statistics.median(batches),
            one_by_one,
            "≤ 200 ms",
            0.200,
        )
    )
    rows.append(("undo of that batch", statistics.median(undos), reload, "≤ 200 ms", 0.200))


FRESH_WRITER = """
import json, statistics, sys, time
from memgraph_gui.core import MemoryStore
from tests.benchmarks.bench_store import batch_ops
store = MemoryStore.open(sys.argv[1], create=False)
write, batches, undos = store.write_api(), [], []
for _ in range(5):
    ops = batch_ops(store)
    start = time.perf_counter()
    write.apply_extraction_batch(ops=ops)
    batches.append(time.perf_counter() - start)
    start = time.perf_counter()
    store.history.undo()
    undos.append(time.perf_counter() - start)
print(json.dumps([statistics.median(batches), statistics.median(undos)]))
"""


def bench_fresh_writes(path: Path, rows: list[Row]) -> None:
    """The same batch and undo in a fresh process, as an agent or the window runs them (this
    process also holds the plain-Python copy of the data, which slows its own writes)."""
    result = subprocess.run(
        [sys.executable, "-c", FRESH_WRITER, str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    batch, undo = json.loads(result.stdout)
    rows.append(("  … in a fresh process (median of 5)", batch, None, "≤ 200 ms", 0.200))
    rows.append(("  … its undo, in a fresh process", undo, None, "≤ 200 ms", 0.200))


WRITER = """
import sys, time
from memgraph_gui.core import MemoryStore
store = MemoryStore.open(sys.argv[1], create=False)
write = store.write_api()
for i in range(12):
    time.sleep(0.25)
    write.create_node(type="thread", title=f"cross {i}", fields={"status": "active", "note": "x"})
    print(time.time(), flush=True)
"""


def bench_notification(path: Path, rows: list[Row], open_time: float) -> None:
    store = MemoryStore.open(path)
    arrivals: list[float] = []
    store.subscribe(lambda ch: arrivals.append(time.time()) if ch.external else None)
    store.start_watcher(interval=0.05)
    result = subprocess.run(
        [sys.executable, "-c", WRITER, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    time.sleep(0.5)
    store.close()
    commits = [float(x) for x in result.stdout.split()]
    latencies = [
        min(a for a in arrivals if a >= c - 0.001) - c
        for c in commits
        if any(a >= c - 0.001 for a in arrivals)
    ]
    rows.append(
        (
            "cross-process notification (median of 12)",
            statistics.median(latencies),
            open_time,
            "≤ 150 ms",
            0.150,
        )
    )
    rows.append(("  … worst of 12", max(latencies), None, "≤ 150 ms", 0.150))


MEMORY = """
import sys
from memgraph_gui.core import MemoryStore
store = MemoryStore.open(sys.argv[1])
read = store.read_api()
read.list_visible_candidates(); read.keyword_search(query="sword"); read.find_by_name(query="a")
read.get_node_brief(read.list_visible_candidates()[0].id); read.search_text("silver")
hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM")][0]
print(int(hwm.split()[1]) / 1024)  # ru_maxrss would count the forked parent's pages
"""


def store_memory(path: Path) -> float:
    """Peak RSS (MB) of a fresh process that opens the store and warms every search."""
    result = subprocess.run(
        [sys.executable, "-c", MEMORY, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return float(result.stdout.strip())


def report(rows: list[Row], nodes: int, edges: int, rss: float) -> str:
    lines = [
        f"memgraph store benchmarks — {nodes:,} nodes, {edges:,} edges; a process that opens "
        f"the store and warms every search peaks at {rss:.0f} MB RSS",
        "",
        "| operation | memgraph | plain Python | ratio | bar | ok |",
        "|---|---:|---:|---:|---|---|",
    ]
    for name, ours, theirs, bar, limit in rows:
        ratio = ""
        if theirs and ours:
            times = theirs / ours
            ratio = f"{times:,.0f}× faster" if times >= 10 else f"{times:.1f}× faster"
        if theirs and ours and theirs < ours:
            ratio = f"{ours / theirs:.1f}× slower"
        ok = "" if limit is None else ("yes" if ours <= limit else "NO")
        lines.append(
            f"| {name} | {_ms(ours)} | {_ms(theirs) if theirs else ''} | {ratio} | {bar} | {ok} |"
        )
    return "\n".join(lines)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.2f} ms" if seconds < 0.1 else f"{seconds * 1000:,.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=50_000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.memgraph"
        with MemoryStore.open(path) as setup:
            load_demo(setup, options.nodes, seed=1)
            doc = export_luker(setup)
        json_path = Path(folder) / "bench.json"
        json_path.write_text(json.dumps(doc, ensure_ascii=False))
        rows: list[Row] = []
        start = time.perf_counter()
        store = MemoryStore.open(path)
        open_time = time.perf_counter() - start
        json_time = timed(lambda: json.loads(json_path.read_text()), 1)
        rows.append(("open the store", open_time, json_time, "", None))
        bench_reads(store, doc, rows)
        bench_writes(store, rows)
        edges = len(store.graph.edges)
        store.close()
        bench_fresh_writes(path, rows)
        bench_notification(path, rows, open_time)
        print(report(rows, options.nodes, edges, store_memory(path)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

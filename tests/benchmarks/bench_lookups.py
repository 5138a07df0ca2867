"""Single lookups a bridge makes all the time, on generated demo stores (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_lookups [--sizes 10000,50000,200000]

Each store is made as a user would (``memgraph demo --nodes N --seed 11``). Every call runs in a
fresh process that opens the store and times the first call (which builds what the call's
index needs), then the warm median, then the first call after an edit and after a create (the
writes are undone again). The plain-Python alternative (``plain.py``: Luker's algorithm over the
Luker JSON document, recomputed per call) is timed in this process in the same run. The first
table is the largest size up to 50,000 nodes with the bars of issue 13; the second shows how
the warm calls grow with the store, where an O(N) call would show. The demo's biggest hub has
~100 edges, so the two hub calls are measured again on a copy of the store whose hub is also
mentioned by ``--hub-edges`` events (10,000 by default), against the plain scan of that copy.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memgraph_gui.core import MemoryStore, external
from memgraph_gui.core.luker.interop import export_luker
from tests.benchmarks import plain
from tests.benchmarks.bench_store import timed

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Eileen", "艾琳", "Kain", "银月城"]  # findByName: the median of these four lookups
NO_MATCH = "zzz-not-there"
CALLS = {  # name -> bar (seconds)
    "getNodeById (external), the biggest hub": 0.003,
    "getNeighbors, the biggest hub": 0.025,
    "getNeighbors, the hub, projectTo 40% of ids": 0.025,
    "searchNodesLexical (external), no match": 0.002,
    "findByName (a name)": 0.005,
}
HUB_CALLS = [  # measured again on a copy of the store whose hub has --hub-edges more edges
    "getNodeById (external), the biggest hub",
    "getNeighbors, the biggest hub",
]
Call = Callable[[], Any]


def our_calls(store: MemoryStore, hub: str, visible: list[str]) -> dict[str, Call]:
    """The measured calls, by the names of ``CALLS``."""
    read = store.read_api()
    names = iter(NAMES * 1_000_000)
    return dict(
        zip(
            CALLS,
            [
                lambda: external.get_node_by_id(store, hub),
                lambda: read.get_neighbors(hub),
                lambda: read.get_neighbors(hub, project_to=visible),
                lambda: external.search_nodes_lexical(store, NO_MATCH),
                lambda: read.find_by_name(query=next(names)),
            ],
            strict=True,
        )
    )


def plain_calls(doc: dict[str, Any], schema: dict[str, Any], hub: str, visible: list[str]) -> dict:
    names = iter(NAMES * 1_000_000)
    return dict(
        zip(
            CALLS,
            [
                lambda: plain.get_node_by_id(doc, hub),
                lambda: plain.get_neighbors(doc, hub),
                lambda: plain.get_neighbors(doc, hub, visible),
                lambda: plain.search_nodes_lexical(doc, NO_MATCH),
                lambda: plain.find_by_name(doc, schema, next(names)),
            ],
            strict=True,
        )
    )


def once(fn: Call) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def measure_fresh(path: str, name: str, hub: str, visible: list[str], repeat: int) -> dict:
    """In this (fresh) process: open, first call, warm median, first call after writes."""
    store = MemoryStore.open(path, create=False)
    fn = our_calls(store, hub, visible)[name]
    out = {"first": once(fn), "warm": timed(fn, repeat)}
    write = store.write_api()
    event = store.read_api().list_nodes(types=["event"])[-1].id
    write.edit_node(id=event, set_fields={"summary": f"bench edit {time.time()}"})
    out["after_edit"] = once(fn)
    write.create_node(type="character_sheet", title=f"Bench Person {time.time()}")
    out["after_create"] = once(fn)
    store.history.undo()
    store.history.undo()
    store.close()
    return out


def in_fresh_process(path: Path, name: str, hub: str, visible: Path, repeat: int) -> dict:
    child = [sys.executable, "-m", "tests.benchmarks.bench_lookups", "--child", str(path)]
    child += [name, hub, str(visible), str(repeat)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(child, capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def build(path: Path, nodes: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cli = [sys.executable, "-m", "memgraph_gui.cli", "--db", str(path)]
    demo = [*cli, "demo", "--nodes", str(nodes), "--seed", "11"]
    subprocess.run(demo, check=True, env=env, capture_output=True)


def hub_and_visible(store: MemoryStore) -> tuple[str, list[str]]:
    """The node with the most incident edges, and 40% of the ids spread over the timeline."""
    with store.reading() as graph:
        degree: Counter[str] = Counter()
        for source, _type, target in graph.edges:
            degree[source] += 1
            degree[target] += 1
        timeline = graph.timeline_ids()
    return degree.most_common(1)[0][0], [i for k, i in enumerate(timeline) if k % 5 < 2]


def grow_hub(path: Path, hub: str, extra: int) -> Path:
    """A copy of the store at ``path`` whose ``hub`` is also mentioned by ``extra`` events (the
    biggest hub of a long chat's store can have thousands of edges; the demo's has ~100)."""
    copy = path.with_name(f"{path.stem}-hub{extra}.memgraph")
    shutil.copyfile(path, copy)
    with MemoryStore.open(copy, create=False) as store:
        events = [n.id for n in store.read_api().list_nodes(types=["event"]) if n.id != hub]
        link = {"targetNodeId": hub, "relation": "mentions", "direction": "outgoing"}
        ops = [{"op": "link_upsert", "sourceNodeId": i, "links": [link]} for i in events[:extra]]
        store.write_api().apply_extraction_batch(ops=ops)
    return copy


def check_same(store: MemoryStore, doc: dict, schema: dict, hub: str, visible: list[str]) -> None:
    """Both sides answer alike (a benchmark of different answers would mean nothing)."""
    read = store.read_api()
    ours = external.get_node_by_id(store, hub)
    assert ours is not None and ours["neighbors"] == plain.get_node_by_id(doc, hub)["neighbors"]
    for projection in (None, visible):
        mine = read.get_neighbors(hub, project_to=projection or "raw")
        theirs = plain.get_neighbors(doc, hub, projection)
        assert {(n.node.id, n.edge_type, n.direction) for n in mine} == set(theirs)
    assert external.search_nodes_lexical(store, NO_MATCH) == {"nodes": []}
    assert plain.search_nodes_lexical(doc, NO_MATCH) == []
    for name in NAMES:
        mine_ids = {n.id for n in read.find_by_name(query=name).matches}
        assert mine_ids == {n["id"] for n in plain.find_by_name(doc, schema, name)}


def bench_size(
    folder: Path, nodes: int, repeat: int, hub_edges: int
) -> dict[str, dict[str, float]]:
    """Every call at one store size: ours (fresh processes) and plain (this process); then the
    hub calls again on a copy whose hub has ``hub_edges`` more edges (0: not)."""
    path = folder / f"lookups-{nodes}.memgraph"
    build(path, nodes)
    with MemoryStore.open(path, create=False) as store:
        hub, visible = hub_and_visible(store)
        doc = export_luker(store)
        schema = {t["id"]: t for t in store.read_api().get_schema().schema.to_json()}
        check_same(store, doc, schema, hub, visible)
    visible_file = folder / f"visible-{nodes}.json"
    visible_file.write_text(json.dumps(visible))
    results: dict[str, dict[str, float]] = {}
    theirs = plain_calls(doc, schema, hub, visible)
    for name in CALLS:
        results[name] = in_fresh_process(path, name, hub, visible_file, repeat)
        results[name]["plain"] = timed(theirs[name], 3)
    if hub_edges:
        big = grow_hub(path, hub, hub_edges)
        with MemoryStore.open(big, create=False) as store:
            doc = export_luker(store)
            check_same(store, doc, schema, hub, visible)
        theirs = plain_calls(doc, schema, hub, visible)
        for name in HUB_CALLS:
            degree = len(plain.get_node_by_id(doc, hub)["neighbors"])  # type: ignore[index]
            row = name.replace("the biggest hub", f"a hub of {degree:,} edges")
            results[row] = in_fresh_process(big, name, hub, visible_file, repeat)
            results[row]["plain"] = timed(theirs[name], 3)
            results[row]["bar"] = CALLS[name]
    return results


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.2f} ms" if seconds < 0.1 else f"{seconds * 1000:,.0f} ms"


def _ratio(ours: float, theirs: float) -> str:
    times = theirs / ours
    if times < 1:
        return f"{ours / theirs:.1f}× slower"
    return f"{times:,.0f}× faster" if times >= 10 else f"{times:.1f}× faster"


def report(nodes: int, results: dict[str, dict[str, float]]) -> str:
    lines = [
        f"lookups — {nodes:,}-node demo store (seed 11); ratio = plain Python / our warm call",
        "",
        "| call | first after open | warm | after an edit | after a create | plain Python "
        "| ratio | bar | warm ok | first ok |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for name, r in results.items():
        bar = r.get("bar", CALLS.get(name, 0.0))
        lines.append(
            f"| {name} | {_ms(r['first'])} | {_ms(r['warm'])} | {_ms(r['after_edit'])} "
            f"| {_ms(r['after_create'])} | {_ms(r['plain'])} | {_ratio(r['warm'], r['plain'])} "
            f"| ≤ {_ms(bar)} | {'yes' if r['warm'] <= bar else 'NO'} "
            f"| {'yes' if r['first'] <= bar else 'no'} |"
        )
    return "\n".join(lines)


def growth(by_size: dict[int, dict[str, dict[str, float]]]) -> str:
    sizes = sorted(by_size)
    head = " | ".join(f"{n:,}: ours / plain" for n in sizes)
    lines = [
        "growth — warm calls (an O(N) call grows with the store; plain Python does)",
        "",
        f"| call | {head} |",
        "|---|" + "---:|" * len(sizes),
    ]
    for name in CALLS:
        cells = " | ".join(
            f"{_ms(by_size[n][name]['warm'])} / {_ms(by_size[n][name]['plain'])}" for n in sizes
        )
        lines.append(f"| {name} | {cells} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--sizes", default="10000,50000,200000", help="node counts, comma-separated"
    )
    parser.add_argument("--repeat", type=int, default=20, help="warm calls timed per call")
    parser.add_argument(
        "--hub-edges", type=int, default=10_000, help="edges added to the hub for its second rows"
    )
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        path, name, hub, visible, repeat = options.child
        ids = json.loads(Path(visible).read_text())
        print(json.dumps(measure_fresh(path, name, hub, ids, int(repeat))))
        return 0
    sizes = sorted(int(s) for s in options.sizes.split(","))
    by_size: dict[int, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for nodes in sizes:
            print(f"… {nodes:,} nodes", file=sys.stderr, flush=True)
            by_size[nodes] = bench_size(Path(folder), nodes, options.repeat, options.hub_edges)
    main_size = max((n for n in sizes if n <= 50_000), default=sizes[0])
    print(report(main_size, by_size[main_size]))
    if len(sizes) > 1:
        print()
        print(growth(by_size))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A protagonist's calls as its degree grows, against Luker's JavaScript (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_hubs [--db STORE] [--degrees 1000,10000,20000,70000]

In a long role-play the protagonist is on a third of all events' edges. On a copy of a demo
store (``memgraph demo --nodes 50000 --seed 11`` unless ``--db`` names one), a new character is
linked from events until it has each degree in turn (``mentions``, then ``involved_in``; both
count), and at each degree these calls are timed on it, and on the store's own biggest hub:

- ``getNodeById`` (external API, with its neighbours), ``getNeighbors`` (raw), and
  ``getNeighbors`` with ``projectTo`` the candidate pool (listVisibleCandidates) and 40% of all
  ids spread over the timeline; ``listEdges({to: hub})``; ``expandFromSeeds([hub])`` inside the
  candidate pool, one hop and two;
- ours warm (median), and ours on the first call after a write that adds an edge to the hub
  (as every turn of a chat does to its protagonist; median of 5);
- Luker's JavaScript under node in the same run (``luker_hub.mjs``: a scan of every edge per
  call, a frozen view per row, as Luker answers) on the Luker export of the same store. The
  answers' sizes are checked equal.

The bar (issue 24): every call at least 3x faster than Luker's JS, and growth with the degree
linear at worst (the "per 1k edges" column stays flat or falls).
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
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memgraph_gui.core import MemoryStore, external
from memgraph_gui.core.luker.interop import export_luker
from tests.benchmarks.bench_lookups import build
from tests.benchmarks.bench_store import timed

HERE = Path(__file__).resolve().parent
CALLS = [
    "getNodeById",
    "getNeighbors",
    "getNeighbors:candidates",
    "getNeighbors:spread",
    "listEdges:to",
    "expandFromSeeds:candidates:1",
    "expandFromSeeds:candidates:2",
]
RELATIONS = ["mentions", "involved_in"]
Call = Callable[[], Any]


def calls(store: MemoryStore, hub: str, visible: dict[str, list[str]]) -> dict[str, Call]:
    read = store.read_api()
    return {
        "getNodeById": lambda: external.get_node_by_id(store, hub),
        "getNeighbors": lambda: read.get_neighbors(hub),
        "getNeighbors:candidates": lambda: read.get_neighbors(
            hub, project_to=visible["candidates"]
        ),
        "getNeighbors:spread": lambda: read.get_neighbors(hub, project_to=visible["spread"]),
        "listEdges:to": lambda: read.list_edges(to_id=hub),
        "expandFromSeeds:candidates:1": lambda: read.expand_from_seeds(
            [hub], project_to=visible["candidates"]
        ),
        "expandFromSeeds:candidates:2": lambda: read.expand_from_seeds(
            [hub], project_to=visible["candidates"], hops=2
        ),
    }


def size(name: str, answer: Any) -> int:
    return len(answer["neighbors"]) if name == "getNodeById" else len(answer)


def degree_of(store: MemoryStore, node_id: str) -> int:
    with store.reading() as graph:
        return len(graph.edges_of(node_id))


def biggest_hub(store: MemoryStore) -> str:
    with store.reading() as graph:
        degree: Counter[str] = Counter()
        for source, _type, target in graph.edges:
            degree[source] += 1
            degree[target] += 1
    return degree.most_common(1)[0][0]


def visible_sets(store: MemoryStore) -> dict[str, list[str]]:
    read = store.read_api()
    with store.reading() as graph:
        timeline = graph.timeline_ids()
    return {
        "candidates": [n.id for n in read.list_visible_candidates()],
        "spread": [i for k, i in enumerate(timeline) if k % 5 < 2],
    }


def grow_to(store: MemoryStore, hub: str, events: list[str], degree: int) -> None:
    """Link events to ``hub`` until it has ``degree`` edges (one batch per 5,000 links)."""
    have = degree_of(store, hub)
    wanted = [(e, r) for r in RELATIONS for e in events][have : max(have, degree)]
    write = store.write_api()
    for start in range(0, len(wanted), 5_000):
        ops = [
            {
                "op": "link_upsert",
                "sourceNodeId": event,
                "links": [{"targetNodeId": hub, "relation": relation, "direction": "outgoing"}],
            }
            for event, relation in wanted[start : start + 5_000]
        ]
        write.apply_extraction_batch(ops=ops)


def after_hub_write(store: MemoryStore, hub: str, fn: Call, events: list[str]) -> float:
    """Median seconds of ``fn`` right after a write that adds an edge to ``hub`` (5 writes, as
    5 turns of a chat; undone afterwards)."""
    write = store.write_api()
    samples = []
    for event in events[-5:]:
        link = {"target": {"id": hub}, "relation": "related", "direction": "outgoing"}
        write.upsert_links(source={"id": event}, links=[link])
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    for _ in range(5):
        store.history.undo()
    fn()  # the undone edges folded out, before the next call is timed
    return statistics.median(samples)


def luker_js(store: MemoryStore, hub: str, visible: dict[str, list[str]], folder: Path) -> dict:
    """Luker's calls under node on this store's export (None when node is missing)."""
    node = shutil.which("node")
    if node is None:
        return {}
    doc, ids = folder / "export.json", folder / "visible.json"
    doc.write_text(json.dumps(export_luker(store.storage), ensure_ascii=False))
    ids.write_text(json.dumps(visible))
    script = HERE / "luker_hub.mjs"
    command = [node, "--max-old-space-size=8192", str(script), str(doc), hub, str(ids), "20"]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def measure(store: MemoryStore, hub: str, visible: dict, events: list[str], folder: Path) -> list:
    """One row per call: degree, ours warm, ours after a hub write, JS, sizes checked equal."""
    ours = calls(store, hub, visible)
    theirs = luker_js(store, hub, visible, folder)
    degree = degree_of(store, hub)
    rows = []
    for name in CALLS:
        answer = ours[name]()
        js = theirs.get(name)
        if js is not None and js["size"] != size(name, answer):
            raise AssertionError(f"{name}: {size(name, answer)} rows here, {js['size']} in JS")
        rows.append(
            {
                "degree": degree,
                "call": name,
                "rows": size(name, answer),
                "warm": timed(ours[name], 20, warm=True),
                "after_write": after_hub_write(store, hub, ours[name], events),
                "js": js["seconds"] if js else None,
            }
        )
    return rows


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    return f"{seconds * 1000:,.2f} ms" if seconds < 0.1 else f"{seconds * 1000:,.0f} ms"


def report(rows: list[dict], load: str) -> str:
    lines = [
        f"hub calls by degree — ours vs Luker's JS (node) on the same store; load {load}",
        "",
        "| hub | degree | call | rows | ours warm | ours, first after a hub write | Luker JS "
        "| JS / ours (warm) | JS / ours (after a write) | ours per 1k edges | ≥ 3× |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        js = r["js"]
        warm_ratio = f"{js / r['warm']:,.1f}×" if js else "—"
        after_ratio = f"{js / r['after_write']:,.1f}×" if js else "—"
        ok = "—" if not js else "yes" if js / max(r["warm"], r["after_write"]) >= 3 else "NO"
        per_k = r["warm"] / max(1, r["degree"]) * 1000
        lines.append(
            f"| {r['hub']} | {r['degree']:,} | `{r['call']}` | {r['rows']:,} | {_ms(r['warm'])} "
            f"| {_ms(r['after_write'])} | {_ms(js)} | {warm_ratio} | {after_ratio} "
            f"| {per_k * 1000:,.1f} µs | {ok} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, help="a store to copy (default: a 50k demo, seed 11)")
    parser.add_argument("--nodes", type=int, default=50_000, help="the demo's size without --db")
    parser.add_argument("--degrees", default="1000,10000,20000,70000")
    options = parser.parse_args()
    degrees = sorted(int(d) for d in options.degrees.split(","))
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "hubs.memgraph"
        if options.db:
            shutil.copyfile(options.db, path)
        else:
            print(f"… building a {options.nodes:,}-node demo", file=sys.stderr, flush=True)
            build(path, options.nodes)
        with MemoryStore.open(path, create=False) as store:
            visible = visible_sets(store)
            events = [n.id for n in store.read_api().list_nodes(types=["event"])]
            protagonist = biggest_hub(store)
            print(f"… the store's biggest hub {protagonist}", file=sys.stderr, flush=True)
            for row in measure(store, protagonist, visible, events, folder):
                rows.append({**row, "hub": "the store's biggest"})
            hub = store.write_api().create_node(type="character_sheet", title="Bench Hub")["id"]
            for degree in degrees:
                print(f"… a hub of {degree:,} edges", file=sys.stderr, flush=True)
                grow_to(store, hub, events, degree)
                for row in measure(store, hub, visible, events, folder):
                    rows.append({**row, "hub": "grown"})
    print(report(rows, f"{os.getloadavg()[0]:.2f}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

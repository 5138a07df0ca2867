"""Memory over many opens: opening and closing stores in a row leaves RSS flat (run on demand).

    python -m tests.benchmarks.bench_rss [--db FILE] [--nodes 50000] [--opens 20]

Each way runs in a fresh process on a demo store (``memgraph demo --nodes N``), printing RSS
after each open, search and close:

- the library API: ``MemoryStore.open`` (edge lists indexed), ``find_by_name`` and
  ``keyword_search``, ``close``;
- the window's store switch: ``AppModel.replace_store`` to a freshly opened store (as File ▸
  Open does), the model's timeline rows read, the previous store closed by the switch.

The bar (issue 19): the RSS after the last open within 10% of the RSS after the first. A switch
opens the next store while the current one is open (as the window does, so it stays usable), so
from the second switch on two graphs were alive at once; the last is also compared with the second.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = r"""
import json, os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
path, opens, way = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024

from memgraph_gui.core.memory import MemoryStore
rows = []
if way == "library":
    for _ in range(opens):
        began = time.perf_counter()
        store = MemoryStore.open(path)
        read = store.read_api()
        read.find_by_name(query="Eileen")
        read.keyword_search(query="Eileen sword betrayal")
        store.close()
        del store, read
        rows.append((rss(), time.perf_counter() - began))
else:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.app.qt import QCoreApplication
    qt = QCoreApplication([])
    app = AppModel(MemoryStore.open(":memory:"))

    def look(store):  # what the window reads first (no graph kept beyond the call)
        with store.reading() as graph:
            len(graph.timeline_ids())
        store.read_api().find_by_name(query="Eileen")

    for _ in range(opens):
        began = time.perf_counter()
        app.replace_store(MemoryStore.open(path, index_edges=False))
        look(app.store)
        qt.processEvents()
        rows.append((rss(), time.perf_counter() - began))
    app.close()
print(json.dumps(rows))
"""


def demo_store(nodes: int, folder: Path) -> Path:
    path = folder / f"demo-{nodes}.memgraph"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "memgraph_gui.cli", "--db", str(path), "demo"]
    subprocess.run([*command, "--nodes", str(nodes), "--seed", "11"], check=True, env=env)
    return path


def measure(path: Path, opens: int, way: str) -> list[tuple[float, float]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(path), str(opens), way],
        check=True,
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return [tuple(row) for row in json.loads(done.stdout.splitlines()[-1])]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", help="an existing store (default: a generated demo)")
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--opens", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(options.db) if options.db else demo_store(options.nodes, Path(folder))
        results = {way: measure(path, options.opens, way) for way in ("library", "app switch")}
    print(f"\n{path.name}: RSS (MB) after each open + search + close\n")
    print("| open | library API | s | AppModel.replace_store | s |")
    print("|---:|---:|---:|---:|---:|")
    for i, (lib, app) in enumerate(zip(*results.values(), strict=True), start=1):
        print(f"| {i} | {lib[0]:.0f} | {lib[1]:.2f} | {app[0]:.0f} | {app[1]:.2f} |")
    print()
    for way, rows in results.items():
        growth = rows[-1][0] / rows[0][0] - 1
        verdict = "ok" if growth <= 0.10 else "OVER the 10% bar"
        print(f"{way}: last vs first {growth:+.1%} ({verdict})", end="")
        if len(rows) > 2:  # a switch opens the next store while the last is open: from the
            # second on, two graphs were alive at once
            print(f", last vs second {rows[-1][0] / rows[1][0] - 1:+.1%}", end="")
        print()


if __name__ == "__main__":
    main()

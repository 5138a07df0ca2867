"""Memory over many opens: opening and closing stores in a row leaves RSS flat (run on demand).

    python -m tests.benchmarks.bench_rss [--db FILE] [--nodes 50000] [--opens 20]

Each way runs in a fresh process on a demo store (``memgraph demo --nodes N``), printing RSS
after each open, search and close:

- the library API: ``MemoryStore.open`` (edge lists indexed), ``find_by_name`` and
  ``keyword_search``, ``close``;
- the app layer's store switch: ``StoreSwitcher.open`` (what File ▸ Open uses: the file's rows
  read and checked, then the open store let go, then the new graph built and switched to), the
  model's timeline rows read;
- ``AppModel.replace_store`` to a store opened while the current one is still open (the order
  before the switcher let go first: a diagnostic, two graphs alive during each open);
- the window: a ``MainWindow`` over the app model, File ▸ Open through ``FileActions.open_path``
  (opener thread, preview, views refreshed, layout), waited for until the window is settled.

The bar (issue 19): the RSS after the last open within 10% of the RSS after the first. Beside RSS
each row records CPython's small-object allocator: the MB of its 1 MiB arenas and of the live
blocks in them (``sys._debugmallocstats``). The live blocks stay flat over the opens (nothing is
kept). With two graphs alive during an open (the diagnostic way) the arenas grow: the new graph's
objects land in arenas that also hold the old graph's, and an arena goes back to the system only
once it is entirely free. The RSS beyond the arenas is malloc's (blocks over 512 bytes, SQLite,
Qt, numpy).
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

def pymalloc():  # (MB of arenas: 1 MiB each, MB of live blocks) from sys._debugmallocstats (on fd 2)
    import re, tempfile
    with tempfile.TemporaryFile("w+") as out:
        saved = os.dup(2)
        os.dup2(out.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read()
    def number(key):
        return int(re.search(re.escape(key) + r"\s*=\s*([\d,]+)", text)[1].replace(",", ""))
    return number("# arenas allocated current"), number("# bytes in allocated blocks") / 2**20

def row(began):
    return (rss(), time.perf_counter() - began, *pymalloc())

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
        rows.append(row(began))
elif way == "window":
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.views.main_window import MainWindow
    from memgraph_gui.views.qt import QApplication
    qt = QApplication([])
    app = AppModel(MemoryStore.open(":memory:"))
    window = MainWindow(app)
    window.files.dialogs = False
    window.show()
    for _ in range(opens):
        began = time.perf_counter()
        window.files.open_path(path)
        while not window.settled() or app.store.path != path:
            qt.processEvents()
            time.sleep(0.005)
        qt.processEvents()
        rows.append(row(began))
    app.close()
else:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.app.qt import QCoreApplication
    qt = QCoreApplication([])
    app = AppModel(MemoryStore.open(":memory:"))

    def look(store):  # what the window reads first (no graph kept beyond the call)
        with store.reading() as graph:
            len(graph.timeline_ids())
        store.read_api().find_by_name(query="Eileen")

    from memgraph_gui.app.files import StoreSwitcher
    switcher = StoreSwitcher(app)
    for _ in range(opens):
        began = time.perf_counter()
        if way == "two alive":
            app.replace_store(MemoryStore.open(path, index_edges=False))
        else:
            done = []
            switcher.open(path, lambda *result: done.append(result), on_preview=None)
            while not done:
                qt.processEvents()
                time.sleep(0.005)
            assert done[0] == (path, None), done
        look(app.store)
        qt.processEvents()
        rows.append(row(began))
    app.close()
print(json.dumps(rows))
"""


def demo_store(nodes: int, folder: Path) -> Path:
    path = folder / f"demo-{nodes}.memgraph"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "memgraph_gui.cli", "--db", str(path), "demo"]
    subprocess.run([*command, "--nodes", str(nodes), "--seed", "11"], check=True, env=env)
    return path


WAYS = {
    "library": "library API",
    "app switch": "StoreSwitcher.open",
    "two alive": "replace_store, old open meanwhile",
    "window": "window, File ▸ Open",
}


def measure(path: Path, opens: int, way: str) -> list[tuple[float, ...]]:
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
        results = {way: measure(path, options.opens, way) for way in WAYS}
    print(f"\n{path.name}: RSS (MB) after each open (+ search + close for the library API)\n")
    print("| open | " + " | ".join(f"{WAYS[way]} | s" for way in results) + " |")
    print("|---:|" + "---:|---:|" * len(results))
    for i, row in enumerate(zip(*results.values(), strict=True), start=1):
        print(f"| {i} | " + " | ".join(f"{r[0]:.0f} | {r[1]:.2f}" for r in row) + " |")
    print()
    for way, rows in results.items():
        growth = rows[-1][0] / rows[0][0] - 1
        verdict = "ok" if growth <= 0.10 else "OVER the 10% bar"
        print(f"{WAYS[way]}: last vs first {growth:+.1%} ({verdict})", end="")
        if len(rows) > 2:
            print(f", last vs second {rows[-1][0] / rows[1][0] - 1:+.1%}", end="")
        (arenas, live), (arenas_end, live_end) = rows[0][2:], rows[-1][2:]
        print(f"; pymalloc arenas {arenas:.0f} -> {arenas_end:.0f} MB,", end="")
        print(f" live blocks {live:.0f} -> {live_end:.0f} MB")


if __name__ == "__main__":
    main()

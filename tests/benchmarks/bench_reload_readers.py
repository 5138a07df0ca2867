"""How long this process's readers wait while it catches up with another process's replacement
of a big store (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_reload_readers [--nodes 50000] [--rounds 3]

A second process replaces the store with a generated demo (``memgraph demo``'s data: ~3 edges
per node); this one then catches up, twice per round:

* ``watcher``: as the window does: the watcher thread catches up while a "GUI" thread reads the
  whole graph in a loop (``reading()``);
* ``reader``: no watcher; one thread calls ``sync()`` (which reloads), another reads in a loop
  from the moment the reload reads the tables.

Prints the reload's duration and the reading thread's longest and median wait meanwhile.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import generate
from memgraph_gui.core.storage import rows

REPLACE = """
import sys
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import generate
with MemoryStore.open(sys.argv[1]) as store:
    store.storage.replace_all(*generate(int(sys.argv[2]), seed=int(sys.argv[3])), backup=False)
"""


def _replace_elsewhere(path: Path, nodes: int, seed: int) -> None:
    subprocess.run([sys.executable, "-c", REPLACE, str(path), str(nodes), str(seed)], check=True)


@contextmanager
def _reading_tables() -> Iterator[threading.Event]:
    """An event set when a store next reads its tables whole (a reload has begun)."""
    began, real = threading.Event(), rows.read_tables

    def read_tables(conn: Any) -> rows.Tables:
        began.set()
        return real(conn)

    rows.read_tables = read_tables  # type: ignore[assignment]
    try:
        yield began
    finally:
        rows.read_tables = real  # type: ignore[assignment]


def _round(path: Path, nodes: int, seed: int, mode: str) -> tuple[float, float, float, int]:
    """(reload s, longest read wait s, median read wait s, reads) of one catch-up."""
    with MemoryStore.open(path) as store:
        _replace_elsewhere(path, nodes, seed)
        told = threading.Event()
        store.subscribe(lambda changes: told.set() if changes.reloaded else None)
        waits: list[float] = []
        began = time.perf_counter()

        def poll() -> None:
            while not told.is_set():
                start = time.perf_counter()
                with store.reading() as graph:
                    len(graph.nodes)
                waits.append(time.perf_counter() - start)
                time.sleep(0.002)  # a GUI thread between two events

        reader = threading.Thread(target=poll, name="gui")
        if mode == "watcher":
            store.start_watcher(interval=0.05)
            reader.start()
        else:  # the reader starts once sync() reads the tables (else it would reload itself)
            with _reading_tables() as began_reading:
                syncing = threading.Thread(target=store.sync, name="sync")
                syncing.start()
                began_reading.wait(120)
                reader.start()
                syncing.join()
        told.wait(120)
        took = time.perf_counter() - began
        reader.join()
        store.stop_watcher()
    return took, max(waits), statistics.median(waits), len(waits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.memgraph"
        with MemoryStore.open(path) as store:
            store.storage.replace_all(*generate(args.nodes, seed=1), backup=False)
        print(f"{args.nodes:,} nodes; times in ms")
        print(f"{'mode':8} {'catch-up':>9} {'longest read':>13} {'median read':>12} {'reads':>6}")
        for i in range(args.rounds):
            for mode in ("watcher", "reader"):
                took, longest, median, count = _round(path, args.nodes, 2 + i, mode)
                print(
                    f"{mode:8} {took * 1e3:9.0f} {longest * 1e3:13.1f} {median * 1e3:12.2f} "
                    f"{count:6d}"
                )


if __name__ == "__main__":
    main()

"""The route model's input blocks for the whole candidate pool (run on demand, not in CI).

    python -m tests.benchmarks.bench_route_input [--db FILE] [--nodes 50000] [--rounds 7]

Builds the story demo (``memgraph demo --nodes N --seed 11``, which records the pool as the
visible set) unless ``--db`` names a store; works on a copy either way. Measured, each the median
of ``--rounds`` runs in this process:

- ``candidate_rows`` (the candidateRows block) and ``build_route_input`` (both blocks, the
  always-inject ids and the message as one text, with its token estimate): the first call after
  opening, warm (the same graph, another message), right after a field edit of a candidate
  (its row changes) and right after a new node linked to the biggest hub (the structure
  changes);
- the plain alternative in the same run: the seed's worked example, ``getSchema()`` then
  ``getNodeBrief(id, includeEdgeSummary=True, edgeSummaryLimit=8)`` for each of
  ``listVisibleCandidates()`` through the Read API (plus, for the whole input, the same text
  serialised with ``route_text`` and ``estimate_tokens``), timed in the same situations.

Each timed call starts after ``gc.collect()``. Prints a markdown table: measure, ours, plain,
ratio (plain / ours), bar, ok.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.luker.route_input import (
    build_route_input,
    candidate_rows,
    estimate_tokens,
    route_text,
    schema_overview,
)

ROOT = Path(__file__).resolve().parents[2]
BAR_MS = 50.0


def worked_rows(read: Any) -> list[dict[str, Any]]:
    """The seed's worked example: getNodeBrief per listVisibleCandidates id."""
    return [
        read.get_node_brief(view.id, include_edge_summary=True, edge_summary_limit=8).to_json()
        for view in read.list_visible_candidates()
    ]


def worked_input(read: Any, message: str) -> tuple[str, int]:
    """The whole input the plain way: the worked example's blocks, serialised and counted."""
    always = read.get_injection_state().to_json()["alwaysInjectIds"]
    text = route_text(schema_overview(read), worked_rows(read), always, message)
    return text, estimate_tokens(text)


def once(fn: Callable[[], Any]) -> float:
    """Seconds of one call, after a full collection (so garbage an earlier call left, e.g. the
    plain loop's ~10^5 objects, is not collected on this call's time)."""
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


class Writes:
    """Writes that change the rows: a field edit of a candidate, a new node linked to the hub."""

    def __init__(self, store: MemoryStore) -> None:
        self.write = store.write_api(origin="bench")
        pool = store.read_api().list_visible_candidates()
        self.candidates = [v.id for v in pool if v.type == "character_sheet"][:50]
        rows = candidate_rows(store.read_api())
        self.hub = max(rows, key=lambda r: r["edgeSummary"]["degree"])["id"]
        self.count = 0

    def edit(self) -> None:
        self.count += 1
        target = self.candidates[self.count % len(self.candidates)]
        self.write.edit_node(id=target, set_fields={"goal": f"bench {self.count}"}, keep_seq=True)

    def create(self) -> None:
        self.count += 1
        made = self.write.create_node(type="character_sheet", title=f"Bench {self.count}")["id"]
        self.write.upsert_links(
            source={"id": made}, links=[{"target": {"id": self.hub}, "relation": "mentions"}]
        )


def measure(path: Path, rounds: int) -> list[tuple[str, float, float]]:
    """``(measure, ours, plain)`` seconds, medians of ``rounds``."""
    out: list[tuple[str, float, float]] = []
    store = MemoryStore.open(path, create=False)
    read = store.read_api()
    messages = iter(f"Where did Kain go? 凯恩去了哪里？ ({i})" for i in range(10_000))
    ours_rows = lambda: candidate_rows(read)  # noqa: E731
    plain_rows = lambda: worked_rows(read)  # noqa: E731
    ours_input = lambda: build_route_input(read, next(messages))  # noqa: E731
    plain_input = lambda: worked_input(read, next(messages))  # noqa: E731
    first_ours = once(ours_input)
    first_plain = once(plain_input)
    out.append(("build_route_input, first call after opening", first_ours, first_plain))
    writes = Writes(store)
    for name, ours, plain in (
        ("candidate_rows", ours_rows, plain_rows),
        ("build_route_input", ours_input, plain_input),
    ):
        warm = [once(ours) for _ in range(rounds)]
        warm_plain = [once(plain) for _ in range(rounds)]
        out.append((f"{name}, warm", statistics.median(warm), statistics.median(warm_plain)))
        for label, change in (("a field edit", writes.edit), ("a new linked node", writes.create)):
            after, after_plain = [], []
            for _ in range(rounds):
                change()
                after.append(once(ours))
                change()
                after_plain.append(once(plain))
            out.append(
                (
                    f"{name}, after {label}",
                    statistics.median(after),
                    statistics.median(after_plain),
                )
            )
    route = build_route_input(read, "x")
    print(
        f"pool: {len(route.candidate_rows):,} rows, hub degree "
        f"{max(r['edgeSummary']['degree'] for r in route.candidate_rows):,}, text "
        f"{len(route.text):,} characters, ~{route.tokens:,} tokens"
    )
    assert route.text == worked_input(read, "x")[0]  # the same blocks, to the character
    store.close()
    return out


def build(path: Path, nodes: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cli = [sys.executable, "-m", "memgraph_gui.cli", "--db", str(path)]
    subprocess.run([*cli, "demo", "--nodes", str(nodes), "--seed", "11"], check=True, env=env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, help="a store to copy (default: build the demo)")
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=7)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.memgraph"
        if options.db:
            shutil.copyfile(options.db, path)
        else:
            build(path, options.nodes)
        results = measure(path, options.rounds)
    print()
    print("| measure | ours | plain (worked example) | ratio | bar | ok |")
    print("|---|---:|---:|---:|---:|---|")
    for name, ours, plain in results:
        ok = "yes" if ours * 1000 <= BAR_MS else "NO"
        bar = f"≤ {BAR_MS:.0f} ms" if "first" not in name else "—"
        print(
            f"| {name} | {ours * 1000:.1f} ms | {plain * 1000:.1f} ms | {plain / ours:.1f}x "
            f"| {bar} | {ok if 'first' not in name else '—'} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

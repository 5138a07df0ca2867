"""The route model's input blocks for the whole candidate pool (run on demand, not in CI).

    python -m tests.benchmarks.bench_route_input [--db FILE] [--nodes 50000] [--rounds 7]

Builds the story demo (``memgraph demo --nodes N --seed 11``, which records the pool as the
visible set) unless ``--db`` names a store; works on a copy either way. Measured, each the median
of ``--rounds`` runs in this process:

- ``candidate_rows`` (the candidateRows block as fresh dicts) and ``build_route_input`` (both
  blocks, the always-inject ids and the message as one text, with its token estimate; its
  ``candidate_rows`` dicts are copied when first read, which ``candidate_rows`` measures): the
  first call after opening, warm (the same graph, another message), and right after each write
  of ``Writes`` (a field edit; an extraction batch, also with its event made visible; a link
  made, a link removed, a character or a rollup archived; a batch undone);
- the plain alternative in the same run: the seed's worked example, ``getSchema()`` then
  ``getNodeBrief(id, includeEdgeSummary=True, edgeSummaryLimit=8)`` for each of
  ``listVisibleCandidates()`` through the Read API (plus, for the whole input, the same text
  serialised with ``route_text`` and ``estimate_tokens``), timed in the same situations (after
  a write of the same kind).

Each timed call starts after ``gc.collect()``. Prints the machine's load and CPU steal over the
run, then a markdown table: measure, ours, plain, ratio (plain / ours), bar, ok.
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
    """The writes measured after: a field edit of a candidate; an extraction batch (a new event
    linked to the protagonist, the candidate with the most links, and three characters: the
    event is not in the recorded visible set, as after a real turn), also followed by the
    event joining the visible set (``setInjectionState``); a link made between the
    protagonist and a visible character (``upsertLinks``), removed again (``deleteLinks``);
    a visible character archived, an event rollup of the pool archived (``archiveNode``); an
    extraction batch undone."""

    def __init__(self, store: MemoryStore) -> None:
        self.write, self.read = store.write_api(origin="bench"), store.read_api()
        self.history = store.history_of("bench")
        rows = candidate_rows(self.read)
        chars = [r for r in rows if r["type"] == "character_sheet"]
        chars.sort(key=lambda r: -r["edgeSummary"]["degree"])
        self.hub = chars[0]["id"]
        self.candidates = [r["id"] for r in chars[1:]]
        self.rollups = [r["id"] for r in rows if r["type"] == "event" and r["childCount"]]
        self.count = 0
        self.linked: list[str] = []

    def _next(self, start: int) -> str:
        self.count += 1
        return self.candidates[(start + self.count) % len(self.candidates)]

    def edit(self) -> None:
        self.write.edit_node(
            id=self._next(0), set_fields={"goal": f"bench {self.count}"}, keep_seq=True
        )

    def batch(self) -> str:
        self.count += 1
        links = [
            {"targetNodeId": c, "relation": "involved_in"} for c in (self.hub, *self.candidates[:3])
        ]
        done = self.write.apply_extraction_batch(
            ops=[
                {
                    "op": "create",
                    "type": "event",
                    "ref": "e",
                    "fields": {"summary": f"bench {self.count}"},
                },
                {"op": "link_upsert", "sourceRef": "e", "links": links},
            ],
            max_seq=1_000_000 + self.count,
        )
        return str(done["applied"][0]["nodeId"])

    def batch_visible(self) -> None:
        """The batch, then its event added to the recorded visible set (as a recall that
        shows it would record)."""
        made = self.batch()
        seen = self.read.get_injection_state().to_json()["visibleIds"]
        self.write.set_injection_state({"visibleIds": [*seen, made]})

    def link(self) -> None:
        other = self._next(10)
        self.write.upsert_links(
            source={"id": self.hub}, links=[{"target": {"id": other}, "relation": "rival_of"}]
        )
        self.linked.append(other)

    def unlink(self) -> None:
        other = self.linked.pop()
        self.write.delete_links(source={"id": self.hub}, target={"id": other}, relation="rival_of")

    def archive(self) -> None:
        self.write.archive_node(id=self._next(200))

    def archive_rollup(self) -> None:
        self.count += 1
        self.write.archive_node(id=self.rollups[self.count % len(self.rollups)])

    def undo_batch(self) -> None:
        """An extraction batch, then its undo (the event purged, its links removed)."""
        self.batch()
        self.history.undo()


def cpu_times() -> tuple[float, float]:
    """(all, steal) jiffies of the machine so far (``/proc/stat``; zeros where absent)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return 0.0, 0.0
    values = [float(v) for v in fields]
    return sum(values), values[7] if len(values) > 7 else 0.0


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
    shapes: list[tuple[str, Callable[[], object] | None]] = [
        ("warm (another message)", None),
        ("after a field edit", writes.edit),
        ("after an extraction batch (new event + 4 links)", writes.batch),
        ("after that batch + its event made visible", writes.batch_visible),
        ("after upsertLinks (protagonist <-> a character)", writes.link),
        ("after deleteLinks (that link again)", writes.unlink),
        ("after archiveNode (a visible character)", writes.archive),
        ("after archiveNode (an event rollup in the pool)", writes.archive_rollup),
        ("after undoing an extraction batch", writes.undo_batch),
    ]
    for name, ours, plain, measured in (
        ("candidate_rows", ours_rows, plain_rows, shapes[:3]),  # the rest: as below, minus text
        ("build_route_input", ours_input, plain_input, shapes),
    ):
        for label, change in measured:
            mine, theirs = [], []
            for _ in range(rounds):
                if change is not None:
                    change()
                mine.append(once(ours))
                if change is not None:
                    change()
                theirs.append(once(plain))
            out.append((f"{name}, {label}", statistics.median(mine), statistics.median(theirs)))
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
        load, (total, steal) = os.getloadavg()[0], cpu_times()
        results = measure(path, options.rounds)
        spent, stolen = cpu_times()[0] - total, cpu_times()[1] - steal
    print(
        f"machine: {os.cpu_count()} cores, load average {load:.2f} at the start and "
        f"{os.getloadavg()[0]:.2f} at the end, steal {100 * stolen / max(spent, 1):.1f}% "
        f"of CPU time during the run"
    )
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

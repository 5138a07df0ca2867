"""``memgraph mcp`` at 50k nodes: a read tool's round trip and a notification's delay (on demand).

    .venv/bin/python -m tests.benchmarks.bench_mcp [--nodes 50000] [--db STORE] [--repeat 40]
        [--rounds 3] [--cli 1] [--commits 20]

Makes the store as a user would (``memgraph demo --nodes N --seed 11``, in a temporary folder)
unless ``--db`` names one, which is copied there first (the second part writes). Issue 25's bars:

1. **Round trip.** For reads with realistic arguments on the story demo (the protagonist, the
   node with most edges: getNodeById, getNode, getNeighbors raw, listEdges from it; Luker's
   searches; the injection state; listVisibleCandidates, a big answer; a Membrane read), the
   warm median and p95 of ``await session.call_tool(...)`` through the SDK's own stdio client on
   a ``memgraph mcp`` subprocess, against the call itself in this process
   (``jsonapi.call(store, name, tool.call_args(args))``, warm median), each side's best of
   ``--rounds`` rounds (a busy spell on the shared machine slows a round, not a side), and
   against what an agent has today: one ``memgraph call`` subprocess per call (median of
   ``--cli`` calls; 0 skips them). The overhead is round trip minus call; bar 5 ms. Each answer
   is checked to be the in-process call's (and memgraph call's).
2. **Notification delay.** The client subscribes to ``memgraph://node/<protagonist>`` and
   ``memgraph://injection``; another process (a small Python writer on ``MemoryStore.open``)
   commits ``--commits`` times, alternating ``edit_node`` on the protagonist and
   ``set_injection_state``, a random 0.25-0.45 s apart, printing ``time.time()`` right before each
   commit begins and after it returns. The delay of each ResourceUpdatedNotification's arrival,
   from the commit's return (and its start): median and worst; bar 150 ms. The alternatives in
   the same run: ``memgraph watch`` (a JSON line per change, the same watcher without MCP), and
   polling ``memgraph call getNode`` every 0.5 s, as an agent does today (the poll takes longer
   than that at 50k, so it polls back to back): the delay until a poll returns the change.

The load average (``os.getloadavg``) is printed before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from mcp import types

from memgraph_gui.core import MemoryStore, catalogue, jsonapi
from memgraph_gui.core.domain.strict_json import dumps
from memgraph_gui.core.nuggets.model import is_note, nugget_of
from memgraph_gui.core.storage.backup import backup_file
from tests.benchmarks.bench_hubs import biggest_hub
from tests.mcp_server.client import served, subscribe

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "memgraph_gui.cli"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
ROUND_TRIP_BAR = 0.005
NOTIFY_BAR = 0.150
INJECTION_URI = "memgraph://injection"
BUDGET = 2.0  # seconds of timed calls per read and side, at most

# The other process's commits: one command a line on stdin ("node I" / "injection I" / "quit"),
# one JSON line on stdout per commit: its resource and the times right before and after it.
WRITER = """
import json, sys, time
from memgraph_gui.core import MemoryStore
db, hub, other = sys.argv[1:4]
store = MemoryStore.open(db, create=False)
write = store.write_api()
flip = 0
print("ready", flush=True)
for line in sys.stdin:
    kind, i = line.split()
    if kind == "quit":
        break
    if kind == "node":
        start = time.time()
        write.edit_node(id=hub, set_fields={"traits": f"bench edit {i}"})
        end = time.time()
        uri = "memgraph://node/" + hub
    else:
        start = time.time()
        flip += 1  # each injection commit changes the state
        write.set_injection_state({"recallSelectedIds": [hub if flip % 2 else other]})
        end = time.time()
        uri = "memgraph://injection"
    print(json.dumps({"uri": uri, "start": start, "end": end}), flush=True)
store.close()
"""


# The SDK's own floor: a bare low-level server with one tool that answers, from memory, the very
# result our server sent for a read (the same structured content and JSON text): the round trip
# the SDK costs for that answer when the tool does no work at all.
FLOOR_SERVER = """
import json, sys
import anyio
from mcp import types
from mcp.server import Server
from mcp.server.stdio import stdio_server
answers = json.load(open(sys.argv[1], encoding="utf-8"))

async def list_tools(ctx, params):
    schema = {"type": "object", "properties": {"label": {"type": "string"}}}
    return types.ListToolsResult(tools=[types.Tool(name="echo", input_schema=schema,
        output_schema={"type": "object", "properties": {"result": {}}, "required": ["result"]})])

async def call_tool(ctx, params):
    answer = answers[params.arguments["label"]]
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=answer["text"])],
        structured_content=answer["data"],
    )

async def main():
    server = Server("floor", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
"""


def load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def reads(store: MemoryStore, hub: str) -> list[tuple[str, str, dict[str, Any]]]:
    """``(label, tool, arguments)``: the reads timed, with realistic arguments."""
    with store.reading() as graph:
        name = graph.nodes[hub].title
    rows: list[tuple[str, str, dict[str, Any]]] = [
        ("getNode(protagonist)", "getNode", {"id": hub}),
        ("getNodeById(protagonist)", "getNodeById", {"id": hub}),
        ("getNeighbors(protagonist, raw)", "getNeighbors", {"id": hub, "projectTo": "raw"}),
        ("listEdges({from: protagonist})", "listEdges", {"from": hub}),
        ("keywordSearch", "keywordSearch", {"query": "Aldric betrayal deal", "k": 10}),
        ("findByName(protagonist)", "findByName", {"query": name}),
        ("getInjectionState", "getInjectionState", {}),
        ("listVisibleCandidates", "listVisibleCandidates", {}),
        (
            "retrieveByID(protagonist) (Membrane)",
            "retrieveByID",
            {"id": hub, "trust": {"max_sensitivity": "hyper"}},
        ),
    ]
    with store.reading() as graph:
        nugget = next((nugget_of(n) for n in graph.nodes.values() if is_note(n)), "")
    if nugget:
        rows.append((f"listNotes({nugget}) (Nuggets)", "listNotes", {"nugget": nugget}))
    return rows


def timings(fn: Callable[[], Any], repeat: int) -> list[float]:
    """Seconds of each of up to ``repeat`` warm calls (fewer when they would pass BUDGET)."""
    start = time.perf_counter()
    fn()
    first = time.perf_counter() - start
    fn()
    times = []
    for _ in range(max(5, min(repeat, int(BUDGET / max(first, 1e-6))))):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


async def async_timings(fn: Callable[[], Any], repeat: int) -> list[float]:
    start = time.perf_counter()
    await fn()
    first = time.perf_counter() - start
    await fn()
    times = []
    for _ in range(max(5, min(repeat, int(BUDGET / max(first, 1e-6))))):
        start = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - start)
    return times


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def cli_call(db: Path, name: str, call_args: list[Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    done = subprocess.run(
        [*CLI, "call", "--db", str(db), name, json.dumps(call_args)],
        capture_output=True,
        text=True,
        env=ENV,
        check=True,
    )
    return time.perf_counter() - start, json.loads(done.stdout)["result"]


async def round_trips(db: Path, repeat: int, rounds: int, cli: int) -> str:
    """The round-trip table: per read, each side's best median over ``rounds`` rounds (the
    p95 is the best round's), and the memgraph call subprocess (median of ``cli`` runs)."""
    store = MemoryStore.open(db, create=False)
    store.warm_up()
    hub = biggest_hub(store)
    tools = catalogue.tools()
    plan = reads(store, hub)
    calls: dict[str, list[float]] = {label: [] for label, _, _ in plan}
    trips: dict[str, list[list[float]]] = {label: [] for label, _, _ in plan}
    sizes: dict[str, int] = {}
    async with served(db, name="bench-agent") as session:
        await session.list_tools()
        for _ in range(rounds):  # a busy spell on the shared machine slows a round, not a side
            for label, name, arguments in plan:
                call_args = tools[name].call_args(arguments)
                text = dumps(jsonapi.call(store, name, call_args))
                sizes[label] = len(text.encode())
                answer = await session.call_tool(name, arguments)
                assert not answer.is_error, (label, answer.structured_content)
                assert answer.structured_content == {"result": json.loads(text)}, label
                calls[label].append(
                    statistics.median(
                        timings(partial(jsonapi.call, store, name, call_args), repeat)
                    )
                )

                async def trip(n: str = name, a: dict[str, Any] = arguments) -> None:
                    await session.call_tool(n, a)

                trips[label].append(await async_timings(trip, repeat))
    floor = await sdk_floor(store, plan, repeat, rounds)
    lines = [
        "| read | answer (KB) | call (ms) | round trip median (ms) | p95 (ms) | overhead (ms) "
        "| within bar | SDK floor (ms) | ours above it (ms) | memgraph call (ms) | ratio |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    worst: tuple[float, str] = (0.0, "")
    for label, name, arguments in plan:
        call = min(calls[label])
        best = min(trips[label], key=statistics.median)
        median = statistics.median(best)
        overhead = median - call
        if sizes[label] < 100_000:
            worst = max(worst, (overhead, label))
        cells, ratio = cli_cells(db, store, name, arguments, cli, median)
        lines.append(
            f"| {label} | {sizes[label] / 1024:,.1f} | {call * 1000:.2f} "
            f"| {median * 1000:.2f} | {p95(best) * 1000:.2f} | {overhead * 1000:.2f} "
            f"| {'yes' if overhead <= ROUND_TRIP_BAR else 'no'} | {floor[label] * 1000:.2f} "
            f"| {(overhead - floor[label]) * 1000:.2f} | {cells} | {ratio} |"
        )
    store.close()
    lines += [
        "",
        f"worst overhead on an answer under 100 KB: {worst[0] * 1000:.2f} ms ({worst[1]}); "
        f"bar {ROUND_TRIP_BAR * 1000:.0f} ms",
    ]
    return "\n".join(lines)


def cli_cells(
    db: Path, store: MemoryStore, name: str, arguments: dict[str, Any], cli: int, trip: float
) -> tuple[str, str]:
    """One ``memgraph call`` process per call (median of ``cli``): its time and its ratio to
    the round trip ``trip`` (``-`` without runs); each answer checked against the call's."""
    if not cli:
        return "-", "-"
    call_args = catalogue.tools()[name].call_args(arguments)
    runs = [cli_call(db, name, call_args) for _ in range(cli)]
    expected = jsonapi.call(store, name, call_args)
    assert all(result == json.loads(dumps(expected)) for _, result in runs), name
    sub = statistics.median(t for t, _ in runs)
    return f"{sub * 1000:,.0f}", f"{sub / trip:,.0f}x"


async def sdk_floor(
    store: MemoryStore, plan: list[tuple[str, str, dict[str, Any]]], repeat: int, rounds: int
) -> dict[str, float]:
    """Per read, the best median round trip of the SDK alone (``FLOOR_SERVER``) for the same
    answer: what any server on this SDK pays for it."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    tools = catalogue.tools()
    answers = {}
    for label, name, arguments in plan:
        data = {"result": jsonapi.call(store, name, tools[name].call_args(arguments))}
        answers[label] = {"text": dumps(data), "data": json.loads(dumps(data))}
    with tempfile.TemporaryDirectory() as tmp:
        script, table = Path(tmp) / "floor.py", Path(tmp) / "answers.json"
        script.write_text(FLOOR_SERVER, encoding="utf-8")
        table.write_text(json.dumps(answers), encoding="utf-8")
        params = StdioServerParameters(
            command=sys.executable, args=[str(script), str(table)], env=ENV
        )
        best: dict[str, float] = {}
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await session.list_tools()
                for _ in range(rounds):
                    for label, _name, _arguments in plan:

                        async def trip(x: str = label) -> None:
                            await session.call_tool("echo", {"label": x})

                        median = statistics.median(await async_timings(trip, repeat))
                        best[label] = min(best.get(label, median), median)
    return best


@dataclass
class Writer:
    """The other process that commits."""

    process: asyncio.subprocess.Process
    commits: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    async def start(cls, db: Path, hub: str, other: str) -> Writer:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            WRITER,
            str(db),
            hub,
            other,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=ENV,
        )
        assert process.stdout is not None
        assert (await process.stdout.readline()).strip() == b"ready"
        return cls(process)

    async def commit(self, kind: str, i: int) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{kind} {i}\n".encode())
        await self.process.stdin.drain()
        line: dict[str, Any] = json.loads(await self.process.stdout.readline())
        self.commits.append(line)
        return line

    async def quit(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"quit 0\n")
        await self.process.stdin.drain()
        await self.process.wait()


async def until(seen: Callable[[], bool], timeout: float) -> bool:
    deadline = time.time() + timeout
    while not seen():
        if time.time() > deadline:
            return False
        await asyncio.sleep(0.005)
    return True


def delays(
    commits: list[dict[str, Any]], arrivals: list[tuple[str, float]]
) -> tuple[list[float], list[float], int]:
    """Per commit, the first arrival for its resource after it began: the delays from its end
    and from its start; and how many commits were never told."""
    from_end, from_start, missed = [], [], 0
    for k, commit in enumerate(commits):
        limit = commits[k + 1]["start"] if k + 1 < len(commits) else float("inf")
        told = [t for uri, t in arrivals if uri == commit["uri"] and commit["start"] <= t < limit]
        if not told:
            missed += 1
            continue
        from_end.append(told[0] - commit["end"])
        from_start.append(told[0] - commit["start"])
    return from_end, from_start, missed


def delay_row(label: str, commits: list[dict[str, Any]], arrivals: list[tuple[str, float]]) -> str:
    from_end, from_start, missed = delays(commits, arrivals)
    if not from_end:
        return f"| {label} | {len(commits)} | - | - | - | - | {missed} |"
    return (
        f"| {label} | {len(commits)} | {statistics.median(from_end) * 1000:.0f} "
        f"| {max(from_end) * 1000:.0f} | {statistics.median(from_start) * 1000:.0f} "
        f"| {max(from_start) * 1000:.0f} | {missed} |"
    )


async def commit_series(
    db: Path, hub: str, other: str, arrivals: list[tuple[str, float]], count: int
) -> list[dict[str, Any]]:
    """The other process's ``count`` commits (node, injection, node, ...), a random 0.25-0.45 s
    apart, after warm-up commits until the listener hears one; the commits as the writer saw
    them (``arrivals`` is cleared of the warm-up's)."""
    writer = await Writer.start(db, hub, other)
    for i in range(50):  # until the listener hears this process's commits
        await writer.commit("injection", i)
        if await until(lambda: bool(arrivals), 1.0):
            break
    await writer.commit("node", -1)  # the writer's first edit builds what edits need
    await asyncio.sleep(0.5)
    writer.commits.clear()
    arrivals.clear()
    for i in range(count):
        await writer.commit(("node", "injection")[i % 2], i)
        await asyncio.sleep(random.uniform(0.25, 0.45))
    await asyncio.sleep(1.0)
    await writer.quit()
    return writer.commits


async def via_mcp(db: Path, hub: str, other: str, count: int) -> list[str]:
    """``memgraph mcp``, subscribed to the protagonist's node and the injection state."""
    node_uri = f"memgraph://node/{hub}"
    arrivals: list[tuple[str, float]] = []

    def told(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            arrivals.append((str(message.params.uri), time.time()))

    async with served(db, name="bench-agent", on_message=told) as session:
        await subscribe(session, node_uri)
        await subscribe(session, INJECTION_URI)
        commits = await commit_series(db, hub, other, arrivals, count)
    rows = []
    for uri, kind in ((node_uri, "node"), (INJECTION_URI, "injection")):
        mine = [c for c in commits if c["uri"] == uri]
        rows.append(delay_row(f"memgraph mcp ({kind})", mine, arrivals))
    rows.append(delay_row("memgraph mcp (both)", commits, arrivals))
    return rows


async def via_watch(db: Path, hub: str, other: str, count: int) -> str:
    """``memgraph watch``: the same watcher, a JSON line per change."""
    watch = await asyncio.create_subprocess_exec(
        *CLI, "--db", str(db), "watch", stdout=asyncio.subprocess.PIPE, env=ENV
    )
    arrivals: list[tuple[str, float]] = []

    async def read_watch() -> None:
        assert watch.stdout is not None
        async for line in watch.stdout:
            change, now = json.loads(line), time.time()
            if change["injection"]:
                arrivals.append((INJECTION_URI, now))
            arrivals.extend((f"memgraph://node/{node}", now) for node in change["nodes"])

    reader = asyncio.create_task(read_watch())
    commits = await commit_series(db, hub, other, arrivals, count)
    watch.terminate()
    await watch.wait()
    reader.cancel()
    return delay_row("memgraph watch (both)", commits, arrivals)


async def via_polling(db: Path, hub: str, other: str, count: int) -> tuple[str, list[float]]:
    """Polling ``memgraph call getNode`` every 0.5 s (back to back when a poll takes longer);
    the row, and how long each poll took."""
    node_uri = f"memgraph://node/{hub}"
    arrivals: list[tuple[str, float]] = []
    polls: list[float] = []
    stop = asyncio.Event()

    async def poll() -> None:
        last = None
        while not stop.is_set():
            start = time.time()
            process = await asyncio.create_subprocess_exec(
                *CLI,
                "call",
                "--db",
                str(db),
                "getNode",
                json.dumps([hub]),
                stdout=asyncio.subprocess.PIPE,
                env=ENV,
            )
            out, _ = await process.communicate()
            now = time.time()
            polls.append(now - start)
            traits = json.loads(out)["result"]["fields"].get("traits")
            if last is not None and traits != last:
                arrivals.append((node_uri, now))
            last = traits
            await asyncio.sleep(max(0.0, 0.5 - (now - start)))

    writer = await Writer.start(db, hub, other)
    poller = asyncio.create_task(poll())
    await until(lambda: len(polls) >= 1, 60.0)
    for i in range(count):
        await writer.commit("node", 1000 + i)
        await asyncio.sleep(random.uniform(1.5, 2.5) * max(0.5, statistics.median(polls)))
    stop.set()
    await poller
    await writer.quit()
    return delay_row("polling memgraph call getNode", writer.commits, arrivals), polls


async def notifications(db: Path, commits: int) -> str:
    with MemoryStore.open(db, create=False) as store:
        hub = biggest_hub(store)
        other = next(n.id for n in store.read_api().list_visible_candidates() if n.id != hub)
    lines = [
        "| listener | commits | from return: median (ms) | worst | from start: median | worst "
        "| missed |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *await via_mcp(db, hub, other, commits),
        await via_watch(db, hub, other, commits),
    ]
    row, polls = await via_polling(db, hub, other, max(2, commits // 5))
    lines += [
        row,
        "",
        f"a poll (one memgraph call getNode) took {statistics.median(polls) * 1000:,.0f} ms "
        f"(median of {len(polls)}); bar {NOTIFY_BAR * 1000:.0f} ms from the commit's return",
    ]
    return "\n".join(lines)


async def bench(db: Path, repeat: int, rounds: int, cli: int, commits: int) -> None:
    print(f"load average before: {load()}")
    with MemoryStore.open(db, create=False) as store, store.reading() as graph:
        nodes, edges = len(graph.nodes), len(graph.edges)
    print(
        f"\nmemgraph mcp at {nodes:,} nodes, {edges:,} edges: a read tool's round trip through "
        f"the SDK's stdio client against the call in this process (warm medians of up to "
        f"{repeat} calls or {BUDGET:.0f} s, each side's best of {rounds} rounds) and one "
        "memgraph call subprocess per call:\n"
    )
    print(await round_trips(db, repeat, rounds, cli))
    print(f"\nload average: {load()}")
    print(
        f"\nresource-updated notifications after another process's commits ({commits} commits, "
        "0.25-0.45 s apart), against memgraph watch and polling:\n"
    )
    print(await notifications(db, commits))
    print(f"\nload average after: {load()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=50_000)
    parser.add_argument("--db", type=Path)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cli", type=int, default=1, help="memgraph call runs per read (0: none)")
    parser.add_argument("--commits", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "demo.memgraph"
        if options.db is not None:  # a consistent copy, WAL and all
            source = sqlite3.connect(options.db)
            try:
                backup_file(source, path)
            finally:
                source.close()
        else:
            subprocess.run(
                [*CLI, "--db", str(path), "demo", "--nodes", str(options.nodes), "--seed", "11"],
                cwd=ROOT,
                check=True,
                capture_output=True,
                env=ENV,
            )
        asyncio.run(bench(path, options.repeat, options.rounds, options.cli, options.commits))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

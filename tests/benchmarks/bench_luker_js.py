"""Every Luker call, ours against Luker's JavaScript under node, in one run (on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_luker_js [--db STORE] [--profile CALL ...]

Issue 24's bar: every Luker call at least 3x faster than Luker's JS on a 50k store whose
protagonist is on a third of all events, the protagonist's calls included. On a copy of
``--db`` (default ``/tmp/story50k.memgraph``; when it is missing, ``memgraph demo --nodes 50000
--seed 11`` is built) every call of the Read, session and external APIs that does real work is
timed warm (the median of 15 samples, each enough calls to last 5 ms) two ways in the same run,
alternating (JS, ours, JS, ours: ``--rounds 2``) and keeping each side's best round, so that a
busy spell on the shared machine slows one round rather than one side:

- ours: ``ReadApi`` / ``external`` on the store;
- Luker's: ``luker_calls.mjs`` (and ``luker_hub.mjs``, the lead's, for getNodeById, getNeighbors
  and expandFromSeeds: there each call is timed alone, median of 20) under node on the Luker
  export of the same store, each call a scan of the export document answering fresh frozen
  views, as Luker's JavaScript does.

The node argument is the protagonist (the node with most edges) where a call takes one, plus a
deep event leaf and its top rollup where the protagonist (a parentless character sheet) would
make the call trivial. Visible sets: the candidate pool (listVisibleCandidates) and 40% of all ids
spread over the timeline (with the protagonist added, so its summary is not the empty one).
Answers are checked: sizes always, and a signature (the first ids, relations, scores) where
cheap; the "agree" column says which held. ``--profile CALL`` prints where our time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memgraph_gui.core import MemoryStore, external
from memgraph_gui.core.luker.interop import export_luker
from tests.benchmarks.bench_hubs import biggest_hub

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEFAULT_DB = Path("/tmp/story50k.memgraph")
QUERIES = {"keyword": "Aldric betrayal deal", "cjk": "奥德里克沐恩", "miss": "zzqx-not-there"}


class Call:
    """One row: the JS call (name and JSON arguments, ``"$set"`` for an id set) and ours; a
    ``hub`` call is ``luker_hub.mjs``'s (``js`` is its key there)."""

    def __init__(
        self, name: str, js: str, args: list[Any], ours: Callable[[], Any], hub: bool = False
    ) -> None:
        self.name, self.js, self.args, self.ours, self.hub = name, js, args, ours, hub


def load() -> str:
    return " / ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(fn: Callable[[], Any], min_sample: float) -> float:
    """Median seconds of one warm call: samples of enough calls to last ``min_sample`` each
    (15 samples; 5 when one call takes over 0.1 s), as ``luker_calls.mjs`` times its calls."""
    start = time.perf_counter()
    fn()
    first = time.perf_counter() - start
    slow = first > 0.1
    for _ in range(1 if slow else 3):
        fn()
    loops = max(1, -(-min_sample // max(first, 1e-7)))
    samples = []
    for _ in range(5 if slow else 15):
        start = time.perf_counter()
        for _ in range(int(loops)):
            fn()
        samples.append((time.perf_counter() - start) / loops)
    return statistics.median(samples)


def deep_leaf(store: MemoryStore) -> tuple[str, str]:
    """The live leaf with the longest parent chain, and the top of that chain."""
    best: tuple[int, str, str] = (-1, "", "")
    with store.reading() as graph:
        for node in graph.nodes.values():
            if node.children_ids or node.archived:
                continue
            depth, top, seen = 0, node, {node.id}
            while top.parent_id and top.parent_id in graph.nodes and top.parent_id not in seen:
                seen.add(top.parent_id)
                top = graph.nodes[top.parent_id]
                depth += 1
            best = max(best, (depth, node.id, top.id))
    return best[1], best[2]


def plan(store: MemoryStore, hub: str, sets: dict[str, list[str]]) -> list[Call]:
    """Every call of the Read / session / external APIs that does real work, on the protagonist
    (and on a deep leaf or its top rollup where the protagonist would make it trivial)."""
    read = store.read_api()
    leaf, top = deep_leaf(store)
    cands, spread = sets["candidates"], sets["spread"]
    first = cands[0]
    q = QUERIES
    return [
        Call("listNodes", "listNodes", [{}], read.list_nodes),
        Call(
            "listNodes({types: character_sheet})",
            "listNodes",
            [{"types": ["character_sheet"]}],
            lambda: read.list_nodes(types=["character_sheet"]),
        ),
        Call("getNode(protagonist)", "getNode", [hub], lambda: read.get_node(hub)),
        Call("listEdges", "listEdges", [{}], read.list_edges),
        Call(
            "listEdges({from: protagonist})",
            "listEdges",
            [{"from": hub}],
            lambda: read.list_edges(from_id=hub),
        ),
        Call(
            "listEdges({to: protagonist})",
            "listEdges",
            [{"to": hub}],
            lambda: read.list_edges(to_id=hub),
        ),
        Call(
            "listEdges({types: [mentions], excludeInternal})",
            "listEdges",
            [{"types": ["mentions"], "excludeInternal": True}],
            lambda: read.list_edges(types=["mentions"], exclude_internal=True),
        ),
        Call("getSchema", "getSchema", [], read.get_schema),
        Call("getAncestor(protagonist)", "getAncestor", [hub], lambda: read.get_ancestor(hub)),
        Call("getAncestor(deep leaf)", "getAncestor", [leaf], lambda: read.get_ancestor(leaf)),
        Call(
            "getDescendants(protagonist)",
            "getDescendants",
            [hub],
            lambda: read.get_descendants(hub),
        ),
        Call(
            "getDescendants(top rollup)",
            "getDescendants",
            [top],
            lambda: read.get_descendants(top),
        ),
        Call(
            "getNearestVisibleAncestor(protagonist, candidates)",
            "getNearestVisibleAncestor",
            [hub, {"visibleNodeIds": "$candidates"}],
            lambda: read.get_nearest_visible_ancestor(hub, visible_node_ids=cands),
        ),
        Call(
            "getNearestVisibleAncestor(deep leaf, candidates)",
            "getNearestVisibleAncestor",
            [leaf, {"visibleNodeIds": "$candidates"}],
            lambda: read.get_nearest_visible_ancestor(leaf, visible_node_ids=cands),
        ),
        Call(
            "getNearestVisibleAncestor(deep leaf, spread)",
            "getNearestVisibleAncestor",
            [leaf, {"visibleNodeIds": "$spread"}],
            lambda: read.get_nearest_visible_ancestor(leaf, visible_node_ids=spread),
        ),
        Call(
            "projectEdges(candidates)",
            "projectEdges",
            [{"visibleNodeIds": "$candidates"}],
            lambda: read.project_edges(visible_node_ids=cands),
        ),
        Call(
            "projectEdges(spread)",
            "projectEdges",
            [{"visibleNodeIds": "$spread"}],
            lambda: read.project_edges(visible_node_ids=spread),
        ),
        Call("listVisibleCandidates", "listVisibleCandidates", [{}], read.list_visible_candidates),
        Call(
            "getNodeExposure(protagonist)",
            "getNodeExposure",
            [hub],
            lambda: read.get_node_exposure(hub),
        ),
        Call(
            "getEdgeSummary(protagonist, candidates)",
            "getEdgeSummary",
            [hub, {"visibleNodeIds": "$candidates"}],
            lambda: read.get_edge_summary(hub, visible_node_ids=cands),
        ),
        Call(
            "getEdgeSummary(protagonist, spread)",
            "getEdgeSummary",
            [hub, {"visibleNodeIds": "$spread"}],
            lambda: read.get_edge_summary(hub, visible_node_ids=spread),
        ),
        Call(
            "getEdgeSummary(newest candidate, candidates)",
            "getEdgeSummary",
            [first, {"visibleNodeIds": "$candidates"}],
            lambda: read.get_edge_summary(first, visible_node_ids=cands),
        ),
        Call(
            "getNodeBrief(protagonist, candidates)",
            "getNodeBrief",
            [hub, {"visibleNodeIds": "$candidates"}],
            lambda: read.get_node_brief(hub, visible_node_ids=cands),
        ),
        Call(
            "getNodeBrief(protagonist, spread)",
            "getNodeBrief",
            [hub, {"visibleNodeIds": "$spread"}],
            lambda: read.get_node_brief(hub, visible_node_ids=spread),
        ),
        *(
            Call(
                f"keywordSearch({label})",
                "keywordSearch",
                [{"query": text}],
                lambda text=text: read.keyword_search(query=text),
            )
            for label, text in q.items()
        ),
        *(
            Call(
                f"findByName({label})",
                "findByName",
                [{"query": text}],
                lambda text=text: read.find_by_name(query=text),
            )
            for label, text in [("Aldric", "Aldric"), ("cjk", "奥德里克"), ("miss", q["miss"])]
        ),
        Call(
            "compactionCandidates(event)",
            "compactionCandidates",
            [{"type": "event"}],
            lambda: read.compaction_candidates(type="event"),
        ),
        Call(
            "searchNodesLexical (external), no match",
            "searchNodesLexical",
            [q["miss"]],
            lambda: external.search_nodes_lexical(store, q["miss"]),
        ),
        Call(
            "searchNodesLexical (external), 'Aldric'",
            "searchNodesLexical",
            ["Aldric"],
            lambda: external.search_nodes_lexical(store, "Aldric"),
        ),
        Call(
            "listRecentNodes (external)",
            "listRecentNodes",
            [{}],
            lambda: external.list_recent_nodes(store),
        ),
    ]


def _ids(items: Any) -> list[str]:
    return [n.id for n in list(items)[:20]]


def _summary_signature(summary: Any) -> list[Any]:
    if summary is None:
        return [0, []]
    rels = [f"{r.relation}/{r.direction}:{r.count}" for r in summary.relations]
    samples = [f"{s.id}@{s.to_seq}" for s in summary.sample_neighbors]
    return [summary.degree, rels + samples]


def signature(js: str, answer: Any) -> list[Any]:
    """``[size, head]`` of our answer, built as ``luker_calls.mjs`` builds Luker's."""
    if js in ("getNode", "getAncestor", "getNearestVisibleAncestor"):
        return [1, [answer.id]] if answer is not None else [0, []]
    if js == "getNodeExposure":
        return [1 if answer else 0, [answer]]
    if js == "getSchema":
        return [len(answer.types), [t.id for t in answer.types]]
    if js == "listEdges":
        return [len(answer), [f"{e.from_id}>{e.type}>{e.to_id}" for e in answer[:20]]]
    if js == "projectEdges":
        head = [f"{e.from_id}>{e.type}>{e.to_id}:{e.weight}" for e in answer[:20]]
        return [len(answer), head]
    if js == "getEdgeSummary":
        return _summary_signature(answer)
    if js == "getNodeBrief":
        if answer is None:
            return [0, []]
        degree, rest = _summary_signature(answer.edge_summary)
        flags = [answer.id, answer.exposure, str(answer.child_count)]
        return [degree, [*flags, "true" if answer.always_inject else "false", *rest]]
    if js == "keywordSearch":
        return [len(answer), [f"{h.node.id}:{h.score:.4f}" for h in answer[:20]]]
    if js == "findByName":
        return [len(answer.matches), _ids(answer.matches)]
    if js == "compactionCandidates":
        return [len(answer.groups), [",".join(g.child_ids) for g in answer.groups[:5]]]
    if js in ("searchNodesLexical", "listRecentNodes"):
        return [len(answer["nodes"]), [n["id"] for n in answer["nodes"][:20]]]
    return [len(answer), _ids(answer)]


def run_node(script: str, argv: list[str]) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is not installed: Luker's JS cannot be timed")
    command = [node, "--max-old-space-size=6144", str(HERE / script), *argv]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def hub_calls(store: MemoryStore, hub: str, sets: dict[str, list[str]]) -> list[Call]:
    """The protagonist's calls ``luker_hub.mjs`` times (``js`` is its key; its listEdges to the
    hub is in ``plan`` already): getNodeById, getNeighbors raw and projected, expandFromSeeds."""
    read = store.read_api()
    cands, spread = sets["candidates"], sets["spread"]
    return [
        Call(
            "getNodeById (external)(protagonist)",
            "getNodeById",
            [],
            lambda: external.get_node_by_id(store, hub),
            hub=True,
        ),
        Call(
            "getNeighbors(protagonist)",
            "getNeighbors",
            [],
            lambda: read.get_neighbors(hub),
            hub=True,
        ),
        Call(
            "getNeighbors(protagonist, projectTo candidates)",
            "getNeighbors:candidates",
            [],
            lambda: read.get_neighbors(hub, project_to=cands),
            hub=True,
        ),
        Call(
            "getNeighbors(protagonist, projectTo spread)",
            "getNeighbors:spread",
            [],
            lambda: read.get_neighbors(hub, project_to=spread),
            hub=True,
        ),
        Call(
            "expandFromSeeds([protagonist], candidates, 1 hop)",
            "expandFromSeeds:candidates:1",
            [],
            lambda: read.expand_from_seeds([hub], project_to=cands),
            hub=True,
        ),
        Call(
            "expandFromSeeds([protagonist], candidates, 2 hops)",
            "expandFromSeeds:candidates:2",
            [],
            lambda: read.expand_from_seeds([hub], project_to=cands, hops=2),
            hub=True,
        ),
    ]


def prepare(
    store: MemoryStore, calls: list[Call], sets: dict[str, list[str]], folder: Path
) -> None:
    """The export document, the schema, the id sets and the call plan, as the JS files read them."""
    with store.reading() as graph:
        always = sorted(graph.injection.always_inject_ids)
    schema = store.read_api().get_schema().schema.to_json()
    (folder / "export.json").write_text(json.dumps(export_luker(store.storage), ensure_ascii=False))
    (folder / "schema.json").write_text(json.dumps(schema, ensure_ascii=False))
    (folder / "visible.json").write_text(json.dumps(sets))
    spec = {
        "sets": sets,
        "alwaysInjectIds": always,
        "calls": [{"name": c.name, "call": c.js, "args": c.args} for c in calls if not c.hub],
    }
    (folder / "calls.json").write_text(json.dumps(spec, ensure_ascii=False))


def js_round(folder: Path, hub: str, with_hub: bool, min_sample_ms: float) -> dict[str, Any]:
    """One run of Luker's JS: ``luker_calls.mjs`` by call name, ``luker_hub.mjs`` by its keys."""
    files = [str(folder / n) for n in ("export.json", "schema.json", "calls.json")]
    out = run_node("luker_calls.mjs", [*files, str(min_sample_ms)])
    if with_hub:
        visible = str(folder / "visible.json")
        hubs = run_node("luker_hub.mjs", [str(folder / "export.json"), hub, visible, "20"])
        out.update({f"hub:{key}": value for key, value in hubs.items()})
    return out


def agreement(call: Call, theirs: dict[str, Any]) -> tuple[int, str]:
    """Our answer's size, and whether Luker's agrees: its size always, its signature (first
    ids, relations, scores) where ``luker_calls.mjs`` gives one."""
    answer = call.ours()
    if call.hub:  # a luker_hub.mjs call: sizes only
        js = theirs[f"hub:{call.js}"]
        size = len(answer["neighbors"]) if call.js == "getNodeById" else len(answer)
        return size, "size" if size == js["size"] else f"NO: {size} vs {js['size']}"
    size, head = signature(call.js, answer)
    js = theirs[call.name]
    if size != js["size"]:
        return size, f"NO: {size} vs {js['size']}"
    if head != js["head"]:
        print(f"  {call.name}: ours {head[:6]}\n  JS   {js['head'][:6]}", file=sys.stderr)
        return size, "size (ids differ)"
    return size, "size, ids"


def measure(
    calls: list[Call], folder: Path, hub: str, with_hub: bool, args: Any
) -> list[dict[str, Any]]:
    """``args.rounds`` rounds of Luker's JS then ours; each side's best round median per call
    (the machine is shared: a busy spell then slows one round of one side, not the ratio)."""
    js: dict[str, list[float]] = {c.name: [] for c in calls}
    ours: dict[str, list[float]] = {c.name: [] for c in calls}
    theirs: dict[str, Any] = {}
    for round_ in range(args.rounds):
        print(f"… round {round_ + 1}: Luker's JS (load {load()})", file=sys.stderr, flush=True)
        theirs = js_round(folder, hub, with_hub, args.min_sample_ms)
        for call in calls:
            got = theirs[f"hub:{call.js}" if call.hub else call.name]
            js[call.name].append(got["seconds"])
        print(f"… round {round_ + 1}: ours (load {load()})", file=sys.stderr, flush=True)
        for call in calls:
            ours[call.name].append(timed(call.ours, args.min_sample_ms / 1000))
    rows = []
    for call in calls:
        size, agree = agreement(call, theirs)
        rows.append(
            {
                "call": call.name,
                "ours": min(ours[call.name]),
                "js": min(js[call.name]),
                "size": size,
                "agree": agree,
            }
        )
    return rows


def _ms(seconds: float) -> str:
    ms = seconds * 1000
    if ms >= 100:
        return f"{ms:,.0f} ms"
    if ms >= 1:
        return f"{ms:.2f} ms"
    return f"{ms * 1000:,.1f} µs"


def report(rows: list[dict[str, Any]], header: str) -> str:
    lines = [
        header,
        "",
        "| call | rows | ours | Luker JS | JS/ours | ≥3× | agree |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        ratio = r["js"] / r["ours"]
        lines.append(
            f"| `{r['call']}` | {r['size']:,} | {_ms(r['ours'])} | {_ms(r['js'])} "
            f"| {ratio:,.1f}× | {'yes' if ratio >= 3 else 'NO'} | {r['agree']} |"
        )
    return "\n".join(lines)


def profile(calls: list[Call], names: list[str], min_sample: float) -> None:
    """Where our time goes in each named call (cProfile over ~1 s of calls, top 18 by own time)."""
    for call in calls:
        if not any(n.lower() in call.name.lower() for n in names):
            continue
        start = time.perf_counter()
        call.ours()
        one = max(time.perf_counter() - start, 1e-6)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(max(3, int(1.0 / one))):
            call.ours()
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(18)
        print(f"\n### profile: {call.name} ({_ms(timed(call.ours, min_sample))} a call)")
        print(out.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, help="a store to copy")
    parser.add_argument("--min-sample-ms", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2, help="JS then ours, this many times")
    parser.add_argument("--no-hub", action="store_true", help="skip the luker_hub.mjs rows")
    parser.add_argument("--only", nargs="*", default=[], help="time only these calls (substring)")
    parser.add_argument("--profile", nargs="*", default=[], help="calls to profile (substring)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "store.memgraph"
        if args.db.exists():
            shutil.copyfile(args.db, path)
        else:
            print("… building a 50,000-node demo (seed 11)", file=sys.stderr, flush=True)
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            cli = [sys.executable, "-m", "memgraph_gui.cli", "--db", str(path)]
            demo = [*cli, "demo", "--nodes", "50000", "--seed", "11"]
            subprocess.run(demo, check=True, env=env, capture_output=True)
        with MemoryStore.open(path, create=False) as store:
            store.warm_up()
            hub = biggest_hub(store)  # the protagonist
            with store.reading() as graph:
                timeline = graph.timeline_ids()
                shape = f"{len(graph.nodes):,} nodes, {len(graph.edges):,} edges"
                degree = len(graph.edges_of(hub))
            spread = [i for k, i in enumerate(timeline) if k % 5 < 2]
            sets = {
                "candidates": [n.id for n in store.read_api().list_visible_candidates()],
                "spread": spread if hub in spread else [*spread, hub],
            }
            calls = [
                c
                for c in [
                    *plan(store, hub, sets),
                    *([] if args.no_hub else hub_calls(store, hub, sets)),
                ]
                if not args.only or any(n.lower() in c.name.lower() for n in args.only)
            ]
            started = load()
            prepare(store, calls, sets, folder)
            rows = measure(calls, folder, hub, not args.no_hub, args)
            header = (
                f"Luker's calls, ours vs Luker's JS under node {_node_version()}, same run: "
                f"{shape}; protagonist {hub} ({degree:,} edges); candidates "
                f"{len(sets['candidates']):,} ids, spread {len(sets['spread']):,} ids; "
                f"best of {args.rounds} rounds each side; load {started} at the start, "
                f"{load()} at the end"
            )
            print(report(rows, header))
            if args.profile:
                profile(calls, args.profile, args.min_sample_ms / 1000)
    return 0


def _node_version() -> str:
    node = shutil.which("node")
    if node is None:
        return "?"
    return subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()


if __name__ == "__main__":
    raise SystemExit(main())

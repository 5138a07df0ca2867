"""Nuggets' reads at 50k notes (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_nuggets_reads [--notes 50000] [--repeat 7]
                                                             [--plain-sample 20]

Builds a realistic store in a temporary folder (two nuggets, 60% / 40%; facts and notes; titles
with and without scope prefixes, English and Chinese content, tags, links, metadata inferred with
some given; 5% hidden), written as the write path writes notes (``model.stage_note`` with
``metadata.infer_metadata`` and ``vector_spec``, one transaction), closes it and opens it again
(so fields are unparsed, as after a launch). Then times, warm medians (wall, and CPU: on a
shared machine the CPU time says what a quiet one would take):

- ``searchNotes`` (limit 5, no filter) over a few queries (bar 20 ms);
- ``listNotes`` with a scope filter (bar 20 ms): the selection (``reads.list_notes``), then
  ``NuggetsApi.list_notes``' answer (a ``NoteList``) and that answer with every note read;
- ``searchNotes`` right after one write (the write committed, then the search, which takes the
  one changed note into the index);
- and once: the first search after opening (builds the note index: every note parsed once).

Alternatives, measured in the same run: ``listNotes`` as a plain Python pass over the nodes
(filter on the parsed fields, sort by ``updatedAt``: the first version of ``reads.list_notes``),
for the API rows with every note then made a dict (``model.notes_json``);
``searchNotes`` as a direct port of Nuggets' code, building each candidate's 16,384-dimensional
vector with numpy (role keys, key, bind, sum, norm) and its text score in Python. The port is
timed on ``--plain-sample`` notes and scaled to the candidate count (said so in the table), and
its results on that sample are checked against ours.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.nuggets import model, vectors
from memgraph_gui.core.nuggets.metadata import SCOPES, infer_metadata
from memgraph_gui.core.nuggets.reads import list_notes, matches
from memgraph_gui.core.nuggets.search import search_notes
from memgraph_gui.core.nuggets.text import js_trim, normalise_tags, title_tags, tokenize, unique
from memgraph_gui.core.nuggets.vector_spec import vector_spec

BAR = 0.020
QUERIES = ["deploy the server", "green tea", "用户 喜欢", "project:deploy-cmd-17", "the", "zzzz"]
EN = (
    "deploy server user prefers tea coffee project repo memory path file cmd style tone "
    "assistant identity build test api docker kubectl pnpm green morning evening meeting "
    "release branch review friend business likes avoid products notes graph vector cache "
    "latency schema migration backup"
).split()
ZH = "我们 喜欢 喝茶 项目 部署 服务器 用户 记忆 中文 标签 会议 早上".split()
PREFIXES = ["", "", "", "user:", "self:", "project:", "session:", "pref:", "_", "file:"]


def build(path: Path, count: int, seed: int = 21) -> None:
    rng = random.Random(seed)
    ids: list[str] = []
    store = MemoryStore.open(path)
    with store.storage.transaction(OpKind.BATCH, "bench notes") as tx:
        for i in range(count):
            nugget = "alpha" if rng.random() < 0.6 else "beta"
            kind = "fact" if rng.random() < 0.55 else "note"
            words = ZH if rng.random() < 0.15 else EN
            title = rng.choice(PREFIXES) + "-".join(rng.choices(words, k=rng.randint(1, 3)))
            title += f"-{i % 97}"
            content = " ".join(rng.choices(words, k=rng.randint(3, 40)))
            given = [
                " ".join(rng.choices(EN, k=rng.randint(1, 2))) for _ in range(rng.randint(0, 3))
            ]
            tags = normalise_tags([nugget, *title_tags(title), *given])
            meta = infer_metadata(
                kind=kind,
                title=title,
                content=content,
                tags=tags,
                source_key=title if kind == "fact" else None,
            )
            if rng.random() < 0.1:
                meta["scope"] = rng.choice(SCOPES)
            if rng.random() < 0.1:
                meta["confidence"] = round(rng.random(), 2)
            month, day, hour = 1 + i * 11 // count, 1 + rng.randrange(28), rng.randrange(24)
            stamp = f"2026-{month:02d}-{day:02d}T{hour:02d}:00:00.000Z"
            note: dict[str, Any] = {
                "id": f"{kind}-{nugget}-{rng.getrandbits(32):08x}",
                "nuggetName": nugget,
                "title": title,
                "content": content,
                "tags": normalise_tags([*tags, f"scope:{meta['scope']}", f"type:{meta['type']}"]),
                "links": [],
                "vector": {"seed": 0, "basis": []},
                "hidden": rng.random() < 0.05,
                "kind": kind,
                **({"sourceKey": title} if kind == "fact" else {}),
                "hits": rng.randrange(4),
                "lastHitSession": "",
                "createdAt": stamp,
                "updatedAt": stamp,
                "lastAccessedAt": stamp,
                **meta,
            }
            for _ in range(rng.choice((0, 0, 1, 2, 3))):
                if ids:
                    note["links"].append(
                        {"to": rng.choice(ids), "reason": "related", "createdAt": stamp}
                    )
            note["vector"] = vector_spec(note)
            model.stage_note(tx, note)
            ids.append(note["id"])
    store.close()


# -- the plain alternative: a direct port of Nuggets' code ----------------------------------------
def _port_vector(basis: list[str]) -> np.ndarray:
    """``vectorFromBasis`` then ``stackAndUnitNorm``: one 16,384-dim vector per call."""
    terms = basis or ["empty"]
    d = np.arange(vectors.D, dtype=np.float64)
    re, im = np.zeros(vectors.D), np.zeros(vectors.D)
    for k, term in enumerate(terms):
        role = (k * vectors.TWO_PI) * d / vectors.D
        key = vectors.TWO_PI * vectors.mulberry32(vectors.term_seed(term))
        phase = np.arctan2(np.sin(role), np.cos(role)) + np.arctan2(np.sin(key), np.cos(key))
        phase = np.where(
            (phase > math.pi) | (phase <= -math.pi),
            np.fmod(np.fmod(phase + math.pi, vectors.TWO_PI) + vectors.TWO_PI, vectors.TWO_PI)
            - math.pi,
            phase,
        )
        re += np.cos(phase)
        im += np.sin(phase)
    row = np.concatenate((re, im)) * (1 / math.sqrt(len(terms)))
    return row * (1 / (math.sqrt(float(row @ row)) + 1e-12))


def _port_text(note: Mapping[str, Any], query: str) -> float:
    haystack = "\n".join(
        [
            note["title"],
            note["content"],
            " ".join(note["tags"]),
            note["subject"],
            note["scope"],
            note["type"],
        ]
    ).lower()
    q = js_trim(query.lower())
    if not q:
        return 0.0
    score = 0.75 if q in haystack else 0.0
    tokens, have = unique(tokenize(q)), set(tokenize(haystack))
    if tokens:
        score += sum(t in have for t in tokens) / len(tokens)
    return score


def port_search(
    graph: Graph, nugget: str, query: str, limit: int, notes: list[Any]
) -> list[dict[str, Any]]:
    """Nuggets' ``searchNotes`` step for step over ``notes`` (nodes), no caches."""
    query_row = _port_vector(vectors.query_basis(query, None))
    scored = []
    for node in notes:
        note = model.note_json(node)
        vector_score = (float(query_row @ _port_vector(note["vector"]["basis"])) + 1) / 2
        text = _port_text(note, query)
        boost = (0.05 if note["stability"] == "durable" else 0) + (
            0.03 if note["scope"] in ("user", "self") else 0
        )
        boost += note["confidence"] * 0.05
        raw = vector_score * 0.42 + min(text, 1.5) / 1.5 * 0.48 + boost
        scored.append((raw, vector_score, text, note))
    scored.sort(key=lambda s: -s[0])
    z = [s[0] / 0.35 for s in scored]
    top = max(z)
    total = sum(math.exp(v - top) for v in z) + 1e-12
    return [
        {"note": s[3], "score": math.exp(v - top) / total, "vectorScore": s[1], "textScore": s[2]}
        for s, v in zip(scored[:limit], z[:limit], strict=False)
    ]


def plain_list(graph: Graph, nugget: str, options: Mapping[str, Any]) -> list[Any]:
    """``listNotes`` as a plain pass: every node, filter on its fields, sort."""
    found = [
        n
        for n in sorted(graph.nodes.values(), key=lambda n: n.ord)
        if model.is_note(n) and model.nugget_of(n) == nugget and matches(n, options)
    ]
    return sorted(found, key=lambda n: str(n.fields.get("updatedAt", "")))


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    return timed_ms(fn, repeat)[0]


def timed_ms(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Median wall and CPU ms of ``fn`` after one warm call (on a shared machine the CPU time
    says what a quiet one would take)."""
    fn()
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - start)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


Row = tuple[str, float, float, float, str]  # measure, wall ms, CPU ms, alternative ms, what


def _reads(graph: Graph, repeat: int, sample: int) -> tuple[list[Row], float]:
    """The warm searches and listNotes, each with its alternative; the worst warm search."""
    candidates = list_notes(graph, "alpha")
    subset = candidates[:sample]
    rows: list[Row] = []
    for query in QUERIES:
        ours, cpu = timed_ms(lambda q=query: search_notes(graph, "alpha", q, 5), repeat)
        port = median_ms(lambda q=query: port_search(graph, "alpha", q, 5, subset), 1)
        port *= len(candidates) / len(subset)
        name = f"searchNotes {query!r} (limit 5, no filter)"
        rows.append((name, ours, cpu, port, "port, scaled"))
    scope = {"scope": "project"}
    listed, cpu = timed_ms(lambda: list_notes(graph, "alpha", scope), repeat)
    found = list_notes(graph, "alpha", scope)
    assert found == plain_list(graph, "alpha", scope)
    plain = median_ms(lambda: plain_list(graph, "alpha", scope), max(3, repeat // 2))
    name = f"listNotes scope=project ({len(found):,} notes)"
    rows.append((name, listed, cpu, plain, "plain pass"))
    return rows, max(row[1] for row in rows[: len(QUERIES)])  # the worst wall median


def _api_list(store: MemoryStore, repeat: int) -> list[Row]:
    """``NuggetsApi.list_notes`` scope=project: the answer (a ``NoteList``, nothing parsed),
    then the answer with every note read; against the plain pass with every note a dict."""
    api, scope = store.nuggets("alpha"), {"scope": "project"}
    answer = api.list_notes(scope)
    with store.reading() as graph:
        plain = plain_list(graph, "alpha", scope)
    assert answer == model.notes_json(plain)

    def plain_dicts() -> list[dict[str, Any]]:
        with store.reading() as graph:
            return model.notes_json(plain_list(graph, "alpha", scope))

    alternative = median_ms(plain_dicts, max(3, repeat // 2))
    listed, cpu = timed_ms(lambda: api.list_notes(scope), repeat)
    name = f"NuggetsApi.list_notes scope=project: the answer ({len(answer):,} notes)"
    read, read_cpu = timed_ms(lambda: list(api.list_notes(scope)), repeat)
    return [
        (name, listed, cpu, alternative, "plain pass, every note a dict"),
        ("  … and every note of it read (list(answer))", read, read_cpu, alternative, "same"),
    ]


def _after_write(store: MemoryStore, repeat: int) -> tuple[float, float]:
    """Median wall and CPU ms of a search right after one note is written (the write itself
    not timed)."""
    times, cpus = [], []
    rng = random.Random(5)
    for i in range(repeat):
        with store.reading() as graph:
            note = model.note_json(rng.choice(list_notes(graph, "alpha")))
        note["content"] = f"deploy the server, edit{i}"
        note["updatedAt"] = f"2027-01-01T00:00:0{i % 10}.000Z"
        note["vector"] = vector_spec(note)
        with store.storage.transaction(OpKind.BATCH, "edit") as tx:
            model.stage_note(tx, note)
        with store.reading() as graph:
            start, cpu = time.perf_counter(), time.process_time()
            found = search_notes(graph, "alpha", f"deploy the server, edit{i}", 5)
            cpus.append(time.process_time() - cpu)
            times.append(time.perf_counter() - start)
            assert found[0]["note"]["id"] == note["id"]
    return statistics.median(times) * 1000, statistics.median(cpus) * 1000


def bench(path: Path, repeat: int, sample: int) -> str:
    store = MemoryStore.open(path)
    with store.reading() as graph:
        start = time.perf_counter()
        search_notes(graph, "alpha", "warm up")
        first = time.perf_counter() - start
        candidates = len(list_notes(graph, "alpha"))
        total = sum(1 for n in graph.nodes.values() if model.is_note(n))
        rows, worst = _reads(graph, repeat, sample)
        _check_port(list_notes(graph, "alpha")[:sample])
    rows += _api_list(store, repeat)
    wall, cpu = _after_write(store, repeat)
    rows.append(("searchNotes right after one write", wall, cpu, rows[0][3], "port, scaled"))
    store.close()
    lines = [
        f"{total:,} notes ({candidates:,} visible in nugget alpha); first search after opening "
        f"(builds the note index): {first * 1000:.0f} ms; warm medians of {repeat}, ms; "
        f"the port timed on {sample} notes and scaled to {candidates:,} candidates",
        "",
        "| measure | ours (ms) | ours, CPU (ms) | bar | alternative (ms) | alternative | ratio |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    for name, ours, cpu, alt, kind in rows:
        bar = "-" if name.startswith(("searchNotes right", "  …")) else f"{BAR * 1000:.0f}"
        cells = f"{ours:.1f} | {cpu:.1f} | {bar} | {alt:,.0f} | {kind} | {alt / ours:,.0f}x"
        lines.append(f"| {name} | {cells} |")
    lines += ["", f"worst warm searchNotes: {worst:.1f} ms"]
    return "\n".join(lines)


def _check_port(sample: list[Any]) -> None:
    """Our search over a store of just the sample agrees with the port (float64)."""
    small = MemoryStore.open(":memory:")
    with small.storage.transaction(OpKind.BATCH, "sample") as tx:
        for node in sample:
            model.stage_note(tx, model.note_json(node))
    with small.reading() as mini:
        for query in QUERIES:
            ours = search_notes(mini, "alpha", query, len(sample))
            port = port_search(mini, "alpha", query, len(sample), list_notes(mini, "alpha"))
            assert [r["note"]["id"] for r in ours] == [r["note"]["id"] for r in port]
            for a, b in zip(ours, port, strict=True):
                for name in ("score", "vectorScore", "textScore"):
                    assert abs(a[name] - b[name]) <= 1e-12 * max(1, abs(b[name])), (query, name)
    small.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--plain-sample", type=int, default=20)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "notes.memgraph"
        start = time.perf_counter()
        build(path, options.notes)
        print(f"built {options.notes:,} notes in {time.perf_counter() - start:.1f} s")
        print(bench(path, options.repeat, options.plain_sample))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

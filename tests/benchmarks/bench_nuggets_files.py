"""``memgraph import-nuggets`` / ``export-nuggets`` of a 50k-note graph.json, timed as whole
processes (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_nuggets_files [--notes 50000] [--repeat 3]

The graph.json is realistic: two nuggets, facts (``remember``) and free-form notes in English
and Chinese, tags with the system tags, 0-3 links a note (some dangling), hits, and metadata and
vector specs made by ``metadata.infer_metadata`` and ``vector_spec.vector_spec`` (the bytes of
``JSON.stringify(doc, null, 2)``, so exporting it gives the same bytes back: checked).

Against the plain alternatives, each a fresh process in the same run (median of ``--repeat``):
- import: ``json.load`` the file and ``executemany`` one node row a note (its compact JSON as
  ``fields``, as our rows hold it) and one edge row a link into our tables, in one transaction
  (no checks, no normalisation, no change log, no graph);
- export: ``json.dump(doc, f, ensure_ascii=False, indent=2)`` of the same notes, already in
  memory (loaded before the clock starts: only the dump is timed, inside its process).
The bar (issue 21): each ≤ 3× its alternative.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from memgraph_gui.core.nuggets import js_json
from memgraph_gui.core.nuggets.metadata import infer_metadata
from memgraph_gui.core.nuggets.text import normalise_tags, title_tags
from memgraph_gui.core.nuggets.vector_spec import vector_spec
from tests.benchmarks.bench_import import fresh, plain_schema, timed_process

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "memgraph_gui.cli"]
BAR = 3.0

_EN = (
    "deploy server config user likes green tea project uses pnpm build test release memory "
    "notes about the assistant style prefers short answers meeting friday review design "
    "database migration path file edited task command status shared workspace repo"
).split()
_ZH = "记忆 项目 用户 喜欢 绿茶 部署 服务器 配置 会议 周五 设计 数据库 迁移 简短 回答 风格".split()
_KEYS = (
    "user:favorite_drink",
    "project:deploy_cmd",
    "pref:editor",
    "self:assistant_style",
    "session:current_task",
    "file:src/app.ts",
    "tmp_scratch",
    "reflect:weekly",
    "shared:server_status",
    "learned_fact",
)


def _words(rnd: random.Random, count: int) -> str:
    pool = _ZH if rnd.random() < 0.25 else _EN
    sep = "" if pool is _ZH else " "
    return sep.join(rnd.choice(pool) for _ in range(count))


def make_notes(count: int, seed: int = 21) -> list[dict[str, Any]]:
    """``count`` notes of two nuggets, as Nuggets' own writes leave them."""
    rnd = random.Random(seed)
    stamp = "2026-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}.{:03d}Z"
    notes: list[dict[str, Any]] = []
    for index in range(count):
        nugget = "alpha" if index % 3 else "my-work"
        fact = rnd.random() < 0.6
        if fact:
            title = f"{rnd.choice(_KEYS)}_{index}"
            content = _words(rnd, rnd.randint(2, 12))
            given = []
        else:
            title = _words(rnd, rnd.randint(2, 6)).title() + f" {index}"
            content = "\n".join(_words(rnd, rnd.randint(4, 20)) for _ in range(rnd.randint(1, 4)))
            given = [rnd.choice(_EN) for _ in range(rnd.randint(0, 3))]
        kind = "fact" if fact else "note"
        meta = infer_metadata(
            kind=kind,
            title=title,
            content=content,
            tags=[] if fact else [*title_tags(title), *given],
            source_key=title if fact else None,
        )
        tags = normalise_tags(
            [nugget, *title_tags(title), *given, f"scope:{meta['scope']}", f"type:{meta['type']}"]
        )
        created = stamp.format(
            rnd.randint(1, 11),
            rnd.randint(1, 28),
            rnd.randint(0, 23),
            rnd.randint(0, 59),
            rnd.randint(0, 59),
            rnd.randint(0, 999),
        )
        prefix = "fact" if fact else "note"
        note: dict[str, Any] = {
            "id": f"{prefix}-{nugget}-{rnd.getrandbits(32):08x}",
            "nuggetName": nugget,
            "title": title,
            "content": content,
            "tags": tags,
            "links": [],
            "vector": {"seed": 0, "basis": []},
            "hidden": rnd.random() < 0.05,
            "kind": kind,
            **({"sourceKey": title} if fact else {}),
            "hits": rnd.randint(0, 9),
            "lastHitSession": f"s{rnd.randint(0, 99)}" if rnd.random() < 0.5 else "",
            "createdAt": created,
            "updatedAt": created,
            "lastAccessedAt": created,
            **meta,
        }
        notes.append(note)
    for index, note in enumerate(notes):
        for _ in range(rnd.randint(0, 3)):
            other = notes[rnd.randrange(count)]["id"] if rnd.random() < 0.95 else "note-gone-1"
            reason = rnd.choice(["related", "same topic", "follows", "相关"])
            if other != note["id"] and (other, reason) not in {
                (link["to"], link["reason"]) for link in note["links"]
            }:
                note["links"].append(
                    {"to": other, "reason": reason, "createdAt": note["createdAt"]}
                )
        note["vector"] = vector_spec(note)
        if index and index % 1000 == 0:
            note["customField"] = {"origin": "agent", "n": index}  # an unknown key, kept
    return notes


def write_graph_json(path: Path, count: int, seed: int = 21) -> None:
    doc = {"version": 3, "notes": make_notes(count, seed)}
    path.write_text(js_json.stringify(js_json.js_value(doc)) + "\n", encoding="utf-8")


PLAIN_IMPORT = r"""
import json, sqlite3, sys
source, target, ddl = sys.argv[1:4]
with open(source, encoding="utf-8") as handle:
    doc = json.load(handle)
conn = sqlite3.connect(target, isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("PRAGMA synchronous = NORMAL")
for statement in json.loads(open(ddl).read()):
    conn.execute(statement)
dump = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
conn.execute("BEGIN")
conn.executemany("INSERT INTO nodes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                 ((i, n["id"], n["kind"], "nugget", n["title"], i, dump(n), "", "[]",
                   int(n["hidden"]), 0, 0, None, None, None)
                  for i, n in enumerate(doc["notes"], 1)))
conn.executemany("INSERT OR IGNORE INTO edges(ord, from_id, to_id, type, seq_to) VALUES (?,?,?,?,?)",
                 ((0, n["id"], link["to"], "note_link", None)
                  for n in doc["notes"] for link in n["links"]))
conn.execute("COMMIT")
conn.close()
"""

PLAIN_EXPORT = r"""
import json, sys, time
source, target = sys.argv[1:3]
with open(source, encoding="utf-8") as handle:
    doc = json.load(handle)
began, cpu = time.perf_counter(), time.process_time()
with open(target, "w", encoding="utf-8") as handle:
    json.dump(doc, handle, ensure_ascii=False, indent=2)
print(time.perf_counter() - began, time.process_time() - cpu)
"""


def _plain_export_seconds(source: Path, target: Path) -> tuple[float, float]:
    """Wall and CPU seconds of the ``json.dump`` alone (timed inside its process)."""
    result = subprocess.run(
        [sys.executable, "-c", PLAIN_EXPORT, str(source), str(target)],
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu = result.stdout.split()
    return float(wall), float(cpu)


def measure(count: int, repeat: int, folder: Path) -> dict[str, float]:
    source = folder / "graph.json"
    write_graph_json(source, count)
    schema, db, plain_db = plain_schema(folder), folder / "ours.memgraph", folder / "plain.db"
    out, plain_out = folder / "out.json", folder / "plain-out.json"
    ours_in, plain_in, ours_out, plain_dump = [], [], [], []
    for _ in range(repeat):
        ours_in.append(timed_process([*CLI, "--db", str(fresh(db)), "import-nuggets", str(source)]))
        plain_in.append(
            timed_process(
                [sys.executable, "-c", PLAIN_IMPORT, str(source), str(fresh(plain_db)), str(schema)]
            )
        )
        out.unlink(missing_ok=True)
        ours_out.append(timed_process([*CLI, "--db", str(db), "export-nuggets", str(out)]))
        plain_dump.append(_plain_export_seconds(source, plain_out))
    if out.read_bytes() != source.read_bytes():
        raise RuntimeError("export-nuggets did not give the imported file's bytes back")
    return {
        "notes": count,
        "bytes": source.stat().st_size,
        "import": statistics.median(w for w, _ in ours_in),
        "plain_import": statistics.median(w for w, _ in plain_in),
        "export": statistics.median(w for w, _ in ours_out),
        "plain_export": statistics.median(w for w, _ in plain_dump),
        "import_cpu": statistics.median(c for _, c in ours_in),
        "plain_import_cpu": statistics.median(c for _, c in plain_in),
        "export_cpu": statistics.median(c for _, c in ours_out),
        "plain_export_cpu": statistics.median(c for _, c in plain_dump),
    }


def report(row: dict[str, float], repeat: int) -> str:
    lines = [
        f"graph.json of {row['notes']:,.0f} notes ({row['bytes'] / 2**20:,.1f} MB), "
        f"whole processes, median of {repeat}",
        "",
        "| measure | memgraph | plain alternative | ratio | CPU: memgraph / plain | CPU ratio "
        "| bar | ok |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for name, key, what in (
        ("import-nuggets", "import", "json.load + executemany"),
        ("export-nuggets", "export", "json.dump (indent 2)"),
    ):
        ours, plain = row[key], row[f"plain_{key}"]
        cpu, plain_cpu = row[f"{key}_cpu"], row[f"plain_{key}_cpu"]
        ratio = ours / plain
        lines.append(
            f"| {name} | {ours:.2f} s | {plain:.2f} s ({what}) | {ratio:.2f}× "
            f"| {cpu:.2f} s / {plain_cpu:.2f} s | {cpu / plain_cpu:.2f}× | ≤ {BAR:g}× "
            f"| {'yes' if ratio <= BAR else 'NO'} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        row = measure(options.notes, options.repeat, Path(folder))
        print(report(row, options.repeat))
        print(f"\n(benchmark ran {time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()

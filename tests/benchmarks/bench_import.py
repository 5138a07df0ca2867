"""``memgraph import-luker`` of a Luker export, timed as a whole process (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_import [--sizes 10000,50000,200000] [--repeat 3]
    .venv/bin/python -m tests.benchmarks.bench_import --db STORE [--repeat 3]

For each size: ``memgraph demo --nodes N --seed 11`` and ``memgraph export-luker`` make the export
(in a temporary folder; with ``--db``, the export of that store, left as it is); then,
alternating, ``python -m memgraph_gui.cli --db NEW import-luker EXPORT`` and the plain
alternative run as fresh processes, each timed from start to exit (median of ``--repeat``).
Prints a markdown table: both times, their ratio (wall clock and CPU), the bar (≤ 3× at 50k),
how the time per node grows with the size, and (no alternative) the same import over the store
just imported (``--replace``: opening it, keeping ``NAME.bak``, replacing every row).

The plain alternative (``PLAIN`` below) is what one would write without memgraph: ``json.load``
the file, build the same node and edge rows our tables hold (``fields`` and ``childrenIds`` as
JSON text), then in one transaction ``executemany`` them into a fresh SQLite file with our tables
and indexes. The benchmark checks that its node and edge rows equal ours. It leaves out
everything else an import does: validating the document (and naming the bad path), Luker's
normalisation and hierarchy repair, the meta rows' schema and counters, the change-log tables and
store bookkeeping, and the in-memory graph our store holds after the load.
"""

from __future__ import annotations

import argparse
import json
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.luker.interop import export_luker_file
from memgraph_gui.core.storage.store import Store

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "memgraph_gui.cli"]
BAR = 3.0
"""Issue 13: the whole process within 3× the plain alternative measured in the same run."""

PLAIN = r"""
import json, sqlite3, sys

def node_rows(nodes):
    for ord_, (key, n) in enumerate(nodes.items(), 1):
        fields, span = n.get("fields") or {}, n.get("floorRange")
        yield (ord_, key, n["type"], n.get("level", "semantic"), n["title"], n["seqTo"],
               json.dumps(fields, ensure_ascii=False, separators=(",", ":")), n["parentId"],
               json.dumps(n["childrenIds"], ensure_ascii=False), int(n["archived"]),
               int(n["semanticRollup"]), n["semanticDepth"], span["start"] if span else None,
               span["end"] if span else None, n.get("supersededBy"))

source, target, ddl = sys.argv[1:4]
with open(source, encoding="utf-8") as handle:
    doc = json.load(handle)
conn = sqlite3.connect(target, isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("PRAGMA synchronous = NORMAL")
for statement in json.loads(open(ddl).read()):
    conn.execute(statement)
conn.execute("BEGIN")
conn.executemany("INSERT INTO nodes VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                 node_rows(doc["nodes"]))
conn.executemany("INSERT INTO edges(ord, from_id, to_id, type, seq_to) VALUES (?,?,?,?,?)",
                 ((i, e["from"], e["to"], e["type"], e.get("seqTo"))
                  for i, e in enumerate(doc["edges"], 1)))
conn.executemany("INSERT INTO meta VALUES (?, ?)",
                 [(k, json.dumps(v)) for k, v in doc.items() if k not in ("nodes", "edges")])
conn.execute("COMMIT")
conn.close()
"""


def plain_schema(folder: Path) -> Path:
    """Our tables the plain alternative fills (nodes, edges, meta) and the graph
    tables' indexes, as our migrations create them; no triggers, no change log."""
    probe = folder / "schema.memgraph"
    Store.open(probe).close()
    conn = sqlite3.connect(probe)
    statements = [
        sql
        for (sql,) in conn.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index') "
            "AND tbl_name IN ('nodes', 'edges', 'meta') "
            "ORDER BY type DESC, rowid"
        )
    ]
    conn.close()
    path = folder / "plain-schema.json"
    path.write_text(json.dumps(statements))
    return path


def timed_process(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one process, from start to exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    result = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise RuntimeError(f"{argv[:4]} failed: {result.stdout} {result.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fresh(path: Path) -> Path:
    for suffix in ("", "-wal", "-shm", ".bak"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


def import_seconds(export: Path, folder: Path) -> float:
    """Seconds spent importing modules in one ``import-luker`` process (``-X importtime``)."""
    db = fresh(folder / "importtime.memgraph")
    result = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            *CLI[1:],
            "--db",
            str(db),
            "import-luker",
            str(export),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    rows = [line.split("|") for line in result.stderr.splitlines() if line.count("|") == 2]
    top = [cells for cells in rows if cells[1].strip().isdigit() and cells[2][1:2] != " "]
    return sum(int(cells[1]) for cells in top) / 1e6


def same_rows(ours: Path, plain: Path) -> bool:
    """Whether both files hold the same node and edge rows."""
    queries = ("SELECT * FROM nodes ORDER BY ord", "SELECT * FROM edges ORDER BY ord")
    found = []
    for path in (ours, plain):
        conn = sqlite3.connect(path)
        found.append([conn.execute(q).fetchall() for q in queries])
        conn.close()
    return found[0] == found[1]


def measure(nodes: int, repeat: int, folder: Path, db: Path | None = None) -> dict[str, float]:
    """Median whole-process times of our import and the plain one for an ``nodes`` export (of
    the store ``db`` when given: ``nodes`` is then its node count)."""
    if db is not None:
        with MemoryStore.open(db, create=False) as given:
            nodes, edges = len(given.graph.nodes), len(given.graph.edges)
            export = folder / f"export-{nodes}.json"
            export_luker_file(given.storage, export)
    else:
        with MemoryStore.open(fresh(folder / "demo.memgraph")) as demo:
            load_demo(demo, nodes, seed=11)
            edges = len(demo.graph.edges)
            export = folder / f"export-{nodes}.json"
            export_luker_file(demo.storage, export)
    schema, ours_db, plain_db = plain_schema(folder), folder / "ours.memgraph", folder / "p.db"
    ours, plain, replace = [], [], []
    for _ in range(repeat):
        ours.append(timed_process([*CLI, "--db", str(fresh(ours_db)), "import-luker", str(export)]))
        replace.append(
            timed_process([*CLI, "--db", str(ours_db), "import-luker", str(export), "--replace"])
        )
        plain.append(
            timed_process(
                [sys.executable, "-c", PLAIN, str(export), str(fresh(plain_db)), str(schema)]
            )
        )
    if not same_rows(ours_db, plain_db):
        raise RuntimeError("the plain alternative wrote other rows than memgraph")
    return {
        "nodes": nodes,
        "edges": edges,
        "bytes": export.stat().st_size,
        "ours": statistics.median(w for w, _ in ours),
        "plain": statistics.median(w for w, _ in plain),
        "ours_cpu": statistics.median(c for _, c in ours),
        "plain_cpu": statistics.median(c for _, c in plain),
        "replace": statistics.median(w for w, _ in replace),
        "imports": import_seconds(export, folder),
    }


def report(rows: list[dict[str, float]], repeat: int) -> str:
    lines = [
        f"memgraph import-luker of a Luker export, whole process (median of {repeat}), against "
        "a plain json.load + executemany of the same rows in one transaction (same run)",
        "",
        "| nodes | edges | export | memgraph | of which imports | plain | ratio | CPU ratio "
        "| bar | ok | memgraph per 1k nodes | over a store of that size |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|",
    ]
    for row in rows:
        ratio = row["ours"] / row["plain"]
        lines.append(
            f"| {row['nodes']:,.0f} | {row['edges']:,.0f} | {row['bytes'] / 2**20:,.0f} MB "
            f"| {row['ours']:.2f} s | {row['imports']:.2f} s | {row['plain']:.2f} s "
            f"| {ratio:.2f}× | {row['ours_cpu'] / row['plain_cpu']:.2f}× | ≤ {BAR:g}× "
            f"| {'yes' if ratio <= BAR else 'NO'} | {row['ours'] / row['nodes'] * 1000:.3f} s "
            f"| {row['replace']:.2f} s |"
        )
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        growth = (last["ours"] / last["nodes"]) / (first["ours"] / first["nodes"])
        lines += [
            "",
            f"Growth: {last['nodes'] / first['nodes']:.0f}× the nodes took "
            f"{last['ours'] / first['ours']:.1f}× the time (per node ×{growth:.2f}; "
            f"plain ×{(last['plain'] / last['nodes']) / (first['plain'] / first['nodes']):.2f}).",
        ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="10000,50000,200000", help="node counts, by commas")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--db", type=Path, help="export this store instead of generated demos")
    options = parser.parse_args()
    sizes = [0] if options.db else [int(size) for size in options.sizes.split(",")]
    rows = []
    for nodes in sizes:
        with tempfile.TemporaryDirectory() as folder:
            rows.append(measure(nodes, options.repeat, Path(folder), options.db))
    print(report(rows, options.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

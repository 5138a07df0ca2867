"""``memgraph import-membrane`` of 50k Membrane records, timed as a whole process (run on demand,
not in CI).

    .venv/bin/python -m tests.benchmarks.bench_membrane_import [--records 50000] [--repeat 3]

The file is ``memgraph demo --membrane``'s records (``core.demo.membrane.generate_membrane``,
seed 1) written as ``json.dumps(records, ensure_ascii=False, indent=2)``, the export's own
format. Then, alternating, each as a fresh process timed from start to exit (median of
``--repeat``):
- ours: ``python -m memgraph_gui.cli --db NEW import-membrane FILE`` (read strictly, every record
  checked, one undoable transaction with its change log, the in-memory graph built);
- the plain alternative (``PLAIN``): ``json.load`` the file and, in one transaction,
  ``executemany`` the same rows into a fresh SQLite file with our tables and indexes: one node
  row a record (its compact JSON as ``fields``, as ours holds it) and one edge row a distinct
  relation (``INSERT OR IGNORE``), no checks, no change log, no graph.
The benchmark checks that the plain rows hold the same node ids and edges as ours, and that
``export-membrane`` gives the file's bytes back. The bar (issue 22): ours ≤ 3× the plain one.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from memgraph_gui.core.demo.membrane import generate_membrane
from tests.benchmarks.bench_import import fresh, plain_schema, timed_process

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "memgraph_gui.cli"]
BAR = 3.0

PLAIN = r"""
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
                 ((i, r["id"], r["type"], "membrane", r["id"], i, dump(r), "", "[]",
                   0, 0, 0, None, None, None)
                  for i, r in enumerate(doc, 1)))
relations = ((r["id"], rel["target_id"], rel["predicate"])
             for r in doc for rel in r.get("relations") or ())
conn.executemany("INSERT OR IGNORE INTO edges(ord, from_id, to_id, type, seq_to) VALUES (?,?,?,?,?)",
                 ((i, *edge, None) for i, edge in enumerate(relations, 1)))
conn.execute("COMMIT")
conn.close()
"""


def _rows(db: Path) -> tuple[set[str], set[tuple[str, str, str]]]:
    conn = sqlite3.connect(db)
    try:
        nodes = {row[0] for row in conn.execute("SELECT id FROM nodes WHERE level='membrane'")}
        edges = set(conn.execute("SELECT from_id, type, to_id FROM edges").fetchall())
    finally:
        conn.close()
    return nodes, edges


def measure(count: int, repeat: int, folder: Path) -> dict[str, float]:
    source = folder / "records.json"
    records = generate_membrane(count, 1)
    source.write_text(json.dumps(records, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    relations = sum(len(r.get("relations") or ()) for r in records)
    del records
    schema, db, plain_db = plain_schema(folder), folder / "ours.memgraph", folder / "plain.db"
    ours, plain = [], []
    for _ in range(repeat):
        ours.append(timed_process([*CLI, "--db", str(fresh(db)), "import-membrane", str(source)]))
        plain.append(
            timed_process(
                [sys.executable, "-c", PLAIN, str(source), str(fresh(plain_db)), str(schema)]
            )
        )
    if _rows(db) != _rows(plain_db):
        raise RuntimeError("the plain alternative's rows differ from ours")
    out = folder / "out.json"
    done = subprocess.run(
        [*CLI, "--db", str(db), "export-membrane", str(out)], cwd=ROOT, capture_output=True
    )
    if done.returncode != 0 or out.read_bytes() != source.read_bytes():
        raise RuntimeError("export-membrane did not give the imported file's bytes back")
    return {
        "records": count,
        "relations": relations,
        "bytes": source.stat().st_size,
        "ours": statistics.median(w for w, _ in ours),
        "plain": statistics.median(w for w, _ in plain),
        "ours_cpu": statistics.median(c for _, c in ours),
        "plain_cpu": statistics.median(c for _, c in plain),
    }


def report(row: dict[str, float], repeat: int) -> str:
    ratio, cpu_ratio = row["ours"] / row["plain"], row["ours_cpu"] / row["plain_cpu"]
    return "\n".join(
        [
            f"{row['records']:,.0f} Membrane records, {row['relations']:,.0f} relations "
            f"({row['bytes'] / 2**20:,.1f} MB), whole processes, median of {repeat}",
            "",
            "| measure | memgraph | json.load + executemany | ratio | CPU: memgraph / plain "
            "| CPU ratio | bar | ok |",
            "|---|---:|---:|---:|---:|---:|---|---|",
            f"| import-membrane | {row['ours']:.2f} s | {row['plain']:.2f} s | {ratio:.2f}× "
            f"| {row['ours_cpu']:.2f} s / {row['plain_cpu']:.2f} s | {cpu_ratio:.2f}× "
            f"| ≤ {BAR:g}× | {'yes' if ratio <= BAR else 'NO'} |",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        row = measure(options.records, options.repeat, Path(folder))
        print(report(row, options.repeat))
        print(f"\n(benchmark ran {time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()

"""The Recall lab's four rankings for one message (run on demand, not in CI).

    .venv/bin/python -m tests.benchmarks.bench_recall_lab --db STORE [--nugget NAME] [--repeat 5]

Copies STORE (e.g. the 50k demo, or the 50k Nuggets demo for ``searchNotes``) into a temporary
folder, sets the offline embedding profile there if it has none (``hashed-ngrams-v1``, every
vector made up front: the time is printed) and times, for a few messages (English and Chinese),
what the lab runs on its worker thread for one message (``recall_lab.rank_all``: keywordSearch,
vectorSearch, searchNotes of NUGGET, retrieveGraph with full trust): the first run after opening
(it builds the indexes; the dock does it when it opens) and the warm median and 90th percentile,
each ranking alone too. The obvious alternative, measured in the same run: keywordSearch as a
plain Python pass over the Luker JSON document and vectorSearch as a plain Python cosine over
every stored vector (``tests.benchmarks.plain``'s way: no index, recomputed per message), with
the same searchNotes and retrieveGraph. The bar is 100 ms for the four together (issue 23).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memgraph_gui.app.recall_lab import FULL_TRUST, Query, rank_all
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.luker.interop import export_luker
from memgraph_gui.core.vectors import hashed
from tests.benchmarks import plain

MESSAGES = [
    "Eileen found a letter in the Black Forest. Who wrote it?",
    "艾琳在黑森林发现了一封信",
    "Kain hides the star-map shard",
    "deploy the release after the migrations",
    "the siege of Silvermoon City",
]
BAR = 0.100


def timed(fn: Callable[[], Any], repeat: int) -> list[float]:
    """Seconds of each of ``repeat`` calls of ``fn`` over every message (one warm-up first)."""
    fn()
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def plain_vector(matrix: list[list[float]], ids: list[str], query: list[float], k: int) -> list:
    """The alternative: a cosine (unit rows: a dot product) over every stored row in Python."""
    scored = [
        (sum(a * b for a, b in zip(row, query, strict=True)), i)
        for row, i in zip(matrix, ids, strict=True)
    ]
    scored.sort(key=lambda s: -s[0])
    return scored[:k]


def plain_alternative(
    store: MemoryStore, per_message: dict[str, Callable[[str], Any]]
) -> Callable[[str], None]:
    """The four answers for a message the plain way (see the module docstring)."""
    read, vectors = store.read_api(), store.vectors()
    doc = export_luker(store)
    schema = {t["id"]: t for t in read.get_schema().schema.to_json()}
    index = vectors.index()
    index.search(vectors.embedder().embed(["warm"])[0], None, 1)
    ids = list(index._ids)
    matrix = index._matrix[: len(ids)].tolist()  # the stored rows, as plain lists
    embedder = vectors.embedder()

    def alternative(message: str) -> None:
        plain.keyword_search(doc, schema, message)
        plain_vector(matrix, ids, embedder.embed([message])[0].tolist(), 20)
        per_message["searchNotes (limit 20)"](message)
        per_message["retrieveGraph (10 roots, 1 hop)"](message)

    return alternative


def bench(path: Path, nugget: str | None, repeat: int) -> str:
    store = MemoryStore.open(path)
    vectors = store.vectors()
    lines = []
    if vectors.profile() is None:
        vectors.set_profile(hashed.PROFILE)
        start = time.perf_counter()
        vectors.embed_all()
        lines.append(
            f"offline profile set; every vector made in {time.perf_counter() - start:.1f} s"
        )
    with store.reading() as graph:
        nodes = len(graph.nodes)
    start = time.perf_counter()
    rank_all(store, Query(MESSAGES[0], nugget))
    first = time.perf_counter() - start
    read = store.read_api()
    per_message: dict[str, Callable[[str], Any]] = {
        "keywordSearch (k=20)": lambda m: read.keyword_search(query=m, k=20),
        "vectorSearch (k=20)": lambda m: read.vector_search(query=m, k=20),
        "searchNotes (limit 20)": lambda m: (
            store.nuggets(nugget).search_notes(m, 20) if nugget else None
        ),
        "retrieveGraph (10 roots, 1 hop)": lambda m: store.membrane().retrieve_graph(
            m, FULL_TRUST, root_limit=10, max_hops=1
        ),
    }
    rows: list[tuple[str, list[float]]] = []
    for name, fn in per_message.items():
        rows.append(
            (
                name,
                [t / len(MESSAGES) for t in timed(lambda fn=fn: [fn(m) for m in MESSAGES], repeat)],
            )
        )
    each: list[float] = []
    for _ in range(repeat):
        for message in MESSAGES:
            start = time.perf_counter()
            rank_all(store, Query(message, nugget))
            each.append(time.perf_counter() - start)
    alternative = plain_alternative(store, per_message)
    other = [t / len(MESSAGES) for t in timed(lambda: [alternative(m) for m in MESSAGES], 1)]
    median = statistics.median(each)
    p90 = sorted(each)[int(len(each) * 0.9)]
    ok = "yes" if median <= BAR else "NO"
    lines += [
        f"Recall lab's four rankings at {nodes:,} nodes (nugget {nugget or 'none'}); first run "
        f"after opening (builds the indexes): {first * 1000:.0f} ms",
        "",
        "| measure | this app (median) | p90 | plain alternative | ratio | bar | meets |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    for name, times in rows:
        lines.append(f"| {name} | {statistics.median(times) * 1000:.1f} ms | | | | | |")
    lines.append(
        f"| the four together (rank_all) | {median * 1000:.1f} ms | {p90 * 1000:.1f} ms | "
        f"{statistics.median(other) * 1000:.0f} ms | {statistics.median(other) / median:.0f}× "
        f"| ≤ 100 ms | {ok} |"
    )
    store.close()
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="the store to copy and measure")
    parser.add_argument("--nugget", default=None, help="the nugget searchNotes searches")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-lab-") as folder:
        path = Path(folder) / "lab.memgraph"
        shutil.copy(args.db, path)
        print(bench(path, args.nugget, args.repeat))


if __name__ == "__main__":
    main()

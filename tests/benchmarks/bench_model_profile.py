"""Embedding a store's nodes with the model profile (WordLlama), run on demand, not in CI.

    .venv/bin/python -m tests.benchmarks.bench_model_profile --db STORE [--limit N]

Opens the store read-only (e.g. the 50k demo: ``memgraph demo --nodes 50000``), takes each live
node's text (its title and every scalar of its field values, joined by spaces) and times, once
each (cold model load apart): ``ModelEmbedder.embed`` over all of them, against the plain
alternative measured in the same run, WordLlama's own ``WordLlamaInference.embed(norm=True)``
(padded batches of 64) on the same weights and tokenizer, and, for scale, the default profile
(``hashed.embed``). Checks the two WordLlama paths agree. Needs the ``model`` extra.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from pathlib import Path

import numpy as np

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.text import flatten_values
from memgraph_gui.core.vectors import hashed
from memgraph_gui.core.vectors.model import ModelEmbedder, _cache
from memgraph_gui.core.vectors.profiles import MODEL_SPEC


def node_texts(path: Path) -> list[str]:
    """Title and field values of every live node, joined by spaces."""
    with MemoryStore.open(path) as store, store.reading() as graph:
        return [
            " ".join([n.title, *(t for v in n.fields.values() for t in flatten_values(v))])
            for n in graph.nodes.values()
            if not n.archived
        ]


def timed(fn: object) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()  # type: ignore[operator]
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    texts = node_texts(args.db)
    if args.limit:
        texts = texts[: args.limit]
    chars = sum(map(len, texts))
    print(f"{len(texts):,} node texts, {chars / len(texts):.0f} characters on average")

    load, model = timed(_cache.get)
    ours, rows = timed(lambda: ModelEmbedder(MODEL_SPEC).embed(texts))

    from tokenizers import Tokenizer
    from wordllama import WordLlamaInference

    spec = importlib.util.find_spec("wordllama")
    assert spec is not None and spec.submodule_search_locations
    root = Path(next(iter(spec.submodule_search_locations)))
    tokenizer = Tokenizer.from_file(str(root / "tokenizers" / "l2_supercat_tokenizer_config.json"))
    inference = WordLlamaInference(model.weights, tokenizer)  # type: ignore[attr-defined]
    plain, reference = timed(lambda: inference.embed(texts, norm=True))
    hashed_s, _ = timed(lambda: hashed.embed(texts))
    gap = float(np.abs(np.asarray(reference) - rows).max())

    print(f"model load (cold, once per process): {load * 1000:.0f} ms")
    print("| embedding all node texts | seconds | texts/s | vs ModelEmbedder |")
    print("|---|---:|---:|---:|")
    for name, seconds in [
        ("ModelEmbedder.embed (sparse mean)", ours),
        ("WordLlamaInference.embed (padded, plain alternative)", plain),
        ("hashed.embed (default profile)", hashed_s),
    ]:
        print(f"| {name} | {seconds:.2f} | {len(texts) / seconds:,.0f} | {seconds / ours:.2f}× |")
    print(f"largest difference between the two WordLlama paths: {gap:.1e}")


if __name__ == "__main__":
    main()

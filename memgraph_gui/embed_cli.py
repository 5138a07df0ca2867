"""``memgraph embed``: choose a store's embedding profile and make its vectors, with progress."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import Any, TextIO

from memgraph_gui.core.domain.errors import MemgraphError, bad_args
from memgraph_gui.core.domain.strict_json import dumps

PROGRESS_EVERY = 0.5  # seconds between progress lines on stderr


def add_parser(sub: Any, db: argparse.ArgumentParser) -> None:
    """The ``embed`` subcommand's arguments."""
    emb = sub.add_parser(
        "embed",
        parents=[db],
        help="make the vectors of vectorSearch (choosing the embedding profile first)",
        description="Make every active node's vector under the store's embedding profile "
        "(only what is missing or stale). --profile makes a profile the store's active one "
        "first (one undo step): hashed-ngrams-v1 (offline, the default choice), "
        "wordllama-l2-256 (pip install 'memgraph-gui[model]'), or a name of your own with "
        "--base-url and --model for an OpenAI-compatible /embeddings endpoint (its key from "
        "MEMGRAPH_EMBEDDING_API_KEY or the OS keyring); --profile none turns vector search off.",
    )
    emb.add_argument("--profile", help="the profile to use (and make the store's active one)")
    emb.add_argument("--base-url", help="an OpenAI-compatible endpoint, e.g. http://host/v1")
    emb.add_argument("--model", help="the endpoint's embedding model")
    emb.add_argument("--dimensions", type=int, help="ask the endpoint for this many dimensions")
    emb.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def profile_value(options: argparse.Namespace) -> Any:
    """What ``--profile`` and the endpoint options ask for: a built-in's name, an endpoint
    profile object, "" (none), or None (keep the store's). ``BAD_ARGS`` for a mix that cannot be."""
    endpoint = options.base_url is not None or options.model is not None
    if options.profile is None:
        if endpoint or options.dimensions is not None:
            raise bad_args("--base-url, --model and --dimensions need --profile NAME")
        return None
    if options.profile == "none":
        if endpoint:
            raise bad_args("--profile none takes no --base-url or --model")
        return ""
    if not endpoint:
        return options.profile
    value: dict[str, Any] = {
        "name": options.profile,
        "kind": "endpoint",
        "baseUrl": options.base_url or "",
        "model": options.model or "",
    }
    if options.dimensions is not None:
        value["dimensions"] = options.dimensions
    return value


def run(options: argparse.Namespace, out: TextIO, err: TextIO | None = None) -> int:
    """Set the profile (when asked), embed, print one JSON line: ``{"profile", "nodes",
    "embedded", "reused", "seconds"}`` (``{"profile": null}`` after ``--profile none``).
    Progress lines ("embedded 2,048 of 49,814") go to stderr. Ctrl+C stops between batches:
    every vector stored before stays."""
    from memgraph_gui.core.memory import MemoryStore

    wanted = profile_value(options)
    err = err or sys.stderr
    began = time.perf_counter()
    with MemoryStore.open(options.db, create=False) as store:
        vectors = store.vectors()
        if wanted is not None:
            vectors.set_profile(wanted or None)
        spec = vectors.profile()
        if spec is None:
            if wanted == "":
                _emit(out, {"profile": None})
                return 0
            raise MemgraphError(
                "NO_EMBEDDING_PROFILE",
                "this store has no embedding profile: pass --profile hashed-ngrams-v1 "
                "(offline), wordllama-l2-256, or NAME --base-url URL --model MODEL",
            )
        cancel = threading.Event()
        progress = None if options.quiet else _Progress(err)
        try:
            report = vectors.embed_all(progress=progress, cancel=cancel)
        except KeyboardInterrupt:
            cancel.set()
            raise
        status = vectors.status()
    _emit(
        out,
        {
            "profile": spec.to_json(),
            "nodes": status.nodes,
            "embedded": report.embedded,
            "reused": report.reused,
            "seconds": round(time.perf_counter() - began, 3),
        },
    )
    return 0


class _Progress:
    """Progress lines on ``err``, at most one each ``PROGRESS_EVERY`` seconds, and the last."""

    def __init__(self, err: TextIO) -> None:
        self._err, self._last = err, 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last < PROGRESS_EVERY:
            return
        self._last = now
        if total:
            share = 100 * done // total
            print(f"memgraph embed: {done:,} of {total:,} texts ({share}%)", file=self._err)
        else:
            print("memgraph embed: every vector is up to date", file=self._err)
        self._err.flush()


def _emit(out: TextIO, value: Any) -> None:
    out.write(dumps(value) + "\n")
    out.flush()

"""``memgraph layout``: compute a store's layout headless, save it, optionally write it out; and
``memgraph picture``: bring the picture kept beside the layout up to date."""

from __future__ import annotations

import argparse
import collections
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from memgraph_gui.core.domain.errors import MemgraphError, bad_args
from memgraph_gui.core.domain.strict_json import dumps

if TYPE_CHECKING:  # imported where used: every ``memgraph`` command builds this parser
    from memgraph_gui.core.memory import MemoryStore

MAX_SECONDS = 3600.0
DEFAULT_SECONDS = 4.0
PER_NODES = 50_000
"""Without ``--seconds`` a layout may take ``DEFAULT_SECONDS`` per ``PER_NODES`` active nodes
(at least ``DEFAULT_SECONDS``): the 50k demo converges in ~2.5 s, the 200k one in ~9 s (a flat
4 s stopped it at 12 of its 45 steps, twice the 50k edge-length ratio)."""


def add_parser(sub: Any, db: argparse.ArgumentParser) -> None:
    """The ``layout`` subcommand's arguments (``--seconds`` is checked by ``run``: BAD_ARGS)."""
    lay = sub.add_parser("layout", parents=[db], help="compute and save the graph layout")
    lay.add_argument("--out", help="also write {node_id: [x, y]} for every active node")
    lay.add_argument(
        "--seconds",
        help=f"time limit of the layout (default {DEFAULT_SECONDS:g} per {PER_NODES:,} nodes, "
        f"at least {DEFAULT_SECONDS:g})",
    )
    lay.add_argument("--fresh", action="store_true", help="ignore saved positions (pins stay)")
    picture = sub.add_parser(
        "picture",
        parents=[db],
        help="bring the picture kept beside the layout up to date (a big memory opens with it)",
    )
    picture.add_argument(
        "--min-nodes",
        type=int,
        help="keep a picture from this many active nodes (default 20,000)",
    )


def run_picture(options: argparse.Namespace, out: TextIO) -> int:
    """Make and write the kept picture when it is stale (``MemoryStore.refresh_picture``; a
    window runs this as a child when its memory is quiet). Prints one JSON line:
    ``{"picture": true}`` when one was written or dropped, else ``{"picture": false}``."""
    from memgraph_gui.core.memory import MemoryStore

    with MemoryStore.open(options.db, create=False, index_edges=False) as store:
        written = store.refresh_picture(min_nodes=options.min_nodes)
    _emit(out, {"picture": written})
    return 0


def run(options: argparse.Namespace, out: TextIO) -> int:
    """Compute (incrementally from saved positions unless ``--fresh``), save, write ``--out``.

    Prints one JSON line: ``{"seconds", "nodes", "edges", "iterations", "converged",
    "quality", "saved", "picture", "written"}`` (``picture``: the picture kept beside the
    layout was written, see ``MemoryStore.refresh_picture``). A read-only store still
    computes and writes ``--out``, then answers ``{"error": {...}, "layout": {...}}`` with exit
    status 1 (nothing saved).
    """
    from memgraph_gui.core.memory import MemoryStore

    seconds = None if options.seconds is None else parse_seconds(options.seconds)
    # (the per-node edge maps are left unbuilt: a layout reads the edges as columns)
    with MemoryStore.open(options.db, create=False, index_edges=False) as store:
        report = _compute(store, seconds, options.fresh, options.out)
    error = report.pop("error", None)
    if error is not None:
        _emit(out, {"error": error, "layout": report})
        return 1
    _emit(out, report)
    return 0


def parse_seconds(text: Any) -> float:
    """``--seconds``: a finite number in (0, 3600]; ``BAD_ARGS`` otherwise."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        value = math.nan
    if not math.isfinite(value) or not 0 < value <= MAX_SECONDS:
        raise bad_args(
            f"--seconds must be a number above 0 and at most {MAX_SECONDS:g}, got {text!r}"
        )
    return value


def default_seconds(nodes: int) -> float:
    """The time limit of a layout of ``nodes`` active nodes without ``--seconds``."""
    return min(MAX_SECONDS, DEFAULT_SECONDS * max(1.0, nodes / PER_NODES))


def _compute(
    store: MemoryStore, seconds: float | None, fresh: bool, out_path: str | None
) -> dict[str, Any]:
    from memgraph_gui.core.layout import layout_quality, stream_layout

    began = time.perf_counter()
    inp = store.layout_input(include_positions=not fresh)
    if seconds is None:
        seconds = default_seconds(len(inp.ids))
    frame = collections.deque(stream_layout(inp, seconds=seconds), maxlen=1)[0]
    quality = layout_quality(frame.pos, inp.edges)
    report: dict[str, Any] = {
        "seconds": round(time.perf_counter() - began, 3),
        "nodes": len(inp.ids),
        "edges": len(inp.edges),
        "iterations": frame.iteration,
        "converged": frame.converged,
        "quality": round(quality, 4) if math.isfinite(quality) else None,
        "saved": False,
        "picture": False,
        "written": None,
    }
    try:
        store.save_positions(inp.ids, frame.pos)
        report["saved"] = True
        report["picture"] = store.refresh_picture()  # a big memory's open draws it in one read
    except MemgraphError as exc:
        if exc.code not in ("STORE_READ_ONLY", "STORE_FOLDER_READ_ONLY"):
            raise
        report["error"] = {
            "code": exc.code,
            "message": f"layout computed but not saved: {exc.message}",
        }
    if out_path:
        _write(out_path, inp.ids, frame.pos)
        report["written"] = str(Path(out_path).resolve())
    return report


def _write(path: str, ids: tuple[str, ...], pos: Any) -> None:
    import json

    from memgraph_gui.core.storage.safe_io import write_text_atomic

    data = dict(zip(ids, pos.tolist(), strict=True))
    write_text_atomic(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")


def _emit(out: TextIO, data: Any) -> None:
    out.write(dumps(data) + "\n")
    out.flush()

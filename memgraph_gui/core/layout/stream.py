"""``stream_layout``: a usable picture at once, then refined frames, on the caller's thread.

Run it on a worker thread: each frame's ``pos`` is a fresh array the consumer may keep. A full
run is PivotMDS (``start``) then ``refine.FULL_ITERATIONS`` force steps; an incremental run
keeps the known rows, places the new ones and moves only them and their neighbours (with
``LocalForces`` when they are few: a step then costs what the moving rows cost).

Measured (2 cores shared with other jobs, load ~6; ``tests/benchmarks/bench_layout_compare.py``):
the 50k story-shaped demo reaches an edge-length ratio of 0.042 in 4.5 s (first frame at 1.2
s, ratio 0.36), the uniform one 0.19 in 4.1 s; an overview cut of 2.5k-3.7k nodes with merged,
weighted edges (``LayoutInput.weights``) finishes its 45 steps in 0.3-0.4 s, so
``compute_layout(..., seconds=0.5)`` suits the overview.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np

from memgraph_gui.core.layout.forces import Forces, edge_pull
from memgraph_gui.core.layout.local_forces import LOCAL_MAX, LocalForces
from memgraph_gui.core.layout.model import LayoutFrame, LayoutInput
from memgraph_gui.core.layout.place import edge_scale, place_new
from memgraph_gui.core.layout.refine import FULL_ITERATIONS, LOCAL_ITERATIONS, Refiner
from memgraph_gui.core.layout.start import merge_edges, start_layout

FRAME_INTERVAL = 0.15  # seconds between refined frames
STEP_MARGIN = 1.3  # later steps cost more (the near field starts): plan for that
INCREMENTAL_SHARE = 0.5  # at most this share of new rows keeps the known positions
FULL_TEMPERATURE = 0.1  # of the start picture's RMS radius
REFINE_TEMPERATURE = 0.05  # of the given start's RMS radius (``refine_start``)
LOCAL_TEMPERATURE = 0.5  # of the known edges' median length


def stream_layout(
    inp: LayoutInput,
    *,
    seconds: float = 6.0,
    seed: int = 0,
    should_stop: Callable[[], bool] | None = None,
    refine_start: bool = False,
) -> Iterator[LayoutFrame]:
    """Yield a usable picture first, then refined frames every ~0.15 s, then a ``"done"`` frame.

    The first frame (``stage="start"``) is PivotMDS, or for an incremental run (``inp.start``
    with at most half the rows NaN) the known positions with new rows at their neighbours'
    barycentre plus jitter; an incremental run then moves only the new rows and their
    neighbours. With ``refine_start`` (and some row of ``inp.start`` set) the first frame is
    ``inp.start`` (unknown rows placed as for an incremental run) and every row is refined
    from there, as a full run but cooler (``REFINE_TEMPERATURE``): the picture an overview
    layout gave settles instead of being replaced. Pinned rows never move. Stops when the
    cooling schedule ends (``converged=True`` on the last frame; when time runs short the
    schedule is shortened to end by ``seconds``, counted from the call), at ``seconds``, or
    when ``should_stop()`` returns True. Deterministic for a ``seed`` unless ``seconds`` cuts
    the run short. Units: the ideal edge length is 1.
    """
    began = time.monotonic()
    n = len(inp.ids)
    links, weights = merge_edges(inp.edges, n, inp.weights)
    pos, movable, temperature, iterations = _begin(inp, links, seed, refine_start)
    yield LayoutFrame(pos.copy(), "start", 0, n == 0)
    local = iterations == LOCAL_ITERATIONS and 0 < movable.sum() <= LOCAL_MAX
    pull = edge_pull(links, n, weights)
    forces = LocalForces(links, pos, movable, pull) if local else Forces(links, n, pull)
    refiner = Refiner(forces, pos, movable, temperature=temperature, iterations=iterations)
    yield from _refine(refiner, began + seconds, should_stop or (lambda: False))


def compute_layout(
    inp: LayoutInput,
    *,
    seconds: float = 6.0,
    seed: int = 0,
    should_stop: Callable[[], bool] | None = None,
) -> np.ndarray:
    """The last frame's positions of ``stream_layout`` (``(n, 2)`` float64); blocks."""
    pos = np.zeros((0, 2))
    for frame in stream_layout(inp, seconds=seconds, seed=seed, should_stop=should_stop):
        pos = frame.pos
    return pos


def _begin(
    inp: LayoutInput, links: np.ndarray, seed: int, refine_start: bool = False
) -> tuple[np.ndarray, np.ndarray, float, int]:
    """The first picture, the movable rows, the start temperature and the iteration count."""
    n = len(inp.ids)
    start, pinned = _known(inp, n)
    known = np.isfinite(start).all(axis=1)
    new = ~known
    if refine_start and known.any():
        pos = start.copy()
        if new.any():
            place_new(pos, known, links, np.random.default_rng(seed))
        centred = pos - pos.mean(axis=0)
        radius = float(np.sqrt((centred**2).sum(axis=1).mean()))
        temperature = max(1.0, REFINE_TEMPERATURE * radius)
        return pos, ~pinned, temperature, FULL_ITERATIONS
    if known.any() and new.sum() <= INCREMENTAL_SHARE * n:
        pos = start.copy()
        place_new(pos, known, links, np.random.default_rng(seed))
        movable = _with_neighbours(new, links) & ~pinned
        temperature = LOCAL_TEMPERATURE * edge_scale(start, links, known)
        return pos, movable, temperature, LOCAL_ITERATIONS
    pos = start_layout(links, n, seed)
    pos[pinned] = start[pinned]
    radius = float(np.sqrt((pos**2).sum(axis=1).mean())) if n else 1.0
    temperature = max(1.0, FULL_TEMPERATURE * radius)
    return pos, ~pinned, temperature, FULL_ITERATIONS


def _known(inp: LayoutInput, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``inp.start`` as an ``(n, 2)`` array (NaN = unknown) and the pinned rows that are set."""
    start = np.full((n, 2), np.nan)
    if inp.start is not None:
        given = np.asarray(inp.start, dtype=np.float64).reshape(n, 2)
        start[np.isfinite(given).all(axis=1)] = given[np.isfinite(given).all(axis=1)]
    pinned = np.zeros(n, dtype=bool)
    if inp.pinned is not None:
        pinned = np.asarray(inp.pinned, dtype=bool).reshape(n) & np.isfinite(start).all(axis=1)
    return start, pinned


def _with_neighbours(rows: np.ndarray, links: np.ndarray) -> np.ndarray:
    near = rows.copy()
    near[links[rows[links[:, 0]], 1]] = True
    near[links[rows[links[:, 1]], 0]] = True
    return near


def _refine(
    refiner: Refiner, deadline: float, should_stop: Callable[[], bool]
) -> Iterator[LayoutFrame]:
    last = time.monotonic()
    per_step = 0.0
    while not refiner.finished and not should_stop() and time.monotonic() < deadline:
        began = time.monotonic()
        refiner.step()
        now = time.monotonic()
        # the first step also builds the neighbour tree: it is no estimate for the others
        per_step = now - began if refiner.done == 2 else 0.7 * per_step + 0.3 * (now - began)
        if refiner.done >= 2:
            left = (deadline - now) / max(STEP_MARGIN * per_step, 1e-6)
            refiner.fit(refiner.done + int(left))
        if now - last >= FRAME_INTERVAL and not refiner.finished:
            last = now
            yield LayoutFrame(refiner.pos.copy(), "refine", refiner.done, False)
    yield LayoutFrame(refiner.pos.copy(), "done", refiner.done, refiner.finished)

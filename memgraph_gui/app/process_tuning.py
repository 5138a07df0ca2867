"""Process-wide settings the window's entry point may let the app layer change.

The library and the app layer leave the process as they found it: a script or a bridge that
imports ``AppModel`` keeps its own garbage-collector, switch-interval and BLAS settings. The
desktop app owns its process, so its ``main`` calls ``tune_process()``; only then do layout runs
shorten the GIL switch interval and limit BLAS to one thread, and bulk work (an import) pauses
the cyclic collector while it makes its ~10^6 objects without cycles (each full collection a
50k import sets off holds the GIL, so the window cannot paint, for 100-200 ms) and shortens the
switch interval too.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class _Tuning:
    enabled: bool = False
    fast: set[object] = field(default_factory=set)  # who wants the short switch interval now
    interval: float = 0.005  # the switch interval from before the first of them
    bulk: int = 0  # bulk works running now (on any threads)
    collecting: bool = False  # whether the collector was on before the first of them


_TUNING = _Tuning()
_LOCK = threading.Lock()  # the settings are process-wide; several threads start and end work


def tune_process(enabled: bool = True) -> None:
    """Let the app layer change process-wide settings (the window's ``main`` only)."""
    _TUNING.enabled = enabled


def tuned() -> bool:
    """True once the entry point called ``tune_process()``."""
    return _TUNING.enabled


FAST_SWITCH = 0.001
"""Seconds a worker holds the GIL before the GUI thread gets it back, while it computes."""


@contextmanager
def bulk_work() -> Iterator[None]:
    """In a tuned process, around a worker's bulk work (an import): the cyclic collector off
    (back on after, if it was on) and the GIL handed back to the GUI thread within 1 ms instead
    of 5 (a frame's many short Qt calls each wait for it); elsewhere nothing changes.

    On the way out the heap is frozen (``gc.freeze``) before the collector is back on: the
    ~10^6 objects made meanwhile (a parsed file, a new graph) are long-lived and acyclic (a store
    breaks its graph's cycles when it closes), but the young generation held them all, and the
    first collections after re-enabling scanned them in single calls that held the GIL for 0.1-0.3 s
    each (~0.8 s of frozen window after a 50k import; with the collector on throughout, the full
    collections of the growing heap did the same). Frozen objects are still freed by their
    reference counts.

    Bulk works may overlap (an import's check and a graph read, on their own threads): the
    collector stays off and the interval short until the last of them ends, whichever order
    they end in. Thread: any (the settings are process-wide)."""
    if not _TUNING.enabled:
        yield
        return
    owner = object()
    with _LOCK:
        _TUNING.bulk += 1
        if _TUNING.bulk == 1:
            _TUNING.collecting = gc.isenabled()
            gc.disable()
    share_gil(owner, True)
    try:
        yield
    finally:
        share_gil(owner, False)
        with _LOCK:
            _TUNING.bulk -= 1
            if _TUNING.bulk == 0 and _TUNING.collecting:
                gc.freeze()
                gc.enable()


def share_gil(owner: object, wanted: bool) -> None:
    """In a tuned process, ``owner`` (a layout run, a bulk work) wants the GIL handed back to the
    GUI thread within ``FAST_SWITCH`` (True) or no longer (False; idempotent). The interval is
    short while anyone wants it, and back to what it was before the first once nobody does:
    overlapping works (an import's check ending while a graph is read, a layout running
    meanwhile) never end it for one another. Elsewhere nothing changes. Thread: any."""
    if not _TUNING.enabled:
        return
    with _LOCK:
        wanting = _TUNING.fast
        if wanted and owner not in wanting:
            if not wanting:
                _TUNING.interval = sys.getswitchinterval()
                sys.setswitchinterval(FAST_SWITCH)
            wanting.add(owner)
        elif not wanted and owner in wanting:
            wanting.discard(owner)
            if not wanting:
                sys.setswitchinterval(_TUNING.interval)

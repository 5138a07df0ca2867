"""Process-wide settings the window's entry point may let the app layer change.

The library and the app layer leave the process as they found it: a script or a bridge that
imports ``AppModel`` keeps its own garbage-collector, switch-interval and BLAS settings. The
desktop app owns its process, so its ``main`` calls ``tune_process()``; only then do layout runs
shorten the GIL switch interval and limit BLAS to one thread, and bulk work (an import) pauses
the cyclic collector while it makes its ~10^6 objects without cycles (each full collection a
50k import sets off holds the GIL, so the window cannot paint, for 100-200 ms).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class _Tuning:
    enabled: bool = False


_TUNING = _Tuning()


def tune_process(enabled: bool = True) -> None:
    """Let the app layer change process-wide settings (the window's ``main`` only)."""
    _TUNING.enabled = enabled


def tuned() -> bool:
    """True once the entry point called ``tune_process()``."""
    return _TUNING.enabled


@contextmanager
def collector_paused() -> Iterator[None]:
    """In a tuned process, the cyclic collector off while the body runs (back on after, if it
    was on); elsewhere nothing changes. Thread: any (the setting is process-wide)."""
    if not _TUNING.enabled or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()

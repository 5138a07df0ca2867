"""Pausing Python's cyclic garbage collector around bulk object building."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off while the body runs (and back on after, if it was on).

    Building a graph, a document or an index makes ~10^5-10^6 long-lived objects without cycles;
    the collections their growth sets off would rescan them all, up to doubling the time.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()

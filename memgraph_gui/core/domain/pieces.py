"""Big containers a worker thread drops or scans, a slice at a time.

A C-level call holds the GIL until it returns: one that frees or hashes ~10^5 objects (dropping
a parsed 50k export, a ``set`` of 150k edge keys) holds it 10-40 ms, and a window whose worker
does so cannot paint meanwhile. Done a slice at a time, other threads get the GIL between the
slices. Pure; any thread.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")
SLICE = 5_000
"""Items per C-level call."""
STEP = 500
"""Items freed per step of ``releasing``: ~0.3-1 ms of a 50k graph's nodes or links."""


def slices(items: Sequence[T]) -> Iterator[Sequence[T]]:
    """``items`` as consecutive slices of ``SLICE`` (copies of the references only)."""
    for start in range(0, len(items), SLICE):
        yield items[start : start + SLICE]


def rows_of(index: Mapping[Any, int], keys: Sequence[Any]) -> np.ndarray:
    """``index[key]`` of each of ``keys`` (-1 where missing) as int32, a slice at a time (one
    call over 150k edge ends held the GIL ~50 ms)."""
    import numpy as np  # here: the CLI's light calls need no numpy

    parts = [
        np.fromiter(map(index.get, part, repeat(-1, len(part))), np.int32, len(part))
        for part in slices(keys)
    ]
    return joined(parts, np.int32)


def mapped(fn: Callable[[Any], T], items: Sequence[Any]) -> list[T]:
    """``list(map(fn, items))``, a slice at a time."""
    out: list[T] = []
    for part in slices(items):
        out.extend(map(fn, part))
    return out


def array_of(fn: Callable[[Any], Any], items: Sequence[Any], dtype: Any) -> np.ndarray:
    """``np.fromiter(map(fn, items), dtype)``, a slice at a time."""
    import numpy as np  # here: the CLI's light calls need no numpy

    parts = [np.fromiter(map(fn, part), dtype, len(part)) for part in slices(items)]
    return joined(parts, dtype)


def joined(parts: list[np.ndarray], dtype: Any) -> np.ndarray:
    """``parts`` as one array, copied in one call. Not a copy per part into an array made
    first: numpy gives the GIL away for each copy of over 500 items and takes it straight back,
    and a thread waiting for the GIL (the GUI thread) only asks the worker to hand it over
    after a whole switch interval in which nobody else took it; a loop that gives it away every
    0.2 ms starved the GUI thread for as long as the loop ran (20-30 ms over 150k edges)."""
    import numpy as np  # here: the CLI's light calls need no numpy

    if not parts:
        return np.empty(0, dtype)
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def index_of(items: Sequence[Hashable]) -> dict[Any, int]:
    """Each item's position (the last one of a repeat), a slice at a time."""
    index: dict[Any, int] = {}
    start = 0
    for part in slices(items):
        index.update(zip(part, range(start, start + len(part)), strict=True))
        start += len(part)
    return index


def column(items: Sequence[Sequence[T]], at: int) -> list[T]:
    """Item ``at`` of each of ``items`` (e.g. one end of every edge key), a slice at a time
    (``zip(*items)`` over 150k keys held the GIL ~30 ms)."""
    out: list[T] = []
    get = itemgetter(at)
    for part in slices(items):
        out.extend(map(get, part))
    return out


def release(items: list[Any] | dict[Any, Any] | set[Any]) -> None:
    """Empty ``items``, which nothing uses any more, a slice at a time: what only it holds is
    freed in many short calls instead of one call when its last reference goes."""
    if isinstance(items, list):
        while items:
            del items[-SLICE:]
        return
    pop = items.popitem if isinstance(items, dict) else items.pop
    for _ in range(len(items)):  # one item (and what only it holds) freed a step
        pop()


def releasing(items: list[Any] | dict[Any, Any] | set[Any], step: int = STEP) -> Iterator[None]:
    """Empty ``items``, which nothing uses any more, about ``step`` items (and what only they
    hold) at a time, yielding after each step: the caller decides when the next step runs. An
    item that is itself a big list, dict or set that nothing else holds (a cache of a whole
    graph) is emptied a step at a time too, not freed in one call."""
    pop: Callable[[], Any]
    if isinstance(items, dict):
        popitem = items.popitem
        pop = lambda: popitem()[1]  # noqa: E731  (the value; the key goes with the pair)
    else:
        pop = items.pop
    while items:
        for _ in range(min(step, len(items))):
            value = pop()
            if isinstance(value, (list, dict, set)) and len(value) > step and _alone(value):
                yield from releasing(value, step)
            del value
        yield


def _alone(value: Any) -> bool:
    """True when only the caller's variable holds ``value`` (and the argument)."""
    return sys.getrefcount(value) <= 3


def dismantling(parts: list[Any], patience: float = 30.0) -> Iterator[bool]:
    """Empty each of ``parts`` (lists, dicts, sets; None and empty ones are skipped) once
    nothing but this holds it, ``STEP`` items at a time: yields True after each step, False
    while every part left is still held elsewhere (a reader still using the graph they came
    from). A part nothing else holds cannot be reached again, so emptying it changes nothing
    anyone sees. After ``patience`` seconds of waiting it stops: what is left is freed where
    its last holder lets go of it. CPython reference counts tell who holds a part."""
    left = [part for part in parts if part]
    del parts
    since = time.monotonic()
    while left:
        alone = next((at for at in range(len(left)) if _only_here(left, at)), None)
        if alone is None:
            if time.monotonic() - since > patience:
                return
            yield False
            continue
        items = left.pop(alone)
        for _ in releasing(items):
            yield True
        del items
        since = time.monotonic()


def _only_here(parts: list[Any], at: int) -> bool:
    """True when only ``parts`` holds ``parts[at]`` (the list's reference and the argument)."""
    return sys.getrefcount(parts[at]) <= 2


def all_distinct(items: Sequence[T], key: Callable[[T], Hashable]) -> bool:
    """Whether ``key`` gives every item of ``items`` a different value (hashed a slice at a
    time, stopping at the first repeat)."""
    seen: set[Hashable] = set()
    count = 0
    for part in slices(items):
        seen.update(map(key, part))
        count += len(part)
        if len(seen) < count:
            break
    distinct = len(seen) == count == len(items)
    release(seen)  # keys made for the check (150k edge keys) are freed a slice at a time too
    return distinct

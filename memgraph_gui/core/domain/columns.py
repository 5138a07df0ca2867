"""Many frozen slot objects at once, built column by column rather than one ``__init__`` a row."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any, TypeVar

T = TypeVar("T")


def from_columns(cls: type[T], columns: Mapping[str, Sequence[Any]]) -> list[T]:
    """One ``cls`` per row of the equally long ``columns`` (slot name -> values, every slot).

    Each slot is filled through its descriptor in one C-level pass a column: ~0.1 µs a slot
    against ~1-2 µs a row for a frozen dataclass's ``__init__``. The values are taken as they
    are, so they must already have the types ``cls`` declares. ``ValueError`` when the columns
    differ in length or do not name exactly the slots of ``cls``.
    """
    slots = getattr(cls, "__slots__", ())
    if set(columns) != set(slots):
        raise ValueError(f"columns must be exactly {tuple(slots)}")
    n = len(next(iter(columns.values()), ()))
    for name, values in columns.items():
        if len(values) != n:
            raise ValueError(f"column {name} has {len(values)} values, not {n}")
    rows = list(map(object.__new__, repeat(cls, n)))
    drain: deque[None] = deque(maxlen=0)  # runs a C-level map for its effects
    for name, values in columns.items():
        drain.extend(map(getattr(cls, name).__set__, rows, values))
    return rows

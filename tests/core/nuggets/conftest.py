"""Shared fixtures of the Nuggets API tests: a private store and its ``n`` nugget."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.nuggets.api import NuggetsApi

STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


@pytest.fixture
def store() -> Iterator[MemoryStore]:
    with MemoryStore.open(":memory:") as opened:
        yield opened


@pytest.fixture
def nug(store: MemoryStore) -> NuggetsApi:
    return store.nuggets("n")


def steps(store: MemoryStore) -> list[str]:
    """The labels of the store's undo steps, oldest first."""
    return [step.label for step in reversed(store.history.steps(include_skipped=True))]


def state(store: MemoryStore) -> dict[str, Any]:
    """Every row of the graph tables (nodes with their fields, edges, meta)."""
    return store.dump()

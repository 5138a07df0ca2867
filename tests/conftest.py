"""Shared fixtures: stores built from the demo generator, sandboxed paths."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture
def store() -> Iterator[object]:
    """A fresh in-memory store with Luker's default schema."""
    from memgraph_gui.core import MemoryStore

    s = MemoryStore.open(":memory:")
    yield s
    s.close()


@pytest.fixture
def file_store(tmp_path: Path) -> Iterator[object]:
    """A fresh store in a temporary file."""
    from memgraph_gui.core import MemoryStore

    s = MemoryStore.open(tmp_path / "t.memgraph")
    yield s
    s.close()


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 600-node demo store built once per session (copy it with ``demo_store``)."""
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.demo.generator import load_demo

    path = tmp_path_factory.mktemp("demo") / "demo.memgraph"
    with MemoryStore.open(path) as s:
        load_demo(s, 600, 3)
    return path


@pytest.fixture(scope="session")
def compacted_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 600-node demo in the earlier uniform shape, built once per session: every event is
    rolled up as far as the compressor goes (no group is left for the wizard)."""
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.demo.generator import load_demo

    path = tmp_path_factory.mktemp("compacted") / "compacted.memgraph"
    with MemoryStore.open(path) as s:
        load_demo(s, 600, 3, shape="uniform")
    return path


@pytest.fixture
def demo_store(demo_template: Path, tmp_path: Path) -> Iterator[object]:
    """A private copy of the session's demo store."""
    import shutil

    from memgraph_gui.core import MemoryStore

    target = tmp_path / "demo.memgraph"
    shutil.copy(demo_template, target)
    s = MemoryStore.open(target)
    yield s
    s.close()

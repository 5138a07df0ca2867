"""The MCP server's tests drive it through the SDK's stdio client (pytest's anyio plugin)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def demo_copy(demo_template: Path, tmp_path: Path) -> Path:
    """A private copy of the 600-node demo store."""
    path = tmp_path / "demo.memgraph"
    shutil.copyfile(demo_template, path)
    return path

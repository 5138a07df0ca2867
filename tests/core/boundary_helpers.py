"""Helpers for the JSON-boundary tests: run the CLI (in process or as a real process) and
read its output the way a strict JSON reader would."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from memgraph_gui.cli import main
from memgraph_gui.core.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[2]


def strict(line: str) -> Any:
    """Parse like any other JSON reader would: NaN / Infinity are not JSON."""

    def refuse(token: str) -> Any:
        raise ValueError(f"non-standard JSON token {token}")

    return json.loads(line, parse_constant=refuse)


def run(path: Path, *argv: str, stdin: bytes | str = b"") -> tuple[int, list[Any]]:
    """``memgraph --db path ARGV`` in process; every output line parsed strictly."""
    out = io.StringIO()
    source = io.BytesIO(stdin) if isinstance(stdin, bytes) else io.StringIO(stdin)
    code = main(["--db", str(path), *argv], stdin=source, stdout=out)
    return code, [strict(line) for line in out.getvalue().splitlines()]


def run_process(path: Path, *argv: str | bytes, stdin: bytes = b"") -> subprocess.CompletedProcess:
    """The real ``memgraph`` executable (this worktree's code) as a subprocess."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "memgraph_gui.cli", "--db", str(path), *argv]
    return subprocess.run(command, input=stdin, capture_output=True, env=env, timeout=60)


def snapshot(path: Path) -> tuple[Any, ...]:
    """Everything a refused call must leave alone: tables, undo steps, change-log batches."""
    with MemoryStore.open(path, create=False) as store:
        batches = store.storage.execute_read("SELECT count(*) FROM batches")[0][0]
        changes = store.storage.execute_read("SELECT count(*) FROM changes")[0][0]
        steps = [step.to_json() for step in store.history.steps()]
        return store.dump(), steps, batches, changes


def make_db(folder: Path) -> Path:
    """A store file with two characters and an event (so ids n_1..n_3 exist)."""
    path = folder / "b.memgraph"
    with MemoryStore.open(path) as store:
        write = store.write_api()
        for title in ("Ann", "Bob"):
            write.create_node(type="character_sheet", title=title)
        write.create_node(type="event", fields={"summary": "met"})
    return path


def error_of(code: int, lines: list[Any], expected: str = "BAD_ARGS") -> str:
    assert code == 1
    assert len(lines) == 1, lines
    assert lines[0]["error"]["code"] == expected, lines
    return str(lines[0]["error"]["message"])

"""Helpers for tests that run real second processes against one store file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run_python(script: str, *args: str, **popen) -> subprocess.Popen:
    """Start ``python -c script args...`` in the repository root (stdout/stderr piped, text)."""
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


def memgraph(*args: str, prefix: list[str] | None = None, **run) -> subprocess.CompletedProcess:
    """Run the ``memgraph`` CLI in a fresh interpreter."""
    return subprocess.run(
        [*(prefix or []), sys.executable, "-m", "memgraph_gui.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        **run,
    )


def call_result(db: Path, *args: str) -> Any:
    """``memgraph --db DB ARGS…`` in a fresh interpreter that must succeed; its ``result``."""
    done = memgraph("--db", str(db), *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["result"]


def without_file_override() -> list[str] | None:
    """A command prefix under which file permission bits bind this process, or None.

    Root ignores permission bits; ``setpriv`` drops the capabilities that let it, so a read-only
    file is read-only for the child too. Other users need no prefix.
    """
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        return None
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def read_only_folder(folder: Path) -> list[str] | None:
    """A command prefix that runs the child with ``folder`` mounted read-only, or None.

    As root this is a private mount namespace with a read-only bind mount of ``folder`` (only
    the child sees it); other users get ``chmod 555`` on the folder (undone by the caller).
    """
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return []
    if shutil.which("unshare") is None:
        return None
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", f"mount --bind -o ro '{folder}' '{folder}'"],
        capture_output=True,
    )
    if probe.returncode != 0:
        return None
    mount = f"mount --bind -o ro '{folder}' '{folder}' && exec \"$0\" \"$@\""
    return ["unshare", "-m", "sh", "-c", mount]

"""The window's child processes: ``memgraph`` commands it runs beside itself (a whole embedding,
the kept picture) at a lower CPU priority, so that on a busy machine its frames come first, and
without sharing its GIL (a worker thread's Python held a 200k window's paints back by up to
~0.7 s)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from memgraph_gui.app.qt import QProcessEnvironment

ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding ``memgraph_gui``
NICENESS = 10
CHILD = (
    "import os, sys\n"
    f"if hasattr(os, 'nice'): os.nice({NICENESS})\n"
    "from memgraph_gui.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)
"""A child: ``memgraph ARGS`` (``python -m memgraph_gui.cli ARGS``) at a lower CPU priority."""


def child_command(*arguments: str) -> tuple[str, list[str]]:
    """The program and arguments of a child running ``memgraph ARGUMENTS``: this Python running
    ``CHILD``; in the packaged app (no Python beside it) the ``memgraph`` program it ships next
    to ``memgraph-gui``."""
    if getattr(sys, "frozen", False):
        name = "memgraph.exe" if os.name == "nt" else "memgraph"
        return str(Path(sys.executable).with_name(name)), list(arguments)
    return sys.executable, ["-c", CHILD, *arguments]


def child_environment() -> QProcessEnvironment:
    """This process's environment, with the folder holding ``memgraph_gui`` first on the
    child's ``PYTHONPATH``."""
    env = QProcessEnvironment.systemEnvironment()
    path = env.value("PYTHONPATH", "")
    env.insert("PYTHONPATH", ROOT + (os.pathsep + path if path else ""))
    return env

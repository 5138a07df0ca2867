"""Opening stores for the GUI: the bundled demo, and clear messages for files that won't open."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from memgraph_gui.app.qt import QMessageBox, tr
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.memory import MemoryStore

DEMO_NODES = 2_000
DEMO_VERSION = 2  # bump when the generator changes, so a stale cached demo is rebuilt


def demo_path() -> Path:
    """Where the bundled demo memory lives (the platform's user data folder)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("memgraph-gui", appauthor=False)) / f"demo-v{DEMO_VERSION}.memgraph"


def open_demo() -> MemoryStore:
    """Open the demo store, generating it on first use."""
    path = demo_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    store = MemoryStore.open(path)
    if not store.graph.nodes:
        from memgraph_gui.core.demo.generator import load_demo

        load_demo(store, DEMO_NODES, seed=1)
    return store


def open_store_or_explain(
    path: str, parent: Any | None, *, quiet: bool = False
) -> MemoryStore | None:
    """Open ``path``; on failure tell the user why (dialog, or stderr when ``quiet``)."""
    try:
        return MemoryStore.open(path, create=False)
    except MemgraphError as exc:
        message = (
            tr("There is no memory store at {path}.")
            if exc.code == "MEMORY_STORE_MISSING"
            else tr(
                "{path} could not be opened: it is not a memgraph store or it is "
                "damaged.\n\n{detail}"
            )
        ).format(path=path, detail=exc.message)
        if quiet:
            print(f"memgraph-gui: {message}", file=sys.stderr)
        else:
            QMessageBox.critical(parent, tr("Cannot open memory"), message)
        return None

"""Opening stores for the GUI: the bundled demo, and what to tell the user when a file won't open.

No widgets here: a failure is described as an ``OpenProblem`` (a title and a plain-text message
per error code); ``views`` decides how to show it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memgraph_gui.app.qt import tr
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.memory import MemoryStore

DEMO_NODES = 2_000
DEMO_VERSION = 4  # bump when the generator changes, so a stale cached demo is rebuilt


@dataclass(frozen=True, slots=True)
class OpenProblem:
    """Why a store could not be opened (or opened only for reading): for a dialog."""

    code: str
    title: str
    message: str
    fatal: bool = True


def _titles() -> dict[str, str]:
    return {
        "MEMORY_STORE_MISSING": tr("Memory not found"),
        "NOT_A_STORE": tr("Not a memory store"),
        "STORE_FOREIGN": tr("Another program's database"),
        "STORE_DAMAGED": tr("The memory store is damaged"),
        "STORE_TOO_NEW": tr("Made by a newer memgraph"),
        "STORE_BUSY": tr("The memory store is busy"),
        "STORE_READ_ONLY": tr("Read-only memory store"),
        "STORE_FOLDER_READ_ONLY": tr("Read-only folder"),
        "STORE_FULL": tr("The disk is full"),
    }


def describe(path: str, error: MemgraphError) -> OpenProblem:
    """The dialog text for ``error`` met while opening ``path``."""
    title = _titles().get(error.code, tr("Cannot open memory"))
    detail = error.message[:1].upper() + error.message[1:]
    message = tr("{path} could not be opened.\n\n{detail}.").format(
        path=path, detail=detail.rstrip(".")
    )
    backup = Path(path).with_name(Path(path).name + ".bak")
    if error.code == "STORE_DAMAGED" and backup.exists():
        message += "\n\n" + tr("A copy made before the last import is at {backup}.").format(
            backup=backup
        )
    return OpenProblem(error.code, title, message)


def try_open(path: str) -> tuple[MemoryStore | None, OpenProblem | None]:
    """Open an existing store: ``(store, None)``, ``(store, notice)`` for a read-only one, or
    ``(None, problem)``. Never raises for a file that cannot be used."""
    try:
        store = MemoryStore.open(path, create=False)
    except MemgraphError as exc:
        return None, describe(path, exc)
    return store, read_only_notice(store)


def read_only_notice(store: MemoryStore) -> OpenProblem | None:
    """A non-fatal notice when ``store`` opened for reading only, else None."""
    if not store.read_only:
        return None
    code = "STORE_FOLDER_READ_ONLY" if store.read_only == "folder" else "STORE_READ_ONLY"
    detail = (
        tr(
            "Its folder is read-only, so it was opened for reading only. Copy it to a writable "
            "folder to edit it."
        )
        if code == "STORE_FOLDER_READ_ONLY"
        else tr(
            "The file is read-only, so it was opened for reading only. Make it writable "
            "(or save a copy) to edit it."
        )
    )
    return OpenProblem(code, _titles()[code], f"{store.path}\n\n{detail}", fatal=False)


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

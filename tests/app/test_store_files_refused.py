"""The window never reads or writes the open store's own files outside SQLite.

Picking the open store (or its ``-wal``) as the file to import made the window read it with
``read_bytes``; closing that descriptor dropped the window's SQLite locks on it, and the next
process to open the store deleted ``-wal``/``-shm`` under the window. Exporting onto the store's
own file would have replaced the store with JSON. Both are refused after a ``stat``, nothing
opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.core.processes import call_result


@pytest.fixture
def shared_store(qapp: Any, tmp_path: Path) -> Any:
    """An AppModel over a store another process has written (so ``-wal`` exists)."""
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    store = tmp_path / "b.memgraph"
    app = AppModel(MemoryStore.open(store))
    call_result(store, "call", "createNode", '[{"type": "character_sheet", "title": "A"}]')
    assert Path(str(store) + "-wal").exists()
    yield app, store
    app.close()


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_importing_the_open_stores_own_file_is_refused_unread(
    qtbot: Any, shared_store: Any, suffix: str
) -> None:
    from memgraph_gui.app import files

    app, store = shared_store
    wal = Path(str(store) + "-wal")
    inode = wal.stat().st_ino
    outcome: list[Any] = []
    checker = files.ImportChecker()
    checker.check(
        app,
        str(store) + suffix,
        on_progress=lambda *_: None,
        on_done=outcome.append,
        on_error=outcome.append,
    )
    qtbot.waitUntil(lambda: bool(outcome), timeout=10_000)
    call_result(store, "call", "getCurrentlyInjectedNodeIds", "[]")  # a second process reads
    assert wal.exists() and wal.stat().st_ino == inode
    assert getattr(outcome[0], "code", None) == "BAD_ARGS"
    assert "open memory store" in str(outcome[0])


def test_exporting_onto_the_open_stores_file_is_refused(qtbot: Any, shared_store: Any) -> None:
    from memgraph_gui.app import files

    app, store = shared_store
    outcome: list[Any] = []
    files.export_luker(app, str(store), on_done=outcome.append, on_error=outcome.append)
    qtbot.waitUntil(lambda: bool(outcome), timeout=10_000)
    assert getattr(outcome[0], "code", None) == "BAD_ARGS"
    assert [n["title"] for n in call_result(store, "call", "listNodes", "[]")] == ["A"]
    assert Path(str(store) + "-wal").exists()


def test_exporting_to_a_new_file_beside_the_store_still_works(
    qtbot: Any, shared_store: Any
) -> None:
    from memgraph_gui.app import files

    app, store = shared_store
    target = store.with_suffix(".json")
    outcome: list[Any] = []
    files.export_luker(app, str(target), on_done=outcome.append, on_error=outcome.append)
    qtbot.waitUntil(lambda: bool(outcome), timeout=10_000)
    assert outcome == [str(target.resolve())]
    assert "A" in target.read_text(encoding="utf-8")

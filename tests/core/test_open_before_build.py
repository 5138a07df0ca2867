"""``Store.open(before_build=)``: the hook an app lets go of its open store in. It runs once the
file is checked and before any of its rows are read into Python objects; a file that fails a
check never reaches it; what it raises ends the open."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.storage import rows


def _file(tmp_path: Path) -> Path:
    """Two nodes with a saved layout (so an open has a picture to preview)."""
    path = tmp_path / "a.memgraph"
    with MemoryStore.open(path) as store:
        for title in ("One", "Two"):
            store.write_api().create_node(type="location_state", title=title)
        ids = store.layout_input().ids
        store.save_positions(ids, np.zeros((len(ids), 2)))
    return path


def test_the_hook_runs_after_the_checks_and_before_the_rows_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _file(tmp_path)
    order: list[str] = []
    real_check, real_read = rows.check_rows, rows.read_tables

    def check(conn: Any) -> None:
        order.append("check")
        real_check(conn)

    def read(conn: Any) -> Any:
        order.append("read rows")
        return real_read(conn)

    monkeypatch.setattr(rows, "check_rows", check)
    monkeypatch.setattr(rows, "read_tables", read)
    store = MemoryStore.open(
        path,
        create=False,
        before_build=lambda: order.append("before build"),
        on_preview=lambda _p, _stamp: order.append("preview"),
    )
    with store:
        assert order == ["check", "before build", "read rows", "preview"]
        assert {n.title for n in store.graph.nodes.values()} == {"One", "Two"}


@pytest.mark.parametrize(
    ("named", "sql"),
    [
        ("node n_2", "UPDATE nodes SET fields = '{broken' WHERE title = 'Two'"),
        ("meta schema", "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema', '[broken')"),
    ],
)
def test_a_damaged_file_never_reaches_the_hook(tmp_path: Path, named: str, sql: str) -> None:
    path = _file(tmp_path)
    with sqlite3.connect(path) as raw:
        raw.execute(sql)
    called: list[bool] = []
    with pytest.raises(MemgraphError) as caught:
        MemoryStore.open(path, create=False, before_build=lambda: called.append(True))
    assert caught.value.code == "STORE_DAMAGED" and named in caught.value.message
    assert called == []


def test_what_the_hook_raises_ends_the_open_and_closes_the_file(tmp_path: Path) -> None:
    path = _file(tmp_path)

    class Stop(Exception):
        pass

    def stop() -> None:
        raise Stop

    with pytest.raises(Stop):
        MemoryStore.open(path, create=False, before_build=stop)
    with sqlite3.connect(path, timeout=0) as raw:  # nobody holds the file
        raw.execute("BEGIN EXCLUSIVE")
        raw.execute("ROLLBACK")

"""A window's store has a watcher thread: its GUI thread's reads (``leave_to_watcher``) then
never call SQLite to catch up (each call gave the GIL away, and a GUI thread waited 10-40 ms to
get it back from a worker building a 50k graph), yet other processes' commits reach them
through the watcher; every other read (an export, a snapshot) still catches up at once; the
watcher's idle polls take no store lock."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.storage import changelog
from tests.core.processes import run_python

WRITE = """
    import sys
    from memgraph_gui.core import MemoryStore
    with MemoryStore.open(sys.argv[1], origin="agent") as store:
        store.write_api().create_node(type="location_state", title="From the agent")
    print("done", flush=True)
"""


def data_version_callers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the threads that ask SQLite for the data version from now on."""
    seen: list[str] = []
    real = changelog.data_version

    def counted(conn: Any) -> int:
        seen.append(threading.current_thread().name)
        return real(conn)

    monkeypatch.setattr(changelog, "data_version", counted)
    return seen


def test_reads_left_to_a_watcher_do_not_call_sqlite_and_still_see_other_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "w.memgraph"
    with MemoryStore.open(path) as store:
        store.write_api().create_node(type="location_state", title="Mine")
        store.start_watcher(interval=0.02)
        seen = data_version_callers(monkeypatch)
        for _ in range(50):
            with store.reading(leave_to_watcher=True) as graph:
                assert len(graph.nodes) == 1
        assert threading.current_thread().name not in seen  # only the watcher polled
        child = run_python(WRITE, str(path))
        out, err = child.communicate(timeout=60)
        assert "done" in out
        assert child.returncode == 0, err
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the watcher's catch-up reaches this reader
            with store.reading(leave_to_watcher=True) as graph:
                titles = {node.title for node in graph.nodes.values()}
            if "From the agent" in titles:
                break
            time.sleep(0.02)
        assert titles == {"Mine", "From the agent"}
        assert threading.current_thread().name not in seen


@pytest.mark.parametrize("watched", [False, True])
def test_other_reads_catch_up_themselves_at_once(tmp_path: Path, watched: bool) -> None:
    """Without a watcher, or beside one (an export, a snapshot on a worker): caught up when
    read, even right after another process's commit."""
    path = tmp_path / "n.memgraph"
    with MemoryStore.open(path) as store:
        store.write_api().create_node(type="location_state", title="Mine")
        if watched:
            store.start_watcher(interval=5.0)  # its first poll comes long after this read
        child = run_python(WRITE, str(path))
        out, err = child.communicate(timeout=60)
        assert "done" in out
        assert child.returncode == 0, err
        with store.reading() as graph:  # this read catches up itself, at once
            assert {n.title for n in graph.nodes.values()} == {"Mine", "From the agent"}


def test_an_idle_watcher_poll_takes_no_store_lock(tmp_path: Path) -> None:
    """Nothing committed since the last catch-up: the watcher's poll leaves the lock alone,
    so a thread holding it (a writer, a snapshot) holds up no poll, and no read waits for one."""
    with MemoryStore.open(tmp_path / "i.memgraph") as store:
        store.write_api().create_node(type="location_state", title="Mine")
        store.sync()
        storage = store.storage
        held, polled = threading.Event(), []

        def hold() -> None:
            with storage.lock:
                held.set()
                time.sleep(0.5)

        holder = threading.Thread(target=hold)
        holder.start()
        held.wait()
        began = time.monotonic()
        polled.append(storage.maybe_changed())
        took = time.monotonic() - began
        holder.join()
        assert polled == [False] and took < 0.25
        store.write_api().create_node(type="location_state", title="Another")
        assert storage.maybe_changed()  # a commit since: a sync may find something
        store.sync()
        assert not storage.maybe_changed()

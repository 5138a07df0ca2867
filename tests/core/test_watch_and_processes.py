"""Several processes on one store file: live notification, no lost updates, kill -9 safety."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memgraph_gui.core import MemoryStore
from tests.core.processes import ROOT, run_python


def count_nodes(path: Path, type_: str | None = None) -> int:
    with MemoryStore.open(path, create=False) as s:
        return len(
            [
                n
                for n in s.read_api().list_nodes(active_only=False)
                if type_ is None or n.type == type_
            ]
        )


def test_external_write_reaches_the_subscriber_fast(file_store):
    first = file_store.write_api().create_node(type="character_sheet", title="Eileen")["id"]
    seen: list[tuple[float, object]] = []
    arrived = threading.Event()

    def on_change(changes):
        seen.append((time.time(), changes))
        if changes.external and changes.nodes_added:
            arrived.set()

    file_store.subscribe(on_change)
    file_store.start_watcher()
    args = json.dumps([{"type": "character_sheet", "title": "Kain", "fields": {"aliases": "凯恩"}}])
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "memgraph_gui.cli",
            "--db",
            file_store.path,
            "call",
            "createNode",
            args,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    finished = time.time()
    assert proc.returncode == 0, proc.stderr
    new_id = json.loads(proc.stdout)["result"]["id"]
    assert new_id != first
    assert arrived.wait(2.0), f"no external ChangeSet within 2 s of the writer exiting: {seen}"
    when, changes = next((t, c) for t, c in seen if c.external and c.nodes_added)
    assert changes.nodes_added == {new_id} and changes.op == "create_node"
    assert changes.origin != file_store.origin and changes.batch_id > 0
    committed_at = file_store.storage.execute_read(
        "SELECT ts FROM batches WHERE id=?", (changes.batch_id,)
    )[0][0]
    latency = when - committed_at
    assert latency < 1.0, f"external change arrived {latency:.3f} s after its commit"
    assert when - finished < 2.0
    assert file_store.read_api().get_node(new_id).title == "Kain"
    assert all(c.external for _, c in seen)  # our own earlier write was not replayed


WRITER = """
    import sys, time
    from memgraph_gui.core import MemoryStore
    path, prefix, start_at = sys.argv[1], sys.argv[2], float(sys.argv[3])
    with MemoryStore.open(path) as store:
        api = store.write_api()
        time.sleep(max(0.0, start_at - time.time()))
        for i in range(50):
            api.create_node(type="character_sheet", title=f"{prefix} {i}")
    print("done")
"""


def test_two_writers_lose_no_update(file_store):
    path = file_store.path
    added: set[str] = set()
    file_store.subscribe(lambda c: added.update(c.nodes_added) if c.external else None)
    file_store.start_watcher()
    start_at = str(time.time() + 1.5)  # both begin together, after their imports
    procs = [run_python(WRITER, path, prefix, start_at) for prefix in ("left", "right")]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and out.strip() == "done", err
    assert count_nodes(Path(path)) == 100
    with MemoryStore.open(path) as again:
        titles = {n.title for n in again.read_api().list_nodes()}
        assert titles == {f"{p} {i}" for p in ("left", "right") for i in range(50)}
        assert again.history.depth() == (100, 0)
    deadline = time.time() + 2.0
    while len(added) < 100 and time.time() < deadline:
        time.sleep(0.02)
    assert len(added) == 100 and len(file_store.graph.nodes) == 100


KILLED = """
    import sys
    from memgraph_gui.core import MemoryStore
    store = MemoryStore.open(sys.argv[1])
    ops = [{"op": "create", "type": "character_sheet", "title": f"Victim {i}",
            "fields": {"traits": "x" * 200}} for i in range(2000)]
    print("start", flush=True)
    store.write_api().apply_extraction_batch(ops=ops)
    print("committed", flush=True)
    sys.stdin.read()  # stay alive until killed
"""


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.15, 0.3, 0.6])
def test_kill_9_mid_batch_leaves_none_or_all(file_store, delay):
    path = file_store.path
    w = file_store.write_api()
    for title in ("Eileen", "Kain", "Lina"):
        w.create_node(type="character_sheet", title=title)
    before = file_store.dump()
    file_store.close()
    proc = run_python(KILLED, path, stdin=subprocess.PIPE)
    assert proc.stdout.readline().strip() == "start", proc.stderr.read()
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with MemoryStore.open(path, create=False) as after:
        victims = [n for n in after.read_api().list_nodes() if n.title.startswith("Victim")]
        assert len(victims) in (0, 2000)
        if delay == 0.0:  # killed while the ~0.4 s batch had only just begun
            assert not victims
        if not victims:
            assert after.dump() == before and after.history.depth() == (3, 0)
        else:
            assert after.history.depth() == (4, 0)
            assert {n.id for n in victims} == {f"n_{i}" for i in range(4, 2004)}
        after.write_api().create_node(type="character_sheet", title="Survivor")  # not locked
    assert count_nodes(Path(path)) in (4, 2004)

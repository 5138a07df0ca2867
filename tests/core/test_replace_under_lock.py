"""Backups and imports under the write lock: a batch another process commits at the worst moment
(waiting on the lock while a store is replaced) ends up in the new store or in ``NAME.bak``,
never in neither; an import into an "empty" store never overwrites a node that just landed.
And a replacement does not hold up readers: they get the old graph until it commits."""

from __future__ import annotations

import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.luker import interop
from memgraph_gui.core.storage import store as store_module
from memgraph_gui.core.storage.backup import backup_path
from tests.core.processes import run_python

ONE_WRITE = """
    import sys
    from memgraph_gui.core import MemoryStore
    with MemoryStore.open(sys.argv[1]) as store:
        api = store.write_api()
        print("ready", flush=True)
        sys.stdin.readline()  # "go"
        node = api.create_node(type="character_sheet", title="Late")
        print(node["id"], flush=True)
"""

MANY_WRITES = """
    import sys, threading
    from memgraph_gui.core import MemoryStore
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    with MemoryStore.open(sys.argv[1]) as store:
        api = store.write_api()
        print("ready", flush=True)
        i = 0
        while not stop.is_set():
            api.create_node(type="character_sheet", title=f"Agent {i}")
            print(f"Agent {i}", flush=True)  # only once its commit returned
            i += 1
"""


def _nodes(count: int, prefix: str) -> list[Node]:
    return [
        Node(id=f"{prefix}{i}", type="character_sheet", level="entity", title=f"{prefix} {i}")
        for i in range(count)
    ]


def _titles(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {row[0] for row in conn.execute("SELECT title FROM nodes")}
    finally:
        conn.close()


def _started(script: str, path: Path) -> subprocess.Popen:
    child = run_python(script, str(path), stdin=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    return child


def _schema(store: MemoryStore) -> object:
    return store.graph.meta["schema"]


def test_a_batch_waiting_on_the_lock_is_in_the_new_store_or_the_backup(tmp_path, monkeypatch):
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as store:
        store.replace_all(_nodes(500, "old"), [], {"schema": _schema(store)}, backup=False)
        child = _started(ONE_WRITE, path)
        copy = store_module.keep_backup
        landed: list[str] = []

        def copy_then_let_the_agent_write(*args: object) -> None:
            copy(*args)  # type: ignore[arg-type]
            assert child.stdin is not None and child.stdout is not None
            child.stdin.write("go\n")
            child.stdin.flush()
            # the agent's commit waits for our write lock: give it every chance to land now
            try:
                out, _ = child.communicate(timeout=1.0)
                landed.append(out.strip())
            except subprocess.TimeoutExpired:
                pass

        monkeypatch.setattr(store_module, "keep_backup", copy_then_let_the_agent_write)
        store.replace_all(_nodes(300, "new"), [], {"schema": _schema(store)})
        _out, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        assert not landed, "the agent committed while the store was being replaced"
        assert "Late" in _titles(path) | _titles(backup_path(str(path)))
        assert "Late" in {n.title for n in store.graph.nodes.values()}


def test_an_import_into_an_empty_store_never_overwrites_a_node_that_just_landed(
    tmp_path, monkeypatch
):
    path = tmp_path / "s.memgraph"
    doc = interop.export_luker(MemoryStore.open(":memory:").storage)
    doc["nodes"] = {
        "imp1": {"id": "imp1", "type": "event", "level": "event", "title": "Imported", "fields": {}}
    }
    prepared = interop.prepare_import(doc)
    with MemoryStore.open(path) as store:
        child = _started(ONE_WRITE, path)
        replace = store_module.Store.replace_all

        def agent_writes_first(self, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
            child.communicate(timeout=60)  # its node committed, after the emptiness was checked
            return replace(self, *args, **kwargs)

        monkeypatch.setattr(store_module.Store, "replace_all", agent_writes_first)
        with pytest.raises(MemgraphError) as refused:
            interop.install_import(store.storage, prepared)
        assert refused.value.code == "STORE_NOT_EMPTY"
        assert "1 nodes" in str(refused.value)
        assert _titles(path) == {"Late"} and not backup_path(str(path)).exists()


@pytest.mark.parametrize("round_", range(3))
def test_replacing_while_an_agent_commits_non_stop_loses_nothing(tmp_path, round_):
    """Many replacements while another process commits batch after batch: every batch it saw
    committed is in the final store or in one of the ``.bak`` copies taken on the way."""
    path = tmp_path / "s.memgraph"
    kept: set[str] = set()
    with MemoryStore.open(path) as store:
        schema = _schema(store)
        store.replace_all(_nodes(1500, "seed"), [], {"schema": schema}, backup=False)
        child = _started(MANY_WRITES, path)
        try:
            for i in range(8):
                store.replace_all(_nodes(1500, f"r{round_}-{i}-"), [], {"schema": schema})
                kept |= _titles(backup_path(str(path)))
        finally:
            out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    committed = set(out.split("\n")) - {""}
    assert committed, "the agent committed nothing"
    lost = committed - kept - _titles(path)
    assert not lost, f"{len(lost)} committed batch(es) in neither the store nor a .bak"


def test_reads_during_a_replacement_are_served_at_once_from_the_old_graph(tmp_path, monkeypatch):
    """A replacement slowed to take a second more (as a big import on a busy machine): reads
    meanwhile get the old graph at once, never a half-loaded one (they waited it out before)."""
    path = tmp_path / "s.memgraph"
    load = store_module.bulk_load

    def slow_load(*args: object, **kwargs: object) -> object:
        graph = load(*args, **kwargs)  # type: ignore[arg-type]
        time.sleep(1.0)
        return graph

    with MemoryStore.open(path) as store:
        schema = _schema(store)
        store.replace_all(_nodes(2_000, "old"), [], {"schema": schema}, backup=False)
        monkeypatch.setattr(store_module, "bulk_load", slow_load)
        replacing, reads = threading.Event(), []
        progress: list[tuple[int, int]] = []

        def reader() -> None:
            while not replacing.is_set():
                time.sleep(0.001)
            while replacing.is_set():
                began = time.perf_counter()
                with store.reading() as graph:
                    count = len(graph.nodes)
                reads.append((time.perf_counter() - began, count, bool(progress)))
                time.sleep(0.002)

        thread = threading.Thread(target=reader)
        thread.start()
        replacing.set()
        try:
            store.replace_all(
                _nodes(20_000, "new"),
                [],
                {"schema": schema},
                progress=lambda *p: progress.append(p),
            )
        finally:
            replacing.clear()
            thread.join()
        during = [r for r in reads if r[2]]  # after the load had written its first rows
        assert len(during) >= 5, reads
        assert {count for _, count, _ in reads} <= {2_000, 20_000}  # never a half batch
        assert 2_000 in {count for _, count, _ in during}  # the old graph, while it loads
        assert max(latency for latency, _, _ in reads) < 0.5, sorted(reads)[-3:]
        assert progress[-1][0] == progress[-1][1] and len(progress) > 2
        assert len(store.graph.nodes) == 20_000


def test_a_long_batch_is_never_seen_half_and_its_rows_are_written_without_the_lock(
    tmp_path, monkeypatch
):
    """While a big batch's rows are written and committed, readers get the graph as it was
    (then the whole batch), and do not wait for the writing."""
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as store:
        api = store.write_api()
        api.create_node(type="character_sheet", title="First")
        writing = threading.Event()
        write_batch = store_module.changelog.write_batch

        def slow_write_batch(*args: object, **kwargs: object) -> int:
            writing.set()
            result = write_batch(*args, **kwargs)  # type: ignore[arg-type]
            time.sleep(0.5)  # a long write, as 3,000 rows on a slow disk
            return result

        monkeypatch.setattr(store_module.changelog, "write_batch", slow_write_batch)
        ops = [{"op": "create", "type": "character_sheet", "title": f"V{i}"} for i in range(300)]
        batch = threading.Thread(target=lambda: api.apply_extraction_batch(ops=ops))
        batch.start()
        assert writing.wait(10)
        reads = []
        while batch.is_alive():
            began = time.perf_counter()
            with store.reading() as graph:
                reads.append((time.perf_counter() - began, len(graph.nodes)))
            time.sleep(0.005)
        batch.join()
        assert {count for _, count in reads} <= {1, 301} and 1 in {c for _, c in reads}
        assert max(latency for latency, _ in reads) < 0.3, max(reads)  # the write sleeps 0.5 s
        assert len(store.graph.nodes) == 301


def test_a_replaced_graph_is_ordered_and_its_links_indexed_before_any_reader(tmp_path):
    """Before, the first reader of a new graph sorted its ids and walked its edges (~0.1 s each
    at 50k): in the window that was the GUI thread, right after an import."""
    from memgraph_gui.core.domain.model import Edge

    with MemoryStore.open(tmp_path / "s.memgraph", create=True) as store:
        nodes = [Node(f"n_{i}", "character_sheet", title=f"N{i}", seq_to=i % 7) for i in range(50)]
        edges = [Edge(f"n_{i}", f"n_{i + 1}", "related") for i in range(49)]
        store.replace_all(nodes, edges, {}, backup=False)
        graph = store.peek_graph
        assert graph.edges_indexed and graph._timeline is not None  # built by the load
        seqs = [graph.nodes[i].seq_to for i in graph.timeline_ids()]
        assert seqs == sorted(seqs) and set(graph.timeline_ids()) == set(graph.nodes)

"""No lost or overwritten update across processes: snapshot open, watcher retries, whole batches,
ordered delivery, ids never reused, undo never dangling, concurrent creation, locks."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.storage import changelog, rows
from memgraph_gui.core.storage.migrations import SCHEMA_VERSION
from tests.core.processes import memgraph, run_python

CREATE = """
import sys
from memgraph_gui.core import MemoryStore
with MemoryStore.open(sys.argv[1]) as s:
    print(s.write_api().create_node(type="character_sheet", title=sys.argv[2])["id"])
"""


def create_in_other_process(path: Path, title: str) -> str:
    proc = run_python(CREATE, str(path), title)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return out.strip()


def titles(store: MemoryStore) -> dict[str, str]:
    return {n.id: n.title for n in store.read_api().list_nodes(active_only=False)}


# -- one snapshot at open ------------------------------------------------------------------------
def test_a_commit_between_graph_load_and_bookkeeping_is_applied_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.memgraph"
    MemoryStore.open(path).close()
    real = rows.build_graph

    def load_then_let_another_process_commit(tables: Any) -> Any:
        graph = real(tables)
        monkeypatch.setattr(rows, "build_graph", real)
        assert create_in_other_process(path, "Kain") == "n_1"  # lands right here
        return graph

    monkeypatch.setattr(rows, "build_graph", load_then_let_another_process_commit)
    with MemoryStore.open(path) as store:
        mine = store.write_api().create_node(type="character_sheet", title="Eileen")["id"]
        assert mine == "n_2"
        assert titles(store) == {"n_1": "Kain", "n_2": "Eileen"}
    with MemoryStore.open(path) as reopened:
        assert titles(reopened) == {"n_1": "Kain", "n_2": "Eileen"}


# -- the watcher ---------------------------------------------------------------------------------
def test_a_failed_catch_up_is_retried_not_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as store:
        create_in_other_process(path, "Kain")
        real = changelog.read_batches

        def fail_once(*args: Any) -> Any:
            monkeypatch.setattr(changelog, "read_batches", real)
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(changelog, "read_batches", fail_once)
        with pytest.raises(MemgraphError):
            store.sync()
        assert not store.storage._graph.nodes  # nothing half-applied, nothing recorded
        retried = store.sync()
        assert [c.nodes_added for c in retried] == [frozenset({"n_1"})]
        assert titles(store) == {"n_1": "Kain"}


def test_a_damaged_log_row_reloads_the_whole_batch_instead_of_half(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as store:
        seen: list[Any] = []
        store.subscribe(seen.append)
        proc = run_python(
            """
            import sys
            from memgraph_gui.core import MemoryStore
            with MemoryStore.open(sys.argv[1]) as s:
                ops = [{"op": "create", "type": "character_sheet", "title": t} for t in "ABC"]
                s.write_api().apply_extraction_batch(ops=ops)
            """,
            str(path),
        )
        assert proc.wait(timeout=60) == 0
        with sqlite3.connect(path) as raw:  # damage the middle row of that batch's log
            raw.execute("UPDATE changes SET after = '{broken' WHERE kind = 'node' AND key = 'n_2'")
        store.sync()
        assert sorted(titles(store).values()) == ["A", "B", "C"]
        assert seen and seen[-1].reloaded


def test_subscribers_get_changesets_in_commit_order_from_every_thread(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    store = MemoryStore.open(path)
    batches: list[int] = []
    store.subscribe(lambda c: batches.append(c.batch_id))
    store.start_watcher(interval=0.001)
    agent = run_python(
        """
        import sys
        from memgraph_gui.core import MemoryStore
        with MemoryStore.open(sys.argv[1]) as s:
            for i in range(60):
                s.write_api().create_node(type="location_state", title=f"L{i}")
        """,
        str(path),
    )
    done = threading.Event()

    def write_here() -> None:
        for i in range(60):
            store.write_api().create_node(type="character_sheet", title=f"C{i}")
        done.set()

    writer = threading.Thread(target=write_here)
    writer.start()
    while not done.is_set() or agent.poll() is None:
        store.read_api().list_nodes()  # readers catch up (and deliver) too
    writer.join()
    assert agent.wait(timeout=60) == 0
    time.sleep(0.2)
    store.sync()
    store.close()
    ids = [b for b in batches if b]
    assert len(ids) == 120 and ids == sorted(ids)


# -- ids -----------------------------------------------------------------------------------------
def test_node_ids_are_never_reused_after_undo(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as store:
        write = store.write_api()
        old = write.create_node(type="character_sheet", title="Eileen")["id"]
        write.set_injection_state({"alwaysInjectIds": [old]})
        store.history.undo()  # the injection step is not an undo step: this undoes the create
        assert old not in store.graph.nodes
        again = write.create_node(type="character_sheet", title="Kain")["id"]
        other = create_in_other_process(path, "Lina")
        assert len({old, again, other}) == 3
        assert old not in store.graph.nodes  # the injection's old id reaches no other node
        assert store.read_api().get_injection_state().always_inject_ids == {old}


# -- undo keeps the invariants ---------------------------------------------------------------------
def test_undoing_a_create_that_gained_links_elsewhere_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as store:
        base = store.write_api().create_node(type="character_sheet", title="Eileen")["id"]
        window = store.write_api(origin="window")
        fresh = window.create_node(type="location_state", title="Tower")["id"]
        memgraph(
            "--db",
            str(path),
            "call",
            "upsertLinks",
            json.dumps([{"source": {"id": base}, "links": [{"target": {"id": fresh}}]}]),
        )
        before = store.dump()
        with pytest.raises(MemgraphError) as err:
            store.history_of("window").undo()
        assert err.value.code == "UNDO_CONFLICT" and "link" in err.value.message
        assert store.dump() == before
        store.write_api().delete_links(
            source={"id": base}, target={"id": fresh}, relation="related"
        )
        store.history_of("window").undo()
        assert fresh not in store.graph.nodes
        assert all(fresh not in (e.from_id, e.to_id) for e in store.graph.edges.values())


def test_redoing_a_link_whose_node_was_undone_is_refused(store: MemoryStore) -> None:
    window, agent = store.write_api(origin="window"), store.write_api(origin="agent")
    base = agent.create_node(type="character_sheet", title="Eileen")["id"]
    fresh = window.create_node(type="location_state", title="Tower")["id"]
    agent.upsert_links(source={"id": base}, links=[{"target": {"id": fresh}}])
    store.history_of("agent").undo()  # the link
    store.history_of("window").undo()  # the node
    with pytest.raises(MemgraphError) as err:
        store.history_of("agent").redo()
    assert err.value.code == "UNDO_CONFLICT"
    assert not store.graph.edges


# -- creation ------------------------------------------------------------------------------------
OPEN_AT = """
import sys, time, json
from memgraph_gui.core import MemoryStore
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))
with MemoryStore.open(sys.argv[1]) as s:
    print(json.dumps([t.id for t in s.read_api().get_schema().types]))
"""


@pytest.mark.parametrize("attempt", range(4))
def test_processes_creating_a_missing_store_at_once_all_succeed(
    tmp_path: Path, attempt: int
) -> None:
    path = tmp_path / f"new{attempt}.memgraph"
    start = time.time() + 1.5
    procs = [run_python(OPEN_AT, str(path), str(start)) for _ in range(8)]
    results = [p.communicate(timeout=60) for p in procs]
    failures = [err.strip().splitlines()[-1] for _, err in results if err.strip()]
    assert [p.returncode for p in procs] == [0] * 8, failures
    expected = ["event", "character_sheet", "location_state", "thread"]
    assert [json.loads(out) for out, _ in results] == [expected] * 8
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert raw.execute("SELECT count(*) FROM meta WHERE key = 'schema'").fetchone()[0] == 1


# -- locks ---------------------------------------------------------------------------------------
HOLD_LOCK = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("ROLLBACK")
"""


def hold_write_lock(path: Path, seconds: float) -> Any:
    proc = run_python(HOLD_LOCK, str(path), str(seconds))
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_a_write_behind_another_process_lock_fails_with_store_busy(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path, busy_timeout=0.4) as store:
        before = store.dump()
        holder = hold_write_lock(path, 4)
        started = time.monotonic()
        with pytest.raises(MemgraphError) as err:
            store.write_api().create_node(type="character_sheet", title="Eileen")
        waited = time.monotonic() - started
        holder.kill()
        holder.wait()
        assert err.value.code == "STORE_BUSY" and "try again" in err.value.message
        assert 0.3 < waited < 3
        assert store.dump() == before
        store.write_api().create_node(type="character_sheet", title="Eileen")  # usable after


def test_reads_never_wait_on_another_process_write_lock(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as store:
        store.write_api().create_node(type="character_sheet", title="Eileen")
        holder = hold_write_lock(path, 3)
        writer = threading.Thread(
            target=lambda: store.write_api().create_node(type="character_sheet", title="Kain")
        )
        writer.start()  # waits for the other process's lock
        time.sleep(0.3)
        read = store.read_api()
        started = time.monotonic()
        assert [n.title for n in read.list_nodes()] == ["Eileen"]
        assert read.search_text("eil") and read.keyword_search(query="eileen")
        assert store.history.depth() == (1, 0)
        store.sync()
        assert time.monotonic() - started < 0.5
        writer.join()
        holder.wait()
        assert sorted(n.title for n in read.list_nodes()) == ["Eileen", "Kain"]

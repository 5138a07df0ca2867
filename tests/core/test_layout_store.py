"""Saved positions, pins and the ``memgraph layout`` command: storage round trips (reopen, two
processes), pin undo/redo, migration from a v2 store, and refusals that write nothing."""

from __future__ import annotations

import io
import json
import math
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from memgraph_gui.cli import main
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.layout import compute_layout
from memgraph_gui.core.storage.migrations import SCHEMA_VERSION
from tests.core.processes import memgraph, run_python, without_file_override


def cli(*args: str) -> tuple[int, dict]:
    out = io.StringIO()
    status = main(list(args), stdout=out)
    return status, json.loads(out.getvalue().splitlines()[-1])


def active_ids(store: MemoryStore) -> list[str]:
    with store.reading() as graph:
        return [i for i in graph.timeline_ids() if not graph.nodes[i].archived]


def test_layout_input_lists_active_nodes_in_timeline_order_with_their_edges(
    demo_store: MemoryStore,
) -> None:
    inp = demo_store.layout_input()
    assert list(inp.ids) == active_ids(demo_store)
    with demo_store.reading() as graph:
        archived = {i for i, n in graph.nodes.items() if n.archived}
        assert archived  # the demo archives some nodes: they are left out
        live = [k for k in graph.edges if k[0] not in archived and k[2] not in archived]
    assert inp.edges.dtype == np.int32 and len(inp.edges) == len(live)
    assert np.isnan(inp.start).all() and not inp.pinned.any()  # nothing saved yet


def test_positions_survive_a_reopen_and_start_the_next_run(demo_store: MemoryStore) -> None:
    path = demo_store.path
    inp = demo_store.layout_input()
    pos = compute_layout(inp, seed=1)
    before = demo_store.history.depth()
    assert demo_store.save_positions(inp.ids, pos) == len(inp.ids)
    assert demo_store.history.depth() == before  # not an undo step
    demo_store.close()
    with MemoryStore.open(path, create=False) as again:
        saved = again.positions()
        assert saved == {i: (x, y) for i, (x, y) in zip(inp.ids, pos.tolist(), strict=True)}
        start = again.layout_input().start
        assert np.array_equal(start, pos)
        assert again.layout_input(include_positions=False).start is not None
        assert np.isnan(again.layout_input(include_positions=False).start).all()


def test_positions_of_unknown_nodes_are_ignored_and_a_bulk_load_clears_them(
    file_store: MemoryStore,
) -> None:
    created = file_store.write_api().create_node(type="character_sheet", title="A")["id"]
    file_store.save_positions([created, "ghost"], np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert file_store.positions() == {created: (1.0, 2.0)}
    file_store.replace_all([], [], {"schema": file_store.graph.meta["schema"]}, backup=False)
    assert file_store.storage.execute_read("SELECT count(*) FROM positions") == [(0,)]


def test_save_positions_refuses_a_wrong_shape_and_skips_non_finite_rows(
    store: MemoryStore,
) -> None:
    a = store.write_api().create_node(type="character_sheet", title="A")["id"]
    b = store.write_api().create_node(type="character_sheet", title="B")["id"]
    with pytest.raises(MemgraphError) as err:
        store.save_positions([a, b], np.zeros((3, 2)))
    assert err.value.code == "BAD_ARGS"
    assert store.save_positions([a, b], np.array([[1.0, 1.0], [math.nan, 0.0]])) == 1
    assert store.positions() == {a: (1.0, 1.0)}


# -- pins ----------------------------------------------------------------------------------------
def test_pins_are_undoable_steps_that_override_saved_positions(store: MemoryStore) -> None:
    write = store.write_api()
    a = write.create_node(type="character_sheet", title="Eileen")["id"]
    b = write.create_node(type="character_sheet", title="Storm")["id"]
    store.save_positions([a, b], np.array([[0.0, 0.0], [1.0, 1.0]]))
    result = write.set_pins({a: [5, -2.5]})
    assert result["pins"] == {a: [5.0, -2.5]} and result.changes.pins_changed
    assert store.history.steps()[0].label == "Pin 'Eileen'"
    assert store.pins() == {a: (5.0, -2.5)}
    assert store.positions() == {a: (5.0, -2.5), b: (1.0, 1.0)}
    inp = store.layout_input()
    row = inp.ids.index(a)
    assert inp.pinned.tolist() == [i == row for i in range(2)]
    assert inp.start[row].tolist() == [5.0, -2.5]
    write.set_pins({a: [1, 1], b: [2, 2]})
    assert store.history.steps()[0].label == "Pin 2 nodes"
    write.set_pins({a: None})
    assert store.history.steps()[0].label == "Unpin 'Eileen'"
    assert store.pins() == {b: (2.0, 2.0)}
    store.history.undo()
    assert store.pins() == {a: (1.0, 1.0), b: (2.0, 2.0)}
    store.history.undo()
    store.history.undo()
    assert store.pins() == {} and "pins" not in store.graph.meta
    store.history.redo()
    assert store.pins() == {a: (5.0, -2.5)}


@pytest.mark.parametrize(
    ("pins", "code"),
    [
        ({"A": [math.nan, 0]}, "BAD_ARGS"),
        ({"A": [math.inf, 0]}, "BAD_ARGS"),
        ({"A": ["1", 2]}, "BAD_ARGS"),
        ({"A": [True, 2]}, "BAD_ARGS"),
        ({"A": [1, 2, 3]}, "BAD_ARGS"),
        ({"A": {"x": 1}}, "BAD_ARGS"),
        ([["A", [1, 2]]], "BAD_ARGS"),
        ({}, "BAD_ARGS"),
        ({"A": [1, 2], "nope": [1, 2]}, "NODE_NOT_FOUND"),
    ],
)
def test_bad_pins_are_refused_and_nothing_is_written(
    store: MemoryStore, pins: object, code: str
) -> None:
    a = store.write_api().create_node(type="character_sheet", title="A")["id"]
    if isinstance(pins, dict) and "A" in pins:
        pins = {a if k == "A" else k: v for k, v in pins.items()}
    before = (store.dump(), store.history.depth())
    with pytest.raises(MemgraphError) as err:
        store.write_api().set_pins(pins)
    assert err.value.code == code
    assert (store.dump(), store.history.depth()) == before


def test_set_pins_through_the_json_boundary(file_store: MemoryStore) -> None:
    a = file_store.write_api().create_node(type="character_sheet", title="A")["id"]
    path = file_store.path
    file_store.close()
    status, answer = cli("--db", path, "call", "setPins", json.dumps([{a: [1.5, 2]}]))
    assert status == 0 and answer == {"result": {"pins": {a: [1.5, 2.0]}}}


# -- migration -----------------------------------------------------------------------------------
def test_a_version_2_store_gains_the_positions_table(tmp_path: Path) -> None:
    path = tmp_path / "old.memgraph"
    with MemoryStore.open(path) as s:
        s.write_api().create_node(type="character_sheet", title="A")
    with sqlite3.connect(path) as raw:
        raw.execute("DROP TABLE positions")
        raw.execute("PRAGMA user_version = 2")
    raw.close()
    with MemoryStore.open(path, create=False) as s:
        ids = active_ids(s)
        s.save_positions(ids, np.ones((len(ids), 2)))
        assert s.positions() == {ids[0]: (1.0, 1.0)}
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    raw.close()


# -- the command ---------------------------------------------------------------------------------
def test_layout_command_saves_and_writes_every_active_node(
    demo_store: MemoryStore, tmp_path: Path
) -> None:
    path, ids = demo_store.path, active_ids(demo_store)
    demo_store.close()
    out = tmp_path / "positions.json"
    status, report = cli("--db", path, "layout", "--out", str(out), "--seconds", "20")
    assert status == 0, report
    assert report["saved"] and report["converged"] and report["nodes"] == len(ids)
    assert report["quality"] < 0.6 and report["seconds"] > 0
    assert report["picture"] is False  # 600 nodes: too few to keep a picture
    written = json.loads(out.read_text(encoding="utf-8"))
    assert list(written) == ids and all(len(xy) == 2 for xy in written.values())
    again_status, again = cli("--db", path, "layout", "--out", str(out))  # incremental: no-op
    assert again_status == 0 and again["iterations"] == 0
    assert json.loads(out.read_text(encoding="utf-8")) == written
    assert (tmp_path / "positions.json.bak").exists()


def test_layout_command_keeps_the_picture_a_big_memory_opens_with(
    demo_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph_gui.core.storage import layout_io

    monkeypatch.setattr(layout_io, "PICTURE_MIN_NODES", 100)  # the demo counts as big here
    path = demo_store.path
    demo_store.close()
    status, report = cli("--db", path, "layout", "--seconds", "2")
    assert status == 0 and report["saved"] and report["picture"] is True, report
    seen: list[object] = []
    with MemoryStore.open(path, create=False, on_preview=lambda p, _s: seen.append(p)) as store:
        [drawn] = seen
        assert drawn.ids == store.picture().ids
        assert not store.refresh_picture()  # current


def test_the_picture_command_writes_a_stale_picture_once(demo_store: MemoryStore) -> None:
    path, ids = demo_store.path, active_ids(demo_store)
    demo_store.save_positions(ids, np.ones((len(ids), 2)))
    demo_store.close()
    assert cli("--db", path, "picture") == (0, {"picture": False})  # 600 nodes: too few
    assert cli("--db", path, "picture", "--min-nodes", "100") == (0, {"picture": True})
    assert cli("--db", path, "picture", "--min-nodes", "100") == (0, {"picture": False})
    assert cli("--db", path, "picture") == (0, {"picture": False})  # current: it stays


READ_POSITIONS = """
import json, sys
from memgraph_gui.core import MemoryStore
with MemoryStore.open(sys.argv[1], create=False) as s:
    print(json.dumps({k: list(v) for k, v in s.positions().items()}))
"""


def test_a_layout_saved_by_one_process_is_read_by_another(
    demo_store: MemoryStore, tmp_path: Path
) -> None:
    path = demo_store.path
    demo_store.close()
    out = tmp_path / "p.json"
    result = memgraph("--db", path, "layout", "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    reader = run_python(READ_POSITIONS, path)
    stdout, stderr = reader.communicate(timeout=60)
    assert reader.returncode == 0, stderr
    assert json.loads(stdout) == json.loads(out.read_text(encoding="utf-8"))


def test_without_seconds_a_layout_may_take_longer_the_bigger_the_memory(
    demo_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flat 4 s default stopped the 200k demo's layout at 12 of its 45 steps (twice the 50k
    edge-length ratio): the default limit grows with the active nodes (4 s per 50,000, at least
    4 s); a given ``--seconds`` is kept."""
    from memgraph_gui import layout_cli
    from memgraph_gui.core import layout

    assert layout_cli.default_seconds(2_000) == layout_cli.default_seconds(50_000) == 4.0
    assert layout_cli.default_seconds(200_000) == 16.0
    assert layout_cli.default_seconds(10**9) == layout_cli.MAX_SECONDS
    asked: list[float] = []
    stream = layout.stream_layout

    def spying(inp: object, *, seconds: float, **kwargs: object) -> object:
        asked.append(seconds)
        return stream(inp, seconds=seconds, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(layout, "stream_layout", spying)
    monkeypatch.setattr(layout_cli, "PER_NODES", 100)  # the demo's nodes as a big memory's
    path, nodes = demo_store.path, len(active_ids(demo_store))
    demo_store.close()
    assert cli("--db", path, "layout", "--fresh")[0] == 0
    assert cli("--db", path, "layout", "--fresh", "--seconds", "3")[0] == 0
    assert asked == [4.0 * nodes / 100, 3.0]


def test_a_layout_leaves_the_per_node_edge_lists_unbuilt(
    demo_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``memgraph layout`` reads the edges as columns; building every node's edge lists when
    the store opens took ~0.9 s of a 200k layout's process."""
    from memgraph_gui.core.graph.graph import Graph

    built: list[object] = []
    adjacency = Graph._adjacency

    def counting(graph: Graph) -> object:
        built.append(graph)
        return adjacency(graph)

    monkeypatch.setattr(Graph, "_adjacency", counting)
    path = demo_store.path
    demo_store.close()
    status, report = cli("--db", path, "layout", "--fresh", "--seconds", "2")
    assert status == 0 and report["saved"], report
    assert built == []


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf", "soon", "1e9"])
def test_bad_seconds_are_refused_before_the_store_is_touched(tmp_path: Path, seconds: str) -> None:
    status, answer = cli("--db", str(tmp_path / "none.memgraph"), "layout", "--seconds", seconds)
    assert status == 1 and answer["error"]["code"] == "BAD_ARGS"
    assert not (tmp_path / "none.memgraph").exists()


def test_a_missing_store_is_reported(tmp_path: Path) -> None:
    status, answer = cli("--db", str(tmp_path / "none.memgraph"), "layout")
    assert status == 1 and answer["error"]["code"] == "MEMORY_STORE_MISSING"
    assert not (tmp_path / "none.memgraph").exists()


def test_a_read_only_store_is_laid_out_and_written_but_not_saved(tmp_path: Path) -> None:
    prefix = without_file_override()
    if prefix is None:
        pytest.skip("cannot drop root's permission override here (no setpriv)")
    path = tmp_path / "ro.memgraph"
    with MemoryStore.open(path) as s:
        for title in "ABC":
            s.write_api().create_node(type="character_sheet", title=title)
    path.chmod(0o444)
    out = tmp_path / "p.json"
    result = memgraph("--db", str(path), "layout", "--out", str(out), prefix=prefix)
    answer = json.loads(result.stdout.splitlines()[-1])
    assert result.returncode == 1 and answer["error"]["code"] == "STORE_READ_ONLY"
    assert "not saved" in answer["error"]["message"]
    assert answer["layout"]["nodes"] == 3 and not answer["layout"]["saved"]
    assert len(json.loads(out.read_text(encoding="utf-8"))) == 3
    path.chmod(0o644)
    with MemoryStore.open(path, create=False) as s:
        assert s.positions() == {}


def test_written_files_get_the_usual_permissions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """mkstemp makes 0600 files; an export or --out file must be readable like any other."""
    import os

    from memgraph_gui.core.storage.safe_io import write_text_atomic

    target = tmp_path / "out.json"
    write_text_atomic(target, "{}")
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    target.chmod(0o640)
    write_text_atomic(target, "[]")
    assert target.stat().st_mode & 0o777 == 0o640


def test_an_open_store_is_told_when_another_process_saves_a_layout(
    demo_store: MemoryStore, tmp_path: Path
) -> None:
    """Positions are no content (no change-log entry), yet an open store learns of another
    process's save: one ``positions_saved`` ChangeSet, and the new positions are read."""
    seen: list = []
    demo_store.subscribe(seen.append)
    demo_store.sync()
    out = tmp_path / "p.json"
    result = memgraph("--db", demo_store.path, "layout", "--seconds", "1", "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    demo_store.sync()
    saved = [c for c in seen if c.positions_saved]
    assert len(saved) == 1 and saved[0].external and not saved[0].empty
    assert saved[0].nodes_updated == frozenset() and saved[0].batch_id == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    assert {i: list(xy) for i, xy in demo_store.positions().items() if i in written} == written
    demo_store.sync()
    assert len([c for c in seen if c.positions_saved]) == 1  # told once


def test_a_store_is_not_told_of_its_own_save_but_another_process_is(
    demo_store: MemoryStore,
) -> None:
    seen: list = []
    demo_store.subscribe(seen.append)
    watcher = run_python(WATCH_FOR_SAVE, demo_store.path)
    assert watcher.stdout is not None and watcher.stdout.readline().strip() == "ready"
    inp = demo_store.layout_input()
    demo_store.save_positions(inp.ids, np.zeros((len(inp.ids), 2)) + 1.5)
    demo_store.sync()
    assert not [c for c in seen if c.positions_saved]
    stdout, stderr = watcher.communicate(timeout=60)
    assert watcher.returncode == 0, stderr
    assert json.loads(stdout) == {"told": 1, "x": 1.5}


WATCH_FOR_SAVE = """
import json, sys, time
from memgraph_gui.core import MemoryStore
store = MemoryStore.open(sys.argv[1], create=False)
told = []
store.subscribe(lambda c: told.append(c) if c.positions_saved else None)
print("ready", flush=True)
deadline = time.time() + 30
while not told and time.time() < deadline:
    store.sync()
    time.sleep(0.02)
xs = {x for x, _y in store.positions().values()}
print(json.dumps({"told": len(told), "x": xs.pop() if len(xs) == 1 else sorted(xs)}))
"""


def test_a_catch_up_during_our_own_save_does_not_take_it_for_another_process(
    demo_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from memgraph_gui.core.storage import positions

    seen: list = []
    demo_store.subscribe(seen.append)
    event = demo_store.read_api().list_nodes(types=["event"])[-1].id
    demo_store.write_api().edit_node(id=event, set_fields={"summary": "moved on"})
    real = positions.replace_positions

    def replace_and_let_a_watcher_catch_up(conn, rows, stamp):  # type: ignore[no-untyped-def]
        written = real(conn, rows, stamp)
        watcher = threading.Thread(target=demo_store.sync)  # before our COMMIT
        watcher.start()
        watcher.join()
        return written

    monkeypatch.setattr(positions, "replace_positions", replace_and_let_a_watcher_catch_up)
    inp = demo_store.layout_input()
    demo_store.save_positions(inp.ids, np.zeros((len(inp.ids), 2)))
    demo_store.sync()
    assert not [c for c in seen if c.positions_saved]

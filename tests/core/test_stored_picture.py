"""The picture kept beside the saved layout (``storage.stored_picture``): an open draws it from one
read while it is the store's own content, and from the rows otherwise; a damaged one is ignored;
a write made meanwhile (here or by another process) is never covered by an older picture."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.graph.picture import Picture
from memgraph_gui.core.storage import layout_io, stored_picture
from memgraph_gui.core.storage import store as store_module
from tests.core.processes import without_file_override

ROOT = Path(__file__).resolve().parents[2]


def picture_content(picture: Picture, *, titles: bool = True) -> dict[str, Any]:
    """Each drawn id's row as plain values (with ``titles``, its title too), edges as id
    pairs: pictures compared by content, whatever their row order."""
    ids = picture.ids
    rows = {
        node_id: (
            picture.types[row],
            picture.titles[row] if titles and picture.titles else None,
            int(picture.depths[row]),
            bool(picture.rollups[row]),
            ids[picture.parents[row]] if picture.parents[row] >= 0 else None,
            tuple(picture.pos[row].tolist()),
            bool(picture.pinned[row]),
        )
        for row, node_id in enumerate(ids)
    }
    edges = sorted(
        (ids[a], ids[b], bool(h))
        for (a, b), h in zip(picture.edges.tolist(), picture.hierarchy, strict=True)
    )
    return {"rows": rows, "edges": edges}


def _truth(store: MemoryStore) -> dict[str, Any]:
    return picture_content(layout_io.picture(store.storage, titles=True))


def _reopen(path: Path | str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], Any, Any]:
    """Open ``path`` with a preview; which way the picture came (``kept`` / ``rows``), the
    picture's content and the truth of the opened store (its own picture) as they were."""
    ways: list[str] = []
    seen: list[Picture] = []
    real_rows, real_kept = store_module.deliver, store_module.deliver_picture

    def rows(*args: Any) -> None:
        ways.append("rows")
        real_rows(*args)

    def kept(*args: Any) -> None:
        ways.append("kept")
        real_kept(*args)

    monkeypatch.setattr(store_module, "deliver", rows)
    monkeypatch.setattr(store_module, "deliver_picture", kept)
    with MemoryStore.open(path, create=False, on_preview=lambda p, _s: seen.append(p)) as store:
        truth = _truth(store)
    monkeypatch.setattr(store_module, "deliver", real_rows)
    monkeypatch.setattr(store_module, "deliver_picture", real_kept)
    assert len(seen) == 1, ways
    return ways, picture_content(seen[0]), truth


def _laid_out(store: MemoryStore) -> list[str]:
    inp = store.layout_input()
    store.save_positions(inp.ids, np.arange(2.0 * len(inp.ids)).reshape(-1, 2))
    return list(inp.ids)


@pytest.fixture
def kept(demo_store: MemoryStore) -> Iterator[MemoryStore]:
    """The demo store laid out, with its picture kept."""
    _laid_out(demo_store)
    assert demo_store.refresh_picture(min_nodes=1)
    yield demo_store


def test_an_open_draws_the_kept_picture_and_it_is_the_stores_own(
    kept: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not kept.refresh_picture(min_nodes=1)  # current: nothing to write
    ways, drawn, truth = _reopen(kept.path, monkeypatch)
    assert ways == ["kept"] and drawn == truth
    stamps: list[tuple[str, int]] = []
    with MemoryStore.open(kept.path, on_preview=lambda _p, s: stamps.append(s)) as again:
        assert stamps == [again.stamp]  # so the window keeps the picture once the store is in


def _edit_title(store: MemoryStore, ids: list[str]) -> None:
    store.write_api().edit_node(id=ids[5], title="Renamed after the picture")


def _new_node(store: MemoryStore, ids: list[str]) -> None:
    store.write_api().create_node(type="location_state", title="Born after the picture")
    # (no saved place: no preview at all; placed, so the open has one to draw)
    inp = store.layout_input()
    store.save_positions(inp.ids, np.zeros((len(inp.ids), 2)))


def _archive(store: MemoryStore, ids: list[str]) -> None:
    store.write_api().delete_node(id=ids[3])


def _link(store: MemoryStore, ids: list[str]) -> None:
    store.write_api().upsert_links(
        source={"id": ids[1]}, links=[{"target": {"id": ids[7]}, "relation": "mentions"}]
    )


def _pin(store: MemoryStore, ids: list[str]) -> None:
    store.write_api().set_pins({ids[2]: [-50.0, 75.0]})


def _relayout(store: MemoryStore, ids: list[str]) -> None:
    inp = store.layout_input()
    store.save_positions(inp.ids, np.ones((len(inp.ids), 2)))


def _undo(store: MemoryStore, ids: list[str]) -> None:
    _edit_title(store, ids)
    assert store.refresh_picture(min_nodes=1)
    store.history.undo()


STALE: list[Callable[[MemoryStore, list[str]], None]] = [
    _edit_title,
    _new_node,
    _archive,
    _link,
    _pin,
    _relayout,
    _undo,
]


@pytest.mark.parametrize("write", STALE, ids=[w.__name__.strip("_") for w in STALE])
def test_a_write_to_what_is_drawn_makes_the_open_read_the_rows(
    kept: MemoryStore,
    write: Callable[[MemoryStore, list[str]], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    write(kept, list(kept.layout_input().ids))
    ways, drawn, truth = _reopen(kept.path, monkeypatch)
    assert ways == ["rows"] and drawn == truth
    assert kept.refresh_picture(min_nodes=1)  # stale: made again
    ways, drawn, truth = _reopen(kept.path, monkeypatch)
    assert ways == ["kept"] and drawn == truth


def test_the_injection_state_an_agent_writes_each_turn_keeps_the_picture(
    kept: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = list(kept.layout_input().ids)
    for turn in range(3):
        kept.write_api().set_injection_state({"recallSelectedIds": ids[turn : turn + 4]})
    assert not kept.refresh_picture(min_nodes=1)  # still current: not written again
    ways, drawn, truth = _reopen(kept.path, monkeypatch)
    assert ways == ["kept"] and drawn == truth


def test_pruned_or_too_many_changes_since_make_it_stale(
    kept: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = list(kept.layout_input().ids)
    monkeypatch.setattr(stored_picture, "SINCE_LIMIT", 2)
    for turn in range(3):
        kept.write_api().set_injection_state({"recallSelectedIds": ids[turn : turn + 2]})
    assert _reopen(kept.path, monkeypatch)[0] == ["rows"]  # 3 changes since: not looked at
    monkeypatch.undo()
    assert _reopen(kept.path, monkeypatch)[0] == ["kept"]
    made = stored_picture.stored_version(_conn(kept.path))
    assert made is not None
    with sqlite3.connect(kept.path) as conn:  # as a pruning of the log would leave it
        conn.execute(
            "INSERT OR REPLACE INTO store_info(key, value) VALUES ('pruned_through', ?)",
            (str(made.seq + 1),),
        )
    conn.close()
    assert _reopen(kept.path, monkeypatch)[0] == ["rows"]


def _conn(path: str) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


DAMAGE = {
    "short pos": "UPDATE picture SET data = substr(data, 1, 8) WHERE name = 'pos'",
    "ids not text": "UPDATE picture SET data = CAST('[1,2]' AS BLOB) WHERE name = 'ids'",
    "bad version": "UPDATE picture SET data = CAST('{]' AS BLOB) WHERE name = 'version'",
    "missing column": "DELETE FROM picture WHERE name = 'hierarchy'",
    "type code too big": "UPDATE picture SET data = CAST('[]' AS BLOB) WHERE name = 'type_names'",
}


@pytest.mark.parametrize("sql", DAMAGE.values(), ids=DAMAGE.keys())
def test_a_damaged_picture_is_ignored_and_the_rows_are_drawn(
    kept: MemoryStore, sql: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with sqlite3.connect(kept.path) as conn:
        conn.execute(sql)
    conn.close()
    ways, drawn, truth = _reopen(kept.path, monkeypatch)
    assert ways == ["rows"] and drawn == truth
    assert "stored picture" in caplog.text


def test_edges_naming_rows_that_do_not_exist_are_refused(kept: MemoryStore) -> None:
    n = len(kept.layout_input().ids)
    far = np.array([[0, n], [1, 2]], "<i4").tobytes()
    with sqlite3.connect(kept.path) as conn:
        m = len(conn.execute("SELECT data FROM picture WHERE name='edges'").fetchone()[0]) // 8
        conn.execute(
            "UPDATE picture SET data = ? WHERE name = 'edges'",
            (far + bytes(8 * (m - 2)),),
        )
    conn.close()
    with sqlite3.connect(kept.path) as conn:
        conn.execute("BEGIN")
        version = layout_io._file_version(conn)
        assert stored_picture.read(conn, version) is None
        conn.execute("COMMIT")
    conn.close()


def test_a_store_without_the_table_has_no_picture(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "old.sqlite")
    conn.execute("CREATE TABLE store_info (key TEXT PRIMARY KEY, value TEXT)")
    assert stored_picture.read(conn, stored_picture.Version("g", 0, "")) is None
    assert stored_picture.stored_version(conn) is None
    conn.close()


def test_a_small_store_keeps_none_and_drops_a_stale_one(
    kept: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not kept.picture_wanted() and not kept.picture_wanted(min_nodes=1)  # current
    assert kept.refresh_picture() is False  # 600 nodes, under the default: a current one stays
    _edit_title(kept, list(kept.layout_input().ids))
    assert kept.picture_wanted() and kept.picture_wanted(min_nodes=1)  # to drop; to make
    assert kept.refresh_picture() is True  # stale, and too small to keep: dropped
    assert not kept.picture_wanted()  # nothing kept, too small to keep one
    assert stored_picture.stored_version(_conn(kept.path)) is None
    assert kept.refresh_picture() is False  # nothing to drop
    assert _reopen(kept.path, monkeypatch)[0] == ["rows"]


def test_a_read_only_store_is_left_alone_and_still_draws_its_kept_picture(
    kept: MemoryStore,
) -> None:
    prefix = without_file_override()
    if prefix is None:
        pytest.skip("cannot drop root's permission override here (no setpriv)")
    path = Path(kept.path)
    _edit_title(kept, list(kept.layout_input().ids))  # stale: a writable store would refresh
    assert kept.refresh_picture(min_nodes=1)
    _in_another_process(str(path), "store.write_api().set_injection_state({'visibleIds': []})")
    kept.close()
    before = stored_picture.stored_version(_conn(str(path)))
    path.chmod(0o444)
    try:
        code = (
            "import json, sys\nfrom memgraph_gui.core import MemoryStore\n"
            "from memgraph_gui.core.storage import store as module\n"
            "ways = []\n"
            "real = module.deliver_picture\n"
            "module.deliver_picture = lambda *a: (ways.append('kept'), real(*a))\n"
            "seen = []\n"
            "with MemoryStore.open(sys.argv[1], create=False,"
            " on_preview=lambda p, s: seen.append(p)) as store:\n"
            "    print(json.dumps([store.read_only, store.refresh_picture(min_nodes=1), ways,"
            " [p.ids == store.picture().ids for p in seen]]))\n"
        )
        done = subprocess.run(
            [*prefix, sys.executable, "-c", code, str(path)],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        read_only, refreshed, ways, same = json.loads(done.stdout.splitlines()[-1])
        assert read_only and refreshed is False and ways == ["kept"] and len(same) == 1
    finally:
        path.chmod(0o644)
    assert stored_picture.stored_version(_conn(str(path))) == before


def _in_another_process(path: str, code: str) -> None:
    script = (
        "import sys\nfrom memgraph_gui.core import MemoryStore\n"
        "store = MemoryStore.open(sys.argv[1], create=False)\n" + code + "\nstore.close()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", script, path], check=True, env=env, timeout=120)


def test_another_process_edit_makes_it_stale_and_its_refresh_is_drawn_here(
    kept: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = kept.layout_input().ids[4]
    _in_another_process(kept.path, f"store.write_api().edit_node(id={node!r}, title='Theirs')")
    ways, drawn, truth = _reopen(kept.path, monkeypatch)
    assert ways == ["rows"] and drawn == truth and drawn["rows"][node][1] == "Theirs"
    _in_another_process(kept.path, "assert store.refresh_picture(min_nodes=1)")
    ways, drawn, truth = _reopen(kept.path, monkeypatch)
    assert ways == ["kept"] and drawn["rows"][node][1] == "Theirs" and drawn == truth


def test_a_picture_made_before_another_process_wrote_is_not_written(kept: MemoryStore) -> None:
    node = kept.layout_input().ids[4]
    kept.write_api().edit_node(id=node, title="Mine")
    made = layout_io.stale_picture(kept.storage, min_nodes=1)
    assert made is not None and made.rows is not None
    _in_another_process(kept.path, f"store.write_api().edit_node(id={node!r}, title='Theirs')")
    before = stored_picture.stored_version(_conn(kept.path))
    assert layout_io.keep_picture(kept.storage, made) is False
    assert stored_picture.stored_version(_conn(kept.path)) == before  # the old one, stale


OPS = st.lists(
    st.sampled_from(["title", "inject", "pin", "relayout", "refresh", "link", "archive"]),
    max_size=6,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=OPS)
def test_whatever_was_written_the_open_draws_the_stores_content(
    ops: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / f"p{abs(hash(tuple(ops)))}.memgraph"
    for leftover in tmp_path.glob(f"{path.name}*"):
        leftover.unlink()
    with MemoryStore.open(path) as store:
        w = store.write_api()
        made = [w.create_node(type="location_state", title=f"Place {i}")["id"] for i in range(12)]
        ids = _laid_out(store)
        store.refresh_picture(min_nodes=1)
        for step, op in enumerate(ops):
            alive = [i for i in made if i in store.layout_input().ids]
            if op == "title" and alive:
                w.edit_node(id=alive[step % len(alive)], title=f"Step {step}")
            elif op == "inject":
                w.set_injection_state({"recallSelectedIds": alive[:step]})
            elif op == "pin" and alive:
                w.set_pins({alive[0]: [float(step), -1.0]})
            elif op == "relayout":
                _relayout(store, ids)
            elif op == "refresh":
                store.refresh_picture(min_nodes=1)
            elif op == "link" and len(alive) > 2:
                w.upsert_links(
                    source={"id": alive[1]},
                    links=[{"target": {"id": alive[-1]}, "relation": f"r{step}"}],
                )
            elif op == "archive" and len(alive) > 3:
                w.delete_node(id=alive[-1])
    _ways, drawn, truth = _reopen(path, monkeypatch)
    assert drawn == truth

"""Regressions for bugs found in review: lost external commits, reused row numbers, hidden
commits, dropped notifications, leaked graphs, CLI tracebacks, undo/redo across writers."""

from __future__ import annotations

import gc
import io
import json
import weakref
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.storage import changelog


def _two(tmp_path: Path) -> tuple[MemoryStore, MemoryStore]:
    a = MemoryStore.open(tmp_path / "s.memgraph")
    return a, MemoryStore.open(tmp_path / "s.memgraph")


def test_a_commit_landing_right_after_ours_is_not_skipped(tmp_path: Path, monkeypatch) -> None:
    a, b = _two(tmp_path)
    node = a.write_api().create_node(type="character_sheet", title="X", fields={"traits": "calm"})
    b.sync()
    real = changelog.apply_committed

    def sneaky(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(changelog, "apply_committed", real)  # once: b's write calls it too
        b.write_api().edit_node(id=node["id"], set_fields={"traits": "furious"})
        return real(*args, **kwargs)

    monkeypatch.setattr(changelog, "apply_committed", sneaky)
    a.write_api().create_node(type="location_state", title="Y")
    monkeypatch.undo()
    assert [c.external for c in a.sync()] == [True]
    assert a.read_api().get_node(node["id"]).fields["traits"] == "furious"
    a.close(), b.close()


def test_undo_never_overwrites_an_edge_that_reused_a_row_number(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "s.memgraph")
    agent, window = store.write_api(origin="agent"), store.write_api(origin="window")
    ids = [agent.create_node(type="character_sheet", title=t)["id"] for t in "ABC"]
    agent.upsert_links(
        source={"id": ids[0]},
        links=[{"target": {"id": ids[1]}, "relation": "knows", "direction": "outgoing"}],
    )
    window.delete_links(source={"id": ids[0]}, target={"id": ids[1]}, relation="knows")
    agent.upsert_links(
        source={"id": ids[0]},
        links=[{"target": {"id": ids[2]}, "relation": "likes", "direction": "outgoing"}],
    )
    store.history_of("window").undo()
    in_memory = {e.to_json()["type"] for e in store.read_api().list_edges()}
    store.close()
    with MemoryStore.open(tmp_path / "s.memgraph") as reopened:
        on_disk = {e.to_json()["type"] for e in reopened.read_api().list_edges()}
    assert in_memory == on_disk == {"knows", "likes"}


def test_reading_publishes_pending_changes_even_when_the_reader_fails(tmp_path: Path) -> None:
    a, b = _two(tmp_path)
    seen: list[Any] = []
    a.subscribe(seen.append)
    b.write_api().create_node(type="character_sheet", title="Kain")
    with pytest.raises(RuntimeError), a.reading():
        raise RuntimeError("reader failed")
    assert len(seen) == 1 and seen[0].external
    a.close(), b.close()


def test_a_reload_releases_the_old_graph(tmp_path: Path) -> None:
    from memgraph_gui.core.demo.generator import load_demo

    a, b = _two(tmp_path)
    load_demo(a, 200, seed=1)
    a.read_api().keyword_search(query="sword")  # an index that points back at its graph
    old = weakref.ref(a.graph)
    load_demo(b, 150, seed=2)
    a.sync()
    gc.collect()
    assert old() is None and len(a.graph.nodes) == 150
    a.close(), b.close()


def test_undo_of_own_step_survives_another_writer_creating_nodes(store: MemoryStore) -> None:
    window, agent = store.write_api(origin="window"), store.write_api(origin="agent")
    mine = window.create_node(type="character_sheet", title="Mine")["id"]
    theirs = agent.create_node(type="character_sheet", title="Theirs")["id"]
    store.history_of("window").undo()
    assert store.read_api().get_node(mine) is None
    assert store.read_api().get_node(theirs) is not None
    new = window.create_node(type="character_sheet", title="Next")["id"]
    assert new not in (mine, theirs)


def test_a_newer_step_by_anyone_ends_the_whole_store_redo_chain(store: MemoryStore) -> None:
    first, second = store.write_api(origin="cli:1"), store.write_api(origin="cli:2")
    first.create_node(type="character_sheet", title="A")
    store.history.undo()
    second.create_node(type="location_state", title="B")
    assert store.history.redo() is None and store.history.depth() == (1, 0)
    assert [n.title for n in store.read_api().list_nodes()] == ["B"]


def test_subscribers_run_after_the_lock_is_released(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "s.memgraph")
    store.write_api().create_node(type="character_sheet", title="A")
    held: list[bool] = []
    store.subscribe(lambda _c: held.append(store.storage.lock._is_owned()))  # type: ignore[attr-defined]
    store.history.undo()
    store.history.redo()
    assert held == [False, False]
    store.close()


def test_an_edit_from_1_to_true_is_recorded(store: MemoryStore) -> None:
    w = store.write_api()
    node = w.create_node(type="character_sheet", title="A", fields={"flag": 1})["id"]
    w.edit_node(id=node, set_fields={"flag": True})
    assert store.read_api().get_node(node).fields["flag"] is True
    store.history.undo()
    assert store.read_api().get_node(node).fields["flag"] == 1


@pytest.mark.parametrize(
    "args",
    [
        '[{"type": "event", "fields": "x"}]',
        '[{"type": "event", "fields": {"summary": "s"}, "links": 3}]',
    ],
)
def test_cli_answers_bad_input_in_json(tmp_path: Path, args: str) -> None:
    from memgraph_gui.cli import main

    out = io.StringIO()
    code = main(
        ["--db", str(tmp_path / "c.memgraph"), "call", "--create", "createNode", args], stdout=out
    )
    assert code == 1 and "error" in json.loads(out.getvalue())


def test_cli_stream_keeps_going_after_a_bad_line(tmp_path: Path) -> None:
    from memgraph_gui.cli import main

    lines = "\n".join(
        [
            '{"call": "applyExtractionBatch", "args": [{"ops": [], "label": ["x"]}]}',
            '{"call": "applyExtractionBatch", "args": [{"ops": [], "maxSeq": 1e300}]}',
            '{"call": "createNode", "args": [{"type": "thread", "title": "T", '
            '"fields": {"status": "active", "note": "n"}}]}',
        ]
    )
    out = io.StringIO()
    code = main(
        ["--db", str(tmp_path / "c.memgraph"), "call", "--create", "-"],
        stdin=io.StringIO(lines),
        stdout=out,
    )
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [("error" in a) for a in answers] == [True, True, False] and code == 1
    assert answers[1]["error"]["code"] == "BAD_ARGS"


def test_cli_reports_a_directory_as_an_io_error(tmp_path: Path) -> None:
    from memgraph_gui.cli import main

    MemoryStore.open(tmp_path / "c.memgraph").close()
    out = io.StringIO()
    assert (
        main(["--db", str(tmp_path / "c.memgraph"), "export-luker", str(tmp_path)], stdout=out) == 1
    )
    assert json.loads(out.getvalue())["error"]["code"] == "IO_ERROR"


def test_a_removed_highest_row_number_is_never_handed_out_again(tmp_path: Path) -> None:
    """An import numbers rows 1..N with no mark; a dissolve then removes the highest-numbered
    edges and hands out none. Another writer's new edge must not take such a number, or the
    undo of the dissolve collides with it."""
    from memgraph_gui.core.luker.interop import import_luker

    doc = {
        "nodes": {
            "a": {"type": "character_sheet", "title": "A"},
            "b": {"type": "character_sheet", "title": "B"},
            "e1": {"type": "event", "title": "e1", "fields": {"summary": "one"}, "parentId": "r"},
            "e2": {"type": "event", "title": "e2", "fields": {"summary": "two"}, "parentId": "r"},
            "r": {
                "type": "event",
                "title": "R",
                "semanticRollup": True,
                "semanticDepth": 1,
                "childrenIds": ["e1", "e2"],
                "fields": {"summary": "both"},
            },
        },
        "edges": [{"from": "a", "to": "b", "type": "knows"}]
        + [
            {"from": "r", "to": c, "type": t}
            for c in ("e1", "e2")
            for t in ("contains", "semantic_contains")
        ],
    }
    with MemoryStore.open(tmp_path / "s.memgraph") as store:
        import_luker(store, doc)
        window, agent = store.write_api(origin="window"), store.write_api(origin="agent")
        window.dissolve_rollup(id="r")
        agent.upsert_links(source={"id": "a"}, links=[{"target": {"id": "e1"}}])
        assert store.history_of("window").undo() is not None
        assert {("r", "contains", "e1"), ("r", "semantic_contains", "e2")} <= set(store.graph.edges)
        ords = [row[0] for row in store.dump()["edges"]]
        assert len(ords) == len(set(ords))

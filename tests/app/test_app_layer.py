"""The app layer: single writer, undo mirror, selection, initiator attribution, store stamps."""

from __future__ import annotations

import threading
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _app(path: Path):  # type: ignore[no-untyped-def]
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    return AppModel(MemoryStore.open(path))


def test_writes_run_on_one_worker_thread_in_order(qtbot, tmp_path: Path) -> None:
    app = _app(tmp_path / "a.memgraph")
    threads: list[str] = []
    done: list[str] = []
    gui = threading.current_thread()

    def make(title: str):  # type: ignore[no-untyped-def]
        def op(w):  # type: ignore[no-untyped-def]
            threads.append(threading.current_thread().name)
            return w.create_node(type="character_sheet", title=title)

        return op

    for title in ("A", "B", "C"):
        app.run_op(make(title), on_done=lambda r: done.append(app.node(r["id"]).title))
    assert app.runner.busy
    assert app.runner.wait_idle()
    assert done == ["A", "B", "C"]
    assert len(set(threads)) == 1 and threads[0] != gui.name
    assert app.undo.stack.count() == 3 and app.undo.stack.undoText() == "Create character_sheet 'C'"
    app.close()


def test_a_refused_write_reaches_op_failed_and_pushes_no_step(qtbot, tmp_path: Path) -> None:
    from memgraph_gui.app import ops

    app = _app(tmp_path / "a.memgraph")
    with qtbot.waitSignal(app.op_failed, timeout=5000) as failed:
        ops.edit_node(app, "no_such_node", title="x")
    assert failed.args[0].code in {"NODE_NOT_FOUND", "OP_FAILED"}
    assert app.undo.stack.count() == 0
    app.close()


def test_initiator_is_attributed_even_when_another_thread_delivers(qtbot, tmp_path: Path) -> None:
    """A commit may be delivered by whichever thread drains the store's outbox; the op's
    initiator must still come back with it, and a foreign write never carries it."""
    app = _app(tmp_path / "a.memgraph")
    view = object()
    seen: list[tuple[str, object]] = []
    app.changes_applied.connect(lambda c, i: seen.append((c.label, i)))
    stop = threading.Event()

    def other_writer() -> None:
        n = 0
        while not stop.is_set() and n < 30:
            app.store.write_api(origin="agent").create_node(
                type="event", title=f"e{n}", fields={"summary": "s"}
            )
            n += 1

    agent = threading.Thread(target=other_writer)
    agent.start()
    for i in range(15):
        app.run_op(
            lambda w, i=i: w.create_node(type="character_sheet", title=f"c{i}"), initiator=view
        )
    app.runner.wait_idle()
    stop.set()
    agent.join()
    qtbot.waitUntil(lambda: len(seen) >= 15 + 1, timeout=5000)
    app.runner.wait_idle(1)
    mine = [(label, who) for label, who in seen if "character_sheet" in label]
    theirs = [(label, who) for label, who in seen if "event" in label]
    assert len(mine) == 15 and all(who is view for _, who in mine)
    assert all(who is None for _, who in theirs)
    app.close()


def test_changes_queued_for_a_replaced_store_are_dropped(qtbot, tmp_path: Path) -> None:
    from memgraph_gui.core import MemoryStore

    app = _app(tmp_path / "a.memgraph")
    seen: list[object] = []
    app.changes_applied.connect(lambda c, _i: seen.append(c))
    old = app.store
    old.write_api().create_node(
        type="event", title="queued", fields={"summary": "s"}
    )  # delivery is queued, not run yet
    app.replace_store(MemoryStore.open(tmp_path / "b.memgraph"))
    qtbot.wait(100)
    assert seen == []
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        app.store.write_api().create_node(type="event", title="new", fields={"summary": "s"})
    assert len(seen) == 1
    app.close()


def test_selection_forgets_removed_nodes(qtbot, tmp_path: Path) -> None:
    app = _app(tmp_path / "a.memgraph")
    a = app.apply_sync(lambda w: w.create_node(type="event", title="a", fields={"summary": "s"}))[
        "id"
    ]
    b = app.apply_sync(lambda w: w.create_node(type="event", title="b", fields={"summary": "s"}))[
        "id"
    ]
    app.selection.select([a, b], current=b)
    with qtbot.waitSignal(app.selection.changed, timeout=5000):
        app.undo_last()  # the create of b goes away
    assert app.selection.ids == {a} and app.selection.current == a
    app.close()


def test_undo_refused_by_a_conflict_leaves_the_mirror_alone(qtbot, tmp_path: Path) -> None:
    from memgraph_gui.core import MemoryStore

    path = tmp_path / "a.memgraph"
    app = _app(path)
    node = app.apply_sync(lambda w: w.create_node(type="character_sheet", title="Eileen"))["id"]
    with MemoryStore.open(path, origin="agent") as other:  # another writer links the new node
        target = other.write_api().create_node(type="event", title="x", fields={"summary": "s"})[
            "id"
        ]
        other.write_api().upsert_links(
            source={"id": target}, links=[{"target": {"id": node}, "relation": "mentions"}]
        )
    app.store.sync()
    errors: list[object] = []
    app.undo_last(on_error=errors.append)
    app.runner.wait_idle()
    assert errors and errors[0].code == "UNDO_CONFLICT"  # type: ignore[attr-defined]
    assert app.undo.in_sync_with == (1, 0) and app.node(node) is not None
    app.close()


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(["create", "edit", "undo", "redo", "agent"]), max_size=14))
def test_the_mirror_depth_equals_the_cores_after_any_sequence(
    qtbot, tmp_path_factory, steps
) -> None:  # type: ignore[no-untyped-def]
    app = _app(tmp_path_factory.mktemp("m") / "m.memgraph")
    created: list[str] = []
    for step in steps:
        if step == "create":
            created.append(
                app.apply_sync(
                    lambda w: w.create_node(type="event", title="n", fields={"summary": "s"})
                )["id"]
            )
        elif step == "edit" and created and app.node(created[-1]) is not None:
            app.run_op(
                lambda w, n=created[-1]: w.edit_node(id=n, title="edited"), on_error=lambda e: None
            )
        elif step == "undo":
            app.undo_last(on_error=lambda e: None)
        elif step == "redo":
            app.redo_last(on_error=lambda e: None)
        elif step == "agent":
            app.store.write_api(origin="agent").create_node(
                type="event", title="agent", fields={"summary": "s"}
            )
        app.runner.wait_idle()
        assert app.undo.in_sync_with == app.store.history_of(app.origin).depth()
    app.close()

"""AppModel: ChangeSets from any thread arrive as Qt signals on the GUI thread."""

from __future__ import annotations

import threading
from pathlib import Path


def test_own_write_from_a_worker_thread_arrives_on_the_gui_thread(qtbot, tmp_path: Path) -> None:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    app = AppModel(MemoryStore.open(tmp_path / "a.memgraph"))
    seen: list[tuple[object, bool]] = []
    main = threading.current_thread()
    app.changes_applied.connect(
        lambda changes, _initiator: seen.append((changes, threading.current_thread() is main))
    )
    worker = threading.Thread(
        target=lambda: app.store.write_api().create_node(type="character_sheet", title="Eileen")
    )
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        worker.start()
        worker.join()
    changes, on_gui_thread = seen[0]
    assert on_gui_thread
    assert len(changes.nodes_added) == 1 and not changes.external
    assert app.counts().nodes == 1
    assert app.last_external_change is None
    app.close()


def test_replacing_the_store_resubscribes(qtbot, tmp_path: Path) -> None:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    app = AppModel(MemoryStore.open(tmp_path / "a.memgraph"))
    first = app.store
    with qtbot.waitSignal(app.store_replaced, timeout=2000):
        app.replace_store(MemoryStore.open(tmp_path / "b.memgraph"))
    assert first.closed
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        app.store.write_api().create_node(type="location_state", title="银月城")
    assert [n.type for n in app.store.graph.nodes.values()] == ["location_state"]
    app.close()


def test_injection_summary_counts(qtbot, tmp_path: Path) -> None:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    store = MemoryStore.open(tmp_path / "a.memgraph")
    node = store.write_api().create_node(type="character_sheet", title="Kain")["id"]
    app = AppModel(store)
    with qtbot.waitSignal(app.changes_applied, timeout=5000) as blocker:
        store.write_api().set_injection_state({"recallSelectedIds": [node]})
    assert blocker.args[0].injection_changed
    assert app.counts().injection.recall_selected_ids == frozenset({node})
    app.close()


def test_the_initiator_comes_back_with_its_own_changes_only(qtbot, tmp_path: Path) -> None:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    path = tmp_path / "a.memgraph"
    app = AppModel(MemoryStore.open(path))
    view = object()
    with qtbot.waitSignal(app.changes_applied, timeout=5000) as mine:
        app.apply_sync(
            lambda w: w.create_node(type="character_sheet", title="Eileen"), initiator=view
        )
    assert mine.args[1] is view
    with qtbot.waitSignal(app.changes_applied, timeout=5000) as other:
        app.store.write_api().create_node(type="character_sheet", title="Kain")
    assert other.args[1] is None
    with (
        MemoryStore.open(path) as elsewhere,
        qtbot.waitSignal(app.changes_applied, timeout=5000) as external,
    ):
        elsewhere.write_api().create_node(type="character_sheet", title="Lina")
    assert external.args[0].external and external.args[1] is None
    app.close()


def test_a_long_step_of_this_desk_in_another_process_is_offered_for_undo_after_the_reload(
    qtbot, tmp_path
) -> None:
    """Another process's batch of more change rows than ``REPLAY_LIMIT`` reaches the window as
    a reload (built off the store lock), which names no origin: the undo mirror is rebuilt all
    the same, so a long step this desk made in another window can be undone here."""
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore as Store
    from memgraph_gui.core.storage.changelog import REPLAY_LIMIT
    from tests.core.processes import run_python

    path = tmp_path / "s.memgraph"
    app = AppModel(Store.open(path), origin="desk:test")
    assert not app.undo.stack.canUndo()
    script = """
        import sys
        from memgraph_gui.core import MemoryStore
        with MemoryStore.open(sys.argv[1]) as store:
            ops = [
                {"op": "create", "type": "character_sheet", "ref": f"c{i}", "title": f"P {i}"}
                for i in range(int(sys.argv[2]))
            ]
            done = store.write_api(origin="desk:test").apply_extraction_batch(ops=ops)
            assert not done["rejected"], done["rejected"][:2]
        print("done", flush=True)
    """
    child = run_python(script, str(path), str(REPLAY_LIMIT + 100))
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0 and out.strip() == "done", err
    seen: list[object] = []
    app.changes_applied.connect(lambda changes, _initiator: seen.append(changes))
    qtbot.waitUntil(lambda: any(getattr(c, "reloaded", False) for c in seen), timeout=20_000)
    assert app.undo.stack.canUndo()
    app.close()

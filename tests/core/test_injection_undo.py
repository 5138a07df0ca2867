"""``setInjectionState(..., undoable=True)``: the Recall lab's "Apply as injection state" is one
undo step that every process sees; the default write stays a plain record (not undoable)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from graph_builders import char, load_store

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from tests.core.processes import run_python

NODES = [char("a", seq=1), char("b", seq=2), char("c", seq=3)]

READER = """
import json, sys
from memgraph_gui.core import MemoryStore
with MemoryStore.open(sys.argv[1], create=False) as s:
    print(json.dumps(s.read_api().get_injection_state().to_json()))
"""


def other_process_sees(path: Path) -> dict[str, Any]:
    proc = run_python(READER, str(path))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_apply_is_one_undo_step_that_undo_restores(store: Any) -> None:
    load_store(store, NODES)
    write, read = store.write_api(origin="window"), store.read_api()
    write.set_injection_state({"alwaysInjectIds": ["a"], "visibleIds": ["c", "a"]})
    before = read.get_injection_state()
    history = store.history_of("window")
    depth = history.depth()
    result = write.set_injection_state(
        {"recallSelectedIds": ["b", "c"], "visibleIds": ["a", "b", "c"]}, undoable=True
    )
    assert result["recallSelectedIds"] == ["b", "c"] and result.changes is not None
    assert history.depth() == (depth[0] + 1, 0)
    assert history.steps()[0].label == "Apply recall preview"
    after = read.get_injection_state()
    assert after.visible_order == ("a", "b", "c") and after.always_inject_ids == {"a"}
    history.undo()
    assert read.get_injection_state() == before
    history.redo()
    assert read.get_injection_state() == after


def test_the_default_write_stays_out_of_the_history(store: Any) -> None:
    load_store(store, NODES)
    write = store.write_api(origin="window")
    history = store.history_of("window")
    depth = history.depth()
    write.set_injection_state({"recallSelectedIds": ["a"]})
    write.set_injection_state(recallSelectedIds=["b"], undoable=False)
    assert history.depth() == depth
    assert all(s.label != "Apply recall preview" for s in history.steps())
    assert store.read_api().get_injection_state().recall_selected_ids == {"b"}
    with pytest.raises(MemgraphError) as info:
        write.set_injection_state({"recallSelectedIds": ["a"]}, undoable="yes")
    assert info.value.code == "BAD_ARGS"
    with pytest.raises(MemgraphError) as info:
        write.set_injection_state({"recallSelectedIds": ["nobody"]}, undoable=True)
    assert info.value.code == "NODE_NOT_FOUND" and history.depth() == depth


def test_another_process_sees_the_apply_and_its_undo(tmp_path: Path) -> None:
    path = tmp_path / "m.memgraph"
    with MemoryStore.open(path) as store:
        load_store(store, NODES)
        write = store.write_api(origin="window")
        write.set_injection_state({"visibleIds": ["b"]})
        write.set_injection_state(
            {"recallSelectedIds": ["c"], "visibleIds": ["c", "a"]}, undoable=True
        )
        seen = other_process_sees(path)
        assert seen == {"alwaysInjectIds": [], "recallSelectedIds": ["c"], "visibleIds": ["c", "a"]}
        store.history_of("window").undo()
        assert other_process_sees(path) == {
            "alwaysInjectIds": [],
            "recallSelectedIds": [],
            "visibleIds": ["b"],
        }

"""Library code changes no process-wide state, and a store that closes lets go of what it made.

``gc.freeze()`` in the storage layer froze every object of the process at each open, so an old
graph with a reference cycle was never freed (12 opens of a 50k store: 205 MB -> 1,975 MB).
"""

from __future__ import annotations

import ast
import gc
import sys
import weakref
from pathlib import Path

import memgraph_gui
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import load_demo

CORE = Path(memgraph_gui.__file__).parent / "core"
PROCESS_WIDE = {
    ("gc", "disable"),
    ("gc", "enable"),
    ("gc", "freeze"),
    ("gc", "unfreeze"),
    ("gc", "collect"),
    ("gc", "set_threshold"),
    ("sys", "setswitchinterval"),
}


def _calls(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if isinstance(owner, ast.Name) and (owner.id, node.func.attr) in PROCESS_WIDE:
                found.append(
                    f"{path.relative_to(CORE.parent)}:{node.lineno} {owner.id}.{node.func.attr}"
                )
        if isinstance(node, ast.Name) and node.id == "threadpool_limits":
            found.append(f"{path.relative_to(CORE.parent)}:{node.lineno} threadpool_limits")
    return found


# The one exception: a closing store's ``gc.collect()`` in storage/memory_release.py (an action
# that empties CPython's free lists so the freed graph's memory can go back; no setting changed).


def test_core_never_changes_process_wide_state_in_its_source():
    found = [call for path in sorted(CORE.rglob("*.py")) for call in _calls(path)]
    assert [call for call in found if not call.startswith("core/storage/memory_release.py")] == []
    assert [call.split()[-1] for call in found] == ["gc.collect"]


def test_opening_searching_replacing_and_closing_leave_the_process_as_it_was(tmp_path):
    before = (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count(), sys.getswitchinterval())
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as store:
        load_demo(store, 300, 3)
        store.read_api().find_by_name(query="Eileen")
        store.warm_up()
    with MemoryStore.open(path) as again:
        again.read_api().find_by_name(query="Eileen")
    after = (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count(), sys.getswitchinterval())
    assert after == before


def test_a_closed_store_lets_go_of_its_graph(tmp_path):
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as store:
        load_demo(store, 300, 3)
    store = MemoryStore.open(path)
    store.read_api().find_by_name(query="Eileen")
    store.warm_up()  # every index and cache a long-running caller builds
    graph = weakref.ref(store.peek_graph)
    store.close()
    gc.collect()
    assert graph() is None, gc.get_referrers(graph())
    store.close()  # idempotent

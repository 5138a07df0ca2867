"""``MemoryStore.retire_to``: a graph the store stops serving (a bulk load's, or a reload's after
another process replaced the file) is handed over to be freed a step at a time, and never
emptied while a reader still holds it."""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from pathlib import Path

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.domain.model import Node
from tests.core.boundary_helpers import run_process


def _nodes(count: int, prefix: str = "n") -> list[Node]:
    return [Node(id=f"{prefix}_{i}", type="event", title=f"E{i}", seq_to=i) for i in range(count)]


def test_a_replaced_graph_is_handed_over_and_kept_whole_while_a_reader_holds_it(
    tmp_path: Path,
) -> None:
    store = MemoryStore.open(tmp_path / "a.memgraph")
    store.storage.replace_all(_nodes(3_000), [], {}, backup=False)
    store.read_api().keyword_search(query="E12")  # an index that points back at its graph
    reader = store.peek_graph  # a reader still using the graph being replaced
    handed: list[Iterator[bool]] = []
    store.retire_to(handed.append)
    store.storage.replace_all(_nodes(10, "m"), [], {}, backup=False)
    assert len(handed) == 1 and len(store.peek_graph.nodes) == 10
    steps = handed.pop()
    assert not reader._indexes  # its caches (and their cycles) went at once
    first = [next(steps) for _ in range(20)]  # its caches, a step at a time; then it waits
    assert first[-2:] == [False, False]
    assert len(reader.nodes) == 3_000 and reader.nodes["n_12"].title == "E12"  # intact
    gone = weakref.ref(reader)
    del reader
    assert gone() is None  # no cycle kept it: the last reader let go, the graph went
    assert sum(steps) >= 3  # its 3,000 nodes freed a step at a time, and then it ends
    store.close()


def test_without_a_taker_the_replaced_graph_goes_at_once(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "a.memgraph")
    store.storage.replace_all(_nodes(50), [], {}, backup=False)
    handed: list[Iterator[bool]] = []
    remove = store.retire_to(handed.append)
    remove()
    remove()  # idempotent
    old = weakref.ref(store.peek_graph)
    store.storage.replace_all(_nodes(5), [], {}, backup=False)
    assert old() is None and handed == []
    store.close()


def test_a_reload_after_another_process_replaced_the_file_hands_the_old_graph_over(
    tmp_path: Path,
) -> None:
    path = tmp_path / "a.memgraph"
    store = MemoryStore.open(path)
    load_demo(store, 300, seed=1)
    handed: list[Iterator[bool]] = []
    store.retire_to(handed.append)
    old = weakref.ref(store.peek_graph)
    done = run_process(path, "demo", "--nodes", "120")  # another process replaces the file
    assert done.returncode == 0, done.stderr
    store.sync()
    assert len(store.peek_graph.nodes) == 120 and len(handed) == 1
    steps = handed.pop()
    freed = list(steps)
    assert len(freed) >= 3 and all(freed)  # its caches, nodes and links, a step at a time
    assert old() is None  # nobody else held it: it went as the steps let go of its caches
    store.close()

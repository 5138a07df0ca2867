"""``MemoryStore.on_new_graph``: a bulk load's graph is handed over before readers see it, on
the loading thread, and a failing callback costs nothing but its own head start."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.model import Node


def _nodes(count: int) -> list[Node]:
    return [Node(id=f"n_{i}", type="event", title=f"E{i}", seq_to=i) for i in range(count)]


def test_a_new_graph_is_handed_over_unpublished_on_the_loading_thread(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "a.memgraph")
    store.write_api().create_node(type="character_sheet", title="Old")
    seen: list[tuple[int, int, bool]] = []

    def look(graph: object) -> None:
        readers = store.peek_graph  # what readers get meanwhile: still the old graph
        loader = threading.current_thread().name == "loader"
        seen.append((len(graph.nodes), len(readers.nodes), loader))  # type: ignore[attr-defined]

    store.on_new_graph(look)
    worker = threading.Thread(
        target=lambda: store.storage.replace_all(_nodes(30), [], {}, backup=False), name="loader"
    )
    worker.start()
    worker.join()
    assert seen == [(30, 1, True)]
    assert len(store.peek_graph.nodes) == 30
    store.close()


def test_a_failing_callback_is_reported_and_the_load_still_lands(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = MemoryStore.open(tmp_path / "a.memgraph")

    def broken(_graph: object) -> None:
        raise RuntimeError("broken warm-up")

    remove = store.on_new_graph(broken)
    with caplog.at_level(logging.ERROR, logger="memgraph_gui"):
        store.storage.replace_all(_nodes(5), [], {}, backup=False)
    assert len(store.peek_graph.nodes) == 5
    assert any("broken" in r.getMessage() for r in caplog.records)
    remove()
    remove()  # idempotent
    store.storage.replace_all(_nodes(6), [], {}, backup=False)
    assert sum(store.storage.subscriber_failures().values()) == 1
    store.close()

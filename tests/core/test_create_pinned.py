"""``createPinnedNode``: the desk's "New node here…" write: a node and its pin in one
transaction (one ChangeSet, one undo step, undone and redone together); a refusal writes
nothing. No Qt."""

from __future__ import annotations

from pathlib import Path

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError


def test_a_node_and_its_pin_are_one_step_undone_and_redone_together(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "s.memgraph")
    write = store.write_api(origin="desk")
    result = write.create_pinned_node(type="character_sheet", title="Tom & Jerry", at=[1, 2.5])
    node_id = result["id"]
    changes = result.changes
    assert changes is not None and node_id in changes.nodes_added and "pins" in changes.meta_keys
    assert store.pins()[node_id] == (1.0, 2.5)
    history = store.history_of("desk")
    assert history.depth() == (1, 0)
    assert history.steps()[0].label == "Create character_sheet 'Tom & Jerry'"
    history.undo()
    assert node_id not in store.graph.nodes and node_id not in store.pins()
    history.redo()
    assert store.graph.nodes[node_id].title == "Tom & Jerry"
    assert store.pins()[node_id] == (1.0, 2.5)
    store.close()


def test_a_same_titled_node_takes_the_create_and_the_pin(tmp_path: Path) -> None:
    store = MemoryStore.open(tmp_path / "s.memgraph")
    write = store.write_api()
    first = write.create_node(type="character_sheet", title="Ann")["id"]
    again = write.create_pinned_node(type="character_sheet", title="Ann", at=[3, 4])["id"]
    assert again == first and store.pins() == {first: (3.0, 4.0)}
    store.close()


def test_create_pinned_node_refuses_without_writing(tmp_path: Path) -> None:
    """A refused create (a thread without its required fields) or a bad point writes
    nothing: no node, no pin, no step."""
    store = MemoryStore.open(tmp_path / "s.memgraph")
    write = store.write_api()
    with pytest.raises(MemgraphError) as refused:
        write.create_pinned_node(type="thread", title="Errands", at=[1.0, 2.0])
    assert refused.value.code == "OP_FAILED"
    with pytest.raises(MemgraphError) as bad:
        write.create_pinned_node(type="character_sheet", title="Ann", at=[1.0, float("nan")])
    assert bad.value.code == "BAD_ARGS"
    assert store.pins() == {} and not store.graph.nodes
    assert store.history.depth() == (0, 0)
    store.close()

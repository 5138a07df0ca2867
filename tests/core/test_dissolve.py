"""dissolveRollup: children return to their previous parent, or take the rollup's place."""

from __future__ import annotations

from graph_builders import char, edge, load_store, node

from memgraph_gui.core import MemoryStore


def _edges(store: MemoryStore) -> set[tuple[str, str, str]]:
    return {(e.from_id, e.type, e.to_id) for e in store.read_api().list_edges()}


def test_children_go_back_to_a_previous_parent_of_another_type(store: MemoryStore) -> None:
    load_store(
        store,
        [char("c", childrenIds=["e1"]), node("e1", parentId="c"), node("e2"), node("e3")],
        [edge("c", "e1", "contains")],
    )
    write = store.write_api()
    rollup = write.compact_nodes(type="event", child_ids=["e1", "e2", "e3"], summary="s")
    rid = rollup["rollupNodeId"]
    read = store.read_api()
    assert read.get_node("e1").parent_id == rid and read.get_node("c").children_ids == ()
    result = write.dissolve_rollup(id=rid)
    assert result.to_json() == {"ok": True, "childIds": ["e1", "e2", "e3"], "parentId": ""}
    assert read.get_node("e1").parent_id == "c" and read.get_node("c").children_ids == ("e1",)
    assert [read.get_node(i).parent_id for i in ("e2", "e3")] == ["", ""]
    assert read.get_node(rid).archived and read.get_node(rid).children_ids == ()
    assert _edges(store) == {("c", "contains", "e1")}


def test_a_nested_rollups_children_take_its_place_in_the_grandparent(store: MemoryStore) -> None:
    events = [node(f"e{i}", seq=i) for i in range(1, 6)]
    load_store(store, events)
    write = store.write_api()
    r1 = write.compact_nodes(type="event", child_ids=["e1", "e2", "e3"], summary="a")
    r1_id = r1["rollupNodeId"]
    r2 = write.compact_nodes(type="event", child_ids=[r1_id, "e4", "e5"], summary="b")
    r2_id = r2["rollupNodeId"]
    write.dissolve_rollup(id=r1_id)
    read = store.read_api()
    assert read.get_node(r2_id).children_ids == ("e1", "e2", "e3", "e4", "e5")
    assert all(read.get_node(f"e{i}").parent_id == r2_id for i in range(1, 6))
    assert {
        (r2_id, rel, f"e{i}") for i in (1, 2, 3) for rel in ("contains", "semantic_contains")
    } <= _edges(store)
    assert not any(r1_id in (a, b) for a, _, b in _edges(store))
    store.history.undo()
    assert read.get_node(r2_id).children_ids == (r1_id, "e4", "e5")


def test_dissolving_a_rollup_whose_parent_is_archived_leaves_the_hierarchy_whole(
    store: MemoryStore,
) -> None:
    """Found by the undo property test: the archived parent kept listing the dissolved rollup
    while the rollup's own parentId was cleared (parent and children disagreed)."""
    load_store(store, [node(f"e{i}", seq=i) for i in range(1, 6)])
    write = store.write_api()
    r1_id = write.compact_nodes(type="event", child_ids=["e1", "e2"], summary="a")["rollupNodeId"]
    r2_id = write.compact_nodes(type="event", child_ids=[r1_id, "e3"], summary="b")["rollupNodeId"]
    write.archive_node(id=r2_id)
    write.dissolve_rollup(id=r1_id)
    read = store.read_api()
    assert read.get_node(r1_id).parent_id == "" and read.get_node(r1_id).archived
    assert r1_id not in read.get_node(r2_id).children_ids
    assert not any(r1_id in (a, b) and a == r2_id for a, _, b in _edges(store))
    assert [read.get_node(i).parent_id for i in ("e1", "e2")] == ["", ""]  # no live home
    store.history.undo()
    assert read.get_node(r2_id).children_ids == (r1_id, "e3")
    assert read.get_node(r1_id).parent_id == r2_id and not read.get_node(r1_id).archived

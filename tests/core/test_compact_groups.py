"""``compact_groups``: several rollups in one write and one undo step, each exactly the rollup
``compactNodes`` makes; a refused group is reported and left out, the others still roll up."""

from __future__ import annotations

from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError


def _events(store: MemoryStore, count: int = 9) -> list[str]:
    write = store.write_api(origin="setup")
    return [
        write.create_node(type="event", title=f"e{i}", fields={"summary": f"s{i}"})["id"]
        for i in range(count)
    ]


def _groups(ids: list[str]) -> list[dict[str, Any]]:
    return [
        {"childIds": ids[0:3], "summary": "first three"},
        {"childIds": ids[3:6], "summary": "next three"},
        {"childIds": ids[6:9], "summary": "last three"},
    ]


def _rollups(store: MemoryStore) -> list[dict[str, Any]]:
    nodes = sorted(store.graph.nodes.values(), key=lambda n: n.ord)
    return [{**n.to_json(), "id": ""} for n in nodes if n.semantic_rollup]


def test_groups_roll_up_in_one_step_exactly_as_compact_nodes_one_by_one() -> None:
    with MemoryStore.open(":memory:") as batched, MemoryStore.open(":memory:") as single:
        ids, same = _events(batched), _events(single)
        assert ids == same
        window = batched.write_api(origin="window")
        depth = batched.history_of("window").depth()
        result = window.compact_groups(type="event", groups=_groups(ids))
        assert result["compacted"] == 3 and len(result["results"]) == 3
        assert result.changes is not None and result.changes.label == "Compact 3 groups"
        assert batched.history_of("window").depth() == (depth[0] + 1, 0)
        for group in _groups(same):
            single.write_api().compact_nodes(type="event", **_snake(group))
        assert _rollups(batched) == _rollups(single)  # titles #1, #2, #3 as one by one
        made = [r["rollupNodeId"] for r in result["results"]]
        assert [batched.graph.nodes[c].parent_id for c in ids] == [m for m in made for _ in "abc"]
        undone = batched.history_of("window").undo()
        assert undone is not None and undone.label == "Undo Compact 3 groups"
        assert not _rollups(batched)
        assert all(batched.graph.nodes[c].parent_id == "" for c in ids)


def test_one_group_keeps_the_compact_nodes_label() -> None:
    with MemoryStore.open(":memory:") as store:
        ids = _events(store, 3)
        result = store.write_api().compact_groups(type="event", groups=_groups(ids)[:1])
        assert result.changes.label == "Compact 3 events"


def test_a_refused_group_is_reported_and_the_others_roll_up() -> None:
    with MemoryStore.open(":memory:") as store:
        ids = _events(store)
        store.write_api(origin="agent").compact_nodes(
            type="event", child_ids=ids[3:6], summary="an agent got there first"
        )
        result = store.write_api(origin="window").compact_groups(type="event", groups=_groups(ids))
        first, second, third = result["results"]
        assert "rollupNodeId" in first and "rollupNodeId" in third
        assert second["error"]["code"] == "CHILD_HAS_PARENT"
        assert "already has rollup parent" in second["error"]["message"]
        assert result["compacted"] == 2 and result.changes.label == "Compact 2 groups"
        titles = sorted(n.title for n in store.graph.nodes.values() if n.semantic_rollup)
        assert titles == ["event Summary L1 #1", "event Summary L1 #2", "event Summary L1 #3"]


def test_bad_arguments_write_nothing_and_all_refused_makes_no_step() -> None:
    with MemoryStore.open(":memory:") as store:
        ids = _events(store, 3)
        before, depth = store.dump(), store.history.depth()
        bad = [*_groups(ids)[:1], {"childIds": ids, "summary": "  "}]
        with pytest.raises(MemgraphError) as caught:
            store.write_api().compact_groups(type="event", groups=bad)
        assert caught.value.code == "BAD_ARGS" and "groups[1]" in caught.value.message
        result = store.write_api().compact_groups(
            type="event", groups=[{"childIds": ["n_404"], "summary": "gone"}]
        )
        assert result["compacted"] == 0 and result["results"][0]["error"]["code"] == (
            "CHILD_NOT_FOUND"
        )
        assert store.dump() == before and store.history.depth() == depth


def _snake(group: dict[str, Any]) -> dict[str, Any]:
    return {"child_ids": group["childIds"], "summary": group["summary"]}

"""The structure arrays behind ``projectEdges`` stay right across every kind of write, by this
process or another one: after each, the projection equals Luker's, recomputed from an export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import luker_reference as luker
import pytest
from processes import memgraph

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.graph.structure_index import graph_arrays
from memgraph_gui.core.luker.interop import export_luker


def check(store: Any) -> None:
    """projectEdges on three visible sets equals Luker's projection of the exported store."""
    doc, api = export_luker(store), store.read_api()
    everyone = list(doc["nodes"])
    candidates = [n.id for n in api.list_visible_candidates()]
    for visible in (candidates, everyone[::3], everyone):
        for internal in (True, False):
            ours = api.project_edges(visible_node_ids=visible, exclude_internal=internal)
            assert ours.to_json() == luker.project_edges(doc, visible, None, internal)


def live_edge(store: Any, relation: str) -> Any:
    """The first ``relation`` edge between two live nodes (so it shows in a projection)."""
    api = store.read_api()
    return next(
        e
        for e in api.list_edges(types=[relation])
        if not api.get_node(e.from_id).archived and not api.get_node(e.to_id).archived
    )


def arrays(store: Any) -> Any:
    with store.reading() as graph:
        return graph_arrays(graph)


@pytest.fixture
def demo(tmp_path: Path) -> Any:
    with MemoryStore.open(tmp_path / "s.memgraph") as store:
        load_demo(store, 400, 5, shape="uniform")  # (its "mentions" links are all live)
        yield store


def test_a_field_edit_keeps_the_arrays(demo: Any) -> None:
    check(demo)
    before = arrays(demo)
    event = demo.read_api().list_nodes(types=["event"])[0].id
    demo.write_api().edit_node(id=event, set_fields={"summary": "rewritten"})
    assert arrays(demo) is before
    check(demo)


def test_new_nodes_and_links_are_added_in_place(demo: Any) -> None:
    check(demo)
    before = arrays(demo)
    w, api = demo.write_api(), demo.read_api()
    events = [n.id for n in api.list_nodes(types=["event"])]
    made = w.create_node(type="character_sheet", title="Newcomer")["id"]
    w.upsert_links(
        source={"id": made},
        links=[
            {"targetNodeId": events[0], "relation": "involved_in", "direction": "outgoing"},
            {"targetNodeId": events[1], "relation": "Brand New", "direction": "bidirectional"},
            {"targetNodeId": events[2], "relation": "allied_with"},
        ],
    )
    after = arrays(demo)
    assert after is not before and len(after.src) == len(before.src) + 4
    assert after.src[: len(before.src)].tolist() == before.src.tolist()  # not rebuilt
    check(demo)


def test_removals_hierarchy_changes_and_undo(demo: Any) -> None:
    w, api = demo.write_api(), demo.read_api()
    check(demo)
    edge = live_edge(demo, "mentions")
    w.delete_links(source={"id": edge.from_id}, target={"id": edge.to_id}, relation="mentions")
    check(demo)
    leaves = [n.id for n in api.list_nodes(types=["event"]) if not n.parent_id][:3]
    w.compact_nodes(type="event", child_ids=leaves, summary="three in one")
    check(demo)
    w.delete_node(id=leaves[1])
    check(demo)
    for step in ("undo", "undo", "undo", "redo"):
        getattr(demo.history, step)()
        check(demo)


def test_another_process_writes(demo: Any) -> None:
    check(demo)
    path = str(demo.path)

    def call(method: str, options: dict[str, Any]) -> Any:
        done = memgraph("--db", path, "call", method, json.dumps([options]))
        assert done.returncode == 0, done.stdout + done.stderr
        return json.loads(done.stdout)["result"]

    events = [n.id for n in demo.read_api().list_nodes(types=["event"])]
    node_id = call("createNode", {"type": "character_sheet", "title": "Tess"})["id"]
    link = {"targetNodeId": events[0], "relation": "advances", "direction": "incoming"}
    assert call("upsertLinks", {"source": {"id": node_id}, "links": [link]})["applied"] == 1
    check(demo)
    edge = live_edge(demo, "involved_in")
    gone = {"source": {"id": edge.from_id}, "target": {"id": edge.to_id}, "relation": edge.type}
    assert call("deleteLinks", gone)["removed"] >= 1
    check(demo)

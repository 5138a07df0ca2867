"""listNodes with a type filter reads a kept index of nodes by type; through any writes it
answers what a pass over the whole timeline with the type test answers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.timeline_order import in_timeline_order
from memgraph_gui.core.graph.type_index import nodes_of_types

IDS = ["a", "b", "c", "d", "e"]
FIELDS = {"summary": "s", "status": "open", "note": "n"}  # every type's required columns
TYPES = ["event", "Event", "character_sheet", "thread"]
_op = st.tuples(
    st.sampled_from(["put", "drop", "ask"]),
    st.sampled_from(IDS),
    st.sampled_from(TYPES),
    st.integers(0, 3),
    st.frozensets(st.sampled_from(["event", "character_sheet", "thread", "nope"]), min_size=1),
)


@settings(max_examples=120, deadline=None)
@given(ops=st.lists(_op, max_size=30))
def test_nodes_of_types_equal_a_filter_of_the_timeline(ops: list) -> None:
    graph = Graph()
    for op, node_id, kind, seq, wanted in ops:
        if op == "put":
            graph.put_node(Node(node_id, kind, seq_to=seq))
        elif op == "drop":
            graph.drop_node(node_id)
        expected = [
            graph.nodes[i] for i in graph.timeline_ids() if graph.nodes[i].type.lower() in wanted
        ]
        assert in_timeline_order(graph, nodes_of_types(graph, wanted)) == expected


def test_list_nodes_by_type_through_writes_and_undo() -> None:
    with MemoryStore.open(":memory:") as store:
        write, read = store.write_api(), store.read_api()
        made = [
            write.create_node(type=kind, title=f"{kind} {i}", fields=FIELDS)["id"]
            for i, kind in enumerate(["event", "character_sheet", "thread", "event"] * 3)
        ]
        write.delete_node(id=made[0])  # archived: hidden while active_only
        store.history.undo()
        write.delete_node(id=made[4])

        def by_filter(types: set[str], active: bool) -> list[str]:
            everyone = read.list_nodes(active_only=active)
            return [n.id for n in everyone if n.type.lower() in types]

        for types in ({"event"}, {"event", "thread"}, {"character_sheet"}, {"nope"}):
            for active in (True, False):
                got = [n.id for n in read.list_nodes(types=sorted(types), active_only=active)]
                assert got == by_filter(types, active), (types, active)
        assert [n.id for n in read.list_nodes(types=["EVENT"])] == by_filter({"event"}, True)


def test_list_nodes_kept_between_calls_follows_every_write() -> None:
    """listNodes() without filters is kept between calls; every write shows in the next one."""
    from memgraph_gui.core.graph import topology

    with MemoryStore.open(":memory:") as store:
        write, read = store.write_api(), store.read_api()

        def plain(active: bool) -> list[str]:
            with store.reading() as graph:
                nodes = [graph.nodes[i] for i in graph.timeline_ids()]
            hidden = (lambda n: n.archived or topology.is_recall_diagnostic(n)) if active else None
            return [n.id for n in nodes if hidden is None or not hidden(n)]

        made = write.create_node(type="event", title="one", fields=FIELDS)["id"]
        steps = [
            lambda: write.create_node(type="thread", title="two", fields=FIELDS),
            lambda: write.edit_node(id=made, set_fields={"summary": "edited"}),
            lambda: write.delete_node(id=made),
            store.history.undo,
            store.history.redo,
        ]
        for step in steps:
            assert [n.id for n in read.list_nodes()] == plain(True)  # kept from the last call
            step()
            for active in (True, False):
                assert [n.id for n in read.list_nodes(active_only=active)] == plain(active)

"""What the candidate rows keep across writes (structure arrays, edge recencies, the edge-summary
skeleton) is updated for the nodes and edges a write touches, and stays exactly what a fresh build
and the seed's getNodeBrief loop give: after extraction batches (a new event linked to the
protagonist and a few characters), links made and removed, archives, restores, undo and redo."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.graph.pool_index import PoolIndex
from memgraph_gui.core.graph.recall import candidate_pool
from memgraph_gui.core.graph.structure_index import StructureIndex, graph_arrays, merged_by_ord
from memgraph_gui.core.graph.topology import edge_seq, edges_in_order
from memgraph_gui.core.luker.route_input import build_route_input, candidate_rows, route_text
from memgraph_gui.core.luker.route_rows import EdgeSeqs, Step, _alignment, _carry
from tests.core.test_route_input import assert_same_rows, worked_example


@pytest.fixture
def demo(tmp_path: Path) -> Any:
    with MemoryStore.open(tmp_path / "s.memgraph") as store:
        load_demo(store, 600, 3)  # records the pool as the visible set
        yield store


def kept_state_is_fresh(store: Any) -> None:
    """The kept structure arrays equal a fresh build (node by node, edge by edge, by name), the
    kept edge recencies equal ``edge_seq`` of every edge in store order and the kept candidate
    pool a fresh one."""
    with store.reading() as graph:
        kept = graph_arrays(graph)
        fresh = StructureIndex(graph).arrays()

        def nodes(a: Any) -> dict[str, tuple[Any, bool]]:
            ids = a.ids.tolist()
            return {
                ids[i]: (ids[p] if p >= 0 else None, bool(a.archived[i]))
                for i, p in enumerate(a.parent.tolist())
            }

        def edges(a: Any) -> list[tuple[Any, ...]]:
            ids, names = a.ids.tolist(), a.relations.tolist()
            return [
                (o, ids[s] if s >= 0 else None, ids[d] if d >= 0 else None, names[r])
                for o, s, d, r in zip(
                    a.ord.tolist(), a.src.tolist(), a.dst.tolist(), a.rel.tolist(), strict=True
                )
            ]

        assert nodes(kept) == nodes(fresh)
        assert edges(kept) == edges(fresh)
        assert kept.ids.tolist() == list(kept.slot)  # slot i is ids[i]
        seqs = graph.index("route_edge_seqs", lambda: EdgeSeqs(graph)).seqs(kept)
        assert seqs.tolist() == [edge_seq(graph, e) for e in edges_in_order(graph)]
        assert {n.id for n in candidate_pool(graph)} == PoolIndex(graph).ids()


def rows_are_exact(store: Any, message: str | None = None) -> None:
    read = store.read_api()
    assert_same_rows(candidate_rows(read), worked_example(read)[1])
    if message is not None:
        route = build_route_input(read, message)
        schema, rows = worked_example(read)
        always = read.get_injection_state().to_json()["alwaysInjectIds"]
        assert route.text == route_text(schema, rows, always, message)
        assert_same_rows(list(route.candidate_rows), rows)


def characters(store: Any) -> list[str]:
    """The visible candidates that are character sheets, the most linked first."""
    read = store.read_api()
    rows = candidate_rows(read)
    chars = [r for r in rows if r["type"] == "character_sheet"]
    chars.sort(key=lambda r: -r["edgeSummary"]["degree"])
    return [r["id"] for r in chars]


def extraction_batch(store: Any, chars: list[str], step: int, *, visible: bool) -> str:
    """A new event linked to the protagonist and three characters in one batch (what an
    extraction turn writes); with ``visible`` it also joins the recorded visible set."""
    write = store.write_api(origin="t")
    links = [{"targetNodeId": c, "relation": "involved_in"} for c in chars[:1] + chars[5:8]]
    result = write.apply_extraction_batch(
        ops=[
            {"op": "create", "type": "event", "ref": "e", "fields": {"summary": f"e{step} 第"}},
            {"op": "link_upsert", "sourceRef": "e", "links": links},
        ],
        max_seq=10_000 + step,
    )
    made = str(result["applied"][0]["nodeId"])
    if visible:
        seen = store.read_api().get_injection_state().to_json()["visibleIds"]
        write.set_injection_state({"visibleIds": [*seen, made]})
    return made


DEMO_WRITES = (
    "archive_event",
    "batch",
    "batch_visible",
    "link",
    "unlink",
    "archive",
    "restore",
    "edit_seq",
    "edit",
    "undo",
    "redo",
    "visible",
)


def demo_write(rng: random.Random, store: Any, chars: list[str], step: int) -> str:
    """One write of a random kind, among the shapes a chat turn makes."""
    write, read = store.write_api(origin="t"), store.read_api()
    kind = rng.choice(DEMO_WRITES)
    live = [c for c in chars if not read.get_node(c).archived]
    if kind in ("batch", "batch_visible"):
        extraction_batch(store, live, step, visible=kind == "batch_visible")
    elif kind == "link":
        a, b = rng.sample(live[:12], 2)
        relation = rng.choice(["allied_with", "mentions", "rival_of", "related"])
        write.upsert_links(source={"id": a}, links=[{"target": {"id": b}, "relation": relation}])
    elif kind == "unlink":
        edges = [e for e in read.list_edges() if e.from_id in live or e.to_id in live]
        e = rng.choice(edges)
        write.delete_links(source={"id": e.from_id}, target={"id": e.to_id}, relation=e.type)
    elif kind == "archive":
        write.archive_node(id=rng.choice(live[1:20]))
    elif kind == "archive_event":  # an event candidate: a lone leaf or a rollup
        events = [v.id for v in read.list_visible_candidates() if v.type == "event"]
        write.archive_node(id=rng.choice(events))
    elif kind == "restore":
        gone = [n.id for n in read.list_nodes(active_only=False) if n.archived]
        if gone:
            write.restore_node(id=rng.choice(gone))
    elif kind in ("edit_seq", "edit"):
        write.edit_node(  # a title shows in the summaries that sample the node
            id=rng.choice(live[:30]),
            title=f"Renamed {step} 第{step}",
            set_fields={"traits": f"t{step}"},
            keep_seq=kind == "edit",
        )
    elif kind == "visible":  # some visible ids dropped, any nodes (rolled-up events too) added
        seen = read.get_injection_state().to_json()["visibleIds"]
        every = [n.id for n in read.list_nodes()]
        kept = [i for i in seen if rng.random() > 0.05]
        write.set_injection_state({"visibleIds": kept + rng.sample(every, 8)})
    elif kind == "undo":
        store.history_of("t").undo()
    elif kind == "redo":
        store.history_of("t").redo()
    return kind


@pytest.mark.parametrize("seed", range(5))
def test_random_chat_turn_writes_keep_the_rows_exact(demo: Any, seed: int) -> None:
    rng = random.Random(seed)
    chars = characters(demo)
    rows_are_exact(demo)
    kinds: list[str] = []
    for step in range(30):
        try:
            kinds.append(demo_write(rng, demo, chars, step))
        except MemgraphError:
            kinds.append("refused")  # a refused write changes nothing
        rows_are_exact(demo, f"step {step}" if step % 6 == 0 else None)
        kept_state_is_fresh(demo)
    assert kinds.count("refused") < 6
    assert {"batch", "batch_visible", "link", "unlink"} & set(kinds)


def skeleton(store: Any) -> Any:
    with store.reading() as graph:
        return graph.index("route_edge_seqs", lambda: EdgeSeqs(graph)).skeleton


def test_a_new_link_redoes_only_its_two_ends(demo: Any) -> None:
    chars = characters(demo)
    rows_are_exact(demo)
    before = skeleton(demo)
    a, b = chars[0], chars[9]
    demo.write_api().upsert_links(
        source={"id": a}, links=[{"target": {"id": b}, "relation": "rival_of"}]
    )
    rows_are_exact(demo)
    after = skeleton(demo)
    assert after is not before and after.lifted is before.lifted  # the same hierarchy
    was = dict(zip(before.targets, range(len(before.targets)), strict=True))
    redone = {
        t for j, t in enumerate(after.targets) if after.relations[j] is not before.relations[was[t]]
    }
    assert redone == {a, b}
    # ... and removing it again lines the edges up without a rebuild
    with demo.reading() as graph:
        slots = graph_arrays(graph).slot
        made = sorted(e.ord for e in graph.edges_of(a) if e.type == "rival_of")
    demo.write_api().delete_links(source={"id": a}, target={"id": b}, relation="rival_of")
    rows_are_exact(demo)
    with demo.reading() as graph:
        assert graph_arrays(graph).slot is slots  # not rebuilt
        index = graph.index("route_edge_seqs", lambda: EdgeSeqs(graph))
        assert index.step is not None and index.step.removed.tolist() == made
    kept_state_is_fresh(demo)
    final = skeleton(demo)
    assert [final.degree[j] for j in range(len(final.targets))] == [
        before.degree[was[t]] for t in final.targets
    ]


def test_an_extraction_batch_with_an_invisible_event_redoes_nothing(demo: Any) -> None:
    """The new event is not in the recorded visible set, so no summary sees its links: every
    target's numbers are carried over (and the rows still equal the loop's)."""
    chars = characters(demo)
    rows_are_exact(demo)
    before = skeleton(demo)
    extraction_batch(demo, chars, 1, visible=False)
    rows_are_exact(demo)
    after = skeleton(demo)
    assert after is not before and after.targets == before.targets
    assert all(x is y for x, y in zip(after.samples, before.samples, strict=True))
    extraction_batch(demo, chars, 2, visible=True)  # now it shows: the characters change
    rows_are_exact(demo, "after")
    kept_state_is_fresh(demo)


def test_a_new_visible_set_redoes_only_the_targets_it_moves(demo: Any) -> None:
    rows_are_exact(demo)
    before = skeleton(demo)
    read = demo.read_api()
    chars = characters(demo)
    seen = read.get_injection_state().to_json()["visibleIds"]
    demo.write_api().set_injection_state({"visibleIds": [i for i in seen if i != chars[4]]})
    rows_are_exact(demo)
    after = skeleton(demo)
    assert chars[4] not in after.targets
    was = dict(zip(before.targets, range(len(before.targets)), strict=True))
    kept = [t for j, t in enumerate(after.targets) if after.samples[j] is before.samples[was[t]]]
    assert 0 < len(kept) < len(after.targets)  # its neighbours redone, the others kept
    kept_state_is_fresh(demo)


def test_undo_puts_an_edge_back_in_the_middle(demo: Any) -> None:
    rows_are_exact(demo)
    read = demo.read_api()
    chars = characters(demo)
    edge = next(e for e in read.list_edges() if chars[0] in (e.from_id, e.to_id))
    demo.write_api(origin="t").delete_links(
        source={"id": edge.from_id}, target={"id": edge.to_id}, relation=edge.type
    )
    rows_are_exact(demo)
    demo.history_of("t").undo()  # the edge comes back with its old row number
    rows_are_exact(demo)
    kept_state_is_fresh(demo)
    demo.history_of("t").redo()
    rows_are_exact(demo)
    kept_state_is_fresh(demo)


def test_an_undone_create_is_followed_and_an_older_purge_rebuilds(demo: Any) -> None:
    """Undoing a create purges the node: the newest slots are dropped in place; purging an
    older node (slots would shift) rebuilds. The rows stay exact either way."""
    rows_are_exact(demo)
    with demo.reading() as graph:
        slots = graph_arrays(graph).slot
    chars = characters(demo)
    made = extraction_batch(demo, chars, 3, visible=True)
    rows_are_exact(demo)
    demo.history_of("t").undo()
    rows_are_exact(demo)
    with demo.reading() as graph:
        assert made not in graph.nodes
        assert graph_arrays(graph).slot is slots  # followed
    kept_state_is_fresh(demo)
    demo.history_of("t").redo()  # the same node again, under its old id
    rows_are_exact(demo, "redone")
    kept_state_is_fresh(demo)
    older = extraction_batch(demo, chars, 4, visible=True)  # origin "t"
    demo.write_api(origin="u").create_node(type="character_sheet", title="Later")
    rows_are_exact(demo)
    demo.history_of("t").undo()  # purges ``older``, which is not the newest slot
    rows_are_exact(demo)
    with demo.reading() as graph:
        assert older not in graph.nodes
        assert graph_arrays(graph).slot is not slots  # rebuilt
    kept_state_is_fresh(demo)


@settings(max_examples=200, deadline=None)
@given(
    old=st.lists(st.integers(1, 60), unique=True, max_size=30).map(sorted),
    data=st.data(),
)
def test_edges_line_up_across_removals_and_additions(old: list[int], data: Any) -> None:
    """``merged_by_ord`` and ``_alignment`` / ``_carry`` agree with set arithmetic on ords,
    with and without the merge step (the step path and the table path)."""
    removed = data.draw(st.sets(st.sampled_from(old)) if old else st.just(set()), label="removed")
    added = data.draw(
        st.sets(st.integers(1, 90).filter(lambda o: o not in old), max_size=8), label="added"
    )
    before = np.array(old, np.int64)
    columns = [before * 10]
    adds = np.array(sorted(added, reverse=True), np.int64)  # any order
    merged = merged_by_ord(before, columns, set(removed), adds, [adds * 10])
    assert merged is not None
    new, (tens,) = merged
    assert new.tolist() == sorted((set(old) - removed) | added)
    assert tens.tolist() == [o * 10 for o in new.tolist()]
    step = Step(before, np.array(sorted(removed), np.int64), np.array(sorted(added), np.int64))
    for how in (step, None):
        gone, put = _alignment(before, new, how)
        assert sorted(before[gone].tolist()) == sorted(removed)
        assert sorted(new[put].tolist()) == sorted(added)
        carried = _carry(before, gone, put, -1)
        assert carried.tolist() == [o if o not in added else -1 for o in new.tolist()]
    assert merged_by_ord(before, columns, {999}, adds, [adds]) is None  # not there: rebuild


def test_another_processes_writes_are_followed(demo: Any) -> None:
    """Writes by another process reach the kept state through the change log like our own."""
    import json

    from processes import memgraph

    def call(method: str, options: dict[str, Any]) -> Any:
        done = memgraph("--db", str(demo.path), "call", method, json.dumps([options]))
        assert done.returncode == 0, done.stdout + done.stderr
        return json.loads(done.stdout)["result"]

    chars = characters(demo)
    rows_are_exact(demo)
    with demo.reading() as graph:
        slots = graph_arrays(graph).slot
    links = [{"targetNodeId": c, "relation": "involved_in"} for c in chars[:4]]
    ops = [
        {"op": "create", "type": "event", "ref": "e", "fields": {"summary": "from afar"}},
        {"op": "link_upsert", "sourceRef": "e", "links": links},
        {
            "op": "link_upsert",
            "sourceNodeId": chars[1],
            "links": [{"targetNodeId": chars[2], "relation": "rival_of"}],
        },
    ]
    call("applyExtractionBatch", {"ops": ops, "maxSeq": 9_999})
    rows_are_exact(demo, "after a batch elsewhere")
    with demo.reading() as graph:
        assert graph_arrays(graph).slot is slots  # followed, not rebuilt
    kept_state_is_fresh(demo)
    gone = {"source": {"id": chars[1]}, "target": {"id": chars[2]}, "relation": "rival_of"}
    assert call("deleteLinks", gone)["removed"] >= 1
    call("archiveNode", {"id": chars[3]})
    rows_are_exact(demo, "after a removal and an archive elsewhere")
    kept_state_is_fresh(demo)


POOL_IDS = ["a", "b", "c", "d", "e"]


@settings(max_examples=400, deadline=None)
@given(
    shape=st.lists(
        st.tuples(
            st.sampled_from(["", *POOL_IDS]),  # parent, possibly one that does not list it
            st.lists(st.sampled_from(POOL_IDS), max_size=2, unique=True),  # children named
            st.booleans(),  # archived
        ),
        min_size=5,
        max_size=5,
    ),
    steps=st.lists(
        st.tuples(st.sampled_from(["archive", "restore", "purge"]), st.sampled_from(POOL_IDS)),
        max_size=6,
    ),
)
def test_the_pool_follows_parentless_leaves_archived_restored_or_purged(
    shape: list[Any], steps: list[Any]
) -> None:
    """Events whose parents and children do not agree (a node named as parent or child by a
    node it does not name back): the kept pool still equals a fresh one after each archive,
    restore or purge (the lone-leaf shortcut checks that no node names the leaf)."""
    from memgraph_gui.core.domain.default_schema import default_schema
    from memgraph_gui.core.domain.model import Node, evolve
    from memgraph_gui.core.graph.graph import Graph

    graph = Graph()
    graph.set_meta("schema", default_schema())
    for node_id, (named, children, archived) in zip(POOL_IDS, shape, strict=True):
        parent = "" if named == node_id else named
        kids = tuple(c for c in children if c != node_id)
        graph.put_node(
            Node(node_id, "event", parent_id=parent, children_ids=kids, archived=archived)
        )
    kept = graph.index("candidates", lambda: PoolIndex(graph))
    assert kept.ids() == PoolIndex(graph).ids()
    for op, node_id in steps:
        node = graph.nodes.get(node_id)
        if node is None:
            continue
        if op == "purge":
            graph.drop_node(node_id)
        else:
            graph.put_node(evolve(node, archived=op == "archive"))
        assert kept.ids() == PoolIndex(graph).ids()


@settings(max_examples=300, deadline=None)
@given(
    parents=st.lists(st.integers(-1, 6), min_size=7, max_size=7),
    archived=st.lists(st.booleans(), min_size=7, max_size=7),
    odd=st.sampled_from([None, "bogus child", "bogus parent"]),
    steps=st.lists(
        st.tuples(st.sampled_from(["archive", "restore", "purge"]), st.integers(0, 6)),
        max_size=6,
    ),
)
def test_the_pool_follows_rollups_archived_restored_or_purged(
    parents: list[int], archived: list[bool], odd: str | None, steps: list[Any]
) -> None:
    """Forests of events whose parents and children agree (rollups over leaves), sometimes
    with one node naming another that does not name it back: archiving, restoring or purging
    any node keeps the kept pool equal to a fresh one (a parentless node's subtree is redone
    alone)."""
    from memgraph_gui.core.domain.default_schema import default_schema
    from memgraph_gui.core.domain.model import Node, evolve
    from memgraph_gui.core.graph.graph import Graph

    ids = [f"n{i}" for i in range(7)]
    parent = [p if 0 <= p < i else -1 for i, p in enumerate(parents)]  # a forest
    children: list[list[str]] = [[] for _ in ids]
    for i, p in enumerate(parent):
        if p >= 0:
            children[p].append(ids[i])
    graph = Graph()
    graph.set_meta("schema", default_schema())
    for i, node_id in enumerate(ids):
        kids = tuple(children[i])
        up = ids[parent[i]] if parent[i] >= 0 else ""
        if odd == "bogus child" and i == 0:
            kids += (ids[6],)  # n6 does not name n0 as its parent (unless it does)
        if odd == "bogus parent" and i == 6:
            up = ids[0]  # n0 does not list n6 (unless it does)
        graph.put_node(
            Node(node_id, "event", parent_id=up, children_ids=kids, archived=archived[i])
        )
    kept = graph.index("candidates", lambda: PoolIndex(graph))
    assert kept.ids() == PoolIndex(graph).ids()
    for op, at in steps:
        node = graph.nodes.get(ids[at])
        if node is None:
            continue
        if op == "purge":
            graph.drop_node(node.id)
        else:
            graph.put_node(evolve(node, archived=op == "archive"))
        assert kept.ids() == PoolIndex(graph).ids()

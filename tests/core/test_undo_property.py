"""Undo/redo: unit behaviour, and a stateful property test over random write sequences.

The property: two writers (origins) edit one file; after every step the graph's invariants hold,
the in-memory graph equals a fresh reload of the file, and the O(1) undo depths equal the ones
counted from the log. When only whole-store undo/redo was used, undoing every step restores the
starting tables exactly and redoing every step restores the end tables exactly (also after the
file has been closed and reopened, since the history lives in the file). ``nodeSeq`` is the one
value undo never takes back: node ids are never handed out twice.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.luker.interop import import_luker
from tests.core.graph_builders import assert_hierarchy

HIER = ("contains", "semantic_contains")
BASELINE = {
    "nodes": {
        "n_1": {"type": "character_sheet", "title": "Eileen", "fields": {"aliases": "艾琳"}},
        "n_2": {"type": "character_sheet", "title": "Kain", "seqTo": 2},
        "n_3": {"type": "location_state", "title": "银月城", "seqTo": 1},
        **{
            f"n_{i}": {
                "type": "event",
                "title": f"Summary {i - 3}",
                "seqTo": i - 3,
                "fields": {"summary": f"turn {i - 3}"},
                "parentId": "n_7" if i < 6 else "",
            }
            for i in (4, 5, 6)
        },
        "n_7": {
            "type": "event",
            "title": "event Summary L1 #1",
            "semanticRollup": True,
            "semanticDepth": 1,
            "seqTo": 2,
            "childrenIds": ["n_4", "n_5"],
            "fields": {"summary": "turns 1-2"},
        },
    },
    "edges": [
        {"from": "n_1", "to": "n_2", "type": "knows"},
        {"from": "n_4", "to": "n_1", "type": "involved_in", "seqTo": 1},
        *({"from": "n_7", "to": c, "type": t} for c in ("n_4", "n_5") for t in HIER),
    ],
}


def comparable(dump: dict) -> dict:
    """A table dump without ``nodeSeq`` (which only grows, also across undo)."""
    return {**dump, "meta": [row for row in dump["meta"] if row[0] != "nodeSeq"]}


def node_seq(store: MemoryStore) -> int:
    return int(store.graph.meta.get("nodeSeq", 0))


def check_matches_reload(store: MemoryStore) -> None:
    """The in-memory graph equals the file's content read afresh."""
    with MemoryStore.open(store.path, create=False) as fresh:
        with store.reading() as mine, fresh.reading() as theirs:
            assert mine.nodes == theirs.nodes
            assert mine.edges == theirs.edges
            assert mine.meta == theirs.meta


def check_depths(store: MemoryStore) -> None:
    """``depth()`` (O(1) counters) equals the depth counted from the steps themselves."""
    for history in (store.history, store.history_of("window"), store.history_of("agent")):
        steps = history.steps(limit=10**6)
        counted = (sum(not s.undone for s in steps), len(history._redoable(steps)))
        assert history.depth() == counted


def check_invariants(store: MemoryStore) -> None:
    """Parent/children agree both ways, edges have both ends, no parent cycles, ids unique."""
    with store.reading() as g:
        assert all(key == n.id for key, n in g.nodes.items())
        for key, edge in g.edges.items():
            assert (edge.from_id, edge.type, edge.to_id) == key, edge
        assert_hierarchy(g.nodes, g.edges)
    ids = [row[1] for row in store.dump()["nodes"]]
    assert len(ids) == len(set(ids))


IDX = st.integers(0, 40)
TYPES = st.sampled_from(["character_sheet", "location_state", "event"])
TITLES = st.sampled_from(["Eileen", "kain", "Lina", "银月城", "黑森林"])
RELATIONS = st.sampled_from(["knows", "Allied_With", "hostile_to", "owes  money", "mentions"])
DIRECTIONS = st.sampled_from([None, "outgoing", "incoming", "bidirectional"])


class UndoMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="memgraph-undo-"))
        self.path = self.dir / "prop.memgraph"
        self.store = MemoryStore.open(self.path)
        import_luker(self.store, BASELINE)
        self.writers = {o: self.store.write_api(origin=o) for o in ("window", "agent")}
        self.w = self.writers["window"]
        self.start = self.store.dump()
        self.scoped = False  # an origin-scoped undo/redo happened
        self.seq = node_seq(self.store)
        assert self.store.history.depth() == (0, 0)

    def pick(self, i: int, *, rollups: bool = False) -> str:
        with self.store.reading() as g:
            ids = sorted(n.id for n in g.nodes.values() if n.semantic_rollup or not rollups)
        return ids[i % len(ids)] if ids else "n_404"

    def attempt(self, fn, *args, **kwargs) -> None:
        try:
            fn(*args, **kwargs)
        except MemgraphError as exc:  # refusals are part of the contract; they must change nothing
            assert exc.code in {
                "BAD_ARGS",
                "OP_FAILED",
                "CHILD_NOT_FOUND",
                "CHILD_HAS_PARENT",
                "NODE_NOT_FOUND",
                "UNDO_CONFLICT",
            }, exc

    def op(self, spec: tuple) -> dict:
        kind, a, b, title, relation, direction = spec
        if kind == "create":
            return {
                "op": "create",
                "type": "character_sheet",
                "title": title,
                "ref": title[:1],
                "links": [{"targetRef": "E", "targetNodeId": self.pick(a), "relation": relation}],
            }
        if kind == "edit":
            return {"op": "edit", "nodeId": self.pick(a), "setFields": {"state": title}}
        if kind == "delete":
            return {"op": "delete", "nodeId": self.pick(a)}
        link = {
            "targetNodeId": self.pick(b),
            "targetRef": title[:1],
            "relation": relation,
            "direction": direction,
        }
        if kind == "link_upsert":
            return {"op": "link_upsert", "sourceNodeId": self.pick(a), "links": [link]}
        return {
            "op": "link_delete",
            "sourceNodeId": self.pick(a),
            "targetNodeId": self.pick(b),
            "relation": relation,
            "direction": direction,
        }

    @rule(kind=TYPES, title=TITLES)
    def create(self, kind, title):
        fields = {"summary": f"about {title}"} if kind == "event" else {"traits": title}
        self.attempt(self.w.create_node, type=kind, title=title, fields=fields)

    @rule(i=IDX, title=TITLES, rename=st.booleans(), clear=st.booleans())
    def edit(self, i, title, rename, clear):
        self.w.edit_node(
            id=self.pick(i),
            set_fields={"goal": title},
            clear_fields=["traits"] if clear else None,
            title=title + "!" if rename else None,
        )

    @rule(i=IDX)
    def delete(self, i):
        self.w.delete_node(id=self.pick(i))

    @rule(a=IDX, b=IDX, replace=st.booleans())
    def archive(self, a, b, replace):
        """Luker's archiveNode: with a replacement, links move in place (and may take a later
        equal link's place), so undo must put every link back where it was."""
        self.w.archive_node(id=self.pick(a), replacement_id=self.pick(b) if replace else None)

    @rule(i=IDX)
    def restore(self, i):
        self.attempt(self.w.restore_node, id=self.pick(i))

    @rule(a=IDX, b=IDX, relation=RELATIONS, direction=DIRECTIONS)
    def link(self, a, b, relation, direction):
        self.w.upsert_links(
            source={"id": self.pick(a)},
            links=[{"target": {"id": self.pick(b)}, "relation": relation, "direction": direction}],
        )

    @rule(a=IDX, b=IDX, relation=RELATIONS, direction=DIRECTIONS)
    def unlink(self, a, b, relation, direction):
        self.w.delete_links(
            source={"id": self.pick(a)},
            target={"id": self.pick(b)},
            relation=relation,
            direction=direction,
        )

    @rule(
        kind=st.sampled_from(["event", "character_sheet"]),
        picks=st.lists(IDX, min_size=1, max_size=4),
        summary=TITLES,
    )
    def compact(self, kind, picks, summary):
        self.attempt(
            self.w.compact_nodes,
            type=kind,
            child_ids=[self.pick(i) for i in picks],
            summary=summary,
        )

    @rule(i=IDX)
    def dissolve(self, i):
        self.attempt(self.w.dissolve_rollup, id=self.pick(i, rollups=True))

    @rule(
        ops=st.lists(
            st.tuples(
                st.sampled_from(["create", "edit", "delete", "link_upsert", "link_delete"]),
                IDX,
                IDX,
                TITLES,
                RELATIONS,
                DIRECTIONS,
            ),
            min_size=1,
            max_size=5,
        ),
        event=st.booleans(),
    )
    def batch(self, ops, event):
        batch = [self.op(spec) for spec in ops]
        if event:  # a create that later ops (any order) may reach through the ref "E"
            batch.insert(
                len(batch) // 2,
                {"op": "create", "type": "event", "ref": "E", "fields": {"summary": "batch event"}},
            )
        self.w.apply_extraction_batch(ops=batch)

    @rule(origin=st.sampled_from(["window", "agent"]))
    def switch_writer(self, origin):
        self.w = self.writers[origin]

    @rule(origin=st.sampled_from([None, "window", "agent"]))
    def undo(self, origin):
        self.scoped |= origin is not None
        history = self.store.history if origin is None else self.store.history_of(origin)
        self.attempt(history.undo)

    @rule(origin=st.sampled_from([None, "window", "agent"]))
    def redo(self, origin):
        self.scoped |= origin is not None
        history = self.store.history if origin is None else self.store.history_of(origin)
        self.attempt(history.redo)

    @invariant()
    def graph_is_consistent(self):
        check_invariants(self.store)
        check_depths(self.store)
        seq = node_seq(self.store)
        assert seq >= self.seq, "nodeSeq went back: a node id could be handed out twice"
        self.seq = seq

    @invariant()
    def memory_matches_the_file(self):
        check_matches_reload(self.store)

    def teardown(self):
        try:
            if not self.scoped:
                self.undo_and_redo_everything()
        finally:
            self.store.close()
            shutil.rmtree(self.dir, ignore_errors=True)

    def undo_and_redo_everything(self):
        while self.store.history.redo() is not None:  # steps undone by the `undo` rule
            check_invariants(self.store)
        end = self.store.dump()
        self.store.close()
        self.store = MemoryStore.open(self.path)  # the history lives in the file
        assert self.store.dump() == end
        while self.store.history.undo() is not None:
            check_invariants(self.store)
        assert comparable(self.store.dump()) == comparable(self.start)
        while self.store.history.redo() is not None:
            check_invariants(self.store)
        assert self.store.dump() == end


UndoMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=12,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# A failure is shrunk by replaying many store sessions: give it time to finish and print the
# minimal example instead of being cut off by the suite-wide timeout.
UndoMachine.TestCase.pytestmark = [pytest.mark.timeout(600)]
test_random_writes_undo_and_redo_exactly = UndoMachine.TestCase


# -- unit behaviour ----
def test_each_write_is_one_step_and_undo_redo_return_changesets(store):
    w = store.write_api()
    empty = store.dump()
    nid = w.create_node(type="character_sheet", title="Eileen")["id"]
    created = store.dump()
    w.edit_node(id=nid, set_fields={"goal": "crown"})
    w.delete_node(id=nid)
    assert store.history.depth() == (3, 0)
    assert [s.op for s in store.history.steps()] == ["archive_node", "edit_node", "create_node"]
    undone = store.history.undo()
    assert isinstance(undone, ChangeSet) and undone.op is OpKind.UNDO
    assert undone.nodes_restored == {nid} and not store.graph.nodes[nid].archived
    store.history.undo()
    assert store.dump() == created and store.history.depth() == (1, 2)
    assert store.history.undo().nodes_removed == {nid}
    assert comparable(store.dump()) == comparable(empty) and store.history.undo() is None
    redone = store.history.redo()
    assert redone.op is OpKind.REDO and redone.nodes_added == {nid}
    assert store.dump() == created
    w.create_node(type="character_sheet", title="Kain")  # a new write drops the redo branch
    assert store.history.depth() == (2, 0) and store.history.redo() is None


def test_batch_and_compaction_undo_in_one_step(store):
    w = store.write_api()
    ids = [w.create_node(type="event", fields={"summary": str(i)})["id"] for i in range(3)]
    before = store.dump()
    w.apply_extraction_batch(
        ops=[
            {"op": "create", "type": "character_sheet", "title": "Kain", "ref": "k"},
            {"op": "link_upsert", "sourceRef": "k", "links": [{"targetNodeId": i} for i in ids]},
            {"op": "delete", "nodeId": ids[0]},
        ]
    )
    rid = w.compact_nodes(type="event", child_ids=ids[1:], summary="s")["rollupNodeId"]
    w.dissolve_rollup(id=rid)
    for _ in range(3):
        store.history.undo()
    assert comparable(store.dump()) == comparable(before)


def test_undo_and_redo_keep_field_order(store):
    """Regression: change-log images were written with sorted keys, so a redo reordered fields."""
    w = store.write_api()
    nid = w.create_node(
        type="character_sheet", title="Eileen", fields={"traits": "proud", "aliases": "艾琳"}
    )["id"]
    before = store.dump()
    w.edit_node(id=nid, set_fields={"goal": "crown", "identity": "knight"})
    after = store.dump()
    store.history.undo()
    assert store.dump() == before
    store.history.redo()
    assert store.dump() == after
    assert list(store.graph.nodes[nid].fields) == ["traits", "aliases", "goal", "identity"]


def test_history_survives_reopening_the_file(file_store):
    path = file_store.path
    w = file_store.write_api()
    nid = w.create_node(type="character_sheet", title="Eileen")["id"]
    w.edit_node(id=nid, title="Eileen Ashford")
    file_store.close()
    with MemoryStore.open(path) as again:
        assert again.history.depth() == (2, 0)
        assert again.history.undo_step().label.startswith("Edit")
        again.history.undo()
        assert again.graph.nodes[nid].title == "Eileen"
    with MemoryStore.open(path) as third:
        assert third.history.depth() == (1, 1)
        third.history.redo()
        assert third.graph.nodes[nid].title == "Eileen Ashford"


@pytest.mark.parametrize("redo", [False, True])
def test_undo_or_redo_of_rows_changed_since_is_a_conflict(store, redo):
    w = store.write_api()
    nid = w.create_node(type="character_sheet", title="Eileen")["id"]
    w.edit_node(id=nid, set_fields={"goal": "crown"})
    if redo:
        store.history.undo()
    with store.storage.transaction(OpKind.EXTERNAL, "outside the history", log_history=False) as tx:
        tx.put_node(replace(tx.node(nid), title="Someone else"))
    before, depth = store.dump(), store.history.depth()
    with pytest.raises(MemgraphError) as exc:
        store.history.redo() if redo else store.history.undo()
    assert exc.value.code == "UNDO_CONFLICT"
    assert store.dump() == before and store.history.depth() == depth

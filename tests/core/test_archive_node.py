"""``archiveNode({id, replacementId})``: Luker's Write API call, as luker-store-format.md describes it
("Calls the seeds leave open"): answers, the supersededBy chain, links moved in place, undo, the
JSON/CLI surface, bad input and a second process."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore, jsonapi, open_session
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from tests.core.graph_builders import char, edge, load_store
from tests.core.processes import memgraph

NOT_FOUND = "NODE_NOT_FOUND"


def links(store: Any) -> list[tuple[str, str, str, int | None]]:
    """Every edge in the store's (Luker's array) order, with its seqTo."""
    with store.reading() as graph:
        ordered = sorted(graph.edges.values(), key=lambda e: e.ord)
        return [(e.from_id, e.type, e.to_id, e.seq_to) for e in ordered]


def stored(store: Any, node_id: str) -> dict[str, Any]:
    with store.reading() as graph:
        return graph.nodes[node_id].to_store_json()


def world(store: Any) -> Any:
    """``a`` (child of ``p``) is to be replaced by ``r``; its links cover every case the
    rewrite has: moved, moved onto an earlier equal link (dropped), moved onto a later equal link
    (takes its place), turned into a self-loop (dropped), a hierarchy link, and a symmetric link
    that is not re-ordered."""
    nodes = [
        char("p", childrenIds=["a"]),
        char("a", parentId="p"),
        char("r"),
        char("x"),
        char("y"),
        char("b"),
    ]
    edges = [
        edge("a", "x", "knows", seqTo=1),
        edge("r", "y", "likes", seqTo=2),
        edge("x", "a", "fears", seqTo=3),
        edge("a", "r", "rival_of", seqTo=4),
        edge("a", "y", "likes", seqTo=5),
        edge("x", "r", "fears", seqTo=6),
        edge("p", "a", "contains", seqTo=7),
        edge("a", "b", "family_of", seqTo=8),
    ]
    return load_store(store, nodes, edges)


MOVED = [
    ("r", "knows", "x", 1),  # moved in place
    ("r", "likes", "y", 2),  # the earlier equal link stays; a->y likes (5) is dropped
    ("x", "fears", "r", 3),  # moved, and the later equal x->r fears (6) gives way to it
    ("p", "contains", "r", 7),  # hierarchy links move too (parent/children do not)
    ("r", "family_of", "b", 8),  # symmetric relation: rewritten, not re-ordered by id
]


def test_archive_with_replacement_moves_links_in_place(store):
    world(store)
    result = store.write_api().archive_node(id="a", replacement_id="r")
    assert result.to_json() == {"ok": True, "changed": True}
    assert links(store) == MOVED  # a->r rival_of became r->r and was dropped
    archived = stored(store, "a")
    assert archived["archived"] is True and archived["supersededBy"] == "r"
    assert archived["parentId"] == "p" and stored(store, "p")["childrenIds"] == ["a"]
    assert stored(store, "r")["archived"] is False and "supersededBy" not in stored(store, "r")
    changes = result.changes
    assert changes.op is OpKind.ARCHIVE_NODE and changes.nodes_archived == {"a"}
    assert changes.label == "Archive 'a' (replaced by 'r')"
    assert ("a", "knows", "x") in changes.edges_removed
    assert ("r", "knows", "x") in changes.edges_added
    assert [e.to_json() for e in store.read_api().list_edges()] == [
        {"from": f, "to": t, "type": rel} for f, rel, t, _ in MOVED
    ]


def test_archive_is_one_undo_step_and_undo_restores_the_links_exactly(store):
    world(store)
    before, depth = store.dump(), store.history.depth()
    links_before = links(store)
    store.write_api().archive_node(id="a", replacement_id="r")
    after = store.dump()
    assert store.history.depth() == (depth[0] + 1, 0)
    assert store.history.steps()[0].label == "Archive 'a' (replaced by 'r')"
    undone = store.history.undo()
    assert undone is not None and store.dump() == before and links(store) == links_before
    assert "supersededBy" not in stored(store, "a")
    store.history.redo()
    assert store.dump() == after and links(store) == MOVED


def test_undo_restores_the_links_in_a_reopened_file(tmp_path):
    path = tmp_path / "w.memgraph"
    with MemoryStore.open(path) as s:
        world(s)
        before = links(s)
        s.write_api().archive_node(id="a", replacement_id="r")
    with MemoryStore.open(path) as s:
        assert links(s) == MOVED
        s.history.undo()
    with MemoryStore.open(path) as s:
        assert links(s) == before and stored(s, "a")["archived"] is False


def test_archive_without_replacement_keeps_links_and_sets_no_superseded_by(store):
    world(store)
    before = links(store)
    for replacement in (None, "", "  ", "a"):  # none, blank, or itself: a plain archive
        result = store.write_api().archive_node(id="a", replacement_id=replacement)
        assert result.to_json() == {"ok": True, "changed": True}
        assert result.changes.label == "Archive 'a'"
        assert links(store) == before
        assert stored(store, "a")["archived"] is True and "supersededBy" not in stored(store, "a")
        store.write_api().restore_node(id="a")


def test_already_archived_answers_changed_false_and_writes_nothing(store):
    world(store)
    w = store.write_api()
    w.delete_node(id="a")
    before, depth = store.dump(), store.history.depth()
    expected = {"ok": True, "changed": False, "note": "node already archived"}
    for replacement in (None, "r", "no_such_node"):  # checked before the replacement
        result = w.archive_node(id="a", replacement_id=replacement)
        assert result.to_json() == expected
    assert store.dump() == before and store.history.depth() == depth


@pytest.mark.parametrize(
    "call, message",
    [
        ({"id": "n_9999"}, "archiveNode: node n_9999 does not exist."),
        ({"id": "n_9999", "replacement_id": "r"}, "archiveNode: node n_9999 does not exist."),
        (
            {"id": "a", "replacement_id": "n_9999"},
            "archiveNode: replacement n_9999 does not exist.",
        ),
        ({"id": "a", "replacement_id": " gone "}, "archiveNode: replacement gone does not exist."),
    ],
)
def test_unknown_node_or_replacement_is_node_not_found_and_writes_nothing(store, call, message):
    """Worded exactly as Luker words them (ids unquoted)."""
    world(store)
    before, depth = store.dump(), store.history.depth()
    result = store.write_api().archive_node(**call)
    assert result["ok"] is False
    assert result["error"] == {"code": NOT_FOUND, "message": message}
    assert store.dump() == before and store.history.depth() == depth


def chain(store: Any, **superseded: str) -> Any:
    """``a`` linked to ``x``; archived nodes r1..r3 whose supersededBy are given; ``live`` too."""
    nodes = [char("a"), char("x"), char("live")]
    for node_id in ("r1", "r2", "r3"):
        extra = {"supersededBy": superseded[node_id]} if node_id in superseded else {}
        nodes.append(char(node_id, archived=True, **extra))
    return load_store(store, nodes, [edge("a", "x", "knows"), edge("x", "a", "knows")])


@pytest.mark.parametrize(
    "superseded, final",
    [
        ({}, "r1"),  # an archived replacement is accepted as it is
        ({"r1": "r2", "r2": "r3"}, "r3"),  # followed to its end
        ({"r1": "r2", "r2": "live"}, "live"),
        ({"r1": "gone"}, "r1"),  # stops before a missing node
        ({"r1": "r2", "r2": "gone"}, "r2"),
        ({"r1": "r2", "r2": "r1"}, "r2"),  # stops at a loop
        ({"r1": "r2", "r2": "r3", "r3": "r2"}, "r3"),
        ({"r1": "a"}, "r1"),  # never back to the node being archived
    ],
)
def test_the_replacement_chain_is_followed_to_its_end(store, superseded, final):
    chain(store, **superseded)
    result = store.write_api().archive_node(id="a", replacement_id="r1")
    assert result.to_json() == {"ok": True, "changed": True}
    assert stored(store, "a")["supersededBy"] == final
    assert [(f, t) for f, _, t, _ in links(store)] == [(final, "x"), ("x", final)]
    for node_id, target in superseded.items():  # the chain itself is left alone
        assert stored(store, node_id)["supersededBy"] == target


# -- bad input -----------------------------------------------------------------------------------
BAD_CALLS = [
    {},
    {"id": None},
    {"id": "   "},
    {"id": 5.5},
    {"id": True},
    {"id": ["a"]},
    {"id": {"id": "a"}},
    {"id": "a", "replacement_id": ["r"]},
    {"id": "a", "replacement_id": {"id": "r"}},
    {"id": "a", "replacement_id": False},
    {"id": "a\ud800"},
    {"id": "a", "replacement_id": "r\udfff"},
    {"id": 2**60},
]


@pytest.mark.parametrize("call", BAD_CALLS)
def test_bad_arguments_raise_bad_args_and_write_nothing(store, call):
    world(store)
    before, depth = store.dump(), store.history.depth()
    with pytest.raises(MemgraphError) as exc:
        store.write_api().archive_node(**call)
    assert exc.value.code == "BAD_ARGS"
    assert "id" in exc.value.message.lower()  # names the argument
    assert store.dump() == before and store.history.depth() == depth


def test_huge_ids_are_answered_briefly_and_write_nothing(store):
    world(store)
    before = store.dump()
    huge = "x" * 2_000_000
    for call in ({"id": huge}, {"id": "a", "replacement_id": huge}):
        result = store.write_api().archive_node(**call)
        assert result["error"]["code"] == NOT_FOUND and len(result["error"]["message"]) < 120
    with pytest.raises(MemgraphError) as exc:  # the JSON boundary caps strings first
        jsonapi.call(store, "archiveNode", [{"id": "a", "replacementId": huge}])
    assert exc.value.code == "TOO_LARGE" and "args[0].replacementId" in exc.value.message
    assert store.dump() == before


@pytest.mark.parametrize(
    "arguments, code",
    [
        ([], "BAD_ARGS"),
        ([{"id": "a", "replacement": "r"}], "BAD_ARGS"),  # unknown option, named
        (["a"], "BAD_ARGS"),
        ([{"id": "a"}, {"id": "b"}], "BAD_ARGS"),
        ([{"id": 1e300}], "BAD_ARGS"),
    ],
)
def test_json_boundary_refusals_write_nothing(store, arguments, code):
    world(store)
    before = store.dump()
    with pytest.raises(MemgraphError) as exc:
        jsonapi.call(store, "archiveNode", arguments)
    assert exc.value.code == code
    assert store.dump() == before


def test_missing_store_raises_memory_store_missing():
    from memgraph_gui.core.luker.write_api import WriteApi

    with pytest.raises(MemgraphError) as exc:
        WriteApi(None).archive_node(id="a")
    assert exc.value.code == "MEMORY_STORE_MISSING"


# -- the other surfaces --------------------------------------------------------------------------
def test_json_call_and_session_facade_answer_the_same(store):
    world(store)
    answer = jsonapi.call(store, "archiveNode", [{"id": "a", "replacementId": "r"}])
    assert answer == {"ok": True, "changed": True} and links(store) == MOVED
    assert jsonapi.call(store, "archiveNode", [{"id": "a"}]) == {
        "ok": True,
        "changed": False,
        "note": "node already archived",
    }
    session = open_session(store)
    assert session is not None
    assert session.archive_node(id="x").to_json() == {"ok": True, "changed": True}
    assert session.archive_node(id="nope")["error"]["code"] == NOT_FOUND


def test_on_commit_runs_only_when_something_changed(store):
    world(store)
    calls: list[object] = []
    w = store.write_api(on_commit=calls.append)
    w.archive_node(id="no_such_node")
    w.archive_node(id="a", replacement_id="r")
    w.archive_node(id="a")
    assert len(calls) == 1


def test_cli_call_and_a_second_process_see_the_change(file_store):
    world(file_store)
    assert links(file_store)[0] == ("a", "knows", "x", 1)  # this process has the graph loaded
    args = json.dumps([{"id": "a", "replacementId": "r"}])
    proc = memgraph("--db", file_store.path, "call", "archiveNode", args)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"result": {"ok": True, "changed": True}}
    assert links(file_store) == MOVED  # replayed from the change log, order and all
    assert stored(file_store, "a")["supersededBy"] == "r"
    again = memgraph("--db", file_store.path, "call", "archiveNode", args)
    assert json.loads(again.stdout) == {
        "result": {"ok": True, "changed": False, "note": "node already archived"}
    }
    missing = memgraph("--db", file_store.path, "call", "archiveNode", '[{"id": "zz"}]')
    assert missing.returncode == 0 and json.loads(missing.stdout)["result"]["ok"] is False
    bad = memgraph("--db", file_store.path, "call", "archiveNode", "[{}]")
    assert bad.returncode == 1 and json.loads(bad.stdout)["error"]["code"] == "BAD_ARGS"
    file_store.history.undo()  # our own process undoes the other one's write
    reopened = MemoryStore.open(file_store.path)
    try:
        assert links(reopened) == links(file_store) and links(reopened)[0][0] == "a"
    finally:
        reopened.close()

"""The Write API contract (seed "Write API" section plus the project's decisions)."""

from __future__ import annotations

import json

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.luker.write_api import WriteApi


@pytest.fixture
def w(store):
    return store.write_api()


def node(store, node_id):
    return store.read_api().get_node(node_id)


def edges(store):
    with store.reading() as g:
        return set(g.edges)


def chars(w, *titles):
    return [w.create_node(type="character_sheet", title=t)["id"] for t in titles]


def events(w, n):
    return [w.create_node(type="event", fields={"summary": f"event {i}"})["id"] for i in range(n)]


HIERARCHY = ("contains", "semantic_contains")


# -- missing store and argument errors ----
NONE_CALLS = [
    lambda a: a.create_node(type="event"),
    lambda a: a.edit_node(id="n_1"),
    lambda a: a.delete_node(id="n_1"),
    lambda a: a.restore_node(id="n_1"),
    lambda a: a.upsert_links(source={"id": "n_1"}, links=[]),
    lambda a: a.delete_links(source={"id": "n_1"}, target={"id": "n_2"}, relation="r"),
    lambda a: a.compact_nodes(type="event", child_ids=["n_1"], summary="s"),
    lambda a: a.dissolve_rollup(id="n_1"),
    lambda a: a.apply_extraction_batch(ops=[]),
]


@pytest.mark.parametrize("call", NONE_CALLS)
def test_no_store_raises_memory_store_missing(call):
    with pytest.raises(MemgraphError) as exc:
        call(WriteApi(None))
    assert exc.value.code == "MEMORY_STORE_MISSING"
    closed = MemoryStore.open(":memory:")
    closed.close()
    with pytest.raises(MemgraphError) as exc:
        call(closed.write_api())
    assert exc.value.code == "MEMORY_STORE_MISSING"


@pytest.mark.parametrize(
    "call",
    [
        lambda a: a.create_node(title="no type"),
        lambda a: a.edit_node(),
        lambda a: a.delete_node(id="  "),
        lambda a: a.upsert_links(source=None, links=[]),
        lambda a: a.upsert_links(source={"id": "n_1"}, links="n_2"),
        lambda a: a.delete_links(source={"id": "n_1"}, target={"id": "n_1"}),
        lambda a: a.delete_links(source={"id": "n_1"}, relation="r"),
        lambda a: a.apply_extraction_batch(ops={"op": "create"}),
        lambda a: a.apply_extraction_batch(ops=[], max_seq="ten"),
    ],
)
def test_bad_arguments_raise_bad_args_and_write_nothing(store, w, call):
    chars(w, "Eileen")
    before, depth = store.dump(), store.history.depth()
    with pytest.raises(MemgraphError) as exc:
        call(w)
    assert exc.value.code == "BAD_ARGS"
    assert store.dump() == before and store.history.depth() == depth


# -- createNode ----
def test_create_node_returns_id_and_builds_the_seed_node(store, w):
    """Ids n_1, n_2...; type lower-cased; title from fields.name; events titled 'Summary N'."""
    result = w.create_node(
        type="character_sheet", title="  Eileen  ", fields={"aliases": "艾琳"}, ref="c1"
    )
    assert result.to_json() == {"id": "n_1", "ref": "c1"}
    assert node(store, "n_1").to_json() == {
        "id": "n_1",
        "type": "character_sheet",
        "level": "semantic",
        "title": "Eileen",
        "fields": {"aliases": "艾琳"},
        "seqTo": 0,
        "parentId": "",
        "childrenIds": [],
        "archived": False,
        "semanticRollup": False,
        "semanticDepth": 0,
    }
    assert result.changes.nodes_added == {"n_1"} and result.changes.op is OpKind.CREATE_NODE
    assert w.create_node(type="Location_State", title="Silvermoon")["id"] == "n_2"
    assert node(store, "n_2").type == "location_state"
    assert store.graph.counter("nodeSeq") == 2
    assert (
        node(store, w.create_node(type="character_sheet", fields={"name": "Kain"})["id"]).title
        == "Kain"
    )
    ids = [
        w.create_node(
            type="event", title="Alice draws her sword", fields={"summary": "line one\n  line two"}
        )["id"]
        for _ in range(3)
    ]
    assert [node(store, i).title for i in ids] == ["Summary 1", "Summary 2", "Summary 3"]
    assert node(store, ids[0]).fields["summary"] == "line one line two"


def test_create_merges_same_type_same_title_case_insensitively(store, w):
    first = w.create_node(type="character_sheet", title="Eileen", fields={"aliases": "艾琳"})["id"]
    again = w.create_node(type="character_sheet", title="EILEEN", fields={"goal": "the crown"})
    assert again["id"] == first
    assert again.changes.nodes_added == frozenset() and again.changes.nodes_updated == {first}
    merged = node(store, first)
    assert merged.title == "Eileen"
    assert dict(merged.fields) == {"aliases": "艾琳", "goal": "the crown"}
    assert len(store.read_api().list_nodes()) == 1
    other = w.create_node(type="location_state", title="eileen")["id"]
    w.delete_node(id=first)
    fresh = w.create_node(type="character_sheet", title="Eileen")["id"]
    assert len({first, other, fresh}) == 3 and not node(store, fresh).archived


@pytest.mark.parametrize(
    "kwargs, code, words",
    [
        ({"type": "dragon", "title": "Smaug"}, "SCHEMA_VIOLATION", "dragon"),
        (
            {"type": "thread", "title": "The Crown", "fields": {"status": "active"}},
            "SCHEMA_VIOLATION",
            "note",
        ),
        ({"type": "event", "fields": {}}, "SCHEMA_VIOLATION", "summary"),
        ({"type": "character_sheet", "title": "x" * 5000}, "TOO_LARGE", "title"),
        (
            {"type": "character_sheet", "title": "Eileen", "fields": {"traits": "y" * 200_001}},
            "TOO_LARGE",
            "traits",
        ),
        (
            {"type": "character_sheet", "title": "Eileen", "fields": ["not", "an", "object"]},
            "SCHEMA_VIOLATION",
            "fields",
        ),
    ],
)
def test_refused_create_raises_op_failed_with_rejected(store, w, kwargs, code, words):
    before = store.dump()
    with pytest.raises(MemgraphError) as exc:
        w.create_node(**kwargs)
    assert exc.value.code == "OP_FAILED"
    rejected = exc.value.details["rejected"]
    assert len(rejected) == 1 and rejected[0]["error"]["code"] == code
    assert words in rejected[0]["error"]["message"]
    assert rejected[0]["op"]["op"] == "create"
    assert store.dump() == before and store.history.depth() == (0, 0)


def test_create_with_inline_links_adds_edges(store, w):
    target = chars(w, "Eileen")[0]
    nid = w.create_node(
        type="character_sheet",
        title="Kain",
        links=[{"target": {"id": target}, "relation": "Rival Of"}],
    )["id"]
    assert edges(store) == {(nid, "rival of", target), (target, "rival of", nid)}
    before = store.dump()
    for bad in ({"direction": "sideways"}, {"relation": 7}):
        with pytest.raises(MemgraphError) as exc:
            w.create_node(
                type="character_sheet",
                title="Lina",
                links=[{"target": {"id": target}, "relation": "knows", **bad}],
            )
        assert exc.value.details["rejected"][0]["error"]["code"] == "BAD_ARGS"
    assert store.dump() == before


# -- maxSeq ----
def test_max_seq_defaults_to_seq_counter(store, w):
    w.apply_extraction_batch(
        ops=[{"op": "create", "type": "character_sheet", "title": "A"}], max_seq=7
    )
    assert node(store, "n_1").seq_to == 7 and store.graph.counter("seqCounter") == 7
    w.create_node(type="character_sheet", title="B")
    w.apply_extraction_batch(ops=[{"op": "create", "type": "character_sheet", "title": "C"}])
    assert node(store, "n_2").seq_to == 7 and node(store, "n_3").seq_to == 7
    w.apply_extraction_batch(
        ops=[{"op": "edit", "nodeId": "n_1", "setFields": {"goal": "g"}}], max_seq=12
    )
    assert node(store, "n_1").seq_to == 12


# -- editNode ----
def test_edit_node_sets_clears_and_renames(store, w):
    nid = w.create_node(
        type="character_sheet", title="Eileen", fields={"aliases": "艾琳", "goal": "crown"}
    )["id"]
    result = w.edit_node(
        id=nid,
        set_fields={"traits": ["brave", "proud"], "goal": None},
        clear_fields=["aliases"],
        title="  Eileen   Ashford ",
    )
    assert result.to_json() == {"ok": True, "changed": True}  # Luker answers `changed`
    edited = node(store, nid)
    assert edited.title == "Eileen Ashford"
    assert edited.to_json()["fields"] == {"goal": "crown", "traits": ["brave", "proud"]}
    assert result.changes.nodes_updated == {nid} and result.changes.op is OpKind.EDIT_NODE
    assert {"fields.aliases", "fields.traits", "title"} <= result.changes.fields


@pytest.mark.parametrize(
    "target, patch, code",
    [
        ("n_404", {"set_fields": {"note": "x"}}, "NODE_NOT_FOUND"),
        ("archived", {"set_fields": {"note": "x"}}, "NODE_ARCHIVED"),
        ("n_1", {"clear_fields": ["status"]}, "SCHEMA_VIOLATION"),
        ("n_1", {"set_fields": {"note": ""}}, "SCHEMA_VIOLATION"),
        ("n_1", {"set_fields": {"note": "z" * 200_000}}, "TOO_LARGE"),
        ("n_1", {"title": "t" * 2000}, "TOO_LARGE"),
    ],
)
def test_edit_node_refusals_return_ok_false_and_change_nothing(store, w, target, patch, code):
    w.create_node(type="thread", title="Crown", fields={"status": "active", "note": "n"})
    if target == "archived":
        target = w.create_node(type="thread", title="Old", fields={"status": "a", "note": "n"})[
            "id"
        ]
        w.delete_node(id=target)
    before = store.dump()
    result = w.edit_node(id=target, **patch)
    assert result["ok"] is False and result["error"]["code"] == code
    assert set(result.to_json()["error"]) == {"code", "message"} and store.dump() == before


# -- deleteNode (archive) and restore ----
def test_delete_node_archives_and_restore_brings_it_back(store, w):
    a, b = chars(w, "Eileen", "Kain")
    w.upsert_links(source={"id": a}, links=[{"target": {"id": b}, "relation": "knows"}])
    kept = edges(store)
    result = w.delete_node(id=a)
    assert result.to_json() == {"ok": True}
    assert node(store, a).archived is True and edges(store) == kept
    assert result.changes.nodes_archived == {a} and result.changes.op is OpKind.ARCHIVE_NODE
    assert [n.id for n in store.read_api().list_nodes()] == [b]
    restored = w.restore_node(id=a)
    assert restored["ok"] is True and node(store, a).archived is False
    assert restored.changes.nodes_restored == {a}
    out = w.apply_extraction_batch(ops=[{"op": "delete", "nodeId": a}])
    assert out["rejected"] == [] and node(store, a).archived and out.changes.nodes_archived == {a}
    result = w.delete_node(id="n_77")
    assert result["ok"] is False and result["error"]["code"] == "NODE_NOT_FOUND"
    with pytest.raises(MemgraphError) as exc:
        w.restore_node(id="n_77")
    assert exc.value.code == "NODE_NOT_FOUND"


# -- upsertLinks / deleteLinks ----
@pytest.mark.parametrize(
    "direction, expected",
    [
        (None, {("n_1", "knows well", "n_2"), ("n_2", "knows well", "n_1")}),
        ("bidirectional", {("n_1", "knows well", "n_2"), ("n_2", "knows well", "n_1")}),
        ("outgoing", {("n_1", "knows well", "n_2")}),
        ("incoming", {("n_2", "knows well", "n_1")}),
    ],
)
def test_upsert_links_directions_and_relation_normalisation(store, w, direction, expected):
    chars(w, "Eileen", "Kain")
    link = {"target": {"id": "n_2"}, "relation": "  Knows \t WELL "}
    if direction:
        link["direction"] = direction
    result = w.upsert_links(source={"id": "n_1"}, links=[link])
    assert result.to_json() == {"applied": 1}  # the seed: ops the pipeline accepted
    assert edges(store) == expected and result.changes.edges_added == expected
    again = w.upsert_links(source={"id": "n_1"}, links=[link])
    assert again["applied"] == 1 and again.changes is not None and again.changes.empty


@pytest.mark.parametrize("relation", ["allied_with", "hostile_to", "family_of", "Partner_Of"])
@pytest.mark.parametrize("direction", [None, "outgoing", "incoming"])
def test_symmetric_relations_are_stored_once_from_smaller_id(store, w, relation, direction):
    chars(w, "Eileen", "Kain")
    link = {"target": {"id": "n_1"}, "relation": relation, "direction": direction}
    assert w.upsert_links(source={"id": "n_2"}, links=[link])["applied"] == 1
    assert edges(store) == {("n_1", relation.lower(), "n_2")}
    removed = w.delete_links(source={"id": "n_2"}, target={"id": "n_1"}, relation=relation.upper())
    assert removed["removed"] == 1 and edges(store) == set()


def test_symmetric_order_is_js_string_order_and_long_ids_work(store, w):
    """n_10 < n_9 in JS order. Also a regression: rows.write_changes once sent every new edge
    (a NamedTuple) to the DELETE list, failing for any from-id not 3 characters long."""
    chars(w, *(f"C{i}" for i in range(10)))
    family = [{"target": {"id": "n_10"}, "relation": "family_of"}]
    w.upsert_links(source={"id": "n_9"}, links=family)
    assert edges(store) == {("n_10", "family_of", "n_9")}
    assert w.upsert_links(source={"id": "n_10"}, links=[{"target": {"id": "n_1"}}])["applied"] == 1
    assert {("n_10", "related", "n_1"), ("n_1", "related", "n_10")} < edges(store)


def test_several_relations_per_pair_no_self_links_and_only_live_ends(store, w):
    chars(w, "Eileen", "Kain")
    links = [
        {"target": {"id": "n_2"}, "relation": r, "direction": "outgoing"}
        for r in ("knows", "fears", "owes")
    ]
    assert w.upsert_links(source={"id": "n_1"}, links=links)["applied"] == 1
    w.upsert_links(source={"id": "n_1"}, links=[{"target": {"id": "n_1"}, "relation": "is"}])
    assert edges(store) == {("n_1", r, "n_2") for r in ("knows", "fears", "owes")}
    w.delete_node(id="n_2")
    for source, target in (("n_1", "n_2"), ("n_1", "n_404"), ("n_2", "n_1")):
        result = w.upsert_links(source={"id": source}, links=[{"target": {"id": target}}])
        assert result["applied"] == 0 and "error" in result.payload
    assert len(edges(store)) == 3


@pytest.mark.parametrize(
    "bad_link",
    [
        {"target": {"id": "n_2"}, "relation": "knows", "direction": "sideways"},
        {"target": {"id": "n_2"}, "relation": "knows", "direction": "both"},
    ],
)
def test_unknown_direction_is_bad_args_and_changes_nothing(store, w, bad_link):
    chars(w, "Eileen", "Kain")
    before = store.dump()
    good = {"target": {"id": "n_2"}, "relation": "fine"}
    result = w.upsert_links(source={"id": "n_1"}, links=[good, bad_link])
    assert result["applied"] == 0 and result["error"]["code"] == "BAD_ARGS"
    out = w.apply_extraction_batch(
        ops=[
            {
                "op": "link_upsert",
                "sourceNodeId": "n_1",
                "links": [{"targetNodeId": "n_2", **bad_link}],
            }
        ]
    )
    assert out["applied"] == [] and out["rejected"][0]["error"]["code"] == "BAD_ARGS"
    assert store.dump() == before


def test_delete_links_directions_and_lower_casing(store, w):
    chars(w, "Eileen", "Kain")
    w.upsert_links(
        source={"id": "n_1"},
        links=[
            {"target": {"id": "n_2"}, "relation": "Knows"},
            {"target": {"id": "n_2"}, "relation": "fears"},
        ],
    )
    out = w.delete_links(
        source={"id": "n_1"}, target={"id": "n_2"}, relation="KNOWS", direction="outgoing"
    )
    assert out.to_json() == {"removed": 1}
    assert out.changes.edges_removed == {("n_1", "knows", "n_2")}
    both = w.delete_links(source={"id": "n_2"}, target={"id": "n_1"}, relation="fears")
    assert both["removed"] == 2 and edges(store) == {("n_2", "knows", "n_1")}
    assert (
        w.delete_links(source={"id": "n_2"}, target={"id": "n_1"}, relation="fears")["removed"] == 0
    )


# -- compactNodes / dissolveRollup ----
def test_compact_nodes_builds_the_rollup_shape(store, w):
    ids = [
        w.apply_extraction_batch(
            ops=[{"op": "create", "type": "event", "fields": {"summary": f"e{i}"}}], max_seq=s
        )["applied"][0]["nodeId"]
        for i, s in enumerate((3, 9, 5))
    ]
    result = w.compact_nodes(type="Event", child_ids=ids, summary="  they  fought\nand fled ")
    rid = result.to_json()["rollupNodeId"]
    assert rid == "n_4" and result.changes.nodes_added == {rid}
    rollup = node(store, rid)
    assert rollup.to_json() == {
        "id": "n_4",
        "type": "event",
        "level": "semantic",
        "title": "event Summary L1 #1",
        "fields": {"summary": "they fought and fled"},
        "seqTo": 9,
        "parentId": "",
        "childrenIds": ids,
        "archived": False,
        "semanticRollup": True,
        "semanticDepth": 1,
    }
    assert all(node(store, c).parent_id == rid for c in ids)
    assert edges(store) == {(rid, t, c) for c in ids for t in HIERARCHY}
    assert result.changes.nodes_updated == set(ids)
    more = events(w, 2)
    second = w.compact_nodes(type="event", child_ids=more, summary="later")["rollupNodeId"]
    assert node(store, second).title == "event Summary L1 #2"
    top = w.compact_nodes(type="event", child_ids=[rid, second], summary="all")["rollupNodeId"]
    assert node(store, top).title == "event Summary L2 #1" and node(store, top).semantic_depth == 2
    assert node(store, top).seq_to == 9 and node(store, rid).parent_id == top


def test_compact_nodes_undo_label_names_the_plural_type(store, w):
    from memgraph_gui.core.luker.write_extra import compact_label

    w.compact_nodes(type="event", child_ids=events(w, 3), summary="s")
    assert store.history_of(None).steps(limit=1)[0].label == "Compact 3 events"
    assert compact_label(1, "event") == "Compact 1 event"
    assert compact_label(12, "character_sheet") == "Compact 12 character_sheets"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"child_ids": ["n_1"], "summary": "s"},
        {"type": "event", "child_ids": [], "summary": "s"},
        {"type": "event", "child_ids": ["n_1"], "summary": ""},
        {"type": "event", "child_ids": ["n_1"], "summary": " \n "},
        {"type": "event", "child_ids": ["n_1"]},
    ],
)
def test_compact_nodes_bad_args(store, w, kwargs):
    events(w, 1)
    before = store.dump()
    with pytest.raises(MemgraphError) as exc:
        w.compact_nodes(**kwargs)
    assert exc.value.code == "BAD_ARGS" and store.dump() == before


def test_compact_nodes_child_errors(store, w):
    a, b, c = events(w, 3)
    before = store.dump()
    with pytest.raises(MemgraphError) as exc:
        w.compact_nodes(type="event", child_ids=[a, "n_404"], summary="s")
    assert exc.value.code == "CHILD_NOT_FOUND" and store.dump() == before
    w.compact_nodes(type="event", child_ids=[a, b], summary="s")
    before = store.dump()
    with pytest.raises(MemgraphError) as exc:
        w.compact_nodes(type="event", child_ids=[c, b], summary="s")
    assert exc.value.code == "CHILD_HAS_PARENT" and store.dump() == before
    # only a parent of the SAME type blocks: a child under a thread rollup may join an event one
    thread = w.compact_nodes(
        type="thread", child_ids=[c], summary="arc", fields={"status": "active", "note": "n"}
    )["rollupNodeId"]
    rid = w.compact_nodes(type="event", child_ids=[c], summary="s")["rollupNodeId"]
    assert node(store, c).parent_id == rid and node(store, thread).children_ids == ()
    assert (thread, "contains", c) not in edges(store)


def test_dissolve_rollup_returns_children_to_its_parent(store, w):
    a, b, c = events(w, 3)
    inner = w.compact_nodes(type="event", child_ids=[a, b], summary="inner")["rollupNodeId"]
    outer = w.compact_nodes(type="event", child_ids=[inner, c], summary="outer")["rollupNodeId"]
    result = w.dissolve_rollup(id=inner)
    assert result.to_json() == {"ok": True, "childIds": [a, b], "parentId": outer}
    assert set(node(store, outer).children_ids) == {a, b, c}
    assert node(store, a).parent_id == outer == node(store, b).parent_id
    gone = node(store, inner)
    assert gone.archived and gone.children_ids == () and gone.parent_id == ""
    assert result.changes.nodes_archived == {inner}
    assert edges(store) == {(outer, t, x) for x in (a, b, c) for t in HIERARCHY}
    w.dissolve_rollup(id=outer)
    assert all(node(store, x).parent_id == "" for x in (a, b, c)) and edges(store) == set()
    for target, code in (("n_404", "NODE_NOT_FOUND"), (a, "BAD_ARGS")):
        with pytest.raises(MemgraphError) as exc:
            w.dissolve_rollup(id=target)
        assert exc.value.code == code


# -- applyExtractionBatch ----
def test_batch_is_one_transaction_with_refs_and_rejections(store, w):
    old = chars(w, "Eileen")[0]
    w.delete_node(id=chars(w, "Ghost")[0])
    steps = store.history.depth()[0]
    ops = [
        {
            "op": "link_upsert",
            "sourceRef": "k",
            "links": [
                {"targetRef": "e", "relation": "saw"},
                {"targetNodeId": old, "relation": "x"},
            ],
        },
        {"op": "create", "type": "character_sheet", "title": "Kain", "ref": "k"},
        {"op": "create", "type": "dragon", "title": "Smaug"},
        {
            "op": "create",
            "type": "event",
            "ref": "e",
            "fields": {"summary": "met"},
            "links": [{"targetRef": "k", "relation": "involves", "direction": "outgoing"}],
        },
        {"op": "edit", "nodeId": "n_404", "setFields": {"goal": "x"}},
        {"op": "edit", "nodeId": "n_2", "setFields": {"goal": "x"}},
        {"op": "edit", "nodeId": old, "setFields": {"goal": "crown"}},
        {"op": "link_upsert", "sourceRef": "nobody", "links": [{"targetRef": "k"}]},
    ]
    out = w.apply_extraction_batch(ops=ops)
    applied, rejected = out["applied"], out["rejected"]
    assert [a["op"] for a in applied] == ["create", "create", "edit", "link_upsert"]
    assert [a.get("nodeId") for a in applied[:2]] == ["n_3", "n_4"]
    assert [r["op"] for r in rejected] == [ops[2], ops[4], ops[5], ops[7]]
    assert [r["error"]["code"] for r in rejected] == [
        "SCHEMA_VIOLATION",
        "NODE_NOT_FOUND",
        "NODE_ARCHIVED",
        "NODE_NOT_FOUND",
    ]
    assert all(
        set(r) == {"op", "error"} and set(r["error"]) == {"code", "message"} for r in rejected
    )
    assert edges(store) == {
        ("n_3", "saw", "n_4"),
        ("n_4", "saw", "n_3"),
        ("n_3", "x", old),
        (old, "x", "n_3"),
        ("n_4", "involves", "n_3"),
    }
    assert store.history.depth()[0] == steps + 1
    assert out.changes.nodes_added == {"n_3", "n_4"} and out.changes.nodes_updated == {old}
    assert len(out.changes.edges_added) == 5 and out.changes.op is OpKind.BATCH
    assert json.loads(json.dumps(out.to_json())) == out.to_json()


def test_rejected_batch_op_leaves_no_trace_and_all_rejected_commits_nothing(store, w):
    nid = w.create_node(type="thread", title="Crown", fields={"status": "a", "note": "n"})["id"]
    before = store.dump()
    out = w.apply_extraction_batch(
        ops=[
            {
                "op": "edit",
                "nodeId": nid,
                "setFields": {"note": "changed"},
                "clearFields": ["status"],
            },
            {"op": "link_upsert", "sourceNodeId": nid, "links": [{"targetNodeId": "n_404"}]},
            {"op": "create", "type": "character_sheet", "title": "T" * 1001},
        ]
    )
    assert out["applied"] == [] and len(out["rejected"]) == 3
    assert [r["error"]["code"] for r in out["rejected"]] == [
        "SCHEMA_VIOLATION",
        "TOO_LARGE",
        "NODE_NOT_FOUND",
    ]
    assert store.dump() == before and store.history.depth() == (1, 0)


# -- onCommit, injection state ----
def test_on_commit_runs_after_success_only(store):
    calls = []
    w = store.write_api(on_commit=lambda s: calls.append((s, len(s.graph.nodes))))
    chars(w, "Eileen")
    assert calls == [(store, 1)]
    with pytest.raises(MemgraphError):
        w.create_node(type="dragon", title="Smaug")
    w.apply_extraction_batch(ops=[{"op": "edit", "nodeId": "n_404"}])
    w.apply_extraction_batch(ops=[])
    assert w.edit_node(id="n_404", set_fields={"a": "b"})["ok"] is False
    assert w.delete_node(id="n_404")["ok"] is False
    assert len(calls) == 1
    e = events(w, 2)
    w.compact_nodes(type="event", child_ids=e, summary="s")
    w.delete_node(id="n_1")
    assert len(calls) == 5 and all(c[0] is store for c in calls)


def test_set_injection_state_reports_injection_changed(store, w):
    a, b = chars(w, "Eileen", "Kain")
    result = w.set_injection_state({"alwaysInjectIds": [a]}, recall_selected_ids=[b])
    assert result.to_json() == {"alwaysInjectIds": [a], "recallSelectedIds": [b], "visibleIds": []}
    assert result.changes.injection_changed and not result.changes.nodes_updated
    assert store.read_api().get_injection_state().recall_selected_ids == {b}
    with pytest.raises(MemgraphError) as exc:
        w.set_injection_state(visibleIds=["n_404"])
    assert exc.value.code == "NODE_NOT_FOUND"

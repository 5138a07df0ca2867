"""Write calls answered exactly as Luker's (issue 13): ``editNode``'s ``changed`` / ``note``,
``link_delete``'s direction for symmetric relations, and what the seed decides (``upsertLinks``
counts ops, unknown ops and a create without a type are refused in ``rejected``).

Built from the seed's Write API text and luker-store-format.md ("Calls the seeds leave open")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memgraph_gui.core import jsonapi, open_session
from memgraph_gui.core.domain.jsvalue import js_json, js_number_text
from tests.core.processes import memgraph

CHANGED = {"ok": True, "changed": True}
UNCHANGED = {"ok": True, "changed": False, "note": "values already match"}


def edges(store: Any) -> set[tuple[str, str, str]]:
    with store.reading() as graph:
        return set(graph.edges)


@pytest.fixture
def eileen(store: Any) -> str:
    """A character sheet with a few stored values, made at seq 3 while the counter is at 9."""
    w = store.write_api()
    fields = {
        "aliases": ["艾琳", "Eileen"],
        "goal": "crown",
        "score": 1,
        "flag": True,
        "nested": {"b": 1, "a": [1, 2]},
    }
    created = w.apply_extraction_batch(
        ops=[{"op": "create", "type": "character_sheet", "title": "Eileen", "fields": fields}],
        max_seq=3,
    )
    w.apply_extraction_batch(
        ops=[{"op": "create", "type": "character_sheet", "title": "Kain"}], max_seq=9
    )
    return str(created["applied"][0]["nodeId"])


# -- editNode: changed / note --------------------------------------------------------------------
@pytest.mark.parametrize(
    "patch",
    [
        {},
        {"title": "Eileen"},
        {"title": "  Eileen  "},  # the trimmed title equals the stored one
        {"title": "   "},  # an empty title patch is no patch
        {"set_fields": {"goal": "crown"}},
        {"set_fields": {"score": 1.0}},  # JSON.stringify(1.0) === JSON.stringify(1)
        {"set_fields": {"aliases": ["艾琳", "Eileen"], "flag": True}},
        {"set_fields": {"nested": {"b": 1, "a": [1, 2]}}},
        {"set_fields": {"goal": None, "missing": None}},  # null values are skipped
        {"clear_fields": ["missing", " absent "]},  # keys the node does not have
    ],
)
def test_an_edit_that_changes_nothing_says_so_and_writes_nothing(store, eileen, patch):
    before, depth = store.dump(), store.history.depth()
    result = store.write_api().edit_node(id=eileen, **patch)
    assert result.to_json() == UNCHANGED
    assert store.dump() == before and store.history.depth() == depth  # not even seqTo moved
    assert result.changes is None or result.changes.empty


@pytest.mark.parametrize(
    "patch",
    [
        {"title": "Eileen Ashford"},
        {"title": "eileen"},
        {"set_fields": {"goal": "throne"}},
        {"set_fields": {"score": 2}},
        {"set_fields": {"score": True}},  # true is not 1 in JSON
        {"set_fields": {"flag": 1}},
        {"set_fields": {"score": "1"}},
        {"set_fields": {"aliases": ["Eileen", "艾琳"]}},  # order matters
        {"set_fields": {"nested": {"a": [1, 2], "b": 1}}},  # JSON key order differs
        {"set_fields": {"traits": "brave"}},  # a new field (stored null)
        {"clear_fields": ["goal"]},
        {"clear_fields": [" goal "]},
    ],
)
def test_an_edit_that_changes_something_answers_changed_true(store, eileen, patch):
    result = store.write_api().edit_node(id=eileen, **patch)
    assert result.to_json() == CHANGED
    assert result.changes is not None and result.changes.nodes_updated == {eileen}
    assert store.history.steps()[0].label == "Edit 'Eileen'"
    assert store.read_api().get_node(eileen).seq_to == 9  # an edit stamps the current seq


@pytest.mark.parametrize(
    "target, patch, code",
    [
        ("n_404", {"title": "x"}, "NODE_NOT_FOUND"),
        ("n_404", {}, "NODE_NOT_FOUND"),
        ("archived", {}, "NODE_ARCHIVED"),  # even an empty patch: archived is not ok
        ("archived", {"title": "Eileen"}, "NODE_ARCHIVED"),
        ("live", {"set_fields": "goal"}, "SCHEMA_VIOLATION"),
        ("live", {"clear_fields": "goal"}, "SCHEMA_VIOLATION"),
    ],
)
def test_refused_edits_answer_ok_false_with_the_first_rejection(store, eileen, target, patch, code):
    if target == "archived":
        store.write_api().delete_node(id=eileen)
    node_id = eileen if target in ("archived", "live") else target
    before = store.dump()
    result = store.write_api().edit_node(id=node_id, **patch)
    assert set(result.to_json()) == {"ok", "error"} and result["ok"] is False
    assert result["error"]["code"] == code and set(result["error"]) == {"code", "message"}
    assert store.dump() == before


def test_edit_answers_are_the_same_through_json_session_and_cli(file_store):
    w = file_store.write_api()
    node_id = w.create_node(type="character_sheet", title="Eileen", fields={"goal": "crown"})["id"]
    same = [{"id": node_id, "setFields": {"goal": "crown"}}]
    assert jsonapi.call(file_store, "editNode", same) == UNCHANGED
    session = open_session(file_store)
    assert session is not None
    assert session.edit_node(id=node_id, set_fields={"goal": "throne"}).to_json() == CHANGED
    args = json.dumps([{"id": node_id, "title": "Eileen Ashford"}])
    proc = memgraph("--db", file_store.path, "call", "editNode", args)
    assert proc.returncode == 0 and json.loads(proc.stdout) == {"result": CHANGED}
    assert file_store.read_api().get_node(node_id).title == "Eileen Ashford"  # seen here
    again = memgraph("--db", file_store.path, "call", "editNode", args)
    assert json.loads(again.stdout) == {"result": UNCHANGED}
    gone = memgraph("--db", file_store.path, "call", "editNode", '[{"id": "n_404"}]')
    answer = json.loads(gone.stdout)["result"]
    assert answer["ok"] is False and answer["error"]["code"] == "NODE_NOT_FOUND"


def test_an_unchanged_edit_in_a_batch_is_applied_but_writes_nothing(store, eileen):
    before = store.dump()
    op = {"op": "edit", "nodeId": eileen, "setFields": {"goal": "crown"}}
    out = store.write_api().apply_extraction_batch(ops=[op], max_seq=20)
    assert out["applied"] == [op] and out["rejected"] == []
    assert store.dump() == before


def test_js_json_matches_json_stringify():
    assert js_json({"b": 1, "10": 2, "2": 3, "01": 4, "a": [1.0, -0.0, 1.5, None, True]}) == (
        '{"2":3,"10":2,"b":1,"01":4,"a":[1,0,1.5,null,true]}'
    )
    assert js_json('é\n"\\') == '"é\\n\\"\\\\"'
    texts = {1e21: "1e+21", 1e20: "100000000000000000000", 1e-7: "1e-7", 1.5e-6: "0.0000015"}
    texts |= {123.456: "123.456", -2.5e25: "-2.5e+25", 0.1: "0.1", float("nan"): "null"}
    for number, text in texts.items():
        assert js_number_text(number) == text


# -- link_delete: the direction, literally, for symmetric relations too ------------------------
@pytest.mark.parametrize("relation", ["allied_with", "hostile_to", "family_of", "partner_of"])
@pytest.mark.parametrize(
    "source, target, direction, removed",
    [
        ("n_2", "n_1", "outgoing", 0),  # the stored edge is n_1 -> n_2: not this one
        ("n_2", "n_1", "incoming", 1),
        ("n_1", "n_2", "outgoing", 1),
        ("n_1", "n_2", "incoming", 0),
        ("n_2", "n_1", "bidirectional", 1),
        ("n_2", "n_1", None, 1),
    ],
)
def test_link_delete_honours_the_direction_for_symmetric_relations(
    store, relation, source, target, direction, removed
):
    w = store.write_api()
    w.create_node(type="character_sheet", title="Eileen")
    w.create_node(type="character_sheet", title="Kain")
    w.upsert_links(source={"id": "n_2"}, links=[{"target": {"id": "n_1"}, "relation": relation}])
    assert edges(store) == {("n_1", relation, "n_2")}  # stored once, from the smaller id
    op: dict[str, Any] = {
        "op": "link_delete",
        "sourceNodeId": source,
        "targetNodeId": target,
        "relation": relation.upper(),
    }
    if direction is not None:
        op["direction"] = direction
    out = w.apply_extraction_batch(ops=[op])
    assert out["applied"] == [op] and out["rejected"] == []
    assert edges(store) == (set() if removed else {("n_1", relation, "n_2")})
    if not removed:
        answer = w.delete_links(
            source={"id": source}, target={"id": target}, relation=relation, direction=direction
        )
        assert answer.to_json() == {"removed": 0} and len(edges(store)) == 1


def test_link_delete_of_a_plain_relation_removes_what_the_direction_names(store):
    w = store.write_api()
    for title in ("Eileen", "Kain"):
        w.create_node(type="character_sheet", title=title)
    w.upsert_links(source={"id": "n_1"}, links=[{"target": {"id": "n_2"}, "relation": "knows"}])
    out = w.apply_extraction_batch(
        ops=[
            {
                "op": "link_delete",
                "sourceNodeId": "n_2",
                "targetNodeId": "n_1",
                "relation": "Knows",
                "direction": "incoming",
            }
        ]
    )
    assert out["rejected"] == [] and edges(store) == {("n_2", "knows", "n_1")}


@pytest.mark.parametrize(
    "direction", ["sideways", "both", "Outgoing", " incoming", 7, ["outgoing"]]
)
def test_link_delete_reads_any_other_direction_as_bidirectional(store, direction):
    # luker-store-format.md: "`bidirectional` (the default, also for an unknown value) removes
    # both"; Luker's removeEdge compares the direction with 'outgoing' / 'incoming' literally.
    w = store.write_api()
    for title in ("Eileen", "Kain", "Lina"):
        w.create_node(type="character_sheet", title=title)
    for source, target in (("n_1", "n_2"), ("n_1", "n_3")):
        w.upsert_links(
            source={"id": source}, links=[{"target": {"id": target}, "relation": "knows"}]
        )
    op = {
        "op": "link_delete",
        "sourceNodeId": "n_2",
        "targetNodeId": "n_1",
        "relation": "knows",
        "direction": direction,
    }
    out = w.apply_extraction_batch(ops=[op])
    assert out["applied"] == [op] and out["rejected"] == []
    assert edges(store) == {("n_1", "knows", "n_3"), ("n_3", "knows", "n_1")}
    answer = w.delete_links(
        source={"id": "n_3"}, target={"id": "n_1"}, relation="knows", direction=direction
    )
    assert answer.to_json() == {"removed": 2} and edges(store) == set()


@pytest.mark.parametrize("missing", ["sourceNodeId", "targetNodeId", "relation"])
def test_link_delete_without_source_target_or_relation_is_rejected(store, missing):
    w = store.write_api()
    for title in ("Eileen", "Kain"):
        w.create_node(type="character_sheet", title=title)
    w.upsert_links(source={"id": "n_1"}, links=[{"target": {"id": "n_2"}, "relation": "knows"}])
    before = store.dump()
    op = {"op": "link_delete", "sourceNodeId": "n_1", "targetNodeId": "n_2", "relation": "knows"}
    del op[missing]
    out = w.apply_extraction_batch(ops=[op])
    assert out["applied"] == [] and out["rejected"][0]["op"] == op
    assert store.dump() == before


# -- what the seed decides ----------------------------------------------------------------------
def test_upsert_links_applied_counts_ops_not_edges(store):
    w = store.write_api()
    for title in ("Eileen", "Kain", "Lina"):
        w.create_node(type="character_sheet", title=title)
    links = [
        {"target": {"id": "n_2"}, "relation": "knows"},
        {"target": {"id": "n_3"}, "relation": "knows"},
        {"target": {"id": "n_3"}, "relation": "fears"},
    ]
    result = w.upsert_links(source={"id": "n_1"}, links=links)
    assert result.to_json() == {"applied": 1} and len(edges(store)) == 6
    refused = w.upsert_links(source={"id": "n_1"}, links=[*links, {"target": {"id": "n_9"}}])
    assert refused["applied"] == 0 and refused["error"]["code"] == "NODE_NOT_FOUND"
    via_json = jsonapi.call(
        store, "upsertLinks", [{"source": {"id": "n_2"}, "links": [{"target": {"id": "n_3"}}]}]
    )
    assert via_json == {"applied": 1}


@pytest.mark.parametrize("name", ["frobnicate", "CREATE", "link-upsert", "", 7, None])
def test_unknown_op_names_are_refused_in_rejected(store, name):
    good = {"op": "create", "type": "character_sheet", "title": "Eileen"}
    bad = {"op": name, "type": "character_sheet", "title": "Kain"}
    out = store.write_api().apply_extraction_batch(ops=[bad, good])
    assert [(a["op"], a["title"]) for a in out["applied"]] == [("create", "Eileen")]
    assert len(out["rejected"]) == 1 and out["rejected"][0]["op"] == bad
    assert out["rejected"][0]["error"]["code"] == "BAD_ARGS"
    assert [n.title for n in store.read_api().list_nodes()] == ["Eileen"]


@pytest.mark.parametrize("type_", [None, "", "   ", 7, ["event"]])
def test_a_create_without_a_type_is_refused_in_rejected(store, type_):
    op: dict[str, Any] = {"op": "create", "title": "Eileen", "fields": {"goal": "crown"}}
    if type_ is not None:
        op["type"] = type_
    before = store.dump()
    out = store.write_api().apply_extraction_batch(ops=[op])
    assert out["applied"] == [] and out["rejected"][0]["op"] == op
    assert out["rejected"][0]["error"]["code"] == "VALIDATION_SKIP"
    assert "type" in out["rejected"][0]["error"]["message"]
    assert store.dump() == before

"""The route model's input blocks against the seed's worked example, built call by call through
the Read API (``getSchema`` then ``getNodeBrief`` per ``listVisibleCandidates`` id)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from graph_builders import char, edge, load, load_store, node
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.luker.route_input import (
    ALWAYS_HEADER,
    QUERY_HEADER,
    ROWS_HEADER,
    SCHEMA_HEADER,
    build_route_input,
    candidate_rows,
    estimate_tokens,
    route_text,
    schema_overview,
)


def worked_example(read: Any, visible: Any = None) -> tuple[list[dict[str, Any]], list[Any]]:
    """The seed's "replicate the native recall LLM input", one Read API call at a time."""
    schema = [
        {
            "id": spec["type"],
            "table_name": spec["tableName"],
            "table_columns": [*spec["tableColumns"]],
            "required_columns": [*spec["requiredColumns"]],
            "force_update": spec["forceUpdate"],
            "always_inject": spec["alwaysInject"],
            "editable": spec["editable"],
            "compression_mode": spec["compressionMode"],
        }
        for spec in read.get_schema().to_json()["types"]
    ]
    options: dict[str, Any] = {"include_edge_summary": True, "edge_summary_limit": 8}
    if visible is not None:
        options["visible_node_ids"] = visible
    rows = [
        read.get_node_brief(view.id, **options).to_json() for view in read.list_visible_candidates()
    ]
    return schema, rows


def assert_same_rows(ours: list[dict[str, Any]], theirs: list[Any]) -> None:
    """Field by field and order by order (key order too), with a readable first difference."""
    assert [r["id"] for r in ours] == [r["id"] for r in theirs]
    for mine, reference in zip(ours, theirs, strict=True):
        assert list(mine) == list(reference), mine["id"]
        for key in reference:
            assert mine[key] == reference[key], (mine["id"], key)
        assert json.dumps(mine, ensure_ascii=False) == json.dumps(reference, ensure_ascii=False)


SPOKES = 40  # more than the 24 summaries after which getEdgeSummary projects the whole graph

FIXTURE_NODES = [
    char("hub", seq=3, title="Hub", fields={"aliases": ["H", "赫"], "traits": "loud"}),
    *[char(f"s{i}", seq=i % 7, title=f"Spoke {i}") for i in range(SPOKES)],
    char("gone", seq=9, title="Gone", archived=True),
    char("艾琳", seq=5, title="Eileen"),
    node(
        "r1",
        seq=8,
        semanticRollup=True,
        semanticDepth=1,
        fields={"summary": "roll one"},
        childrenIds=["e1", "e2", "e3"],
    ),
    node("e1", seq=6, parentId="r1", fields={"summary": "first"}),
    node("e2", seq=7, parentId="r1", fields={"summary": "second"}),
    node("e3", seq=8, parentId="r1", archived=True, fields={"summary": "third"}),
    node("e4", seq=9, fields={"summary": '```json\n{"summary": "fenced"}\n```'}),
    node("loc", type="location_state", seq=2, title="Harbour", fields={"name": "Harbour"}),
    node("th", type="thread", seq=4, title="Debt", fields={"status": "open"}),
    node("x", type="clue", seq=1),
]
FIXTURE_EDGES = [
    *[edge("hub", f"s{i}", "mentions", seqTo=i) for i in range(SPOKES)],
    *[edge(f"s{i}", "hub", "allied_with") for i in range(0, SPOKES, 3)],
    edge("hub", "gone", "mentions", seqTo=50),
    edge("e1", "hub", "involved_in"),
    edge("e2", "hub", "involved_in", seqTo=2),
    edge("e3", "hub", "involved_in", seqTo=99),
    edge("e4", "艾琳", "involved_in"),
    edge("e4", "loc", "occurred_at"),
    edge("th", "艾琳", "related"),
    edge("艾琳", "hub", "family_of"),
]


@pytest.fixture
def fixture_store(store: Any) -> Any:
    return load_store(store, FIXTURE_NODES, FIXTURE_EDGES)


def test_schema_overview_is_the_worked_examples(fixture_store: Any) -> None:
    read = fixture_store.read_api()
    schema, _ = worked_example(read)
    assert schema_overview(read) == schema
    assert [s["id"] for s in schema][:4] == ["event", "character_sheet", "location_state", "thread"]
    assert list(schema_overview(read)[0]) == [
        "id",
        "table_name",
        "table_columns",
        "required_columns",
        "force_update",
        "always_inject",
        "editable",
        "compression_mode",
    ]


def test_rows_equal_the_worked_example_with_the_default_visible_set(fixture_store: Any) -> None:
    read = fixture_store.read_api()
    # No visibleIds recorded yet: every summary is the zero summary, as getNodeBrief's.
    assert_same_rows(candidate_rows(read), worked_example(read)[1])
    pool = [v.id for v in read.list_visible_candidates()]
    fixture_store.write_api().set_injection_state(
        {"visibleIds": pool, "alwaysInjectIds": ["hub", "loc"]}
    )
    rows = candidate_rows(read)
    assert_same_rows(rows, worked_example(read)[1])
    by_id = {r["id"]: r for r in rows}
    hub = by_id["hub"]["edgeSummary"]
    assert hub["degree"] > SPOKES and len(hub["sample_neighbors"]) == 8
    assert by_id["hub"]["alwaysInject"] and not by_id["艾琳"]["alwaysInject"]
    assert by_id["r1"]["exposure"] == "high_only" and by_id["r1"]["childCount"] == 2
    assert "gone" not in by_id and "e1" not in by_id  # archived / rolled up into r1


def test_rows_equal_the_worked_example_with_explicit_visible_sets(fixture_store: Any) -> None:
    read = fixture_store.read_api()
    pool = [v.id for v in read.list_visible_candidates()]
    for visible in (pool, pool[: len(pool) // 2], ["hub", "e1", "e2", "loc"], [], ["nobody"]):
        assert_same_rows(
            candidate_rows(read, visible_node_ids=visible), worked_example(read, visible)[1]
        )
    with pytest.raises(MemgraphError) as info:
        candidate_rows(read, visible_node_ids="hub")
    assert info.value.code == "BAD_ARGS"


def test_rows_follow_edits_archives_and_schema_changes(fixture_store: Any) -> None:
    read = fixture_store.read_api()
    write = fixture_store.write_api()
    write.set_injection_state({"visibleIds": [v.id for v in read.list_visible_candidates()]})
    candidate_rows(read)  # warm whatever is cached
    write.edit_node(id="hub", set_fields={"traits": "quiet"})
    write.archive_node(id="s3")
    write.upsert_links(
        source={"id": "s5"}, links=[{"target": {"id": "艾琳"}, "relation": "hostile_to"}]
    )
    assert_same_rows(candidate_rows(read), worked_example(read)[1])
    schema = fixture_store.graph.schema.to_json()
    for spec in schema:
        if spec["id"] == "character_sheet":
            spec["tableColumns"] = ["title", "traits"]
    write.set_schema(schema)
    assert_same_rows(candidate_rows(read), worked_example(read)[1])


def test_text_and_tokens_follow_edits(fixture_store: Any) -> None:
    """The rows' text is kept between changes: after each edit the whole text is still exactly
    the blocks of the worked example serialised afresh, and the token estimate its own."""
    read = fixture_store.read_api()
    write = fixture_store.write_api()
    write.set_injection_state({"visibleIds": [v.id for v in read.list_visible_candidates()]})

    def check(message: str) -> None:
        route = build_route_input(read, message)
        schema, rows = worked_example(read)
        always = read.get_injection_state().to_json()["alwaysInjectIds"]
        assert route.text == route_text(schema, rows, always, message)
        assert route.tokens == estimate_tokens(route.text)

    check("first")
    check("二つ目 second")  # the same graph, another message
    write.edit_node(id="s7", title="Spoke seven 七")  # a sample neighbour's title
    check("third")
    write.set_injection_state({"alwaysInjectIds": ["艾琳"]})
    check("fourth")
    write.edit_node(id="e4", set_fields={"summary": "日本語の要約"})
    check("fifth")


def test_rows_handed_out_are_fresh(fixture_store: Any) -> None:
    read = fixture_store.read_api()
    fixture_store.write_api().set_injection_state(
        {"visibleIds": [v.id for v in read.list_visible_candidates()]}
    )
    first = candidate_rows(read)
    route = build_route_input(read, "m")
    for row in [*first, *route.candidate_rows]:
        row["keyValues"]["x"] = "changed"
        row["edgeSummary"]["relations"].append({"relation": "x"})
        for sample in row["edgeSummary"]["sample_neighbors"]:
            sample["title"] = "changed"
        row["title"] = "changed"
    assert_same_rows(candidate_rows(read), worked_example(read)[1])
    assert_same_rows(list(build_route_input(read, "m").candidate_rows), worked_example(read)[1])


def test_empty_store(store: Any) -> None:
    read = store.read_api()
    route = build_route_input(read, "hello")
    assert route.candidate_rows == () and route.always_inject_ids == ()
    assert list(route.schema_overview) == worked_example(read)[0]
    assert candidate_rows(read) == []


def test_route_input_text_sections_parse_back(fixture_store: Any) -> None:
    read = fixture_store.read_api()
    fixture_store.write_api().set_injection_state(
        {"visibleIds": [v.id for v in read.list_visible_candidates()], "alwaysInjectIds": ["loc"]}
    )
    message = "Where is 艾琳 now?\nShe left."
    route = build_route_input(read, message)
    schema, rows = worked_example(read)
    assert list(route.schema_overview) == schema
    assert_same_rows(list(route.candidate_rows), rows)
    assert route.always_inject_ids == ("loc",) and route.message == message
    assert route.candidate_ids == tuple(r["id"] for r in rows)
    sections = route.text.split("\n\n", 3)
    headers = [s.split("\n", 1)[0] for s in sections]
    assert headers == [SCHEMA_HEADER, ALWAYS_HEADER, ROWS_HEADER, QUERY_HEADER]
    bodies = [s.split("\n", 1)[1] for s in sections]
    assert json.loads(bodies[0]) == schema
    assert json.loads(bodies[1]) == ["loc"]
    assert json.loads(bodies[2]) == rows
    assert bodies[3] == message
    assert len(bodies[2].splitlines()) == len(rows) + 2  # one row a line, between [ and ]
    assert "艾琳" in route.text  # not escaped: the model reads the text as written
    assert route.tokens == estimate_tokens(route.text)
    with pytest.raises(MemgraphError):
        build_route_input(read, 42)  # type: ignore[arg-type]


def test_token_estimate_rule() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("凯恩") == 2
    assert estimate_tokens("凯恩 abc") == 3  # 2 CJK + ceil(4 / 4)
    assert estimate_tokens("「守护」。") == 5  # CJK punctuation counts as CJK
    assert estimate_tokens("カタカナ한국어") == 7
    assert estimate_tokens("é" * 8) == 2  # other non-ASCII letters are not CJK
    assert estimate_tokens("x" * 4001) == 1001


# -- random small graphs ---------------------------------------------------------------------------

KINDS = ["event", "character_sheet", "location_state", "thread", "clue", "recall_trace"]
RELATIONS = ["mentions", "involved_in", "allied_with", "family_of", "related", "contains", " Odd "]
IDS = ["a", "B", "c1", "c10", "c2", "艾", "é", "n_1", "n-2", "Z"]


@st.composite
def small_graphs(draw: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    ids = draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=len(IDS), unique=True))
    nodes: dict[str, dict[str, Any]] = {}
    for i, node_id in enumerate(ids):
        kind = draw(st.sampled_from(KINDS))
        extra: dict[str, Any] = {
            "archived": draw(st.booleans()) and draw(st.booleans()),
            "fields": draw(
                st.sampled_from([{}, {"summary": "s  one"}, {"aliases": ["x", "y"]}, {"status": 3}])
            ),
        }
        parent = draw(st.sampled_from([None, *ids[:i]]))
        if parent is not None and nodes[parent]["type"] == kind:
            extra["parentId"] = parent
            nodes[parent].setdefault("childrenIds", []).append(node_id)
            nodes[parent]["semanticRollup"] = True
            nodes[parent]["semanticDepth"] = 1
        nodes[node_id] = node(node_id, kind, seq=draw(st.integers(0, 6)), **extra)
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(ids), st.sampled_from(ids), st.sampled_from(RELATIONS)),
            max_size=25,
            unique=True,
        )
    )
    edges = []
    for src, dst, kind in pairs:
        if src != dst:
            extra = {"seqTo": draw(st.integers(0, 9))} if draw(st.booleans()) else {}
            edges.append(edge(src, dst, kind, **extra))
    return list(nodes.values()), edges


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph=small_graphs(), data=st.data())
def test_random_graphs_match_the_worked_example(graph: Any, data: Any) -> None:
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.domain.errors import MemgraphError as Refused

    nodes, edges = graph
    with MemoryStore.open(":memory:") as store:
        try:
            read = load(store, nodes, edges)
        except Refused:
            return  # an input the importer refuses is not a store
        pool = [v.id for v in read.list_visible_candidates()]
        everything = [n["id"] for n in nodes]
        visible = data.draw(
            st.sampled_from([None, pool, everything, pool[::2], everything[::3]]), label="visible"
        )
        if data.draw(st.booleans(), label="record"):
            store.write_api().set_injection_state(
                {"visibleIds": data.draw(st.permutations(everything)), "alwaysInjectIds": pool[:2]}
            )
        assert_same_rows(
            candidate_rows(read, visible_node_ids=visible), worked_example(read, visible)[1]
        )


# -- random writes: what is kept across writes stays in step ---------------------------------------


WRITE_KINDS = (
    "edit",
    "edit_seq",
    "link",
    "unlink",
    "archive",
    "restore",
    "create",
    "rollup",
    "visible",
    "undo",
)


def _random_write(rng: Any, store: Any, step: int) -> str:
    """One write of a random kind (edits with and without a new seqTo, links made and removed,
    archives, restores, rollups, new nodes, a changed visible set, undo)."""
    write, read = store.write_api(origin="t"), store.read_api()
    alive = [n.id for n in read.list_nodes()]
    every = [n.id for n in read.list_nodes(active_only=False)]
    kind = rng.choice(WRITE_KINDS)
    pick = rng.choice(alive) if alive else None
    if kind in ("edit", "edit_seq") and pick:
        write.edit_node(
            id=pick,
            set_fields={"traits": f"t{step}", "summary": f"s {step} 第{step}"},
            keep_seq=kind == "edit",
        )
    elif kind == "link" and len(alive) > 1:
        a, b = rng.sample(alive, 2)
        relation = rng.choice(["mentions", "allied_with", "involved_in", "related"])
        write.upsert_links(source={"id": a}, links=[{"target": {"id": b}, "relation": relation}])
    elif kind == "unlink":
        edges = read.list_edges()
        if edges:
            e = rng.choice(edges)
            write.delete_links(source={"id": e.from_id}, target={"id": e.to_id}, relation=e.type)
    elif kind == "archive" and pick:
        write.archive_node(id=pick)
    elif kind == "restore":
        gone = sorted(set(every) - set(alive))
        if gone:
            write.restore_node(id=rng.choice(gone))
    elif kind == "create":
        write.apply_extraction_batch(
            ops=[{"op": "create", "type": "event", "fields": {"summary": f"new {step}"}}],
            max_seq=20 + step,
        )
    elif kind == "rollup":
        groups = read.compaction_candidates(type="event").groups
        if groups:
            write.compact_nodes(type="event", child_ids=list(groups[0].child_ids), summary="r")
    elif kind == "visible":
        pool = [v.id for v in read.list_visible_candidates()]
        write.set_injection_state(
            {"visibleIds": rng.sample(pool, len(pool) * 2 // 3), "alwaysInjectIds": pool[:1]}
        )
    elif kind == "undo":
        store.history_of("t").undo()
    return kind


@pytest.mark.parametrize("seed", range(6))
def test_random_writes_keep_the_rows_exact(fixture_store: Any, seed: int) -> None:
    import random

    rng = random.Random(seed)
    read = fixture_store.read_api()
    fixture_store.write_api().set_injection_state(
        {"visibleIds": [v.id for v in read.list_visible_candidates()]}
    )
    refused = undone = 0
    for step in range(25):
        try:
            undone += _random_write(rng, fixture_store, step) == "undo"
        except MemgraphError:
            refused += 1  # a refused write changes nothing
        assert_same_rows(candidate_rows(read), worked_example(read)[1])
        if step % 5 == 0:
            route = build_route_input(read, f"step {step}")
            schema, rows = worked_example(read)
            always = read.get_injection_state().to_json()["alwaysInjectIds"]
            assert route.text == route_text(schema, rows, always, f"step {step}")
    assert refused < 10
    assert len(fixture_store.history_of("t").steps(include_skipped=True)) + undone >= 8

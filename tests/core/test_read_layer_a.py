"""Read API layer A (data access): listNodes, getNode, listEdges, getSchema."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from graph_builders import ids, load, node

from memgraph_gui.core.domain.errors import MemgraphError

# -- listNodes -------------------------------------------------------------------------------------


def test_list_nodes_default_hides_archived_and_recall_diagnostics(store: Any) -> None:
    api = load(
        store,
        [
            node("e1", seq=1),
            node("gone", seq=2, archived=True),
            node("r0", type="recall", seq=3),
            node("r1", type="recall_trace", seq=4),
            node("r2", type="Recall_Debug", seq=5),
            node("keep", type="recalled", seq=6),
        ],
    )
    assert ids(api.list_nodes()) == ["e1", "keep"]
    assert ids(api.list_nodes(active_only=True)) == ["e1", "keep"]


def test_list_nodes_active_only_false_returns_everything(store: Any) -> None:
    api = load(
        store,
        [
            node("e1", seq=1),
            node("gone", seq=2, archived=True),
            node("r1", type="recall_trace", seq=0),
        ],
    )
    views = api.list_nodes(active_only=False)
    assert ids(views) == ["r1", "e1", "gone"]
    assert [v.archived for v in views] == [False, False, True]


def test_list_nodes_timeline_order_uses_seq_then_locale_compare(store: Any) -> None:
    # Inserted in an order that is neither timeline nor code-point order.
    api = load(
        store,
        [
            node("n_9", seq=2),
            node("n_10", seq=2),
            node("B", seq=2),
            node("a", seq=2),
            node("late", seq=7),
            node("early", seq=0),
        ],
    )
    # localeCompare: case-blind first ('a' < 'B'), no numeric collation ('n_10' < 'n_9').
    assert ids(api.list_nodes()) == ["early", "a", "B", "n_10", "n_9", "late"]


def test_list_nodes_locale_order_puts_punctuation_before_digits_before_letters(store: Any) -> None:
    api = load(store, [node("a1", seq=1), node("9z", seq=1), node("_z", seq=1), node("A0", seq=1)])
    # Python's default order would be ['9z', 'A0', '_z', 'a1'].
    assert ids(api.list_nodes()) == ["_z", "9z", "A0", "a1"]


def test_list_nodes_types_filter_is_case_insensitive(store: Any) -> None:
    api = load(
        store,
        [
            node("e1", seq=1),
            node("c1", type="character_sheet", seq=2),
            node("l1", type="location_state", seq=3),
        ],
    )
    assert ids(api.list_nodes(types=["EVENT"])) == ["e1"]
    assert ids(api.list_nodes(types=["Character_Sheet", " event "])) == ["e1", "c1"]
    assert ids(api.list_nodes(types=["thread"])) == []
    # An empty list means "no filter", like Luker's normalizeStringArray.
    assert ids(api.list_nodes(types=[])) == ["e1", "c1", "l1"]


def test_list_nodes_levels_filter_is_case_insensitive(store: Any) -> None:
    api = load(store, [node("e1", seq=1), node("e2", seq=2)])
    assert ids(api.list_nodes(levels=["SEMANTIC"])) == ["e1", "e2"]
    assert ids(api.list_nodes(levels=["Episodic"])) == []


def test_list_nodes_seq_range_is_inclusive(store: Any) -> None:
    api = load(store, [node(f"e{i}", seq=i) for i in range(1, 7)])
    assert ids(api.list_nodes(seq_range={"from": 2, "to": 4})) == ["e2", "e3", "e4"]
    assert ids(api.list_nodes(seq_range={"from": 5})) == ["e5", "e6"]
    assert ids(api.list_nodes(seq_range={"to": 1})) == ["e1"]
    assert ids(api.list_nodes(seq_range={"from": 4, "to": 3})) == []


def test_list_nodes_results_are_deep_frozen(store: Any) -> None:
    api = load(
        store,
        [
            node(
                "c1",
                type="character_sheet",
                seq=1,
                title="Alice",
                fields={"aliases": ["Ally", "艾丽"], "goal": "x"},
                childrenIds=["c2"],
            ),
            node("c2", type="character_sheet", seq=2, parentId="c1"),
        ],
    )
    views = api.list_nodes()
    view = views[0]
    assert isinstance(views, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.title = "Mallory"  # type: ignore[misc]
    with pytest.raises(TypeError):
        view.fields["goal"] = "y"  # type: ignore[index]
    with pytest.raises(TypeError):
        del view.fields["goal"]  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        view.fields["aliases"].append("Al")
    with pytest.raises(AttributeError):
        view.children_ids.append("zz")  # type: ignore[attr-defined]
    # The JSON form is a private copy: mutating it leaves the store untouched.
    data = view.to_json()
    data["fields"]["aliases"].append("Al")
    data["childrenIds"].clear()
    again = api.get_node("c1").to_json()
    assert again["fields"]["aliases"] == ["Ally", "艾丽"]
    assert again["childrenIds"] == ["c2"]


def test_list_nodes_json_has_exactly_the_node_view_keys(store: Any) -> None:
    api = load(store, [node("e1", seq=3, fields={"summary": "s"})])
    assert api.list_nodes()[0].to_json() == {
        "id": "e1",
        "type": "event",
        "level": "semantic",
        "title": "e1",
        "fields": {"summary": "s"},
        "seqTo": 3,
        "parentId": "",
        "childrenIds": [],
        "archived": False,
        "semanticRollup": False,
        "semanticDepth": 0,
    }


@pytest.mark.parametrize(
    "kwargs",
    [
        {"types": "event"},
        {"types": [1]},
        {"levels": "semantic"},
        {"active_only": "yes"},
        {"seq_range": 5},
        {"seq_range": {"from": "2"}},
    ],
)
def test_list_nodes_wrong_typed_options_raise_bad_args(store: Any, kwargs: dict[str, Any]) -> None:
    api = load(store, [node("e1")])
    with pytest.raises(MemgraphError) as info:
        api.list_nodes(**kwargs)
    assert info.value.code == "BAD_ARGS"


def test_list_nodes_on_empty_store_is_empty(store: Any) -> None:
    assert store.read_api().list_nodes() == ()


def test_list_nodes_on_the_demo_store(demo_store: Any) -> None:
    api = demo_store.read_api()
    everything = api.list_nodes(active_only=False)
    assert len(everything) == 600
    seqs = [n.seq_to for n in everything]
    assert seqs == sorted(seqs)
    active = api.list_nodes()
    assert len(active) == sum(1 for n in everything if not n.archived)
    assert {n.type for n in api.list_nodes(types=["event"])} == {"event"}
    window = api.list_nodes(seq_range={"from": seqs[100], "to": seqs[200]})
    assert window and all(seqs[100] <= n.seq_to <= seqs[200] for n in window)
    assert len(window) == sum(1 for n in active if seqs[100] <= n.seq_to <= seqs[200])


# -- getNode ---------------------------------------------------------------------------------------


def test_get_node_returns_view_and_trims_id(store: Any) -> None:
    api = load(store, [node("e1", seq=4, title="Something")])
    assert api.get_node("e1").title == "Something"
    assert api.get_node("  e1 \t").id == "e1"


@pytest.mark.parametrize("key", ["nope", "", "   ", "\t\n", None])
def test_get_node_unknown_or_blank_is_none(store: Any, key: Any) -> None:
    api = load(store, [node("e1")])
    assert api.get_node(key) is None


def test_get_node_returns_archived_nodes(store: Any) -> None:
    api = load(store, [node("gone", archived=True), node("r1", type="recall_trace")])
    assert api.get_node("gone").archived is True
    assert api.get_node("r1") is not None


def test_get_node_sees_write_api_archive(store: Any) -> None:
    store.write_api().apply_extraction_batch(
        ops=[{"op": "create", "type": "character_sheet", "title": "Alice", "fields": {}}]
    )
    api = store.read_api()
    assert api.get_node("n_1").archived is False
    assert store.write_api().delete_node(id="n_1")["ok"] is True
    assert api.get_node("n_1").archived is True
    assert ids(api.list_nodes()) == []


def test_get_node_rejects_non_string_id(store: Any) -> None:
    with pytest.raises(MemgraphError) as info:
        load(store, [node("e1")]).get_node(["e1"])
    assert info.value.code == "BAD_ARGS"


# -- listEdges -------------------------------------------------------------------------------------

EDGE_NODES = [node(i, seq=k) for k, i in enumerate(["z", "a", "m", "r"], start=1)]
EDGES = [
    {"from": "z", "to": "a", "type": "mentions"},
    {"from": "a", "to": "m", "type": "related"},
    {"from": "r", "to": "a", "type": "contains"},
    {"from": "r", "to": "a", "type": "semantic_contains"},
    {"from": "m", "to": "z", "type": "mentions"},
    {"from": "a", "to": "z", "type": "involved_in", "seqTo": 9},
]


def edge_tuples(edges: Any) -> list[tuple[str, str, str]]:
    return [(e.from_id, e.to_id, e.type) for e in edges]


def test_list_edges_returns_raw_edges_in_store_order(store: Any) -> None:
    api = load(store, EDGE_NODES, EDGES)
    assert edge_tuples(api.list_edges()) == [(e["from"], e["to"], e["type"]) for e in EDGES]


def test_list_edges_every_filter_combination_equals_a_filter_of_all(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """from / to (blank ids too), types and excludeInternal together, whether a node's edges
    are kept between calls (a hub's) or made per call: the same as filtering every edge."""
    from memgraph_gui.core.graph import neighbors

    api = load(store, EDGE_NODES, EDGES)
    ends = [None, "", " a ", *sorted({e["from"] for e in EDGES} | {e["to"] for e in EDGES})]
    every = list(api.list_edges())
    for kept_from in (0, neighbors.KEPT_FROM):
        monkeypatch.setattr(neighbors, "KEPT_FROM", kept_from)
        for source in ends:
            for target in ends:
                for types in (None, ["MENTIONS"], ["contains", "Related"]):
                    for internal in (False, True):
                        got = api.list_edges(
                            from_id=source, to_id=target, types=types, exclude_internal=internal
                        )
                        wanted = [
                            e
                            for e in every
                            if (source is None or e.from_id == source.strip())
                            and (target is None or e.to_id == target.strip())
                            and (types is None or e.type.lower() in {x.lower() for x in types})
                            and not (internal and e.internal)
                        ]
                        assert list(got) == wanted, (source, target, types, internal)


def test_list_edges_from_and_to_filters(store: Any) -> None:
    api = load(store, EDGE_NODES, EDGES)
    assert edge_tuples(api.list_edges(from_id="a")) == [
        ("a", "m", "related"),
        ("a", "z", "involved_in"),
    ]
    assert edge_tuples(api.list_edges(to_id="z")) == [
        ("m", "z", "mentions"),
        ("a", "z", "involved_in"),
    ]
    assert edge_tuples(api.list_edges(from_id="z", to_id="a")) == [("z", "a", "mentions")]
    assert api.list_edges(from_id="a", to_id="r") == ()
    assert api.list_edges(from_id="nobody") == ()


def test_list_edges_types_filter_is_case_insensitive(store: Any) -> None:
    api = load(store, EDGE_NODES, EDGES)
    assert edge_tuples(api.list_edges(types=["MENTIONS"])) == [
        ("z", "a", "mentions"),
        ("m", "z", "mentions"),
    ]
    assert edge_tuples(api.list_edges(types=["Related", "involved_in"])) == [
        ("a", "m", "related"),
        ("a", "z", "involved_in"),
    ]


def test_list_edges_exclude_internal(store: Any) -> None:
    api = load(store, EDGE_NODES, EDGES)
    internal = {"contains", "semantic_contains"}
    assert {e.type for e in api.list_edges()} & internal == internal
    assert {e.type for e in api.list_edges(exclude_internal=False)} & internal == internal
    kept = api.list_edges(exclude_internal=True)
    assert len(kept) == 4 and not {e.type for e in kept} & internal
    assert api.list_edges(types=["contains"], exclude_internal=True) == ()


def test_list_edges_json_has_no_weight(store: Any) -> None:
    api = load(store, EDGE_NODES, EDGES)
    for edge in api.list_edges():
        assert set(edge.to_json()) == {"from", "to", "type"}
    assert api.list_edges(from_id="a", to_id="z")[0].to_json() == {
        "from": "a",
        "to": "z",
        "type": "involved_in",
    }


def test_list_edges_follow_write_api_order(store: Any) -> None:
    store.write_api().apply_extraction_batch(
        ops=[
            {"op": "create", "type": "character_sheet", "ref": "a", "title": "Alice", "fields": {}},
            {"op": "create", "type": "character_sheet", "ref": "b", "title": "Bob", "fields": {}},
            {
                "op": "link_upsert",
                "sourceRef": "b",
                "links": [{"targetRef": "a", "relation": "mentor_of", "direction": "outgoing"}],
            },
            {
                "op": "link_upsert",
                "sourceRef": "a",
                "links": [{"targetRef": "b", "relation": "debt_owed_to", "direction": "outgoing"}],
            },
        ]
    )
    assert edge_tuples(store.read_api().list_edges()) == [
        ("n_2", "n_1", "mentor_of"),
        ("n_1", "n_2", "debt_owed_to"),
    ]


def test_list_edges_rejects_wrong_types(store: Any) -> None:
    api = load(store, EDGE_NODES, EDGES)
    for kwargs in ({"types": "mentions"}, {"exclude_internal": 1}, {"from_id": {"id": "a"}}):
        with pytest.raises(MemgraphError) as info:
            api.list_edges(**kwargs)
        assert info.value.code == "BAD_ARGS"


# -- getSchema -------------------------------------------------------------------------------------


def test_get_schema_default_types_in_definition_order(store: Any) -> None:
    types = store.read_api().get_schema().to_json()["types"]
    assert [t["type"] for t in types] == ["event", "character_sheet", "location_state", "thread"]


def test_get_schema_default_event_view(store: Any) -> None:
    event = store.read_api().get_schema().to_json()["types"][0]
    assert event == {
        "type": "event",
        "tableName": "event_table",
        "tableColumns": ["summary"],
        "requiredColumns": ["summary"],
        "primaryKeyColumns": [],
        "forceUpdate": True,
        "alwaysInject": True,
        "editable": False,
        "compressionMode": "hierarchical",
    }


@pytest.mark.parametrize(
    ("type_id", "table", "pk", "flags"),
    [
        ("character_sheet", "character_table", ["title", "aliases"], (False, False, True, "none")),
        ("location_state", "location_table", ["title", "aliases"], (False, False, True, "none")),
        ("thread", "thread_table", ["title"], (False, True, True, "none")),
    ],
)
def test_get_schema_default_other_views(
    store: Any, type_id: str, table: str, pk: list[str], flags: tuple[bool, bool, bool, str]
) -> None:
    views = {t["type"]: t for t in store.read_api().get_schema().to_json()["types"]}
    view = views[type_id]
    assert view["tableName"] == table
    assert view["primaryKeyColumns"] == pk
    assert (
        view["forceUpdate"],
        view["alwaysInject"],
        view["editable"],
        view["compressionMode"],
    ) == flags
    assert set(view) == {
        "type",
        "tableName",
        "tableColumns",
        "requiredColumns",
        "primaryKeyColumns",
        "forceUpdate",
        "alwaysInject",
        "editable",
        "compressionMode",
    }


def test_get_schema_default_columns(store: Any) -> None:
    views = {t["type"]: t for t in store.read_api().get_schema().to_json()["types"]}
    assert views["character_sheet"]["tableColumns"] == [
        "title",
        "aliases",
        "traits",
        "identity",
        "goal",
        "inventory",
        "language_sample",
        "addressing_user",
    ]
    assert views["location_state"]["tableColumns"] == [
        "title",
        "aliases",
        "controller",
        "danger",
        "resources",
        "state",
    ]
    assert views["thread"]["tableColumns"] == ["title", "status", "note"]
    assert views["thread"]["requiredColumns"] == ["title", "status", "note"]


def test_get_schema_reflects_a_replaced_schema(store: Any) -> None:
    store.write_api().set_schema(
        [
            {
                "id": "Clue",
                "tableName": "clue_table",
                "tableColumns": ["title", "hint"],
                "primaryKeyColumns": ["title", "missing"],
                "forceUpdate": {"hint": False},
                "compression": {"mode": "flat"},
            },
        ]
    )
    (view,) = store.read_api().get_schema().to_json()["types"]
    assert view["type"] == "clue"
    assert view["primaryKeyColumns"] == ["title"]
    assert view["forceUpdate"] is True  # a per-column map collapses to True
    assert view["editable"] is True and view["alwaysInject"] is False


def test_get_schema_views_cannot_corrupt_the_store(store: Any) -> None:
    view = store.read_api().get_schema()
    spec = view.types[0]
    with pytest.raises((TypeError, AttributeError)):
        spec.raw["tableColumns"].append("HACK")
    with pytest.raises((TypeError, AttributeError)):
        spec.raw["tableName"] = "hacked"
    data = view.to_json()
    data["types"][0]["tableColumns"].append("HACK")
    assert store.read_api().get_schema().to_json()["types"][0]["tableColumns"] == ["summary"]

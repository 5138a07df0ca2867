"""Layer D (injection observation), Luker's legacy external API and the JSON command line."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from graph_builders import load_store as load
from graph_builders import node as _node

from memgraph_gui.cli import main
from memgraph_gui.core import MemoryStore, external


def node(node_id: str, **extra: Any) -> dict[str, Any]:
    return _node(node_id, **{"type": "character_sheet", **extra})


NODES = [
    node("b", seq=3, title="Bob", fields={"traits": "brave"}),
    node("A", seq=1, title="Alice Wonder", fields={"aliases": ["Ally", "艾丽"], "goal": "dragon"}),
    node("c", seq=2, title="Carol", fields={"traits": "Brave and kind"}),
    node(
        "e1",
        type="event",
        seq=5,
        title="Summary 1",
        fields={"summary": "Alice meets Bob. " + "x" * 600},
    ),
    node("gone", seq=4, title="Alice Gone", archived=True),
    node("rec", type="recall_trace", seq=6, title="alice trace"),
]
EDGES = [
    {"from": "e1", "to": "A", "type": "involved_in"},
    {"from": "A", "to": "b", "type": "mentions"},
    {"from": "b", "to": "A", "type": "mentions"},
    {"from": "gone", "to": "A", "type": "related"},
]


@pytest.fixture
def filled(store: Any) -> Any:
    return load(store, NODES, EDGES)


# -- getInjectionState / onInjectionChanged --------------------------------------------------------


def test_injection_state_starts_empty_and_is_frozen(filled: Any) -> None:
    state = filled.read_api().get_injection_state()
    assert state.to_json() == {"alwaysInjectIds": [], "recallSelectedIds": [], "visibleIds": []}
    with pytest.raises(AttributeError):
        state.visible_ids.add("A")  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        state.visible_ids = frozenset({"A"})  # type: ignore[misc]


def test_set_injection_state_records_visible_ids_and_keeps_omitted_keys(filled: Any) -> None:
    w = filled.write_api()
    w.set_injection_state({"alwaysInjectIds": ["e1"], "visibleIds": ["c", "A", "b"]})
    w.set_injection_state({"recallSelectedIds": ["b"]})
    state = filled.read_api().get_injection_state()
    assert state.visible_ids == {"A", "b", "c"}
    assert state.visible_order == ("c", "A", "b")
    assert state.to_json() == {
        "alwaysInjectIds": ["e1"],
        "recallSelectedIds": ["b"],
        "visibleIds": ["c", "A", "b"],
    }  # the sets in localeCompare order; visibleIds as recorded (a JS Set keeps insertion order)
    w.set_injection_state({"visibleIds": []})
    assert filled.read_api().get_injection_state().visible_ids == frozenset()


def test_on_injection_changed_fires_with_the_new_state(filled: Any) -> None:
    api, seen = filled.read_api(), []
    api.on_injection_changed(seen.append)
    filled.write_api().set_injection_state({"recallSelectedIds": ["A"], "visibleIds": ["A", "b"]})
    assert len(seen) == 1
    assert seen[0].recall_selected_ids == {"A"} and seen[0].visible_ids == {"A", "b"}
    filled.write_api().edit_node(id="b", set_fields={"traits": "bold"})  # not an injection change
    assert len(seen) == 1


def test_unsubscribe_is_idempotent(filled: Any) -> None:
    api, seen, other = filled.read_api(), [], []
    unsubscribe = api.on_injection_changed(seen.append)
    api.on_injection_changed(other.append)
    filled.write_api().set_injection_state({"visibleIds": ["A"]})
    unsubscribe()
    unsubscribe()
    filled.write_api().set_injection_state({"visibleIds": ["b"]})
    assert len(seen) == 1 and len(other) == 2
    assert api.on_injection_changed("not callable")() is None


def test_raising_listener_does_not_stop_others(filled: Any) -> None:
    api, calls = filled.read_api(), []

    def bad(state: Any) -> None:
        calls.append("bad")
        raise RuntimeError("boom")

    api.on_injection_changed(bad)
    api.on_injection_changed(lambda state: calls.append("good"))
    filled.write_api().set_injection_state({"alwaysInjectIds": ["A"]})
    filled.write_api().set_injection_state({"alwaysInjectIds": ["b"]})
    assert calls == ["bad", "good", "bad", "good"]
    assert filled.read_api().get_injection_state().always_inject_ids == {"b"}


def test_injection_change_from_another_connection_notifies(tmp_path: Path) -> None:
    path = tmp_path / "shared.memgraph"
    with MemoryStore.open(path) as first:
        load(first, NODES)
        with MemoryStore.open(path) as second:
            seen: list[Any] = []
            first.read_api().on_injection_changed(seen.append)
            second.write_api().set_injection_state({"visibleIds": ["c"]})
            assert first.read_api().get_injection_state().visible_ids == {"c"}
            assert [s.visible_ids for s in seen] == [{"c"}]


# -- external API ----------------------------------------------------------------------------------


def found(result: dict[str, Any]) -> list[str]:
    return [item["id"] for item in result["nodes"]]


def test_search_lexical_matches_title_and_lexical_fields(filled: Any) -> None:
    assert found(external.search_nodes_lexical(filled, "ALICE")) == ["A", "e1", "rec"]
    assert found(external.search_nodes_lexical(filled, "brave")) == ["b", "c"]
    assert found(external.search_nodes_lexical(filled, "艾丽")) == ["A"]
    assert found(external.search_nodes_lexical(filled, "ice won")) == ["A"]
    assert found(external.search_nodes_lexical(filled, "dragon")) == []  # goal is not searched


def test_search_lexical_items_and_preview(filled: Any) -> None:
    (item,) = external.search_nodes_lexical(filled, "meets")["nodes"]
    assert set(item) == {"id", "preview", "type", "time"}
    assert (item["id"], item["type"], item["time"]) == ("e1", "event", 5)
    assert len(item["preview"]) == 300
    assert item["preview"].startswith("Summary 1 Alice meets Bob.")
    (alice,) = external.search_nodes_lexical(filled, "wonder")["nodes"]
    assert alice["preview"] == "Alice Wonder Ally,艾丽"


def test_search_lexical_limits_and_exclusions(store: Any) -> None:
    load(store, [node(f"n{i}", seq=i, title=f"Hero {i}") for i in range(8)])
    assert len(external.search_nodes_lexical(store, "hero")["nodes"]) == 5
    assert len(external.search_nodes_lexical(store, "hero", {"limit": 0})["nodes"]) == 5
    assert found(external.search_nodes_lexical(store, "hero", {"limit": 2})) == ["n0", "n1"]
    assert found(
        external.search_nodes_lexical(store, "hero", {"excludeIds": {"n0", "n2"}, "limit": 3})
    ) == ["n1", "n3", "n4"]
    assert found(external.search_nodes_lexical(store, "hero", {"excludeIds": ["n1"]}))[:2] == [
        "n0",
        "n2",
    ]


def test_search_lexical_degrades_gracefully(filled: Any, tmp_path: Path) -> None:
    assert external.search_nodes_lexical(None, "alice") == {"nodes": []}
    assert external.search_nodes_lexical(filled, "") == {"nodes": []}
    assert external.search_nodes_lexical(filled, "   ") == {"nodes": []}
    assert found(external.search_nodes_lexical(filled, "gone")) == []  # archived skipped
    closed = MemoryStore.open(tmp_path / "c.memgraph")
    closed.close()
    assert external.search_nodes_lexical(closed, "alice") == {"nodes": []}


def test_list_recent_nodes_reverse_timeline(filled: Any, store: Any) -> None:
    assert found(external.list_recent_nodes(filled)) == ["rec", "e1", "b", "c", "A"]
    assert found(external.list_recent_nodes(filled, {"limit": 2, "excludeIds": ["rec"]})) == [
        "e1",
        "b",
    ]
    assert external.list_recent_nodes(None) == {"nodes": []}


def test_list_recent_nodes_default_limit_and_ties(tmp_path: Path) -> None:
    with MemoryStore.open(tmp_path / "r.memgraph") as s:
        load(
            s,
            [node(i, seq=1) for i in ("a", "B", "n_9", "n_10")]
            + [node(f"z{i}", seq=2 + i) for i in range(10)],
        )
        result = external.list_recent_nodes(s)
        assert len(result["nodes"]) == 10 and result["nodes"][0]["id"] == "z9"
        assert len(external.list_recent_nodes(s, {"limit": 0})["nodes"]) == 10
        tail = found(external.list_recent_nodes(s, {"limit": 14}))[-4:]
        assert tail == ["n_9", "n_10", "B", "a"]


def test_get_node_by_id(filled: Any) -> None:
    result = external.get_node_by_id(filled, "A")
    assert result["node"]["id"] == "A" and result["node"]["fields"]["aliases"] == ["Ally", "艾丽"]
    assert result["neighbors"] == [
        {"id": "e1", "edgeType": "involved_in"},
        {"id": "b", "edgeType": "mentions"},
        {"id": "b", "edgeType": "mentions"},
        {"id": "gone", "edgeType": "related"},
    ]
    assert external.get_node_by_id(filled, "A", {"includeNeighbors": False})["neighbors"] == []
    result["node"]["fields"]["aliases"].append("Mallory")  # a copy, not the store's node
    assert external.get_node_by_id(filled, "A")["node"]["fields"]["aliases"] == ["Ally", "艾丽"]
    assert external.get_node_by_id(filled, " gone ")["node"]["archived"] is True
    assert external.get_node_by_id(filled, "nope") is None
    assert external.get_node_by_id(filled, "") is None
    assert external.get_node_by_id(None, "A") is None


def test_currently_injected_node_ids(filled: Any) -> None:
    empty = external.get_currently_injected_node_ids(filled)
    assert empty == {"alwaysInjectIds": set(), "recallSelectedIds": set()}
    filled.write_api().set_injection_state(
        {"alwaysInjectIds": ["e1"], "recallSelectedIds": ["A", "b"], "visibleIds": ["c"]}
    )
    now = external.get_currently_injected_node_ids(filled)
    assert now == {"alwaysInjectIds": {"e1"}, "recallSelectedIds": {"A", "b"}}
    assert external.get_currently_injected_node_ids(None) == {
        "alwaysInjectIds": set(),
        "recallSelectedIds": set(),
    }


# -- the JSON command line -------------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "cli.memgraph"
    with MemoryStore.open(path) as s:
        load(s, NODES, EDGES)
    return str(path)


def run(argv: list[str], stdin: str = "") -> tuple[int, list[Any]]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_cli_call_read_methods(db: str) -> None:
    code, [line] = run(["--db", db, "call", "getNode", '["A"]'])
    assert code == 0 and line["result"]["title"] == "Alice Wonder"
    code, [line] = run(["--db", db, "call", "listNodes", '[{"types": ["EVENT"]}]'])
    assert [n["id"] for n in line["result"]] == ["e1"]
    code, [line] = run(
        ["--db", db, "call", "getAncestor", '["A", {"predicate": {"type": "event"}}]']
    )
    assert code == 0 and line == {"result": None}
    code, [line] = run(["--db", db, "call", "projectEdges", '[{"visibleNodeIds": ["A", "b"]}]'])
    assert line["result"] == [
        {"from": "A", "to": "b", "type": "mentions", "weight": 1},
        {"from": "b", "to": "A", "type": "mentions", "weight": 1},
    ]
    code, [line] = run(["--db", db, "call", "listEdges", '[{"from": "A", "types": ["MENTIONS"]}]'])
    assert line["result"] == [{"from": "A", "to": "b", "type": "mentions"}]
    code, [line] = run(
        [
            "--db",
            db,
            "call",
            "getNodeBrief",
            '["b", {"visibleNodeIds": ["A", "b"], "edgeSummaryLimit": 1}]',
        ]
    )
    assert code == 0 and line["result"]["edgeSummary"]["degree"] == 2
    assert line["result"]["keyValues"] == {"title": "Bob"}


def test_cli_sets_are_arrays_visible_ids_in_recorded_order(db: str) -> None:
    code, _ = run(
        [
            "--db",
            db,
            "call",
            "setInjectionState",
            '[{"visibleIds": ["c", "A", "b"], "alwaysInjectIds": ["e1"]}]',
        ]
    )
    assert code == 0
    code, [state] = run(["--db", db, "call", "getInjectionState"])
    assert state == {
        "result": {
            "alwaysInjectIds": ["e1"],
            "recallSelectedIds": [],
            "visibleIds": ["c", "A", "b"],
        }
    }
    code, [ids] = run(["--db", db, "call", "getCurrentlyInjectedNodeIds"])
    assert ids == {"result": {"alwaysInjectIds": ["e1"], "recallSelectedIds": []}}


def test_cli_json_lines(db: str) -> None:
    lines = "\n".join(
        [
            json.dumps({"call": "noSuchMethod", "args": []}),
            "",
            json.dumps({"call": "findByName", "args": [{"query": "carol"}]}),
        ]
    )
    code, out = run(["--db", db, "call", "-"], stdin=lines + "\n")
    assert code == 1 and len(out) == 2
    assert out[0]["error"]["code"] == "BAD_ARGS" and "noSuchMethod" in out[0]["error"]["message"]
    assert [m["id"] for m in out[1]["result"]["matches"]] == ["c"]
    code, out = run(["--db", db, "call", "-"], stdin='{"call": "getNode", "args": ["b"]}\n')
    assert code == 0 and out[0]["result"]["id"] == "b"
    code, out = run(["--db", db, "call", "-"], stdin="not json\n[1]\n")
    assert code == 1 and [o["error"]["code"] for o in out] == ["BAD_ARGS", "BAD_ARGS"]


@pytest.mark.parametrize(
    ("method", "args", "code"),
    [
        ("frobnicate", "[]", "BAD_ARGS"),
        ("listNodes", '[{"types": "event"}]', "BAD_ARGS"),
        ("listNodes", '[{"colour": "red"}]', "BAD_ARGS"),
        ("listNodes", "[{", "BAD_ARGS"),
        ("getNearestVisibleAncestor", '["A", {"visibleNodeIds": "A"}]', "BAD_ARGS"),
        ("vectorSearch", '[{"query": "betrayal"}]', "NO_EMBEDDING_PROFILE"),
    ],
)
def test_cli_errors_exit_1(db: str, method: str, args: str, code: str) -> None:
    status, [line] = run(["--db", db, "call", method, args])
    assert status == 1 and line["error"]["code"] == code and line["error"]["message"]


def test_cli_missing_store(tmp_path: Path) -> None:
    missing = str(tmp_path / "absent.memgraph")
    for method in ("listNodes", "getInjectionState", "createNode"):
        status, [line] = run(["--db", missing, "call", method])
        assert status == 1 and line["error"]["code"] == "MEMORY_STORE_MISSING"
    assert run(["--db", missing, "call", "searchNodesLexical", '["x"]']) == (
        0,
        [{"result": {"nodes": []}}],
    )
    assert run(["--db", missing, "call", "listRecentNodes"]) == (0, [{"result": {"nodes": []}}])
    assert run(["--db", missing, "call", "getNodeById", '["A"]']) == (0, [{"result": None}])
    assert not Path(missing).exists()
    status, [line] = run(
        [
            "--db",
            missing,
            "call",
            "createNode",
            '[{"type": "character_sheet", "title": "New"}]',
            "--create",
        ]
    )
    assert status == 0 and line == {"result": {"id": "n_1"}}


def test_cli_external_methods_check_arity(db: str) -> None:
    lines = "\n".join(
        json.dumps(r)
        for r in (
            {"call": "searchNodesLexical", "args": ["bob", {}, 3]},
            {"call": "getCurrentlyInjectedNodeIds", "args": [{}]},
            {"call": "getNodeById", "args": []},
            {"call": "searchNodesLexical"},
        )
    )
    code, out = run(["--db", db, "call", "-"], stdin=lines + "\n")
    assert code == 1
    assert [o.get("error", {}).get("code") for o in out] == ["BAD_ARGS", "BAD_ARGS", None, None]
    assert out[2:] == [{"result": None}, {"result": {"nodes": []}}]


def test_cli_external_methods_on_a_store(db: str) -> None:
    status, [line] = run(["--db", db, "call", "searchNodesLexical", '["brave", {"limit": 1}]'])
    assert status == 0 and [n["id"] for n in line["result"]["nodes"]] == ["b"]
    status, [line] = run(["--db", db, "call", "getNodeById", '["b", {"includeNeighbors": false}]'])
    assert line["result"]["neighbors"] == [] and line["result"]["node"]["title"] == "Bob"

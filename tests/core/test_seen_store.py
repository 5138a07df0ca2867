"""The seen store (``core.membrane.seen``, ``core.memory.seen_memory``): the memory as one
Membrane caller sees it, asked through every read method of the JSON boundary.

Every node's hidden payload is a marker word found nowhere else (``qq<i>qq<part>``) and every id
is no part of another (``L3z``, ``N3z``, ``R3z``), so "no leak" is an exact text check: no
answer holds a marker of an omitted or redacted node, nor an omitted node's id; no search finds
a hidden node by its markers; asking about an omitted id answers as for an id never stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_gui.core import jsonapi
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.freeze import freeze
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.membrane import seen as seen_module
from memgraph_gui.core.membrane.attributes import OVERRIDES
from memgraph_gui.core.membrane.index import tiers
from memgraph_gui.core.membrane.model import SENSITIVITIES, record_node, relation_edges
from memgraph_gui.core.membrane.trust import REDACTED_KEYS, TrustContext
from memgraph_gui.core.memory import MemoryStore, seen_memory
from memgraph_gui.core.nuggets import api as nuggets_api
from memgraph_gui.core.nuggets import model as nuggets_model
from memgraph_gui.core.nuggets.api import fact_meta_key
from memgraph_gui.core.storage import vector_rows
from tests.core.membrane.conftest import rec
from tests.nugget_notes import note

NUGGETS = ("alpha", "beta")
GHOST = "GHOSTz"
"""An id no store holds: an omitted id must be answered as it is."""


def mark(i: int, part: str) -> str:
    return f"qq{i}qq{part}"


@dataclass
class Item:
    """One node of a test memory: ``kind`` luker / note / record, its Membrane sensitivity
    and scope, and what it points at (indexes of other items)."""

    kind: str
    sensitivity: str
    scope: str = ""
    nugget: str = "alpha"
    fact: bool = False
    parent: int | None = None
    links: list[int] = field(default_factory=list)
    archived: bool = False


def node_id(items: list[Item], i: int) -> str:
    return {"luker": "L", "note": "N", "record": "R"}[items[i].kind] + f"{i}z"


def build(store: MemoryStore, items: list[Item]) -> None:  # noqa: PLR0912
    """Put ``items`` into ``store`` in one transaction, with injection state, overrides and
    Nuggets fact counters naming every node, then embed them (hashed profile)."""
    ids = [node_id(items, i) for i in range(len(items))]
    overrides: dict[str, Any] = {}
    with store.storage.transaction(OpKind.BATCH, "build") as tx:
        children: dict[int, list[str]] = {}
        notes: list[dict[str, Any]] = []
        for i, item in enumerate(items):
            if item.kind == "luker" and item.parent is not None:
                children.setdefault(item.parent, []).append(ids[i])
        for i, item in enumerate(items):
            if item.kind == "luker":
                parent = item.parent
                see = [ids[t] for t in item.links]
                tx.put_node(
                    Node(
                        id=ids[i],
                        type="event" if i % 2 else "character_sheet",
                        title=mark(i, "T"),
                        seq_to=i + 1,
                        fields=freeze({"summary": f"{mark(i, 'F')} words", "see": see}),
                        parent_id=ids[parent] if parent is not None else "",
                        children_ids=tuple(children.get(i, ())),
                        archived=item.archived,
                    )
                )
                overrides[ids[i]] = {"sensitivity": item.sensitivity, "scope": item.scope}
            elif item.kind == "note":
                data = note(
                    ids[i],
                    mark(i, "T"),
                    f"{mark(i, 'C')} content",
                    nugget=item.nugget,
                    kind="fact" if item.fact else "note",
                    links=tuple((ids[t], mark(i, "W")) for t in item.links),
                    hidden=item.archived,
                )
                nuggets_model.stage_note(tx, data)
                notes.append(data)
                overrides[ids[i]] = {"sensitivity": item.sensitivity, "scope": item.scope}
                if item.fact:
                    counters = {"key": data["sourceKey"], "hits": 1, "sessions": []}
                    tx.set_meta(fact_meta_key(item.nugget, data["sourceKey"]), counters)
            else:
                record = rec(
                    ids[i],
                    "semantic",
                    item.sensitivity,
                    0.5,
                    scope=item.scope,
                    relations=[(mark(i, "P"), ids[t]) for t in item.links],
                    payload={
                        "kind": "semantic",
                        "subject": mark(i, "S"),
                        "predicate": "is",
                        "object": mark(i, "O"),
                        "validity": {"mode": "global"},
                    },
                    interpretation={
                        "mentions": [{"canonical_entity_id": ids[t]} for t in item.links]
                    },
                )
                tx.put_node(record_node(record, i + 1))
        for data in notes:  # again: the links to notes staged after it get their edges
            nuggets_model.stage_note(tx, data)
        for i, item in enumerate(items):
            if item.kind == "luker":
                if item.parent is not None:
                    tx.put_edge(Edge(ids[item.parent], ids[i], "contains"))
                for t in item.links:
                    if t != i:
                        tx.put_edge(Edge(ids[i], ids[t], "related"))
            elif item.kind == "record":
                record = {
                    "id": ids[i],
                    "relations": [
                        {"predicate": mark(i, "P"), "target_id": ids[t]} for t in item.links
                    ],
                }
                for edge in relation_edges(record, set(ids)):
                    tx.put_edge(edge)
        tx.set_meta(OVERRIDES, overrides)
        tx.set_meta(
            "injection",
            {
                "alwaysInjectIds": sorted(ids[::2]),
                "recallSelectedIds": sorted(ids[1::2]),
                "visibleIds": list(reversed(ids)),
            },
        )
        tx.set_meta("pins", {i: [1.0, 2.0] for i in ids})
    store.vectors().set_profile("hashed-ngrams-v1")
    store.vectors().embed_all()


def hidden_texts(items: list[Item], i: int) -> list[str]:
    """The markers only item ``i``'s payload holds."""
    parts = {"luker": "TF", "note": "TCW", "record": "PSO"}[items[i].kind]
    return [mark(i, p) for p in parts]


def read_calls(
    items: list[Item], trust: TrustContext, queries: list[str]
) -> Iterator[tuple[str, list[Any]]]:
    """Every read method of the boundary with reasonable arguments (no per-id ones)."""
    every = {"max_sensitivity": "hyper"}
    yield "listNodes", [{"activeOnly": False}]
    yield "listNodes", [{}]
    yield "listEdges", [{}]
    yield "getSchema", []
    yield "projectEdges", [{}]
    yield "listVisibleCandidates", [{}]
    yield "compactionCandidates", [{"type": "event"}]
    yield "getInjectionState", []
    yield "getCurrentlyInjectedNodeIds", []
    yield "listRecentNodes", [{"limit": 100}]
    for nugget in NUGGETS:
        yield "listNotes", [nugget, {"includeHidden": True}]
    yield "retrieveGraph", ["", trust.to_json(), None, 0, 50, 100, 300, 3]
    yield "retrieveGraph", ["", every, None, 0, 50, 100, 300, 3]
    for q in queries:
        yield from search_calls(q)
        yield "retrieveGraph", [q, trust.to_json(), None, 0, 50, 100, 300, 3]
        yield "vectorSearch", [{"query": q, "k": 100}]


def search_calls(q: str) -> Iterator[tuple[str, list[Any]]]:
    """The calls that find nodes by text: none may find a node by what it hides."""
    yield "keywordSearch", [{"query": q, "k": 100}]
    yield "findByName", [{"query": q}]
    yield "searchText", [q]
    yield "searchNodesLexical", [q, {"limit": 100}]
    for nugget in NUGGETS:
        yield "searchNotes", [nugget, q, 100, {"includeHidden": True}]


def id_calls(node: str) -> Iterator[tuple[str, list[Any]]]:
    """The read calls about one node."""
    every = {"max_sensitivity": "hyper"}
    yield "getNode", [node]
    yield "getNeighbors", [node, {}]
    yield "getAncestor", [node, {}]
    yield "getDescendants", [node, {}]
    yield "getNearestVisibleAncestor", [node, {}]
    yield "getNodeExposure", [node]
    yield "getEdgeSummary", [node, {}]
    yield "getNodeBrief", [node, {}]
    yield "expandFromSeeds", [[node], {"hops": 2}]
    yield "getNodeById", [node, {}]
    yield "retrieveByID", [node, every]
    for nugget in NUGGETS:
        yield "getNote", [nugget, node]


def found(store: MemoryStore, method: str, arguments: list[Any]) -> set[str]:
    """The ids a search call finds."""
    data = jsonapi.call(store, method, arguments)
    if method == "searchNotes":
        return {hit["note"]["id"] for hit in data}
    if method == "searchText":
        return set(data)
    rows = data["matches"] if method == "findByName" else data
    rows = rows["nodes"] if method == "searchNodesLexical" else rows
    return {row["id"] for row in rows}


def answer(store: MemoryStore, method: str, arguments: list[Any]) -> str:
    """The call's answer (or its error) as JSON text."""
    try:
        return jsonapi.dumps(jsonapi.call(store, method, arguments))
    except MemgraphError as exc:
        return jsonapi.dumps({"error": exc.code, "message": str(exc)})


def check_seen(items: list[Item], trust: TrustContext) -> None:  # noqa: PLR0912
    """Build ``items``, look at them through ``trust``, and check every read answer."""
    ids = [node_id(items, i) for i in range(len(items))]
    with MemoryStore.open(":memory:") as source:
        build(source, items)
        with source.reading() as graph:
            tier = tiers(graph, trust)
        with seen_memory(source, trust) as seen:
            omitted = [i for i, n in enumerate(ids) if tier[n] == "omitted"]
            hidden = [i for i, n in enumerate(ids) if tier[n] != "full"]
            secrets = [t for i in hidden for t in hidden_texts(items, i)]
            gone = [ids[i] for i in omitted]
            queries = [" ".join(hidden_texts(items, i)[:2]) for i in hidden]
            queries += [mark(i, "T") for i in hidden] + ["words", "content"]
            for method, arguments in read_calls(items, trust, queries):
                text = answer(seen, method, arguments)
                for secret in secrets:
                    assert secret not in text, (method, arguments, secret)
                for g in gone:
                    assert g not in text, (method, arguments, g)
            for i in hidden:
                for q in hidden_texts(items, i):
                    for method, arguments in search_calls(q):
                        assert ids[i] not in found(seen, method, arguments), (method, arguments)
            for n in ids:
                for method, arguments in id_calls(n):
                    text = answer(seen, method, arguments)
                    for secret in secrets:
                        assert secret not in text, (method, arguments, secret)
                    if n in gone:
                        ghost = answer(seen, method, [GHOST if a == n else a for a in arguments])
                        ghost = ghost.replace(GHOST, n) if arguments[0] == n else ghost
                        if arguments[0] == [n]:
                            ghost = answer(seen, method, [[GHOST], *arguments[1:]])
                            ghost = ghost.replace(GHOST, n)
                        assert text == ghost, (method, arguments)
                    else:
                        for g in gone:
                            assert g not in text, (method, arguments, g)


# -- examples -----------------------------------------------------------------------------------
MEDIUM = TrustContext("medium", True, "agent")


def example() -> list[Item]:
    """L0 full (its parent L1 omitted), L1 omitted, L2 redacted, L3 full; notes N4 full (links
    to N5 omitted and N6 redacted), N5, N6, fact N7 full, fact N8 omitted; records R9 full
    (relations to R10 omitted, R11 redacted), R10, R11 (relation back to R9)."""
    return [
        Item("luker", "low", parent=1),
        Item("luker", "hyper", links=[0]),
        Item("luker", "high", parent=3, links=[3]),
        Item("luker", "public", links=[1, 2, 9]),
        Item("note", "low", links=[5, 6]),
        Item("note", "hyper", links=[4]),
        Item("note", "high", links=[4]),
        Item("note", "low", fact=True),
        Item("note", "hyper", fact=True),
        Item("record", "low", links=[10, 11, 0]),
        Item("record", "hyper", links=[9]),
        Item("record", "high", links=[9]),
    ]


@pytest.fixture
def views() -> Iterator[tuple[MemoryStore, MemoryStore]]:
    with MemoryStore.open(":memory:") as source:
        build(source, example())
        with seen_memory(source, MEDIUM) as seen:
            yield source, seen


def call(store: MemoryStore, method: str, *arguments: Any) -> Any:
    return jsonapi.call(store, method, list(arguments))


def test_nodes_by_tier(views: tuple[MemoryStore, MemoryStore]) -> None:
    source, seen = views
    listed = {n["id"] for n in call(seen, "listNodes", {"activeOnly": False})}
    assert listed == {"L0z", "L2z", "L3z", "N4z", "N6z", "N7z", "R9z", "R11z"}
    assert call(seen, "getNode", "L1z") is None and call(seen, "getNodeById", "N5z") is None
    assert call(seen, "getNode", "N7z") == call(source, "getNode", "N7z")  # full: as it is
    low = call(seen, "getNode", "L0z")
    assert low["parentId"] == "" and low["title"] == mark(0, "T")  # its omitted parent gone
    red = call(seen, "getNode", "L2z")
    assert red["title"] == "L2z · entity · redacted"
    assert list(red["fields"]) == list(REDACTED_KEYS)
    assert red["fields"]["sensitivity"] == "high" and red["parentId"] == "L3z"
    assert list(call(seen, "getNode", "R11z")["fields"]) == list(REDACTED_KEYS)


def test_edges_follow_the_lens_rules(views: tuple[MemoryStore, MemoryStore]) -> None:
    _, seen = views
    edges = {(e["from"], e["type"], e["to"]) for e in call(seen, "listEdges", {})}
    assert ("L3z", "related", "L2z") in edges  # into a redacted node: kept
    assert ("L3z", "contains", "L2z") in edges
    assert ("L2z", "related", "L3z") not in edges  # leaving a redacted node: stripped
    assert not any("L1z" in e or "N5z" in e or "R10z" in e for e in edges)  # omitted ends
    assert ("N4z", "note_link", "N6z") in edges and ("N6z", "note_link", "N4z") not in edges
    assert ("R9z", mark(9, "P"), "R11z") in edges and ("R11z", mark(11, "P"), "R9z") not in edges
    neighbors = call(seen, "getNeighbors", "L3z", {})
    assert "L1z" not in json.dumps(neighbors) and "L2z" in json.dumps(neighbors)
    by_id = call(seen, "getNodeById", "L2z", {})
    assert by_id["neighbors"] == [
        {"id": "L3z", "edgeType": "contains"},
        {"id": "L3z", "edgeType": "related"},
    ] or all(n["id"] == "L3z" for n in by_id["neighbors"])


def test_what_full_nodes_name_of_omitted_ones_goes(views: tuple[MemoryStore, MemoryStore]) -> None:
    _, seen = views
    assert call(seen, "getNode", "L3z")["fields"]["see"] == ["L2z", "R9z"]  # L1z taken out
    n4 = call(seen, "getNote", "alpha", "N4z")
    assert [link["to"] for link in n4["links"]] == ["N6z"]
    assert "link:N6z" in n4["vector"]["basis"] and "link:N5z" not in n4["vector"]["basis"]
    r9 = call(seen, "retrieveByID", "R9z", {"max_sensitivity": "hyper"})
    assert [r["target_id"] for r in r9["relations"]] == ["R11z", "L0z"]
    assert [m["canonical_entity_id"] for m in r9["interpretation"]["mentions"]] == ["R11z", "L0z"]


def test_injection_state_and_meta(views: tuple[MemoryStore, MemoryStore]) -> None:
    source, seen = views
    state = call(seen, "getInjectionState")
    kept = {"L0z", "L2z", "L3z", "N4z", "N6z", "N7z", "R9z", "R11z"}
    full = call(source, "getInjectionState")
    assert state == {k: [i for i in v if i in kept] for k, v in full.items()}
    injected = call(seen, "getCurrentlyInjectedNodeIds")
    assert set(injected["alwaysInjectIds"]) | set(injected["recallSelectedIds"]) == kept
    with seen.reading() as graph:
        meta = dict(graph.meta)
        assert set(meta["pins"]) == kept
        assert set(meta[OVERRIDES]) == {"L0z", "L2z", "L3z", "N4z", "N6z", "N7z"}
        assert meta[OVERRIDES]["N6z"]["sensitivity"] == "high"  # pinned: tiered as before
        assert tiers(graph, MEDIUM) == {k: v for k, v in _source_tiers(source).items() if k in kept}
    facts = [k for k in meta if k.startswith('["nuggetFact"')]
    assert facts == [fact_meta_key("alpha", mark(7, "T"))]
    assert seen.history.depth()[0] == 0


def _source_tiers(source: MemoryStore) -> dict[str, str]:
    with source.reading() as graph:
        return dict(tiers(graph, MEDIUM))


def test_notes_and_searches(views: tuple[MemoryStore, MemoryStore]) -> None:
    source, seen = views
    notes = call(seen, "listNotes", "alpha", {"includeHidden": True})
    assert [n["id"] for n in notes] == ["N4z", "N7z"]  # a redacted note is in no nugget
    assert call(seen, "getNote", "alpha", "N6z") is None
    assert "N6z" not in found(seen, "searchNotes", ["alpha", mark(6, "C"), 10])
    hits = call(seen, "searchNotes", "alpha", mark(4, "C"), 10)
    assert hits[0]["note"]["id"] == "N4z" and hits[0]["textScore"] > 0
    assert found(seen, "keywordSearch", [{"query": mark(3, "F")}]) == {"L3z"}
    assert found(seen, "keywordSearch", [{"query": mark(2, "F")}]) == set()
    assert found(seen, "findByName", [{"query": mark(2, "T")}]) == set()
    assert found(seen, "searchNodesLexical", [mark(2, "F"), {}]) == set()
    assert "L2z" in found(source, "searchNodesLexical", [mark(2, "F"), {}])
    assert [n["id"] for n in call(seen, "searchNodesLexical", "L2z · entity", {})["nodes"]] == [
        "L2z"
    ]  # a redacted node by what it shows
    graph = call(seen, "retrieveGraph", mark(9, "S"), MEDIUM.to_json())
    ids = {n["record"]["id"] for n in graph["nodes"]}
    assert "R10z" not in ids and "L1z" not in ids
    red = next(n["record"] for n in graph["nodes"] if n["record"]["id"] == "R11z")
    assert list(red) == list(REDACTED_KEYS)


def test_vectors_of_full_nodes_only(views: tuple[MemoryStore, MemoryStore]) -> None:
    source, seen = views
    key = source.vectors().profile()
    assert key is not None and seen.vectors().profile() == key
    copied = seen.storage.read_aside(lambda c: vector_rows.read_digests(c, key.key))
    assert set(copied) == {"L0z", "L3z", "N4z", "N7z", "R9z"}
    query = {"query": f"{mark(2, 'T')} {mark(2, 'F')}", "k": 1}
    assert [n["id"] for n in call(source, "vectorSearch", query)] == ["L2z"]  # (can fail)
    assert [n["id"] for n in call(seen, "vectorSearch", query)] != ["L2z"]
    shown = {"query": "L2z entity redacted", "k": 1}
    assert [n["id"] for n in call(seen, "vectorSearch", shown)] == ["L2z"]


def test_the_seen_store_is_private_and_apart(views: tuple[MemoryStore, MemoryStore]) -> None:
    source, seen = views
    assert seen.path == ":memory:"
    with source.reading() as graph:
        before = len(graph.nodes)
    with seen.storage.transaction(OpKind.BATCH, "x") as tx:
        tx.remove_node("L0z")
    with source.reading() as graph:
        assert len(graph.nodes) == before and "L0z" in graph.nodes


def test_constants_match_nuggets() -> None:
    assert seen_module.NOTE_SEQ == nuggets_model.NOTE_SEQ
    assert seen_module.FACT_META == nuggets_api.FACT_META


def test_example_has_no_leaks() -> None:
    check_seen(example(), MEDIUM)
    check_seen(example(), TrustContext("low", scopes=("beta",)))


# -- property --------------------------------------------------------------------------------------
@st.composite
def memories(draw: st.DrawFn) -> tuple[list[Item], TrustContext]:
    count = draw(st.integers(1, 9))
    items = []
    for i in range(count):
        kind = draw(st.sampled_from(["luker", "note", "record"]))
        earlier_luker = [j for j in range(i) if items[j].kind == "luker"]
        same = [j for j in range(count) if j != i]
        items.append(
            Item(
                kind,
                draw(st.sampled_from(SENSITIVITIES)),
                draw(st.sampled_from(["", "alpha", "beta"])),
                nugget=draw(st.sampled_from(NUGGETS)),
                fact=draw(st.booleans()),
                parent=draw(st.sampled_from([None, *earlier_luker])) if kind == "luker" else None,
                links=draw(st.lists(st.sampled_from(same), max_size=3, unique=True))
                if same
                else [],
                archived=draw(st.booleans()) and kind != "record",
            )
        )
    for item in items:  # a note links only to notes
        if item.kind == "note":
            item.links = [t for t in item.links if items[t].kind == "note"]
    trust = TrustContext(
        draw(st.sampled_from(SENSITIVITIES)),
        scopes=tuple(draw(st.lists(st.sampled_from(["alpha", "beta"]), unique=True))),
    )
    return items, trust


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(memories())
def test_no_read_method_shows_what_the_trust_hides(memory: tuple[list[Item], TrustContext]) -> None:
    items, trust = memory
    check_seen(items, trust)

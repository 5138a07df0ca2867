"""Property: a messy Luker document is either refused with ``ImportFormatError`` or normalised into a
store whose invariants hold (parent and children agree, no parent cycles, no dangling or self edges);
and importing that store, then exporting it, parses back to the same store.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.luker.file_format import COUNTERS, ParsedStore, parse_export
from memgraph_gui.core.luker.interop import export_luker, import_luker
from tests.core.graph_builders import assert_hierarchy

IDS = [f"n_{i}" for i in range(1, 8)]
REFS = st.sampled_from([*IDS, "n_404", "", " n_3 ", "char_x"])
RELATIONS = st.sampled_from(["knows", " knows ", "contains", "semantic_contains", None])


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    """Random nodes (some episodic), random parent links (cycles included), children and edges."""
    order = draw(st.permutations([*IDS, "char_x"]))[: draw(st.integers(0, 8))]
    nodes: dict[str, Any] = {}
    for index, node_id in enumerate(order):
        # a third of the links point back only (a forest), the rest anywhere (cycles, dangling ids)
        anywhere = draw(st.integers(0, 2)) > 0
        parents = [*order, "n_404", " n_3 "] if anywhere else order[:index]
        node: dict[str, Any] = {
            "type": draw(st.sampled_from(["event", "character_sheet", None])),
            "title": draw(st.sampled_from(["Eileen", "艾琳", "", None])),
            "parentId": draw(st.sampled_from(["", *parents])),
            "childrenIds": draw(st.lists(REFS, max_size=4)),
            "seqTo": draw(st.integers(0, 9)),
        }
        if draw(st.integers(0, 6)) == 0:
            node["level"] = "episodic"
        nodes[node_id] = node
    edge = st.fixed_dictionaries({"from": REFS, "to": REFS, "type": RELATIONS})
    return {"nodes": nodes, "edges": draw(st.lists(edge, max_size=10)), "nodeSeq": 1}


def has_parent_cycle(doc: dict[str, Any]) -> bool:
    """The oracle: do the parent links of the kept (semantic) nodes, once cleaned, loop?"""
    kept = {k: n for k, n in doc["nodes"].items() if n.get("level") is None}
    parents = {k: (n["parentId"] or "").strip() for k, n in kept.items()}
    parents = {k: p if p in kept and p != k else "" for k, p in parents.items()}
    for start in parents:
        seen, current = set(), start
        while current and current not in seen:
            seen.add(current)
            current = parents[current]
        if current:
            return True
    return False


def check_invariants(parsed: ParsedStore) -> None:
    """Parent and children agree both ways, no parent cycles, edges join two distinct nodes."""
    nodes = {n.id: n for n in parsed.nodes}
    assert len(nodes) == len(parsed.nodes)
    assert_hierarchy(nodes, [(e.from_id, e.type, e.to_id) for e in parsed.edges])


def as_json(parsed: ParsedStore) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return [n.to_store_json() for n in parsed.nodes], [e.to_store_json() for e in parsed.edges]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_messy_documents_are_refused_or_normalised_and_round_trip(doc: dict[str, Any]) -> None:
    try:
        parsed = parse_export(doc)
    except ImportFormatError as exc:
        event("refused: parent cycle")
        assert "cycle" in exc.message and exc.path.endswith(".parentId")
        assert has_parent_cycle(doc)
        return
    event("accepted")
    assert not has_parent_cycle(doc)
    check_invariants(parsed)
    with MemoryStore.open(":memory:") as store:
        import_luker(store.storage, doc, replace=True)
        again = parse_export(export_luker(store.storage))
    assert as_json(again) == as_json(parsed)
    assert {k: again.meta[k] for k in COUNTERS} == {k: parsed.meta[k] for k in COUNTERS}
    assert again.warnings == []

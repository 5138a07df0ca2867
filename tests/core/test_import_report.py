"""The import report: every repair named with its nodes, nothing dropped that it does not name, a
node whose key differs from its ``id`` keeps its links, and the report is kept with the store and
shown by the CLI in full."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from memgraph_gui.cli import main
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.graph.topology import normalize_text
from memgraph_gui.core.luker.file_format import parse_export
from memgraph_gui.core.luker.import_report import ImportReport
from memgraph_gui.core.luker.interop import (
    check_import,
    import_luker,
    kept_report,
    prepare_import,
)


def renamed_key_document(links: int = 900, renamed_links: int = 75) -> dict[str, Any]:
    """Nodes ``n_1``..``n_100`` linked in a ring-ish pattern, where ``n_42``'s key was edited to
    ``n_42_renamed`` while its ``id`` (and ``renamed_links`` links) still say ``n_42``."""
    nodes = {
        f"n_{i}": {"id": f"n_{i}", "type": "event", "title": f"Event {i}", "seqTo": i}
        for i in range(1, 101)
    }
    nodes["n_42_renamed"] = {**nodes.pop("n_42"), "title": "Kain's oath"}
    edges = [
        {"from": "n_42", "to": f"n_{(i % 99) + 1 if (i % 99) + 1 != 42 else 100}", "type": f"r{i}"}
        for i in range(renamed_links)
    ]
    i = 0
    while len(edges) < links:
        a, b = i % 100 + 1, (i * 7 + 3) % 100 + 1
        if 42 not in (a, b) and a != b:
            edges.append({"from": f"n_{a}", "to": f"n_{b}", "type": f"k{i}"})
        i += 1
    return {"nodes": nodes, "edges": edges, "nodeSeq": 100}


# -- key differs from id -----------------------------------------------------------------------------
def test_a_node_whose_key_differs_from_its_id_keeps_every_link(store: MemoryStore) -> None:
    doc = renamed_key_document()
    import_luker(store.storage, doc)
    graph = store.graph
    assert "n_42_renamed" in graph.nodes and "n_42" not in graph.nodes  # the key wins (Luker)
    assert len(graph.edges) == 900  # none of the 75 links naming the id is lost
    assert len(graph.edges_of("n_42_renamed")) == 75
    report = kept_report(store.storage)
    assert report is not None and report.dropped_links == ()
    assert [i.node.id for i in report.key_mismatches] == ["n_42_renamed"]
    assert "n_42" in report.key_mismatches[0].text()
    assert len(report.moved_links) == 75
    moved = report.moved_links[0]
    assert moved.source.id == "n_42" and moved.moved_to is not None
    assert moved.moved_to[0].id == "n_42_renamed" and moved.moved_to[0].title == "Kain's oath"
    assert "“Kain's oath” (n_42_renamed)" in moved.text()


def test_parent_links_naming_the_id_follow_the_key() -> None:
    doc = {
        "nodes": {
            "r_new": {"id": "r_old", "title": "Rollup", "childrenIds": ["c1"]},
            "c1": {"id": "c1", "title": "Child", "parentId": "r_old"},
        },
        "edges": [{"from": "r_old", "to": "c1", "type": "contains"}],
    }
    parsed = parse_export(doc)
    nodes = {n.id: n for n in parsed.nodes}
    assert nodes["c1"].parent_id == "r_new" and nodes["r_new"].children_ids == ("c1",)
    assert [(e.from_id, e.to_id) for e in parsed.edges] == [("r_new", "c1")]
    texts = [i.text() for i in parsed.report.parent_repairs]
    assert any("r_old" in t and "Rollup" in t for t in texts), texts


def test_an_id_that_is_another_nodes_key_keeps_its_links_there() -> None:
    doc = {
        "nodes": {
            "a": {"id": "b", "title": "A"},
            "b": {"id": "b", "title": "B"},
            "c": {"id": "c", "title": "C"},
        },
        "edges": [{"from": "b", "to": "c"}],
    }
    parsed = parse_export(doc)
    assert [(e.from_id, e.to_id) for e in parsed.edges] == [("b", "c")]  # as Luker reads it
    (mismatch,) = parsed.report.key_mismatches
    assert mismatch.node.id == "a" and "another node's key" in mismatch.what


def test_an_id_claimed_by_two_nodes_moves_nothing_and_names_the_dropped_links() -> None:
    doc = {
        "nodes": {
            "a": {"id": "x", "title": "A"},
            "b": {"id": "x", "title": "B"},
            "c": {"title": "C"},
        },
        "edges": [{"from": "x", "to": "c", "type": "knows"}],
    }
    parsed = parse_export(doc)
    assert parsed.edges == []
    assert len(parsed.report.key_mismatches) == 2
    (dropped,) = parsed.report.dropped_links
    assert dropped.index == 0 and dropped.source.id == "x" and dropped.target.title == "C"


# -- what else the report names -------------------------------------------------------------------
def test_unknown_types_and_counts_are_in_the_plan(demo_store: MemoryStore) -> None:
    doc = {
        "nodes": {
            "n_1": {"type": "event", "title": "A"},
            "n_2": {"type": "rule_constraint", "title": "No magic at night"},
            "n_3": {"type": "rule_constraint", "title": "Oaths bind"},
        },
        "edges": [{"from": "n_1", "to": "n_2"}],
    }
    graph = demo_store.graph
    nodes, links, before = len(graph.nodes), len(graph.edges), demo_store.dump()
    report = check_import(demo_store.storage, prepare_import(doc)).report
    plan = report.plan
    assert plan is not None and plan.replace
    assert (plan.current_nodes, plan.current_links) == (nodes, links)
    assert plan.unknown_types == ("rule_constraint",)
    assert plan.types == (("rule_constraint", 2), ("event", 1))
    text = "\n".join(report.text_lines())
    assert f"Replaces this memory's {nodes:,} nodes and {links:,} links with 3 nodes" in text
    assert "rule_constraint: 2 nodes  (new: not in the schema)" in text
    assert demo_store.dump() == before  # checking writes nothing


def test_dangling_links_and_bad_parents_are_named_with_both_ends() -> None:
    doc = {
        "nodes": {
            "p": {"title": "Parent", "childrenIds": ["c", "ghost", "p"]},
            "c": {"title": "Child", "parentId": "p"},
            "o": {"title": "Orphan", "parentId": "missing"},
            "e": {"title": "Old", "level": "episodic"},
        },
        "edges": [
            {"from": "c", "to": "nowhere", "type": "knows"},
            {"from": "c", "to": "e", "type": "saw"},
            {"from": "c", "to": "c"},
            {"from": "c", "to": "p", "type": "knows"},
            {"from": "c", "to": "p", "type": " knows "},
        ],
    }
    report = parse_export(doc).report
    dropped = {i.index: i for i in report.dropped_links}
    assert set(dropped) == {0, 1, 2, 4}
    assert dropped[0].text() == (
        "edges[0] “Child” (c) —knows→ nowhere (no such node): an end names no node"
    )
    assert dropped[1].target.title == "Old" and "not imported" in dropped[1].reason
    assert "self-edge" in dropped[2].reason and "repeat" in dropped[4].reason
    assert [i.node.id for i in report.dropped_nodes] == ["e"]
    repairs = [i.text() for i in report.parent_repairs]
    assert any(t.startswith("“Orphan” (o): parentId named missing") for t in repairs), repairs
    assert any("“Parent” (p): childrenIds listed ghost" in t for t in repairs), repairs
    assert any("“Parent” (p): childrenIds listed the node itself" in t for t in repairs)


def test_node_titles_are_kept_as_plain_text_in_the_report() -> None:
    doc = {"nodes": {"a": {"title": "<b>{0}</b>"}}, "edges": [{"from": "a", "to": "zz"}]}
    (issue,) = parse_export(doc).report.dropped_links
    assert issue.text().startswith("edges[0] “<b>{0}</b>” (a)")


def test_the_report_round_trips_through_json(demo_store: MemoryStore) -> None:
    report = check_import(demo_store.storage, prepare_import(renamed_key_document(120, 5))).report
    doc = json.loads(json.dumps(report.to_json()))
    assert ImportReport.from_json(doc) == report


def test_a_consistent_file_reports_no_repairs(store: MemoryStore) -> None:
    doc = {"nodes": {"n_1": {"id": "n_1", "type": "event", "title": "A"}}, "edges": []}
    report = check_import(store.storage, prepare_import(doc)).report
    assert report.repairs == 0 and report.detail_lines()[0] == "Node types (1):"
    assert "No repairs" in "\n".join(report.summary_lines())


# -- nothing dropped that the report does not name ----------------------------------------------------
KEYS = ["n_1", "n_2", "n_3", "n_4", "n_5", "c_x"]
INNER = ["a_1", "a_2", "n_2", 7, "", None]  # a node's own id: aliases, another key, a number
REFS = st.sampled_from([*KEYS, "a_1", "a_2", "7", "n_404", "", " n_3 "])


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    """Random nodes (some episodic, some with an ``id`` unlike their key), parents and children
    pointing anywhere (also at inner ids), edges between any of those."""
    order = draw(st.permutations(KEYS))[: draw(st.integers(0, len(KEYS)))]
    nodes: dict[str, Any] = {}
    for index, key in enumerate(order):
        node: dict[str, Any] = {
            "title": draw(st.sampled_from(["Eileen", "艾琳", "", None])),
            "type": draw(st.sampled_from(["event", "rule_constraint", None])),
            # earlier nodes only, or an inner id / a missing one: few cycles, many repairs
            "parentId": draw(st.sampled_from(["", *order[:index], "a_1", "n_404", " n_1 "])),
            "childrenIds": draw(st.lists(REFS, max_size=3)),
        }
        inner = draw(st.sampled_from([key, key, *INNER]))
        if inner is not None:
            node["id"] = inner
        if draw(st.integers(0, 5)) == 0:
            node["level"] = "episodic"
        nodes[key] = node
    edge = st.fixed_dictionaries(
        {"from": REFS, "to": REFS, "type": st.sampled_from(["knows", " knows ", "saw", None])}
    )
    return {"nodes": nodes, "edges": draw(st.lists(edge, max_size=12))}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_every_node_and_link_is_imported_or_named_in_the_report(doc: dict[str, Any]) -> None:
    try:
        parsed = parse_export(doc)
    except ImportFormatError:
        event("refused (a parent cycle)")
        return
    report = parsed.report
    imported = {n.id: n for n in parsed.nodes}
    dropped_nodes = [i.node.id for i in report.dropped_nodes]
    for key in doc["nodes"]:
        assert (key in imported) != (key in dropped_nodes), key
    assert set(imported) <= set(doc["nodes"])
    assert (report.file_nodes, report.nodes) == (len(doc["nodes"]), len(imported))

    # links: each one dropped (named), moved (named, with its new ends) or kept exactly
    dropped = {i.index for i in report.dropped_links}
    moved = {i.index: i for i in report.moved_links}
    assert not dropped & set(moved)
    expected = []
    for index, item in enumerate(doc["edges"]):
        if index in dropped:
            continue
        relation = normalize_text(item["type"] or "") or "related"
        if index in moved:
            ends = moved[index].moved_to
            assert ends is not None and moved[index].relation == relation
            expected.append((ends[0].id, relation, ends[1].id))
        else:
            expected.append((item["from"].strip(), relation, item["to"].strip()))
    assert sorted(expected) == sorted((e.from_id, e.type, e.to_id) for e in parsed.edges)
    assert report.links == len(parsed.edges) == len(doc["edges"]) - len(dropped)

    # parent links: as written, or the node is named among the repairs
    repaired = {i.node.id for i in report.parent_repairs}
    for key, node in imported.items():
        raw = doc["nodes"][key]
        written_children = tuple(c.strip() for c in raw["childrenIds"] if c.strip())
        if node.parent_id != raw["parentId"].strip():
            assert key in repaired, (key, raw["parentId"], node.parent_id)
        if node.children_ids != written_children:
            assert key in repaired, (key, written_children, node.children_ids)

    # and every key unlike its node's id is named
    mismatched = {
        key
        for key, raw in doc["nodes"].items()
        if key in imported and raw.get("id") not in (None, "", key)
    }
    assert {i.node.id for i in report.key_mismatches} == mismatched
    event(f"{len(moved)} moved, {len(dropped)} dropped")


# -- kept with the store, shown by the CLI ------------------------------------------------------------
def write(path: Path, doc: Any) -> Path:
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdout=out)
    return code, out.getvalue()


def test_the_cli_prints_the_whole_report_as_text_for_a_person(tmp_path: Path) -> None:
    source = write(tmp_path / "graph.json", renamed_key_document(200, 30))
    db = tmp_path / "m.memgraph"
    code, text = run("--db", str(db), "import-luker", str(source), "--text")
    assert code == 0, text
    lines = text.splitlines()
    assert lines[0] == f"Import of {source}"
    assert "Links moved to other ends (30):" in lines
    assert sum("now “Kain's oath” (n_42_renamed)" in line for line in lines) == 30
    assert lines[-1].startswith(f"Imported into {db}: it now holds 100 nodes and 200 links")


def test_the_cli_gives_the_report_as_json_and_keeps_it(tmp_path: Path) -> None:
    source = write(tmp_path / "graph.json", renamed_key_document(200, 30))
    db = tmp_path / "m.memgraph"
    code, text = run("--db", str(db), "import-luker", str(source))
    assert code == 0, text
    answer = json.loads(text)
    assert answer["edges"] == 200 and len(answer["report"]["movedLinks"]) == 30
    assert answer["report"]["keyMismatches"][0]["node"] == {
        "id": "n_42_renamed",
        "title": "Kain's oath",
    }
    code, text = run("--db", str(db), "import-report")
    assert code == 0 and json.loads(text)["report"] == answer["report"]
    code, text = run("--db", str(db), "import-report", "--text")
    assert code == 0 and "Node keys that differ from the node's id (1):" in text


def test_cli_check_shows_the_report_and_writes_nothing(tmp_path: Path, demo_store) -> None:
    source = write(tmp_path / "graph.json", renamed_key_document(200, 30))
    fresh = tmp_path / "fresh.memgraph"
    code, text = run("--db", str(fresh), "import-luker", str(source), "--check", "--text")
    assert code == 0 and "Adds 100 nodes and 200 links." in text
    assert "nothing was written" in text and not fresh.exists()
    before = demo_store.dump()
    code, text = run("--db", demo_store.path, "import-luker", str(source), "--check")
    assert code == 0 and json.loads(text)["report"]["plan"]["replace"] is True
    assert demo_store.dump() == before


def test_a_store_made_without_an_import_has_no_report(tmp_path: Path) -> None:
    db = tmp_path / "m.memgraph"
    MemoryStore.open(db).close()
    code, text = run("--db", str(db), "import-report")
    assert code == 1 and json.loads(text)["error"]["code"] == "NO_IMPORT_REPORT"


@pytest.mark.parametrize("replace", [False, True])
def test_the_report_is_kept_with_the_imported_rows(demo_store, store, replace: bool) -> None:
    target = demo_store if replace else store
    import_luker(target.storage, renamed_key_document(120, 5), replace=replace, backup=False)
    report = kept_report(target.storage)
    assert report is not None and report.plan is not None
    assert report.plan.replace is replace and len(report.moved_links) == 5

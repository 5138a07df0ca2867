"""``memgraph demo --membrane``: a deterministic memory shaped like a real agent's (every memory
type, all five sensitivities, several scopes and unscoped records, relations that resolve),
written through the importer as one undo step."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.demo.membrane import NAMED, SCOPES, generate_membrane, load_membrane_demo
from memgraph_gui.core.membrane.model import MEMORY_TYPES, RECORD_LEVEL, SENSITIVITIES
from memgraph_gui.core.membrane.records_file import check_document, records_document
from tests.core.boundary_helpers import run


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return generate_membrane(3000, 7)


def test_the_same_seed_gives_the_same_records_and_another_seed_others() -> None:
    one = json.dumps(generate_membrane(400, 3))
    assert json.dumps(generate_membrane(400, 3)) == one
    assert json.dumps(generate_membrane(400, 4)) != one
    assert len(generate_membrane(10, 1)) == 10
    assert len(generate_membrane(400, 3)) == 400


def test_every_type_sensitivity_and_scope_is_there_in_realistic_shares(records) -> None:
    types = Counter(r["type"] for r in records)
    assert set(types) == set(MEMORY_TYPES)
    share = {t: n / len(records) for t, n in types.items()}
    assert 0.25 < share["episodic"] < 0.42 and 0.22 < share["semantic"] < 0.38
    assert 0.05 < share["competence"] < 0.12 and 0.03 < share["plan_graph"] < 0.09
    assert 0.08 < share["working"] < 0.16 and 0.07 < share["entity"] < 0.16
    levels = Counter(r["sensitivity"] for r in records)
    assert set(levels) == set(SENSITIVITIES)
    assert all(levels[level] / len(records) > 0.03 for level in SENSITIVITIES)
    scopes = Counter(r.get("scope", "") for r in records)
    assert set(scopes) == {"", *SCOPES}
    assert scopes[""] / len(records) > 0.1  # unscoped records
    saliences = [r["salience"] for r in records]
    confidences = [r["confidence"] for r in records]
    assert min(saliences) < 0.15 and max(saliences) > 0.85
    assert min(confidences) < 0.55 and max(confidences) > 0.95
    assert all(0 <= c <= 1 for c in confidences) and all(s >= 0 for s in saliences)
    assert all(r["created_at"] <= r["updated_at"] for r in records)
    assert all(r["payload"]["kind"] == r["type"] for r in records)  # Membrane's Validate


def test_the_records_look_like_an_agents_memory(records) -> None:
    entities = [r for r in records if r["type"] == "entity"]
    names = {r["payload"]["canonical_name"] for r in entities}
    assert {spec[0] for spec in NAMED} <= names
    assert all(r["payload"]["aliases"] for r in entities)
    primary = Counter(r["payload"]["primary_type"] for r in entities)
    assert {"Person", "Project", "Tool", "File", "Issue"} <= set(primary)
    facts = [r for r in records if r["type"] == "semantic"]
    assert all(f["payload"]["subject"] in names and f["payload"]["object"] in names for f in facts)
    skills = [r for r in records if r["type"] == "competence"]
    assert sum("success_count" in r["payload"]["performance"] for r in skills) > len(skills) / 2
    plans = [r for r in records if r["type"] == "plan_graph"]
    assert all(len(p["payload"]["edges"]) == len(p["payload"]["nodes"]) - 1 for p in plans)
    assert sum("metrics" in p["payload"] for p in plans) > len(plans) / 2
    episodes = [r for r in records if r["type"] == "episodic"]
    assert all(e["payload"]["timeline"] and e["interpretation"]["mentions"] for e in episodes)
    working = [r for r in records if r["type"] == "working"]
    assert {w["payload"]["state"] for w in working} == {
        "planning",
        "executing",
        "blocked",
        "waiting",
        "done",
    }
    # a few entities get most mentions, as in a real memory
    mentioned = Counter(
        rel["target_id"]
        for r in records
        for rel in r.get("relations", ())
        if rel["predicate"] == "mentions_entity"
    )
    top = sum(n for _id, n in mentioned.most_common(5))
    assert top / sum(mentioned.values()) > 0.3


def test_every_relation_resolves_to_an_earlier_record(records) -> None:
    place = {r["id"]: i for i, r in enumerate(records)}
    assert len(place) == len(records)
    predicates = Counter()
    for index, r in enumerate(records):
        for rel in r.get("relations", ()):
            assert place[rel["target_id"]] < index
            predicates[rel["predicate"]] += 1
    assert {
        "mentions_entity",
        "subject_entity",
        "object_entity",
        "supports",
        "depends_on",
        "derived_from",
        "lives_in",
        "affects",
        "follows",
        "supersedes",
    } <= set(predicates)
    check_document(records)  # the importer takes it as it is


def test_the_demo_is_written_beside_luker_nodes_as_one_undo_step() -> None:
    with MemoryStore.open(":memory:") as store:
        store.write_api().create_node(type="character_sheet", title="Ann")
        before = store.dump()
        changes = load_membrane_demo(store.storage, 500, 2)
        assert changes is not None and changes.label == "Membrane demo (500 records)"
        expected = generate_membrane(500, 2)
        with store.reading() as graph:
            records = [n for n in graph.nodes.values() if n.level == RECORD_LEVEL]
            assert len(records) == 500 and "n_1" in graph.nodes
            distinct = {
                (r["id"], rel["predicate"], rel["target_id"])
                for r in expected
                for rel in r.get("relations", ())
            }
            assert set(graph.edges) == distinct
            assert records_document(graph) == expected
        steps = store.history.steps()
        assert len(steps) == 2 and steps[0].label == "Membrane demo (500 records)"
        store.history.undo()
        assert store.dump() == before


def test_the_cli_writes_the_demo(tmp_path: Path) -> None:
    db = tmp_path / "demo.memgraph"
    code, lines = run(db, "demo", "--membrane", "--nodes", "300")
    assert code == 0
    assert lines[0]["nodes"] == 300 and lines[0]["undo"] == 1
    assert lines[0]["edges"] == len(
        {
            (r["id"], rel["predicate"], rel["target_id"])
            for r in generate_membrane(300, 1)
            for rel in r.get("relations", ())
        }
    )
    code, lines = run(db, "demo", "--membrane", "--nodes", "300")  # the same ids again
    assert code == 1 and lines[0]["error"]["code"] == "BAD_IMPORT"
    code, lines = run(db, "demo", "--membrane", "--nuggets")
    assert code == 1 and lines[0]["error"]["code"] == "BAD_ARGS"

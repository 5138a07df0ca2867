"""``set_attributes`` / ``reset_attributes``: the one write path of Membrane attributes. A record's
attributes go into its record JSON (with ``updated_at`` and an audit entry), a Luker node's or a
Nuggets note's into the meta overrides; each call is one step that undoes and redoes, refusals
write nothing, a stale ``expect`` is ``EDIT_CONFLICT``, and another process's write reaches an
open store."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.membrane.attributes import OVERRIDES
from memgraph_gui.core.membrane.index import attributes
from memgraph_gui.core.membrane.model import record_json, record_node
from memgraph_gui.core.membrane.write import (
    MembraneWrites,
    reset_attributes,
    set_attributes,
)
from tests.core.processes import run_python

STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$")
ORIGIN = "tester"
RECORD: dict[str, Any] = {
    "id": "rec-1",
    "type": "semantic",
    "sensitivity": "low",
    "confidence": 0.9,
    "salience": 0.4,
    "scope": "team",
    "tags": ["tea"],
    "created_at": "2025-01-02T03:04:05Z",
    "updated_at": "2025-01-02T03:04:05Z",
    "lifecycle": {"decay": {"curve": "exponential", "half_life_seconds": 86400}},
    "provenance": {"sources": [{"kind": "event", "ref": "ev-1"}]},
    "payload": {"kind": "semantic", "subject": "Eileen", "predicate": "likes", "object": "tea"},
    "audit_log": [
        {
            "action": "create",
            "actor": "agent",
            "timestamp": "2025-01-02T03:04:05Z",
            "rationale": "seen",
        }
    ],
}


def put_record(store: MemoryStore, record: dict[str, Any]) -> None:
    """Store ``record`` as a record node (what the importer does, in one transaction)."""
    from memgraph_gui.core.domain.changes import OpKind

    with store.storage.transaction(OpKind.BATCH, "Put a record", log_history=False) as tx:
        tx.put_node(record_node(record, 1))


class Desk(MembraneWrites):
    """What ``MembraneApi`` will be for these methods: a store and an origin."""

    def __init__(self, store: MemoryStore, origin: str | None = ORIGIN) -> None:
        self.storage = store.storage
        self.origin = origin


@pytest.fixture
def store() -> Iterator[MemoryStore]:
    with MemoryStore.open(":memory:") as opened:
        opened.write_api().create_node(type="character_sheet", title="Eileen")  # n_1
        opened.nuggets("astra").remember("user:tea", "green")
        put_record(opened, copy.deepcopy(RECORD))
        yield opened


def note_id(store: MemoryStore) -> str:
    return next(n.id for n in store.graph.nodes.values() if n.level == "nugget")


def attrs(store: MemoryStore, node_id: str) -> dict[str, Any]:
    with store.reading() as graph:
        a = attributes(graph, node_id)
    assert a is not None
    return {
        "sensitivity": a.sensitivity,
        "salience": a.salience,
        "memory_type": a.memory_type,
        "scope": a.scope,
        "tags": list(a.tags),
        "source": a.source,
    }


def labels(store: MemoryStore) -> list[str]:
    return [s.label for s in reversed(store.history_of(ORIGIN).steps())]


def state(store: MemoryStore) -> Any:
    batches = store.storage.execute_read("SELECT count(*) FROM batches")[0][0]
    return store.dump(), batches


# -- each attribute on each kind of node --------------------------------------------------------
CHANGES = [
    ({"sensitivity": "high"}, "sensitivity", "high", "Set sensitivity of {t} to high"),
    ({"salience": 0.8}, "salience", 0.8, "Set salience of {t} to 0.8"),
    ({"memory_type": "episodic"}, "memory_type", "episodic", "Set memory type of {t} to episodic"),
    ({"scope": "house"}, "scope", "house", "Set scope of {t} to 'house'"),
    ({"tags": ["kin", "tea"]}, "tags", ["kin", "tea"], "Set tags of {t} to kin, tea"),
]


@pytest.mark.parametrize(("changes", "name", "value", "label"), CHANGES)
def test_each_attribute_on_a_luker_node_is_an_override_and_one_undoable_step(
    store: MemoryStore, changes: dict[str, Any], name: str, value: Any, label: str
) -> None:
    before = attrs(store, "n_1")
    desk = Desk(store)
    result = desk.set_attributes("n_1", changes)
    assert result["changed"] is True and result["attributes"][name] == value
    assert result.changes is not None and result.changes.meta_keys == {OVERRIDES}
    assert store.graph.meta[OVERRIDES] == {"n_1": {name: value}}
    after = attrs(store, "n_1")
    assert after[name] == value and after["source"] == "set"
    assert {k: v for k, v in after.items() if k not in (name, "source")} == {
        k: v for k, v in before.items() if k not in (name, "source")
    }
    assert labels(store) == [label.format(t="'Eileen'")]
    store.history_of(ORIGIN).undo()
    assert attrs(store, "n_1") == before and OVERRIDES not in store.graph.meta
    store.history_of(ORIGIN).redo()
    assert attrs(store, "n_1") == after


@pytest.mark.parametrize(("changes", "name", "value", "label"), CHANGES)
def test_each_attribute_on_a_nuggets_note_is_an_override_and_one_undoable_step(
    store: MemoryStore, changes: dict[str, Any], name: str, value: Any, label: str
) -> None:
    note = note_id(store)
    before = attrs(store, note)
    assert before["sensitivity"] == "medium" and before["scope"] == "astra"  # the mapping
    note_fields = store.graph.nodes[note].fields_json()
    result = set_attributes(store.storage, note, changes, origin=ORIGIN)
    assert result["changed"] is True
    assert store.graph.meta[OVERRIDES] == {note: {name: value}}
    assert store.graph.nodes[note].fields_json() == note_fields  # the note itself is Nuggets'
    assert attrs(store, note)[name] == value
    assert labels(store) == [label.format(t="'user:tea'")]
    store.history_of(ORIGIN).undo()
    assert attrs(store, note) == before
    store.history_of(ORIGIN).redo()
    assert attrs(store, note)[name] == value


@pytest.mark.parametrize(("changes", "name", "value", "label"), CHANGES)
def test_each_attribute_on_a_record_goes_into_its_json_with_a_stamp_and_an_audit_entry(
    store: MemoryStore, changes: dict[str, Any], name: str, value: Any, label: str
) -> None:
    before_json = record_json(store.graph.nodes["rec-1"])
    result = set_attributes(store.storage, "rec-1", changes, origin=ORIGIN)
    assert result["changed"] is True and result["source"] == "record"
    assert result.changes is not None and result.changes.nodes_updated == {"rec-1"}
    assert OVERRIDES not in store.graph.meta
    record = record_json(store.graph.nodes["rec-1"])
    key = "type" if name == "memory_type" else name
    assert record[key] == value
    if name == "memory_type":
        assert store.graph.nodes["rec-1"].type == "episodic"
    assert STAMP.match(record["updated_at"]) and record["updated_at"] > "2026"
    entry = record["audit_log"][-1]
    assert record["audit_log"][:-1] == RECORD["audit_log"]
    assert entry["action"] == "revise" and entry["actor"] == ORIGIN
    assert entry["timestamp"] == record["updated_at"]
    assert entry["rationale"].startswith("Set in memgraph: ")
    untouched = {k for k in RECORD if k not in (key, "updated_at", "audit_log")}
    assert {k: record[k] for k in untouched} == {k: before_json[k] for k in untouched}
    assert list(record) == list(before_json)  # the record's key order is kept
    assert labels(store) == [label.format(t="'Eileen likes tea'")]
    store.history_of(ORIGIN).undo()
    assert record_json(store.graph.nodes["rec-1"]) == before_json
    assert store.graph.nodes["rec-1"].type == "semantic"
    store.history_of(ORIGIN).redo()
    assert record_json(store.graph.nodes["rec-1"]) == record


def test_an_empty_scope_or_tag_list_drops_the_records_key_and_the_actor_defaults(
    store: MemoryStore,
) -> None:
    set_attributes(store.storage, "rec-1", {"scope": "", "tags": []})
    record = record_json(store.graph.nodes["rec-1"])
    assert "scope" not in record and "tags" not in record  # Membrane's omitempty
    assert record["audit_log"][-1]["actor"] == "memgraph"
    assert attrs(store, "rec-1")["scope"] == "" and attrs(store, "rec-1")["tags"] == []


def test_several_attributes_at_once_are_one_step(store: MemoryStore) -> None:
    desk = Desk(store)
    desk.set_attributes("n_1", {"sensitivity": "hyper", "tags": ["x"], "salience": 1})
    assert store.graph.meta[OVERRIDES] == {
        "n_1": {"sensitivity": "hyper", "salience": 1.0, "tags": ["x"]}
    }
    assert labels(store) == ["Set sensitivity, salience and tags of 'Eileen'"]


def test_a_value_equal_to_the_default_removes_its_key_and_an_empty_entry_goes(
    store: MemoryStore,
) -> None:
    desk = Desk(store)
    desk.set_attributes("n_1", {"sensitivity": "high", "scope": "house"})
    desk.set_attributes("n_1", {"sensitivity": "low"})  # the default mapping's
    assert store.graph.meta[OVERRIDES] == {"n_1": {"scope": "house"}}
    desk.set_attributes("n_1", {"scope": ""})
    assert OVERRIDES not in store.graph.meta
    assert attrs(store, "n_1")["source"] == "default"
    assert len(labels(store)) == 3


def test_a_call_that_changes_nothing_writes_nothing(store: MemoryStore) -> None:
    before = state(store)
    result = set_attributes(store.storage, "n_1", {"sensitivity": "low"}, origin=ORIGIN)
    assert result["changed"] is False and result.changes is None
    result = set_attributes(store.storage, "rec-1", {"salience": 0.4}, origin=ORIGIN)
    assert result["changed"] is False
    assert state(store) == before and labels(store) == []


def test_reset_removes_the_overrides_back_to_the_default_mapping(store: MemoryStore) -> None:
    desk = Desk(store)
    default = attrs(store, "n_1")
    desk.set_attributes("n_1", {"sensitivity": "high", "scope": "house", "salience": 0.9})
    desk.reset_attributes("n_1", ["scope"])
    assert store.graph.meta[OVERRIDES] == {"n_1": {"sensitivity": "high", "salience": 0.9}}
    result = desk.reset_attributes("n_1")
    assert result["changed"] is True and result["source"] == "default"
    assert attrs(store, "n_1") == default and OVERRIDES not in store.graph.meta
    assert labels(store)[-2:] == [
        "Reset scope of 'Eileen' to the default",
        "Reset the Membrane attributes of 'Eileen' to the default",
    ]
    assert desk.reset_attributes("n_1")["changed"] is False  # nothing set: nothing written
    store.history_of(ORIGIN).undo()
    assert store.graph.meta[OVERRIDES] == {"n_1": {"sensitivity": "high", "salience": 0.9}}


def test_other_nodes_overrides_are_kept(store: MemoryStore) -> None:
    note = note_id(store)
    desk = Desk(store)
    desk.set_attributes("n_1", {"sensitivity": "high"})
    desk.set_attributes(note, {"sensitivity": "public"})
    desk.reset_attributes("n_1")
    assert store.graph.meta[OVERRIDES] == {note: {"sensitivity": "public"}}


# -- refusals -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("node_id", "changes", "code", "where"),
    [
        ("n_1", {"sensitivity": "secret"}, "INVALID_ARGUMENT", "changes.sensitivity"),
        ("n_1", {"memory_type": "dream"}, "INVALID_ARGUMENT", "changes.memory_type"),
        ("n_1", {"salience": 1.5}, "INVALID_ARGUMENT", "changes.salience"),
        ("n_1", {"salience": -0.1}, "INVALID_ARGUMENT", "changes.salience"),
        ("n_1", {"salience": float("nan")}, "INVALID_ARGUMENT", "changes.salience"),
        ("n_1", {"salience": True}, "INVALID_ARGUMENT", "changes.salience"),
        ("n_1", {"salience": "0.5"}, "INVALID_ARGUMENT", "changes.salience"),
        ("n_1", {"scope": 3}, "INVALID_ARGUMENT", "changes.scope"),
        ("n_1", {"scope": "\ud800"}, "INVALID_ARGUMENT", "changes.scope"),
        ("n_1", {"tags": "tea"}, "INVALID_ARGUMENT", "changes.tags"),
        ("n_1", {"tags": ["a", 2]}, "INVALID_ARGUMENT", "changes.tags[1]"),
        ("n_1", {"colour": "red"}, "INVALID_ARGUMENT", "changes.colour"),
        ("n_1", {}, "INVALID_ARGUMENT", "changes"),
        ("n_1", ["sensitivity"], "INVALID_ARGUMENT", "changes"),
        ("", {"sensitivity": "low"}, "INVALID_ARGUMENT", "node_id"),
        ("n_404", {"sensitivity": "high"}, "NODE_NOT_FOUND", "n_404"),
        ("rec-404", {"sensitivity": "high"}, "NODE_NOT_FOUND", "rec-404"),
    ],
)
def test_refusals_name_the_place_and_write_nothing(
    store: MemoryStore, node_id: str, changes: Any, code: str, where: str
) -> None:
    before = state(store)
    with pytest.raises(MemgraphError) as caught:
        set_attributes(store.storage, node_id, changes, origin=ORIGIN)
    assert caught.value.code == code
    assert caught.value.message.startswith(where)
    assert state(store) == before and labels(store) == []


def test_a_record_has_no_default_to_reset_to_and_bad_names_are_refused(
    store: MemoryStore,
) -> None:
    before = state(store)
    for call in (
        lambda: reset_attributes(store.storage, "rec-1"),
        lambda: reset_attributes(store.storage, "n_1", ["colour"]),
        lambda: reset_attributes(store.storage, "n_1", []),
        lambda: set_attributes(store.storage, "n_1", {"scope": "x"}, expect={"colour": 1}),
    ):
        with pytest.raises(MemgraphError) as caught:
            call()
        assert caught.value.code == "INVALID_ARGUMENT"
    assert state(store) == before


# -- edit conflicts -------------------------------------------------------------------------------
def test_a_stale_expectation_is_an_edit_conflict_and_nothing_is_written(
    store: MemoryStore,
) -> None:
    desk, other = Desk(store), Desk(store, origin="other")
    other.set_attributes("n_1", {"sensitivity": "medium"})
    before = state(store)
    with pytest.raises(MemgraphError) as caught:
        desk.set_attributes("n_1", {"sensitivity": "high"}, expect={"sensitivity": "low"})
    error = caught.value
    assert error.code == "EDIT_CONFLICT"
    assert error.details == {
        "nodeId": "n_1",
        "expected": {"fields": {"sensitivity": "low"}},
        "current": {"fields": {"sensitivity": "medium"}},
        "proposed": {"fields": {"sensitivity": "high"}},
    }
    assert "you started from low, now medium" in error.message
    assert state(store) == before
    # based on what is stored now, the same edit goes through
    desk.set_attributes("n_1", {"sensitivity": "high"}, expect={"sensitivity": "medium"})
    assert attrs(store, "n_1")["sensitivity"] == "high"


def test_agreement_is_no_conflict_and_other_attributes_moving_do_not_matter(
    store: MemoryStore,
) -> None:
    desk, other = Desk(store), Desk(store, origin="other")
    other.set_attributes("rec-1", {"salience": 0.7, "tags": ["a"]})
    # the other writer set the very value proposed: agreement
    result = desk.set_attributes("rec-1", {"salience": 0.7}, expect={"salience": 0.4})
    assert result["changed"] is False
    # tags moved on, but this edit is based on the scope only
    desk.set_attributes("rec-1", {"scope": "home"}, expect={"scope": "team"})
    with pytest.raises(MemgraphError) as caught:
        desk.set_attributes("rec-1", {"scope": "x"}, expect={"tags": ["tea"], "scope": "home"})
    assert caught.value.code == "EDIT_CONFLICT"
    assert caught.value.details["current"] == {"fields": {"tags": ["a"]}}
    assert caught.value.details["proposed"] == {}


def test_a_reset_based_on_stale_values_is_a_conflict(store: MemoryStore) -> None:
    desk, other = Desk(store), Desk(store, origin="other")
    desk.set_attributes("n_1", {"scope": "house"})
    other.set_attributes("n_1", {"scope": "castle"})
    with pytest.raises(MemgraphError) as caught:
        desk.reset_attributes("n_1", expect={"scope": "house"})
    assert caught.value.code == "EDIT_CONFLICT"
    assert attrs(store, "n_1")["scope"] == "castle"


# -- two processes --------------------------------------------------------------------------------
def test_another_process_sets_an_attribute_and_the_open_store_sees_it(tmp_path: Path) -> None:
    path = tmp_path / "m.memgraph"
    with MemoryStore.open(path) as store:
        store.write_api().create_node(type="event", title="met", fields={"summary": "met"})  # n_1
        put_record(store, copy.deepcopy(RECORD))
        assert attrs(store, "n_1")["sensitivity"] == "low"
        title = store.graph.nodes["n_1"].title
        script = """
            import sys
            from memgraph_gui.core import MemoryStore
            from memgraph_gui.core.membrane.write import set_attributes
            with MemoryStore.open(sys.argv[1], create=False) as store:
                set_attributes(store.storage, "n_1", {"sensitivity": "hyper"}, origin="agent")
                set_attributes(store.storage, "rec-1", {"memory_type": "working"}, origin="agent")
        """
        child = run_python(script, str(path))
        _out, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        changes = store.sync()
        assert [c.label for c in changes] == [
            f"Set sensitivity of '{title}' to hyper",
            "Set memory type of 'Eileen likes tea' to working",
        ]
        assert all(c.external for c in changes)
        assert OVERRIDES in changes[0].meta_keys and changes[1].nodes_updated == {"rec-1"}
        assert attrs(store, "n_1")["sensitivity"] == "hyper"
        assert attrs(store, "rec-1")["memory_type"] == "working"
        assert record_json(store.graph.nodes["rec-1"])["audit_log"][-1]["actor"] == "agent"
        # and this process's write, based on what it now sees, goes through
        set_attributes(
            store.storage, "n_1", {"sensitivity": "high"}, expect={"sensitivity": "hyper"}
        )
    with MemoryStore.open(path, create=False) as again:
        assert attrs(again, "n_1")["sensitivity"] == "high"

"""``app.notes``: the desk's note writes go through the Nuggets API, one undo step each, and
check what the person started from inside the write's own transaction; the merge preview is
exactly what ``mergeNotes`` stores; merging is refused, with a reason, for anything but two
notes of one nugget."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.nugget_notes import note, note_store, stage

DEPLOY, OLD, CMD = "note-work-deploy01", "note-work-deploy02", "fact-work-cmd00001"
TEA = "note-home-tea00001"


@pytest.fixture
def app(qapp: object, tmp_path: Path) -> Iterator[Any]:
    from memgraph_gui.app.app_model import AppModel

    model = AppModel(note_store(tmp_path / "notes.memgraph"))
    yield model
    model.close()


@pytest.fixture
def agent(app: Any) -> Iterator[Any]:
    from memgraph_gui.core import MemoryStore

    other = MemoryStore.open(app.path, create=False)
    yield other
    other.close()


def stored(app: Any, note_id: str) -> dict[str, Any]:
    from memgraph_gui.app.notes import note_of

    app.runner.wait_idle()
    app.store.sync()
    found = note_of(app.store.graph.nodes.get(note_id))
    assert found is not None
    return found


def run(app: Any, call: Any, *args: Any, **kwargs: Any) -> tuple[list[Any], list[Any]]:
    done: list[Any] = []
    errors: list[Any] = []
    call(app, *args, on_done=done.append, on_error=errors.append, **kwargs)
    app.runner.wait_idle()
    return done, errors


def test_an_agents_write_between_the_read_and_the_write_is_caught_inside_the_write(
    app: Any, agent: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent commits after the desk read the note and before its write begins: the check
    runs in the write's transaction, so the edit is refused and nothing is overwritten."""
    from memgraph_gui.app import notes

    read = notes._fresh_note

    def read_then_agent_writes(store: Any, note_id: str) -> dict[str, Any]:
        found = read(store, note_id)
        agent.nuggets("work").update_note(note_id, {"subject": "shared:agent"})
        return found

    monkeypatch.setattr(notes, "_fresh_note", read_then_agent_writes)
    before = stored(app, DEPLOY)
    done, errors = run(
        app, notes.edit_field, DEPLOY, "subject", "shared:desk", expected=before["subject"]
    )
    assert not done and [e.code for e in errors] == ["EDIT_CONFLICT"]
    details = errors[0].details
    assert details["current"] == {"fields": {"subject": "shared:agent"}}
    assert details["expected"] == {"fields": {"subject": before["subject"]}}
    assert details["proposed"] == {"fields": {"subject": "shared:desk"}}
    assert stored(app, DEPLOY)["subject"] == "shared:agent"
    assert app.undo.stack.index() == 0


def test_an_agent_writing_the_same_value_is_agreement_not_a_conflict(app: Any, agent: Any) -> None:
    from memgraph_gui.app import notes

    before = stored(app, DEPLOY)
    agent.nuggets("work").edit_note(DEPLOY, "same   words")
    done, errors = run(
        app, notes.edit_field, DEPLOY, "content", " same words ", expected=before["content"]
    )
    assert not errors and done[0]["content"] == "same words"


def test_each_write_is_one_undo_step_labelled_by_nuggets(app: Any) -> None:
    from memgraph_gui.app import notes

    before = stored(app, DEPLOY)
    run(app, notes.edit_field, DEPLOY, "content", "new body", expected=before["content"])
    run(app, notes.edit_field, DEPLOY, "scope", "project", expected=before["scope"])
    run(app, notes.hide_note, DEPLOY)
    run(app, notes.restore_note, DEPLOY)
    stack = app.undo.stack
    assert [stack.text(i) for i in range(stack.index())] == [
        "Edit 'Deploy checklist'",
        "Update 'Deploy checklist'",
        "Hide 'Deploy checklist'",
        "Update 'Deploy checklist'",
    ]
    for _ in range(4):
        app.undo_last()
    assert stored(app, DEPLOY) == before


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("confidence", 1.01),
        ("confidence", -0.5),
        ("confidence", "0.5"),
        ("scope", "team"),
        ("kind", "memo"),
        ("title", "   "),
        ("hits", 3),
    ],
)
def test_values_outside_a_fields_set_or_range_are_refused_before_writing(
    app: Any, field: str, value: Any
) -> None:
    from memgraph_gui.app import notes
    from memgraph_gui.core.domain.errors import MemgraphError

    if field not in notes.EDITABLE:
        with pytest.raises(MemgraphError, match="not edited here"):
            notes.edit_field(app, DEPLOY, field, value, expected=0)
        return
    _done, errors = run(app, notes.edit_field, DEPLOY, field, value, expected=None)
    assert [e.code for e in errors] == ["BAD_ARGS"]
    assert app.undo.stack.index() == 0


# -- merge ------------------------------------------------------------------------------------
def test_merging_is_refused_with_a_reason_for_anything_but_two_notes_of_one_nugget(
    app: Any,
) -> None:
    from memgraph_gui.app import notes
    from memgraph_gui.core.domain.changes import OpKind
    from memgraph_gui.core.domain.model import Node

    with app.store.storage.transaction(OpKind.BATCH, "put") as tx:
        tx.put_node(Node(id="ev1", type="event", level="semantic", title="A walk", seq_to=1))
    assert "exactly two" in notes.merge_candidates(app, [DEPLOY])
    assert "exactly two" in notes.merge_candidates(app, [DEPLOY, OLD, CMD])
    assert "not a Nuggets note" in notes.merge_candidates(app, [DEPLOY, "ev1"])
    refused = notes.merge_candidates(app, [DEPLOY, TEA])
    assert isinstance(refused, str) and "“work”" in refused and "“home”" in refused
    found = notes.merge_candidates(app, [OLD, DEPLOY])
    assert isinstance(found, notes.MergeCandidates) and found.nugget == "work"
    assert (found.first["id"], found.second["id"]) == (OLD, DEPLOY)


def test_the_merge_preview_is_exactly_what_merge_notes_stores(app: Any) -> None:
    from memgraph_gui.app import notes

    # another note links the source (redirected), the source links the target and a third note
    stage(
        app.store,
        [
            note("note-work-ref00001", "Release log", "v1 shipped", links=((OLD, "see"),)),
            note(
                OLD,
                "Deploy steps (old)",
                "Run the migrations first.\nTag the release in git.",
                tags=("ops", "legacy"),
                links=((DEPLOY, "dup"), (CMD, "USES"), ("note-work-ref00001", "logged")),
                hits=2,
            ),
        ],
    )
    app.store.sync()
    before = stored(app, DEPLOY)
    preview = notes.preview_merge(app, DEPLOY, OLD)
    assert preview is not None and preview.redirected == ("note-work-ref00001",)
    done, errors = run(app, notes.merge_notes, DEPLOY, OLD, "duplicate")
    assert not errors
    merged = stored(app, DEPLOY)
    assert done[0] == merged
    assert merged["content"] == preview.content
    assert tuple(merged["tags"]) == preview.tags
    assert tuple(merged["links"]) == preview.links
    assert merged["hits"] == preview.hits == before["hits"] + 2
    source = stored(app, OLD)
    assert source["hidden"] is True
    assert source["links"][-1]["to"] == DEPLOY and source["links"][-1]["reason"] == "duplicate"
    assert stored(app, "note-work-ref00001")["links"][0]["to"] == DEPLOY
    stack = app.undo.stack
    assert [stack.text(i) for i in range(stack.index())] == [
        "Merge 'Deploy steps (old)' into 'Deploy checklist'"
    ]
    app.undo_last()
    assert stored(app, DEPLOY) == before and stored(app, OLD)["hidden"] is False

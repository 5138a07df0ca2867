"""The inspector never loses what a person or an agent writes: edits carry what they were based
on (a conflict shows both values, Keep mine / Take theirs), typing survives a field changing kind
under it, leaving a node with unsaved edits asks first, and every completion is bound to the node
and field it was for. The agent is a second ``MemoryStore`` on the same file (another writer,
seen by the window only through the file)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.qt_sandbox import Asked
from tests.views.test_inspector import WAIT, first, show


@pytest.fixture
def app(demo_app: Any) -> Any:
    return demo_app


def stored(agent: Any, node_id: str) -> Any:
    return agent.read_api().get_node(node_id)


# -- edits that race -------------------------------------------------------------------------
def test_a_field_the_agent_changed_meanwhile_is_not_overwritten(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    row = inspector.form.row("goal")
    row.editor.line.setText("the curator's goal")
    agent.write_api().edit_node(id=char.id, set_fields={"goal": "the agent's goal"})
    row.editor.line.editingFinished.emit()
    qtbot.waitUntil(lambda: row.conflict.pending, timeout=WAIT)
    app.runner.wait_idle()
    assert stored(agent, char.id).fields["goal"] == "the agent's goal"  # nothing written
    assert row.editor.line.text() == "the curator's goal"  # what the person typed is kept
    assert row.conflict.mine.toPlainText() == "the curator's goal"
    assert row.conflict.theirs.toPlainText() == "the agent's goal"
    assert not row.editor.line.isReadOnly()
    row.editor.line.editingFinished.emit()  # leaving the field again writes nothing
    app.runner.wait_idle()
    assert stored(agent, char.id).fields["goal"] == "the agent's goal"
    row.conflict.keep_button.click()
    qtbot.waitUntil(
        lambda: stored(agent, char.id).fields["goal"] == "the curator's goal", timeout=WAIT
    )
    qtbot.waitUntil(lambda: not row.editor.busy, timeout=WAIT)
    assert not row.conflict.pending and not row.unsaved()


def test_take_theirs_loads_the_stored_value_and_writes_nothing(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    row = inspector.form.row("goal")
    row.editor.line.setText("mine")
    agent.write_api().edit_node(id=char.id, set_fields={"goal": "theirs"})
    steps = len(agent.history.steps())
    row.editor.line.editingFinished.emit()
    qtbot.waitUntil(lambda: row.conflict.pending, timeout=WAIT)
    row.conflict.take_button.click()
    assert row.editor.line.text() == "theirs" and not row.unsaved()
    app.runner.wait_idle()
    assert len(agent.history.steps()) == steps


def test_an_untouched_field_follows_the_agent_live(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    inspector.form.row("goal").editor.line.setText("typing here")
    agent.write_api().edit_node(id=char.id, set_fields={"traits": "calm now"})
    traits = inspector.form.row("traits").editor.line
    qtbot.waitUntil(lambda: traits.text() == "calm now", timeout=WAIT)
    assert inspector.form.row("goal").editor.line.text() == "typing here"


def test_a_title_renamed_meanwhile_is_a_conflict_and_keep_mine_wins(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    header = inspector.header
    header.title.line.setText("The curator's title")
    agent.write_api().edit_node(id=char.id, title="The agent's title")
    header.title.line.editingFinished.emit()
    qtbot.waitUntil(lambda: header.title_conflict.pending, timeout=WAIT)
    assert stored(agent, char.id).title == "The agent's title"
    assert header.title_conflict.theirs.toPlainText() == "The agent's title"
    assert header.title.line.text() == "The curator's title"
    header.title_conflict.keep_button.click()
    qtbot.waitUntil(lambda: stored(agent, char.id).title == "The curator's title", timeout=WAIT)


def test_long_text_in_conflict_shows_the_difference(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    thread = first(app, "thread")
    show(app, inspector, thread.id)
    base = "The caravan leaves at dawn and the pass is watched by two guards who take bribes. "
    agent.write_api().edit_node(id=thread.id, set_fields={"note": base + "Theirs."})
    qtbot.waitUntil(
        lambda: inspector.form.row("note").editor.area.toPlainText() == base + "Theirs.",
        timeout=WAIT,
    )
    editor = inspector.form.row("note").editor
    editor.area.setPlainText(base + "Mine, with more words.")
    agent.write_api().edit_node(id=thread.id, set_fields={"note": base + "Theirs, changed again."})
    editor.apply()
    row = inspector.form.row("note")
    qtbot.waitUntil(lambda: row.conflict.pending, timeout=WAIT)
    assert row.conflict.difference.isVisibleTo(row.conflict)
    diff = row.conflict.difference.toPlainText()
    assert "{+Mine+}" in diff and "[-Theirs-]" in diff and "caravan leaves" in diff
    assert stored(agent, thread.id).fields["note"] == base + "Theirs, changed again."
    bar = editor.bar  # Keep mine / Take theirs are the choice now, not Revert / Apply
    assert not bar.apply_button.isVisibleTo(inspector)
    assert not bar.revert_button.isVisibleTo(inspector)
    row.conflict.take_theirs.emit()
    qtbot.waitUntil(lambda: not row.conflict.pending, timeout=WAIT)
    editor.area.setPlainText(base + "Typed again.")
    qtbot.waitUntil(lambda: bar.apply_button.isVisibleTo(inspector), timeout=WAIT)


# -- unsaved work survives -------------------------------------------------------------------
def test_typing_survives_the_agent_changing_the_field_to_a_list(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    from memgraph_gui.views.inspector.field_kinds import FieldKind

    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    inspector.form.row("goal").editor.line.setText("my unsaved goal")
    agent.write_api().edit_node(id=char.id, set_fields={"goal": ["north", "south"]})
    qtbot.waitUntil(lambda: inspector.form.row("goal").column.kind is FieldKind.LIST, timeout=WAIT)
    row = inspector.form.row("goal")
    assert row.editor.items() == ["north", "south"]  # the new editor shows the stored list
    assert row.conflict.pending and row.kept_aside  # ... and my text is kept beside it
    assert row.conflict.mine.toPlainText() == "my unsaved goal"
    assert inspector.has_unsaved_edits()
    row.conflict.keep_button.click()
    qtbot.waitUntil(
        lambda: stored(agent, char.id).fields["goal"] == "my unsaved goal", timeout=WAIT
    )
    qtbot.waitUntil(lambda: inspector.form.row("goal").column.kind is FieldKind.TEXT, timeout=WAIT)
    assert not inspector.has_unsaved_edits()


def test_typing_in_one_field_survives_another_field_changing_kind(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    from memgraph_gui.views.inspector.field_kinds import FieldKind

    char = first(app, "character_sheet")
    show(app, inspector, char.id)
    inspector.form.row("goal").editor.line.setText("still typing")
    agent.write_api().edit_node(id=char.id, set_fields={"traits": ["calm", "proud"]})
    qtbot.waitUntil(
        lambda: inspector.form.row("traits").column.kind is FieldKind.LIST, timeout=WAIT
    )
    goal = inspector.form.row("goal")
    assert goal.editor.line.text() == "still typing" and not goal.conflict.pending
    assert goal.editor.baseline == char.fields["goal"]  # still based on what was shown


def test_a_json_edit_waiting_for_apply_asks_before_another_node_is_shown(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    from memgraph_gui.views.unsaved import Choice

    made = app.apply_sync(
        lambda w: w.create_node(
            type="character_sheet", title="Mira", fields={"profile": {"age": 30}}
        )
    )["id"]
    other = first(app, "character_sheet").id
    show(app, inspector, made)
    editor = inspector.form.row("profile").editor
    editor.area.setPlainText('{"age": 31}')  # waits for Apply
    asked = Asked(Choice.CANCEL)
    inspector.ask_unsaved = asked
    app.selection.select([other])
    qtbot.waitUntil(lambda: bool(asked.questions), timeout=WAIT)
    assert "profile" in asked.questions[0] and "Mira" in asked.questions[0]
    qtbot.waitUntil(lambda: app.selection.current == made, timeout=WAIT)  # Cancel: back
    assert inspector.node_id == made and editor.area.toPlainText() == '{"age": 31}'

    asked.answer = Choice.SAVE
    app.selection.select([other])
    qtbot.waitUntil(lambda: inspector.node_id == other, timeout=WAIT)
    assert app.node(made).fields["profile"] == {"age": 31}
    assert app.selection.current == other and len(asked.questions) == 2


def test_discard_drops_the_edit_and_moves_on(qtbot: Any, app: Any, inspector: Any) -> None:
    from memgraph_gui.views.unsaved import Choice

    char, thread = first(app, "character_sheet"), first(app, "thread")
    show(app, inspector, char.id)
    inspector.form.row("goal").editor.line.setText("never mind")
    inspector.ask_unsaved = Asked(Choice.DISCARD)
    app.selection.select([thread.id])
    qtbot.waitUntil(lambda: inspector.node_id == thread.id, timeout=WAIT)
    app.runner.wait_idle()
    assert app.node(char.id).fields["goal"] == char.fields["goal"]
    assert app.undo.stack.index() == 0


def test_save_on_leaving_that_conflicts_stays_on_the_node(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    from memgraph_gui.views.unsaved import Choice

    char, thread = first(app, "character_sheet"), first(app, "thread")
    show(app, inspector, char.id)
    inspector.form.row("goal").editor.line.setText("mine")
    agent.write_api().edit_node(id=char.id, set_fields={"goal": "theirs"})
    inspector.ask_unsaved = Asked(Choice.SAVE)
    app.selection.select([thread.id])
    row = inspector.form.row("goal")
    qtbot.waitUntil(lambda: row.conflict.pending, timeout=WAIT)
    qtbot.waitUntil(lambda: app.selection.current == char.id, timeout=WAIT)
    assert inspector.node_id == char.id and row.editor.line.text() == "mine"
    assert stored(agent, char.id).fields["goal"] == "theirs"


# -- completions bound to what they were for ----------------------------------------------------
def test_fields_stay_writable_when_the_selection_moves_during_a_save(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    one, two = _two_characters(app)
    show(app, inspector, one.id)
    line = inspector.form.row("goal").editor.line
    line.setText("saved while moving on")
    line.editingFinished.emit()
    assert line.isReadOnly()  # in flight
    show(app, inspector, two.id)  # before the write reports back
    goal = inspector.form.row("goal").editor.line
    assert not goal.isReadOnly()  # the other node's field is not the one being saved
    app.runner.wait_idle()
    qtbot.waitUntil(
        lambda: app.node(one.id).fields["goal"] == "saved while moving on", timeout=WAIT
    )
    qtbot.wait(20)
    assert not inspector.form.row("goal").editor.line.isReadOnly()
    assert inspector.form.row("goal").editor.line.text() == two.fields["goal"]
    show(app, inspector, one.id)
    goal = inspector.form.row("goal").editor.line
    assert not goal.isReadOnly() and goal.text() == "saved while moving on"


def test_coming_back_while_the_save_is_in_flight_shows_it_saving(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    one, two = _two_characters(app)
    show(app, inspector, one.id)
    line = inspector.form.row("goal").editor.line
    line.setText("in flight")
    line.editingFinished.emit()
    app.selection.select([two.id])
    app.selection.select([one.id])  # both before the write reports back
    assert inspector.form.row("goal").editor.busy
    qtbot.waitUntil(lambda: not inspector.form.row("goal").editor.busy, timeout=WAIT)
    assert inspector.form.row("goal").editor.line.text() == "in flight"


def test_a_link_refused_after_moving_on_is_reported_not_shown_on_the_next_node(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    char, place, thread = (
        first(app, "character_sheet"),
        first(app, "location_state"),
        first(app, "thread"),
    )
    show(app, inspector, char.id)
    picker = inspector.open_link_picker()
    picker.query.setText(place.id)
    picker.run_search()
    picker.results.setCurrentItem(picker.results.topLevelItem(0))
    picker.relation.setCurrentText("r" * 5000)  # refused: too long
    with qtbot.waitSignal(app.op_failed, timeout=WAIT) as failed:
        picker.accept()
        show(app, inspector, thread.id)
    assert failed.args[1] is inspector
    assert inspector.links.status.text() == ""  # nothing pinned on the thread's links


def test_a_conflict_that_lands_after_moving_on_waits_on_its_node(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    char, thread = first(app, "character_sheet"), first(app, "thread")
    show(app, inspector, char.id)
    line = inspector.form.row("goal").editor.line
    line.setText("mine, sent while leaving")
    agent.write_api().edit_node(id=char.id, set_fields={"goal": "theirs"})
    line.editingFinished.emit()  # in flight: moving on is allowed
    with qtbot.waitSignal(app.op_failed, timeout=WAIT) as failed:
        show(app, inspector, thread.id)
    assert failed.args[0].code == "EDIT_CONFLICT" and failed.args[1] is inspector
    assert inspector.node_id == thread.id  # the refusal did not touch the node shown
    assert not inspector.form.row("note").conflict.pending
    assert inspector.has_unsaved_edits() and "refused" in inspector.unsaved_summary()
    show(app, inspector, char.id)
    row = inspector.form.row("goal")
    assert row.editor.line.text() == "mine, sent while leaving" and row.conflict.pending
    assert row.conflict.theirs.toPlainText() == "theirs"
    row.conflict.keep_button.click()
    qtbot.waitUntil(
        lambda: stored(agent, char.id).fields["goal"] == "mine, sent while leaving",
        timeout=WAIT,
    )


def test_a_refused_edit_waits_on_its_node_in_its_memory_only(
    qtbot: Any, app: Any, inspector: Any, agent: Any, tmp_path: Any
) -> None:
    import shutil

    from memgraph_gui.core import MemoryStore

    char, thread = first(app, "character_sheet"), first(app, "thread")
    copy = tmp_path / "other.memgraph"
    shutil.copy(app.path, copy)
    show(app, inspector, char.id)
    line = inspector.form.row("goal").editor.line
    line.setText("mine")
    agent.write_api().edit_node(id=char.id, set_fields={"goal": "theirs"})
    line.editingFinished.emit()
    with qtbot.waitSignal(app.op_failed, timeout=WAIT):
        show(app, inspector, thread.id)
    assert inspector.has_unsaved_edits()  # parked on the character
    app.replace_store(MemoryStore.open(copy))  # another memory: the same ids, other nodes
    assert not inspector.has_unsaved_edits()
    app.selection.select([char.id])
    row = inspector.form.row("goal")
    assert not row.conflict.pending and row.editor.line.text() == char.fields["goal"]


def test_coming_straight_back_keeps_the_typing_without_a_question(
    qtbot: Any, app: Any, inspector: Any
) -> None:
    from memgraph_gui.views.unsaved import Choice

    char, thread = first(app, "character_sheet"), first(app, "thread")
    show(app, inspector, char.id)
    inspector.form.row("goal").editor.line.setText("still mine")
    asked = Asked(Choice.DISCARD)
    inspector.ask_unsaved = asked
    app.selection.select([thread.id])
    app.selection.select([char.id])  # back before the question could be asked
    qtbot.wait(50)
    assert asked.questions == [] and inspector.node_id == char.id
    assert inspector.form.row("goal").editor.line.text() == "still mine"


def test_typing_survives_the_agent_clearing_a_field_the_schema_lacks(
    qtbot: Any, app: Any, inspector: Any, agent: Any
) -> None:
    made = app.apply_sync(
        lambda w: w.create_node(type="character_sheet", title="Ona", fields={"mood_x": "calm"})
    )["id"]
    show(app, inspector, made)
    inspector.form.row("mood_x").editor.line.setText("stormy")
    agent.write_api().edit_node(id=made, clear_fields=["mood_x"])
    qtbot.waitUntil(lambda: "mood_x" not in app.node(made).fields, timeout=WAIT)
    qtbot.wait(20)
    row = inspector.form.row("mood_x")  # the row stays while it holds typing
    assert row.editor.line.text() == "stormy"
    row.editor.line.editingFinished.emit()
    qtbot.waitUntil(lambda: row.conflict.pending, timeout=WAIT)
    assert row.conflict.theirs.toPlainText() == ""
    row.conflict.keep_button.click()
    qtbot.waitUntil(lambda: stored(agent, made).fields.get("mood_x") == "stormy", timeout=WAIT)


def _two_characters(app: Any) -> tuple[Any, Any]:
    """The first two character sheets, in store order."""
    chars = sorted(
        (n for n in app.store.graph.nodes.values() if n.type == "character_sheet"),
        key=lambda n: n.ord,
    )
    return chars[0], chars[1]

"""The rollup review never loses a summary: a save is bound to the rollup it was for (another
rollup's text is never marked saved), carries the summary it was based on (a conflict shows both,
Keep mine / Take theirs), and leaving a rollup, the dialog or the window with unsaved text asks
Save / Discard / Cancel. The agent is a second ``MemoryStore`` on the same file."""

from __future__ import annotations

from typing import Any

import pytest

from tests.qt_sandbox import Asked

WAIT = 5000


@pytest.fixture
def app(demo_app: Any) -> Any:
    return demo_app


@pytest.fixture
def dialog(qtbot: Any, app: Any) -> Any:
    from memgraph_gui.views.wizard import RollupReviewDialog

    view = RollupReviewDialog(app)
    qtbot.addWidget(view)
    view.show()
    return view


def rollups(app: Any) -> list[str]:
    nodes = sorted(
        (n for n in app.store.graph.nodes.values() if n.semantic_rollup and not n.archived),
        key=lambda n: n.ord,
    )
    return [n.id for n in nodes]


def test_saving_one_rollup_never_marks_the_next_ones_text_saved(
    qtbot: Any, app: Any, dialog: Any
) -> None:
    a, b = rollups(app)[:2]
    b_summary = app.node(b).fields["summary"]
    dialog.select_rollup(a)
    dialog.summary.setPlainText("A's new summary.")
    dialog.save_summary()
    dialog.select_rollup(b)  # before the save of A reports back
    dialog.summary.setPlainText("B, typed and not saved.")
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: app.node(a).fields["summary"] == "A's new summary.", timeout=WAIT)
    qtbot.wait(20)
    assert dialog.current_id == b
    assert dialog.status.text() != "Summary saved."
    assert dialog.save_button.isEnabled()  # B's text is still unsaved
    dialog.refresh()
    assert dialog.summary.toPlainText() == "B, typed and not saved."
    assert app.node(b).fields["summary"] == b_summary


def test_a_summary_the_agent_changed_meanwhile_is_a_conflict(
    qtbot: Any, app: Any, dialog: Any, agent: Any
) -> None:
    a = rollups(app)[0]
    dialog.select_rollup(a)
    long_mine = "The caravan crosses the pass at dawn; Dorian pays the guards. " * 3
    dialog.summary.setPlainText(long_mine)
    agent.write_api().edit_node(id=a, set_fields={"summary": "The agent's summary."})
    dialog.save_summary()
    qtbot.waitUntil(lambda: dialog.conflict.pending, timeout=WAIT)
    assert agent.read_api().get_node(a).fields["summary"] == "The agent's summary."
    assert dialog.summary.toPlainText() == long_mine
    assert dialog.conflict.theirs.toPlainText() == "The agent's summary."
    assert dialog.conflict.difference.isVisibleTo(dialog.conflict)
    assert dialog.status.text() != "Summary saved."
    dialog.conflict.keep_button.click()
    qtbot.waitUntil(
        lambda: agent.read_api().get_node(a).fields["summary"] == long_mine.strip(),
        timeout=WAIT,
    )
    qtbot.waitUntil(lambda: dialog.status.text() == "Summary saved.", timeout=WAIT)
    assert not dialog.has_unsaved_edits()


def test_take_theirs_loads_the_agents_summary(
    qtbot: Any, app: Any, dialog: Any, agent: Any
) -> None:
    a = rollups(app)[0]
    dialog.select_rollup(a)
    dialog.summary.setPlainText("Mine.")
    agent.write_api().edit_node(id=a, set_fields={"summary": "Theirs."})
    dialog.save_summary()
    qtbot.waitUntil(lambda: dialog.conflict.pending, timeout=WAIT)
    dialog.conflict.take_button.click()
    assert dialog.summary.toPlainText() == "Theirs." and not dialog.has_unsaved_edits()
    assert not dialog.save_button.isEnabled()


def test_leaving_a_rollup_with_unsaved_text_asks(qtbot: Any, app: Any, dialog: Any) -> None:
    from memgraph_gui.views.unsaved import Choice

    a, b = rollups(app)[:2]
    dialog.select_rollup(a)
    dialog.summary.setPlainText("Unsaved words for A.")
    asked = Asked(Choice.CANCEL)
    dialog.ask_unsaved = asked
    dialog.list.setCurrentIndex(
        dialog.proxy.mapFromSource(dialog.rollups.index(dialog.rollups.row_of(b), 0))
    )
    qtbot.waitUntil(lambda: bool(asked.questions), timeout=WAIT)
    assert app.node(a).title in asked.questions[0]
    assert dialog.current_id == a and dialog.summary.toPlainText() == "Unsaved words for A."
    assert dialog._list_current() == a  # the list is back on A

    asked.answer = Choice.SAVE
    dialog.list.setCurrentIndex(
        dialog.proxy.mapFromSource(dialog.rollups.index(dialog.rollups.row_of(b), 0))
    )
    qtbot.waitUntil(lambda: dialog.current_id == b, timeout=WAIT)
    assert app.node(a).fields["summary"] == "Unsaved words for A."
    assert dialog.summary.toPlainText() == app.node(b).fields["summary"]


def test_closing_the_dialog_with_unsaved_text_asks(qtbot: Any, app: Any, dialog: Any) -> None:
    from memgraph_gui.views.unsaved import Choice

    a = rollups(app)[0]
    dialog.select_rollup(a)
    dialog.summary.setPlainText("Half a thought.")
    dialog.ask_unsaved = Asked(Choice.CANCEL)
    dialog.reject()
    assert dialog.isVisible() and dialog.summary.toPlainText() == "Half a thought."
    dialog.ask_unsaved = Asked(Choice.DISCARD)
    dialog.reject()
    assert not dialog.isVisible()
    app.runner.wait_idle()
    assert app.node(a).fields["summary"] != "Half a thought."


def test_a_dissolve_that_lands_after_moving_on_keeps_the_next_rollups_text(
    qtbot: Any, app: Any, dialog: Any
) -> None:
    a, b = rollups(app)[:2]
    dialog.select_rollup(a)
    dialog.confirm_dissolve = lambda title, n: True  # type: ignore[method-assign]
    dialog.dissolve_current()
    dialog.select_rollup(b)  # before the dissolve reports back
    dialog.summary.setPlainText("Typing in B.")
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: app.node(a).archived, timeout=WAIT)
    qtbot.waitUntil(lambda: dialog.rollups.row_of(a) == -1, timeout=WAIT)
    assert dialog.current_id == b and dialog.summary.toPlainText() == "Typing in B."


def test_a_save_refused_after_moving_on_keeps_the_text_for_later(
    qtbot: Any, app: Any, dialog: Any, agent: Any
) -> None:
    a, b = rollups(app)[:2]
    dialog.select_rollup(a)
    dialog.summary.setPlainText("Mine for A.")
    agent.write_api().edit_node(id=a, set_fields={"summary": "Theirs for A."})
    dialog.save_summary()
    dialog.select_rollup(b)  # in flight: moving on is allowed, the write is underway
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: "was not saved" in dialog.status.text(), timeout=WAIT)
    assert dialog.current_id == b and not dialog.conflict.pending
    assert dialog.has_unsaved_edits()
    dialog.select_rollup(a)
    assert dialog.summary.toPlainText() == "Mine for A." and dialog.conflict.pending
    assert dialog.conflict.theirs.toPlainText() == "Theirs for A."


# -- the window ------------------------------------------------------------------------------
def test_closing_the_window_asks_about_the_inspectors_unsaved_edits(qtbot: Any, app: Any) -> None:
    from memgraph_gui.views.unsaved import Choice

    window, char = _window_on_a_character(qtbot, app)
    window.inspector.form.row("goal").editor.line.setText("unsaved at closing time")
    asked = Asked(Choice.CANCEL)
    window.ask_unsaved = asked
    window.close()
    assert window.isVisible() and len(asked.questions) == 1
    assert "goal" in asked.questions[0]
    asked.answer = Choice.SAVE
    window.close()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=WAIT)
    assert app.node(char.id).fields["goal"] == "unsaved at closing time"


def test_a_save_refused_after_the_dialog_closed_opens_it_again_with_the_text(
    qtbot: Any, app: Any, dialog: Any, agent: Any
) -> None:
    a = rollups(app)[0]
    dialog.select_rollup(a)
    dialog.summary.setPlainText("Saved on the way out.")
    agent.write_api().edit_node(id=a, set_fields={"summary": "The agent's."})
    dialog.save_summary()
    dialog.reject()  # in flight: nothing unsaved, it closes
    assert not dialog.isVisible()
    qtbot.waitUntil(dialog.isVisible, timeout=WAIT)
    qtbot.waitUntil(lambda: dialog.conflict.pending, timeout=WAIT)
    assert dialog.current_id == a and dialog.summary.toPlainText() == "Saved on the way out."


def test_opening_another_memory_asks_about_unsaved_edits_first(
    qtbot: Any, app: Any, tmp_path: Any
) -> None:
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.unsaved import Choice

    other = tmp_path / "other.memgraph"
    MemoryStore.open(other).close()
    first = app.path
    window, char = _window_on_a_character(qtbot, app)
    window.inspector.form.row("goal").editor.line.setText("typed before File > Open")
    asked = Asked(Choice.CANCEL)
    window.ask_unsaved = asked
    window.files.open_path(str(other))
    assert len(asked.questions) == 1 and "goal" in asked.questions[0]
    assert not window.files.opening and app.path == first  # Cancel: nothing is opened
    asked.answer = Choice.SAVE
    window.files.open_path(str(other))  # Save writes first, then opens
    qtbot.waitUntil(lambda: app.path == str(other), timeout=WAIT)
    with MemoryStore.open(first, create=False) as reopened:
        assert reopened.graph.nodes[char.id].fields["goal"] == "typed before File > Open"
    window.close()


def test_save_on_close_that_cannot_be_written_keeps_the_window_and_says_why(
    qtbot: Any, app: Any, agent: Any
) -> None:
    from memgraph_gui.views.unsaved import Choice

    window, char = _window_on_a_character(qtbot, app)
    window.inspector.form.row("goal").editor.line.setText("mine, unsaved")
    agent.write_api().edit_node(id=char.id, set_fields={"goal": "theirs"})
    window.inspector_dock.hide()
    window.ask_unsaved = Asked(Choice.SAVE)
    window.close()
    row = window.inspector.form.row("goal")
    qtbot.waitUntil(lambda: row.conflict.pending, timeout=WAIT)
    assert window.isVisible() and window.inspector_dock.isVisible()
    assert "could not be saved" in window.statusBar().currentMessage()
    window.ask_unsaved = Asked(Choice.DISCARD)


def _window_on_a_character(qtbot: Any, app: Any) -> tuple[Any, Any]:
    """A shown main window with the first live character selected (in the inspector)."""
    from memgraph_gui.views.main_window import MainWindow

    window = MainWindow(app)
    qtbot.addWidget(window)
    window.show()
    char = next(
        n
        for n in sorted(app.store.graph.nodes.values(), key=lambda n: n.ord)
        if n.type == "character_sheet" and not n.archived
    )
    app.selection.select([char.id])
    return window, char

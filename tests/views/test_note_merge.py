"""Merge Notes… in the window: from the Edit menu, the graph's and the timeline's context menus,
with two notes selected; the dialog previews exactly what ``mergeNotes`` stores, lets the person
pick the target and type the reason, and merges in one undo step; anything else is refused
with the reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.nugget_notes import note_store
from tests.qt_sandbox import window_over

DEPLOY, OLD, TEA = "note-work-deploy01", "note-work-deploy02", "note-home-tea00001"
WAIT = 5000


@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    path = tmp_path / "notes.memgraph"
    note_store(path).close()
    app, win = window_over(qtbot, path)
    yield app, win
    win.close()
    app.close()


def stored(app: Any, note_id: str) -> dict[str, Any]:
    from memgraph_gui.app.notes import note_of

    app.runner.wait_idle()
    found = note_of(app.store.graph.nodes.get(note_id))
    assert found is not None
    return found


def told(win: Any) -> list[str]:
    messages: list[str] = []
    win.note_merge.tell = lambda _parent, text: messages.append(text)
    return messages


def test_merge_is_offered_in_the_edit_menu_and_both_context_menus(window: Any) -> None:
    app, win = window
    action = win.note_merge.action
    assert action in win.edit_menu.actions()
    assert action in win.timeline_panel.table.actions()
    assert not action.isEnabled() and not action.isVisible()  # nothing selected
    app.selection.select([DEPLOY])
    assert action.isVisible() and not action.isEnabled()
    app.selection.select([DEPLOY, OLD])
    assert action.isEnabled()
    graph = win.graph_view
    row = graph.scene.index[DEPLOY]
    x, y = (float(v) for v in graph.scene.pos[row])
    menu = graph.context_menu_at(x, y)
    assert menu is not None and action in menu.actions()


def test_two_notes_of_two_nuggets_or_a_single_note_are_refused_with_the_reason(
    window: Any,
) -> None:
    app, win = window
    messages = told(win)
    app.selection.select([DEPLOY, TEA])
    assert win.note_merge.open() is None
    app.selection.select([DEPLOY])
    win.note_merge.action.trigger()  # (disabled actions do nothing: open() says why anyway)
    assert win.note_merge.open() is None
    assert len(messages) == 2
    assert "only notes of one nugget can be merged" in messages[0]
    assert "exactly two" in messages[1]
    assert win.note_merge.dialog is None


def test_the_dialog_previews_the_merge_and_merges_in_one_undo_step(qtbot: Any, window: Any) -> None:
    app, win = window
    app.selection.select([DEPLOY, OLD], current=OLD)  # the one clicked last goes into the other
    dialog = win.note_merge.open()
    assert dialog is not None
    target, source = dialog.target_and_source()
    assert (target["id"], source["id"]) == (DEPLOY, OLD)
    preview = dialog.preview
    assert dialog.content.toPlainText() == preview.content
    assert [dialog.tags.item(i).text() for i in range(dialog.tags.count())] == list(preview.tags)
    assert dialog.links.rowCount() == len(preview.links)
    assert dialog.links.item(1, 1).text() == "missing: note-work-gone0001"  # dangling, kept
    assert "4 + 1 = 5" in dialog.summary.text()
    dialog.choose_target(OLD)  # the other way round: the preview follows
    assert dialog.target_and_source()[0]["id"] == OLD
    assert dialog.content.toPlainText().startswith("Run the migrations first.\nTag the release")
    dialog.choose_target(DEPLOY)
    dialog.reason.setText("  same   steps ")
    expected = dialog.preview
    dialog.merge_button.click()
    qtbot.waitUntil(lambda: win.note_merge.dialog is None, timeout=WAIT)
    merged = stored(app, DEPLOY)
    assert merged["content"] == expected.content
    assert tuple(merged["tags"]) == expected.tags
    assert tuple(merged["links"]) == expected.links
    assert merged["hits"] == expected.hits
    gone = stored(app, OLD)
    assert gone["hidden"] and gone["links"][-1]["reason"] == "same steps"
    assert app.selection.current == DEPLOY
    stack = app.undo.stack
    assert [stack.text(i) for i in range(stack.index())] == [
        "Merge 'Deploy steps (old)' into 'Deploy checklist'"
    ]


def test_the_preview_follows_another_writer_before_merge(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    from memgraph_gui.core import MemoryStore

    app, win = window
    app.selection.select([DEPLOY, OLD], current=OLD)
    dialog = win.note_merge.open()
    assert dialog is not None
    agent = MemoryStore.open(app.path, create=False)
    try:
        agent.nuggets("work").edit_note(OLD, "A line the agent added.")
    finally:
        agent.close()
    qtbot.waitUntil(lambda: "A line the agent added." in dialog.content.toPlainText(), timeout=WAIT)
    dialog.merge_button.click()
    qtbot.waitUntil(lambda: win.note_merge.dialog is None, timeout=WAIT)
    assert stored(app, DEPLOY)["content"].endswith("A line the agent added.")


def test_opening_merge_again_replaces_the_dialog_and_keeps_track_of_the_new_one(
    qtbot: Any, window: Any
) -> None:
    from memgraph_gui.views.qt import QApplication, QtCore

    app, win = window
    app.selection.select([DEPLOY, OLD])
    first = win.note_merge.open()
    second = win.note_merge.open()
    assert first is not second
    QApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)  # the first goes
    assert win.note_merge.dialog is second
    second.reject()
    QApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    assert win.note_merge.dialog is None

"""The compaction wizard and the rollup review, driven like a user over a real AppModel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from wizard_helpers import compactable_copy

SUMMARY = "Dorian and 凯恩 settle their feud; the map shard changes hands."


@pytest.fixture(autouse=True)
def _sandboxed_settings(wizard_settings: None) -> None:
    """Every test here keeps its settings in its own folder."""


@pytest.fixture
def app(compactable_app: Any) -> Any:
    return compactable_app


def _wizard(qtbot: Any, app: Any) -> Any:
    from memgraph_gui.app.settings import DraftEndpoint
    from memgraph_gui.views.wizard import CompactionWizard

    wizard = CompactionWizard(app, endpoint=DraftEndpoint)
    qtbot.addWidget(wizard)
    wizard.show()
    return wizard


def _to_groups(qtbot: Any, wizard: Any) -> Any:
    assert wizard.type_page.type_id == "event" and wizard.type_page.chosen_depth == 0
    wizard.next()
    page = wizard.groups_page
    assert wizard.currentPage() is page
    qtbot.waitUntil(lambda: page.preview is not None, timeout=5000)
    return page


def _uncheck(model: Any, row: int) -> None:
    from memgraph_gui.views.qt import Qt

    model.setData(model.index(row, 0), Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)


def _approve(qtbot: Any, wizard: Any, app: Any) -> None:
    from memgraph_gui.views.qt import Qt

    page = wizard.review_page
    assert page.approve_button.isEnabled()
    qtbot.mouseClick(page.approve_button, Qt.MouseButton.LeftButton)
    app.runner.wait_idle()


def test_only_hierarchical_types_are_offered_and_groups_are_listed(qtbot, app) -> None:
    wizard = _wizard(qtbot, app)
    combo = wizard.type_page.type_combo
    assert [combo.itemData(i) for i in range(combo.count())] == ["event"]
    assert wizard.type_page.depth_spin.maximum() == 9  # maxDepth 10
    page = _to_groups(qtbot, wizard)
    preview = app.read_api().compaction_candidates(type="event", depth=0)
    assert page.model.rowCount() == len(preview.groups) == 2
    assert [g.child_ids for g in page.model.checked_groups()] == [
        tuple(g.child_ids) for g in preview.groups
    ]
    assert page.isComplete()
    page.model.set_all_checked(False)
    assert not page.isComplete()


def test_approve_makes_the_same_rollup_as_compact_nodes_and_undo_removes_it(
    qtbot, app, compacted_template: Path, tmp_path: Path
) -> None:
    from memgraph_gui.core import MemoryStore

    wizard = _wizard(qtbot, app)
    groups = _to_groups(qtbot, wizard)
    _uncheck(groups.model, 1)
    group = groups.model.checked_groups()[0]
    wizard.next()
    review = wizard.review_page
    assert wizard.currentPage() is review and review.group == group
    assert review.briefs.rowCount() == 3 and review.draft.text()  # an offline draft is there
    review.draft.editor.setPlainText(SUMMARY)
    _approve(qtbot, wizard, app)
    assert wizard.currentPage() is wizard.report_page
    (rollup_id,) = wizard.report().rollup_ids()
    assert app.undo.stack.undoText() == "Compact 3 events"

    twin = compactable_copy(compacted_template, tmp_path / "b.memgraph")
    with MemoryStore.open(twin) as other:
        direct = other.write_api().compact_nodes(
            type="event", child_ids=list(group.child_ids), summary=SUMMARY
        )["rollupNodeId"]
        expected = other.graph.nodes[direct].to_json()
        expected_parents = {c: other.graph.nodes[c].parent_id for c in group.child_ids}
    made = app.node(rollup_id).to_json()
    assert {**made, "id": ""} == {**expected, "id": ""}
    assert made["fields"]["summary"] == SUMMARY
    parents = {c: app.node(c).parent_id for c in group.child_ids}
    assert parents == {c: rollup_id for c in group.child_ids}
    assert set(expected_parents.values()) == {direct}

    app.undo_last()
    app.runner.wait_idle()
    assert app.node(rollup_id) is None
    assert all(app.node(c).parent_id == "" for c in group.child_ids)
    assert app.undo.stack.redoText() == "Compact 3 events"


def test_skip_writes_nothing(qtbot, app) -> None:
    from memgraph_gui.views.qt import Qt

    before = (app.counts().nodes, app.counts().edges, app.undo.stack.count())
    wizard = _wizard(qtbot, app)
    _to_groups(qtbot, wizard)
    wizard.next()
    review = wizard.review_page
    for _ in range(2):
        qtbot.mouseClick(review.skip_button, Qt.MouseButton.LeftButton)
    app.runner.wait_idle()
    assert wizard.currentPage() is wizard.report_page
    assert (app.counts().nodes, app.counts().edges, app.undo.stack.count()) == before
    assert wizard.report().count("skipped") == 2 and wizard.report().rollup_ids() == []
    assert "Approved 0 of 2 groups, skipped 2" in wizard.report_page.subTitle()


def test_one_run_of_the_wizard_is_one_undo_step(qtbot, app) -> None:
    wizard = _wizard(qtbot, app)
    _to_groups(qtbot, wizard)
    wizard.next()
    start, nodes = app.undo.stack.count(), app.counts().nodes
    _approve(qtbot, wizard, app)
    assert app.counts().nodes == nodes  # queued: written when the review ends
    _approve(qtbot, wizard, app)
    assert wizard.currentPage() is wizard.report_page
    assert app.undo.stack.count() == start + 1
    assert app.undo.stack.undoText() == "Compact 2 groups"
    made = wizard.report().rollup_ids()
    assert len(made) == 2 and all(app.node(r) is not None for r in made)
    assert wizard.report_page.details.toPlainText().count("✓") == 2
    assert "The 2 rollups are one step in Edit ▸ Undo." in wizard.report_page.subTitle()
    app.undo_last()
    app.runner.wait_idle()
    assert all(app.node(r) is None for r in made) and app.counts().nodes == nodes
    assert app.undo.stack.redoText() == "Compact 2 groups"


def test_stop_and_cancel_write_the_groups_approved_so_far(qtbot, app) -> None:
    wizard = _wizard(qtbot, app)
    _to_groups(qtbot, wizard)
    wizard.next()
    start = app.undo.stack.count()
    _approve(qtbot, wizard, app)
    wizard.next()  # Stop & Report: the approval is written first, then the report shows
    app.runner.wait_idle()
    assert wizard.currentPage() is wizard.report_page
    assert wizard.report().count("approved") == 1 and app.undo.stack.count() == start + 1
    assert "1 not reviewed" in wizard.report_page.subTitle()
    wizard.close()

    again = _wizard(qtbot, app)
    _to_groups(qtbot, again)
    again.next()
    _approve(qtbot, again, app)
    again.reject()  # Cancel keeps what was approved
    app.runner.wait_idle()
    assert app.undo.stack.count() == start + 2
    assert app.undo.stack.undoText().startswith("Compact 3 ")


@pytest.mark.parametrize("leave", ["open another memory", "close the app"])
def test_approvals_are_written_into_their_memory_when_it_is_left(qtbot, app, leave: str) -> None:
    from memgraph_gui.core import MemoryStore

    wizard = _wizard(qtbot, app)
    _to_groups(qtbot, wizard)
    wizard.next()
    _approve(qtbot, wizard, app)  # queued for the run's one write
    path = app.store.path
    if leave == "close the app":
        app.close()
    else:
        app.replace_store(MemoryStore.open(":memory:"))
        assert not wizard.isVisible()
    with MemoryStore.open(path) as reopened:
        labels = [step.label for step in reopened.history.steps()]
    assert any(label.startswith("Compact") for label in labels), labels
    if leave != "close the app":
        assert app.store.path == ":memory:" and not app.store.graph.nodes


def test_a_group_refused_at_the_write_is_reported_and_the_others_are_compacted(qtbot, app) -> None:
    wizard = _wizard(qtbot, app)
    groups = _to_groups(qtbot, wizard)
    first, second = groups.model.checked_groups()
    wizard.next()
    _approve(qtbot, wizard, app)  # queued
    app.store.write_api(origin="other").compact_nodes(
        type="event", child_ids=list(first.child_ids), summary="elsewhere"
    )
    _approve(qtbot, wizard, app)
    assert wizard.currentPage() is wizard.report_page
    report = wizard.report()
    assert [o.status for o in report.outcomes] == ["failed", "approved"]
    assert "already has rollup parent" in report.outcomes[0].message
    assert report.outcomes[1].group == second
    assert app.undo.stack.undoText() == "Compact 3 events"


def test_a_refusal_is_shown_and_the_user_can_skip(qtbot, app) -> None:
    wizard = _wizard(qtbot, app)
    groups = _to_groups(qtbot, wizard)
    first = groups.model.checked_groups()[0]
    wizard.next()
    # another writer rolls the same children up first
    app.store.write_api(origin="other").compact_nodes(
        type="event", child_ids=list(first.child_ids), summary="elsewhere"
    )
    nodes_before = app.counts().nodes
    _approve(qtbot, wizard, app)
    review = wizard.review_page
    assert wizard.currentPage() is review and review.group == first
    assert "already has rollup parent" in review.error.text()
    assert review.approve_button.isEnabled() and review.skip_button.isEnabled()
    assert app.counts().nodes == nodes_before
    review.skip()
    assert review.group != first
    assert wizard.report().count("failed") == 1


def test_an_empty_summary_cannot_be_approved(qtbot, app) -> None:
    wizard = _wizard(qtbot, app)
    _to_groups(qtbot, wizard)
    wizard.next()
    review = wizard.review_page
    review.draft.editor.setPlainText("   ")
    assert not review.approve_button.isEnabled()
    review.approve()
    app.runner.wait_idle()
    assert wizard.report().outcomes == []


def test_no_groups_explains_why(qtbot, compacted_template, tmp_path) -> None:
    import shutil

    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    shutil.copy(compacted_template, tmp_path / "c.memgraph")
    app = AppModel(MemoryStore.open(tmp_path / "c.memgraph"))
    try:
        wizard = _wizard(qtbot, app)
        page = _to_groups(qtbot, wizard)
        assert page.model.rowCount() == 0 and not page.isComplete()
        assert "held back as recent" in page.note.text()
    finally:
        app.runner.wait_idle()
        app.close()


def test_review_dialog_edits_the_summary_and_dissolve_reverses_the_compaction(qtbot, app) -> None:
    from memgraph_gui.app import ops
    from memgraph_gui.views.qt import Qt
    from memgraph_gui.views.wizard import RollupReviewDialog

    group = app.read_api().compaction_candidates(type="event", depth=0).groups[0]
    before = {c: app.node(c).parent_id for c in group.child_ids}
    edges_before = app.counts().edges
    made: list[Any] = []
    ops.compact(app, "event", group.child_ids, SUMMARY, on_done=made.append)
    app.runner.wait_idle()
    rollup_id = made[0]["rollupNodeId"]

    dialog = RollupReviewDialog(app)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.select_rollup(rollup_id)
    assert dialog.current_id == rollup_id
    assert dialog.summary.toPlainText() == SUMMARY
    assert dialog.children_model.rowCount() == 3
    dialog.summary.setPlainText("A shorter summary.")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    app.runner.wait_idle()
    assert app.node(rollup_id).fields["summary"] == "A shorter summary."
    assert app.undo.stack.undoText().startswith("Edit")

    dialog.confirm_dissolve = lambda title, n: True  # type: ignore[method-assign]
    qtbot.mouseClick(dialog.dissolve_button, Qt.MouseButton.LeftButton)
    app.runner.wait_idle()
    assert app.node(rollup_id).archived
    assert {c: app.node(c).parent_id for c in group.child_ids} == before
    assert app.counts().edges == edges_before
    qtbot.waitUntil(lambda: dialog.rollups.row_of(rollup_id) == -1, timeout=2000)


def test_dissolve_asks_first(qtbot, app) -> None:
    from memgraph_gui.views.wizard import RollupReviewDialog

    dialog = RollupReviewDialog(app)
    qtbot.addWidget(dialog)
    dialog.show()
    rollup_id = dialog.current_id
    assert rollup_id and app.node(rollup_id).semantic_rollup
    dialog.confirm_dissolve = lambda title, n: False  # type: ignore[method-assign]
    dialog.dissolve_current()
    app.runner.wait_idle()
    assert not app.node(rollup_id).archived


def test_review_keeps_unsaved_edits_across_a_refresh(qtbot, app) -> None:
    from memgraph_gui.views.wizard import RollupReviewDialog

    dialog = RollupReviewDialog(app)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.summary.setPlainText("typing…")
    app.apply_sync(lambda w: w.create_node(type="event", fields={"summary": "new"}))
    qtbot.wait(20)
    dialog.refresh()
    assert dialog.summary.toPlainText() == "typing…" and dialog.save_button.isEnabled()


def test_actions_open_one_window_each_and_follow_read_only(qtbot, app) -> None:
    from memgraph_gui.views.qt import QWidget
    from memgraph_gui.views.wizard import CompactionActions

    window = QWidget()
    qtbot.addWidget(window)
    actions = CompactionActions(app, window)
    wizard_action, review_action, prefs_action = actions.actions()
    assert wizard_action.isEnabled() and review_action.isEnabled()
    wizard_action.trigger()
    first = actions.wizard
    assert first is not None and first.isVisible()
    wizard_action.trigger()
    assert actions.wizard is first
    review_action.trigger()
    assert actions.review is not None and actions.review.isVisible()
    assert prefs_action.shortcut().toString() or prefs_action.text()
    first.close()
    actions.review.close()


def _instruction_of(app: Any, type_id: str) -> str:
    with app.store.reading() as graph:
        spec = graph.schema.get(type_id)
        return str(spec.compression.get("summarizeInstruction") or "")


def test_the_ai_instruction_is_edited_used_saved_and_undone(qtbot, app) -> None:
    wizard = _wizard(qtbot, app)
    field = wizard.type_page.instruction
    assert field.text() == "" and not field.save_button.isEnabled()
    field.editor.setPlainText("  Keep it under 80 words; name every character.  ")
    assert wizard.instruction() == "Keep it under 80 words; name every character."
    assert _instruction_of(app, "event") == ""  # used for this run, not saved yet
    assert field.save_button.isEnabled()
    field.save_button.click()
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: "Saved" in field.status.text(), timeout=5000)
    assert _instruction_of(app, "event") == "Keep it under 80 words; name every character."
    assert not field.save_button.isEnabled()
    page = _to_groups(qtbot, wizard)
    wizard.next()
    assert page is not wizard.currentPage()
    wizard.review_page.draft.draft_with_ai()  # no endpoint: nothing is sent, the text is kept
    assert wizard.review_page.draft._instruction.startswith("Keep it under 80 words")
    app.undo_last()
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: _instruction_of(app, "event") == "", timeout=5000)


def test_a_refused_instruction_is_explained_and_nothing_is_written(qtbot, app) -> None:
    wizard = _wizard(qtbot, app)
    field = wizard.type_page.instruction
    before = app.store.dump()
    field.editor.setPlainText("word " * 25_000)  # 125,000 characters: over the schema's limit
    field.save_button.click()
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: "Not saved" in field.status.text(), timeout=5000)
    assert (
        "summarizeInstruction" in field.status.text() and "at most 100,000" in field.status.text()
    )
    assert app.store.dump() == before and field.save_button.isEnabled()

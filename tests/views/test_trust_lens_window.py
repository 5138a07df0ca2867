"""The trust lens in the window: View as… turns it on, every pane obeys it (the graph, its
edges and labels, the timeline, the Find box, the inspector and its links), a banner says whose
view this is and one click goes back to the full view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.membrane.trust import TrustContext
from memgraph_gui.views.qt import Qt
from tests.lens_records import put_records, record, secret_texts
from tests.qt_sandbox import window_over
from tests.views.widget_texts import window_texts

MEDIUM = TrustContext("medium", True, "build-agent", ("project-auth",))
RECORDS = [
    record("r-pub", "public", relations=[("knowsPub", "r-high"), ("seesHyper", "r-hyper")]),
    record("r-med", "medium", scope="project-auth", relations=[("usesMed", "r-pub")]),
    record("r-high", "high", relations=[("hintsHigh", "r-pub")]),  # redacted for medium
    record("r-hyper", "hyper", relations=[("hyperRel", "r-pub")]),  # omitted
    record("r-other", "low", scope="elsewhere", kind="entity"),  # omitted: another scope
]
HIDDEN = ("r-high", "r-hyper", "r-other")


@pytest.fixture
def lens_db(tmp_path: Path) -> Path:
    path = tmp_path / "lens.memgraph"
    with MemoryStore.open(path) as store:
        put_records(store, RECORDS)
    return path


@pytest.fixture
def shown(qtbot: Any, lens_db: Path) -> Any:
    app, window = window_over(qtbot, lens_db)
    qtbot.waitUntil(lambda: window.graph_view.scene is not None and window.settled())
    yield app, window
    window.close()
    app.close()


def _secrets(*ids: str) -> list[str]:
    return [t for r in RECORDS if r["id"] in ids for t in secret_texts(r)]


def _view_as(qtbot: Any, window: Any, actor: str, level: str, scopes: str) -> None:
    """Turn the lens on as a person would: View ▸ View as…, fill in the dialog, OK."""
    controls = window.lens_controls
    controls.view_as.trigger()
    dialog = controls.dialog
    assert dialog is not None and dialog.isVisible()
    dialog.actor.setText(actor)
    dialog.level.setCurrentText(level)
    dialog.scopes.setText(scopes)
    dialog.authenticated.setChecked(True)
    app = window._app
    with qtbot.waitSignal(app.lens.changed, timeout=5000):
        dialog.accept()
    qtbot.waitUntil(lambda: app.lens.ready)


def _drawn(window: Any) -> set[str]:
    graph = window.graph_view
    return {graph.scene.ids[r] for r in np.flatnonzero(graph.visible)}


def _edges_drawn(window: Any) -> set[tuple[str, str]]:
    graph = window.graph_view
    scene = graph.scene
    rows = scene.edge_rows(False, graph.visible)
    return {(scene.ids[a], scene.ids[b]) for a, b in rows.tolist()}


def test_view_as_hides_omitted_nodes_and_their_edges_everywhere(qtbot: Any, shown: Any) -> None:
    _app, window = shown
    assert _drawn(window) == {r["id"] for r in RECORDS}
    assert ("r-hyper", "r-pub") in _edges_drawn(window)
    _view_as(qtbot, window, "build-agent", "medium", "project-auth")
    assert _drawn(window) == {"r-pub", "r-med", "r-high"}
    # no edge of an omitted node, none leaving the redacted one; into it from a full one: kept
    assert _edges_drawn(window) == {("r-pub", "r-high"), ("r-med", "r-pub")}
    timeline = window.timeline
    assert {timeline.node_id(i) for i in range(timeline.rowCount())} == {
        "r-pub",
        "r-med",
        "r-high",
    }
    window.find_box.setText("Secret")
    qtbot.waitUntil(lambda: window.graph_view.find_text() != "", timeout=3000)
    assert set(window.graph_view.matches) == {"r-pub", "r-med"}
    qtbot.waitUntil(lambda: timeline.rowCount() == 2, timeout=3000)
    window.find_box.setText("Subjr-hyper")
    qtbot.waitUntil(lambda: timeline.rowCount() == 0, timeout=3000)
    assert window.graph_view.matches == []


def test_redacted_node_in_the_inspector_and_links(qtbot: Any, shown: Any) -> None:
    app, window = shown
    _view_as(qtbot, window, "build-agent", "medium", "project-auth")
    app.selection.select(["r-pub"], source=None)
    inspector = window.inspector
    links = {row.other_id for row in inspector.links.rows}
    assert links == {"r-high", "r-med"}  # not r-hyper
    app.selection.select(["r-high"], source=None)
    qtbot.waitUntil(lambda: inspector._pages.currentWidget() is inspector.redacted)
    assert inspector.redacted.heading.text() == "Redacted for this actor"
    assert inspector.redacted.shown()["id"] == "r-high"
    assert inspector.redacted.shown()["sensitivity"] == "high"
    assert not inspector.archive_action.isEnabled()
    texts = "\n".join(window_texts(window))
    for secret in _secrets(*HIDDEN):
        assert secret not in texts
    assert "r-high · semantic · redacted" in texts  # its graph label and timeline title


def test_banner_and_one_click_back(qtbot: Any, shown: Any) -> None:
    app, window = shown
    banner = window.lens_controls.banner
    assert not banner.isVisible()
    _view_as(qtbot, window, "build-agent", "medium", "project-auth")
    assert banner.isVisible()
    assert banner.text.text() == (
        "Viewing as build-agent — up to medium, scopes project-auth (authenticated)"
    )
    assert banner.y() < window.find_box.parentWidget().y()  # above the find bar
    qtbot.mouseClick(banner.back, Qt.MouseButton.LeftButton)
    assert not banner.isVisible()
    assert not app.lens.on
    assert _drawn(window) == {r["id"] for r in RECORDS}
    assert window.timeline.rowCount() == len(RECORDS)


def test_the_lens_is_remembered_for_the_store(qtbot: Any, lens_db: Path) -> None:
    app, window = window_over(qtbot, lens_db)
    qtbot.waitUntil(lambda: window.graph_view.scene is not None and window.settled())
    _view_as(qtbot, window, "build-agent", "medium", "project-auth")
    window.close()
    app.close()
    again, window = window_over(qtbot, lens_db)
    assert again.lens.trust == MEDIUM
    qtbot.waitUntil(lambda: again.lens.ready and window.lens_controls.banner.isVisible())
    qtbot.waitUntil(lambda: window.graph_view.scene is not None and window.settled())
    assert _drawn(window) == {"r-pub", "r-med", "r-high"}
    window.close()
    again.close()


def test_the_link_picker_finds_only_what_the_actor_reads_in_full(qtbot: Any, shown: Any) -> None:
    _app, window = shown
    found = {n.id for n in window.inspector._find_targets("Payloadr-otherName")}
    assert found == {"r-other"}  # an entity found by its name in the full view
    _view_as(qtbot, window, "build-agent", "medium", "project-auth")
    assert window.inspector._find_targets("Payloadr-otherName") == []
    assert {n.id for n in window.inspector._find_targets("r-high")} <= {"r-high"}


def test_typing_stays_when_another_node_changes_tier(qtbot: Any, shown: Any) -> None:
    from memgraph_gui.core.membrane.trust import TrustContext as Trust
    from tests.lens_records import set_sensitivity

    app, window = shown
    window.lens_controls.look_as(Trust("medium"))
    qtbot.waitUntil(lambda: app.lens.ready)
    app.selection.select(["r-pub"], source=None)
    title = window.inspector.header.title
    title.restore_draft(title.baseline, "typed but not saved")  # typed, not saved
    with qtbot.waitSignal(app.lens.changed, timeout=5000):
        set_sensitivity(app.store, "r-med", "hyper")  # another node leaves the view
    assert "r-med" not in _drawn(window)
    assert window.inspector.node_id == "r-pub"
    assert title.draft() == "typed but not saved"


def test_the_banner_has_its_own_row_whatever_layout_was_saved(qtbot: Any, lens_db: Path) -> None:
    """A window state saved with the banner in the find bar's row (a layout saved before the
    banner had its row) squeezed the Find box to a few characters when the lens came on."""
    app, window = window_over(qtbot, lens_db)
    window.removeToolBarBreak(window.find_box.parentWidget())  # banner and find bar: one row
    window.close()  # saves the window's state
    app.close()
    again, window = window_over(qtbot, lens_db)
    qtbot.waitUntil(lambda: window.graph_view.scene is not None and window.settled())
    _view_as(qtbot, window, "build-agent", "medium", "")
    find_bar = window.find_box.parentWidget()
    assert window.lens_controls.banner.y() < find_bar.y()
    assert window.lens_controls.banner.text.text().startswith(
        "Viewing as build-agent — up to medium, every scope"
    )
    window.close()
    again.close()


def test_leaving_a_redacted_node_asks_nothing_and_writes_nothing(qtbot: Any, shown: Any) -> None:
    """A redacted node's editors hold nothing a person typed: leaving it must not ask to save
    (a Save there wrote "r-high · semantic · redacted" as the record's title), whatever
    changed meanwhile."""
    app, window = shown
    inspector = window.inspector
    _view_as(qtbot, window, "build-agent", "medium", "project-auth")  # before anything is shown
    app.selection.select(["r-high"], source=None)
    qtbot.waitUntil(lambda: inspector._pages.currentWidget() is inspector.redacted)
    assert not inspector.has_unsaved_edits(), inspector.unsaved_summary()
    with MemoryStore.open(app.store.path, origin="agent") as other:  # another writer meanwhile
        other.membrane().set_attributes("r-med", {"sensitivity": "hyper"})  # now omitted
        other.membrane().set_attributes("r-high", {"salience": 0.3})
    qtbot.waitUntil(lambda: app.node("r-high") is not None and app.lens.ready)
    qtbot.wait(300)
    assert not inspector.has_unsaved_edits(), inspector.unsaved_summary()
    app.selection.select(["r-pub"], source=None)
    assert not inspector.has_unsaved_edits(), inspector.unsaved_summary()
    with MemoryStore.open(app.store.path) as fresh:
        assert fresh.read_api().get_node("r-high").title != "r-high · semantic · redacted"


def test_the_status_bar_counts_what_the_actor_sees(qtbot: Any, shown: Any) -> None:
    app, window = shown
    counts = window.status.counts
    assert counts.text().startswith(f"{len(RECORDS)} nodes")
    _view_as(qtbot, window, "build-agent", "medium", "project-auth")
    shown_count = len(RECORDS) - len(app.lens.omitted)
    qtbot.waitUntil(lambda: counts.text() == f"{shown_count} of {len(RECORDS)} nodes shown")
    assert 0 < shown_count < len(RECORDS)
    qtbot.mouseClick(window.lens_controls.banner.back, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: counts.text().startswith(f"{len(RECORDS)} nodes ·"))

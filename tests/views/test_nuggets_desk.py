"""The desk for a Nuggets memory: notes read well in the timeline and on the graph, the nugget is
a facet of both (kept in step with other writers), hidden notes are faded and come back through
Nuggets' own write path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.qt_sandbox import app_over_copy


@pytest.fixture(scope="module")
def nuggets_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Nuggets demo (300 notes of astra and webshop) with a saved layout."""
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.demo.nuggets import load_nuggets_demo
    from memgraph_gui.core.layout import compute_layout

    path = tmp_path_factory.mktemp("nuggets") / "nuggets.memgraph"
    with MemoryStore.open(path) as store:
        load_nuggets_demo(store, 300, seed=5)
        inp = store.layout_input()
        store.save_positions(inp.ids, compute_layout(inp, seconds=1.0))
    return path


@pytest.fixture
def app(nuggets_template: Path, tmp_path: Path) -> Iterator[Any]:
    yield from app_over_copy(nuggets_template, tmp_path)


def _notes(app: Any, nugget: str | None = None, hidden: bool | None = None) -> list[Any]:
    graph = app.store.graph
    return [
        n
        for n in graph.nodes.values()
        if (nugget is None or n.fields.get("nuggetName") == nugget)
        and (hidden is None or n.archived == hidden)
    ]


def _panel(app: Any, qtbot: Any) -> Any:
    from memgraph_gui.views.timeline.panel import TimelinePanel

    panel = TimelinePanel(app)
    qtbot.addWidget(panel)
    panel.resize(520, 700)
    panel.show()
    return panel


def _row_cells(model: Any, node_id: str) -> list[Any]:
    row = model.row_of(node_id)
    assert row is not None
    return [model.index(row, c).data() for c in range(model.columnCount())]


def test_timeline_rows_of_notes_read_well(app: Any, qtbot: Any) -> None:
    from PySide6.QtCore import Qt

    from memgraph_gui.views.theme import ARCHIVED_COLOR

    model = _panel(app, qtbot).model
    fact = next(n for n in _notes(app, "astra", False) if n.type == "fact")
    seq, _badges, kind, title, content = _row_cells(model, fact.id)
    assert (seq, kind, title) == (str(fact.seq_to), "fact · astra", fact.fields["sourceKey"])
    assert content == " ".join(fact.fields["content"].split())  # the value, not the JSON
    tip = model.index(model.row_of(fact.id), 3).data(Qt.ItemDataRole.ToolTipRole)
    assert f"{fact.fields['scope']} / {fact.fields['type']}" in tip and "astra" in tip
    hidden = _notes(app, None, True)[0]
    row = model.row_of(hidden.id)
    assert model.index(row, 2).data().endswith("(hidden)")
    assert model.index(row, 3).data(Qt.ItemDataRole.ForegroundRole).name() == ARCHIVED_COLOR
    assert model.index(row, 3).data(Qt.ItemDataRole.FontRole).italic()
    # one row per note, in creation order (no header rows between them)
    assert model.rowCount() == len(app.store.graph.nodes)
    seqs = [int(model.index(r, 0).data()) for r in range(model.rowCount())]
    assert seqs == list(range(1, len(seqs) + 1))


def test_timeline_filters_by_nugget(app: Any, qtbot: Any) -> None:
    panel = _panel(app, qtbot)
    combo, model = panel.filters.nugget, panel.model
    assert combo.isVisible() and combo.nuggets() == ["astra", "webshop"]
    assert combo.current() is None and model.rowCount() == len(_notes(app))
    combo.choose("webshop")
    web = {n.id for n in _notes(app, "webshop")}
    qtbot.waitUntil(lambda: model.rowCount() == len(web), timeout=2000)
    assert {model.node_id(r) for r in range(model.rowCount())} == web
    assert "clear filter" in panel.shown_note.text()
    panel.clear_filter()
    assert combo.current() is None and model.rowCount() == len(_notes(app))


def test_a_luker_memory_shows_no_nugget_filter(demo_app: Any, qtbot: Any) -> None:
    panel = _panel(demo_app, qtbot)
    assert not panel.filters.nugget.isVisible() and demo_app.nuggets() == []
    assert not panel.table.isColumnHidden(1)  # its Injected column stays


def test_a_memory_of_notes_only_has_no_injected_column(app: Any, qtbot: Any) -> None:
    assert _panel(app, qtbot).table.isColumnHidden(1)


def test_a_new_nugget_from_another_writer_is_offered(app: Any, qtbot: Any, agent: Any) -> None:
    from memgraph_gui.views.graph import GraphView

    panel = _panel(app, qtbot)
    graph = GraphView(app)
    qtbot.addWidget(graph)
    graph.show()
    panel.filters.nugget.choose("astra")
    agent.nuggets("zeta").remember("user:pref:tea", "green")
    for combo in (panel.filters.nugget, graph.nugget_combo):
        qtbot.waitUntil(lambda c=combo: "zeta" in c.nuggets(), timeout=3000)
    assert panel.filters.nugget.current() == "astra"  # the pick stays


def test_graph_draws_one_nugget_and_labels_notes(app: Any, qtbot: Any) -> None:
    from memgraph_gui.views.graph import GraphView

    view = GraphView(app)
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.scene is not None and view.scene.n > 0, timeout=5000)
    scene = view.scene
    assert view.nugget_combo.isVisible()
    alive = int(view.visible.sum())
    view.nugget_combo.choose("astra")
    astra = {n.id for n in _notes(app, "astra", False)}
    drawn = {scene.ids[r] for r in np.flatnonzero(view.visible)}
    assert drawn == astra and len(drawn) < alive
    both = view.visible[scene.edges[:, 0]] & view.visible[scene.edges[:, 1]]
    assert 0 < view.edges.segments(False) == int(both.sum()) < len(scene.edges)
    view.nugget_combo.choose(None)
    assert int(view.visible.sum()) == alive
    fact = next(n for n in _notes(app, "astra", False) if n.type == "fact")
    value = " ".join(fact.fields["content"].split())
    assert view._label_of(fact.id).startswith(f"{fact.title} = {value[:20]}"[:36].rstrip("…"))
    hover = view._hover_of(fact.id)
    assert hover.startswith(fact.title) and "fact · astra" in hover
    assert f"{fact.fields['scope']} / {fact.fields['type']}" in hover


def test_a_hidden_note_is_restored_through_nuggets(app: Any, qtbot: Any) -> None:
    panel = _panel(app, qtbot)
    hidden = next(n for n in _notes(app, None, True) if "archivedAt" in n.fields)
    app.selection.select([hidden.id])
    menu = panel.context_menu()
    assert menu is not None
    action = menu.actions()[0]
    assert action.text() == "Restore"
    action.trigger()
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: not app.node(hidden.id).archived, timeout=3000)
    note = app.store.nuggets(hidden.fields["nuggetName"]).get_note(hidden.id)
    assert note["hidden"] is False and "archivedAt" not in note  # Nuggets' updateNote
    assert note["updatedAt"] > hidden.fields["updatedAt"]
    assert app.undo.stack.undoText() == f"Update '{hidden.title}'"
    row = panel.model.row_of(hidden.id)
    assert not panel.model.index(row, 2).data().endswith("(hidden)")
    app.undo_last()
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: app.node(hidden.id).archived, timeout=3000)
    assert "archivedAt" in app.node(hidden.id).fields


def test_archive_of_a_note_hides_it_through_nuggets(app: Any, qtbot: Any) -> None:
    from memgraph_gui.app import ops

    note = next(n for n in _notes(app, "webshop", False) if n.type == "note")
    ops.archive_node(app, note.id)
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: app.node(note.id).archived, timeout=3000)
    stored = app.store.nuggets("webshop").get_note(note.id)
    assert stored["hidden"] and stored["archivedAt"] == stored["updatedAt"]
    assert stored["links"] == list(note.fields["links"])  # soft: links kept

"""The timeline dock: incremental updates, filters, badges, selection sync."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture
def panel(qtbot, demo_template: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.timeline.panel import TimelinePanel

    path = tmp_path / "d.memgraph"
    shutil.copy(demo_template, path)
    app = AppModel(MemoryStore.open(path))
    widget = TimelinePanel(app)
    qtbot.addWidget(widget)
    yield app, widget
    widget.close()
    app.close()


def _signals(model):  # type: ignore[no-untyped-def]
    seen: dict[str, list[object]] = {"reset": [], "changed": [], "inserted": [], "removed": []}
    model.modelReset.connect(lambda: seen["reset"].append(1))
    model.dataChanged.connect(lambda a, b, *_: seen["changed"].append((a.row(), b.row())))
    model.rowsInserted.connect(lambda _p, a, b: seen["inserted"].append((a, b)))
    model.rowsRemoved.connect(lambda _p, a, b: seen["removed"].append((a, b)))
    return seen


def test_an_edit_refreshes_one_row_without_a_reset(qtbot, panel) -> None:  # type: ignore[no-untyped-def]
    from memgraph_gui.app import ops

    app, widget = panel
    model = widget.model
    node_id = model.node_id(10)
    seen = _signals(model)
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        ops.edit_node(app, node_id, title="Renamed 改名")
    # an edit stamps the node with the current seq (Luker's editNode), so it may move down
    assert seen["reset"] == []
    assert seen["changed"] == [(10, 10)] or (
        seen["removed"] == [(10, 10)] and len(seen["inserted"]) == 1
    )
    assert [model.node_id(r) for r in range(model.rowCount())] == app.timeline_ids()
    assert model.index(model.row_of(node_id), 3).data() == "Renamed 改名"


def test_nodes_from_another_process_are_inserted_in_timeline_order(qtbot, panel) -> None:  # type: ignore[no-untyped-def]
    from tests.core.processes import memgraph

    app, widget = panel
    model = widget.model
    seen = _signals(model)
    rows = model.rowCount()
    done = memgraph(
        "--db",
        app.path,
        "call",
        "createNode",
        '[{"type": "location_state", "title": "新的码头 Dock 77"}]',
    )
    assert done.returncode == 0, done.stdout + done.stderr
    qtbot.waitUntil(lambda: model.rowCount() == rows + 1, timeout=5000)
    assert seen["reset"] == [] and len(seen["inserted"]) == 1
    row = seen["inserted"][0][0]
    ids = [model.node_id(r) for r in range(model.rowCount())]
    assert ids == app.timeline_ids() and model.index(row, 3).data() == "新的码头 Dock 77"


def test_filters_by_type_archived_text_and_seq(qtbot, panel) -> None:  # type: ignore[no-untyped-def]
    from memgraph_gui.views.timeline.filters import TimelineFilter

    app, widget = panel
    model = widget.model
    nodes = [app.node(i) for i in app.timeline_ids()]
    model.set_filter(TimelineFilter(types=frozenset({"character_sheet"})))
    assert model.rowCount() == sum(n.type == "character_sheet" for n in nodes) > 0
    model.set_filter(TimelineFilter(archived="archived"))
    assert model.rowCount() == sum(n.archived for n in nodes)
    word = next(n.title for n in nodes if n.title)[:2]
    model.set_filter(TimelineFilter(text=word))
    assert model.rowCount() == len(app.matching_ids(word)) > 0
    seqs = sorted(n.seq_to for n in nodes)
    low, high = seqs[len(seqs) // 4], seqs[len(seqs) // 2]
    model.set_filter(TimelineFilter(seq_min=low, seq_max=high))
    assert model.rowCount() == sum(low <= n.seq_to <= high for n in nodes)


def test_the_filter_bar_drives_the_model(qtbot, panel) -> None:  # type: ignore[no-untyped-def]
    app, widget = panel
    actions = widget.filters.types.menu().actions()
    for action in actions:
        action.setChecked(action.text() == "location_state")
    expected = sum(app.node(i).type == "location_state" for i in app.timeline_ids())
    qtbot.waitUntil(lambda: widget.model.rowCount() == expected, timeout=3000)
    assert "1 of" in widget.filters.types.text()


def test_selection_is_shared_both_ways(qtbot, panel) -> None:  # type: ignore[no-untyped-def]
    app, widget = panel
    model = widget.model
    widget.table.selectRow(5)
    assert app.selection.current == model.node_id(5)
    other = model.node_id(40)
    app.selection.select([other], source="graph")
    rows = [i.row() for i in widget.table.selectionModel().selectedRows()]
    assert rows == [40]


def test_injection_badges_follow_the_state(qtbot, panel) -> None:  # type: ignore[no-untyped-def]
    app, widget = panel
    model = widget.model
    a, b = model.node_id(0), model.node_id(1)
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        app.store.write_api().set_injection_state(
            {"alwaysInjectIds": [a], "recallSelectedIds": [b], "visibleIds": [a, b]}
        )
    assert model.index(0, 1).data() == "◆○" and model.index(1, 1).data() == "★○"


def test_editing_the_selected_node_keeps_it_selected(qtbot, panel) -> None:  # type: ignore[no-untyped-def]
    """An edit stamps the node with the current seq, so its row moves; the shared selection
    must survive the move (the table's own selection follows removed rows and would clear it)."""
    app, widget = panel
    model = widget.model
    node_id = model.node_id(3)
    widget.table.selectRow(3)
    assert app.selection.current == node_id
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        app.store.write_api(origin="agent").edit_node(id=node_id, title="Moved by an agent")
    qtbot.waitUntil(lambda: model.row_of(node_id) != 3, timeout=3000)
    assert app.selection.ids == {node_id} and app.selection.current == node_id
    qtbot.waitUntil(
        lambda: (
            [i.row() for i in widget.table.selectionModel().selectedRows()]
            == [model.row_of(node_id)]
        ),
        timeout=3000,
    )

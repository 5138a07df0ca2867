"""GraphView on a real AppModel over a copy of the demo: selection sync, live injection from
another process, search fade, edge toggles, focus, pin by drag with undo, labels, external
node additions. Asserts on model state and item arrays, never pixels."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph_gui.app.overview import ALL
from tests.qt_sandbox import app_over_copy

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def laid_out_template(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 600-node demo with a saved layout (so views open without running one)."""
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.layout import compute_layout

    path = tmp_path_factory.mktemp("graph") / "laid-out.memgraph"
    shutil.copy(demo_template, path)
    with MemoryStore.open(path) as store:
        inp = store.layout_input()
        store.save_positions(inp.ids, compute_layout(inp, seconds=2.0))
    return path


@pytest.fixture
def app(laid_out_template: Path, tmp_path: Path) -> Iterator[Any]:
    yield from app_over_copy(laid_out_template, tmp_path)


def shown_view(app: Any, qtbot: Any, level: int | None = None) -> Any:
    """A ``GraphView`` over ``app``, shown at 900x700 and fitted (at ``level`` if given)."""
    from memgraph_gui.views.graph import GraphView

    widget = GraphView(app)
    qtbot.addWidget(widget)
    widget.resize(900, 700)
    widget.show()
    qtbot.waitExposed(widget)
    if level is not None:
        widget.show_level(level)
    widget.fit()
    return widget


@pytest.fixture
def view(app: Any, qtbot: Any) -> Any:
    widget = shown_view(app, qtbot, ALL)  # every node as itself (the overview: own tests)
    yield widget
    widget.shutdown()


def drawn_edges(scene: Any, shown: np.ndarray | None = None) -> int:
    """Edges the view draws with every node shown (or the ``shown`` rows): a ``contains`` /
    ``semantic_contains`` twin pair once."""
    edges, hierarchy = scene.edges, scene.hierarchy
    if shown is not None:
        both = shown[edges[:, 0]] & shown[edges[:, 1]]
        edges, hierarchy = edges[both], hierarchy[both]
    tree = edges[hierarchy]
    pairs = {(min(a, b), max(a, b)) for a, b in tree.tolist()}
    return len(pairs) + int((~hierarchy).sum())


def _cli(db: Path, *args: str) -> Any:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "memgraph_gui.cli", "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else None


def _viewport_point(view: Any, row: int) -> Any:
    from memgraph_gui.views.qt import QtCore

    x, y = view.scene.pos[row]
    scene_pt = view.view.mapViewToScene(QtCore.QPointF(float(x), float(y)))
    return view.plot.mapFromScene(scene_pt)


def _lonely_row(view: Any) -> int:
    """A row whose nearest neighbour is far away on screen (so a click can't be ambiguous)."""
    pos = view.scene.pos
    d2 = ((pos[:, None, :] - pos[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(d2, np.inf)
    return int(np.argmax(d2.min(axis=1)))


def test_opening_a_laid_out_store_draws_at_once_without_a_layout(view: Any, app: Any) -> None:
    assert view.scene.n == sum(1 for n in app.store.graph.nodes.values() if not n.archived)
    assert view.scene.placed.all() and not view.layout_job.running
    x, y = view.nodes.getData()
    assert np.allclose(np.c_[x, y], view.scene.pos)
    assert view.edges.count() == drawn_edges(view.scene)


def test_click_selects_and_the_selection_overlay_follows(view: Any, app: Any, qtbot: Any) -> None:
    from memgraph_gui.views.qt import Qt

    row = _lonely_row(view)
    qtbot.mouseClick(
        view.plot.viewport(), Qt.MouseButton.LeftButton, pos=_viewport_point(view, row)
    )
    node_id = view.scene.ids[row]
    assert app.selection.ids == {node_id} and app.selection.current == node_id
    assert view.selection.rows == {row}


def test_a_selection_made_elsewhere_moves_the_overlay_and_reveals_the_node(
    view: Any, app: Any
) -> None:
    other = object()
    target = view.scene.ids[5]
    view.view.setRange(xRange=(1e6, 1e6 + 1), yRange=(1e6, 1e6 + 1), padding=0)
    app.selection.select([target, view.scene.ids[7]], current=target, source=other)
    assert view.selection.rows == {5, 7}
    (x0, x1), (y0, y1) = view.view.viewRange()
    x, y = view.scene.pos[5]
    assert x0 <= x <= x1 and y0 <= y <= y1
    app.selection.clear(source=other)
    assert view.selection.rows == set()


def test_injection_set_by_another_process_changes_the_overlay(
    view: Any, app: Any, qtbot: Any
) -> None:
    chosen = [view.scene.ids[i] for i in (3, 30, 300)]
    before = view.injection.rows("recall")
    assert before != {3, 30, 300}
    state = json.dumps([{"recallSelectedIds": chosen, "alwaysInjectIds": [], "visibleIds": []}])
    _cli(Path(app.path), "call", "setInjectionState", state)
    qtbot.waitUntil(lambda: view.injection.rows("recall") == {3, 30, 300}, timeout=5000)
    assert view.injection.rows("always") == set()
    x, y = view.injection.rings["recall"].item.getData()
    assert np.allclose(np.c_[x, y], view.scene.pos[view.injection.rings["recall"].rows])


def test_search_fades_the_nodes_that_do_not_match(view: Any, app: Any, qtbot: Any) -> None:
    title = app.node(view.scene.ids[10]).title
    view.set_search(title)
    qtbot.waitUntil(lambda: view.search_mask is not None, timeout=2000)
    alphas = np.array([b.color().alpha() for b in view.nodes.data["brush"]])
    assert alphas[10] == 255
    assert (alphas[~view.search_mask] < 255).all() and (~view.search_mask).sum() > 100
    assert view.nodes.data["visible"].all()  # faded, never hidden
    view.set_search("")
    qtbot.waitUntil(lambda: view.search_mask is None, timeout=2000)
    assert all(b.color().alpha() == 255 for b in view.nodes.data["brush"])


def test_the_fast_styling_matches_pyqtgraphs_own(view: Any, qtbot: Any) -> None:
    """Every spot gets the atlas cell pyqtgraph's per-spot ``updateSpots`` would give it."""
    view.set_search(view._app.node(view.scene.ids[10]).title)
    qtbot.waitUntil(lambda: view.search_mask is not None, timeout=2000)
    data = view.nodes.data
    ours = data["sourceRect"].copy()
    assert (ours["w"] > 0).all()
    data["sourceRect"] = 0
    view.nodes.updateSpots()
    assert np.array_equal(data["sourceRect"], ours)


def test_edge_toggles_hide_each_style_separately(view: Any) -> None:
    edges = view.edges
    assert edges.drawn(True) and edges.drawn(False)
    view.graph_actions.show_hierarchy.setChecked(False)
    assert not edges.drawn(True) and edges.drawn(False)
    view.graph_actions.show_relations.setChecked(False)
    assert not edges.drawn(False)
    view.graph_actions.show_hierarchy.setChecked(True)
    assert edges.drawn(True) and not edges.drawn(False)
    tree = view.scene.edges[view.scene.hierarchy]
    pairs = {(min(a, b), max(a, b)) for a, b in tree.tolist()}  # a contains twin drawn once
    assert edges.segments(True) == len(pairs) < len(tree)
    assert edges.segments(False) == len(view.scene.edges) - len(tree)


def test_focus_shows_exactly_the_k_hop_neighbourhood(view: Any, app: Any) -> None:
    import networkx as nx

    scene = view.scene
    graph = nx.Graph()
    graph.add_nodes_from(range(scene.n))
    graph.add_edges_from(scene.edges.tolist())
    seed = int(np.argmax(scene.degree < 4))
    app.selection.select([scene.ids[seed]], source=object())
    view.set_hops(1)
    view.graph_actions.focus.setChecked(True)
    expected = set(nx.single_source_shortest_path_length(graph, seed, cutoff=1))
    assert set(np.flatnonzero(view.nodes.data["visible"])) == expected
    view.set_hops(2)
    expected = set(nx.single_source_shortest_path_length(graph, seed, cutoff=2))
    assert set(np.flatnonzero(view.visible)) == expected
    assert view.edges.count() == sum(1 for a, b in scene.edges if a in expected and b in expected)
    view.graph_actions.focus.setChecked(False)
    assert view.nodes.data["visible"].all()


def test_drag_pins_the_node_in_one_undo_step_and_undo_puts_it_back(
    view: Any, app: Any, qtbot: Any
) -> None:
    from PySide6 import QtTest

    from memgraph_gui.views.qt import Qt, QtCore

    row = _lonely_row(view)
    node_id, start = view.scene.ids[row], view.scene.pos[row].copy()
    depth = app.undo.stack.index()
    viewport = view.plot.viewport()
    a = _viewport_point(view, row)
    b = a + QtCore.QPoint(60, 40)
    QtTest.QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=a)
    for step in range(1, 7):
        QtTest.QTest.mouseMove(viewport, a + (b - a) * step / 6)
    QtTest.QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=b)
    moved = view.scene.pos[row].copy()
    assert np.linalg.norm(moved - start) > 0
    # the user grabs it again before the pin's echo arrives: the echo must not yank it back
    later = moved + 0.5
    view._on_node_dragged(row, float(later[0]), float(later[1]), False)
    with qtbot.waitSignal(app.changes_applied, timeout=5000):
        app.runner.wait_idle()
    assert np.allclose(app.store.pins()[node_id], moved)
    assert app.undo.stack.index() == depth + 1
    assert "Pin" in app.undo.stack.undoText()
    qtbot.wait(50)
    assert np.allclose(view.scene.pos[row], later)
    view.scene.pos[row] = moved  # (that second drag is abandoned)
    view._set_moving("drag", False)
    app.undo_last()
    qtbot.waitUntil(lambda: np.allclose(view.scene.pos[row], start), timeout=5000)
    assert node_id not in app.store.pins() and not view.scene.pinned[row]


def test_labels_only_when_zoomed_in_and_only_for_nodes_in_view(view: Any, qtbot: Any) -> None:
    from memgraph_gui.views.graph.labels import LABEL_LIMIT

    view.fit()
    qtbot.wait(120)
    assert view.labels.shown == 0  # 600 nodes in view: too many
    x, y = view.scene.pos[_lonely_row(view)]
    view.view.setRange(xRange=(x - 1.5, x + 1.5), yRange=(y - 1.5, y + 1.5), padding=0)
    qtbot.waitUntil(lambda: view.labels.shown > 0, timeout=2000)
    (x0, x1), (y0, y1) = view.view.viewRange()
    rows = view.labels.rows
    assert len(rows) <= LABEL_LIMIT
    inside = view.scene.in_rect(x0, y0, x1, y1)
    hidden = view._under_legend()  # a node under the legend is not labelled
    clear = inside if hidden is None else inside & ~view.scene.in_rect(*hidden)
    assert inside[rows].all() and len(rows) == clear.sum()
    titles = {view._label_of(view.scene.ids[r])[:20] for r in rows}
    assert {t[:20] for t in view.labels.texts()} <= {t[:20] for t in titles} | {
        t[:19] for t in titles
    }
    view.fit()
    qtbot.waitUntil(lambda: view.labels.shown == 0, timeout=2000)


def test_nodes_added_by_another_process_appear_and_get_a_position(
    view: Any, app: Any, qtbot: Any
) -> None:
    anchor = view.scene.ids[0]
    before, scene = view.scene.n, view.scene
    op = {
        "type": "event",
        "title": "A stranger arrives",
        "fields": {"summary": "Someone new"},
        "links": [{"target": {"id": anchor}, "relation": "related"}],
    }
    created = _cli(Path(app.path), "call", "createNode", json.dumps([op]))
    new_id = created["result"]["id"]
    qtbot.waitUntil(lambda: view.scene.n == before + 1, timeout=5000)
    row = view.scene.index[new_id]
    assert view.scene is scene  # appended, not rebuilt
    assert np.isfinite(view.scene.pos[row]).all()
    assert len(view.nodes.data) == before + 1 and view.nodes.data["data"][row] == new_id
    assert view.scene.degree[row] >= 1 and view.scene.degree[view.scene.index[anchor]] >= 1
    assert view.edges.count() == drawn_edges(view.scene)
    assert anchor in view.scene.index
    qtbot.waitUntil(lambda: not view.layout_job.running, timeout=15000)
    app.runner.wait_idle()
    assert view.scene.ids[row] in app.store.positions()


def _move(widget: Any, point: Any) -> None:
    """A plain mouse move (no button) delivered to ``widget``."""
    from memgraph_gui.views.qt import QApplication, Qt, QtCore, QtGui

    local = QtCore.QPointF(point)
    event = QtGui.QMouseEvent(
        QtCore.QEvent.Type.MouseMove,
        local,
        QtCore.QPointF(widget.mapToGlobal(point)),
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, event)


def test_hover_names_the_node_under_the_pointer(view: Any, qtbot: Any) -> None:
    from memgraph_gui.views.qt import QtCore

    row = _lonely_row(view)
    viewport = view.plot.viewport()
    _move(viewport, _viewport_point(view, row))
    qtbot.waitUntil(lambda: view.hovered_id == view.scene.ids[row], timeout=2000)
    qtbot.wait(60)  # pyqtgraph drops moves closer than its rate limit
    _move(viewport, QtCore.QPoint(2, 2))  # a corner: the fit leaves a margin there
    qtbot.waitUntil(lambda: view.hovered_id is None, timeout=2000)


def test_a_store_without_positions_is_laid_out_streamed_and_saved(
    demo_template: Path, tmp_path: Path, qtbot: Any
) -> None:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.graph import GraphView

    target = tmp_path / "fresh.memgraph"
    shutil.copy(demo_template, target)
    app = AppModel(MemoryStore.open(target))
    assert app.store.positions() == {}
    view = GraphView(app)
    qtbot.addWidget(view)
    stages: list[str] = []
    view.layout_job.frame_ready.connect(lambda update: stages.append(update.stage))
    assert view.scene is not None and not view.scene.placed.any()  # shown at once, unplaced,
    assert not view.layout_job.running  # and laid out once painted (LAYOUT_AFTER_SHOW_MS)
    with qtbot.waitSignal(view.layout_job.saved, timeout=30000):  # laid out once painted
        pass
    assert stages[0] == "overview" and stages[-1] == "done"  # the overview laid out first
    saved = app.store.positions()
    assert set(saved) == set(view.scene.ids)
    assert np.allclose([saved[i] for i in view.scene.ids], view.scene.pos)
    x, y = view.nodes.getData()
    assert np.allclose(np.c_[x, y], view.scene.pos)  # moved in place to the last frame
    assert view.edges.drawn(True) and "layout" not in view._moving
    view.shutdown()
    app.close()


def test_a_big_graph_without_positions_shows_its_edges_once_laid_out(
    demo_template: Path, tmp_path: Path, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Edges from provisional spots are long lines through the whole picture (seconds to
    paint at 50k): on a big graph they wait for the layout."""
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.graph import GraphView

    monkeypatch.setattr("memgraph_gui.views.graph.view.EDGE_LIVE_LIMIT", 10)  # "big" here
    target = tmp_path / "fresh.memgraph"
    shutil.copy(demo_template, target)
    app = AppModel(MemoryStore.open(target))
    view = GraphView(app)
    qtbot.addWidget(view)
    view.show_level(ALL)
    assert not view.scene.placed.all() and view.edges.suspended
    assert not view.edges.drawn(True)
    with qtbot.waitSignal(view.layout_job.saved, timeout=30000):
        pass
    assert not view.edges.suspended and view.edges.drawn(True)
    view.shutdown()
    app.close()


def test_a_node_archived_by_another_process_disappears(view: Any, app: Any, qtbot: Any) -> None:
    victim = view.scene.ids[-1]
    row = view.scene.index[victim]
    kept = view.scene.alive.copy()
    kept[row] = False
    expected = drawn_edges(view.scene, kept)
    _cli(Path(app.path), "call", "deleteNode", json.dumps([{"id": victim}]))  # archives it
    qtbot.waitUntil(lambda: not view.visible[row], timeout=5000)  # hidden in place, no reload
    assert not view.nodes.data["visible"][row]
    assert view.edges.count() == expected  # its edges are not drawn
    assert not view.layout_job.running  # every remaining node kept its position
    _cli(Path(app.path), "call", "restoreNode", json.dumps([{"id": victim}]))
    qtbot.waitUntil(lambda: bool(view.visible[row]), timeout=5000)


def test_a_removed_link_is_dropped_in_place(view: Any, app: Any, qtbot: Any) -> None:
    from memgraph_gui.app import ops

    scene = view.scene
    a, b = (int(r) for r in scene.edge_rows(False)[0])
    source, target = scene.ids[a], scene.ids[b]
    edge = next(e for e in app.edges_of(source) if {e.from_id, e.to_id} == {source, target})
    before = view.edges.count()
    ops.remove_link(app, edge.from_id, edge.to_id, edge.type)
    qtbot.waitUntil(lambda: view.edges.count() < before, timeout=5000)
    assert view.scene is scene  # no reload: the same scene, one edge fewer (or two, if symmetric)
    assert before - view.edges.count() in (1, 2)
    app.undo_last()
    qtbot.waitUntil(lambda: view.edges.count() == before, timeout=5000)


def test_a_node_grows_with_its_links_and_shrinks_when_they_go(
    view: Any, app: Any, qtbot: Any
) -> None:
    scene = view.scene
    row = int(np.argmin(scene.degree))  # a node with few links, so more of them show
    node_id, before = scene.ids[row], float(scene.sizes[row])
    others = [i for i in scene.ids if i != node_id][:40]
    links = [{"target": {"id": i}, "relation": "mentions", "direction": "outgoing"} for i in others]
    _cli(
        Path(app.path),
        "call",
        "upsertLinks",
        json.dumps([{"source": {"id": node_id}, "links": links}]),
    )
    qtbot.waitUntil(lambda: view.scene.degree[row] >= 40, timeout=5000)
    assert view.scene is scene  # in place, no reload
    grown = float(scene.sizes[row])
    assert grown > before and view.nodes.data["size"][row] == grown
    assert view.edges.count() == drawn_edges(scene)
    _cli(
        Path(app.path),
        "call",
        "applyExtractionBatch",
        json.dumps(
            [
                {
                    "ops": [
                        {
                            "op": "link_delete",
                            "sourceNodeId": node_id,
                            "targetNodeId": other,
                            "relation": "mentions",
                            "direction": "outgoing",
                        }
                        for other in others
                    ]
                }
            ]
        ),
    )
    qtbot.waitUntil(lambda: float(view.scene.sizes[row]) == before, timeout=5000)
    assert view.nodes.data["size"][row] == before and view.scene is scene


def test_a_scene_resizes_a_node_that_becomes_a_rollup(view: Any, app: Any) -> None:
    from dataclasses import replace

    scene = view.scene
    row = next(r for r in range(scene.n) if not scene.rollups[r])
    node = app.node(scene.ids[row])
    before = float(scene.sizes[row])
    assert scene.update_nodes([replace(node, semantic_rollup=True, semantic_depth=2)])
    assert scene.sizes[row] > before
    assert not scene.update_nodes([replace(node, semantic_rollup=True, semantic_depth=2)])
    assert not scene.update_nodes([replace(node, id="not-drawn", type="thread")])
    assert scene.update_nodes(
        [replace(node, semantic_rollup=True, semantic_depth=2, type="thread")]
    )
    assert scene.types[row] == "thread"


def test_a_layout_saved_by_another_process_moves_the_nodes_in_place(
    view: Any, app: Any, qtbot: Any
) -> None:
    scene = view.scene
    before = scene.pos.copy()
    assert view.whole_in_view()
    shifted = (
        "import sys\n"
        "from memgraph_gui.core import MemoryStore\n"
        "with MemoryStore.open(sys.argv[1], create=False) as store:\n"
        "    inp = store.layout_input()\n"
        "    store.save_positions(inp.ids, inp.start + 10.0)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", shifted, app.path], env=env, timeout=60)
    assert done.returncode == 0
    qtbot.waitUntil(lambda: np.allclose(view.scene.pos, before + 10.0), timeout=5000)
    assert view.scene is scene  # moved in place, no reload
    x, y = view.nodes.getData()
    assert np.allclose(np.c_[x, y], before + 10.0)  # drawn where the other process put them
    assert not view.layout_job.running
    assert view.whole_in_view()  # the whole picture was in view, and still is


def test_a_layout_saved_elsewhere_leaves_a_zoomed_in_view_where_it_is(
    view: Any, app: Any, qtbot: Any
) -> None:
    view.view.scaleBy((0.2, 0.2))
    rect = view.view.viewRect()
    assert not view.whole_in_view()
    before = view.scene.pos.copy()
    with app.store.reading():
        inp = app.store.layout_input()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = (
        "import sys, numpy as np\n"
        "from memgraph_gui.core import MemoryStore\n"
        "with MemoryStore.open(sys.argv[1], create=False) as store:\n"
        "    inp = store.layout_input()\n"
        "    store.save_positions(inp.ids, inp.start * 1.5)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, app.path], env=env, timeout=60)
    assert done.returncode == 0 and len(inp.ids) == view.scene.n
    qtbot.waitUntil(lambda: np.allclose(view.scene.pos, before * 1.5), timeout=5000)
    assert view.view.viewRect() == rect  # the user's zoom is kept


def test_a_batch_that_links_and_edits_refreshes_the_edited_nodes_look(
    view: Any, app: Any, qtbot: Any
) -> None:
    scene = view.scene
    row, other = 3, 4
    node_id, real_type = scene.ids[row], scene.types[row]
    types = list(scene.types)
    types[row] = "thread" if real_type != "thread" else "event"  # a look the view got wrong
    scene.types = tuple(types)
    batch = {
        "ops": [
            {"op": "edit", "nodeId": node_id, "setFields": {"summary": "linked and edited"}},
            {
                "op": "link_upsert",
                "sourceNodeId": node_id,
                "links": [{"targetNodeId": scene.ids[other], "relation": "mentions"}],
            },
        ]
    }
    before = len(scene.edges)
    _cli(Path(app.path), "call", "applyExtractionBatch", json.dumps([batch]))
    qtbot.waitUntil(lambda: len(view.scene.edges) > before, timeout=5000)
    assert view.scene is scene and scene.types[row] == real_type  # taken with the topology


def test_a_new_graph_is_read_and_built_off_the_gui_thread(
    view: Any, app: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import's new graph: before, its snapshot (~0.5 s at 50k) and scene were read and built
    on the GUI thread, and the window froze that long."""
    import threading

    from memgraph_gui.app import snapshot_loader
    from memgraph_gui.views.graph import view as view_module

    threads: list[threading.Thread] = []
    real = snapshot_loader.store_snapshot

    def spy(store: Any) -> Any:
        threads.append(threading.current_thread())
        return real(store)

    monkeypatch.setattr(snapshot_loader, "store_snapshot", spy)
    monkeypatch.setattr(view_module, "graph_snapshot", lambda _app: pytest.fail("GUI thread"))
    kept = [n for n in map(app.node, app.timeline_ids()[:60]) if not n.archived][:40]
    before = view.scene
    done: list[object] = []
    app.run_store_op(
        lambda store: store.replace_all(kept, [], {}, backup=False),
        on_done=done.append,
        on_error=done.append,
    )
    qtbot.waitUntil(lambda: view.scene is not before and view.scene.n == 40, timeout=10000)
    assert threads and all(t is not threading.main_thread() for t in threads)
    assert sorted(view.scene.ids) == sorted(n.id for n in kept)


def test_edge_rows_looked_up_in_pieces_are_those_of_one_pass(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgraph_gui.app import graph_data
    from memgraph_gui.core.domain import pieces as pieces_module

    whole = graph_data.graph_snapshot(app)
    monkeypatch.setattr(pieces_module, "SLICE", 7)  # many pieces, the last one short
    pieces = graph_data.graph_snapshot(app)
    assert len(whole.edges) > 7
    assert np.array_equal(whole.edges, pieces.edges)
    assert np.array_equal(whole.hierarchy, pieces.hierarchy)


def test_a_big_edge_set_fills_in_a_chunk_per_frame_on_a_new_picture_and_after_a_zoom(
    view: Any, app: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Painting 150k edges at once was one ~60 ms frame (the path built and stroked); now a new
    picture draws them in chunks of at most ``CHUNK`` segments, a chunk per frame, and so do
    edges coming back after a zoom."""
    from memgraph_gui.views.graph import items as edges_module

    edges = view.edges
    monkeypatch.setattr(type(edges), "CHUNK", 100)
    total = drawn_edges(view.scene)
    assert total > 5 * 100
    shown: list[int] = []
    edges._reveal.timeout.connect(  # after each reveal step (connected after the layer's own)
        lambda: shown.append(sum(i.isVisible() for i in edges._items()))
    )
    view._show_scene(view.scene, initial=False)
    assert edges.filling and sum(i.isVisible() for i in edges._items()) == 0
    qtbot.waitUntil(lambda: not edges.filling, timeout=5000)
    assert shown == list(range(1, len(edges._order()) + 1))  # one more chunk per step
    assert all(edges_module._loaded(i) <= 100 for i in edges._items())
    assert edges.count() == total and edges.drawn(True) and edges.drawn(False)
    edges.suspend(True)  # a zoom on a big graph hides them
    assert not edges.drawn(True)
    edges.suspend(False)
    assert edges.filling and not edges.drawn(False)
    qtbot.waitUntil(lambda: not edges.filling, timeout=5000)
    assert edges.drawn(True) and edges.drawn(False)
    view.graph_actions.show_relations.setChecked(False)  # the user's toggle still holds
    assert edges.drawn(True) and not edges.drawn(False)


def test_after_a_reload_the_panes_find_their_whole_graph_reads_ready(
    view: Any, app: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The timeline's rows and choices and the relations in use of a new graph (~60 ms at 50k)
    were computed on the GUI thread when the reload reached the panes; now the committing
    thread computes them before the views are told."""
    import threading

    from memgraph_gui.app import reads

    threads: list[str] = []
    for name in ("_rows", "_choices"):
        real = getattr(reads, name)

        def spy(*args: Any, _real: Any = real, _name: str = name) -> Any:
            threads.append(f"{_name} {threading.current_thread() is threading.main_thread()}")
            return _real(*args)

        monkeypatch.setattr(reads, name, spy)
    kept = [n for n in map(app.node, app.timeline_ids()[:60]) if not n.archived][:40]
    before = view.scene
    app.run_store_op(lambda store: store.replace_all(kept, [], {}, backup=False))
    qtbot.waitUntil(lambda: view.scene is not before and view.scene.n == 40, timeout=10000)
    rows = app.timeline_rows(None, "")
    assert sorted(rows.ids) == sorted(n.id for n in kept)
    assert app.timeline_choices()[0] == {n.type for n in kept}
    assert threads and all(t.endswith("False") for t in threads), threads


def test_a_new_pictures_marks_come_a_frame_later_and_only_on_that_picture(
    view: Any, app: Any, qtbot: Any
) -> None:
    """Showing a fitted 50k picture with its injection marks was one 40-60 ms frame while a
    worker was busy: the marks come ``MARKS_AFTER_SHOW_MS`` later, and those due for a picture
    replaced meanwhile never land on the next one (whose rows are other nodes)."""
    from memgraph_gui.app.graph_data import graph_snapshot
    from memgraph_gui.views.graph.scene import GraphScene

    marked = view.injection.rows("always") | view.injection.rows("visible")
    assert marked  # the demo's injection state is drawn
    first, second = GraphScene(graph_snapshot(app)), GraphScene(graph_snapshot(app))
    calls: list[object] = []
    real = view.injection.show
    view.injection.show = lambda scene, *args, **kw: (calls.append(scene), real(scene, *args, **kw))
    view._show_scene(first, initial=False)
    assert not view.injection.rows("always") and not view.injection.rows("visible")
    view._show_scene(second, initial=False)  # replaced before the first's marks came
    qtbot.waitUntil(lambda: bool(calls), timeout=2000)
    qtbot.wait(100)
    assert calls == [second]  # the first picture's marks were dropped, not drawn on this one
    assert view.injection.rows("always") | view.injection.rows("visible") == marked


def test_an_events_label_is_its_summary_not_lukers_summary_n_title(view: Any, app: Any) -> None:
    """Luker titles every event "Summary N" (the event type has no title column): a person
    reads what happened, so the graph labels an event with its summary, elided."""
    row = next(
        r
        for r, node_id in enumerate(view.scene.ids)
        if (node := app.node(node_id)).type == "event" and not node.semantic_rollup
    )
    node = app.node(view.scene.ids[row])
    summary = " ".join(str(node.fields["summary"]).split())
    assert node.title.startswith("Summary") and summary
    label = view._label_of(node.id)
    assert not label.startswith("Summary") and summary.startswith(label.rstrip("…")[:20])
    character = next(i for i in view.scene.ids if app.node(i).type == "character_sheet")
    assert view._label_of(character).startswith(app.node(character).title[:10])  # titled types


def test_a_streamed_frame_of_the_whole_picture_is_taken_in_place(
    view: Any, monkeypatch: Any
) -> None:
    """A layout frame of every row moves each unpinned row to its new position and leaves the
    pinned rows alone, without an index of every row or copies of them (at 200k those took
    ~10 ms of each streamed frame): it allocates a mask of the rows at most."""
    import tracemalloc

    from memgraph_gui.app.layout_job import LayoutUpdate

    scene = view.scene
    scene.pinned[:5] = True
    before = scene.pos.copy()
    pos = np.random.default_rng(3).normal(size=(scene.n, 2))
    for name in ("_positions_moved", "_draw_edges", "_animating"):
        monkeypatch.setattr(view, name, lambda *_a, **_k: None)  # (the frame's drawing)
    tracemalloc.start()
    view._on_frame_ready(LayoutUpdate(scene.ids, pos, "refine", 3, False))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert np.array_equal(scene.pos[:5], before[:5])
    assert np.array_equal(scene.pos[5:], pos[5:])
    assert scene.placed.all()
    assert peak < 4 * scene.n  # an index of every row and its copies: 24+ bytes a row


def test_a_runs_frames_are_matched_to_the_scenes_rows_once(view: Any, monkeypatch: Any) -> None:
    """Each frame of a run carries the same ids (a tuple equal to the scene's, not the same
    object): they are compared with the scene's rows once, and every frame moves every row
    (none pinned: a plain copy). Another scene's rows are compared again."""
    from memgraph_gui.app.layout_job import LayoutUpdate

    compared: list[int] = []

    class Ids(tuple):  # type: ignore[type-arg]
        def __eq__(self, other: object) -> bool:
            compared.append(1)
            return tuple.__eq__(self, other)  # type: ignore[operator, no-any-return]

        def __ne__(self, other: object) -> bool:
            return not self.__eq__(other)

        __hash__ = tuple.__hash__

    scene = view.scene
    scene.pinned[:] = False
    ids = Ids(scene.ids)
    for name in ("_positions_moved", "_draw_edges", "_animating"):
        monkeypatch.setattr(view, name, lambda *_a, **_k: None)  # (the frame's drawing)
    rng = np.random.default_rng(4)
    for step in (1, 2, 3):
        pos = rng.normal(size=(scene.n, 2))
        view._on_frame_ready(LayoutUpdate(ids, pos, "refine", step, False))
        assert np.array_equal(scene.pos, pos)
    assert len(compared) == 1
    other = Ids(scene.ids[::-1])  # the same rows in another order: not the whole picture
    view._on_frame_ready(LayoutUpdate(other, scene.pos[::-1].copy(), "refine", 4, False))
    assert len(compared) == 2


def test_a_streamed_frame_is_painted_before_the_layouts_worker_goes_on(
    view: Any, qtbot: Any, monkeypatch: Any
) -> None:
    """The layout's worker waits for each frame until the GUI thread has painted it (its
    Python would otherwise share the GIL and a core with the frame's paint): the viewport's
    first paint after each frame still finds the worker held, and the run ends and saves."""
    from memgraph_gui.app import layout_job
    from memgraph_gui.core.layout import stream
    from memgraph_gui.views.qt import QtCore

    monkeypatch.setattr(stream, "FRAME_INTERVAL", 0.0)  # a frame after every step
    monkeypatch.setattr(layout_job, "HANDOFF_WAIT", 1000.0)  # released by the paint only
    monkeypatch.setattr(layout_job, "MIN_FRAME_GAP", 0.0)  # (a frame held back lets it go)
    job = view.layout_job
    events: list[tuple[str, bool]] = []

    class Paints(QtCore.QObject):
        def eventFilter(self, watched: Any, event: Any) -> bool:
            if event.type() == QtCore.QEvent.Type.Paint:
                events.append(("paint", job._drawn.is_set()))
            return False

    paints = Paints()
    view.plot.viewport().installEventFilter(paints)
    job.frame_ready.connect(lambda update: events.append((update.stage, job._drawn.is_set())))
    with qtbot.waitSignal(job.saved, timeout=30000):
        view.relayout()
    view.plot.viewport().removeEventFilter(paints)
    frames = [i for i, (kind, _) in enumerate(events) if kind not in ("paint", "done")]
    assert len(frames) >= 3
    for i in frames:
        assert not events[i][1]  # held while the frame is handled
        following = next(event for event in events[i + 1 :] if event[0] == "paint")
        assert not following[1]  # and while it is painted

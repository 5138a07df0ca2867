"""The window over a Nuggets memory while an agent writes it: a second real process runs
``memgraph call remember`` and ``addLink``; the window's timeline and graph show both notes and
their link, and their Nugget filters a nugget the agent just began, within a second of the
agent's last call."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from tests.core.processes import ROOT


def _agent(db: Path, *calls: tuple[str, list[Any]]) -> list[Any]:
    """One agent process running ``calls`` through ``memgraph --db DB call -``; the results."""
    done = subprocess.run(
        [sys.executable, "-m", "memgraph_gui.cli", "--db", str(db), "call", "-"],
        input="".join(json.dumps({"call": c, "args": a}) + "\n" for c, a in calls),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line)["result"] for line in done.stdout.splitlines()]


def _row_texts(model: Any) -> dict[str, tuple[str, str, str]]:
    return {
        model.node_id(r): tuple(model.index(r, c).data() for c in (2, 3, 4))
        for r in range(model.rowCount())
    }


def _shows_the_agents_notes(window: Any) -> bool:
    """Whether the timeline and the graph show the agent's two notes and their link, and both
    Nugget filters offer the nugget it began."""
    rows = _row_texts(window.timeline)
    tea = [i for i, (_k, title, content) in rows.items() if title == "user:pref:tea"]
    cup = [i for i, (_k, title, _c) in rows.items() if title == "user:pref:teacup"]
    if len(tea) != 1 or len(cup) != 1 or rows[tea[0]][2] != "green":
        return False
    scene = window.graph_view.scene
    if scene is None or tea[0] not in scene.index or cup[0] not in scene.index:
        return False
    a, b = scene.index[tea[0]], scene.index[cup[0]]
    pairs = {tuple(p) for p in scene.edges[~scene.hierarchy].tolist()}
    drawn = window.graph_view.visible
    offered = [window.timeline_panel.filters.nugget, window.graph_view.nugget_combo]
    if any(combo.nuggets() != ["astra", "webshop", "zeta"] for combo in offered):
        return False
    return (a, b) in pairs and (b, a) in pairs and bool(drawn[a] and drawn[b])


def test_an_agents_remember_and_add_link_show_in_the_window_within_a_second(
    qtbot: Any, tmp_path: Path
) -> None:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.demo.nuggets import load_nuggets_demo
    from memgraph_gui.views.main_window import MainWindow

    db = tmp_path / "agent.memgraph"
    with MemoryStore.open(db) as store:
        load_nuggets_demo(store, 200, seed=2)
    app = AppModel(MemoryStore.open(db))  # the window's store, with its watcher
    window = MainWindow(app)
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(window.settled, timeout=20000)
    before = window.timeline.rowCount()

    results = _agent(
        db,
        ("remember", ["astra", "user:pref:tea", "green"]),
        ("remember", ["astra", "user:pref:teacup", "celadon, from La Bisbal"]),
        ("addLink", ["astra", "user:pref:tea", "user:pref:teacup", "served in"]),
        ("remember", ["zeta", "project:deploy-cmd", "make ship"]),  # a nugget new to the store
    )
    finished = time.monotonic()
    assert results == [None, None, True, None]

    qtbot.waitUntil(lambda: _shows_the_agents_notes(window), timeout=1000)
    took = time.monotonic() - finished
    assert took < 1.0
    assert window.timeline.rowCount() in (before + 2, before + 3)  # tea may have been a fact
    rows = _row_texts(window.timeline)
    cup = next(i for i, (_k, title, _c) in rows.items() if title == "user:pref:teacup")
    assert rows[cup] == ("fact · astra", "user:pref:teacup", "celadon, from La Bisbal")
    assert "none" not in window.status.external.text()
    alive = sum(not n.archived for n in app.store.graph.nodes.values())
    assert np.count_nonzero(window.graph_view.visible) == alive  # every visible note drawn
    app.close()

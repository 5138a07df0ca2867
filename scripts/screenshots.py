"""Take the README's window screenshots under a real X display (Xvfb), as a user sees them.

    Xvfb :77 -screen 0 1700x1000x24 &
    DISPLAY=:77 QT_QPA_PLATFORM=xcb .venv/bin/python scripts/screenshots.py docs/screenshots [BIG]

Writes ``main-window.png`` (the 2,000-node demo, a node selected, the injection highlight),
``live-highlight.png`` (zoomed in after another process changed the injection state),
``overview-2k.png`` (the demo fitted: its overview by rollup level), ``overview-unfolded.png``
(zoomed into a region: its rollups unfolded in place), ``arrange-by-time.png`` and, given BIG
(a 50k store with a saved layout), ``demo-50k.png`` (a node selected) and ``overview-50k.png``.
Each store is a private copy.

    DISPLAY=:77 QT_QPA_PLATFORM=xcb .venv/bin/python scripts/screenshots.py --small docs/screenshots

writes only ``window-1024x700.png``: the whole window at 1024×700 (a first run: no saved dock
layout) with an event selected, to check that nothing is clipped and the graph keeps half.

    DISPLAY=:77 QT_QPA_PLATFORM=xcb .venv/bin/python scripts/screenshots.py --note-inspector OUT

writes ``note-inspector.png``, ``note-inspector-1024x700.png`` and ``note-merge.png`` (see
``note_inspector``).

    DISPLAY=:77 QT_QPA_PLATFORM=xcb .venv/bin/python scripts/screenshots.py --membrane docs/screenshots

writes ``inspector-membrane.png`` (a Membrane record in the inspector: its attributes, where
they come from, its payload, provenance and audit log) and ``inspector-membrane-luker.png`` (a
Luker node whose sensitivity a person set: "set by you", Reset to default); see
``membrane_inspector``.

    DISPLAY=:77 QT_QPA_PLATFORM=xcb .venv/bin/python scripts/screenshots.py --nuggets docs/screenshots

writes ``nuggets-main.png``: the Nuggets demo (``memgraph demo --nuggets``, two nuggets, English
and Chinese) in the main window: a hub note selected, the pointer on a preference linked to it
(its kind, nugget, scope / type), the timeline at a stretch with hidden (faded) notes.

    DISPLAY=:77 QT_QPA_PLATFORM=xcb .venv/bin/python scripts/screenshots.py --recall-lab docs/screenshots

writes ``recall-lab.png``: the Recall lab dock open over the 2,000-node demo with a few Nuggets
notes and the offline embedding profile, a message typed, every ranking filled and marked on the
graph, a ranked node clicked (the inspector shows it); and ``recall-lab-1024x700.png``: the same
at 1024×700 without an embedding profile (vectorSearch says what it needs); then
``recall-lab-route.png`` (the route model's input) and ``recall-lab-run.png`` (Run recall's
picks and the injection preview, answered by a local stand-in endpoint that returns the lab's
own keyword/vector candidates: it shows the pane, not a model's judgement); see
``recall_lab_window``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def main(out_dir: str, big: str | None = None) -> None:
    from memgraph_gui.app.opening import demo_path, open_demo
    from memgraph_gui.views.qt import QApplication

    qt = QApplication.instance() or QApplication(sys.argv[:1])
    qt.setOrganizationName("memgraph-screenshots")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    open_demo().close()  # make sure the demo exists, then work on a copy
    work = Path(tempfile.mkdtemp(prefix="shots-")) / "demo.memgraph"
    shutil.copy(demo_path(), work)
    window, app = _window(qt, work)
    hub = _busiest(app, "character_sheet")
    app.selection.select([hub])
    _settle(qt, window)
    window.grab().save(str(out / "main-window.png"))
    _external_injection(work, app, hub)
    _wait(qt, lambda: hub in app.injection().recall_selected_ids)
    window.graph_view.graph_actions.focus.setChecked(True)
    _settle(qt, window)
    window.graph_view.grab().save(str(out / "live-highlight.png"))
    window.graph_view.graph_actions.focus.setChecked(False)
    _overview(qt, window, app, out, "2k")
    _unfolded(qt, window, out)
    graph = window.graph_view
    graph.graph_actions.arrange_time.setChecked(True)
    _settle(qt, window)
    window.grab().save(str(out / "arrange-by-time.png"))
    graph.graph_actions.arrange_time.setChecked(False)
    _close(window, app)
    if big:
        copy = Path(tempfile.mkdtemp(prefix="shots-big-")) / "big.memgraph"
        shutil.copy(big, copy)
        window, app = _window(qt, copy)
        app.selection.select([_busiest(app, "character_sheet")])
        _settle(qt, window)
        window.grab().save(str(out / "demo-50k.png"))
        _overview(qt, window, app, out, "50k")
        _close(window, app)


def _overview(qt: Any, window: Any, app: Any, out: Path, name: str) -> None:
    """The memory fitted with nothing selected: the overview by rollup level."""
    app.selection.clear()
    window.graph_view.fit()
    _settle(qt, window)
    window.grab().save(str(out / f"overview-{name}.png"))


def _unfolded(qt: Any, window: Any, out: Path) -> None:
    """Zoomed into the region of the biggest folded rollup: it unfolds in place."""
    import numpy as np

    graph = window.graph_view
    scene, folded = graph.scene, graph.folded
    big = folded.cut.folded()
    row = int(big[np.argmax(folded.cut.held[big])])
    x, y = scene.pos[row]
    reach = max(float(scene.spread()[row]) * 1.6, 1e-3)
    graph.view.setRange(xRange=(x - reach, x + reach), yRange=(y - reach, y + reach), padding=0)
    graph._on_zoom_settled()
    _settle(qt, window)
    window.graph_view.grab().save(str(out / "overview-unfolded.png"))


def small_window(out_dir: str) -> None:
    """The window at 1024×700 with default docks and an event in the inspector."""
    from memgraph_gui.app.opening import demo_path, open_demo
    from memgraph_gui.views.qt import QApplication

    qt = QApplication.instance() or QApplication(sys.argv[:1])
    qt.setOrganizationName("memgraph-screenshots-small")  # no saved layout: a first run
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    open_demo().close()
    work = Path(tempfile.mkdtemp(prefix="shots-small-")) / "demo.memgraph"
    shutil.copy(demo_path(), work)
    window, app = _window(qt, work, size=(1024, 700))
    graph = app.store.graph
    event = max(
        (n for n in graph.nodes.values() if n.type == "event" and not n.archived),
        key=lambda n: n.seq_to,
    )
    app.selection.select([event.id])
    _settle(qt, window)
    window.grab().save(str(out / "window-1024x700.png"))
    _close(window, app)


def note_inspector(out_dir: str) -> None:
    """A Nuggets note in the inspector: ``note-inspector.png`` (its whole form, window 1640×960),
    ``note-inspector-1024x700.png`` (the whole window at 1024×700, a first run) and
    ``note-merge.png`` (Merge Notes… on two notes of one nugget). The store is a small one of
    notes staged as an import would (``tests/nugget_notes.py``)."""
    from memgraph_gui.views.qt import QApplication, QScrollArea
    from tests.nugget_notes import note_store

    qt = QApplication.instance() or QApplication(sys.argv[:1])
    qt.setOrganizationName("memgraph-screenshots-notes")  # no saved layout: a first run
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="shots-notes-")) / "notes.memgraph"
    note_store(work).close()
    for size, name in (((1640, 960), "note-inspector.png"), ((1024, 700), None)):
        window, app = _window(qt, work, size=size)
        app.selection.select(["note-work-deploy01"])
        _settle(qt, window)
        if name is None:
            window.grab().save(str(out / "note-inspector-1024x700.png"))
        else:
            # the whole form, links included (the dock shows it scrolled)
            scroll = window.inspector.findChild(QScrollArea)
            scroll.widget().grab().save(str(out / name))
            app.selection.select(["note-work-deploy01", "note-work-deploy02"])
            _settle(qt, window)
            dialog = window.note_merge.open()
            assert dialog is not None
            dialog.choose_target("note-work-deploy01")
            _settle(qt, window)
            dialog.grab().save(str(out / "note-merge.png"))
            dialog.reject()
        _close(window, app)


def membrane_inspector(out_dir: str) -> None:
    """The inspector's Membrane section (see the module docstring) over a small store: three
    Luker nodes and two Membrane records related to each other, one node's attributes set."""
    from memgraph_gui.core.domain.changes import OpKind
    from memgraph_gui.core.membrane.model import record_node, relation_edges
    from memgraph_gui.core.membrane.write import set_attributes
    from memgraph_gui.core.memory import MemoryStore
    from memgraph_gui.views.qt import QApplication, QScrollArea

    qt = QApplication.instance() or QApplication(sys.argv[:1])
    qt.setOrganizationName("memgraph-screenshots-membrane")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="shots-membrane-")) / "membrane.memgraph"
    stamp = "2026-11-20T09:15:00Z"
    fact = {
        "id": "rec-tea",
        "type": "semantic",
        "sensitivity": "medium",
        "confidence": 0.92,
        "salience": 0.75,
        "scope": "household",
        "tags": ["preference", "tea"],
        "created_at": stamp,
        "updated_at": stamp,
        "lifecycle": {"decay": {"curve": "exponential", "half_life_seconds": 604800}},
        "provenance": {
            "sources": [
                {"kind": "event", "ref": "rec-visit", "hash": "", "created_by": "agent:astra"}
            ]
        },
        "relations": [{"predicate": "derived_from", "target_id": "rec-visit", "weight": 0.8}],
        "payload": {
            "kind": "semantic",
            "subject": "Eileen",
            "predicate": "prefers",
            "object": "green tea, no sugar",
            "validity": {"mode": "global"},
        },
        "audit_log": [
            {
                "action": "create",
                "actor": "agent:astra",
                "timestamp": stamp,
                "rationale": "consolidated from two episodes",
            }
        ],
    }
    visit = {
        "id": "rec-visit",
        "type": "episodic",
        "sensitivity": "low",
        "confidence": 1,
        "salience": 0.4,
        "created_at": stamp,
        "updated_at": stamp,
        "provenance": {"sources": []},
        "payload": {
            "kind": "episodic",
            "timeline": [{"t": stamp, "event_kind": "visit", "summary": "Eileen came for tea"}],
        },
        "audit_log": [],
    }
    with MemoryStore.open(work) as store:
        write = store.write_api()
        eileen = write.create_node(type="character_sheet", title="Eileen")["id"]
        write.create_node(type="location_state", title="The tea house")
        write.create_node(type="event", title="A visit", fields={"summary": "Eileen came by"})
        with store.storage.transaction(OpKind.BATCH, "Put records", log_history=False) as tx:
            for seq, record in enumerate((visit, fact), 1):
                tx.put_node(record_node(record, seq))
            for edge in relation_edges(fact, {"rec-visit"}):
                tx.put_edge(edge)
        set_attributes(store.storage, eileen, {"sensitivity": "high", "tags": ["family"]})
        set_attributes(store.storage, "rec-tea", {"salience": 0.8}, origin="curator")
    window, app = _window(qt, work)
    for node_id, name in (("rec-tea", "inspector-membrane.png"), (eileen, None)):
        app.selection.select([node_id])
        _settle(qt, window)
        scroll = window.inspector.findChild(QScrollArea)
        widget = scroll.widget()
        section = window.inspector.membrane
        top = section.mapTo(widget, section.rect().topLeft()).y()
        grabbed = widget.grab()
        shot = grabbed.copy(0, max(0, top - 8), grabbed.width(), section.height() + 16)
        shot.save(str(out / (name or "inspector-membrane-luker.png")))
    _close(window, app)


def nuggets_window(out_dir: str) -> None:
    """The Nuggets demo in the main window: a busy note of ``astra`` selected, the timeline
    scrolled to a stretch that holds a hidden (faded) note."""
    from memgraph_gui.core.demo.nuggets import load_nuggets_demo
    from memgraph_gui.core.memory import MemoryStore
    from memgraph_gui.views.qt import QApplication

    qt = QApplication.instance() or QApplication(sys.argv[:1])
    qt.setOrganizationName("memgraph-screenshots-nuggets")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="shots-nuggets-")) / "nuggets.memgraph"
    with MemoryStore.open(work) as store:
        load_nuggets_demo(store, 3000, seed=1)
    window, app = _window(qt, work)
    graph = app.store.graph
    notes = [n for n in graph.nodes.values() if n.fields.get("nuggetName") == "astra"]
    hub = max(notes, key=lambda n: sum(1 for _ in graph.edges_of(n.id))).id
    app.selection.select([hub])
    _settle(qt, window)
    # the timeline at a stretch holding hidden (faded) notes; the pointer on a preference
    hidden = sorted((n for n in graph.nodes.values() if n.archived), key=lambda n: n.seq_to)
    table, model = window.timeline_panel.table, window.timeline
    middle = model.index(model.row_of(hidden[len(hidden) // 3].id), 0)
    table.scrollTo(middle, table.ScrollHint.PositionAtCenter)
    view = window.graph_view
    near = [e.to_id if e.from_id == hub else e.from_id for e in graph.edges_of(hub)]
    pick = next(i for i in near if graph.nodes[i].fields.get("type") == "preference")
    view._on_node_hovered(view.scene.index[pick])
    _settle(qt, window)
    window.grab().save(str(out / "nuggets-main.png"))
    _close(window, app)


LAB_MESSAGE = "Eileen found a letter in the Black Forest. Who wrote it, and does Kain know?"


def recall_lab_window(out_dir: str) -> None:
    """The Recall lab over the 2,000-node demo plus a nugget of notes about its story: the
    message typed, the four rankings in, a ranked node clicked; at 1640×960 and 1024×700."""
    from memgraph_gui.views.qt import QApplication, QSettings, Qt

    qt = QApplication.instance() or QApplication(sys.argv[:1])
    qt.setOrganizationName("memgraph-screenshots-recall-lab")
    # the app's own settings (the AI endpoint Run recall is given here) go to a folder of this
    # run, never to the person's
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, tempfile.mkdtemp(prefix="shots-set-"))
    QSettings().remove("window")  # a first run's layout, not the last screenshot's
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="shots-lab-")) / "lab.memgraph"
    bare = _lab_stores(work)
    shots = (("recall-lab.png", work, (1640, 960)), ("recall-lab-1024x700.png", bare, (1024, 700)))
    for name, path, size in shots:
        QSettings().remove("window")
        window, app = _window(qt, path, size)
        toggle = window.recall_lab_dock.toggleViewAction()
        if not toggle.isChecked():
            toggle.trigger()
        panel = window.recall_lab
        panel.nugget.setCurrentIndex(max(0, panel.nugget.findData("story-notes")))
        panel.set_message(LAB_MESSAGE)
        _wait(qt, lambda app=app: app.recall_lab.result is not None, 30)
        table = panel.columns["keyword"].table
        item = table.topLevelItem(1)
        table.setCurrentItem(item)
        panel.columns["keyword"].node_chosen.emit(item.data(0, Qt.ItemDataRole.UserRole))
        _settle(qt, window)
        window.grab().save(str(out / name))
        if path == work:
            _route_tabs(qt, window, app, out)
        _close(window, app)


def _lab_stores(work: Path) -> Path:
    """The 2,000-node demo and a nugget of notes at ``work``, with the offline embedding
    profile; returns a copy made before the profile was set (vectorSearch says what it
    needs there)."""
    from memgraph_gui.core.demo.generator import load_demo
    from memgraph_gui.core.memory import MemoryStore
    from memgraph_gui.core.vectors import hashed

    with MemoryStore.open(work) as store:
        load_demo(store, 2000, 11)
        notes = store.nuggets("story-notes")
        notes.remember("user:pref:pov", "Tell it from Eileen's side")
        notes.create_note(
            "Who wrote the letter",
            "The letter Eileen found in the Black Forest was written by Kain before his exile.",
            ["letter"],
        )
        notes.create_note("Black Forest", "Aldric holds the Black Forest; the old road is watched.")
        notes.create_note("Kain's secret", "Kain hides the star-map shard; Eileen must not know.")
    bare = work.with_name("lab-no-profile.memgraph")  # vectorSearch saying what it needs
    shutil.copy(work, bare)
    with MemoryStore.open(work) as store:
        store.vectors().set_profile(hashed.PROFILE)
        store.vectors().embed_all()
    return bare


def _route_tabs(qt: Any, window: Any, app: Any, out: Path) -> None:
    """``recall-lab-route.png`` (the route input tab) and ``recall-lab-run.png`` (Run recall
    answered by a local stand-in endpoint, see ``_stand_in_chat``: the pane's layout, not a
    model's judgement)."""
    from memgraph_gui.app.settings import DraftEndpoint, save_endpoint

    panel, route = window.recall_lab, app.recall_lab.route
    _wait(qt, lambda: route.routed is not None and route.routed.message == LAB_MESSAGE, 30)
    panel.tabs.setCurrentWidget(panel.route_input)
    _settle(qt, window)
    window.grab().save(str(out / "recall-lab-route.png"))
    result = app.recall_lab.result
    candidates = set(route.routed.route.candidate_ids)
    ranked = [h for key in ("keyword", "vector") for h in result.rankings[key].hits]
    picks = list(dict.fromkeys(h.node_id for h in ranked if h.node_id in candidates))[:4]
    reasons = {i: f"ranked by the lab ({n + 1})" for n, i in enumerate(picks)}
    with _stand_in_chat(json.dumps({"selected_ids": picks, "reasons": reasons})) as url:
        save_endpoint(DraftEndpoint(url, "local-stand-in", 10.0))
        panel.tabs.setCurrentWidget(panel.recall)
        panel.recall.refresh()
        panel.recall.run.click()
        _wait(qt, lambda: route.picked is not None, 30)
    _settle(qt, window)
    window.grab().save(str(out / "recall-lab-run.png"))


@contextmanager
def _stand_in_chat(answer: str) -> Iterator[str]:
    """A local OpenAI-compatible chat endpoint that answers every request with ``answer``
    (for the Run recall screenshot only: no model runs here). Yields its base URL."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from threading import Thread

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            doc = {"choices": [{"message": {"role": "assistant", "content": answer}}]}
            raw = json.dumps(doc).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def _window(qt: Any, path: Path, size: tuple[int, int] = (1640, 960)) -> tuple[Any, Any]:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core.memory import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    app = AppModel(MemoryStore.open(":memory:"))
    window = MainWindow(app)
    window.files.dialogs = False
    window.resize(*size)
    window.show()
    window.open_path(str(path))
    _settle(qt, window)
    return window, app


def _busiest(app: Any, type_id: str) -> str:
    graph = app.store.graph
    live = [n for n in graph.nodes.values() if n.type == type_id and not n.archived]
    return max(live, key=lambda n: sum(1 for _ in graph.edges_of(n.id))).id


def _external_injection(path: Path, app: Any, hub: str) -> None:
    """Another process (an agent's bridge) records what the next prompt gets."""
    graph = app.store.graph
    near = [e.to_id if e.from_id == hub else e.from_id for e in graph.edges_of(hub)][:12]
    state = {
        "recallSelectedIds": [hub, *near[:5]],
        "alwaysInjectIds": near[5:8],
        "visibleIds": near,
    }
    subprocess.run(
        [
            sys.executable,
            "-m",
            "memgraph_gui.cli",
            "--db",
            str(path),
            "call",
            "setInjectionState",
            json.dumps([state]),
        ],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )


def _settle(qt: Any, window: Any, timeout: float = 90.0) -> None:
    from memgraph_gui.views.qt import QtCore

    _wait(qt, window.settled, timeout)
    for _ in range(30):
        qt.processEvents()
        # no event loop runs here, so widgets the views let go of (deleteLater) would linger
        qt.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
        time.sleep(0.02)


def _wait(qt: Any, done: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not done() and time.monotonic() < deadline:
        qt.processEvents()
        time.sleep(0.01)


def _close(window: Any, app: Any) -> None:
    window.close()
    app.close()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--small"]:
        small_window(sys.argv[2])
    elif sys.argv[1:2] == ["--note-inspector"]:
        note_inspector(sys.argv[2])
    elif sys.argv[1:2] == ["--membrane"]:
        membrane_inspector(sys.argv[2])
    elif sys.argv[1:2] == ["--nuggets"]:
        nuggets_window(sys.argv[2])
    elif sys.argv[1:2] == ["--recall-lab"]:
        recall_lab_window(sys.argv[2])
    else:
        main(*sys.argv[1:3])

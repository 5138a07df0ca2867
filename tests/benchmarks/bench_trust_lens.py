"""The trust lens in the window on the 50,000-node demo (run on demand, not in CI).

    python -m tests.benchmarks.bench_trust_lens [--db FILE] [--nodes 50000]

Builds the demo with a saved layout (``memgraph demo`` + ``memgraph layout``) unless ``--db``
names one, gives it Membrane attributes (the people-set override of every third node high and
every third hyper: a "medium" actor reads a third in full, a third redacted and a third not at
all), opens the whole window and switches the lens on and off as View as… does. Measured:

- GUI-thread time of switching the lens on: the ``look_as`` call plus the delivery of the tiers
  (every pane redrawing what the lens lets be seen), and the next paint; the tiers themselves
  are computed on a plain thread (reported as wall time to ready, not GUI time);
- GUI-thread time of switching it off (the same, without a background part);
- the obvious alternative in the same run: a plain-Python scan of every node's attributes and
  its tier (what computing the lens on the GUI thread would cost at the least).

Prints a markdown table: measure, result, bar, alternative, ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests.benchmarks.bench_graph_view import build_store, settle

BAR_MS = 100.0
ROUNDS = 5


def give_attributes(path: Path) -> None:
    """Every third node high, every third hyper (the meta override, one transaction)."""
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.core.domain.changes import OpKind
    from memgraph_gui.core.membrane.attributes import OVERRIDES

    with MemoryStore.open(path, create=False) as store:
        with store.reading() as graph:
            ids = sorted(graph.nodes)
        given = {
            node_id: {"sensitivity": ("high", "hyper")[i % 3 - 1]}
            for i, node_id in enumerate(ids)
            if i % 3
        }
        with store.storage.transaction(OpKind.BATCH, "Membrane attributes") as tx:
            tx.set_meta(OVERRIDES, given)


def plain_scan(store: Any, trust: Any) -> float:
    """Seconds for a plain-Python pass over every node: its attributes and its tier."""
    from memgraph_gui.core.membrane.attributes import OVERRIDES, attributes_of

    with store.reading() as graph:
        nodes = list(graph.nodes.values())
        given = graph.meta.get(OVERRIDES) or {}
    start = time.perf_counter()
    tiers = {}
    for node in nodes:
        a = attributes_of(node, given)
        tiers[node.id] = trust.tier(a.sensitivity, a.scope)
    return time.perf_counter() - start


def open_window(path: Path, folder: Path) -> tuple[Any, Any, Any]:
    """The whole window over ``path``, shown and settled (settings kept in ``folder``)."""
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.app.process_tuning import tune_process
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow
    from memgraph_gui.views.qt import QApplication, QSettings

    tune_process()  # as the window's own main does
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    qapp = QApplication.instance() or QApplication([])
    app = AppModel(MemoryStore.open(path))
    window = MainWindow(app)
    window.resize(1400, 900)
    window.show()
    while not window.settled() or window.graph_view.scene is None:
        settle(qapp, 0.1)
    settle(qapp, 0.5)
    return qapp, app, window


def switch(qapp: Any, app: Any, window: Any, trust: Any, nodes: int) -> dict[str, list[float]]:
    """``ROUNDS`` times on and off; seconds per measure."""
    lens, controls = app.lens, window.lens_controls
    delivered: list[float] = []
    set_tiers = lens._set_tiers

    def timed_set_tiers(*a: Any) -> None:
        start = time.perf_counter()
        set_tiers(*a)
        delivered.append(time.perf_counter() - start)

    lens._set_tiers = timed_set_tiers
    plot = window.graph_view.plot.viewport()
    out: dict[str, list[float]] = {k: [] for k in ("on", "on_paint", "ready", "off", "off_paint")}
    out["calls"] = []
    for _ in range(ROUNDS):
        delivered.clear()
        start = time.perf_counter()
        controls.look_as(trust)
        call = time.perf_counter() - start
        while not lens.ready:
            qapp.processEvents()
            time.sleep(0.001)
        out["ready"].append(time.perf_counter() - start)
        out["on"].append(call + sum(delivered))
        out["calls"].append(call)
        start = time.perf_counter()
        plot.repaint()
        out["on_paint"].append(time.perf_counter() - start)
        assert len(lens.omitted) > nodes // 4 and lens.redacted, "the lens must bite"
        out["omitted"], out["redacted"] = [len(lens.omitted)], [len(lens.redacted)]
        settle(qapp, 0.3)
        start = time.perf_counter()
        controls.back_to_full_view()
        out["off"].append(time.perf_counter() - start)
        start = time.perf_counter()
        plot.repaint()
        out["off_paint"].append(time.perf_counter() - start)
        settle(qapp, 0.3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path)
    parser.add_argument("--nodes", type=int, default=50_000)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-lens-"))
    path = args.db or folder / "demo.memgraph"
    if args.db is None:
        build_store(path, args.nodes)
    give_attributes(path)

    from memgraph_gui.app.trust_lens import make_trust

    qapp, app, window = open_window(path, folder)
    trust = make_trust("build-agent", "medium", "")
    got = switch(qapp, app, window, trust, args.nodes)
    scan = statistics.median(plain_scan(app.store, trust) for _ in range(3)) * 1000
    ms = {k: statistics.median(v) * 1000 for k, v in got.items()}
    omitted, redacted = int(got["omitted"][0]), int(got["redacted"][0])
    print(
        f"\nnodes {app.counts().nodes:,}; a medium actor: {omitted:,} omitted, "
        f"{redacted:,} redacted\n"
    )
    print("| measure | result | bar | alternative (plain-Python scan of every node) | ratio |")
    print("|---|---:|---:|---:|---:|")
    rows = [
        ("lens on: GUI-thread time (call + panes redrawn)", ms["on"]),
        ("lens on: + next paint of the graph", ms["on"] + ms["on_paint"]),
        ("lens off: GUI-thread time (call + panes redrawn)", ms["off"]),
        ("lens off: + next paint of the graph", ms["off"] + ms["off_paint"]),
    ]
    for name, value in rows:
        print(
            f"| {name} | {value:.1f} ms | ≤ {BAR_MS:.0f} ms | {scan:.1f} ms | {value / scan:.2f} |"
        )
    first = got["ready"][0] * 1000
    print(
        f"| lens on: wall time until the tiers are in, off the GUI thread (first {first:.0f} ms)"
        f" | {ms['ready']:.1f} ms | – | {scan:.1f} ms | {ms['ready'] / scan:.2f} |"
    )
    rounds = {k: [round(x * 1000, 1) for x in got[k]] for k in ("on", "calls", "off")}
    print(f"\nrounds (ms): {rounds}")
    window.close()
    app.close()


if __name__ == "__main__":
    main()

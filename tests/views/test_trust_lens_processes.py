"""Two real processes: while the window looks through the lens, another process changes a
record's sensitivity (its JSON, through a store transaction) or a Luker node's (the meta
``membraneAttributes`` override), and the window follows: the graph, the timeline and the
inspector show the node at its new tier."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.model import Node
from tests.core.processes import run_python
from tests.lens_records import put_records, record, secret_texts
from tests.qt_sandbox import window_over
from tests.views.widget_texts import window_texts

pytestmark = pytest.mark.slow

RECORDS = [
    record("r-pub", "public", relations=[("knowsPub", "r-mov")]),
    record("r-mov", "low"),  # full for medium until another process raises it
]

SET_SENSITIVITY = """
import sys
from memgraph_gui.core import MemoryStore
from tests.lens_records import set_sensitivity
with MemoryStore.open(sys.argv[1], create=False) as store:
    set_sensitivity(store, sys.argv[2], sys.argv[3])
print("done")
"""

SET_OVERRIDE = """
import json, sys
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
with MemoryStore.open(sys.argv[1], create=False) as store:
    with store.storage.transaction(OpKind.BATCH, "attributes") as tx:
        tx.set_meta("membraneAttributes", json.loads(sys.argv[2]))
print("done")
"""


@pytest.fixture
def lens_db(tmp_path: Path) -> Path:
    path = tmp_path / "lens.memgraph"
    with MemoryStore.open(path) as store:
        put_records(store, RECORDS)
        with store.storage.transaction(OpKind.BATCH, "an event") as tx:
            tx.put_node(Node(id="ev-1", type="event", title="Luker event", seq_to=3))
    return path


def _run(script: str, *args: str) -> None:
    proc = run_python(script, *args)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.strip() == "done"


def _drawn(window: Any) -> set[str]:
    graph = window.graph_view
    return {graph.scene.ids[r] for r in np.flatnonzero(graph.visible)}


def _rows(window: Any) -> set[str]:
    timeline = window.timeline
    return {timeline.node_id(i) for i in range(timeline.rowCount())}


def test_another_process_changes_sensitivity_and_the_window_follows(
    qtbot: Any, lens_db: Path
) -> None:
    from memgraph_gui.app.trust_lens import make_trust

    app, window = window_over(qtbot, lens_db)
    try:
        qtbot.waitUntil(lambda: window.graph_view.scene is not None and window.settled())
        window.lens_controls.look_as(make_trust("build-agent", "medium", ""))
        qtbot.waitUntil(lambda: app.lens.ready)
        app.selection.select(["r-mov"], source=None)
        assert _drawn(window) == {"r-pub", "r-mov", "ev-1"}
        inspector = window.inspector

        _run(SET_SENSITIVITY, str(lens_db), "r-mov", "high")  # one above: redacted
        qtbot.waitUntil(lambda: app.lens.tier("r-mov") == "redacted", timeout=10_000)
        qtbot.waitUntil(lambda: inspector._pages.currentWidget() is inspector.redacted)
        assert inspector.redacted.shown()["sensitivity"] == "high"
        texts = "\n".join(window_texts(window))
        for secret in secret_texts(record("r-mov", "high")):
            assert secret not in texts

        _run(SET_SENSITIVITY, str(lens_db), "r-mov", "hyper")  # two above: omitted
        qtbot.waitUntil(lambda: "r-mov" not in _drawn(window), timeout=10_000)
        assert _rows(window) == {"r-pub", "ev-1"}
        assert inspector.node_id is None  # the selection of a node it may not see is dropped

        override = json.dumps({"ev-1": {"sensitivity": "hyper"}})
        _run(SET_OVERRIDE, str(lens_db), override)  # a Luker node: the meta override
        qtbot.waitUntil(lambda: "ev-1" not in _drawn(window), timeout=10_000)
        assert _rows(window) == {"r-pub"}

        _run(SET_SENSITIVITY, str(lens_db), "r-mov", "public")  # back in full
        qtbot.waitUntil(lambda: "r-mov" in _drawn(window), timeout=10_000)
        assert app.node("r-mov").fields["payload"]["subject"] == "Subjr-movSecret"
    finally:
        window.close()
        app.close()

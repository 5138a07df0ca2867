""" "Retrieve for a task…" in the lens: enabled only while the lens is on, runs Membrane's
``retrieveGraph`` with the lens's trust off the GUI thread, and the graph marks exactly the
answer's roots and reached nodes with their hops; the banner says what came back; moving the
lens takes the marks off; nothing above the tier shows meanwhile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.membrane.trust import TrustContext
from tests.lens_records import put_records, record, secret_texts
from tests.qt_sandbox import window_over
from tests.views.widget_texts import window_texts

MEDIUM = TrustContext("medium", True, "build-agent", ())
RECORDS = [
    record("r-a", "public", relations=[("knows", "r-b"), ("hints", "r-high")], salience=0.9),
    record("r-b", "low", relations=[("uses", "r-c")], salience=0.4),
    record("r-c", "medium", salience=0.3),
    record("r-high", "high", relations=[("leaks", "r-a")], salience=0.95),  # redacted
    record("r-hyper", "hyper", relations=[("leaks", "r-a")], salience=0.99),  # omitted
    record("r-ent", "low", kind="entity", salience=0.5),
]


@pytest.fixture
def shown(qtbot: Any, tmp_path: Path) -> Any:
    path = tmp_path / "retrieve.memgraph"
    with MemoryStore.open(path) as store:
        put_records(store, RECORDS)
    app, window = window_over(qtbot, path)
    qtbot.waitUntil(lambda: window.graph_view.scene is not None and window.settled())
    yield app, window
    window.close()
    app.close()


def _retrieve(qtbot: Any, window: Any, task: str, roots: int, hops: int) -> Any:
    controls = window.lens_controls
    dialog = controls.open_retrieve()
    assert dialog is not None
    assert (dialog.roots.value(), dialog.hops.value()) == (10, 1)  # the SDKs' defaults
    dialog.task.setText(task)
    dialog.roots.setValue(roots)
    dialog.hops.setValue(hops)
    retrieval = window._app.lens.retrieval
    with qtbot.waitSignal(retrieval.finished, timeout=10_000):
        dialog.accept()
        assert retrieval.running  # (off the GUI thread: accept returned before the answer)
    return retrieval.result


def _marked(window: Any) -> tuple[set[str], dict[str, int]]:
    graph = window.graph_view
    marks = graph.retrieval_marks
    ids = graph.scene.ids
    roots = {ids[r] for r in marks.roots.rows.tolist()}
    return roots, {ids[r]: hop for r, hop in marks.hops.items()}


def test_enabled_only_while_the_lens_is_on(shown: Any) -> None:
    _app, window = shown
    controls = window.lens_controls
    assert not controls.retrieve.isEnabled()
    assert controls.open_retrieve() is None
    controls.look_as(MEDIUM)
    assert controls.retrieve.isEnabled()


def test_the_graph_marks_the_answer_with_hops(qtbot: Any, shown: Any) -> None:
    app, window = shown
    window.lens_controls.look_as(MEDIUM)
    qtbot.waitUntil(lambda: app.lens.ready)
    result = _retrieve(qtbot, window, "fix auth build error", 2, 2)
    expected = app.store.membrane().retrieve_graph(
        "fix auth build error", MEDIUM, root_limit=2, max_hops=2
    )
    hops = {n["record"]["id"]: n["hop"] for n in expected["nodes"]}
    assert result.hops == hops and list(result.roots) == expected["root_ids"]
    assert "r-hyper" not in hops  # never returned above the tier
    roots, marked = _marked(window)
    assert roots == set(expected["root_ids"])
    assert marked == hops  # every returned node is drawn and marked with its hop
    texts = window.graph_view.retrieval_marks.texts()
    assert sorted(texts) == sorted("root" if h == 0 else f"hop {h}" for h in hops.values())
    assert any(h > 0 for h in hops.values())  # expansion reached someone
    banner = window.lens_controls.banner
    assert banner.result.text() == (
        f"“fix auth build error”: {len(hops)} node(s), {len(roots)} root(s)"
    )
    shown_text = "\n".join(window_texts(window))
    for rec in RECORDS:
        if app.lens.tier(rec["id"]) != "full":
            for secret in secret_texts(rec):
                assert secret not in shown_text


def test_moving_the_lens_or_clearing_takes_the_marks_off(qtbot: Any, shown: Any) -> None:
    app, window = shown
    controls = window.lens_controls
    controls.look_as(MEDIUM)
    qtbot.waitUntil(lambda: app.lens.ready)
    _retrieve(qtbot, window, "anything", 10, 1)
    assert _marked(window)[1]
    controls.banner.clear_result.click()
    assert _marked(window) == (set(), {})
    assert window.graph_view.retrieval_marks.texts() == []
    _retrieve(qtbot, window, "anything", 10, 1)
    controls.back_to_full_view()
    assert _marked(window) == (set(), {})
    assert app.lens.retrieval.result is None

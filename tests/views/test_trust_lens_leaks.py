"""No leaks, proven in the window: over random records, relations and trust contexts, with the
lens on, no payload, provenance, relation or audit-log text of a record the actor reads
redacted or not at all appears in the text of any visible widget of the window (labels, line
and text edits, buttons, combos, tooltips, every cell of the timeline and the inspector's
lists, the graph's labels and hover texts), with a redacted and a full node in the inspector
in turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgraph_gui.app.trust_lens import make_trust
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.membrane.model import SENSITIVITIES
from tests.lens_records import put_records, record, secret_texts
from tests.qt_sandbox import window_over
from tests.views.widget_texts import window_texts

SCOPES = ("", "alpha", "beta")


@st.composite
def memories(draw: Any) -> tuple[list[dict[str, Any]], Any]:
    count = draw(st.integers(2, 7))
    ids = [f"rec{i}" for i in range(count)]
    records = []
    for i, rid in enumerate(ids):
        targets = draw(st.lists(st.sampled_from(ids), max_size=3, unique=True))
        records.append(
            record(
                rid,
                draw(st.sampled_from(SENSITIVITIES)),
                scope=draw(st.sampled_from(SCOPES)),
                kind=draw(st.sampled_from(("semantic", "entity"))),
                relations=[(f"p_{rid}_{j}", t) for j, t in enumerate(targets)],
                salience=0.1 + i / 10,
            )
        )
    trust = make_trust(
        draw(st.sampled_from(("build-agent", "reviewer", ""))),
        draw(st.sampled_from(SENSITIVITIES)),
        ", ".join(draw(st.lists(st.sampled_from(("alpha", "beta")), max_size=2, unique=True))),
        draw(st.booleans()),
    )
    return records, trust


@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> Any:
    path = tmp_path / "start.memgraph"
    MemoryStore.open(path).close()
    app, shown = window_over(qtbot, path)
    yield app, shown
    shown.close()
    app.close()


def _settle(qtbot: Any, app: Any, window: Any) -> None:
    qtbot.waitUntil(
        lambda: app.lens.ready and window.graph_view.scene is not None and window.settled(),
        timeout=10_000,
    )


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(memory=memories())
def test_no_text_of_a_record_above_the_tier_in_any_widget(
    qtbot: Any, tmp_path_factory: pytest.TempPathFactory, window: Any, memory: Any
) -> None:
    records, trust = memory
    app, shown = window
    path = tmp_path_factory.mktemp("leak") / "m.memgraph"
    store = MemoryStore.open(path)
    put_records(store, records)
    app.replace_store(store)
    shown.lens_controls.look_as(trust)
    _settle(qtbot, app, shown)
    tiers = {r["id"]: app.lens.tier(r["id"]) for r in records}
    for r in records:  # the tiers are the seed's: the trust's own rule per record
        assert tiers[r["id"]] == trust.tier(r["sensitivity"], r["scope"])
    hidden = [t for r in records if tiers[r["id"]] != "full" for t in secret_texts(r)]
    redacted = [i for i, t in tiers.items() if t == "redacted"]
    full = [i for i, t in tiers.items() if t == "full"]
    omitted = [i for i, t in tiers.items() if t == "omitted"]
    retrieval = app.lens.retrieval
    with qtbot.waitSignal(retrieval.finished, timeout=10_000):
        retrieval.run("likes t1 error", 10, 2)  # (its answer marked too)
    marked = set(retrieval.result.hops)
    assert not marked & set(omitted)
    for current in (redacted[:1], full[:1], omitted[:1]):
        if current:
            app.selection.select(current, source=None)
            qtbot.wait(1)
        texts = "\n".join(window_texts(shown))
        leaked = [t for t in hidden if t in texts]
        assert not leaked, (trust, tiers, current, leaked)
    if redacted:
        app.selection.select(redacted[:1], source=None)
        inspector = shown.inspector
        assert inspector._pages.currentWidget() is inspector.redacted
    if omitted:
        assert shown.inspector.node_id not in omitted

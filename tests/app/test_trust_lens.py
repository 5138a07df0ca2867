"""The trust lens on the app model: tiers for the open graph, what ``node`` / ``edges_of`` /
the timeline rows / the find give while it is on, remembered per store file, and kept up to
date when nodes change (ours or another writer's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.trust_lens import REDACTED_KEYS, describe, load_remembered
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.membrane.trust import TrustContext
from tests.lens_records import put_records, record, set_sensitivity

MEDIUM = TrustContext("medium", True, "build-agent", ("project-auth",))


def _records() -> list[dict[str, Any]]:
    return [
        record("r-pub", "public", relations=[("knowsPub", "r-high")]),
        record("r-med", "medium", scope="project-auth", relations=[("usesMed", "r-pub")]),
        record("r-high", "high", relations=[("hintsHigh", "r-pub")]),  # redacted for medium
        record("r-hyper", "hyper"),  # omitted
        record("r-other", "low", scope="elsewhere"),  # omitted: out of scope
    ]


@pytest.fixture
def app(qapp: object, tmp_path: Path) -> Any:
    store = MemoryStore.open(tmp_path / "lens.memgraph")
    put_records(store, _records())
    model = AppModel(store)
    yield model
    model.close()


def _look(app: Any, trust: TrustContext | None) -> None:
    app.lens.set_trust(trust)
    app.lens.wait()
    assert app.lens.ready


def test_off_by_default_and_everything_full(app: Any) -> None:
    assert not app.lens.on
    assert app.node("r-hyper") is not None
    assert app.node("r-high").title != "r-high"  # its payload's title
    assert {(e.from_id, e.to_id) for e in app.edges_of("r-high")} == {
        ("r-high", "r-pub"),
        ("r-pub", "r-high"),
    }


def test_tiers_and_what_node_gives(app: Any, qtbot: Any) -> None:
    with qtbot.waitSignal(app.lens.changed, timeout=5000):
        app.lens.set_trust(MEDIUM)
    assert app.lens.omitted == {"r-hyper", "r-other"}
    assert app.lens.redacted == {"r-high"}
    assert [app.lens.tier(i) for i in ("r-pub", "r-med", "r-high", "r-hyper")] == [
        "full",
        "full",
        "redacted",
        "omitted",
    ]
    assert app.node("r-hyper") is None and app.node("r-other") is None
    high = app.node("r-high")
    assert list(high.fields) == list(REDACTED_KEYS)
    assert "Subj" not in high.title and "r-high" in high.title and "semantic" in high.title
    assert app.node("r-pub").fields["payload"]["subject"] == "Subjr-pubSecret"  # full: whole


def test_edges_leaving_redacted_and_touching_omitted_are_left_out(app: Any) -> None:
    _look(app, MEDIUM)
    assert {(e.from_id, e.to_id) for e in app.edges_of("r-high")} == {("r-pub", "r-high")}
    assert {(e.from_id, e.to_id) for e in app.edges_of("r-pub")} == {
        ("r-pub", "r-high"),
        ("r-med", "r-pub"),
    }
    assert app.edges_of("r-hyper") == []


def test_timeline_and_find_obey_the_lens(app: Any) -> None:
    _look(app, MEDIUM)
    assert set(app.timeline_rows(None).ids) == {"r-pub", "r-med", "r-high"}
    assert app.matching_ids("Secret") == {"r-pub", "r-med"}  # not r-high by its payload
    assert "r-high" in app.matching_ids("r-high")  # a redacted node by its id
    assert app.matching_ids("r-hyper") == set()  # omitted
    assert "r-high" in app.matching_ids("T1")  # by a tag it shows (case-folded)
    assert "r-high" not in app.matching_ids("Objr-high")  # not by its payload
    assert "r-high" not in app.timeline_rows(None, "Subjr-high").ids
    assert app.ranked_matches("Subjr-hyper") == []
    assert set(app.timeline_rows(None, "r-").ids) == {"r-pub", "r-med", "r-high"}


def test_back_to_full_view(app: Any) -> None:
    _look(app, MEDIUM)
    _look(app, None)
    assert app.node("r-hyper") is not None
    assert len(app.timeline_rows(None).ids) == 5


def test_selection_of_an_omitted_node_is_dropped(app: Any) -> None:
    app.selection.select(["r-hyper"], source=None)
    _look(app, MEDIUM)
    assert app.selection.current is None


def test_remembered_per_store(app: Any, qapp: object, tmp_path: Path) -> None:
    _look(app, MEDIUM)
    path = app.path
    app.lens.flush()
    assert load_remembered(path) == MEDIUM
    other = MemoryStore.open(tmp_path / "other.memgraph")
    app.replace_store(other)
    assert not app.lens.on  # another store: its own lens (none)
    app.replace_store(MemoryStore.open(path, create=False))
    assert app.lens.trust == MEDIUM
    app.lens.wait()
    assert app.node("r-hyper") is None
    _look(app, None)
    app.lens.flush()
    assert load_remembered(path) is None


def test_a_change_of_sensitivity_moves_the_node_between_tiers(app: Any, qtbot: Any) -> None:
    _look(app, MEDIUM)
    with qtbot.waitSignal(app.lens.changed, timeout=5000):
        set_sensitivity(app.store, "r-pub", "hyper")
    assert app.node("r-pub") is None
    with qtbot.waitSignal(app.lens.changed, timeout=5000):
        set_sensitivity(app.store, "r-pub", "high")
    assert list(app.node("r-pub").fields) == list(REDACTED_KEYS)


def test_the_banner_text() -> None:
    assert describe(MEDIUM) == (
        "Viewing as build-agent — up to medium, scopes project-auth (authenticated)"
    )
    assert "every scope" in describe(TrustContext("low"))

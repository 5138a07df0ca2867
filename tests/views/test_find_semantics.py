"""The window's Find box (the graph's fade and the timeline filter it drives) and ``search_text``
find the same nodes for the same query: random substrings of the nodes' texts, mixed case, ß/ss,
CJK, list and structured fields, and random text."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.test_find import PIECES, expected, mixed_case, rendered

NODES: list[tuple[str, str, dict[str, Any]]] = [
    ("location_state", "Hauptstraße 5", {"aliases": ["Main Street"]}),
    ("location_state", "HAUPTSTRASSE 7", {}),
    ("character_sheet", "Eileen", {"traits": ["calm", "brave"], "goal": "find the 银月城 key"}),
    ("character_sheet", "Kain", {"mood": {"now": "wary", "level": 3.0, "ok": True}, "age": 41}),
    ("character_sheet", "艾琳", {"aliases": ["艾", "Ailin"], "traits": "沉着"}),
    ("location_state", "银月城", {"aliases": ["月港", "Silver Moon"]}),
    ("character_sheet", "Σίσυφος", {"traits": ["ΣΟΦΟΣ", "stubborn"], "goal": None}),
    ("location_state", "İstanbul", {"aliases": ["ﬁre gate"], "note": "'quoted' [bracketed]"}),
    ("character_sheet", "Brave New", {"traits": [["calm"], {"deep": "still"}], "n": 2.5}),
]


@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> Iterator[Any]:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow

    path = tmp_path / "find.memgraph"
    with MemoryStore.open(path) as store:
        write = store.write_api()
        for kind, title, fields in NODES:
            write.create_node(type=kind, title=title, fields=fields)
        archived = write.create_node(type="character_sheet", title="Old Straße")["id"]
        write.archive_node(id=archived)
    app = AppModel(MemoryStore.open(path))
    win = MainWindow(app)
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: win.graph_view.scene is not None, timeout=10000)
    yield win
    win.graph_view.shutdown()
    app.close()


def flush(timer: Any) -> None:
    """Run a pending debounce now."""
    if timer.isActive():
        timer.stop()
        timer.timeout.emit()


def find(window: Any, query: str) -> tuple[set[str] | None, list[str]]:
    """Type ``query`` into the Find box; returns the ids the graph leaves unfaded (None: no
    fade) and the timeline's rows."""
    window.find_box.setText(query)
    flush(window._find_timer)
    flush(window.timeline_panel.filters._debounce)
    view = window.graph_view
    flush(view._search_timer)
    mask = view.search_mask
    kept = None if mask is None else {i for i, m in zip(view.scene.ids, mask, strict=True) if m}
    model = window.timeline
    return kept, [model.node_id(r) for r in range(model.rowCount())]


def texts(window: Any) -> list[str]:
    app = window.graph_view._app
    nodes = [app.node(i) for i in app.timeline_ids()]
    return [p for n in nodes for p in [n.id, n.title, *rendered(n.to_json()["fields"])]]


@st.composite
def queries(draw: st.DrawFn, parts: list[str]) -> str:
    """A random substring of a node's text (case mixed, ß/ss swapped, maybe padded), a CJK
    character or pair, or random text."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(st.lists(st.sampled_from(PIECES), max_size=3).map("".join))
    if kind == 1:
        return draw(st.sampled_from(["艾", "月", "银月", "月港", "城", "沉着", "艾琳"]))
    part = draw(st.sampled_from(parts))
    start = draw(st.integers(0, max(0, len(part) - 1)))
    query = part[start : draw(st.integers(start, min(len(part), start + 7)))]
    query = mixed_case(query, draw(st.lists(st.booleans(), max_size=8)))
    if draw(st.booleans()):
        query = query.replace("ß", "ss") if "ß" in query else query.replace("ss", "ß")
    return draw(st.sampled_from(["", " "])) + query + draw(st.sampled_from(["", "  "]))


def check(window: Any, query: str) -> None:
    from memgraph_gui.views.timeline.filters import TimelineFilter

    app = window.graph_view._app
    kept, rows = find(window, query)
    answer = list(app.read_api().search_text(query))
    shown = [app.node(i) for i in app.timeline_ids()]
    if not query.strip():
        assert kept is None and rows == [n.id for n in shown] and answer == []
        return
    assert answer == expected(app._store, query)  # the definition (tests/core/test_find.py)
    assert kept == set(answer) & set(window.graph_view.scene.ids)
    assert rows == answer  # both in timeline order
    one_by_one = TimelineFilter(text=query.strip())  # a node that changes is tested alone
    assert [n.id for n in shown if one_by_one.passes(n)] == answer
    assert app.matching_ids(query) == set(answer)


def test_the_examples_of_the_issue_find_the_same_everywhere(window: Any) -> None:
    app = window.graph_view._app
    assert len(window.graph_view.scene.ids) == len(NODES)  # every active node is drawn
    for query in ("strasse", "STRASSE", "straße", "calm", "'calm'", "[", "艾", "月港", "wary"):
        check(window, query)
    assert {app.node(i).title for i in app.read_api().search_text("strasse")} == {
        "Hauptstraße 5",
        "HAUPTSTRASSE 7",
        "Old Straße",
    }
    assert app.read_api().search_text("'calm'") == ()
    assert {app.node(i).title for i in app.read_api().search_text("calm")} == {
        "Eileen",
        "Brave New",
    }


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_find_box_timeline_and_search_text_agree_on_random_queries(
    window: Any, data: st.DataObject
) -> None:
    for _ in range(3):
        check(window, data.draw(queries(texts(window))))


def test_nodes_an_agent_changes_are_found_as_a_fresh_find_finds_them(
    window: Any, qtbot: Any
) -> None:
    from tests.core.processes import memgraph

    app = window.graph_view._app
    kain = next(i for i in app.timeline_ids() if app.node(i).title == "Kain")
    street = next(i for i in app.timeline_ids() if app.node(i).title == "HAUPTSTRASSE 7")
    check(window, "strasse")
    assert kain not in app.matching_ids("strasse") and street in app.matching_ids("strasse")
    edits = [
        {"id": kain, "setFields": {"mood": {"now": "Straßenkind"}}},  # now found
        {"id": street, "title": "Hauptweg 7"},  # no longer found
    ]
    for edit in edits:
        done = memgraph("--db", app.path, "call", "editNode", json.dumps([edit]))
        assert done.returncode == 0, done.stdout + done.stderr
    view, model = window.graph_view, window.timeline

    def shown() -> tuple[set[str], list[str]]:
        mask = view.search_mask
        kept = {i for i, m in zip(view.scene.ids, mask, strict=True) if m}
        return kept, [model.node_id(r) for r in range(model.rowCount())]

    def updated() -> bool:
        kept, rows = shown()
        return kain in kept and kain in rows and street not in kept and street not in rows

    qtbot.waitUntil(updated, timeout=5000)
    kept, rows = shown()  # what the updates left, with nothing typed since
    assert rows == list(app.read_api().search_text("strasse"))
    assert kept == set(rows) & set(view.scene.ids)
    check(window, "strasse")

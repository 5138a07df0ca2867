"""``searchNotes`` through ``NuggetsApi`` and ``memgraph call``: the nugget first, the query, then
``limit`` (JavaScript's ``slice``: null is 5, NaN is none) and the filter; reads write nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.nuggets import search
from tests.core.boundary_helpers import run, snapshot


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "n.memgraph"
    with MemoryStore.open(path) as store:
        api = store.nuggets("n")
        for i in range(8):
            api.remember(f"user:pref:tea-{i}", f"green tea number {i}")
        api.create_note("Deploy", "run the deploy command on the server", ["ops"])
        store.nuggets("other").remember("user:pref:tea", "green tea too")
    return path


def _call(db: Path, args_json: str) -> Any:
    before = snapshot(db)
    code, lines = run(db, "call", "searchNotes", args_json)
    assert snapshot(db) == before  # a read writes nothing
    assert len(lines) == 1, lines
    return code, lines[0]


def test_the_api_answers_what_the_search_module_answers(db: Path) -> None:
    with MemoryStore.open(db) as store:
        api = store.nuggets("n")
        got = api.search_notes("green tea", 3, {"scope": "user"})
        with store.reading() as graph:
            assert got == search.search_notes(graph, "n", "green tea", 3, {"scope": "user"})
        assert len(got) == 3 and all(r["note"]["nuggetName"] == "n" for r in got)
        assert len(api.search_notes("green tea")) == 5  # no limit: Nuggets' default 5
        with pytest.raises(MemgraphError) as caught:
            api.search_notes(["tea"])
        assert caught.value.code == "BAD_ARGS" and "searchNotes: query" in str(caught.value)


def test_memgraph_call_search_notes(db: Path) -> None:
    code, line = _call(db, '["n", "green tea"]')
    assert code == 0 and len(line["result"]) == 5
    best = line["result"][0]
    assert set(best) == {"note", "score", "vectorScore", "textScore"}
    assert best["note"]["title"].startswith("user:pref:tea-") and best["textScore"] == 1.75
    assert [r["score"] for r in line["result"]] == sorted(
        (r["score"] for r in line["result"]), reverse=True
    )
    code, line = _call(db, '["n", "deploy", null, {"type": "note"}]')
    assert code == 0 and [r["note"]["title"] for r in line["result"]] == ["Deploy"]
    code, line = _call(db, '["n", "tea", NaN]')  # slice(0, NaN): nothing
    assert code == 0 and line["result"] == []
    code, line = _call(db, '["nobody", "tea"]')  # an unknown nugget is empty
    assert code == 0 and line["result"] == []
    code, line = _call(db, '["n", 5]')
    assert code == 1 and line["error"]["code"] == "BAD_ARGS"
    assert "args[1]" in line["error"]["message"]
    code, line = _call(db, '["n", "tea", "five"]')
    assert code == 1 and "args[2]" in line["error"]["message"]

"""Our Nuggets API against the real Nuggets code (moonmidas/donna @ e56bfd4, run under node):
the same calls give the same results and leave the same notes, key order included, ids and
stamps renamed by first appearance. The scenarios stay off the points where the seed wins over
that code (those are pinned in ``test_api_seed_rules.py``). Expected values:
``data/api_oracle.json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.nuggets import api
from tests.core.nuggets.oracle_runner import canonical, run, ticking_clock

DATA = json.loads((Path(__file__).parent / "data" / "api_oracle.json").read_text("utf-8"))


@pytest.mark.parametrize("name", sorted(DATA["scenarios"]))
def test_scenario_agrees_with_nuggets(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(api, "iso_now", ticking_clock())
    with MemoryStore.open(":memory:") as store:
        got = canonical(run(store, DATA["scenarios"][name]))
    expected = DATA["expected"][name]
    for index, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
        step = DATA["scenarios"][name][index]
        assert json.dumps(mine, ensure_ascii=False) == json.dumps(theirs, ensure_ascii=False), (
            f"step {index}: {step}"
        )

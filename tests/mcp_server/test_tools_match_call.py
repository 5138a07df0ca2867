"""Every tool answers what ``memgraph call`` answers on the same store (another process)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import catalogue, jsonapi
from tests.mcp_server.client import ROOT, served

pytestmark = pytest.mark.anyio

# (tool, arguments), run in this order: reads, then writes (each seeing the writes before it)
CASES: list[tuple[str, dict[str, Any]]] = [
    ("listNodes", {"types": ["character_sheet"], "activeOnly": True}),
    ("listNodes", {"seqRange": {"from": 100, "to": 140}}),
    ("getNode", {"id": "n_411"}),
    ("getNode", {"id": "no-such-node"}),
    ("listEdges", {"from": "n_411", "excludeInternal": False}),
    ("getSchema", {}),
    ("getNeighbors", {"id": "n_596", "direction": "both", "projectTo": "raw"}),
    ("getAncestor", {"id": "n_12", "activeOnly": True}),
    ("getDescendants", {"id": "n_411", "maxDepth": 2}),
    ("getNearestVisibleAncestor", {"id": "n_12", "visibleNodeIds": ["n_411"]}),
    ("projectEdges", {"visibleNodeIds": ["n_411", "n_596", "n_12"]}),
    ("listVisibleCandidates", {"types": ["event"], "excludeRecentMessages": 2}),
    ("getNodeExposure", {"id": "n_596"}),
    ("getEdgeSummary", {"id": "n_596", "limit": 3}),
    ("getNodeBrief", {"id": "n_596", "edgeSummaryLimit": 2}),
    ("expandFromSeeds", {"seedIds": ["n_596"], "hops": 1, "projectTo": "raw"}),
    ("keywordSearch", {"query": "silver sword", "k": 5}),
    ("findByName", {"query": "mira"}),
    ("compactionCandidates", {"type": "event_rollup"}),
    ("getInjectionState", {}),
    ("searchText", {"query": "sword"}),
    ("searchNodesLexical", {"query": "sword", "options": {"limit": 3}}),
    ("listRecentNodes", {"options": {"limit": 4}}),
    ("getNodeById", {"id": "n_596"}),
    ("getCurrentlyInjectedNodeIds", {}),
    ("listNotes", {"nugget": "astra"}),
    ("searchNotes", {"nugget": "astra", "query": "deploy"}),
    ("getNote", {"nugget": "astra", "id": "missing"}),
    ("retrieveGraph", {"task_descriptor": "the smith", "trust": {"max_sensitivity": "medium"}}),
    ("retrieveByID", {"id": "n_596", "trust": {"max_sensitivity": "hyper"}}),
    ("history", {}),
    ("vectorSearch", {"query": "sword"}),  # no embedding profile: the same refusal
    # writes
    ("createNode", {"type": "event", "title": "A quiet dawn", "fields": {"summary": "dawn"}}),
    ("editNode", {"id": "n_596", "setFields": {"goal": "forge a blade"}}),
    (
        "upsertLinks",
        {"source": {"id": "n_596"}, "links": [{"target": {"id": "n_597"}, "relation": "knows"}]},
    ),
    ("deleteLinks", {"source": {"id": "n_596"}, "target": {"id": "n_597"}, "relation": "knows"}),
    ("applyExtractionBatch", {"ops": [{"op": "delete", "nodeId": "n_598"}]}),
    ("restoreNode", {"id": "n_598"}),
    ("deleteNode", {"id": "n_599"}),
    ("archiveNode", {"id": "n_600"}),
    ("setInjectionState", {"state": {"recallSelectedIds": ["n_596"]}}),
    ("setPins", {"pins": {"n_596": [1.5, 2.5]}}),
    ("undo", {}),
    ("redo", {}),
    ("createNote", {"nugget": "astra", "title": "Deploy", "content": "make deploy"}),
    ("remember", {"nugget": "astra", "key": "deploy-cmd", "value": "make deploy"}),
    ("recordHit", {"nugget": "astra", "id": "nope"}),
    ("addLink", {"nugget": "astra", "a": "nope", "b": "nada", "reason": "why"}),
    ("editNote", {"nugget": "astra", "id": "nope", "content": "x"}),
    ("updateNote", {"nugget": "astra", "id": "nope", "partial": {"title": "y"}}),
    ("mergeNotes", {"nugget": "astra", "target": "nope", "source": "nada", "reason": "dup"}),
    ("deleteNote", {"nugget": "astra", "id": "nope"}),
    ("compactNodes", {"type": "event_rollup", "childIds": ["n_1", "n_2"], "summary": "two"}),
    ("dissolveRollup", {"id": "n_411"}),
    ("getInjectionState", {}),
]
_RANDOM_ID = re.compile(r"\b((?:note|fact)-[\w-]*?)-[0-9a-f]{8}\b")
_VOLATILE = {
    "ts",
    "vector",
    "lastAccessedAt",
    "createdAt",
    "updatedAt",
    "lastAccessed",
    "created_at",
    "updated_at",
    "origin",
}


def test_the_cases_cover_every_tool() -> None:
    assert {name for name, _ in CASES} == set(catalogue.tools())


def _stable(data: Any) -> Any:
    """``data`` without what differs between two runs of the same calls (times, the writer)."""
    if isinstance(data, dict):
        return {k: _stable(v) for k, v in data.items() if k not in _VOLATILE}
    if isinstance(data, list):
        return [_stable(v) for v in data]
    if isinstance(data, str):  # a note's id ends with random hex digits
        return _RANDOM_ID.sub(r"\1-?", data.replace(" (via pytest-agent)", ""))
    return data


async def test_each_tool_answers_what_memgraph_call_answers(
    demo_copy: Path, tmp_path: Path
) -> None:
    twin = tmp_path / "twin.memgraph"
    shutil.copyfile(demo_copy, twin)
    tools = catalogue.tools()
    requests = "".join(
        json.dumps({"call": name, "args": tools[name].call_args(arguments)}) + "\n"
        for name, arguments in CASES
    )
    done = subprocess.run(
        [sys.executable, "-m", "memgraph_gui.cli", "call", "--db", str(twin), "-"],
        input=requests,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    expected = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(expected) == len(CASES)
    async with served(demo_copy) as session:
        for (name, arguments), want in zip(CASES, expected, strict=True):
            got = await session.call_tool(name, arguments)
            answer = got.structured_content
            assert got.is_error == ("error" in want), (name, answer, want)
            assert _stable(answer) == _stable(want), name
            assert json.loads(got.content[0].text) == answer


def test_call_args_places_each_argument() -> None:
    tools = catalogue.tools()
    assert tools["getNeighbors"].call_args({"id": "a", "direction": "in"}) == [
        "a",
        {"direction": "in"},
    ]
    assert tools["getNeighbors"].call_args({"direction": "in"}) == [None, {"direction": "in"}]
    assert tools["listEdges"].call_args({"from": "a", "to": None}) == [{"from": "a"}]
    assert tools["searchNotes"].call_args({"nugget": "n", "filter": {}}) == ["n", None, None, {}]
    assert tools["getSchema"].call_args(None) == []
    with pytest.raises(Exception, match="unknown argument 'nope'"):
        tools["getNode"].call_args({"nope": 1})
    assert jsonapi.call  # the same boundary

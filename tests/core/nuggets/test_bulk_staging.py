"""Staging many linked notes in one transaction stays linear (an import or a demo of 50k notes):
finding a note's staged edges does not scan every edge staged so far."""

from __future__ import annotations

from typing import Any

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.nuggets import model


class _CountingDict(dict):  # type: ignore[type-arg]
    """A dict that counts the keys its iterations hand out."""

    visited = 0

    def __iter__(self) -> Any:
        for key in super().__iter__():
            _CountingDict.visited += 1
            yield key


def _note(note_id: str, *links: str) -> dict[str, Any]:
    return {
        "id": note_id,
        "nuggetName": "n",
        "title": note_id,
        "tags": [],
        "links": [
            {"to": to, "reason": "r", "createdAt": "2026-01-01T00:00:00.000Z"} for to in links
        ],
        "hidden": False,
        "kind": "note",
    }


def test_staging_linked_notes_never_scans_every_staged_edge() -> None:
    store = MemoryStore.open(":memory:")
    with store.storage.transaction(OpKind.BATCH, "many") as tx:
        tx._edges = _CountingDict()  # the staged edges
        model.stage_note(tx, _note("n0"))
        for i in range(1, 400):
            model.stage_note(tx, _note(f"n{i}", f"n{i - 1}", "n0"))
        # re-staging a note with other links finds its staged edges to drop them
        model.stage_note(tx, _note("n5", "n1"))
        visited = _CountingDict.visited
    assert visited == 0  # the old scan visited ~160,000 keys here
    edges = store.graph.edges
    assert len(edges) == 1 + 2 * 398 - 1  # n1 links n0 once; n5 now has one link
    assert ("n5", model.LINK_EDGE, "n1") in edges and ("n5", model.LINK_EDGE, "n4") not in edges
    assert ("n5", model.LINK_EDGE, "n0") not in edges

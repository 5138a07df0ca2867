"""The ``candidateRows`` of the whole candidate pool under one store read.

``pool_rows(graph, visible)`` is, row for row, ``getNodeBrief(id, includeEdgeSummary=True,
edgeSummaryLimit=8).to_json()`` over ``listVisibleCandidates()``; the caller holds the store lock.
"""

from __future__ import annotations

from typing import Any

from memgraph_gui.core.graph import recall
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.luker.read_briefs import _brief

EDGE_SUMMARY_LIMIT = 8


def pool_rows(graph: Graph, visible: frozenset[str] | None) -> list[dict[str, Any]]:
    """One getNodeBrief row per candidate, in pool order; ``visible`` None: the recorded set."""
    seen = recall.default_visible(graph) if visible is None else visible
    return [
        _brief(
            graph, node, recall.edge_summary(graph, node.id, seen, None, EDGE_SUMMARY_LIMIT)
        ).to_json()
        for node in recall.candidate_pool(graph)
    ]

"""The graph view: nodes, edges, injection highlight, selection, labels, focus and layout."""

from __future__ import annotations

from memgraph_gui.views.graph.view import GraphView

__all__ = ["GraphView"]

"""Force-directed layout, headless: PivotMDS start plus a particle-mesh Fruchterman-Reingold
refinement (numpy/scipy only; never O(n^2)). Positions in, positions out."""

from __future__ import annotations

from memgraph_gui.core.layout.model import LayoutFrame, LayoutInput
from memgraph_gui.core.layout.quality import layout_quality, overlap_fraction
from memgraph_gui.core.layout.stream import compute_layout, stream_layout

__all__ = [
    "LayoutFrame",
    "LayoutInput",
    "compute_layout",
    "layout_quality",
    "overlap_fraction",
    "stream_layout",
]

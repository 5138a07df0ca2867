"""Graph layout, headless (numpy/scipy only; never O(n^2)). Positions in, positions out.

- ``stream_layout`` / ``compute_layout``: PivotMDS start plus a particle-mesh
  Fruchterman-Reingold refinement whose edges pull less at hubs (``forces``), for the whole
  memory or a weighted overview cut;
- ``place_unfolded``: the children of an unfolded rollup around it, nothing else moved;
- ``arrange_by_time``: leaves along a Hilbert curve in seq order, rollups and entities at the
  centre of what they hold or touch.
"""

from __future__ import annotations

from memgraph_gui.core.layout.model import LayoutFrame, LayoutInput
from memgraph_gui.core.layout.place import place_unfolded
from memgraph_gui.core.layout.quality import layout_quality, overlap_fraction
from memgraph_gui.core.layout.stream import compute_layout, stream_layout
from memgraph_gui.core.layout.timeline import arrange_by_time

__all__ = [
    "LayoutFrame",
    "LayoutInput",
    "arrange_by_time",
    "compute_layout",
    "layout_quality",
    "overlap_fraction",
    "place_unfolded",
    "stream_layout",
]

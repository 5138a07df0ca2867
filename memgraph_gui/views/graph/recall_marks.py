"""The Recall lab on the graph: each ranking's nodes ringed in its own shape and colour
(``theme.recall_lab_styles``), and the nodes Run recall picked, the rings nested round a node
that several rankings found so every one stays in sight.

An overlay as design §8 asks of a highlight: one small scatter item per ranking over the
nodes, set anew in well under a millisecond; positions follow a layout or a drag in place
(``follow``). Marks only for drawn nodes (while folded, on the rollup standing for a member).
Plain marks: no node text is drawn. GUI thread only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from memgraph_gui.views.graph.overlays import (
    Lift,
    Sizes,
    _reach,
    _Ring,
    _ring,
    _sizes_of,
    lift_rows,
    mark_style,
)
from memgraph_gui.views.graph.scene import GraphScene
from memgraph_gui.views.qt import pg
from memgraph_gui.views.theme import recall_lab_styles

PAD_STEP = 7.0
"""Each ranking's ring is this many pixels wider than the one inside it."""
FIRST_PAD = 9.0
Z = 25.0
"""Over the injection marks (20-24), under the selection (30, 31) and the labels (40)."""


class RecallLabMarks:
    """The lab's rankings marked (``show``), or none (``clear``)."""

    def __init__(self, view: pg.ViewBox, sizes: Sizes | None = None) -> None:
        self._sizes = sizes
        self.rings: dict[str, _Ring] = {}
        for i, style in enumerate(recall_lab_styles()):
            pad = FIRST_PAD + PAD_STEP * i
            look = mark_style(style.color, pad, 2.2 if style.key != "picked" else 2.6)
            self.rings[style.key] = _ring(view, Z + i * 0.1, look, style.symbol)

    def show(
        self,
        scene: GraphScene,
        marks: Mapping[str, Sequence[str]],
        visible: np.ndarray,
        lift: Lift | None = None,
    ) -> None:
        """Mark, per key of ``marks``, its node ids drawn in ``scene`` (``visible`` rows only;
        with ``lift``, the shown rows standing for them)."""
        sizes = _sizes_of(scene, self._sizes)
        for key, ring in self.rings.items():
            ids = marks.get(key, ())
            rows, _held = lift_rows(scene.rows(list(ids)), lift, scene.n)
            ring.show(scene, rows, visible, sizes)

    def clear(self) -> None:
        """No marks."""
        none = np.zeros(0, dtype=np.int64)
        for ring in self.rings.values():
            ring.rows = none
            ring.faded = np.zeros(0, dtype=bool)
            ring.item.setVisible(False)
            ring.dimmed.setVisible(False)

    def rows(self, key: str) -> set[int]:
        """The scene rows marked for ``key`` (tests)."""
        return {int(r) for r in self.rings[key].rows}

    def follow(self, scene: GraphScene) -> None:
        """Move the marks with their nodes (a layout frame, a drag)."""
        for ring in self.rings.values():
            ring.follow(scene)

    def reach(self, n: int) -> np.ndarray:
        """Per scene row (``n``), pixels from its node's edge to its outermost ring's edge."""
        return _reach(n, list(self.rings.values()))

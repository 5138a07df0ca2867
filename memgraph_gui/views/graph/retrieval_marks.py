""" "Retrieve for a task…" on the graph: the roots of a ``retrieveGraph`` answer ringed boldly,
the nodes its expansion reached ringed lighter, and beside each its hop ("root", "hop 1", …).

An overlay as design §8 asks of a highlight: two small scatter items over the nodes and at most
``node_limit`` text items (25 by default), set anew in well under a millisecond; positions follow
a layout or a drag in place (``follow``). Marks only for drawn nodes. Hop labels are plain text
and carry no node text (a redacted node's hop says nothing of it). GUI thread only."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from memgraph_gui.views.graph.overlays import Sizes, _ring, _sizes_of, mark_style
from memgraph_gui.views.graph.palette import LABEL_COLOR
from memgraph_gui.views.graph.scene import GraphScene
from memgraph_gui.views.qt import QFont, pg, tr

ROOT_COLOR = "#d35400"
REACHED_COLOR = "#8e44ad"
HOP_FILL = (255, 244, 230, 230)
HOP_Z = 41  # over the labels (40)


class RetrievalMarks:
    """The roots and reached nodes of one answer (``show``), or none (``clear``)."""

    def __init__(self, view: pg.ViewBox, sizes: Sizes | None = None) -> None:
        self._view = view
        self._sizes = sizes
        self.roots = _ring(view, 27, mark_style(ROOT_COLOR, 18.0, 3.2, fill=60), "o")
        self.reached = _ring(view, 26, mark_style(REACHED_COLOR, 11.0, 2.4, fill=35), "o")
        self._labels: list[pg.TextItem] = []
        self._font = QFont()
        self._font.setPointSizeF(8.0)
        self._font.setBold(True)
        self.hops: dict[int, int] = {}  # scene row -> hop, for the rows marked now

    def show(
        self,
        scene: GraphScene,
        roots: list[str],
        hops: Mapping[str, int],
        visible: np.ndarray,
    ) -> None:
        """Mark ``roots`` and the other nodes of ``hops`` (node id -> hop) drawn in ``scene``
        (``visible`` rows only), each with its hop."""
        index = scene.index
        root_rows = np.array([index[i] for i in roots if i in index], dtype=np.int64)
        others = [i for i in hops if i in index and i not in set(roots)]
        reached_rows = np.array([index[i] for i in others], dtype=np.int64)
        sizes = _sizes_of(scene, self._sizes)
        self.roots.show(scene, root_rows, visible, sizes)
        self.reached.show(scene, reached_rows, visible, sizes)
        shown = [*self.roots.rows.tolist(), *self.reached.rows.tolist()]
        self.hops = {row: int(hops.get(scene.ids[row], 0)) for row in shown}
        self._place_labels(scene)

    def clear(self) -> None:
        """No answer marked."""
        none = np.zeros(0, dtype=np.int64)
        for ring in (self.roots, self.reached):
            ring.rows = none
            ring.item.setVisible(False)
            ring.dimmed.setVisible(False)
        self.hops = {}
        for item in self._labels:
            item.setVisible(False)

    def follow(self, scene: GraphScene) -> None:
        """Move the marks and hop labels with their nodes (a layout frame, a drag)."""
        if not self.hops:
            return
        self.roots.follow(scene)
        self.reached.follow(scene)
        self._place_labels(scene)

    def texts(self) -> list[str]:
        """The hop labels shown (tests)."""
        return [item.toPlainText() for item in self._labels if item.isVisible()]

    def _place_labels(self, scene: GraphScene) -> None:
        rows = list(self.hops)
        while len(self._labels) < len(rows):
            item = pg.TextItem(color=LABEL_COLOR, anchor=(1.0, 1.0), fill=pg.mkBrush(HOP_FILL))
            item.setFont(self._font)
            item.setZValue(HOP_Z)
            item.setAcceptedMouseButtons(pg.QtCore.Qt.MouseButton.NoButton)
            item.setAcceptHoverEvents(False)
            self._view.addItem(item, ignoreBounds=True)
            self._labels.append(item)
        for item, row in zip(self._labels, rows, strict=False):
            hop = self.hops[row]
            text = tr("root") if hop == 0 else tr("hop {hop}").format(hop=hop)
            if item.toPlainText() != text:
                item.setText(text)
            item.setPos(float(scene.pos[row, 0]), float(scene.pos[row, 1]))
            item.setVisible(True)
        for item in self._labels[len(rows) :]:
            item.setVisible(False)

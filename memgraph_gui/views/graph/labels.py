"""Node titles, drawn only when zoomed in and only for the nodes in view.

"Zoomed in" means at most ``LABEL_LIMIT`` visible nodes fall inside the view rectangle, so there
are never more than a few hundred ``TextItem``s; they come from a pool and are reused. Titles are
plain text (``TextItem.setText`` uses ``setPlainText``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from memgraph_gui.views.graph.palette import LABEL_COLOR
from memgraph_gui.views.graph.scene import GraphScene
from memgraph_gui.views.qt import QFont, QtCore, pg

LABEL_LIMIT = 250
OVERVIEW_LABELS = 30  # labels on a crowded view: the biggest nodes in view only
MAX_CHARS = 36
GAP_PX = 7
LABEL_FILL = (251, 251, 253, 190)


class LabelLayer:
    """A pool of ``TextItem``s placed next to the nodes in view; ``title_of(id)`` gives each
    label's whole text (one line, short)."""

    def __init__(self, view: pg.ViewBox, title_of: Callable[[str], str]) -> None:
        self._view = view
        self._title_of = title_of
        self._pool: list[pg.TextItem] = []
        self.rows = np.zeros(0, dtype=np.int64)
        self._font = QFont()
        self._font.setPointSizeF(8.5)

    def refresh(
        self, scene: GraphScene | None, visible: np.ndarray, weight: np.ndarray | None = None
    ) -> None:
        """Label the visible nodes in view when there are at most ``LABEL_LIMIT`` of them;
        when there are more and ``weight`` is given (an overview: what each row holds), the
        ``OVERVIEW_LABELS`` heaviest of them."""
        if scene is None or not scene.n:
            self._show(scene, np.zeros(0, dtype=np.int64))
            return
        (x0, x1), (y0, y1) = self._view.viewRange()
        inside = np.flatnonzero(scene.in_rect(x0, y0, x1, y1) & visible)
        if len(inside) <= LABEL_LIMIT:
            self._show(scene, inside)
        elif weight is None:
            self._show(scene, inside[:0])
        else:
            heavy = inside[np.argsort(-weight[inside], kind="stable")[:OVERVIEW_LABELS]]
            self._show(scene, np.sort(heavy[weight[heavy] > 1]))

    def clear(self) -> None:
        self._show(None, np.zeros(0, dtype=np.int64))

    def follow(self, scene: GraphScene) -> None:
        """Move the shown labels to their nodes' current positions."""
        for item, row in zip(self._pool, self.rows, strict=False):
            item.setPos(float(scene.pos[row, 0]), float(scene.pos[row, 1]))

    @property
    def shown(self) -> int:
        return len(self.rows)

    def texts(self) -> list[str]:
        return [self._pool[i].textItem.toPlainText() for i in range(len(self.rows))]

    def _show(self, scene: GraphScene | None, rows: np.ndarray) -> None:
        while len(self._pool) < len(rows):
            self._pool.append(self._new_item())
        for i, row in enumerate(rows):
            assert scene is not None
            item = self._pool[i]
            item.setText(self._title_of(scene.ids[row]))
            item.setPos(float(scene.pos[row, 0]), float(scene.pos[row, 1]))
            item.setVisible(True)
        for item in self._pool[len(rows) :]:
            item.setVisible(False)
        self.rows = rows

    def _new_item(self) -> pg.TextItem:
        item = _Label(color=LABEL_COLOR, anchor=(0, 0.5), fill=pg.mkBrush(LABEL_FILL))
        item.setFont(self._font)
        item.setZValue(5)  # under the nodes (never hides one), over the edges
        item.setAcceptedMouseButtons(pg.QtCore.Qt.MouseButton.NoButton)
        self._view.addItem(item, ignoreBounds=True)
        return item


class _Label(pg.TextItem):  # type: ignore[misc]
    """A ``TextItem`` a few pixels right of its node, whatever the text's width."""

    def updateTextPos(self) -> None:
        super().updateTextPos()
        self.textItem.setPos(self.textItem.pos() + QtCore.QPointF(GAP_PX, 0))


def short_label(title: str) -> str:
    """``title`` on one line, at most ``MAX_CHARS`` characters (elided with "…")."""
    title = " ".join(title.split())
    return title if len(title) <= MAX_CHARS else title[: MAX_CHARS - 1] + "…"

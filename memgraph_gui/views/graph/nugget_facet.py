"""The graph's nugget facet (a mixin of ``GraphView``): a "Nugget" combo in the graph's top-left
corner, shown when the store holds Nuggets notes; picking a nugget draws only its notes (and the
links among them), "All nuggets" draws everything again. GUI thread only."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from memgraph_gui.views.nugget_combo import NuggetCombo

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.views.graph.scene import GraphScene
    from memgraph_gui.views.qt import QTimer, QtWidgets

COMBO_MARGIN_PX = 8


class GraphNuggets:
    """The nugget filter over the scene's rows."""

    _app: AppModel
    scene: GraphScene | None
    plot: QtWidgets.QWidget
    _label_timer: QTimer
    nugget_filter: str | None = None
    _nugget_mask: tuple[object, int, str, np.ndarray] | None = None

    # provided by GraphView, which comes first in its own bases
    def _apply_visibility(self, *, fit: bool = False) -> None:
        raise NotImplementedError

    def _build_nugget_combo(self) -> None:
        """Create the combo over the plot (call after the canvas is built)."""
        self.nugget_combo = NuggetCombo(self.plot)
        self.nugget_combo.chosen.connect(self.set_nugget)
        self.refresh_nuggets()

    def refresh_nuggets(self) -> None:
        """Offer the store's nuggets now (after notes came or went, or another store)."""
        if self._app.closed:
            return
        self.nugget_combo.set_nuggets(self._app.nuggets())
        self.nugget_combo.adjustSize()
        self._place_nugget_combo()

    def _place_nugget_combo(self) -> None:
        self.nugget_combo.move(COMBO_MARGIN_PX, COMBO_MARGIN_PX)
        self.nugget_combo.raise_()

    def set_nugget(self, nugget: str | None) -> None:
        """Draw only ``nugget``'s notes (None: every node), fitted."""
        if nugget != self.nugget_filter:
            self.nugget_filter = nugget
            if self.nugget_combo.current() != nugget:
                self.nugget_combo.choose(nugget)
            self._apply_visibility(fit=True)

    def nugget_rows(self, scene: GraphScene) -> np.ndarray | None:
        """The rows the nugget filter keeps (None: no filter), memoised per scene, scene
        version and nugget."""
        nugget = self.nugget_filter
        if nugget is None:
            return None
        memo = self._nugget_mask
        if memo is not None and memo[0] is scene and memo[1] == scene.version and memo[2] == nugget:
            return memo[3]
        ids = self._app.nugget_ids(nugget)
        mask = np.fromiter((i in ids for i in scene.ids), dtype=bool, count=scene.n)
        self._nugget_mask = (scene, scene.version, nugget, mask)
        return mask

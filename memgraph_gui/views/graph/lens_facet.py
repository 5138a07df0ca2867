"""The graph under the trust lens (a mixin of ``GraphView``): while "View as" is on, the nodes
the actor may not see at all are not drawn, nor their edges, and no edge leaving a redacted node
is (its relations are stripped: its links from nodes read in full still show). A redacted
node's label and hover text are what ``AppModel.node`` gives for it: its id and memory type.
The answer of "Retrieve for a task…" is marked over the drawn nodes (``retrieval_marks``: the
roots, the nodes reached, their hops). GUI thread only."""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING

import numpy as np

from memgraph_gui.app.trust_lens import OMITTED, REDACTED

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.views.graph.retrieval_marks import RetrievalMarks
    from memgraph_gui.views.graph.scene import GraphScene


class GraphLens:
    """The lens's masks over the scene's rows, memoised per scene version and lens version."""

    _app: AppModel
    scene: GraphScene | None
    visible: np.ndarray
    retrieval_marks: RetrievalMarks
    _lens_memo: tuple[object, int, int, np.ndarray, np.ndarray | None] | None = None

    def lens_rows(self, scene: GraphScene) -> np.ndarray | None:
        """The rows the lens lets be drawn (None: every row), and ``scene.quiet`` set to the
        rows whose outgoing edges are not drawn (None: none)."""
        lens = self._app.lens
        if not lens.omitted and not lens.redacted:
            scene.quiet = None
            return None
        memo = self._lens_memo
        if (
            memo is None
            or memo[0] is not scene
            or memo[1] != scene.version
            or memo[2] != lens.version
            or len(memo[3]) != scene.n
        ):
            tier = lens.row_codes(scene.ids)  # made off the GUI thread with the tiers
            if tier is None:  # one C-level pass over the rows: ~3-10 ms at 50k
                codes = lens.codes()
                tier = np.fromiter(map(codes.get, scene.ids, repeat(0)), np.int8, scene.n)
            quiet = tier == REDACTED
            memo = (
                scene,
                scene.version,
                lens.version,
                tier != OMITTED,
                quiet if quiet.any() else None,
            )
            self._lens_memo = memo
        scene.quiet = memo[4]
        return memo[3]

    def show_retrieval(self) -> None:
        """Mark the lens's last "Retrieve for a task…" answer over the drawn nodes (none:
        clear the marks)."""
        result = self._app.lens.retrieval.result
        scene = self.scene
        if result is None or scene is None or len(self.visible) != scene.n:
            self.retrieval_marks.clear()
            return
        self.retrieval_marks.show(scene, list(result.roots), result.hops, self.visible)

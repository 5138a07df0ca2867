"""Pointer handling of the graph view: click to select, hover for the title, drag to pin, unpin
(and pins or a layout saved elsewhere). Mixed into ``GraphView``; GUI thread only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memgraph_gui.app.graph_data import pin_nodes, stored_positions
from memgraph_gui.views.graph.canvas import EDGE_LIVE_LIMIT
from memgraph_gui.views.qt import Qt, QtWidgets

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.app.layout_job import LayoutJob
    from memgraph_gui.views.graph.items import NodeScatter
    from memgraph_gui.views.graph.labels import HoverTitle
    from memgraph_gui.views.graph.scene import GraphScene


class GraphPointer:
    """Selection, hover and drag-to-pin over the scene."""

    _app: AppModel
    scene: GraphScene | None
    preview_stamp: tuple[str, int] | None
    picked_in_preview: str | None
    hovered_id: str | None
    nodes: NodeScatter
    hover_title: HoverTitle
    plot: QtWidgets.QWidget
    layout_job: LayoutJob

    # provided by GraphCanvas / GraphView, which come first in GraphView's bases
    def _hover_of(self, node_id: str) -> str:
        raise NotImplementedError

    def _set_moving(self, why: str, on: bool) -> None:
        raise NotImplementedError

    def _positions_moved(self, *, edges: bool) -> None:
        raise NotImplementedError

    def whole_in_view(self) -> bool:
        raise NotImplementedError

    def fit(self) -> None:
        raise NotImplementedError

    def _on_node_clicked(self, row: int, modifiers: object) -> None:
        scene, sel = self.scene, self._app.selection
        if scene is None:
            return
        if self.preview_stamp is not None:  # the store is still opening: select it once in
            self.picked_in_preview = scene.ids[row] if row >= 0 else None
            return
        toggle = bool(Qt.KeyboardModifier.ControlModifier & modifiers)  # type: ignore[operator]
        if row < 0:
            if not toggle:
                sel.clear(source=self)
            return
        node_id = scene.ids[row]
        if not toggle:
            sel.select([node_id], source=self)
        elif node_id in sel.ids:
            sel.select(sorted(sel.ids - {node_id}), source=self)
        else:
            sel.select([*sorted(sel.ids), node_id], current=node_id, source=self)

    def _on_node_hovered(self, row: int) -> None:
        """Show the hovered node's whole title beside it until the pointer leaves the node
        (emitted once per node entered: moves within it change nothing)."""
        scene = self.scene
        if scene is None or row < 0 or row >= scene.n:
            self.hover_title.hide()
            self.hovered_id = None
            return
        self.hovered_id = scene.ids[row]
        self.hover_title.show(scene, row, self._hover_of(scene.ids[row]))

    def unpin(self, node_id: str) -> bool:
        """Unpin a pinned node where it stands (the layout may move it again): one undo step
        ("Unpin 'Title'"). False when it is not drawn or not pinned."""
        scene = self.scene
        row = scene.index.get(node_id, -1) if scene is not None else -1
        if scene is None or row < 0 or not scene.pinned[row] or self.preview_stamp is not None:
            return False
        scene.pinned[row] = False
        pin_nodes(self._app, {node_id: None}, initiator=self)
        return True

    def _on_node_dragged(self, row: int, x: float, y: float, finished: bool) -> None:
        scene = self.scene
        if row < 0:  # cut short: the picture it began on was replaced
            self._set_moving("drag", False)
            return
        if scene is None or self.preview_stamp is not None:
            return
        scene.pos[row] = (x, y)
        self._set_moving("drag", not finished)
        self._positions_moved(edges=finished or len(scene.edges) <= EDGE_LIVE_LIMIT)
        if finished:
            scene.pinned[row] = True
            pin_nodes(self._app, {scene.ids[row]: (x, y)}, initiator=self)

    def _apply_stored_pins(self) -> None:
        """Follow pins changed elsewhere (undo/redo, another process): pinned nodes go to their
        pin, unpinned ones back to their saved position."""
        scene = self.scene
        if scene is None:
            return
        saved, pins = stored_positions(self._app)
        for row, node_id in enumerate(scene.ids):
            xy = pins.get(node_id)
            if xy is not None:
                scene.pos[row] = xy
            elif scene.pinned[row] and node_id in saved:
                scene.pos[row] = saved[node_id]
            scene.pinned[row] = xy is not None
        self._positions_moved(edges=True)

    def _apply_saved_layout(self) -> None:
        """Take the layout another process saved (``memgraph layout``, a second window): every
        drawn node with a saved position moves there (pins win), and a view that showed the
        whole picture still does. A layout running here stops, since the saved one is newer;
        nodes the save did not place are laid out again."""
        scene = self.scene
        if scene is None or self.preview_stamp is not None:
            return
        self.layout_job.cancel()
        whole = self.whole_in_view()
        saved, _pins = stored_positions(self._app)  # the saved positions have the pins applied
        for row, node_id in enumerate(scene.ids):
            xy = saved.get(node_id)
            if xy is not None:
                scene.pos[row], scene.placed[row] = xy, True
        self._positions_moved(edges=True)
        if whole and not self.whole_in_view():  # the whole picture stays in view, unless the
            self.fit()  # user had zoomed in on a part of it
        if not scene.placed.all():
            self.layout_job.start()

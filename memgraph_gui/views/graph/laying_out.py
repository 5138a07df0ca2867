"""Laying the graph out: the force layout's frames landing on the picture, the overview laid out
first for a memory whose rows mostly have no position, the layout of a new picture once it is
painted, and the arrangement by time. Mixed into ``GraphView``; GUI thread only."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from memgraph_gui.app.graph_data import stored_positions
from memgraph_gui.app.overview_layout import OverviewSeed, mostly_unplaced
from memgraph_gui.views.graph.canvas import EDGE_LIVE_LIMIT
from memgraph_gui.views.graph.folding import FoldSettings, compute_folded
from memgraph_gui.views.graph.scene import arrange_in_time

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.app.layout_job import LayoutJob, LayoutUpdate
    from memgraph_gui.views.graph.actions import GraphActions
    from memgraph_gui.views.graph.folding import Folded
    from memgraph_gui.views.graph.items import EdgeLayer
    from memgraph_gui.views.graph.scene import GraphScene

LAYOUT_AFTER_SHOW_MS = 150
"""A new picture with unplaced rows is shown and labelled before its layout starts: the
layout's first steps (reading the graph, PivotMDS) took the GIL from the first paints and
labels of a 50k picture, each then a frame of 60-120 ms."""


class GraphLayout:
    """The layout's frames, its start and the arrangement by time over the scene."""

    _app: AppModel
    scene: GraphScene | None
    preview_stamp: tuple[str, int] | None
    layout_job: LayoutJob
    graph_actions: GraphActions
    edges: EdgeLayer
    folded: Folded | None
    focus_on: bool
    by_time: bool
    shut_down: bool
    _fit_pending: bool
    _moving: set[str]
    _layout_for: GraphScene | None
    _rows_match: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    """A run's frame ids and the scene's, found equal (each frame of a run has the same tuple)."""

    # provided by GraphView, GraphCanvas and GraphFolding, before this in GraphView's bases
    def _animating(self, on: bool) -> None:
        raise NotImplementedError

    def _positions_moved(self, *, edges: bool) -> None:
        raise NotImplementedError

    def _apply_visibility(self, *, fit: bool = False) -> None:
        raise NotImplementedError

    def _draw_edges(self) -> None:
        raise NotImplementedError

    def fit(self) -> None:
        raise NotImplementedError

    def fold_settings(self) -> FoldSettings:
        raise NotImplementedError

    def relayout(self) -> None:
        """Run the force layout again from scratch (pinned nodes stay put; leaves the
        arrangement by time)."""
        self.set_arrange_by_time(False)
        self.layout_job.start(full=True)

    def set_arrange_by_time(self, on: bool) -> None:
        """Arrange the memory by time (events along a space-filling curve in story order,
        rollups at their children's centre, characters and places at their events' mean;
        instant, never saved), or go back to the saved layout."""
        on = bool(on)
        if self.graph_actions.arrange_time.isChecked() != on:
            self.graph_actions.arrange_time.setChecked(on)
        if on == self.by_time:
            return
        self.by_time = on
        scene = self.scene
        if scene is None:
            return
        if on:
            self.layout_job.cancel()
            arrange_in_time(scene)
        else:
            self._restore_saved(scene)
        self._animating(False)
        self.edges.suspend(False)
        self._positions_moved(edges=False)
        self._apply_visibility(fit=True)
        if not on and not scene.placed.all():
            self._start_layout()

    def _restore_saved(self, scene: GraphScene) -> None:
        """Back from the time arrangement: every row at its pin or saved position (rows
        without one are laid out)."""
        saved, pins = stored_positions(self._app)
        for row, node_id in enumerate(scene.ids):
            xy = pins.get(node_id) or saved.get(node_id)
            scene.pos[row] = xy if xy is not None else (np.nan, np.nan)
        scene.placed = ~np.isnan(scene.pos[:, 0])
        scene.place_missing()
        scene.timed = False

    def _on_layout_due(self) -> None:
        """The layout of the picture it was due for, if that is still the open store's picture
        shown (not replaced, nor a preview of a file opening meanwhile) with unplaced rows."""
        scene, self._layout_for = self._layout_for, None
        if self.shut_down or scene is None or scene is not self.scene:
            return
        if self.preview_stamp is None and not scene.placed.all():
            self._start_layout()

    def _start_layout(self) -> None:
        """Lay out the rows without a position: when most have none, the overview first."""
        self.layout_job.start(overview=self._overview_seed())

    def _overview_seed(self) -> OverviewSeed | None:
        """What the layout needs to lay the overview out first (its cut at fit zoom, the merged
        lines, the known positions), or None when most rows have a position already."""
        scene = self.scene
        if scene is None or not mostly_unplaced(scene.placed):
            return None
        folded, fit_zoom = self.folded, FoldSettings()
        if folded is None or self.fold_settings() != fit_zoom:  # a level, focus or prompt view
            folded = compute_folded(scene, fit_zoom)
        if not folded.active or folded.cut.count >= scene.n:
            return None
        known = np.where(scene.placed[:, None], scene.pos, np.nan)
        links = folded.links
        return OverviewSeed(
            scene.ids,
            folded.cut.shown.copy(),
            links.pairs,
            links.counts,
            scene.parents.copy(),
            scene.edges,
            known,
            scene.pinned.copy(),
        )

    def _on_frame_ready(self, update: LayoutUpdate) -> None:
        scene = self.scene
        if scene is None or self.by_time:
            return
        if self._whole_picture(update.ids, scene):
            # the whole picture, copied in place past the pinned rows (an index of every row
            # and fancy-indexed copies took ~10 ms of each frame at 200k; a copy ``where`` the
            # rows are unpinned ~2 ms, a plain one 0.1 ms)
            if scene.pinned.any():
                np.copyto(scene.pos, update.pos, where=~scene.pinned[:, None])
            else:
                np.copyto(scene.pos, update.pos)
            scene.placed.fill(True)
        else:
            rows = scene.rows(update.ids)
            keep = np.fromiter((i in scene.index for i in update.ids), bool, len(update.ids))
            src = update.pos[keep]
            free = ~scene.pinned[rows]
            scene.pos[rows[free]] = src[free]
            scene.placed[rows] = True
        # the overview's few thousand merged lines follow every frame; raw edges only when few
        merged = self.folded is not None and self.folded.active and not self.focus_on
        live = merged or len(scene.edges) <= EDGE_LIVE_LIMIT or update.done
        self.edges.suspend(not live)
        self._animating(not update.done)
        self._positions_moved(edges=False)
        if live:
            self._draw_edges()
        if self._fit_pending and (update.stage in ("start", "overview") or update.done):
            self._fit_pending = not update.done
            self.fit()

    def _whole_picture(self, ids: tuple[str, ...], scene: GraphScene) -> bool:
        """True when a frame's ``ids`` are ``scene``'s rows, in order. Compared once per run
        and scene (200k ids compared one by one took ~2 ms of every frame)."""
        known = self._rows_match
        if ids is scene.ids or (known is not None and known[0] is ids and known[1] is scene.ids):
            return True
        if ids != scene.ids:
            return False
        self._rows_match = (ids, scene.ids)
        return True

    def _on_layout_finished(self, _completed: bool) -> None:
        if "layout" in self._moving and self.scene is not None:
            self._animating(False)
            self.edges.suspend(False)
            self._positions_moved(edges=False)
            self._draw_edges()  # the overview's merged lines, or the raw edges

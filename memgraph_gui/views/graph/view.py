"""``GraphView``: the centre pane over one ``AppModel``: nodes, edges, live injection highlight,
selection, labels, focus, search fade, pin-by-drag, a streaming layout, and the open-time preview.

Design §8 rules: full-viewport updates; edges device-cached for pan and highlight, uncached (or
hidden, when big) while zooming; positions moved in place while the layout animates; highlight
and selection as small overlay items; labels only for the nodes in view when zoomed in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.graph_data import (
    GraphSnapshot,
    create_pinned_node,
    graph_snapshot,
    stored_pins,
)
from memgraph_gui.app.layout_job import LayoutJob
from memgraph_gui.app.settings import load_focus_hops, save_focus_hops
from memgraph_gui.app.snapshot_loader import SnapshotLoader
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.views.graph.actions import AUTO_LEVEL, DEFAULT_HOPS, build_actions
from memgraph_gui.views.graph.canvas import EDGE_LIVE_LIMIT, GraphCanvas
from memgraph_gui.views.graph.folding import (
    AUTO,
    Folded,
    FoldSettings,
    GraphFolding,
    compute_folded,
    fold_sizes,
)
from memgraph_gui.views.graph.items import EdgeLines, Spots, edge_lines, make_spots
from memgraph_gui.views.graph.laying_out import LAYOUT_AFTER_SHOW_MS, GraphLayout
from memgraph_gui.views.graph.legend import LegendRow
from memgraph_gui.views.graph.lens_facet import GraphLens
from memgraph_gui.views.graph.new_node import NewNode, ask_new_node
from memgraph_gui.views.graph.nugget_facet import GraphNuggets
from memgraph_gui.views.graph.pointer import GraphPointer
from memgraph_gui.views.graph.scene import GraphScene, arrange_in_time
from memgraph_gui.views.qt import (
    QCoreApplication,
    QMenu,
    Qt,
    QtCore,
    QtGui,
    QTimer,
    QVBoxLayout,
    QWidget,
    Signal,
    tr,
)
from memgraph_gui.views.theme import recall_lab_styles

RELOAD_MS = 120
READ_NEIGHBOURS = 40  # nodes around a node revealed by a selection: few enough to label


@dataclass(frozen=True, slots=True)
class Built:
    """A new graph's picture made off the GUI thread: its scene, spots, raw edge lines (None
    when folded) and fold."""

    scene: GraphScene
    spots: Spots
    lines: EdgeLines | None
    folded: tuple[FoldSettings, Folded]


LABEL_MS = 40
MARKS_AFTER_SHOW_MS = 30
"""A new picture's injection marks come this much after its nodes (the next frame)."""
ZOOM_SETTLE_MS = 180


class GraphView(
    GraphCanvas, GraphPointer, GraphFolding, GraphLayout, GraphNuggets, GraphLens, QWidget
):
    """The graph pane over ``app``. See ``actions.py`` for its actions and shortcuts.

    Signals: ``progress_changed(str)`` (layout progress, empty when idle), ``find_status(str)``
    (how many nodes the find finds, and which one Enter stepped to; empty without a find).
    Slots: ``set_search``, ``step_match``, ``fit``, ``relayout``, ``set_focus``, ``set_hops``,
    ``set_nugget`` (draw one Nuggets nugget's notes only; the combo in the corner does it),
    ``show_preview``, ``cancel_preview``, ``shutdown`` (stops the layout worker; closing the app
    model does too). A right-click opens a context menu (``context_menu_at``).
    """

    progress_changed = Signal(str)
    find_status = Signal(str)

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self.scene: GraphScene | None = None
        self.visible = np.zeros(0, dtype=bool)
        self.search_mask: np.ndarray | None = None
        self._search_text = ""
        self.focus_on = False
        self.hops = load_focus_hops(DEFAULT_HOPS)  # remembered across runs
        self.match_count = 0  # the drawn nodes the find finds
        self.stepped_to: str | None = None  # the match Enter stepped to last
        self._matches: list[str] | None = None  # ranked when first stepped through
        # asks for a new node's type and title (tests replace it)
        self.ask_new_node: Callable[[QWidget, Mapping[str, Sequence[str]]], NewNode | None] = (
            ask_new_node
        )
        self._fit_pending = True
        self._last_size: tuple[float, float] | None = None
        self._fitting = False
        self._fitted = False
        self._box_px = (0.0, 0.0)
        self.hovered_id: str | None = None
        self._moving: set[str] = set()  # "layout", "drag", "zoom": why the node cache is off
        self._pending: ChangeSet | None = None  # topology changes waiting for the reload timer
        self.preview_stamp: tuple[str, int] | None = None  # drawing a file that is opening
        self.picked_in_preview: str | None = None  # clicked while it was opening
        self.shut_down = False
        self.by_time = False  # View > Arrange by time: positions from the story's order
        self._init_folding()
        self._build_widgets()
        self._build_timers()
        self._build_nugget_combo()
        self.graph_actions = build_actions(self)
        self.graph_actions.hops[self.hops].setChecked(True)
        self.node_menu_actions: list[QtGui.QAction] = []
        """Actions the window adds to a node's context menu (Merge Notes…)."""
        self._connect()
        self._reload(initial=True)

    # -- construction --------------------------------------------------------------------------------
    def _build_widgets(self) -> None:
        self.layout_job = LayoutJob(self._app, parent=self)
        self._loader = SnapshotLoader(self._app, parent=self)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self._build_canvas())

    def _build_timers(self) -> None:
        self._reload_timer = QTimer(self, singleShot=True, interval=RELOAD_MS)
        self._label_timer = QTimer(self, singleShot=True, interval=LABEL_MS)
        self._zoom_timer = QTimer(self, singleShot=True, interval=ZOOM_SETTLE_MS)
        self._search_timer = QTimer(self, singleShot=True, interval=150)
        self._layout_timer = QTimer(self, singleShot=True, interval=LAYOUT_AFTER_SHOW_MS)
        self._layout_timer.timeout.connect(self._on_layout_due)
        self._layout_for: GraphScene | None = None  # the picture the timer's layout is for
        self._reload_timer.timeout.connect(self._on_reload_due)
        self._label_timer.timeout.connect(self._on_labels_due)
        self._zoom_timer.timeout.connect(self._on_zoom_settled)
        self._search_timer.timeout.connect(self._on_search_due)

    def _connect(self) -> None:
        app, acts = self._app, self.graph_actions
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self._on_store_replaced)
        app.selection.changed.connect(self._on_selection_changed)
        app.lens.changed.connect(self._on_lens_changed)
        app.lens.retrieval.finished.connect(self.show_retrieval)
        app.lens.retrieval.cleared.connect(self.show_retrieval)
        app.recall_lab.marks_changed.connect(self.show_recall_lab)
        self.nodes.node_clicked.connect(self._on_node_clicked)
        self.nodes.node_double_clicked.connect(self._on_node_double_clicked)
        self.nodes.node_hovered.connect(self._on_node_hovered)
        self.nodes.node_dragged.connect(self._on_node_dragged)
        self.view.sigRangeChanged.connect(self._on_range_changed)
        self.view.sigResized.connect(self._on_box_resized)
        self.view.context_requested.connect(self._on_context_requested)
        self.layout_job.frame_ready.connect(self._on_frame_ready)
        self.layout_job.progress_changed.connect(self.progress_changed)
        self.layout_job.finished.connect(self._on_layout_finished)
        acts.fit.triggered.connect(self.fit)
        acts.focus.toggled.connect(self.set_focus)
        acts.show_hierarchy.toggled.connect(self._on_show_hierarchy_toggled)
        acts.show_relations.toggled.connect(self._on_show_relations_toggled)
        acts.relayout.triggered.connect(self.relayout)
        for action in acts.hops.values():
            action.triggered.connect(self._on_hops_triggered)
        for action in acts.levels.values():
            action.triggered.connect(self._on_level_triggered)
        acts.prompt_view.toggled.connect(self.set_prompt_view)
        acts.arrange_time.toggled.connect(self.set_arrange_by_time)
        acts.unfold.triggered.connect(self._on_unfold)
        acts.fold.triggered.connect(self._on_fold)
        acts.legend.setChecked(not self.legend.collapsed)  # (the state remembered)
        acts.legend.toggled.connect(lambda shown: self.legend.set_collapsed(not shown))
        self.legend.toggled.connect(lambda collapsed: acts.legend.setChecked(not collapsed))
        self.legend.set_key_hint(acts.legend.shortcut())
        self.addActions(acts.all())
        instance = QCoreApplication.instance()
        if instance is not None:
            instance.aboutToQuit.connect(self.shutdown)

    # -- public slots ----------------------------------------------------------------------------------
    def set_search(self, text: str) -> None:
        """Fade the nodes that ``text`` does not find, their labels and marks (empty: none
        faded); ``find_status`` then says how many it finds."""
        if text.strip() != self._search_text.strip():
            self.stepped_to = None  # a new find steps from its first match
        self._search_text = text
        self._search_timer.start()

    def step_match(self, forward: bool = True, text: str | None = None) -> str | None:
        """Select and reveal the next match of the find (``forward``), or the previous one,
        in ``matches`` order (title and alias matches first), wrapping round; ``text`` (the
        find box's, when given) is applied first if it is not the find shown yet. Returns
        the node stepped to (None: nothing found)."""
        if text is not None and text.strip() != self._search_text.strip():
            self.set_search(text)
        if self._search_timer.isActive():  # typed but not applied yet: apply it now
            self._search_timer.stop()
            self._on_search_due()
        matches = self.matches
        if not matches:
            return None
        at = self.match_at()
        if at < 0:
            at = 0 if forward else len(matches) - 1
        else:
            at = (at + (1 if forward else -1)) % len(matches)
        node_id = self.stepped_to = matches[at]
        self._app.selection.select([node_id], source=None)  # the view reveals it, as any
        self.find_status.emit(self.find_text())  # selection made elsewhere
        return node_id

    def find_text(self) -> str:
        """What ``find_status`` says now ("" without a find)."""
        if not self._search_text.strip() or self.search_mask is None:
            return ""
        count = self.match_count
        if not count:
            return tr("No matches")
        at = self.match_at()
        if at >= 0:
            return tr("{index} of {count}").format(index=at + 1, count=count)
        return tr("1 match") if count == 1 else tr("{count} matches").format(count=count)

    @property
    def matches(self) -> list[str]:
        """The drawn nodes the find finds, in the order Enter steps through them: title and
        alias matches first, then the rest, each in timeline order (ranked on first use:
        typing a find costs what the fade costs)."""
        if self._matches is None:
            scene, text = self.scene, self._search_text.strip()
            if scene is None or self.search_mask is None or not text:
                self._matches = []
            else:
                index, alive = scene.index, scene.alive
                ranked = self._app.ranked_matches(text)
                self._matches = [i for i in ranked if i in index and alive[index[i]]]
        return self._matches

    def match_at(self) -> int:
        """Where in ``matches`` Enter stepped to last (-1: nowhere, or not found now)."""
        if self.stepped_to is None or self.search_mask is None:
            return -1
        row = self.scene.index.get(self.stepped_to, -1) if self.scene is not None else -1
        if row < 0 or not self.search_mask[row]:
            return -1
        try:
            return self.matches.index(self.stepped_to)
        except ValueError:
            return -1

    def set_focus(self, on: bool) -> None:
        """Show only the k-hop neighbourhood of the selection (all nodes when off)."""
        self.focus_on = bool(on)
        if self.graph_actions.focus.isChecked() != self.focus_on:
            self.graph_actions.focus.setChecked(self.focus_on)
        self._apply_visibility(fit=True)

    def set_hops(self, hops: int) -> None:
        """The focus radius (1-3 hops)."""
        self.hops = max(1, min(3, int(hops)))
        self.graph_actions.hops[self.hops].setChecked(True)
        save_focus_hops(self.hops)
        if self.focus_on:
            self._apply_visibility(fit=True)

    def show_level(self, level: int | None) -> None:
        """Show the overview at ``level`` (``AUTO``: the deepest that fits the budget; ``TOP``,
        a rollup depth, or ``ALL``: no folding), refitted; unfolds by hand are dropped."""
        self.set_level(level)
        data = AUTO_LEVEL if level is AUTO else level
        if data in self.graph_actions.levels:
            self.graph_actions.levels[data].setChecked(True)
        if self.scene is not None:
            self._apply_visibility(fit=True)

    def set_prompt_view(self, on: bool) -> None:
        """Show the injection state's visible set with every edge projected onto it, as the
        recall model sees it (off: the overview again)."""
        self.prompt_view = bool(on)
        if self.graph_actions.prompt_view.isChecked() != self.prompt_view:
            self.graph_actions.prompt_view.setChecked(self.prompt_view)
        if self.scene is not None:
            self._apply_visibility(fit=True)

    def toggle_fold(self, node_id: str) -> bool:
        """Unfold a folded rollup, or fold a node back into its rollup; True if the picture
        changed."""
        changed = self.unfold(node_id) or self.fold(node_id)
        if changed:
            self._apply_visibility()
        return changed

    def shutdown(self) -> None:
        """Stop the layout worker and wait for it, and the view's deferred work (window
        closing or app quitting)."""
        self.layout_job.shutdown()
        self.shut_down = True  # deferred work that comes due later finds nothing to draw on
        timers = (self._reload_timer, self._label_timer, self._zoom_timer, self._search_timer)
        for timer in (*timers, self._layout_timer):
            timer.stop()
        self.edges.stop()

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        self._label_timer.start()  # labels are placed only while the view is shown

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_legend()
        self._place_nugget_combo()

    # -- loading -------------------------------------------------------------------------------------
    def _reload(self, *, initial: bool = False) -> None:
        """Rebuild the scene from the store, keeping the positions the view shows."""
        self._loader.cancel()  # a reload in flight read an older graph than this one
        kept = None if initial else self._positions_kept()
        keep = None if kept is None else kept()
        self._show_scene(GraphScene(graph_snapshot(self._app), keep), initial=initial)

    def _reload_off_thread(self) -> None:
        """Rebuild the scene from a new graph (an import, a ``replace_all``): read and built
        on a plain thread, then shown (at 50k, ~0.6 s the window no longer waits for). The
        current picture stays until then; a newer reload or store supersedes this one."""
        kept = self._positions_kept()
        dtype = self.nodes.data.dtype
        settings = self.fold_settings()

        def build(snap: GraphSnapshot) -> Built:
            scene = GraphScene(snap, None if kept is None else kept())
            folded = compute_folded(scene, settings)
            sizes = fold_sizes(scene, folded)
            # unfaded: a find applies when shown
            lines = None if folded.active else edge_lines(scene, None)
            return Built(scene, make_spots(scene, None, dtype, sizes), lines, (settings, folded))

        self._loader.load(build, self._show_loaded, self._on_load_failed)

    def _show_loaded(self, built: Built) -> None:
        if self.preview_stamp is None:  # (a file drawn meanwhile is shown until it opens)
            self._show_scene(
                built.scene,
                initial=False,
                spots=built.spots,
                lines=built.lines,
                prepared=built.folded,
            )

    def _on_load_failed(self, _error: Exception) -> None:
        if self.preview_stamp is None:
            self._reload()  # read again here, where a failure is reported as any other

    def _show_scene(
        self,
        scene: GraphScene,
        *,
        initial: bool,
        spots: Spots | None = None,
        lines: EdgeLines | None = None,
        prepared: tuple[FoldSettings, Folded] | None = None,
    ) -> None:
        """Show ``scene``; ``spots``, ``lines`` and the fold ``prepared`` for it off the GUI
        thread are used where they still fit (unfaded, the same fold settings)."""
        self.scene = scene
        self._app.lens.hint_rows(scene.ids)  # its rows' tiers come with the lens's next ones
        self.hover_title.hide()  # its row was of the picture replaced
        if self.by_time and not scene.timed:
            arrange_in_time(scene)
            spots = lines = None  # made for the saved positions
        self._update_search_mask()
        self.nodes.show_scene(scene, self._faded(), spots)
        self._legend_types()
        # provisional spots on a big graph: its edges wait for the layout (long lines through
        # the whole picture took seconds to paint and showed nothing)
        self.edges.suspend(not scene.placed.all() and len(scene.edges) > EDGE_LIVE_LIMIT)
        # its injection marks a frame later: with them, showing a fitted 50k picture was one
        # frame of 40-60 ms while a worker was busy; the timer goes with the view
        self._apply_visibility(fit=initial, lines=lines, prepared=prepared, marks=False)
        QTimer.singleShot(MARKS_AFTER_SHOW_MS, self, partial(self._marks_due, scene))
        self.edges.gradual()  # a new picture: a big edge set fills in a chunk per frame
        if not scene.placed.all():
            self._fit_pending = initial or self._fit_pending or not scene.placed.any()
            self._layout_for = scene
            self._layout_timer.start()

    def _marks_due(self, scene: GraphScene) -> None:
        """The injection marks of ``scene``, if it is still the picture shown."""
        if not self.shut_down and scene is self.scene:
            self._show_injection()

    def _positions_kept(self) -> Callable[[], dict[str, Any]] | None:
        """The placed positions shown now (provisional spots are not worth keeping), taken now
        and made into a new scene's ``keep`` by calling the result, on any thread: made here,
        the dict of a 50k picture held the GUI thread ~20 ms when an import committed. None
        without a picture."""
        scene = self.scene
        if scene is None:
            return None
        ids, rows = scene.ids, np.flatnonzero(scene.placed)  # a tuple: never changed in place
        pos = scene.pos[rows]  # a copy: the layout moves the scene's own
        return lambda: dict(zip(map(ids.__getitem__, rows.tolist()), pos.tolist(), strict=True))

    def _apply_visibility(
        self,
        *,
        fit: bool = False,
        lines: EdgeLines | None = None,
        prepared: tuple[FoldSettings, Folded] | None = None,
        marks: bool = True,
    ) -> None:
        """Recompute the visible set (the overview's cut, or the focus) and redraw everything
        that depends on it (``lines``: the scene's edge lines with every node visible, and
        ``prepared``: its fold, when already made off the GUI thread; without ``marks``, the
        injection marks are cleared and left to the caller)."""
        scene = self.scene
        if scene is None:
            return
        self.refold(prepared)
        self.visible = self._focus_mask(scene)
        self.nodes.set_visible_rows(self.visible)
        if 0 <= self.hover_title.row < scene.n and not self.visible[self.hover_title.row]:
            self.hover_title.hide()  # its node folded away or left the focus
        self.nodes.set_sizes(fold_sizes(scene, self.folded), self._faded())
        self._draw_edges(lines)
        if marks:
            self._show_injection()
        else:
            self.injection.clear()
        self._show_selection()
        self.show_retrieval()
        self.show_recall_lab()
        if fit and scene.n:
            self.fit()
        self._label_timer.start()

    def _draw_edges(self, lines: EdgeLines | None = None) -> None:
        """The overview's merged lines (the selected and hovered nodes keep all theirs), or the
        raw edges among the visible rows."""
        scene = self.scene
        assert scene is not None
        keep = scene.rows(sorted(self._app.selection.ids | {self.hovered_id or ""}))
        filtered = self.focus_on or self.nugget_filter is not None or self._app.lens.on
        merged = None if filtered else self.fold_lines(scene, keep)
        if merged is not None:
            self.edges.rebuild(scene, None, merged)
            return
        every = self.visible.all() and scene.quiet is None
        self.edges.rebuild(scene, None if every else self.visible, lines if every else None)

    def _focus_mask(self, scene: GraphScene) -> np.ndarray:
        """The rows drawn: the overview's cut (or the focus), within the nugget picked, and
        what the trust lens lets be seen."""
        shown = self._shown_mask(scene)
        kept = self.nugget_rows(scene)
        shown = shown if kept is None else shown & kept
        seen = self.lens_rows(scene)
        return shown if seen is None else shown & seen

    def _shown_mask(self, scene: GraphScene) -> np.ndarray:
        alive = scene.alive.copy()
        if not self.focus_on:
            folded = self.folded
            return alive if folded is None or not folded.active else folded.cut.shown
        seeds = scene.rows(self._app.selection.ids)
        if not len(seeds):
            return alive
        return scene.k_hop(seeds, self.hops) & alive

    def _lift(self) -> Any:
        """Rows to the shown row standing for each, while folded (else None)."""
        folded = self.folded
        return folded.rep_of if folded is not None and folded.active else None

    def _show_injection(self) -> None:
        if self.scene is not None and self.preview_stamp is None:
            injection = self._app.injection()
            self.injection.show(self.scene, injection, self.visible, self._lift(), self._faded())
            self._label_timer.start()  # labels keep clear of the picks and count the marks

    def show_recall_lab(self) -> None:
        """Mark the Recall lab's rankings and picks over the drawn nodes (``RecallLabMarks``;
        none while the lab marks nothing)."""
        scene = self.scene
        marks = self._app.recall_lab.marks()
        keys = [s for s in recall_lab_styles() if marks.get(s.key)]
        self.legend.set_extra([LegendRow(s.symbol, s.color, s.label) for s in keys])
        self._place_legend()
        if scene is None or self.preview_stamp is not None or len(self.visible) != scene.n:
            self.recall_marks.clear()
            return
        self.recall_marks.show(scene, marks, self.visible, self._lift())
        self._label_timer.start()  # labels keep clear of the rings

    def _show_selection(self) -> None:
        scene = self.scene
        if scene is None or self.preview_stamp is not None:
            return
        sel = self._app.selection
        current = scene.index.get(sel.current, -1) if sel.current else -1
        rows = scene.rows(sorted(sel.ids))
        self.selection.show(scene, rows, current, self.visible, self._lift(), self._faded())

    # -- model signals -------------------------------------------------------------------------------
    def _on_changes_applied(self, changes: ChangeSet, initiator: object | None) -> None:
        if self.preview_stamp is not None:
            return  # the store still open is not the one drawn; the new one reloads anyway
        if changes.nodes_added or changes.nodes_removed or changes.reloaded:
            self.refresh_nuggets()  # a note of a new nugget (another process's too)
        if changes.injection_changed and not changes.reloaded:
            self._show_injection()  # (a reload's marks come with its new picture, a frame
            # after it is shown: drawn on the old one, a 50k import's took ~5 ms of a frame)
        if "pins" in changes.meta_keys and initiator is not self:
            self._apply_stored_pins()
        if changes.positions_saved:  # only ever another process's save
            self._apply_saved_layout()
        if (
            changes.graph_topology_changed
            or changes.nodes_archived
            or changes.nodes_restored
            or changes.reloaded
            or self._loader.in_flight  # the graph being read may predate this change
        ):
            pending = self._pending
            self._pending = changes if pending is None else pending.merged(changes)
            if not self._reload_timer.isActive():  # a burst waits for one reload
                self._reload_timer.start()
        elif changes.nodes_updated and self.scene is not None:
            self._on_nodes_updated(changes.nodes_updated)

    def _on_lens_changed(self) -> None:
        """The trust lens moved (on, off, another actor, a node's tier): draw what it lets be
        seen, the find's fade, labels and marks again."""
        if self.scene is None or self.preview_stamp is not None or self._app.closed:
            return
        self.hover_title.hide()  # (its text may be a title the lens no longer shows)
        before = self.search_mask
        self._update_search_mask()
        if before is not None or self.search_mask is not None:
            self.nodes.restyle(self._faded())
        folded = self.folded  # the lens leaves the fold as it is: not computed again
        kept = None if folded is None else (self.fold_settings(), folded)
        self._apply_visibility(prepared=kept)
        self._label_timer.stop()  # labels now: none may keep a title the lens hides
        self._on_labels_due()
        self.find_status.emit(self.find_text())

    def _on_nodes_updated(self, ids: frozenset[str]) -> None:
        scene = self.scene
        assert scene is not None
        before = self.search_mask
        self._update_search_mask()  # an edit can make a node match the find, or stop matching
        after = self.search_mask
        if self._update_looks(scene, ids):  # rare: a new type, or a rollup's depth
            self.nodes.sync_sizes(self._faded())
        elif before is not None and (after is None or not np.array_equal(before, after)):
            self.nodes.restyle(self._faded())
        hovered = self.hover_title.row
        if 0 <= hovered < scene.n and scene.ids[hovered] in ids:  # its title may be new
            self.hover_title.show(scene, hovered, self._hover_of(scene.ids[hovered]))
        self._label_timer.start()

    def _update_looks(self, scene: GraphScene, ids: frozenset[str]) -> bool:
        """Give the drawn nodes among ``ids`` their current type, depth and rollup flag; True
        when a colour or a size changed."""
        drawn = ids & scene.index.keys()
        return scene.update_nodes([n for n in map(self._app.node, drawn) if n is not None])

    def _on_reload_due(self) -> None:
        pending, self._pending = self._pending, None
        if self._app.closed:
            return  # due for a store closed since (the app quit)
        if self.preview_stamp is not None:
            return  # due for the open store, not the file drawn; the switch reloads anyway
        if pending is not None and (pending.reloaded or self._loader.in_flight):
            self._reload_off_thread()  # a new graph; or changes after the one being read
        elif pending is None or not self._append(pending):
            self._reload()

    def _append(self, changes: ChangeSet) -> bool:
        """Apply a topology change in place (tens of ms instead of ~1 s at 50k): removed and
        archived nodes are hidden, removed edges dropped, added and restored nodes appended or
        shown again. False when only a full reload will do (a reload from the store)."""
        scene = self.scene
        if scene is None or changes.reloaded:
            return False
        gone = changes.nodes_removed | changes.nodes_archived
        scene.set_alive(gone, False)
        scene.drop_edges(changes.edges_removed)
        back = (changes.nodes_added | changes.nodes_restored) - gone
        fresh = [self._app.node(i) for i in sorted(scene.set_alive(back, True))]
        nodes = [n for n in fresh if n is not None and not n.archived]
        edges = set(changes.edges_added) | {
            e.key for n in nodes if n.id in changes.nodes_restored for e in self._app.edges_of(n.id)
        }
        sizes = scene.sizes
        first = scene.append(nodes, edges)  # sizes follow the new degrees
        self._place_pinned(first)
        if self.by_time:
            arrange_in_time(scene)  # new events land at the end of the curve
            self._positions_moved(edges=False)
        looks = self._update_looks(scene, changes.nodes_updated)
        self._update_search_mask()
        if looks or not np.array_equal(sizes, scene.sizes):  # new rows, a colour or a size
            self.nodes.sync_sizes(self._faded(), first)
        self._apply_visibility()
        if not scene.placed.all():
            self._start_layout()
        return True

    def _place_pinned(self, first: int) -> None:
        """Put the rows from ``first`` on (just appended) that are pinned where their pin is
        (a node created at the pointer is pinned where it was clicked)."""
        scene = self.scene
        assert scene is not None
        if first >= scene.n:
            return
        pins = stored_pins(self._app)
        for row in range(first, scene.n):
            xy = pins.get(scene.ids[row])
            if xy is not None:
                scene.pos[row] = xy
                scene.pinned[row] = scene.placed[row] = True

    def _on_store_replaced(self) -> None:
        self.refresh_nuggets()
        self.layout_job.cancel()
        self._loader.cancel()
        self._pending = None
        if self._app.opening is not None and self.preview_stamp is not None:
            return  # the memory left is closed; the file coming is drawn until it is in
        stamp, self.preview_stamp = self.preview_stamp, None
        if stamp is not None and stamp == self._app.stamp and self.scene is not None:
            self._adopt_preview()  # the picture drawn from the file is the store's: keep it
        else:
            self._fit_pending = True
            self._reload(initial=True)
        QTimer.singleShot(0, self._select_picked)  # once every pane has the new store

    # -- preview while a file opens --------------------------------------------------------------
    def show_preview(self, snap: GraphSnapshot, stamp: tuple[str, int]) -> None:
        """Draw a file that is still opening from its saved layout (the store's rows, before it
        builds its graph). Pan, zoom and hover work, and a click is selected once the store is
        in; the store adopts this picture when its content has the same ``stamp``."""
        self.layout_job.cancel()
        self._loader.cancel()
        self._reload_timer.stop()  # the open store's pending changes are not this picture's
        self._pending = None
        self.preview_stamp, self.picked_in_preview = stamp, None
        self.scene = GraphScene(snap)
        self.search_mask = None
        self.nodes.show_scene(self.scene, None)
        self._legend_types()
        self._apply_visibility(fit=True)

    def cancel_preview(self) -> None:
        """The file did not open after all: draw the open store again (a click in its picture
        was for that file, and selects nothing)."""
        self.picked_in_preview = None
        if self.preview_stamp is not None:
            self.preview_stamp = None
            self._reload(initial=True)

    def _adopt_preview(self) -> None:
        scene = self.scene
        assert scene is not None
        scene.titles = ()  # titles come from the store from now on
        self._update_search_mask()
        if self.search_mask is not None:
            self.nodes.restyle(self._faded())
        self._apply_visibility()
        if not scene.placed.all():
            self._start_layout()

    def _select_picked(self) -> None:
        """Select what was clicked while the file was opening (every pane shows it now)."""
        picked, self.picked_in_preview = self.picked_in_preview, None
        if picked is not None and self._app.node(picked) is not None:
            self._app.selection.select([picked], source=None)

    def _on_selection_changed(
        self, ids: frozenset[str], current: str | None, source: object
    ) -> None:
        if self.focus_on:
            self._apply_visibility(fit=True)
        else:
            self._show_selection()
            if self.folded is not None and self.folded.active and self.scene is not None:
                self._draw_edges()  # the selected nodes show all their lines
                self._label_timer.start()  # ... and their labels
        if source is not self and current is not None and not self.focus_on:
            self._reveal(current)

    def _reveal(self, node_id: str) -> None:
        """Centre ``node_id`` and zoom in enough to read it and its neighbours' labels (its
        rollups unfold on the way), unless it is already comfortably in view: inside the
        middle of the view, zoomed in enough for labels, and not folded away."""
        scene = self.scene
        row = scene.index.get(node_id, -1) if scene is not None else -1
        if scene is None or row < 0:
            return
        if self.show_node(node_id):  # folded away, or unfolded: it shows itself
            self._apply_visibility()
        (x0, x1), (y0, y1) = self.view.viewRange()
        x, y = scene.pos[row]
        w, h = (x1 - x0) / 2, (y1 - y0) / 2
        inner = abs(x - (x0 + w)) <= 0.8 * w and abs(y - (y0 + h)) <= 0.8 * h
        readable = self.labels.shown > 0 and self.visible[row]
        if inner and readable:
            return
        half = self._reading_half_width(row)
        if readable and half > w:  # in view and readable already: only pan
            half = w
        aspect = h / w if w > 0 else 1.0
        self.view.setRange(
            xRange=(x - half, x + half), yRange=(y - half * aspect, y + half * aspect), padding=0
        )
        self._on_zoom_settled()  # unfold what now spreads wide, label what is in view

    def _reading_half_width(self, row: int) -> float:
        """Half the view width at which about ``READ_NEIGHBOURS`` nodes around ``row`` fill
        the view (labels show)."""
        scene = self.scene
        assert scene is not None
        gap = np.hypot(*(scene.pos - scene.pos[row]).T)
        gap = gap[np.isfinite(gap) & scene.alive]
        if len(gap) <= READ_NEIGHBOURS:
            x0, y0, x1, y1 = scene.bounds()
            return max(x1 - x0, y1 - y0) / 2 or 1.0
        return float(np.partition(gap, READ_NEIGHBOURS)[READ_NEIGHBOURS]) * 1.6 or 1.0

    # -- layout frames ---------------------------------------------------------------------------------
    # -- actions -------------------------------------------------------------------------------------
    def _on_show_hierarchy_toggled(self, on: bool) -> None:
        self.edges.set_wanted(True, on)

    def _on_show_relations_toggled(self, on: bool) -> None:
        self.edges.set_wanted(False, on)

    def _on_level_triggered(self) -> None:
        action = self.sender()
        if isinstance(action, QtGui.QAction):
            level = int(action.data())
            self.show_level(AUTO if level == AUTO_LEVEL else level)

    def _on_node_double_clicked(self, row: int) -> None:
        if self.scene is not None and row >= 0 and self.preview_stamp is None:
            self.toggle_fold(self.scene.ids[row])

    def _on_unfold(self) -> None:
        current = self._app.selection.current
        if current and self.unfold(self._shown_for(current)):
            self._apply_visibility()

    def _on_fold(self) -> None:
        current = self._app.selection.current
        if current and self.fold(self._shown_for(current)):
            self._apply_visibility()

    def _shown_for(self, node_id: str) -> str:
        """The shown node standing for ``node_id`` (itself unless folded away)."""
        scene, folded = self.scene, self.folded
        if scene is None or folded is None or not folded.active:
            return node_id
        row = scene.index.get(node_id, -1)
        rep = int(folded.cut.rep[row]) if row >= 0 else -1
        return scene.ids[rep] if rep >= 0 else node_id

    def _on_zoom_settled(self) -> None:
        super()._on_zoom_settled()
        if self.auto_unfold() and self.folded is not None:
            self._apply_visibility(prepared=(self.fold_settings(), self.folded))

    def _on_hops_triggered(self) -> None:
        action = self.sender()
        if isinstance(action, QtGui.QAction):
            self.set_hops(int(action.data()))

    def _update_search_mask(self) -> None:
        """The find's mask over the rows and how many drawn nodes it finds (the one Enter
        stepped to stays the current one while it is still found)."""
        text, scene = self._search_text.strip(), self.scene
        if not text or scene is None or self.preview_stamp is not None:
            # (the open store's matches say nothing of a file still opening: faded once in)
            self.search_mask = None
            self._matches, self.match_count = None, 0
            return
        hits = self._app.matching_ids(text)
        self.search_mask = np.fromiter((i in hits for i in scene.ids), bool, scene.n)
        self.match_count = int((self.search_mask & scene.alive).sum())
        self._matches = None  # ranked again when stepped through

    def _on_search_due(self) -> None:
        if self.scene is None or self._app.closed:
            return
        self._update_search_mask()
        self.nodes.restyle(self._faded())
        self.edges.set_opacity(1.0 if self.search_mask is None else 0.25)
        self._show_injection()  # the marks and labels fade with their nodes
        self._show_selection()
        self._label_timer.start()
        self.find_status.emit(self.find_text())

    # -- context menu ----------------------------------------------------------------------------
    def _on_context_requested(self, point: QtCore.QPointF, screen: QtCore.QPointF) -> None:
        menu = self.context_menu_at(point.x(), point.y())
        if menu is not None:
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.popup(screen.toPoint())

    def contextMenuEvent(self, event: QtGui.QContextMenuEvent) -> None:
        """The menu key (or Shift+F10): the current node's context menu beside it, or the
        background's at the view's centre. (A right-click opens one from the view box.)"""
        scene = self.scene
        if event.reason() != QtGui.QContextMenuEvent.Reason.Keyboard or scene is None:
            event.ignore()
            return
        current = self._app.selection.current
        row = scene.index.get(self._shown_for(current), -1) if current else -1
        if row >= 0 and self.visible[row]:  # (a folded-away node: the rollup holding it)
            x, y = (float(v) for v in scene.pos[row])
        else:
            (x0, x1), (y0, y1) = self.view.viewRange()
            x, y = (x0 + x1) / 2, (y0 + y1) / 2
        at = self.plot.mapFromScene(self.view.mapViewToScene(QtCore.QPointF(x, y)))
        self._on_context_requested(
            QtCore.QPointF(x, y), QtCore.QPointF(self.plot.viewport().mapToGlobal(at))
        )
        event.accept()

    def context_menu_at(self, x: float, y: float) -> QMenu | None:
        """The context menu for the view point ``(x, y)``: on a node, Select, Unfold or Fold
        (an overview) and Unpin (a pinned node); on the background, New node here…. None
        while a file is still opening."""
        scene = self.scene
        if scene is None or self.preview_stamp is not None or self._app.closed:
            return None
        row = self.nodes.row_at(QtCore.QPointF(x, y))
        menu = QMenu(self.plot)
        if row < 0:
            make = menu.addAction(tr("New node here…"))
            make.triggered.connect(lambda: self._ask_new_node_at(x, y))
            return menu
        node_id = scene.ids[row]
        title = menu.addAction(_menu_text(self._title_of(node_id)))
        title.setEnabled(False)
        menu.addSeparator()
        select = menu.addAction(tr("Select"))
        select.triggered.connect(lambda: self._app.selection.select([node_id], source=self))
        folded = self.folded
        if folded is not None and folded.active and not self.focus_on:
            if folded.cut.held[row] > 1 and bool(np.any(scene.parents == row)):
                unfold = menu.addAction(tr("Unfold"))
                unfold.triggered.connect(lambda: self._fold_by_menu(node_id, True))
            if scene.parents[row] >= 0:
                fold = menu.addAction(tr("Fold into rollup"))
                fold.triggered.connect(lambda: self._fold_by_menu(node_id, False))
        if scene.pinned[row]:
            unpin = menu.addAction(tr("Unpin"))
            unpin.triggered.connect(lambda: self.unpin(node_id))
        if any(action.isVisible() for action in self.node_menu_actions):
            menu.addSeparator()
            menu.addActions(self.node_menu_actions)
        return menu

    def _fold_by_menu(self, node_id: str, unfold: bool) -> None:
        if (self.unfold(node_id) if unfold else self.fold(node_id)) and self.scene is not None:
            self._apply_visibility()

    def _ask_new_node_at(self, x: float, y: float) -> None:
        """Ask for a type (an editable one), a title and the type's other required fields,
        then create the node pinned at ``(x, y)``."""
        specs = [t for t in self._app.schema().types if t.editable]
        types = {t.id: [c for c in t.required if c != "title"] for t in specs}
        answer = self.ask_new_node(self, types) if types else None
        if answer is not None:
            self.create_node_at(answer, x, y)

    def create_node_at(self, node: NewNode, x: float, y: float) -> None:
        """Create ``node`` pinned at the view point ``(x, y)`` (one undo step: the node with
        its pin) and select it once written; a refusal is shown as any other (the model's
        ``op_failed``)."""
        sel = self._app.selection
        create_pinned_node(
            self._app,
            node.type_id,
            node.title,
            (x, y),
            fields=node.fields,
            initiator=self,
            on_done=lambda node_id: sel.select([node_id], source=self),
        )


def _menu_text(title: str) -> str:
    """A title as a menu item's text: one line, elided, its ``&`` not a mnemonic."""
    text = " ".join(title.split())
    text = text if len(text) <= 48 else text[:47] + "…"
    return text.replace("&", "&&")

"""The overview by rollup level in the graph view (a mixin of ``GraphView``; GUI thread only).

At fit zoom the view shows the deepest cut of the rollup forest that fits the mark budget (the
level is chosen per memory; View ▸ Level overrides it), relation edges projected onto the shown
rows and merged into one line per pair, wider for more edges, each row's strongest few only, and
none to the biggest hubs (their count is a "+N links" cue). Zooming in unfolds the rollups in view
whose content would spread wide enough on screen, level by level, in place (their children sit
around them in the layout); zooming out folds them again. A rollup is unfolded or folded by hand
with a double-click or +/-. "Show as the prompt sees it" draws the injection state's visible set
with every edge projected onto it, as Luker's recall model gets it. The model is
``app.overview``; this mixin decides what is folded and hands the view its masks and lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from memgraph_gui.app import overview
from memgraph_gui.views.graph.items import EdgeLines, merged_lines

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.views.graph.scene import GraphScene
    from memgraph_gui.views.qt import pg

AUTO: int | None = None
"""The level choice that lets the view pick the cut by the mark budget."""
UNFOLD_PX = 90.0
"""A folded rollup in view whose children would spread further than this on screen unfolds."""
FOLD_PX = 45.0
"""An unfolded one whose children spread less than this folds again (hysteresis)."""
ZOOMED_IN = 1.5
"""Nothing unfolds by zoom until the view is this many times closer than the whole memory (at
fit zoom the level shown is the one chosen for the budget); below ``ZOOMED_OUT`` all fold."""
ZOOMED_OUT = 1.25
PER_NODE = 3
"""Merged lines each shown row keeps (its strongest)."""


def mark_budget(n: int) -> int:
    """Marks shown at fit zoom: a few thousand, and at most a quarter of the nodes (so a small
    memory also starts folded: L2 of the 2k demo, L4 of a 50k one)."""
    return min(overview.MARK_BUDGET, max(1, n // 4))


@dataclass(frozen=True, slots=True)
class Folded:
    """What the view shows now: the cut, its merged lines and which of them are drawn."""

    cut: overview.Cut
    links: overview.Links
    kept: overview.Budget
    active: bool  # False: every node shown as itself, raw edges drawn

    def rows_shown(self, rows: np.ndarray) -> np.ndarray:
        """The shown rows standing for ``rows`` (each once, sorted)."""
        if not len(rows):
            return rows
        reps = self.cut.rep[rows]
        return np.unique(reps[reps >= 0])

    def rep_of(self, rows: np.ndarray) -> np.ndarray:
        """The shown row standing for each of ``rows`` (-1: none; a rollup above the cut)."""
        return self.cut.rep[rows] if len(rows) else rows


@dataclass(frozen=True, slots=True)
class FoldSettings:
    """What decides the cut: the level chosen (``AUTO``: by the budget), the rollups unfolded
    and folded by hand and by the zoom, and the prompt's visible set when "Show as the prompt
    sees it" is on (else None)."""

    level: int | None = AUTO
    opened: frozenset[str] = frozenset()
    closed: frozenset[str] = frozenset()
    prompt: frozenset[str] | None = None


def tree_alive(scene: GraphScene) -> overview.Tree:
    """The forest over the rows alive now (a hidden parent is no parent)."""
    tree = scene.tree()
    parents = tree.parents
    dead = (parents >= 0) & ~scene.alive[np.maximum(parents, 0)]
    if dead.any():
        tree = overview.Tree(np.where(dead, -1, parents), tree.depths, tree.leaves)
    return tree


def _mask(scene: GraphScene, ids: frozenset[str]) -> np.ndarray:
    mask = np.zeros(scene.n, dtype=bool)
    mask[scene.rows(ids)] = True
    return mask


def compute_folded(scene: GraphScene, settings: FoldSettings) -> Folded:
    """The cut ``settings`` ask for over ``scene``, its merged lines and their budget. No Qt:
    any thread (a big reload computes it off the GUI thread, ~40 ms at 50k)."""
    tree = tree_alive(scene)
    if settings.prompt is not None:
        cut = overview.visible_cut(tree, _mask(scene, settings.prompt) & scene.alive)
        active = True
    else:
        chosen, budget = settings.level, mark_budget(scene.n)
        level = (
            scene.remember(("level", budget), lambda: overview.level_for(tree, budget))
            if chosen is None
            else chosen
        )
        active = level != overview.ALL or bool(settings.closed)
        if not active:  # every node as itself: nothing to project
            cut = overview.cut(tree, overview.ALL)
            none = overview.Links(np.zeros((0, 2), np.int64), np.zeros(0, np.int64))
            return Folded(cut, none, overview.budget(none, scene.n), False)
        cut = overview.cut(
            tree, level, opened=_mask(scene, settings.opened), closed=_mask(scene, settings.closed)
        )
    shown = cut.shown & scene.alive
    rep = np.where(shown[np.maximum(cut.rep, 0)], cut.rep, -1)
    cut = overview.Cut(cut.level, rep, shown, cut.held)
    links = overview.project(cut.rep, scene.edges, scene.hierarchy)
    kept = overview.budget(links, scene.n, per_node=PER_NODE)
    return Folded(cut, links, kept, active)


def fold_sizes(scene: GraphScene, folded: Folded | None) -> np.ndarray:
    """Drawn sizes: a folded rollup grows with what it holds."""
    if folded is None or not folded.active:
        return scene.sizes
    held = folded.cut.held
    big = folded.cut.shown & scene.rollups & (held > 1)
    grown = np.clip(np.round(6 + 2.2 * np.log2(1 + held)), 6, 26)
    return np.where(big, np.maximum(scene.sizes, grown), scene.sizes)


class GraphFolding:
    """Fold state and the overview's masks; mixed into ``GraphView``."""

    _app: AppModel
    scene: GraphScene | None
    view: pg.ViewBox
    focus_on: bool

    def _init_folding(self) -> None:
        self.level_choice: int | None = AUTO
        self.prompt_view = False
        self.opened: set[str] = set()  # unfolded by hand
        self.closed: set[str] = set()  # folded by hand
        self.auto_opened: set[str] = set()  # unfolded by the zoom
        self.folded: Folded | None = None

    # -- state ---------------------------------------------------------------------------------
    def fold_settings(self) -> FoldSettings:
        """The current settings (the focus mode shows every node: no folding then)."""
        if self.focus_on:
            return FoldSettings(overview.ALL)
        prompt = frozenset(self._app.injection().visible_ids) if self.prompt_view else None
        return FoldSettings(
            self.level_choice,
            frozenset(self.opened | self.auto_opened),
            frozenset(self.closed),
            prompt,
        )

    def level(self) -> int:
        """The cut shown now (``overview.ALL`` when nothing is folded)."""
        folded = self.folded
        return overview.ALL if folded is None or not folded.active else folded.cut.level

    def refold(self, prepared: tuple[FoldSettings, Folded] | None = None) -> Folded:
        """Recompute the cut, its merged lines and their budget (or take ``prepared``, made
        off the GUI thread for this scene, when its settings are still the current ones)."""
        scene = self.scene
        assert scene is not None
        settings = self.fold_settings()
        if prepared is not None and prepared[0] == settings:
            self.folded = prepared[1]
        else:
            self.folded = compute_folded(scene, settings)
        return self.folded

    def fold_lines(self, scene: GraphScene, keep_rows: np.ndarray) -> EdgeLines | None:
        """The merged lines to draw (None: draw the raw edges): the budget's, plus every line
        of the rows in ``keep_rows`` (the selected and hovered ones keep all theirs)."""
        folded = self.folded
        if folded is None or not folded.active:
            return None
        drawn = folded.kept.drawn.copy()
        if len(keep_rows) and len(folded.links.pairs):
            mine = np.isin(folded.links.pairs, folded.rows_shown(keep_rows)).any(axis=1)
            drawn |= mine
        return merged_lines(scene, folded.links.pairs[drawn], folded.links.counts[drawn])

    # -- by hand -------------------------------------------------------------------------------
    def unfold(self, node_id: str) -> bool:
        """Show ``node_id``'s children in its place (a folded rollup); True if it changed."""
        folded, scene = self.folded, self.scene
        if folded is None or scene is None:
            return False
        row = scene.index.get(node_id, -1)
        if row < 0 or not folded.cut.shown[row] or folded.cut.held[row] <= 1:
            return False
        if not np.any(scene.parents == row):
            return False
        self.closed.discard(node_id)
        self.opened.add(node_id)
        return True

    def fold(self, node_id: str) -> bool:
        """Fold ``node_id`` into its parent rollup (its siblings too); True if it changed."""
        scene = self.scene
        if scene is None:
            return False
        row = scene.index.get(node_id, -1)
        parent = int(scene.parents[row]) if row >= 0 else -1
        if parent < 0:
            return False
        parent_id = scene.ids[parent]
        self.opened.discard(parent_id)
        self.auto_opened.discard(parent_id)
        self.closed.add(parent_id)
        return True

    def show_node(self, node_id: str) -> bool:
        """Make ``node_id`` show itself: open the rollups folding it away, fold it back if it
        was unfolded, or show a rollup above the cut in place of its subtree; True if the
        fold changed."""
        folded, scene = self.folded, self.scene
        if folded is None or scene is None or not folded.active or self.prompt_view:
            return False
        row = scene.index.get(node_id, -1)
        if row < 0 or folded.cut.shown[row] or not scene.alive[row]:
            return False
        if node_id in self.opened or node_id in self.auto_opened:
            self.opened.discard(node_id)
            self.auto_opened.discard(node_id)
            return True
        holder = int(folded.cut.rep[row])
        if holder < 0:  # a rollup above the cut
            self.closed.add(node_id)
            return True
        chain, parent = [], int(scene.parents[row])
        while parent >= 0:
            chain.append(scene.ids[parent])
            if parent == holder:
                break
            parent = int(scene.parents[parent])
        self.closed.difference_update(chain)
        self.opened.update(chain)
        return bool(chain)

    def set_level(self, level: int | None) -> None:
        """Show the cut at ``level`` (``AUTO``: by the budget); unfolds by hand are dropped."""
        self.level_choice = level
        self.opened.clear()
        self.closed.clear()
        self.auto_opened.clear()

    # -- by zoom ---------------------------------------------------------------------------------
    def auto_unfold(self) -> bool:
        """Zoomed in (``ZOOMED_IN``), unfold the folded rollups in view whose children would
        spread wider than ``UNFOLD_PX`` on screen and fold back those now narrower than
        ``FOLD_PX`` or out of view, level by level until nothing changes; zoomed back out
        (``ZOOMED_OUT``), fold them all. True if anything changed."""
        scene = self.scene
        if scene is None or self.folded is None or not self.folded.active or self.prompt_view:
            return False
        (x0, x1), (y0, y1) = self.view.viewRange()
        bx0, by0, bx1, by1 = scene.bounds(scene.alive if scene.alive.any() else None)
        closer = max(bx1 - bx0, by1 - by0) / max(x1 - x0, y1 - y0, 1e-12)
        if closer < ZOOMED_IN:
            if closer >= ZOOMED_OUT or not self.auto_opened:
                return False
            self.auto_opened.clear()  # zoomed out: everything folds back
            self.refold()
            return True
        px = max((x1 - x0) / max(self.view.width(), 1.0), 1e-12)
        spread = scene.spread() / px
        inside = scene.in_rect(x0, y0, x1, y1)
        changed = False
        for node_id in list(self.auto_opened):
            row = scene.index.get(node_id, -1)
            if row < 0 or spread[row] < FOLD_PX or not inside[row]:
                self.auto_opened.discard(node_id)
                changed = True
        for _ in range(scene.tree().max_depth + 1):  # a level at a time
            folded = self.refold() if changed else self.folded
            cut = folded.cut
            big = np.flatnonzero(cut.shown & inside & (cut.held > 1) & (spread > UNFOLD_PX))
            keep = self.closed | self.auto_opened | self._app.selection.ids  # a selected
            fresh = [scene.ids[r] for r in big if scene.ids[r] not in keep]  # rollup stays
            if not fresh:
                break
            self.auto_opened.update(fresh)
            changed = True
        if changed:
            self.refold()
        return changed

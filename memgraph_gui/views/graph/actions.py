"""The graph's public ``QAction``s, for the window's View menu.

| action | shortcut | what it does |
|---|---|---|
| ``fit`` | F | fit the (visible) graph in the view |
| ``focus`` | . (checkable) | show only the k-hop neighbourhood of the selection |
| ``hops[k]`` | (checkable, exclusive) | focus radius 1, 2 (default) or 3 hops |
| ``show_hierarchy`` | H (checkable) | contains / semantic_contains edges |
| ``show_relations`` | R (checkable) | every other edge |
| ``legend`` | L (checkable) | the legend's key shown (unchecked: collapsed to its header; remembered) |
| ``relayout`` | Ctrl+L | run the force layout again from the current picture |
| ``levels[k]`` | (checkable, exclusive) | the overview's level: Auto, Top, L10 … L1, All |
| ``prompt_view`` | P (checkable) | show the visible set as the recall prompt sees it |
| ``arrange_time`` | T (checkable) | arrange by time: events along a curve in story order |
| ``unfold`` | + | show the selected folded rollup's children in its place |
| ``fold`` | - | fold the selected node back into its rollup |

Single-key shortcuts do not fire while a text field has focus (the field takes the key).
"""

from __future__ import annotations

from dataclasses import dataclass

from memgraph_gui.views.qt import QAction, QKeySequence, QObject, QtGui, tr

DEFAULT_HOPS = 2
MAX_LEVEL = 10  # Luker's deepest rollups (maxDepth); the menu shows the levels a memory has
AUTO_LEVEL = -2  # the data of the Auto level action (None cannot travel in a QVariant)


@dataclass(frozen=True, slots=True)
class GraphActions:
    """The actions a ``GraphView`` offers (owned by the view)."""

    fit: QAction
    focus: QAction
    hops: dict[int, QAction]
    show_hierarchy: QAction
    show_relations: QAction
    relayout: QAction
    levels: dict[int, QAction]
    prompt_view: QAction
    arrange_time: QAction
    unfold: QAction
    fold: QAction
    legend: QAction

    def all(self) -> list[QAction]:
        """Every action, in menu order."""
        return [
            self.fit,
            self.focus,
            *self.hops.values(),
            self.show_hierarchy,
            self.show_relations,
            self.relayout,
            *self.levels.values(),
            self.prompt_view,
            self.arrange_time,
            self.unfold,
            self.fold,
            self.legend,
        ]


def _action(owner: QObject, text: str, shortcut: str = "", checkable: bool = False) -> QAction:
    action = QAction(text, owner)
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    action.setCheckable(checkable)
    return action


def build_actions(owner: QObject) -> GraphActions:
    """Create the actions (unconnected; the view wires them)."""
    group = QtGui.QActionGroup(owner)
    group.setExclusive(True)
    hops = {}
    for k in (1, 2, 3):
        hops[k] = _action(owner, tr("Focus radius: {k} hop(s)").format(k=k), checkable=True)
        hops[k].setData(k)
        group.addAction(hops[k])
    hops[DEFAULT_HOPS].setChecked(True)
    hierarchy = _action(owner, tr("Show hierarchy edges"), "H", checkable=True)
    relations = _action(owner, tr("Show relation edges"), "R", checkable=True)
    hierarchy.setChecked(True)
    relations.setChecked(True)
    unfold = _action(owner, tr("Unfold rollup"))
    unfold.setShortcuts([QKeySequence("+"), QKeySequence("=")])  # = is + without Shift
    return GraphActions(
        levels=_level_actions(owner),
        prompt_view=_action(owner, tr("Show as the prompt sees it"), "P", checkable=True),
        arrange_time=_action(owner, tr("Arrange by time"), "T", checkable=True),
        unfold=unfold,
        fold=_action(owner, tr("Fold into rollup"), "-"),
        fit=_action(owner, tr("Fit graph"), "F"),
        focus=_action(owner, tr("Focus on selection"), ".", checkable=True),
        hops=hops,
        show_hierarchy=hierarchy,
        show_relations=relations,
        relayout=_action(owner, tr("Re-run layout"), "Ctrl+L"),
        legend=_action(owner, tr("Legend"), "L", checkable=True),
    )


def _level_actions(owner: QObject) -> dict[int, QAction]:
    """Auto, Top, L10 … L1, All: one exclusive group; each action's data is its level."""
    from memgraph_gui.app.overview import ALL, TOP

    group = QtGui.QActionGroup(owner)
    group.setExclusive(True)
    named = [(AUTO_LEVEL, tr("Auto (fits the view)")), (TOP, tr("Top rollups"))]
    named += [(k, tr("L{k} rollups").format(k=k)) for k in range(MAX_LEVEL, 0, -1)]
    named += [(ALL, tr("Every memory (no folding)"))]
    levels = {}
    for level, text in named:
        action = _action(owner, text, checkable=True)
        action.setData(level)
        group.addAction(action)
        levels[level] = action
    levels[AUTO_LEVEL].setChecked(True)
    return levels

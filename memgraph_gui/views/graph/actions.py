"""The graph's public ``QAction``s, for the window's View menu.

| action | shortcut | what it does |
|---|---|---|
| ``fit`` | F | fit the (visible) graph in the view |
| ``focus`` | . (checkable) | show only the k-hop neighbourhood of the selection |
| ``hops[k]`` | (checkable, exclusive) | focus radius 1, 2 (default) or 3 hops |
| ``show_hierarchy`` | H (checkable) | contains / semantic_contains edges |
| ``show_relations`` | R (checkable) | every other edge |
| ``relayout`` | Ctrl+L | run the force layout again from the current picture |

Single-key shortcuts do not fire while a text field has focus (the field takes the key).
"""

from __future__ import annotations

from dataclasses import dataclass

from memgraph_gui.views.qt import QAction, QKeySequence, QObject, QtGui, tr

DEFAULT_HOPS = 2


@dataclass(frozen=True, slots=True)
class GraphActions:
    """The actions a ``GraphView`` offers (owned by the view)."""

    fit: QAction
    focus: QAction
    hops: dict[int, QAction]
    show_hierarchy: QAction
    show_relations: QAction
    relayout: QAction

    def all(self) -> list[QAction]:
        """Every action, in menu order."""
        return [
            self.fit,
            self.focus,
            *self.hops.values(),
            self.show_hierarchy,
            self.show_relations,
            self.relayout,
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
    return GraphActions(
        fit=_action(owner, tr("Fit graph"), "F"),
        focus=_action(owner, tr("Focus on selection"), ".", checkable=True),
        hops=hops,
        show_hierarchy=hierarchy,
        show_relations=relations,
        relayout=_action(owner, tr("Re-run layout"), "Ctrl+L"),
    )

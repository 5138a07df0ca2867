"""Make every node's ``parentId`` and its parent's ``childrenIds`` agree, or refuse a parent cycle.

What Luker's loader does (graph-ops.js ``repairStoreAfterRollback``, run by persistence.js
``normalizeStoreForRuntime`` on every import and load): ``childrenIds`` lose blanks, self-references,
duplicates and ids of missing nodes; a ``parentId`` naming a missing node or the node itself is
cleared; a child whose parent does not list it is appended to the parent's ``childrenIds``. It does
nothing about a child listed by a parent while its ``parentId`` names another node or none, and it
neither breaks nor detects parent cycles: they stay in Luker's store (where its recursive
``dropNode`` would never end on them).

What we do: the same repairs, and then **parentId is the source of truth**. A ``childrenIds`` entry is
kept only when that child's ``parentId`` names the listing node, so a child claimed by two parents
stays with the one its ``parentId`` names, and a child listed by a parent while its ``parentId`` is
empty stays a root (the entry is dropped; Luker itself only ever derives lists from ``parentId``,
never the other way). A parent cycle cannot be repaired without guessing which link is wrong, so it
is refused with ``ImportFormatError`` naming the nodes. Every repair is logged for the user.
"""

from __future__ import annotations

from dataclasses import replace

from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.luker.repair_log import NodeRepair, RepairLog

_DROPPED = "childrenIds entries dropped"
_ADDED = "children added to their parent's childrenIds"


def repair_hierarchy(nodes: list[Node], log: RepairLog) -> list[Node]:
    """``nodes`` (same order) with parent and children agreeing both ways; repairs go to ``log``.

    Afterwards every ``parentId`` names a node that lists the child exactly once, and every
    ``childrenIds`` entry names a node whose ``parentId`` points back. Children keep the order their
    parent listed them in; children the parent did not list follow in document order.

    Raises:
        ImportFormatError: at ``nodes.<id>.parentId`` when parent links form a cycle.
    """
    parents = _parents(nodes, log)
    _refuse_cycles(nodes, parents)
    children = _children(nodes, parents, log)
    out = []
    for node in nodes:
        parent, kids = parents[node.id], tuple(children[node.id])
        changed = parent != node.parent_id or kids != node.children_ids
        out.append(replace(node, parent_id=parent, children_ids=kids) if changed else node)
    return out


def _parents(nodes: list[Node], log: RepairLog) -> dict[str, str]:
    valid = {n.id for n in nodes}
    out: dict[str, str] = {}
    for node in nodes:
        parent = node.parent_id
        if parent == node.id:
            log.parent_repaired(
                NodeRepair(node.id, "parentId named the node itself: cleared"),
                "parentId cleared, the node itself",
                node.id,
            )
            parent = ""
        elif parent and parent not in valid:
            log.parent_repaired(
                NodeRepair(node.id, "parentId named {0}: cleared, it is a root now", (parent,)),
                "parentId cleared, no such node",
                f"{node.id} → {parent}",
            )
            parent = ""
        out[node.id] = parent
    return out


def _refuse_cycles(nodes: list[Node], parents: dict[str, str]) -> None:
    done: set[str] = set()
    cycles: list[list[str]] = []
    for node in nodes:
        walk: list[str] = []
        on_walk: set[str] = set()
        current = node.id
        while current and current not in done and current not in on_walk:
            walk.append(current)
            on_walk.add(current)
            current = parents[current]
        if current in on_walk:
            cycles.append(walk[walk.index(current) :])
        done.update(walk)
    if cycles:
        raise _cycle_error(cycles, {n.id: i for i, n in enumerate(nodes)})


def _cycle_error(cycles: list[list[str]], position: dict[str, int]) -> ImportFormatError:
    cycle = cycles[0]
    start = min(range(len(cycle)), key=lambda i: position[cycle[i]])
    ring = [*cycle[start:], *cycle[:start], cycle[start]]
    more = f"; {len(cycles) - 1:,} more cycles" if len(cycles) > 1 else ""
    return ImportFormatError(
        f"nodes.{ring[0]}.parentId",
        f"parent cycle {' → '.join(ring)} (each arrow follows parentId){more}; "
        "clear one parentId in each cycle and import again",
    )


def _children(nodes: list[Node], parents: dict[str, str], log: RepairLog) -> dict[str, list[str]]:
    valid = {n.id for n in nodes}
    out: dict[str, list[str]] = {n.id: [] for n in nodes}
    listed: set[str] = set()  # a kept child is in exactly one list: its parent's
    for node in nodes:
        for child in node.children_ids:
            problem = _problem(node.id, child, parents, valid, listed)
            if problem is None:
                out[node.id].append(child)
                listed.add(child)
            else:
                log.parent_repaired(*problem)
    for node in nodes:
        parent = parents[node.id]
        if parent and node.id not in listed:
            out[parent].append(node.id)
            listed.add(node.id)
            log.parent_repaired(
                NodeRepair(
                    parent, "childrenIds gained {0}, whose parentId names this node", (node.id,)
                ),
                _ADDED,
                f"{node.id} was missing from {parent}",
            )
    return out


def _problem(
    owner: str, child: str, parents: dict[str, str], valid: set[str], listed: set[str]
) -> tuple[NodeRepair, str, str] | None:
    """Why ``owner`` may not list ``child`` (the repair, a log kind and an example), or None
    when it may."""
    if child == owner:
        what = "childrenIds listed the node itself: entry dropped"
        return NodeRepair(owner, what), f"{_DROPPED}, the node itself", f"{owner} lists itself"
    if child not in valid:
        what = "childrenIds listed {0}: entry dropped"
        return (
            NodeRepair(owner, what, (child,)),
            f"{_DROPPED}, no such node",
            f"{owner} lists {child}",
        )
    if parents[child] == owner and child in listed:
        what = "childrenIds listed {0} twice: one entry dropped"
        return (
            NodeRepair(owner, what, (child,)),
            f"{_DROPPED}, listed twice",
            f"{owner} lists {child} twice",
        )
    if parents[child] == owner:
        return None
    if not parents[child]:
        what = "childrenIds listed {0}, whose parentId is empty: entry dropped, it stays a root"
        return (
            NodeRepair(owner, what, (child,)),
            f"{_DROPPED}, the child has no parentId",
            f"{owner} lists {child}",
        )
    what = "childrenIds listed {0}, whose parentId names {1}: entry dropped"
    return (
        NodeRepair(owner, what, (child, parents[child])),
        f"{_DROPPED}, the child's parentId names another node",
        f"{owner} lists {child} (parentId {parents[child]})",
    )

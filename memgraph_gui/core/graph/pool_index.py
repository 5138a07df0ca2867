"""The recall candidate pool as an incrementally maintained index (see ``Graph.index``)."""

from __future__ import annotations

from functools import lru_cache

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.graph import Graph


def _kind(node: Node) -> str:
    return _kind_of(node.type)


@lru_cache(maxsize=4096)
def _kind_of(type_: str) -> str:
    """A type name as the pool groups it (a few dozen names, asked for every node)."""
    return type_.strip().lower()


def _eligible(node: Node) -> bool:
    """Active, semantic and not a recall diagnostic."""
    kind = _kind(node)
    return (
        node.level == "semantic"
        and not node.archived
        and kind != "recall"
        and not kind.startswith("recall_")
    )


class PoolIndex:
    """The candidate pool's ids, kept per type across writes (see ``Graph.index``).

    A flat type's members change one node at a time. A hierarchical type's tops are recomputed
    only when its own hierarchy changed, except for the common case of a new parentless,
    childless node (an extracted event), which is simply its own top, and a parentless node
    (an event, a top rollup) purged, archived or restored, after which only its own subtree's
    tops are worked out again (``_follow``).
    """

    def __init__(self, graph: Graph) -> None:
        self._graph = graph
        self._hierarchical = {s.id for s in graph.schema.types if s.hierarchical}
        self._members: dict[str, set[str]] = {}
        self._dirty: set[str] = set()
        # id -> (kind, children ids) of the parentless nodes purged, archived or restored
        # since ``ids``
        self._roots: dict[str, tuple[str, tuple[str, ...]]] = {}
        for node in graph.nodes.values():
            self._dirty.add(_kind(node))

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        for node in (old, new):
            if node is not None and _kind(node) not in self._hierarchical:
                members = self._members.setdefault(_kind(node), set())
                if node is new and _eligible(node):
                    members.add(node.id)
                else:
                    members.discard(node.id)
        hierarchical = {_kind(n) for n in (old, new) if n is not None} & self._hierarchical
        if not hierarchical:
            return
        if old is not None and new is not None and _structure_key(old) == _structure_key(new):
            return
        if old is None and new is not None and not new.parent_id and not new.children_ids:
            if _kind(new) not in self._dirty and _eligible(new):
                self._members.setdefault(_kind(new), set()).add(new.id)
            return
        if old is not None and not old.parent_id and (new is None or _only_archived(old, new)):
            # a node without a parent purged (an undone create), archived or restored: only
            # the tops of its own subtree change (``_follow``)
            self._roots[old.id] = (_kind(old), old.children_ids)
            return
        self._dirty |= hierarchical

    def ids(self) -> set[str]:
        """Every candidate id (recomputing the types whose hierarchy changed)."""
        if self._roots:
            roots, self._roots = self._roots, {}
            self._follow(roots)
        if self._dirty:
            grouped: dict[str, list[Node]] = {kind: [] for kind in self._dirty}
            for node in self._graph.nodes.values():
                group = grouped.get(_kind(node))
                if group is not None and _eligible(node):
                    group.append(node)
            for kind, nodes in grouped.items():
                tops = (
                    _hierarchy_tops(self._graph, nodes, kind)
                    if kind in self._hierarchical
                    else nodes
                )
                self._members[kind] = {n.id for n in tops}
            self._dirty.clear()
        return set().union(*self._members.values())

    def _follow(self, roots: dict[str, tuple[str, tuple[str, ...]]]) -> None:
        """The tops of each root's subtree worked out again (``_hierarchy_tops`` over its
        nodes): no walk from outside a subtree enters it, so the other tops stay. A type is
        recomputed whole instead when that cannot be shown: a subtree whose children and
        parents do not name each other, subtrees that overlap, or a node outside that names
        a node inside as its parent or child."""
        nodes = self._graph.nodes
        inside: dict[str, str] = {}  # node id -> its root
        for root, (kind, children) in roots.items():
            if kind in self._dirty or root in inside:
                self._dirty.add(kind)
                continue
            inside[root] = root
            frontier = [(root, child) for child in children]
            while frontier:
                parent, child_id = frontier.pop()
                child = nodes.get(child_id)
                if child is None:
                    continue  # a missing child counts for nothing
                if child.parent_id != parent or child_id in inside:
                    self._dirty.add(kind)
                    break
                inside[child_id] = root
                frontier.extend((child_id, grandchild) for grandchild in child.children_ids)
        names = inside.keys()
        for node in nodes.values():
            if node.id not in inside and (
                node.parent_id in inside
                or (node.children_ids and not names.isdisjoint(node.children_ids))
            ):
                named = [i for i in (node.parent_id, *node.children_ids) if i in inside]
                self._dirty.update(roots[inside[i]][0] for i in named)
        for root, (kind, _) in roots.items():
            if kind in self._dirty:
                continue
            subtree = [i for i, r in inside.items() if r == root]
            members = self._members.setdefault(kind, set())
            members.difference_update(subtree)
            chosen = [
                n
                for n in map(nodes.get, subtree)
                if n is not None and _kind(n) == kind and _eligible(n)
            ]
            members.update(n.id for n in _hierarchy_tops(self._graph, chosen, kind))


def _only_archived(old: Node, new: Node) -> bool:
    """Whether, of what places a node in the pool (``_structure_key``), at most ``archived``
    changed."""
    before, after = _structure_key(old), _structure_key(new)
    return before[:2] == after[:2] and before[3:] == after[3:]


def _structure_key(node: Node) -> tuple[object, ...]:
    return (node.parent_id, node.children_ids, node.archived, node.type, node.level)


def _hierarchy_tops(graph: Graph, nodes: list[Node], kind: str) -> list[Node]:
    """For each leaf, the highest ancestor reachable through active parents of the same type."""
    everything = graph.nodes
    same: dict[str, bool] = {}

    def same_kind(node: Node) -> bool:
        found = same.get(node.type)
        if found is None:
            found = same[node.type] = node.type.lower() == kind
        return found

    def parent_of(node: Node) -> Node | None:
        parent = everything.get(node.parent_id) if node.parent_id else None
        return parent if parent is not None and not parent.archived and same_kind(parent) else None

    top_of: dict[str, Node] = {}
    tops: dict[str, Node] = {}
    for node in nodes:
        if any(
            (c := everything.get(i)) is not None and not c.archived and same_kind(c)
            for i in node.children_ids
        ):
            continue
        path: list[str] = []
        current, top = node, None
        while top is None:
            top = top_of.get(current.id)
            if top is not None:
                break
            parent = parent_of(current)
            if parent is None or parent.id in path or parent.id == node.id:
                top = current
                break
            path.append(current.id)
            current = parent
        for node_id in (*path, current.id):
            top_of[node_id] = top
        tops.setdefault(top.id, top)
    return list(tops.values())

"""``expandFromSeeds``: Luker's drill (``expandRouteCandidates``) without its per-edge walks.

Luker keeps an ordered candidate set (the pool first), and for each hop projects every edge onto
the set as it stands, then scans all projected edges once per frontier node. The projected
neighbours of one node ``u`` come only from raw edges with an end whose nearest visible ancestor is
``u`` (``u`` and the descendants it stands for), and the merged edges keep the order of their first
raw edge. So a small hop reads just the edges of its frontier nodes and the descendants they
stand for, in store order; a big one (a protagonist on a third of all events) lifts every node
onto the set at once and picks, for the whole frontier together, the edges with a frontier node
at one end (numpy over the structure arrays). Either way: the same neighbours in the same order,
at a cost that follows the edges touched, or a few passes over the arrays, never a walk per edge
of the store.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np

from memgraph_gui.core.domain.model import HIERARCHY_EDGE_TYPES, Edge, Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.projection import lift, visible_mask
from memgraph_gui.core.graph.structure_index import graph_arrays
from memgraph_gui.core.graph.topology import incident_edges, live_children, relation_of

DEFAULT_EXPAND_RELATIONS = frozenset(
    {
        "related",
        "involved_in",
        "mentions",
        "evidence",
        "contains",
        "updates",
        "advances",
        "occurred_at",
    }
)


def expand(
    graph: Graph,
    seeds: Sequence[str],
    *,
    pool: Mapping[str, int] | None,
    hops: int,
    relations: frozenset[str],
    include_children: bool,
    exclude_internal: bool,
) -> list[Node]:
    """The drill's answer: the candidate set in order of first insertion.

    Args:
        seeds: distinct ids; unknown ones are skipped, an archived one is kept but not expanded.
        pool: the set's start (``live_positions`` / ``recorded_pool``); hops reach only nodes
            already in the set, and children. None: the seed's ``'raw'`` drill, whose hops follow
            the store's edges.
        hops: at least 1. ``relations``: normalised relation names an edge hop may follow.
        exclude_internal: hops skip ``contains`` / ``semantic_contains``, and the seeds' children
            are left out of the answer (unless they are seeds), as Luker's post-filter does.
    """
    if exclude_internal:
        relations = relations - HIERARCHY_EDGE_TYPES
    found = dict(pool or {})  # id -> position, in insertion order (Luker's candidateMap)
    for seed in seeds:
        if seed in graph.nodes:
            found.setdefault(seed, len(found))
            _drill(graph, seed, found, hops, relations, include_children, raw=pool is None)
    answer = list(map(graph.nodes.__getitem__, found))
    if exclude_internal and include_children:
        dropped = _seed_children(graph, seeds)
        answer = [n for n in answer if n.id not in dropped]
    return answer


def pool_of(graph: Graph, project_to: str | tuple[str, ...]) -> dict[str, int] | None:
    """The drill's pool for ``projectTo``: None for ``'raw'``, the recorded ``visibleIds`` for
    ``'visible'``, else the ids given (each as ``live_positions``)."""
    if project_to == "raw":
        return None
    if project_to == "visible":
        return recorded_pool(graph)
    return live_positions(graph, project_to)


def recorded_pool(graph: Graph) -> dict[str, int]:
    """``live_positions`` of the recorded ``visibleIds`` (cached until the next change)."""
    return graph.derived(
        "recorded_pool", lambda: live_positions(graph, graph.injection.visible_order)
    )


def live_positions(graph: Graph, pool: Iterable[str]) -> dict[str, int]:
    """The pool's live (present, not archived) ids in order, each once, mapped to their position."""
    nodes = graph.nodes
    live = [i for i in dict.fromkeys(pool) if (n := nodes.get(i)) is not None and not n.archived]
    return dict(zip(live, range(len(live)), strict=True))


def _drill(
    graph: Graph,
    seed: str,
    found: dict[str, int],
    hops: int,
    relations: frozenset[str],
    include_children: bool,
    *,
    raw: bool,
) -> None:
    """One seed's breadth-first hops, adding what they reach to ``found``."""
    seen, frontier = {seed}, [seed]
    for _ in range(hops):
        live = [n for i in frontier if (n := graph.nodes.get(i)) is not None and not n.archived]
        if not live:
            break
        pool = None if raw else found
        if not _small(graph, live, raw=raw):
            reached = _reached(graph, [n.id for n in live], relations, pool)
        else:
            hop = _RawHop(graph, relations) if raw else _Hop(graph, relations, found, len(found))
            reached = {n.id: list(hop.neighbors(n)) for n in live}
        nxt: list[str] = []
        for node in live:
            children = [c.id for c in live_children(graph, node)] if include_children else []
            for other in (*children, *reached.get(node.id, ())):
                neighbor = graph.nodes.get(other)
                if other in seen or neighbor is None or neighbor.archived:
                    continue
                seen.add(other)
                found.setdefault(other, len(found))
                nxt.append(other)
        frontier = nxt


LOCAL_LIMIT = 2_000
"""Edges of a hop's frontier up to which it walks them one by one (a leaf's hop: well under a
millisecond); past it, the hop runs over the whole structure arrays at once (a few milliseconds
at 50k nodes, whatever the frontier: a protagonist's 18k edges walked one by one, each end lifted
in Python, took a second)."""


def _small(graph: Graph, frontier: list[Node], *, raw: bool) -> bool:
    """Whether a hop from ``frontier`` is walked edge by edge: few edges, and (projected onto
    a pool) no rollup, which stands for all the descendants under it."""
    if not raw and any(node.children_ids for node in frontier):
        return False
    return sum(graph.degree(node.id) for node in frontier) <= LOCAL_LIMIT


def _reached(
    graph: Graph, frontier: list[str], relations: frozenset[str], found: Mapping[str, int] | None
) -> dict[str, list[str]]:
    """Each frontier node's neighbours in one hop, in the order Luker's scan meets them.

    With ``found`` (the candidate set as the hop begins), every edge is projected onto that set
    (both ends lifted to their nearest member) and a frontier node reaches the other end of each
    projected edge it is on, in the order of the edges' first raw edge; without it (the raw
    drill), the other end of each of its own edges, in store order. Only edges whose relation is
    in ``relations`` count. A few numpy passes over the structure arrays for the whole frontier
    at once: a protagonist on 18k edges costs what a leaf does, not a walk per edge.
    """
    arrays = graph_arrays(graph)
    if not len(arrays.src):
        return {}
    allowed = np.array([r in relations for r in arrays.relations], dtype=np.bool_)
    if found is None:
        a, b = arrays.src, arrays.dst
        ok = allowed[arrays.rel]
    else:
        lifted = lift(arrays, visible_mask(arrays, found))
        a, b = lifted[arrays.src], lifted[arrays.dst]
        ok = (a >= 0) & (b >= 0) & (a != b) & allowed[arrays.rel]
    rank = np.full(len(arrays.ids) + 1, -1, dtype=np.int64)  # slot -> place in the frontier
    at = np.fromiter(map(arrays.slot.__getitem__, frontier), np.int64, len(frontier))
    rank[at] = np.arange(len(frontier))
    on_a = np.flatnonzero(ok & (rank[a] >= 0))  # edges a frontier node is the first end of
    on_b = np.flatnonzero(ok & (rank[b] >= 0))
    place = np.concatenate([rank[a[on_a]], rank[b[on_b]]])
    other = np.concatenate([b[on_a], a[on_b]])
    order = np.lexsort((np.concatenate([on_a, on_b]), place))  # by frontier node, then edge
    place, other = place[order], other[order]
    real = other >= 0  # (the raw drill: an end that names no node reaches nothing)
    place, names = place[real], arrays.ids[other[real]].tolist()
    if not names:
        return {}
    bounds = np.flatnonzero(np.diff(place)) + 1
    starts = [0, *bounds.tolist()]
    ends = [*bounds.tolist(), len(names)]
    firsts = place[starts].tolist()
    return {frontier[f]: names[s:e] for f, s, e in zip(firsts, starts, ends, strict=True)}


class _Hop:
    """One hop's projection onto the candidate set as it stood when the hop began (the ids
    ``found`` held then, its first ``limit`` entries)."""

    def __init__(
        self, graph: Graph, relations: frozenset[str], found: dict[str, int], limit: int
    ) -> None:
        self._graph, self._relations = graph, relations
        self._found, self._limit = found, limit
        self._lifted: dict[str, str] = {}

    def _visible(self, node_id: str) -> bool:
        return self._found.get(node_id, self._limit) < self._limit

    def lift(self, node_id: str) -> str:
        """The nearest visible ancestor (itself included), '' past an archived or missing node."""
        found = self._lifted.get(node_id)
        if found is None:
            found = self._lifted[node_id] = self._walk(node_id)
        return found

    def _walk(self, node_id: str) -> str:
        current, guard = node_id.strip(), set()
        while current and current not in guard:
            guard.add(current)
            node = self._graph.nodes.get(current)
            if node is None or node.archived:
                return ""
            if self._visible(current):
                return current
            current = node.parent_id.strip()
        return ""

    def neighbors(self, node: Node) -> Iterator[str]:
        """``node``'s neighbours across the projected edges, in the projection's order."""
        for edge in _local_edges(self._graph, self._members(node)):
            if relation_of(edge) not in self._relations:
                continue
            a, b = self.lift(edge.from_id), self.lift(edge.to_id)
            if a and b and a != b:
                yield b if a == node.id else a

    def _members(self, node: Node) -> list[str]:
        """``node`` and every descendant that lifts to it."""
        out, frontier = [node.id], [node]
        while frontier:
            nxt = []
            for parent in frontier:
                for child in live_children(self._graph, parent):
                    if child.parent_id == parent.id and not self._visible(child.id):
                        out.append(child.id)
                        nxt.append(child)
            frontier = nxt
        return out


class _RawHop:
    """A hop of the ``'raw'`` drill: across the node's own edges, in store order."""

    def __init__(self, graph: Graph, relations: frozenset[str]) -> None:
        self._graph, self._relations = graph, relations

    def neighbors(self, node: Node) -> Iterator[str]:
        for edge in incident_edges(self._graph, node.id):
            if relation_of(edge) in self._relations:
                yield edge.to_id if edge.from_id == node.id else edge.from_id


def _local_edges(graph: Graph, member_ids: list[str]) -> list[Edge]:
    """Every edge touching one of ``member_ids``, once each, in store order."""
    if len(member_ids) == 1:
        return incident_edges(graph, member_ids[0])
    edges = {edge.key: edge for member in member_ids for edge in graph.edges_of(member)}
    return sorted(edges.values(), key=lambda e: e.ord)


def _seed_children(graph: Graph, seeds: Sequence[str]) -> set[str]:
    """The seeds' children that are not seeds themselves."""
    children = {c for s in seeds if s in graph.nodes for c in graph.nodes[s].children_ids}
    return children - set(seeds)

"""The graph's structure as arrays, kept in step with writes (a ``Graph.index``).

Whole-store projections (``projection``) read the hierarchy and the edges as numpy arrays. Building
them takes a few hundred milliseconds at 150k edges, so they are kept across writes instead of
rebuilt after each: a field edit changes nothing here, a new node or a new edge (always last in
store order) is added in place, and only a rarer change (an edge removed or moved, a node purged)
makes the next read rebuild everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter

import numpy as np
import numpy.typing as npt

from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.topology import edges_in_order, relation_of

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
Names = npt.NDArray[np.object_]
_FROM, _TO, _TYPE = itemgetter(0), itemgetter(1), itemgetter(2)  # Edge fields


@dataclass(frozen=True, slots=True)
class GraphArrays:
    """A snapshot of the structure; node slot ``i`` is ``ids[i]``.

    ``parent[i]``: the parent's slot, -1 for none or a missing parent. Edges in store order:
    ``src`` / ``dst`` slots (-1 for an end that names no node), ``rel`` codes into ``relations``
    (each edge's normalised relation).
    """

    ids: Names
    slot: dict[str, int]
    parent: Ints
    archived: Flags
    src: Ints
    dst: Ints
    rel: Ints
    relations: Names


def graph_arrays(graph: Graph) -> GraphArrays:
    """The structure arrays of ``graph`` as of now (call under the store lock)."""
    return graph.index("structure", lambda: StructureIndex(graph)).arrays()


class StructureIndex:
    """Maintains ``GraphArrays`` across node and edge changes (see the module docstring)."""

    def __init__(self, graph: Graph) -> None:
        self._graph = graph
        self._rebuild()

    def _rebuild(self) -> None:
        nodes = self._graph.nodes
        self._ids = list(nodes)
        self._slot = dict(zip(self._ids, range(len(self._ids)), strict=True))
        self._parents = [n.parent_id.strip() for n in nodes.values()]
        self._archived = [n.archived for n in nodes.values()]
        self._relations: list[str] = []
        self._codes: dict[str, int] = {}
        edges = edges_in_order(self._graph)
        self._edges: list[Edge] = []
        self._done: GraphArrays | None = None
        self._stale = False
        self._last_ord = edges[-1].ord if edges else 0
        self._src, self._dst, self._rel = self._edge_arrays(edges)

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        if self._stale:
            return
        if new is None:
            self._stale = True  # a purge: slots would shift, rebuild
            return
        at = self._slot.get(new.id)
        if at is None:
            self._slot[new.id] = len(self._ids)
            self._ids.append(new.id)
            self._parents.append(new.parent_id.strip())
            self._archived.append(new.archived)
        elif old is None or old.parent_id != new.parent_id or old.archived != new.archived:
            self._parents[at], self._archived[at] = new.parent_id.strip(), new.archived
        else:
            return
        self._done = None

    def edge_changed(self, old: Edge | None, new: Edge | None) -> None:
        if self._stale or (old is not None and new is not None and old.ord == new.ord):
            return  # only seqTo changed: not part of the structure
        if old is None and new is not None and new.ord > self._last_ord:
            self._edges.append(new)  # a new edge, last in store order
            self._last_ord = new.ord
            self._done = None
        else:
            self._stale = True

    def arrays(self) -> GraphArrays:
        if self._stale:
            self._rebuild()
        if self._done is None:
            self._done = self._snapshot()
        return self._done

    def _snapshot(self) -> GraphArrays:
        if self._edges:
            src, dst, rel = self._edge_arrays(self._edges)
            self._src = np.concatenate([self._src, src])
            self._dst = np.concatenate([self._dst, dst])
            self._rel = np.concatenate([self._rel, rel])
            self._edges = []
        parent = np.fromiter(map(self._slot.get, self._parents, repeat(-1)), dtype=np.int64)
        return GraphArrays(
            ids=np.array(self._ids, dtype=np.object_),
            slot=self._slot,
            parent=parent,
            archived=np.array(self._archived, dtype=np.bool_),
            src=self._src,
            dst=self._dst,
            rel=self._rel,
            relations=np.array(self._relations, dtype=np.object_),
        )

    def _edge_arrays(self, edges: list[Edge]) -> tuple[Ints, Ints, Ints]:
        get, count = self._slot.get, len(edges)
        for kind in dict.fromkeys(map(_TYPE, edges)):
            if kind not in self._codes:
                relation = relation_of(Edge("", "", kind))
                if relation not in self._relations:
                    self._relations.append(relation)
                self._codes[kind] = self._relations.index(relation)
        src = np.fromiter(map(get, map(_FROM, edges), repeat(-1)), np.int64, count)
        dst = np.fromiter(map(get, map(_TO, edges), repeat(-1)), np.int64, count)
        rel = np.fromiter(map(self._codes.__getitem__, map(_TYPE, edges)), np.int64, count)
        return src, dst, rel

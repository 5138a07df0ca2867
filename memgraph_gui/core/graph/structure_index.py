"""The graph's structure as arrays, kept in step with writes (a ``Graph.index``).

Whole-store projections (``projection``) read the hierarchy and the edges as numpy arrays. Building
them takes a few hundred milliseconds at 150k edges, so they are kept across writes instead of
rebuilt after each: a field edit changes nothing here; a new node, a changed parent or archived
flag, a new edge, a removed edge and the purge of the newest nodes (an undone create) are
applied to the kept arrays (edges stay in store order, ``Edge.ord``, which is unique); only a
rarer change (an older node purged, a node appearing under an id that an edge end or a parent
already named) makes the next read rebuild everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from memgraph_gui.core.domain.model import HIERARCHY_EDGE_TYPES as HIERARCHY
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.topology import edges_in_order, relation_of

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
Names = npt.NDArray[np.object_]
_FROM, _TO, _TYPE = itemgetter(0), itemgetter(1), itemgetter(2)  # Edge fields
_ORD = attrgetter("ord")
_PENDING_LIMIT = 100_000  # more pending edge changes than this: rebuild instead


@dataclass(frozen=True, slots=True)
class GraphArrays:
    """A snapshot of the structure; node slot ``i`` is ``ids[i]``.

    ``nodes[i]``: the node itself as of the snapshot (read under the store lock: a later field
    edit replaces it in place). ``parent[i]``: the parent's slot, -1 for none or a missing
    parent. Edges in store order:
    ``src`` / ``dst`` slots (-1 for an end that names no node), ``kind`` codes into ``kinds``
    (each edge's type lower-cased, as listEdges' filters read it), ``rel`` codes into ``relations``
    (each edge's normalised relation), ``ord`` each edge's ``Edge.ord`` (ascending). Snapshots
    that share their ``slot`` dict number the nodes and the relations alike (the later one may
    have more of each).
    """

    ids: Names
    slot: dict[str, int]
    nodes: Names
    parent: Ints
    archived: Flags
    src: Ints
    dst: Ints
    kind: Ints
    kinds: Names
    rel: Ints
    relations: Names
    ord: Ints


def int_array(values: Iterable[int]) -> Ints:
    """``values`` as an int64 array. A list first: ``np.fromiter`` over a ``map`` of dict
    lookups took 2.7 ms for 20k ids where this takes 1.4 ms."""
    return np.array(list(values), dtype=np.int64)


def graph_arrays(graph: Graph) -> GraphArrays:
    """The structure arrays of ``graph`` as of now (call under the store lock)."""
    return graph.index("structure", lambda: StructureIndex(graph)).arrays()


def edges_of_kinds(graph: Graph, kinds: frozenset[str] | None, exclude_internal: bool) -> Ints:
    """Positions in store order (``topology.edges_in_order``) of the edges whose lower-cased
    type is in ``kinds`` (None: any), without ``contains`` / ``semantic_contains`` when
    ``exclude_internal``: listEdges' filters, one array pass instead of a test per edge."""
    arrays = graph_arrays(graph)
    wanted = np.array(
        [
            (kinds is None or kind in kinds) and not (exclude_internal and kind in HIERARCHY)
            for kind in arrays.kinds
        ],
        dtype=np.bool_,
    )
    if not len(wanted):
        return np.zeros(0, dtype=np.int64)
    picked: Ints = np.flatnonzero(wanted[arrays.kind])
    return picked


def merged_by_ord(
    ords: Ints, columns: list[Ints], removed: set[int], added_ords: Ints, added: list[Ints]
) -> tuple[Ints, list[Ints]] | None:
    """Per-edge ``columns`` aligned with the ascending ``ords``, without the edges whose ord is
    in ``removed`` and with the ``added`` ones (aligned with ``added_ords``) in their place: new
    arrays (the given ones are not changed). None when a removed ord is not there or an ord would
    repeat (the caller rebuilds)."""
    if removed:
        gone = np.isin(ords, np.fromiter(removed, np.int64, len(removed)))
        if int(np.count_nonzero(gone)) != len(removed):
            return None
        ords, columns = ords[~gone], [c[~gone] for c in columns]
    if len(added_ords):
        order = np.argsort(added_ords, kind="stable")
        added_ords, added = added_ords[order], [c[order] for c in added]
        tail = not len(ords) or int(added_ords[0]) > int(ords[-1])
        ords = np.concatenate([ords, added_ords])
        columns = [np.concatenate([c, a]) for c, a in zip(columns, added, strict=True)]
        if not tail:  # an edge back in the middle (an undone removal)
            order = np.argsort(ords, kind="stable")
            ords, columns = ords[order], [c[order] for c in columns]
    if len(ords) > 1 and not bool(np.all(ords[1:] > ords[:-1])):
        return None
    return ords, columns


class Growing:
    """A column that grows at its end in place: ``values`` is the first ``used`` items of a
    buffer with room after them, so that adding ``k`` items costs ``k`` copies, not the whole
    column (on average: a full buffer is copied once into one twice as big). A view handed out
    earlier keeps its own length and values: nothing before its end is ever written again."""

    __slots__ = ("_buffer", "_used")

    def __init__(self, values: np.ndarray) -> None:
        self._buffer, self._used = values, len(values)

    @property
    def values(self) -> np.ndarray:
        return self._buffer[: self._used]

    def extend(self, more: np.ndarray | list[object]) -> np.ndarray:
        """The column with ``more`` after it (the new ``values``)."""
        n, k = self._used, len(more)
        if n + k > len(self._buffer):
            buffer = np.empty(max(2 * (n + k), 64), dtype=self._buffer.dtype)
            buffer[:n] = self._buffer[:n]
            self._buffer = buffer
        self._buffer[n : n + k] = more
        self._used = n + k
        return self.values


class StructureIndex:
    """Maintains ``GraphArrays`` across node and edge changes (see the module docstring)."""

    def __init__(self, graph: Graph) -> None:
        self._graph = graph
        self._rebuild()

    def _rebuild(self) -> None:
        nodes = self._graph.nodes
        self._ids = list(nodes)
        self._slot = dict(zip(self._ids, range(len(self._ids)), strict=True))
        self._names: Names = np.array(self._ids, dtype=np.object_)
        self._nodes: Names = np.empty(len(self._ids), dtype=np.object_)
        self._nodes[:] = list(nodes.values())
        parents = [n.parent_id.strip() for n in nodes.values()]
        self._parent: Ints = int_array(map(self._slot.get, parents, repeat(-1)))
        self._archived: Flags = np.fromiter((n.archived for n in nodes.values()), np.bool_)
        # names a parent or an edge end gives that are no node (a node made under one: rebuild)
        self._unknown = {parents[i] for i in np.flatnonzero(self._parent < 0).tolist()} - {""}
        self._relations: list[str] = []
        self._codes: dict[str, int] = {}
        self._kinds: dict[str, int] = {}  # lower-cased type -> its code
        self._kind_of: dict[str, int] = {}  # type as stored -> the code of its lower case
        edges = edges_in_order(self._graph)
        self._ord: Ints = np.fromiter(map(_ORD, edges), np.int64, len(edges))
        self._src, self._dst, self._rel, self._kind = self._edge_arrays(edges)
        self._changed: dict[int, Node] = {}  # slot -> node, new or with a new parent / archived
        self._added: dict[int, Edge] = {}  # ord -> edge, new since the last snapshot
        self._removed: set[int] = set()  # ords of edges gone since the last snapshot
        self._dropped: set[int] = set()  # slots of nodes purged since the last snapshot
        self._done: GraphArrays | None = None
        self._stale = False
        self._edges_growing: list[Growing] | None = None  # ord, src, dst, rel, kind
        self._nodes_growing: list[Growing] | None = None  # names, nodes, parent, archived

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        if self._stale:
            return
        if new is None:
            at = self._slot.pop(old.id, None) if old is not None else None
            if at is None:
                self._stale = True
            else:  # a purge: fine while the purged nodes are the last slots (an undone create)
                self._dropped.add(at)
                self._changed.pop(at, None)
                self._done = None
            return
        if new.id in self._unknown:
            self._stale = True  # a name an edge or a parent already gave: rebuild
            return
        at = self._slot.get(new.id)
        if at is None:
            self._slot[new.id] = at = len(self._ids)
            self._ids.append(new.id)
        elif at < len(self._nodes):
            self._nodes[at] = new  # kept in place: a field edit is not a structure change
            if old is not None and old.parent_id == new.parent_id and old.archived == new.archived:
                return
        self._changed[at] = new
        self._done = None

    def edge_changed(self, old: Edge | None, new: Edge | None) -> None:
        if self._stale or (old is not None and new is not None and old.ord == new.ord):
            return  # only seqTo changed: not part of the structure
        if old is not None and self._added.pop(old.ord, None) is None:
            self._removed.add(old.ord)
        if new is not None:
            self._added[new.ord] = new
        if len(self._added) + len(self._removed) > _PENDING_LIMIT:
            self._stale = True
        self._done = None

    def arrays(self) -> GraphArrays:
        if self._stale:
            self._rebuild()
        if self._done is None:
            if not self._apply() or len(self._ord) != len(self._graph.edges):  # out of step
                self._rebuild()
            self._done = GraphArrays(
                ids=self._names,
                slot=self._slot,
                nodes=self._nodes,
                parent=self._parent,
                archived=self._archived,
                src=self._src,
                dst=self._dst,
                kind=self._kind,
                kinds=np.array(list(self._kinds), dtype=np.object_),
                rel=self._rel,
                relations=np.array(self._relations, dtype=np.object_),
                ord=self._ord,
            )
        return self._done

    def _apply(self) -> bool:
        """The pending node and edge changes into new arrays (a snapshot handed out keeps its
        own); False when they do not fit the kept ones (then rebuild)."""
        if self._changed:
            self._apply_nodes()
        if self._added or self._removed:
            edges = sorted(self._added.values(), key=_ORD)
            src, dst, rel, kind = self._edge_arrays(edges)
            added_ords = np.fromiter(map(_ORD, edges), np.int64, len(edges))
            added = [src, dst, rel, kind]
            if not self._removed and self._at_the_end(added_ords):  # new edges (a turn's)
                self._added = {}
                self._append_edges([added_ords, *added])
            else:  # removed edges, or one back in its old place (an undo): new arrays
                columns = [self._src, self._dst, self._rel, self._kind]
                merged = merged_by_ord(self._ord, columns, self._removed, added_ords, added)
                self._added, self._removed = {}, set()
                self._edges_growing = None
                if merged is None:
                    return False
                self._ord, (self._src, self._dst, self._rel, self._kind) = merged[0], merged[1]
        return not self._dropped or self._drop_last()

    def _at_the_end(self, ords: Ints) -> bool:
        """Do ``ords`` (ascending) all come after every kept edge, each once?"""
        after = not len(self._ord) or not len(ords) or int(ords[0]) > int(self._ord[-1])
        return after and (len(ords) < 2 or bool(np.all(ords[1:] > ords[:-1])))

    def _append_edges(self, added: list[Ints]) -> None:
        """``added`` (ord, src, dst, rel, kind) after the kept edges, in place (``Growing``:
        at 632k edges, new arrays for one edge took ~4 ms of the first read after a write)."""
        if self._edges_growing is None:
            kept = [self._ord, self._src, self._dst, self._rel, self._kind]
            self._edges_growing = [Growing(column) for column in kept]
        grown = [g.extend(a) for g, a in zip(self._edges_growing, added, strict=True)]
        self._ord, self._src, self._dst, self._rel, self._kind = grown

    def _drop_last(self) -> bool:
        """Forget the purged nodes when they are the last slots and no edge names them any
        more (False otherwise: rebuild). A parent that was one of them becomes missing."""
        count = len(self._ids) - len(self._dropped)
        if self._dropped != set(range(count, len(self._ids))):
            return False
        if len(self._src) and int(max(self._src.max(), self._dst.max())) >= count:
            return False
        del self._ids[count:]
        self._dropped = set()
        self._nodes_growing = None  # (the views below are shorter than what was grown)
        self._names = self._names[:count]
        self._nodes = self._nodes[:count]
        self._archived = self._archived[:count]
        parent = self._parent[:count]
        orphans = np.flatnonzero(parent >= count).tolist()
        if orphans:
            parent = parent.copy()
            parent[orphans] = -1
            nodes = self._graph.nodes
            self._unknown.update(nodes[self._ids[i]].parent_id.strip() for i in orphans)
        self._parent = parent
        return True

    def _apply_nodes(self) -> None:
        """The changed nodes into new parent / archived / id arrays (new nodes only: after the
        kept ones, in place)."""
        count, known = len(self._ids), len(self._names)
        grow = count - known
        if grow and (not self._changed or min(self._changed) >= known):
            self._append_nodes(known, count)
            return
        self._nodes_growing = None
        parent = np.concatenate([self._parent, np.full(grow, -1, np.int64)])
        archived = np.concatenate([self._archived, np.zeros(grow, np.bool_)])
        for at, node in self._changed.items():
            name = node.parent_id.strip()
            parent[at] = self._slot.get(name, -1)
            if parent[at] < 0 and name:
                self._unknown.add(name)
            archived[at] = node.archived
        if grow:
            extra = np.empty(grow, dtype=np.object_)
            extra[:] = self._ids[known:]
            self._names = np.concatenate([self._names, extra])
            made = np.empty(grow, dtype=np.object_)
            made[:] = [self._changed.get(at) for at in range(known, count)]  # None: purged
            self._nodes = np.concatenate([self._nodes, made])
        self._parent, self._archived = parent, archived
        self._changed = {}

    def _append_nodes(self, known: int, count: int) -> None:
        """The nodes of slots ``known`` to ``count`` (all new) after the kept ones, in place."""
        parent = np.full(count - known, -1, np.int64)
        archived = np.zeros(count - known, np.bool_)
        for at, node in self._changed.items():
            name = node.parent_id.strip()
            parent[at - known] = self._slot.get(name, -1)
            if parent[at - known] < 0 and name:
                self._unknown.add(name)
            archived[at - known] = node.archived
        made = [self._changed.get(at) for at in range(known, count)]  # None: purged
        if self._nodes_growing is None:
            kept = [self._names, self._nodes, self._parent, self._archived]
            self._nodes_growing = [Growing(column) for column in kept]
        added: list[Any] = [self._ids[known:], made, parent, archived]
        grown = [g.extend(a) for g, a in zip(self._nodes_growing, added, strict=True)]
        self._names, self._nodes, self._parent, self._archived = grown
        self._changed = {}

    def _edge_arrays(self, edges: list[Edge]) -> tuple[Ints, Ints, Ints, Ints]:
        get = self._slot.get
        for kind in dict.fromkeys(map(_TYPE, edges)):
            if kind not in self._codes:
                relation = relation_of(Edge("", "", kind))
                if relation not in self._relations:
                    self._relations.append(relation)
                self._codes[kind] = self._relations.index(relation)
                self._kind_of[kind] = self._kinds.setdefault(kind.lower(), len(self._kinds))
        src = int_array(map(get, map(_FROM, edges), repeat(-1)))
        dst = int_array(map(get, map(_TO, edges), repeat(-1)))
        rel = int_array(map(self._codes.__getitem__, map(_TYPE, edges)))
        kind = int_array(map(self._kind_of.__getitem__, map(_TYPE, edges)))
        for ends, names in ((src, _FROM), (dst, _TO)):
            self._unknown.update(names(edges[i]) for i in np.flatnonzero(ends < 0).tolist())
        return src, dst, rel, kind

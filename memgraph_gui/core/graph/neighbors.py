"""Luker's ``getNeighbors`` and ``getNodeById``'s neighbour list, over a node's edges as columns.

A protagonist can have a third of all events on its edges (18k at 50k nodes, 70k at 200k). Luker
scans every edge per call; the first version here built one object per edge per call (11 ms at
12k edges). Now a hub's incident edges are held as columns (``Incident``, kept in step with its
writes), the live / projected / filtered / deduplicated rows are picked with a few numpy passes
over them, and the answer is a view over the picked columns (``Neighbors``, ``NeighborRefs``,
``EdgeList``) that builds a row's object only when it is read.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from itertools import compress, repeat
from operator import attrgetter, is_not

import numpy as np

from memgraph_gui.core.domain.model import Edge
from memgraph_gui.core.domain.results import EdgeList, NeighborRefs, Neighbors
from memgraph_gui.core.domain.text import plainly_joined
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.projection import lift
from memgraph_gui.core.graph.structure_index import (
    Flags,
    GraphArrays,
    Ints,
    Names,
    graph_arrays,
    int_array,
)

_ORD = attrgetter("ord")
_DIRECTIONS = np.array(["in", "out"], dtype=object)


class Incident:
    """The edges touching one node, in store order, as columns, kept in step with its edges.

    ``edges``: the edges themselves; ``others``: the other end's id; ``types``: the edge type as
    stored; ``relations``: codes of the lower-cased types into ``names``; ``outgoing``: whether
    the node is the edge's source; ``ords``: each edge's ``Edge.ord``. The graph tells it of every
    change to the node's edges (``edge_changed``): a new edge (the newest in store order, as every
    write makes) or a removed one is noted and folded in on the next read (``settle``), so the
    protagonist's columns are not rebuilt each turn. The other ends' node slots are worked out
    per numbering (``slots``). Used under the store lock. ``edges``, ``others`` and ``types`` only
    ever grow at their end (a removal makes new lists), so an answer may hold them with its
    length, without a copy; the numpy columns are replaced, never changed in place.
    """

    __slots__ = (
        "_added",
        "_codes",
        "_numbering",
        "_removed",
        "_slots",
        "_stored",
        "edges",
        "names",
        "ords",
        "others",
        "outgoing",
        "relations",
        "source",
        "types",
    )

    def __init__(self, source: str, edges: list[Edge]) -> None:
        self.source = source
        self.edges: list[Edge] = []
        self.others: list[str] = []
        self.types: list[str] = []
        self.relations: Ints = np.zeros(0, dtype=np.int64)
        self.outgoing: Flags = np.zeros(0, dtype=np.bool_)
        self.ords: Ints = np.zeros(0, dtype=np.int64)
        self.names: Names = np.zeros(0, dtype=object)
        self._codes: dict[str, int] = {}
        self._stored: set[str] = set()  # the types as stored (more than codes: case variants)
        self._added: list[Edge] = []
        self._removed: set[int] = set()
        self._numbering: dict[str, int] | None = None
        self._slots: Ints = np.zeros(0, dtype=np.int64)
        self._append(sorted(edges, key=_ORD))

    def edge_changed(self, old: Edge | None, new: Edge | None) -> bool:
        """Note a change to one of the node's edges; False when it cannot be kept up (an edge
        back in the middle of the store order: build anew)."""
        if old is not None and new is not None and old.ord == new.ord:
            return True  # the same edge with a new seqTo: nothing here changes
        if old is not None:
            self._removed.add(old.ord)
        if new is not None:
            newest = self._added[-1].ord if self._added else self.ords[-1] if len(self.ords) else -1
            if new.ord <= newest:
                return False
            self._added.append(new)
        return True

    def settle(self) -> Incident:
        """Fold the noted changes into the columns; returns itself."""
        if self._removed:
            added = [edge for edge in self._added if edge.ord not in self._removed]
            gone = self._removed - {edge.ord for edge in self._added}
            self._added, self._removed = added, set()
            if gone:
                self._drop(np.isin(self.ords, np.fromiter(gone, np.int64, len(gone))))
        if self._added:
            self._append(self._added)
            self._added = []
        return self

    def slots(self, arrays: GraphArrays) -> Ints:
        """Each other end's node slot in ``arrays`` (-1: no such node)."""
        if self._numbering is not arrays.slot:  # a renumbered snapshot: look them all up again
            self._numbering, self._slots = arrays.slot, np.zeros(0, dtype=np.int64)
        if len(self._slots) < len(self.others):  # edges added since: look those up
            rest = self.others[len(self._slots) :]
            found = int_array(map(arrays.slot.get, rest, repeat(-1)))
            self._slots = np.concatenate([self._slots, found])
        return self._slots

    @property
    def case_variants(self) -> bool:
        """Whether two stored types differ only in case (then raw rows can repeat)."""
        return len(self._stored) != len(self._codes)

    def _append(self, edges: list[Edge]) -> None:
        """The columns with ``edges`` (newer than every kept one, in store order) after them."""
        source, codes = self.source, self._codes
        outgoing = [edge.from_id == source for edge in edges]
        others = [e.to_id if out else e.from_id for e, out in zip(edges, outgoing, strict=True)]
        types = [edge.type for edge in edges]
        self._stored.update(types)
        lowered = [kind.lower() for kind in types]
        relations = np.fromiter(
            (codes.setdefault(kind, len(codes)) for kind in lowered), np.int64, len(lowered)
        )
        if len(codes) != len(self.names):
            self.names = np.array(list(codes), dtype=object)
        self.edges.extend(edges)
        self.others.extend(others)
        self.types.extend(types)
        self.relations = np.concatenate([self.relations, relations])
        self.outgoing = np.concatenate([self.outgoing, np.array(outgoing, dtype=np.bool_)])
        ords = np.fromiter(map(_ORD, edges), np.int64, len(edges))
        self.ords = np.concatenate([self.ords, ords])

    def _drop(self, gone: Flags) -> None:
        """The columns without the rows marked ``gone``."""
        keep = ~gone
        kept = keep.tolist()
        self.edges = list(compress(self.edges, kept))
        self.others = list(compress(self.others, kept))
        self.types = list(compress(self.types, kept))
        self.relations, self.outgoing = self.relations[keep], self.outgoing[keep]
        self.ords = self.ords[keep]
        self._slots = self._slots[keep[: len(self._slots)]]


KEPT_FROM = 256
"""Edges from which a node's columns are kept between calls (a hub's); a smaller node's are
made per call (microseconds), so that a caller walking every node does not keep them all."""


def incident(graph: Graph, source: str) -> Incident:
    """``source``'s incident edges as columns (a hub's kept by the graph in step with its
    edges)."""
    if graph.degree(source) < KEPT_FROM:
        return Incident(source, graph.edges_of(source))
    return graph.of_edges(source, lambda: Incident(source, graph.edges_of(source))).settle()


def neighbor_refs(graph: Graph, source: str) -> NeighborRefs:
    """``getNodeById``'s ``neighbors``: ``{id, edgeType}`` per incident edge in store order (the
    other end, whatever it is; the type as stored)."""
    edges = incident(graph, source)
    return NeighborRefs(edges.others, edges.types, len(edges.others))


def neighbors(
    graph: Graph,
    source: str,
    relations: frozenset[str] | None,
    way: str,
    visible: Iterable[str] | None,
) -> Neighbors:
    """The live neighbours of ``source`` in edge order, one per (neighbour, relation, direction).

    ``relations``: lower-cased relation names to follow (None: all). ``way``: ``in``, ``out`` or
    ``both``. ``visible``: ids (repeats, blanks, unknown ids and spaces around an id are
    harmless; anything but a string raises ``NotIds``, whatever the node); each neighbour is
    rolled up to its nearest visible ancestor and dropped when there is none (None: raw
    neighbours). An archived or missing neighbour (or one rolled up past an archived node) is
    dropped. Call under the store lock.
    """
    arrays = graph_arrays(graph)
    edges = incident(graph, source)
    slots = edges.slots(arrays) if len(edges.others) else np.empty(0, dtype=np.int64)
    mask = distinct = back = None
    if visible is not None:  # (checked even when there are no edges: NotIds)
        distinct, back = np.unique(slots, return_inverse=True)
        mask = _visible_among(arrays, visible, distinct)
    if not len(edges.others):
        return Neighbors()
    keep = _followed(edges, relations, way)
    if mask is None:
        dead = np.append(arrays.archived, True)  # slot -1 (no node) reads as dead
        target = slots
        keep &= ~dead[slots]
    else:
        assert distinct is not None and back is not None
        target = lift(arrays, mask, starts=distinct)[back]
        keep &= target >= 0
    if mask is None and not edges.case_variants:  # (neighbour, relation, way) is the key
        rows = np.flatnonzero(keep)
    else:
        rows = _first_of_each(target, edges, keep)
    return Neighbors(
        tuple(arrays.nodes[target[rows]].tolist()),
        tuple(edges.names[edges.relations[rows]].tolist()),
        tuple(_DIRECTIONS[edges.outgoing[rows].astype(np.int64)].tolist()),
    )


def _followed(edges: Incident, relations: frozenset[str] | None, way: str) -> Flags:
    """Which edges the relation and direction filters let through (a fresh array)."""
    if relations is None:
        keep = np.ones(len(edges.others), dtype=np.bool_)
    else:
        allowed = np.array([name in relations for name in edges.names], dtype=np.bool_)
        keep = allowed[edges.relations]
    if way == "out":
        keep &= edges.outgoing
    elif way == "in":
        keep &= ~edges.outgoing
    return keep


class NotIds(ValueError):
    """A visible set holds something that is not a string (the caller checks it and turns it
    into ids, or refuses it)."""


NEAR_SHARE = 1
"""``_visible_among`` looks the ids up among the neighbours' ways up when these are at most a
``1 / NEAR_SHARE`` of the ids (else among every node's: ``_mask``)."""


def _visible_among(arrays: GraphArrays, visible: Iterable[str], starts: Ints) -> Flags:
    """``_mask`` of ``visible`` as far as lifting ``starts`` can tell (a node off their ways up
    may be left unmarked). A caller's 20k ids against a node of ~1k edges: each id looked up
    among the few thousand ids on the neighbours' ways up (``_ancestry``), a set that stays in
    the memory caches, rather than among every node's (a miss per id: 1-20 ms for 20k on a
    shared machine, against ~0.6 ms); the ids with spaces around them, one pass apart."""
    ids = visible if isinstance(visible, Collection) else list(visible)
    near = _ancestry(arrays, starts)
    if NEAR_SHARE * len(near) > len(ids):
        return _mask(arrays, ids)  # the ways up are as many as the ids: look each id up
    try:
        joined = "\0".join(ids)  # (every item a string, or NotIds: one C-level pass)
    except TypeError as exc:
        raise NotIds from exc
    names = arrays.ids[near].tolist()
    wanted = set(names)
    found = wanted.intersection(ids)
    if not plainly_joined(joined, len(ids)):  # an id with a space in or around it: trim each
        stripped = list(map(str.strip, ids))
        for spaced in compress(ids, map(is_not, ids, stripped)):
            if spaced not in arrays.slot and spaced.strip() in wanted:
                found.add(spaced.strip())  # named no node as it was: trimmed
    mask = np.zeros(len(arrays.ids), dtype=np.bool_)  # (the slots found through ``names``,
    mask[near[np.fromiter(map(found.__contains__, names), np.bool_, len(names))]] = True
    return mask  # warm in the caches, not through the whole store's ``slot`` dict)


def _ancestry(arrays: GraphArrays, starts: Ints) -> Ints:
    """The live slots ``lift`` may look at when it walks up from ``starts`` (themselves
    included): up to a root, a cycle or an archived node (which blocks, unlooked at)."""
    seen = np.zeros(len(arrays.ids), dtype=np.bool_)
    at = starts[starts >= 0]
    while len(at):
        at = at[~arrays.archived[at] & ~seen[at]]
        seen[at] = True
        up = arrays.parent[at]
        at = up[up >= 0]
    return np.flatnonzero(seen)


def _mask(arrays: GraphArrays, visible: Iterable[str]) -> Flags:
    """``visible`` as a mask over node slots; an id with spaces around it counts trimmed (as
    Luker's ``toIdSet`` reads it), trimmed only when it names no node as it is. ``NotIds`` for
    an item that is not a string (checked on the ids that name no node: one pass, not two, over
    a caller's 20k ids, each a miss in the memory caches)."""
    ids = visible if isinstance(visible, Collection) else list(visible)
    try:
        at = int_array(map(arrays.slot.get, ids, repeat(-1)))
    except TypeError as exc:  # an unhashable item
        raise NotIds from exc
    mask = np.zeros(len(arrays.ids), dtype=np.bool_)
    mask[at[at >= 0]] = True
    missed = np.flatnonzero(at < 0).tolist()
    if missed:
        listed = list(ids)
        if not all(type(listed[i]) is str for i in missed):
            raise NotIds
        trimmed = [listed[i].strip() for i in missed]
        found = int_array(map(arrays.slot.get, trimmed, repeat(-1)))
        mask[found[found >= 0]] = True
    return mask


def _first_of_each(target: Ints, edges: Incident, keep: Flags) -> Ints:
    """The kept rows that are the first of their (target, relation, direction), in row order."""
    rows = np.flatnonzero(keep)
    if not len(rows):
        return rows
    keys = (target[rows] * len(edges.names) + edges.relations[rows]) * 2 + edges.outgoing[rows]
    _, first = np.unique(keys, return_index=True)
    picked: Ints = rows[np.sort(first)]
    return picked


def incident_edges_of(
    graph: Graph, node_id: str, *, outgoing: bool, relations: frozenset[str] | None
) -> EdgeList:
    """The edges leaving (``outgoing``) or entering ``node_id`` in store order, only those whose
    lower-cased type is in ``relations`` (None: all): a view over the node's edges."""
    edges = incident(graph, node_id)
    keep = _followed(edges, relations, "out" if outgoing else "in")
    return EdgeList(edges.edges, np.flatnonzero(keep))

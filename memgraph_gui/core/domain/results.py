"""Frozen result types of the Read and Write APIs; ``to_json()`` gives the seed's exact shape."""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice, repeat
from typing import Any, Protocol, overload

import numpy as np
import numpy.typing as npt

from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.columns import from_columns
from memgraph_gui.core.domain.freeze import thaw
from memgraph_gui.core.domain.model import Edge, Node


def to_jsonable(value: Any) -> Any:
    """Any API result as plain JSON data (Sets become sorted arrays, tuples arrays)."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, (set, frozenset)):
        from memgraph_gui.core.domain.collation import sort_locale

        return sort_locale(str(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class ProjectedEdge:
    """An ``EdgeView`` from ``projectEdges``: raw edges collapsed onto visible nodes."""

    from_id: str
    to_id: str
    type: str
    weight: int

    def to_json(self) -> dict[str, Any]:
        return {"from": self.from_id, "to": self.to_id, "type": self.type, "weight": self.weight}

    @classmethod
    def from_columns(
        cls,
        from_ids: Sequence[str],
        to_ids: Sequence[str],
        types: Sequence[str],
        weights: Sequence[int],
    ) -> tuple[ProjectedEdge, ...]:
        """One edge per row of the four equally long columns, the same as calling the class per
        row but about twice as fast (a projection can hold tens of thousands of edges)."""
        columns = {"from_id": from_ids, "to_id": to_ids, "type": types, "weight": weights}
        return tuple(from_columns(cls, columns))


class ProjectedEdges(Sequence[ProjectedEdge]):
    """``projectEdges``' answer: a frozen sequence of ``ProjectedEdge``, held as four columns.

    A projection can hold tens of thousands of edges and each edge object costs about a
    microsecond to build, so an edge is built when it is read (iterating builds them all in one
    go, ``to_json`` goes straight from the columns). Equal to any tuple or list of the same edges.
    """

    __slots__ = ("_columns",)

    def __init__(
        self,
        from_ids: Sequence[str] = (),
        to_ids: Sequence[str] = (),
        types: Sequence[str] = (),
        weights: Sequence[int] = (),
    ) -> None:
        self._columns: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[int, ...]] = (
            tuple(from_ids),
            tuple(to_ids),
            tuple(types),
            tuple(weights),
        )
        if len({len(c) for c in self._columns}) > 1:
            raise ValueError("ProjectedEdges: the columns differ in length")

    def __len__(self) -> int:
        return len(self._columns[0])

    @overload
    def __getitem__(self, index: int) -> ProjectedEdge: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[ProjectedEdge, ...]: ...

    def __getitem__(self, index: int | slice) -> ProjectedEdge | tuple[ProjectedEdge, ...]:
        a, b, kind, weight = self._columns
        if isinstance(index, slice):
            return ProjectedEdge.from_columns(a[index], b[index], kind[index], weight[index])
        return ProjectedEdge(a[index], b[index], kind[index], weight[index])

    def __iter__(self) -> Iterator[ProjectedEdge]:
        return iter(ProjectedEdge.from_columns(*self._columns))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ProjectedEdges):
            return self._columns == other._columns
        if isinstance(other, (tuple, list)):
            return len(other) == len(self) and all(map(operator.eq, self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._columns)

    def __repr__(self) -> str:
        return f"ProjectedEdges({len(self):,} edges)"

    def to_json(self) -> list[dict[str, Any]]:
        """The seed's ``EdgeView`` list: ``[{from, to, type, weight}]``."""
        keys = repeat(("from", "to", "type", "weight"))
        return list(map(dict, map(zip, keys, zip(*self._columns, strict=True))))


@dataclass(frozen=True, slots=True)
class NeighborView:
    """A neighbour seen from a source node; ``direction`` is ``in`` or ``out``."""

    node: Node
    edge_type: str
    direction: str

    def to_json(self) -> dict[str, Any]:
        return {
            "node": self.node.to_json(),
            "edgeType": self.edge_type,
            "direction": self.direction,
        }

    @classmethod
    def from_columns(
        cls, nodes: Sequence[Node], edge_types: Sequence[str], directions: Sequence[str]
    ) -> tuple[NeighborView, ...]:
        """One view per row of the three equally long columns, as calling the class per row
        does but ~4x faster (a hub can have thousands of neighbours)."""
        columns = {"node": nodes, "edge_type": edge_types, "direction": directions}
        return tuple(from_columns(cls, columns))


class Neighbors(Sequence[NeighborView]):
    """``getNeighbors``' answer: a frozen sequence of ``NeighborView``, held as three columns.

    A protagonist can have tens of thousands of neighbours; a view is built when it is read
    (iterating builds them all in one go, ``to_json`` goes straight from the columns). Equal to
    any tuple or list of the same views.
    """

    __slots__ = ("_columns",)

    def __init__(
        self,
        nodes: Sequence[Node] = (),
        edge_types: Sequence[str] = (),
        directions: Sequence[str] = (),
    ) -> None:
        self._columns: tuple[tuple[Node, ...], tuple[str, ...], tuple[str, ...]] = (
            tuple(nodes),
            tuple(edge_types),
            tuple(directions),
        )
        if len({len(c) for c in self._columns}) > 1:
            raise ValueError("Neighbors: the columns differ in length")

    def __len__(self) -> int:
        return len(self._columns[0])

    @overload
    def __getitem__(self, index: int) -> NeighborView: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[NeighborView, ...]: ...

    def __getitem__(self, index: int | slice) -> NeighborView | tuple[NeighborView, ...]:
        nodes, kinds, directions = self._columns
        if isinstance(index, slice):
            return NeighborView.from_columns(nodes[index], kinds[index], directions[index])
        return NeighborView(nodes[index], kinds[index], directions[index])

    def __iter__(self) -> Iterator[NeighborView]:
        return iter(NeighborView.from_columns(*self._columns))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Neighbors):
            return self._columns == other._columns
        if isinstance(other, (tuple, list)):
            return len(other) == len(self) and all(map(operator.eq, self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # as a tuple of views (a node is unhashable)

    def __repr__(self) -> str:
        return f"Neighbors({len(self):,} neighbours)"

    def to_json(self) -> list[dict[str, Any]]:
        """The seed's ``[{node, edgeType, direction}]``."""
        nodes, kinds, directions = self._columns
        keys = repeat(("node", "edgeType", "direction"))
        rows = zip(map(Node.to_json, nodes), kinds, directions, strict=True)
        return list(map(dict, map(zip, keys, rows)))


class Positions(Protocol):
    """Row positions: a list of ints or a 1-d integer numpy array."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int, /) -> Any: ...


class EdgeList(Sequence[Edge]):
    """``listEdges``' answer: a frozen sequence of raw edges, a view over a list of edges.

    The list is one its owner never changes in place (a store-order list replaced after a
    write, or a hub's edges, which only grow at their end); ``rows`` are the positions picked
    from it (None: its first ``count``). A protagonist's 12k edges then cost no copy. Equal to
    any tuple or list of the same edges; ``to_json`` gives the seed's ``EdgeView`` list.
    """

    __slots__ = ("_count", "_edges", "_rows")

    def __init__(
        self,
        edges: Sequence[Edge] = (),
        rows: Positions | None = None,
        count: int | None = None,
    ) -> None:
        self._edges, self._rows = edges, rows
        self._count = len(rows) if rows is not None else len(edges) if count is None else count
        if rows is None and self._count > len(edges):
            raise ValueError("EdgeList: the list is shorter than the count")

    def _positions(self) -> list[int]:
        rows = self._rows
        if rows is None:
            return list(range(self._count))
        tolist = getattr(rows, "tolist", None)  # a numpy array: its ints at C speed
        found: list[int] = tolist() if tolist is not None else [rows[i] for i in range(len(rows))]
        return found

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Edge: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Edge, ...]: ...

    def __getitem__(self, index: int | slice) -> Edge | tuple[Edge, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        at = range(self._count)[index]  # IndexError past the count, negatives from its end
        return self._edges[at if self._rows is None else int(self._rows[at])]

    def __iter__(self) -> Iterator[Edge]:
        if self._rows is None:
            return islice(self._edges, self._count)
        return map(self._edges.__getitem__, self._positions())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EdgeList, tuple, list)):
            return len(other) == len(self) and all(map(operator.eq, self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # as the list it stands for

    def __repr__(self) -> str:
        return f"EdgeList({len(self):,} edges)"

    def to_json(self) -> list[dict[str, Any]]:
        """The seed's raw ``EdgeView`` list: ``[{from, to, type}]``."""
        return [edge.to_json() for edge in self]


class NeighborRefs(Sequence[dict[str, str]]):
    """``getNodeById``'s ``neighbors``: ``{id, edgeType}`` per incident edge, held as two columns.

    The columns may be longer lists of which only the first ``count`` items are read, and which
    their owner only ever extends: a hub's answer then costs no copy of its edges. Each item
    read is a fresh dict (a caller may change it). Equal to any list or tuple of the same dicts;
    ``to_json`` gives that list.
    """

    __slots__ = ("_count", "_ids", "_types")

    def __init__(
        self, ids: Sequence[str] = (), edge_types: Sequence[str] = (), count: int | None = None
    ) -> None:
        self._count = len(ids) if count is None else count
        if not self._count <= min(len(ids), len(edge_types)):
            raise ValueError("NeighborRefs: the columns are shorter than the count")
        if count is None and len(ids) != len(edge_types):
            raise ValueError("NeighborRefs: the columns differ in length")
        self._ids, self._types = ids, edge_types

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> dict[str, str]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, str]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, str] | list[dict[str, str]]:
        if isinstance(index, slice):
            return self.to_json()[index]
        at = range(self._count)[index]  # IndexError past the count, negatives from its end
        return {"id": self._ids[at], "edgeType": self._types[at]}

    def __iter__(self) -> Iterator[dict[str, str]]:
        return iter(self.to_json())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (NeighborRefs, tuple, list)):
            return len(other) == len(self) and all(map(operator.eq, self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # as the list it stands for

    def __repr__(self) -> str:
        return f"NeighborRefs({len(self):,} edges)"

    def to_json(self) -> list[dict[str, str]]:
        """The seed's ``[{id, edgeType}]``."""
        keys = repeat(("id", "edgeType"))
        count = self._count
        rows = zip(islice(self._ids, count), islice(self._types, count), strict=True)
        return list(map(dict, map(zip, keys, rows)))


@dataclass(frozen=True, slots=True)
class RelationCount:
    relation: str
    direction: str
    count: int

    def to_json(self) -> dict[str, Any]:
        return {"relation": self.relation, "direction": self.direction, "count": self.count}


@dataclass(frozen=True, slots=True)
class SampleNeighbor:
    id: str
    type: str
    title: str
    to_seq: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "type": self.type, "title": self.title, "to_seq": self.to_seq}


@dataclass(frozen=True, slots=True)
class EdgeSummary:
    """The seed's ``EdgeSummaryView`` (snake_case keys, as the recall prompt uses)."""

    degree: int = 0
    relations: tuple[RelationCount, ...] = ()
    sample_neighbors: tuple[SampleNeighbor, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "degree": self.degree,
            "relations": [r.to_json() for r in self.relations],
            "sample_neighbors": [s.to_json() for s in self.sample_neighbors],
        }


@dataclass(frozen=True, slots=True)
class NodeBrief:
    """The seed's ``NodeBriefView``."""

    id: str
    level: str
    type: str
    table_name: str
    title: str
    summary: str
    key_values: Mapping[str, Any]
    row_values: Mapping[str, Any]
    to_seq: int
    child_count: int
    exposure: str
    edge_summary: EdgeSummary | None
    always_inject: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "level": self.level,
            "type": self.type,
            "tableName": self.table_name,
            "title": self.title,
            "summary": self.summary,
            "keyValues": thaw(self.key_values),
            "rowValues": thaw(self.row_values),
            "toSeq": self.to_seq,
            "childCount": self.child_count,
            "exposure": self.exposure,
            "edgeSummary": None if self.edge_summary is None else self.edge_summary.to_json(),
            "alwaysInject": self.always_inject,
        }


@dataclass(frozen=True, slots=True)
class RankedNode:
    """A NodeView plus ``score`` and ``scoreMode`` (``keyword`` or ``vector``)."""

    node: Node
    score: float
    score_mode: str

    def to_json(self) -> dict[str, Any]:
        out = self.node.to_json()
        out["score"] = self.score
        out["scoreMode"] = self.score_mode
        return out


class NodeRows(Sequence[Node]):
    """A frozen sequence of nodes picked out of lists, read when it is read: ``findByName``'s
    matches.

    ``parts`` are node lists their owner never changes in place; item ``i`` is the node at flat
    position ``rows[i]`` of their concatenation (``rows`` None: every node of ``parts``, in
    order). Tens of thousands of matches then cost two integer arrays, not a tuple of nodes
    (touching each node object is what a tuple costs: ~40 ns each at 200k nodes). The nodes are
    gathered once, on the first read of them all (iterating, equality, ``to_json``...), and kept.
    Behaves as the tuple of those nodes (len, indexing, slices give tuples, ``in``, ``index``,
    ``count``, hash) and is equal to any tuple or list of the same nodes.
    """

    __slots__ = ("_nodes", "_parts", "_rows", "_starts")

    def __init__(
        self,
        parts: Sequence[Sequence[Node]] = (),
        rows: npt.NDArray[np.int64] | None = None,
        starts: npt.NDArray[np.int64] | None = None,
    ) -> None:
        """``starts``: each part's first flat position and the total after them (computed
        from the parts' lengths when not given)."""
        self._parts = tuple(parts)
        if starts is None:
            starts = np.zeros(len(self._parts) + 1, np.int64)
            if self._parts:
                np.cumsum([len(part) for part in self._parts], out=starts[1:])
        if len(starts) != len(self._parts) + 1:
            raise ValueError("NodeRows: one start a part, and the total")
        self._starts = starts
        total = int(starts[-1])
        if rows is not None and len(rows) and not 0 <= int(rows.min()) <= int(rows.max()) < total:
            raise ValueError("NodeRows: a row past the parts")
        self._rows = rows
        self._nodes: tuple[Node, ...] | None = None

    @classmethod
    def of(cls, nodes: Sequence[Node]) -> NodeRows:
        """The view of ``nodes`` as they are."""
        held = tuple(nodes)
        view = cls((held,), None, np.array([0, len(held)], np.int64))
        view._nodes = held
        return view

    def _all(self) -> tuple[Node, ...]:
        nodes = self._nodes
        if nodes is None:
            if self._rows is None:
                nodes = tuple(chain.from_iterable(self._parts))
            else:
                nodes = gather(self._parts, self._starts, self._rows)
            self._nodes = nodes
        return nodes

    def __len__(self) -> int:
        return int(self._starts[-1]) if self._rows is None else len(self._rows)

    @overload
    def __getitem__(self, index: int) -> Node: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Node, ...]: ...

    def __getitem__(self, index: int | slice) -> Node | tuple[Node, ...]:
        if self._nodes is not None or isinstance(index, slice):
            return self._all()[index]
        at = range(len(self))[index]  # IndexError past the end, negatives from the end
        if self._rows is not None:
            at = int(self._rows[at])
        part = int(np.searchsorted(self._starts, at, side="right")) - 1
        return self._parts[part][at - int(self._starts[part])]

    def __iter__(self) -> Iterator[Node]:
        return iter(self._all())

    def __contains__(self, value: object) -> bool:
        return value in self._all()

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        return self._all().index(value, start, len(self) if stop is None else stop)

    def count(self, value: Any) -> int:
        return self._all().count(value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NodeRows):
            return len(self) == len(other) and self._all() == other._all()
        if isinstance(other, tuple):
            return len(self) == len(other) and self._all() == other
        if isinstance(other, list):
            return len(self) == len(other) and self._all() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return f"NodeRows({len(self):,} nodes)"

    def to_json(self) -> list[dict[str, Any]]:
        """The seed's ``NodeView[]``."""
        return list(map(Node.to_json, self._all()))


def gather(
    parts: Sequence[Sequence[Node]], starts: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]
) -> tuple[Node, ...]:
    """The nodes at flat positions ``rows`` of the concatenation of ``parts`` (``starts``: each
    part's first flat position, then the total), in the order of ``rows``."""
    if len(parts) == 1:
        return tuple(map(parts[0].__getitem__, rows.tolist()))
    part = np.searchsorted(starts, rows, side="right") - 1
    local = rows - starts[part]
    picked = map(parts.__getitem__, part.tolist())
    return tuple(map(operator.getitem, picked, local.tolist()))


@dataclass(frozen=True, slots=True)
class NameMatches:
    """``findByName``'s ``{matches: NodeView[]}``; ``matches`` a ``NodeRows`` view (or any
    sequence of nodes)."""

    matches: Sequence[Node]

    def to_json(self) -> dict[str, Any]:
        matches = self.matches
        if isinstance(matches, NodeRows):
            return {"matches": matches.to_json()}
        return {"matches": [n.to_json() for n in matches]}


@dataclass(frozen=True, slots=True)
class CompactionGroup:
    depth: int
    child_ids: tuple[str, ...]
    fan_in: int

    def to_json(self) -> dict[str, Any]:
        return {"depth": self.depth, "childIds": list(self.child_ids), "fanIn": self.fan_in}


@dataclass(frozen=True, slots=True)
class CompactionGroups:
    """``compactionCandidates``' ``{groups: [...]}``."""

    groups: tuple[CompactionGroup, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"groups": [g.to_json() for g in self.groups]}


@dataclass(frozen=True, slots=True)
class WriteResult:
    """A Write API result: the seed's JSON ``payload`` plus the commit's ``changes`` (not in JSON)."""

    payload: Mapping[str, Any]
    changes: ChangeSet | None = field(default=None, compare=False)

    def __getitem__(self, key: str) -> Any:
        return self.payload[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.payload.get(key, default)

    def to_json(self) -> dict[str, Any]:
        return to_jsonable(dict(self.payload))  # type: ignore[no-any-return]

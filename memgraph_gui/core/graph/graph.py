"""``Graph``: the in-memory image of a store that every read is answered from.

The SQLite file is the durable truth; the store keeps one ``Graph`` in step with it (its own commits,
other processes' commits read from the change log, or a full reload). Per-node derived values
(search haystacks, token sets) live in named caches dropped node by node when a node changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import attrgetter, itemgetter
from typing import Any, Protocol, TypeVar

from memgraph_gui.core.domain.collation import sort_keys
from memgraph_gui.core.domain.injection import InjectionState
from memgraph_gui.core.domain.model import Edge, EdgeKey, Node
from memgraph_gui.core.domain.schema import Schema
from memgraph_gui.core.graph.title_index import TitleIndex

T = TypeVar("T")
_KEY = itemgetter(0, 2, 1)  # an Edge's (from, type, to)
_NONE: dict[EdgeKey, Edge] = {}  # a node without edges (never written to)
_MISSING = object()


class IncrementalIndex(Protocol):
    """Something kept in step with the nodes (``Graph.index``). One that also has a method
    ``edge_changed(old: Edge | None, new: Edge | None)`` is told of every edge change too."""

    def node_changed(self, old: Node | None, new: Node | None) -> None: ...


IndexT = TypeVar("IndexT", bound=IncrementalIndex)


class Graph:
    """Nodes, edges, adjacency and meta values, with derived caches. Not thread-safe by itself."""

    def __init__(self) -> None:
        self.nodes: dict[str, Node] = {}
        self.edges: dict[EdgeKey, Edge] = {}
        # per node: the edges leaving / entering it, by key in edge order (None: not built
        # since a load)
        self._out: dict[str, dict[EdgeKey, Edge]] | None = {}
        self._in: dict[str, dict[EdgeKey, Edge]] = {}
        self._by_edges: dict[str, Any] = {}  # node id -> what ``of_edges`` built from its edges
        self.meta: dict[str, Any] = {}
        self._schema: Schema | None = None
        self._injection: InjectionState | None = None
        self._timeline: list[str] | None = None
        self._derived: dict[Any, Any] = {}
        self._schema_derived: dict[str, Any] = {}
        self._indexes: dict[str, IncrementalIndex] = {}

    # -- mutation (used by the store only) -------------------------------------------------------
    def put_node(self, node: Node) -> None:
        old = self.nodes.get(node.id)
        for index in self._indexes.values():
            index.node_changed(old, node)
        self.nodes[node.id] = node
        if old is None or old.seq_to != node.seq_to:
            self._timeline = None
        self._derived.clear()

    def drop_node(self, node_id: str) -> None:
        old = self.nodes.pop(node_id, None)
        if old is not None:
            for index in self._indexes.values():
                index.node_changed(old, None)
            self._timeline = None
            self._derived.clear()

    def put_edge(self, edge: Edge) -> None:
        key = edge.key
        old = self.edges.get(key)
        if self._out is not None:
            self._out.setdefault(edge.from_id, {})[key] = edge
            self._in.setdefault(edge.to_id, {})[key] = edge
        self.edges[key] = edge
        self._edge_changed(old, edge)

    def drop_edge(self, key: EdgeKey) -> None:
        old = self.edges.pop(key, None)
        if old is None:
            return
        if self._out is not None:
            del self._out[key[0]][key]
            del self._in[key[2]][key]
        self._edge_changed(old, None)

    def _edge_changed(self, old: Edge | None, new: Edge | None) -> None:
        edge = new if old is None else old  # the same key: the same two ends
        assert edge is not None
        for end in (edge.from_id, edge.to_id):
            kept = self._by_edges.get(end, _MISSING)
            if kept is not _MISSING:
                hook = getattr(kept, "edge_changed", None)
                if hook is None or not hook(old, new):
                    del self._by_edges[end]
        for index in self._indexes.values():
            hook = getattr(index, "edge_changed", None)
            if hook is not None:
                hook(old, new)
        self._derived.clear()

    def loaded_edges(self, edges: Iterable[Edge]) -> None:
        """Take a whole store's edges at load (an empty graph). The per-node adjacency is built
        on first use (~0.08 s at 150k edges, not spent while a window opens)."""
        self.edges.update(zip(map(_KEY, edges), edges, strict=True))
        self._out = None
        self._by_edges.clear()

    def set_meta(self, key: str, value: Any) -> None:
        if value is None:
            self.meta.pop(key, None)
        else:
            self.meta[key] = value
        if key == "schema":
            self._schema = None
            self._indexes.clear()
            self._schema_derived.clear()
        elif key == "injection":
            self._injection = None
        self._derived.clear()

    # -- reads -----------------------------------------------------------------------------------
    @property
    def schema(self) -> Schema:
        if self._schema is None:
            self._schema = Schema.from_json(self.meta.get("schema") or [])
        return self._schema

    @property
    def injection(self) -> InjectionState:
        if self._injection is None:
            self._injection = InjectionState.from_json(self.meta.get("injection"))
        return self._injection

    def counter(self, name: str) -> int:
        value = self.meta.get(name, 0)
        return int(value) if isinstance(value, (int, float)) else 0

    def edges_of(self, node_id: str) -> list[Edge]:
        """Edges leaving ``node_id`` then edges entering it, each list in edge order (a
        self-edge is never stored)."""
        out, into = self._adjacency()
        return [*out.get(node_id, _NONE).values(), *into.get(node_id, _NONE).values()]

    def degree(self, node_id: str) -> int:
        """How many edges touch ``node_id`` (no list is made)."""
        out, into = self._adjacency()
        return len(out.get(node_id, _NONE)) + len(into.get(node_id, _NONE))

    def out_edges(self, node_id: str) -> list[Edge]:
        """Edges leaving ``node_id``, in edge order (no scan of the edges entering it)."""
        out, _ = self._adjacency()
        return list(out.get(node_id, _NONE).values())

    def of_edges(self, node_id: str, build: Callable[[], T]) -> T:
        """A value derived from ``node_id``'s own edges (and nothing else): ``build()`` once,
        then kept until an edge of the node changes. A value with a method
        ``edge_changed(old: Edge | None, new: Edge | None) -> bool`` is told of each such change
        instead, and dropped only when it answers False. Store lock held."""
        found = self._by_edges.get(node_id, _MISSING)
        if found is _MISSING:
            found = self._by_edges[node_id] = build()
        return found  # type: ignore[no-any-return]

    @property
    def edges_indexed(self) -> bool:
        """Whether the per-node edge lists are built (they are, on first use, after a load)."""
        return self._out is not None

    def index_edges(self) -> None:
        """Build the per-node edge lists now rather than on first use (store lock held)."""
        self._adjacency()

    def _adjacency(self) -> tuple[dict[str, dict[EdgeKey, Edge]], dict[str, dict[EdgeKey, Edge]]]:
        """The edges leaving and entering each node, in edge order (built here after a load;
        callers hold the store lock, as every reader that iterates does)."""
        if self._out is None:
            out: dict[str, dict[EdgeKey, Edge]] = {}
            into: dict[str, dict[EdgeKey, Edge]] = {}
            for key, edge in self.edges.items():
                if key[0] in out:
                    out[key[0]][key] = edge
                else:
                    out[key[0]] = {key: edge}
                if key[2] in into:
                    into[key[2]][key] = edge
                else:
                    into[key[2]] = {key: edge}
            self._out, self._in = out, into
        return self._out, self._in

    def titles(self) -> TitleIndex:
        """Live nodes by ``(type, lower title)`` and ``Summary N`` numbers (kept up to date)."""
        return self.index("titles", lambda: TitleIndex(list(self.nodes.values())))

    def release(self) -> list[dict[Any, Any]]:
        """Drop the derived caches and indexes (the store calls it on a graph it no longer
        serves): the reference cycles some index makes back to the graph go with them, so the
        graph is freed when its last reader lets go, not at some later full collection. The
        nodes, edges, meta and the values read lock-free (schema, injection, timeline, edge
        lists) stay, so a lookup still holding this graph on another thread answers as before.
        Each cache is replaced whole, never emptied in place: a reader that already holds one
        keeps a whole one. Returns the caches dropped (freed where the caller lets go of them)."""
        dropped = [self._by_edges, self._derived, self._schema_derived, self._indexes]
        self._by_edges, self._derived = {}, {}
        self._schema_derived, self._indexes = {}, {}
        return dropped

    def parts(self) -> list[Any]:
        """The big containers this graph holds (its nodes, edges, per-node edge lists and
        timeline), for ``pieces.dismantling`` once it is no longer served (None where not
        built)."""
        return [self._timeline, self._in, self._out, self.edges, self.nodes]

    def index(self, name: str, build: Callable[[], IndexT]) -> IndexT:
        """An incrementally maintained index: built once, then told of every node change (and
        dropped when the schema changes)."""
        found = self._indexes.get(name)
        if found is None:
            found = self._indexes[name] = build()
        return found  # type: ignore[return-value]

    def timeline_ids(self) -> list[str]:
        """All node ids in ``compareNodesByTimeline`` order (seqTo asc, id by localeCompare)."""
        if self._timeline is None:
            ids = list(self.nodes)
            keys = sort_keys(ids)
            seqs_of = attrgetter("seq_to")
            if len(ids) < NUMPY_SORT_FROM:
                by_id = sorted(range(len(ids)), key=keys.__getitem__)
                ids = list(map(ids.__getitem__, by_id))
                seqs = list(map(seqs_of, map(self.nodes.__getitem__, ids)))
                by_seq = sorted(range(len(ids)), key=seqs.__getitem__)  # stable: ids in order
            else:
                ids, by_seq = _sorted_without_gil(ids, keys, self.nodes, seqs_of)
            self._timeline = list(map(ids.__getitem__, by_seq))
        return self._timeline

    def per_schema(self, name: str, compute: Callable[[], T]) -> T:
        """A value derived from the schema alone, memoised until the schema changes."""
        return _memo(self._schema_derived, name, compute)

    def derived(self, name: Any, compute: Callable[[], T]) -> T:
        """A whole-graph derived value memoised until the next node, edge or meta change."""
        return _memo(self._derived, name, compute)

    def memoised(self, name: Any) -> Any | None:
        """The derived value ``name`` if it is memoised now, else None (nothing computed)."""
        return self._derived.get(name)


NUMPY_SORT_FROM = 5_000
"""Ids from which the timeline is sorted by numpy (the CLI's small stores never import it)."""


def _sorted_without_gil(
    ids: list[str], keys: list[Any], nodes: dict[str, Node], seqs_of: Callable[[Node], Any]
) -> tuple[list[str], list[int]]:
    """``ids`` in id order and the stable seq order of that list, sorted by numpy where it can
    (string keys of ASCII ids, machine-integer seqs): numpy sorts without the GIL, while a
    ``sorted()`` of 50k held it ~15 ms twice (a window importing could not paint). The same
    order as ``sorted`` (both sorts are stable)."""
    import numpy as np  # here: the CLI's small stores never import it

    if keys and isinstance(keys[0], str):
        by_id = np.argsort(np.array(keys), kind="stable").tolist()
    else:
        by_id = sorted(range(len(ids)), key=keys.__getitem__)
    ids = list(map(ids.__getitem__, by_id))
    seqs = list(map(seqs_of, map(nodes.__getitem__, ids)))
    try:
        if not all(type(seq) is int for seq in seqs):
            raise TypeError
        by_seq: list[int] = np.argsort(np.array(seqs, dtype=np.int64), kind="stable").tolist()
    except (TypeError, OverflowError):  # not all machine integers: Python's sort
        by_seq = sorted(range(len(ids)), key=seqs.__getitem__)
    return ids, by_seq


def _memo(cache: dict[Any, Any], name: Any, compute: Callable[[], T]) -> T:
    try:
        return cache[name]  # type: ignore[no-any-return]
    except KeyError:
        value = cache[name] = compute()
        return value

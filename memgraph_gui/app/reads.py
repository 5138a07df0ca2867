"""``StoreReads``: the AppModel's read side. Small reads run on the GUI thread.

Single lookups (a node, its edges, the injection state) peek at the in-memory graph without the
store lock or a catch-up: the watcher keeps it current, and a timeline cell must not take a lock
and run a PRAGMA. Whole-graph reads hold the lock (``reading()``), so a writer never mutates what
they iterate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import compress
from operator import attrgetter, not_
from typing import TYPE_CHECKING, Any, TypeVar

from memgraph_gui.app.nuggets_desk import warm_nuggets
from memgraph_gui.core.domain.injection import InjectionState
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.domain.pieces import slices
from memgraph_gui.core.domain.schema import Schema
from memgraph_gui.core.domain.text import find_needle, node_finds
from memgraph_gui.core.graph import search
from memgraph_gui.core.graph.picture import graph_rows

if TYPE_CHECKING:
    from memgraph_gui.core.graph.graph import Graph
    from memgraph_gui.core.memory import MemoryStore

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class StoreCounts:
    """What the status bar shows; O(1) to compute."""

    path: str
    nodes: int
    edges: int
    injection: InjectionState
    read_only: str


@dataclass(frozen=True, slots=True)
class TimelineRows:
    """The timeline's rows: ids in order, their seqs, and whether every node id is ASCII."""

    ids: list[str]
    seqs: dict[str, int]
    ascii_ids: bool


class StoreReads:
    """Read helpers shared by every view (mixed into ``AppModel``)."""

    _store: MemoryStore

    def node(self, node_id: str) -> Node | None:
        """The node, or None (lock-free)."""
        return self._store.peek_graph.nodes.get(node_id)

    def injection(self) -> InjectionState:
        """The recorded injection state (lock-free)."""
        return self._store.peek_graph.injection

    def schema(self) -> Schema:
        """The node-type schema (lock-free)."""
        return self._store.peek_graph.schema

    def counts(self) -> StoreCounts:
        """Node/edge counts and injection for the status bar (lock-free, O(1))."""
        graph = self._store.peek_graph
        store = self._store
        return StoreCounts(
            store.path, len(graph.nodes), len(graph.edges), graph.injection, store.read_only
        )

    def current_seq(self) -> int:
        """The store's current chat turn (``meta.seqCounter``): what "Mark as current" stamps
        (lock-free)."""
        return self._store.peek_graph.counter("seqCounter")

    @property
    def read_only(self) -> bool:
        """True when the open store refuses writes."""
        return bool(self._store.read_only)

    @property
    def stamp(self) -> tuple[str, int]:
        """The open store's content version (generation, last change seq)."""
        return self._store.stamp

    @property
    def path(self) -> str:
        return self._store.path

    def edges_of(self, node_id: str) -> list[Edge]:
        """Edges leaving then entering ``node_id``."""
        return self.read(lambda graph: list(graph.edges_of(node_id)))

    def timeline_ids(self) -> list[str]:
        """Every node id in timeline order (seqTo, then id)."""
        return self.read(lambda graph: list(graph.timeline_ids()))

    def read(self, fn: Callable[[Graph], T]) -> T:
        """``fn(graph)`` under the store lock, as of the watcher's last catch-up with other
        processes (the app layer's own reads, on the GUI thread: they never call SQLite; views
        ask for what they show through the methods above)."""
        with self._store.reading(leave_to_watcher=True) as graph:
            return fn(graph)

    def timeline_rows(self, passes: Callable[[Node], bool] | None, text: str = "") -> TimelineRows:
        """The ids that ``text`` finds (all when it is blank; see ``matching_ids``) and that
        ``passes`` (all when None), in timeline order, with their seqs, and whether every node
        id is ASCII (then ties are ordered by the fast ASCII collation, as the graph's own
        timeline order is). The rows are the caller's to change. Unfiltered rows are memoised
        per graph (``warm`` computes them off the GUI thread after a reload: ~25 ms at 50k)."""
        if passes is None and not find_needle(text):
            rows = self.read(lambda graph: graph.derived(_ALL_ROWS, lambda: _rows(graph, None, "")))
            return TimelineRows(list(rows.ids), dict(rows.seqs), rows.ascii_ids)
        return self.read(lambda graph: _rows(graph, passes, text))

    def timeline_choices(self) -> tuple[set[str], set[str], int, int]:
        """Types, levels (see ``level_of``) and the seq range present (memoised per graph;
        ~15 ms at 50k)."""
        types, levels, low, high = self.read(
            lambda graph: graph.derived(_CHOICES, lambda: _choices(graph))
        )
        return set(types), set(levels), low, high

    def relations_in_use(self) -> list[str]:
        """The relations of the active edges, commonest first (memoised until the next change:
        150k edges take 40 ms)."""
        return self.read(_relations)

    def matching_ids(self, text: str) -> set[str]:
        """Ids of the nodes the window's find ``text`` finds: every node when ``text`` is
        blank, else those ``search_text`` returns (``search.find_nodes``: id, title or a
        field's scalar contains it, case-folded; ~1-20 ms at 50k nodes)."""
        if not find_needle(text):
            return self.read(lambda graph: set(graph.nodes))
        return self.read(lambda graph: search.find_ids(graph, text))

    def ranked_matches(self, text: str) -> list[str]:
        """The ids ``matching_ids(text)`` finds (none when ``text`` is blank), in the order Find
        steps through them: title and name/alias matches first, then matches in other fields,
        each in timeline order (``search.find_ranked``)."""
        if not find_needle(text):
            return []
        return self.read(lambda graph: search.find_ranked(graph, text))

    def read_api(self) -> Any:
        """The seed's Read API (searches, briefs, compaction candidates)."""
        return self._store.read_api()


def finds(node: Node, text: str) -> bool:
    """Whether the window's find ``text`` finds ``node`` (True when ``text`` is blank): the
    same answer as ``matching_ids`` for that one node, without a whole-graph pass."""
    needle = find_needle(text)
    return not needle or node_finds(node, needle)


def warm(graph: Graph, *, picture: bool = True) -> None:
    """Memoise on a new ``graph`` the whole-graph reads the panes make first after a reload
    (the timeline's rows and choices, the relations in use: ~60 ms at 50k; the nuggets of a
    Nuggets memory; the Find box's index: ~0.4 s at 50k, ~1.7 s at 200k, which the first find
    built on the GUI thread), and with ``picture`` the graph view's rows (so a snapshot holds
    the store lock only to look them up, and computes none), so the GUI thread and its
    workers find them ready. For ``MemoryStore.on_new_graph``: the loading thread, before the
    graph is published (no lock needed); and for an open, before the window has the store."""
    if picture:
        graph_rows(graph)
    warm_nuggets(graph)
    search.prepare_find(graph)
    graph.derived(_ALL_ROWS, lambda: _rows(graph, None, ""))
    graph.derived(_CHOICES, lambda: _choices(graph))
    _relations(graph)


_ALL_ROWS = "app.timeline_rows"


def all_timeline_rows(graph: Graph) -> TimelineRows:
    """Every node's timeline row, memoised per graph (never changed: copy before changing).
    Caller holds the lock (or owns ``graph``)."""
    rows: TimelineRows = graph.derived(_ALL_ROWS, lambda: _rows(graph, None, ""))
    return rows


_CHOICES = "app.timeline_choices"


def _rows(graph: Graph, passes: Callable[[Node], bool] | None, text: str) -> TimelineRows:
    nodes = graph.nodes
    ids = search.find_in_timeline_order(graph, text) if find_needle(text) else graph.timeline_ids()
    ids = list(ids) if passes is None else [i for i in ids if passes(nodes[i])]
    seqs: dict[str, int] = {}
    for part in slices(ids):  # one C call over 50k held the GIL ~20 ms (a window's worker
        seqs.update(zip(part, map(_SEQ_TO, map(nodes.__getitem__, part)), strict=True))
    ascii_ids = all(all(map(str.isascii, part)) for part in slices(list(nodes)))  # warms this)
    return TimelineRows(ids, seqs, ascii_ids)


_SEQ_TO = attrgetter("seq_to")


def _relations(graph: Graph) -> list[str]:
    return graph.derived("app.relations", lambda: relations_in_use(graph.edges.values()))


def _choices(graph: Graph) -> tuple[set[str], set[str], int, int]:
    nodes = list(graph.nodes.values())
    rollup = list(map(attrgetter("semantic_rollup"), nodes))
    levels = set(map(attrgetter("level"), compress(nodes, map(not_, rollup))))
    levels |= set(
        map(rollup_level, set(map(attrgetter("semantic_depth"), compress(nodes, rollup))))
    )
    seqs = list(map(attrgetter("seq_to"), nodes))
    types = set(map(attrgetter("type"), nodes))
    return types, levels, (min(seqs) if seqs else 0), (max(seqs) if seqs else 0)


def level_of(node: Node) -> str:
    """The level a filter matches: ``L<depth>`` for a rollup, else the node's ``level``."""
    return rollup_level(node.semantic_depth) if node.semantic_rollup else node.level


def rollup_level(depth: int) -> str:
    """The level a rollup of ``depth`` is filtered by."""
    return f"L{depth}"


def relations_in_use(edges: Iterable[Edge]) -> list[str]:
    """The semantic relations the graph already uses, sorted (for the picker's combo)."""
    return sorted({e.type for e in edges if not e.internal})

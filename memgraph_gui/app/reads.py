"""``StoreReads``: the AppModel's read side. Small reads run on the GUI thread.

Single lookups (a node, its edges, the injection state) peek at the in-memory graph without the
store lock or a catch-up: the watcher keeps it current, and a timeline cell must not take a lock
and run a PRAGMA. Whole-graph reads hold the lock (``reading()``), so a writer never mutates what
they iterate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from memgraph_gui.core.domain.injection import InjectionState
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.domain.schema import Schema

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
        """``fn(graph)`` under the store lock, caught up with other processes."""
        with self._store.reading() as graph:
            return fn(graph)

    def matching_ids(self, text: str) -> set[str]:
        """Ids of nodes whose title, id or fields contain ``text`` (substring, case-folded)."""
        return self.read(lambda graph: matching_ids(graph, text))

    def read_api(self) -> Any:
        """The seed's Read API (searches, briefs, compaction candidates)."""
        return self._store.read_api()


def matching_ids(graph: Graph, text: str) -> set[str]:
    """Ids of nodes whose id, title or field text contains ``text`` (case-folded substring, so
    it works for Chinese too). Call under the store lock."""
    needle = text.casefold().strip()
    if not needle:
        return set(graph.nodes)
    return {node.id for node in graph.nodes.values() if node_contains(node, needle)}


def node_contains(node: Node, needle: str) -> bool:
    """Whether the case-folded ``needle`` is in the node's id, title or any field's text."""
    if needle in node.title.casefold() or needle in node.id.casefold():
        return True
    return any(needle in str(value).casefold() for value in node.fields.values())

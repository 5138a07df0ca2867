"""``ReadApi``: the seed's Read API, layers A-D. Every result is frozen; nothing here writes.

Each call syncs with other processes' commits first and runs under the store lock, so it may be
called from any thread. Option names are the seed's, in snake_case.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.domain.errors import bad_args
from memgraph_gui.core.domain.freeze import freeze, thaw
from memgraph_gui.core.domain.injection import InjectionState
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.domain.results import (
    CompactionGroups,
    EdgeList,
    NameMatches,
    Neighbors,
    ProjectedEdges,
    RankedNode,
)
from memgraph_gui.core.graph import drill, projection, recall, search, topology
from memgraph_gui.core.graph.compaction import compaction_candidates
from memgraph_gui.core.graph.neighbors import NotIds, incident_edges_of, neighbors
from memgraph_gui.core.graph.structure_index import edges_of_kinds
from memgraph_gui.core.graph.timeline_order import in_timeline_order
from memgraph_gui.core.graph.type_index import nodes_of_types
from memgraph_gui.core.luker import args
from memgraph_gui.core.luker.read_briefs import BriefReader
from memgraph_gui.core.vectors.api import VectorApi

if TYPE_CHECKING:
    from memgraph_gui.core.domain.changes import ChangeSet
    from memgraph_gui.core.domain.schema import Schema
    from memgraph_gui.core.graph.graph import Graph
    from memgraph_gui.core.storage.store import Store

log = logging.getLogger(__name__)


class SchemaView:
    """``getSchema()``'s result: the types in definition order.

    Holds a deep-frozen copy of the schema, so nothing reached through it can change the store's
    (nor another caller's: one view is shared by the calls until the schema changes).
    """

    __slots__ = ("_schema",)

    def __init__(self, schema: Schema) -> None:
        from memgraph_gui.core.domain.schema import Schema, TypeSpec

        self._schema = Schema(tuple(TypeSpec(freeze(thaw(spec.raw))) for spec in schema.types))

    @property
    def schema(self) -> Schema:
        return self._schema

    @property
    def types(self) -> tuple[Any, ...]:
        return self.schema.types

    def to_json(self) -> dict[str, Any]:
        return self.schema.to_view_json()


class ReadApi(BriefReader):
    """Layers A (data), B (topology), C (recall) and D (injection) over one store."""

    def __init__(self, store: Store) -> None:
        self._store = store

    # -- layer A ---------------------------------------------------------------------------------
    def list_nodes(
        self,
        *,
        types: Any = None,
        levels: Any = None,
        active_only: Any = True,
        seq_range: Any = None,
    ) -> tuple[Node, ...]:
        """Nodes in timeline order; ``active_only`` hides archived and recall-diagnostic nodes."""
        type_set = args.lower_set(types, "types")
        level_set = args.lower_set(levels, "levels")
        active = args.flag(active_only, "activeOnly", True)
        low, high = _range(seq_range, "seqRange")
        with self._store.reading() as graph:
            if type_set is None:  # the whole timeline, its listed nodes kept until a write
                pool = graph.derived(("listed", active), lambda: _listed(graph, None, active))
                if level_set is None and low is None and high is None:
                    return pool
            else:  # the nodes of those types only, put in timeline order
                pool = _listed(graph, type_set, active)
            return tuple(
                node
                for node in pool
                if (level_set is None or topology.view_level(node) in level_set)
                and (low is None or node.seq_to >= low)
                and (high is None or node.seq_to <= high)
            )

    def get_node(self, node_id: Any) -> Node | None:
        """The node (archived ones too), or None for an unknown / blank id."""
        key = args.node_id(node_id)
        with self._store.reading() as graph:
            return graph.nodes.get(key) if key else None

    def list_edges(
        self,
        *,
        from_id: Any = None,
        to_id: Any = None,
        types: Any = None,
        exclude_internal: Any = False,
    ) -> EdgeList:
        """Raw edges in store order; ``exclude_internal`` drops contains / semantic_contains.
        The answer is an ``EdgeList`` view (a sequence of ``Edge``)."""
        source = None if from_id is None else args.node_id(from_id, "from")
        target = None if to_id is None else args.node_id(to_id, "to")
        type_set = args.lower_set(types, "types")
        internal = args.flag(exclude_internal, "excludeInternal", False)
        with self._store.reading() as graph:
            if source or target:  # one node's edges, picked from its columns
                end, other = (source, target) if source else (target, source)
                assert end is not None
                mine = incident_edges_of(graph, end, outgoing=bool(source), relations=type_set)
                if other is None and not internal:
                    return mine
                far = 1 if source else 0  # where the other end is in an Edge (to, from)
                return EdgeList(
                    tuple(
                        e
                        for e in mine
                        if (other is None or e[far] == other) and not (internal and e.internal)
                    )
                )
            if source is None and target is None:  # every edge, or those of some types
                edges = topology.edges_in_order(graph)
                if type_set is None and not internal:
                    return EdgeList(edges)
                return EdgeList(edges, edges_of_kinds(graph, type_set, internal))
            return EdgeList(())  # from or to '' (a blank id): no edge has a blank end

    def get_schema(self) -> SchemaView:
        """The store's node-type schema as ``SchemaView``."""
        with self._store.reading() as graph:  # (one frozen view per schema, shared)
            return graph.per_schema("schema_view", lambda: SchemaView(graph.schema))

    # -- layer B ---------------------------------------------------------------------------------
    def get_neighbors(
        self,
        node_id: Any,
        *,
        edge_types: Any = None,
        direction: Any = "both",
        project_to: Any = "raw",
    ) -> Neighbors:
        """Neighbours over raw edges; ``project_to`` rolls each one up to a visible ancestor.
        The answer is a ``Neighbors`` view (a sequence of ``NeighborView``)."""
        source = args.node_id(node_id)
        type_set = args.lower_set(edge_types, "edgeTypes")
        if direction is not None and not isinstance(direction, str):
            raise bad_args("direction: expected 'in', 'out' or 'both'")
        way = direction if direction in ("in", "out") else "both"
        with self._store.reading() as graph:
            visible = self._projection_set(graph, project_to)
            if not source:
                if isinstance(project_to, (list, tuple)):
                    args.stripped_ids(project_to, "projectTo")  # refused all the same
                return Neighbors()
            try:
                return neighbors(graph, source, type_set, way, visible)
            except NotIds:  # not all strings: checked, and made ids, as Luker's toIdSet does
                ids = args.stripped_ids(project_to, "projectTo")
                return neighbors(graph, source, type_set, way, ids)

    def get_ancestor(
        self,
        node_id: Any,
        *,
        active_only: Any = True,
        predicate: Callable[[Node], Any] | None = None,
    ) -> Node | None:
        """The first ancestor matching ``predicate`` (default: the parent); never the node itself."""
        key = args.node_id(node_id)
        active = args.flag(active_only, "activeOnly", True)
        if predicate is not None and not callable(predicate):
            raise bad_args("predicate: expected a function of a NodeView")
        with self._store.reading() as graph:
            for ancestor in topology.ancestors(graph, key):
                if active and ancestor.archived:
                    return None
                if predicate is None or predicate(ancestor):
                    return ancestor
            return None

    def get_descendants(
        self, node_id: Any, *, active_only: Any = True, max_depth: Any = None
    ) -> tuple[Node, ...]:
        """BFS descendants (level 1 first), root excluded; archived ones hidden when active_only."""
        key = args.node_id(node_id)
        active = args.flag(active_only, "activeOnly", True)
        depth = args.number(max_depth, "maxDepth")
        limit = math.inf if max_depth is None or depth is None else max(0, math.floor(depth))
        with self._store.reading() as graph:
            root = graph.nodes.get(key)
            if root is None:
                return ()
            return tuple(topology.descendants(graph, root, active_only=active, max_depth=limit))

    def get_nearest_visible_ancestor(
        self, node_id: Any, *, visible_node_ids: Any = None
    ) -> Node | None:
        """The node or its nearest ancestor in ``visible_node_ids`` (missing: the empty set, as
        Luker reads it); None past an archived node. The ids are checked but not made into a
        set (``args.IdArray``); the walk up (a handful of ids, under the store lock) comes
        next, then those few are looked for in the ids, after the lock."""
        visible = args.IdArray(visible_node_ids, "visibleNodeIds")
        key = args.node_id(node_id)
        with self._store.reading() as graph:
            path = topology.live_path(graph, key)
            nodes = [graph.nodes[i] for i in path]
        found = visible.among(path)
        return next((node for i, node in zip(path, nodes, strict=True) if i in found), None)

    def project_edges(
        self, *, visible_node_ids: Any = None, edge_types: Any = None, exclude_internal: Any = True
    ) -> ProjectedEdges:
        """Raw edges rolled up onto ``visible_node_ids`` (missing: the empty set), merged with a
        ``weight``, in the order of each merged edge's first raw edge."""
        visible = args.stripped_ids(visible_node_ids, "visibleNodeIds")
        relations = args.relation_set(edge_types, "edgeTypes")
        internal = args.flag(exclude_internal, "excludeInternal", True)
        if not visible:
            return ProjectedEdges()
        with self._store.reading() as graph:
            return projection.project_all(graph, visible, relations, internal)

    # -- layer C ---------------------------------------------------------------------------------
    def list_visible_candidates(
        self, *, seq_window: Any = None, types: Any = None, exclude_recent_messages: Any = 0
    ) -> tuple[Node, ...]:
        """The recall pool in recency order, narrowed by ``types`` / ``seq_window`` / recent turns."""
        type_set = args.lower_set(types, "types")
        low, high = _range(seq_window, "seqWindow")
        exclude = args.whole(exclude_recent_messages, "excludeRecentMessages", 0, minimum=0)
        with self._store.reading() as graph:
            latest = recall.covered_seq(graph)
            return tuple(
                n
                for n in recall.candidate_pool(graph)
                if not recall.in_recent_window(n, latest, exclude)
                and (type_set is None or n.type.lower() in type_set)
                and (low is None or n.seq_to >= low)
                and (high is None or n.seq_to <= high)
            )

    def get_node_exposure(self, node_id: Any) -> str | None:
        """``high_only`` / ``full``; None for a missing or archived node."""
        key = args.node_id(node_id)
        with self._store.reading() as graph:
            node = graph.nodes.get(key)
            return None if node is None or node.archived else recall.exposure(graph, node)

    def expand_from_seeds(
        self,
        seed_ids: Any,
        *,
        hops: Any = 1,
        edge_types: Any = None,
        project_to: Any = "visible",
        include_children: Any = True,
        exclude_internal: Any = False,
    ) -> tuple[Node, ...]:
        """Luker's drill: the live pool in its order, then each seed and what its hops reach.

        ``project_to``: ``'visible'`` (default) pools the recorded ``visibleIds`` in recorded
        order, an id array pools those ids; hops then reach only pooled nodes and children.
        ``'raw'`` pools nothing and hops follow the store's edges (the seed's full-store drill).
        ``exclude_internal`` also leaves the seeds' children out. No seeds: ``()``.
        """
        seeds = args.id_list(seed_ids, "seedIds")
        depth = args.whole(hops, "hops", 1, minimum=1)
        relations = args.relation_set(edge_types, "edgeTypes") or drill.DEFAULT_EXPAND_RELATIONS
        internal = args.flag(exclude_internal, "excludeInternal", False)
        children = args.flag(include_children, "includeChildren", True)
        target = _drill_target("visible" if project_to is None else project_to)
        if not seeds:
            return ()
        with self._store.reading() as graph:
            return tuple(
                drill.expand(
                    graph,
                    seeds,
                    pool=drill.pool_of(graph, target),
                    hops=depth,
                    relations=relations,
                    include_children=children,
                    exclude_internal=internal,
                )
            )

    def keyword_search(
        self, *, query: Any = None, types: Any = None, k: Any = 20
    ) -> tuple[RankedNode, ...]:
        """Token-overlap search over active nodes; ``score`` = matched / query tokens, desc."""
        text = args.text(query, "query")
        type_set = args.lower_set(types, "types")
        limit = args.whole(k, "k", 20, minimum=1)
        if not text.strip():
            return ()
        with self._store.reading() as graph:
            hits = search.keyword_search(graph, text, type_set, limit)
            return tuple(RankedNode(node, score, "keyword") for node, score in hits)

    def vector_search(
        self, *, query: Any = None, types: Any = None, k: Any = 20
    ) -> tuple[RankedNode, ...]:
        """Embedding search over active nodes with the store's embedding profile: ``score`` is
        the cosine similarity, desc, capped at ``k``. ``NO_EMBEDDING_PROFILE`` when no profile
        is set (never a silent fallback); a blank query gives ``()``. See ``vectors.api``."""
        text = args.text(query, "query")
        type_set = args.lower_set(types, "types")
        limit = args.whole(k, "k", 20, minimum=1)
        vectors = VectorApi(self._store)
        vectors.profile()  # a damaged setting is refused even for a blank query
        if not text.strip():
            return ()
        hits = vectors.search(text, type_set, limit)
        return tuple(RankedNode(node, score, "vector") for node, score in hits)

    def find_by_name(self, *, query: Any = None, types: Any = None) -> NameMatches:
        """Case-insensitive substring match on title and primary-key columns, timeline order."""
        text = args.text(query, "query")
        type_set = args.lower_set(types, "types")
        with self._store.reading() as graph:
            return NameMatches(search.find_by_name(graph, text, type_set))

    def compaction_candidates(self, *, type: Any = None, depth: Any = 0) -> CompactionGroups:
        """Groups eligible for a rollup of ``type`` at ``depth`` (a pure structural query)."""
        kind = args.text(type, "type")
        level = args.whole(depth, "depth", 0, minimum=0)
        with self._store.reading() as graph:
            return compaction_candidates(graph, kind, level)

    def search_text(self, query: Any) -> tuple[str, ...]:
        """The window's find: ids (timeline order, archived nodes too) whose id, title or a
        field's scalar contains ``query``, case-folded, in any script (``search.find_nodes``:
        the same matches as the Find box and the timeline filter). An empty query finds nothing."""
        text = args.text(query, "query")
        with self._store.reading() as graph:
            return tuple(search.find_in_timeline_order(graph, text))

    # -- layer D ---------------------------------------------------------------------------------
    def get_injection_state(self) -> InjectionState:
        """The frozen injection state (always-inject, recall-selected, visible)."""
        with self._store.reading() as graph:
            return graph.injection

    def on_injection_changed(self, callback: Callable[[InjectionState], Any]) -> Callable[[], None]:
        """Call ``callback(state)`` on every injection change; returns an idempotent unsubscribe.

        A failing listener is logged and does not affect other listeners.
        """
        if not callable(callback):
            return lambda: None

        def listener(changes: ChangeSet) -> None:
            if changes.injection_changed or changes.reloaded:
                try:
                    callback(self._store.graph.injection)
                except Exception:
                    log.warning("onInjectionChanged listener failed", exc_info=True)

        return self._store.subscribe(listener)


def _listed(graph: Graph, types: frozenset[str] | None, active: bool) -> tuple[Node, ...]:
    """The nodes of ``types`` (None: all) in timeline order; ``active``: without archived and
    recall-diagnostic ones."""
    if types is None:
        pool: Iterable[Node] = map(graph.nodes.__getitem__, graph.timeline_ids())
    else:
        pool = in_timeline_order(graph, nodes_of_types(graph, types))
    if not active:
        return tuple(pool)
    return tuple(n for n in pool if not (n.archived or topology.is_recall_diagnostic(n)))


def _range(value: Any, name: str) -> tuple[float | None, float | None]:
    window = args.options(value, name)
    return (
        args.number(window.get("from"), f"{name}.from"),
        args.number(window.get("to"), f"{name}.to"),
    )


def _drill_target(project_to: Any) -> str | tuple[str, ...]:
    """``'raw'``, ``'visible'`` or an explicit ``projectTo`` id array, in order."""
    if isinstance(project_to, (list, tuple, set, frozenset)):
        return args.id_list(project_to, "projectTo")
    if project_to in ("raw", "visible"):
        return str(project_to)
    raise bad_args("projectTo: expected 'raw', 'visible' or an array of ids")

"""The recall-row half of ``ReadApi``: ``getEdgeSummary`` and ``getNodeBrief``."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.domain.results import EdgeSummary, NodeBrief
from memgraph_gui.core.graph import recall
from memgraph_gui.core.graph.brief import key_columns, node_summary, project_columns
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.luker import args

if TYPE_CHECKING:
    from memgraph_gui.core.storage.store import Store


class BriefReader:
    """Mixin for ``ReadApi``: edge summaries and briefs against a visible set."""

    _store: Store

    def get_edge_summary(
        self, node_id: Any, *, visible_node_ids: Any = None, edge_types: Any = None, limit: Any = 8
    ) -> EdgeSummary:
        """Degree, relation counts and sample neighbours; a zero summary for unknown nodes.

        ``visible_node_ids`` defaults to the recorded visible set, else the candidate pool.
        """
        key = args.node_id(node_id)
        relations = args.lower_set(edge_types, "edgeTypes")
        cap = args.whole(limit, "limit", 8, minimum=1)
        explicit = (
            None if visible_node_ids is None else args.id_set(visible_node_ids, "visibleNodeIds")
        )
        with self._store.reading() as graph:
            visible = explicit if explicit is not None else recall.default_visible(graph)
            return recall.edge_summary(graph, key, visible, relations, cap)

    def get_node_brief(
        self,
        node_id: Any,
        *,
        visible_node_ids: Any = None,
        include_edge_summary: Any = True,
        edge_summary_limit: Any = 8,
    ) -> NodeBrief | None:
        """The recall LLM's row for one node; None for a missing or archived node."""
        key = args.node_id(node_id)
        with_edges = args.flag(include_edge_summary, "includeEdgeSummary", True)
        cap = args.whole(edge_summary_limit, "edgeSummaryLimit", 8, minimum=1)
        explicit = (
            None if visible_node_ids is None else args.id_set(visible_node_ids, "visibleNodeIds")
        )
        with self._store.reading() as graph:
            node = graph.nodes.get(key)
            if node is None or node.archived:
                return None
            summary = None
            if with_edges:
                visible = explicit if explicit is not None else recall.default_visible(graph)
                summary = recall.edge_summary(graph, key, visible, None, cap)
            return _brief(graph, node, summary)

    def _projection_set(self, graph: Graph, project_to: Any) -> Collection[str] | None:
        """None for ``raw``; the recorded visible ids for ``visible``; an explicit id list as
        given (for membership only: it may hold repeats, blanks and ids with spaces around them,
        which ``neighbors`` trims, and anything else, for which it raises ``NotIds``: then
        ``args.stripped_ids`` checks it); a set made ids here."""
        if isinstance(project_to, (list, tuple)):
            return project_to
        if isinstance(project_to, (list, tuple, set, frozenset)):
            return args.stripped_ids(project_to, "projectTo")
        if project_to == "visible":
            return graph.injection.visible_ids
        if project_to in (None, "raw"):
            return None
        raise args.bad_args("projectTo: expected 'raw', 'visible' or an array of ids")


def _brief(graph: Graph, node: Node, summary: EdgeSummary | None) -> NodeBrief:
    spec = graph.schema.get(node.type.lower())
    return NodeBrief(
        id=node.id,
        level="semantic" if node.level == "semantic" else "episodic",
        type=node.type,
        table_name=((spec.table_name if spec else "") or node.type).strip(),
        title=node.title,
        summary=node_summary(node),
        key_values=project_columns(node, key_columns(spec)),
        row_values=project_columns(node, list(spec.columns) if spec else []),
        to_seq=node.seq_to,
        child_count=sum(
            1 for c in node.children_ids if c in graph.nodes and not graph.nodes[c].archived
        ),
        exposure=recall.exposure(graph, node),
        edge_summary=summary,
        always_inject=node.id in graph.injection.always_inject_ids,
    )

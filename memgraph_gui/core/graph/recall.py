"""Recall primitives: the candidate pool in recency order, exposure, the recent window and the
always-inject set (Luker's ``collectRootCandidates``). Edge summaries live in ``edge_summary``,
``expandFromSeeds``' drill in ``drill``.
"""

from __future__ import annotations

from memgraph_gui.core.domain.collation import key_function
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.edge_summary import edge_summary
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.pool_index import PoolIndex

__all__ = ["edge_summary"]


def recency_sorted(nodes: list[Node]) -> list[Node]:
    """``compareNodesByRecency``: seqTo desc, semanticDepth desc, id by localeCompare."""
    key = key_function([n.id for n in nodes])
    ordered = sorted(nodes, key=lambda n: key(n.id))
    ordered.sort(key=lambda n: (n.seq_to, n.semantic_depth), reverse=True)
    return ordered


def candidate_pool(graph: Graph) -> list[Node]:
    """The route LLM's candidate pool in recency order (cached until the next change).

    Active semantic non-diagnostic nodes; for a type with hierarchical compression only the
    top-most active same-type ancestor of each leaf (so a rollup stands for its children).
    """

    def build() -> list[Node]:
        ids = graph.index("candidates", lambda: PoolIndex(graph)).ids()
        return recency_sorted([graph.nodes[i] for i in ids])

    return graph.derived("candidate_pool", build)


def default_visible(graph: Graph) -> frozenset[str]:
    """The recorded ``visibleIds`` (the seed's default: empty until recall has run once)."""
    return graph.injection.visible_ids


def covered_seq(graph: Graph) -> int:
    """Luker's ``getStoreCoveredSeqTo``: highest seq the store covers (never below 0)."""

    def compute() -> int:
        best = max(0, graph.counter("appliedSeqTo"), graph.counter("loggedSeqTo"))
        for node in graph.nodes.values():
            if node.level == "semantic" and not node.archived:
                best = max(best, node.seq_to)
        return best

    return graph.derived("covered_seq", compute)


def in_recent_window(node: Node, latest: int, exclude: int) -> bool:
    """True when ``node`` lies in the last ``exclude`` seqs (``isNodeInRecentExcludeWindow``)."""
    return exclude > 0 and latest >= 0 and node.seq_to >= latest - exclude + 1


def exposure(graph: Graph, node: Node) -> str:
    """``high_only`` for non-semantic nodes and hierarchical types, else ``full``."""
    if node.level != "semantic":
        return "high_only"
    spec = graph.schema.get(node.type.lower())
    return "high_only" if spec is not None and spec.hierarchical else "full"


def always_inject_nodes(graph: Graph) -> list[Node]:
    """Luker's ``collectAlwaysInjectNodes``: active nodes of always-inject types (hierarchical
    types contribute their top rollups), in timeline order."""
    kinds = {s.id.lower(): s for s in graph.schema.types if s.always_inject}
    chosen: dict[str, Node] = {}
    for node in candidate_pool(graph):
        if node.type.lower() in kinds:
            chosen[node.id] = node
    timeline = {node_id: i for i, node_id in enumerate(graph.timeline_ids())}
    return sorted(chosen.values(), key=lambda n: timeline[n.id])

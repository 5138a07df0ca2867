"""Luker's ``buildProjectedEdges`` over the whole store, as array operations.

``topology.project`` walks up from both ends of every edge in Python: about a second for 150k edges
and a 20k visible set. Here the graph is kept as arrays (parent, archived, edge ends, relation
codes; built once per graph version) and one projection is a few numpy passes: every node lifted
to its nearest visible ancestor at once (one pass per hierarchy level), then the edges filtered,
keyed and merged with ``np.unique``. The answer is the same, in the same order (a test checks it
against ``topology.project``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from memgraph_gui.core.domain.model import HIERARCHY_EDGE_TYPES
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.topology import (
    SYMMETRIC_RELATIONS,
    edges_in_order,
    js_string_gt,
    normalize_text,
)

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class GraphArrays:
    """The graph's structure as arrays, node ``i`` being ``ids[i]``.

    ``parent[i]`` is the parent's index (-1: none or missing); edges are in store order, an end
    that names no node is index ``len(ids)`` (never visible); ``rel`` codes index ``relations``.
    """

    ids: list[str]
    index: dict[str, int]
    parent: Ints
    archived: Flags
    src: Ints
    dst: Ints
    rel: Ints
    relations: list[str]


@dataclass(frozen=True, slots=True)
class Projection:
    """Projected edges in Luker's order (first raw edge of each merged edge), as columns."""

    from_ids: list[str]
    to_ids: list[str]
    types: list[str]
    weights: list[int]


def graph_arrays(graph: Graph) -> GraphArrays:
    """The arrays for ``graph`` (cached until the next change)."""
    return graph.derived("graph_arrays", lambda: _build(graph))


def _build(graph: Graph) -> GraphArrays:
    ids = list(graph.nodes)
    index = {node_id: i for i, node_id in enumerate(ids)}
    nodes = list(graph.nodes.values())
    missing = len(ids)
    parent = [index.get(n.parent_id.strip(), -1) if n.parent_id else -1 for n in nodes]
    edges = edges_in_order(graph)
    codes: dict[str, int] = {}
    relations: list[str] = []
    for kind in {e.type for e in edges}:
        relation = normalize_text(kind).lower() or "related"
        if relation not in relations:
            relations.append(relation)
        codes[kind] = relations.index(relation)
    return GraphArrays(
        ids=ids,
        index=index,
        parent=np.array(parent, dtype=np.int64),
        archived=np.array([n.archived for n in nodes], dtype=np.bool_),
        src=np.array([index.get(e.from_id, missing) for e in edges], dtype=np.int64),
        dst=np.array([index.get(e.to_id, missing) for e in edges], dtype=np.int64),
        rel=np.array([codes[e.type] for e in edges], dtype=np.int64),
        relations=relations,
    )


def visible_mask(arrays: GraphArrays, visible: frozenset[str]) -> Flags:
    """``visible`` as a mask over node indexes (ids that name no node are ignored)."""
    mask = np.zeros(len(arrays.ids) + 1, dtype=np.bool_)
    index = arrays.index
    hits = [index[i] for i in visible if i in index]
    mask[hits] = True
    return mask


def lift(arrays: GraphArrays, visible: Flags) -> Ints:
    """Each node's nearest visible ancestor (itself included), -1 for none (Luker's
    ``getNearestVisibleAncestorId``): an archived node on the way blocks, a parent cycle ends the
    walk. Index ``len(ids)`` (a missing node) lifts to -1."""
    count = len(arrays.ids)
    out = np.full(count + 1, -1, dtype=np.int64)
    walking = np.arange(count, dtype=np.int64)  # nodes still walking up
    at = walking.copy()  # where each walking node has got to
    for _ in range(count + 1):  # a walk without a cycle visits at most every node once
        alive = ~arrays.archived[at]
        hit = alive & visible[at]
        out[walking[hit]] = at[hit]
        up = arrays.parent[at[alive & ~hit]]
        walking = walking[alive & ~hit][up >= 0]
        at = up[up >= 0]
        if not len(walking):
            break
    return out


def project_all(
    graph: Graph,
    visible: frozenset[str],
    relation_types: frozenset[str] | None,
    exclude_internal: bool,
) -> Projection:
    """``buildProjectedEdges`` over every edge in store order (``topology.project``'s answer)."""
    arrays = graph_arrays(graph)
    lifted = lift(arrays, visible_mask(arrays, visible))
    a, b = lifted[arrays.src], lifted[arrays.dst]
    keep = (
        (a >= 0) & (b >= 0) & (a != b) & _relation_filter(arrays, relation_types, exclude_internal)
    )
    a, b, rel = a[keep], b[keep], arrays.rel[keep]
    _order_symmetric(arrays, a, b, rel)
    size = len(arrays.ids) + 1
    keys = (a * size + b) * max(1, len(arrays.relations)) + rel
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    first, counts = first[order], counts[order]
    ids, relations = arrays.ids, arrays.relations
    return Projection(
        from_ids=list(map(ids.__getitem__, a[first].tolist())),
        to_ids=list(map(ids.__getitem__, b[first].tolist())),
        types=list(map(relations.__getitem__, rel[first].tolist())),
        weights=counts.tolist(),
    )


def _relation_filter(
    arrays: GraphArrays, relation_types: frozenset[str] | None, exclude_internal: bool
) -> Flags:
    allowed = np.array(
        [
            (relation_types is None or r in relation_types)
            and not (exclude_internal and r in HIERARCHY_EDGE_TYPES)
            for r in arrays.relations
        ],
        dtype=np.bool_,
    )
    return allowed[arrays.rel] if len(allowed) else np.zeros(len(arrays.rel), dtype=np.bool_)


def _order_symmetric(arrays: GraphArrays, a: Ints, b: Ints, rel: Ints) -> None:
    """Put the smaller id first (JavaScript string order) on symmetric relations, in place."""
    codes = [i for i, r in enumerate(arrays.relations) if r in SYMMETRIC_RELATIONS]
    if not codes:
        return
    at = np.flatnonzero(np.isin(rel, codes))
    ids = arrays.ids
    firsts = map(ids.__getitem__, a[at].tolist())
    seconds = map(ids.__getitem__, b[at].tolist())
    swap = at[np.fromiter(map(js_string_gt, firsts, seconds), dtype=np.bool_, count=len(at))]
    a[swap], b[swap] = b[swap], a[swap]

"""What the graph view draws, as plain arrays, and its two writes (pins, saved positions).

``graph_snapshot`` reads the active (non-archived) nodes in timeline order, the edges among
them and the saved positions and pins, under the store lock, into a ``GraphSnapshot`` the view
can turn into numpy arrays without touching the store again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from memgraph_gui.core.domain.model import HIERARCHY_EDGE_TYPES

if TYPE_CHECKING:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core.domain.errors import MemgraphError
    from memgraph_gui.core.graph.graph import Graph


@dataclass(frozen=True, slots=True)
class GraphSnapshot:
    """Active nodes (index = row) and the edges among them.

    ``edges`` is ``(m, 2)`` int32 of row indices (``from``, ``to``); ``hierarchy`` marks the
    contains / semantic_contains edges; ``pos`` is ``(n, 2)`` float64 with NaN rows where no
    position is saved; ``pinned`` marks rows the user pinned.
    """

    ids: tuple[str, ...]
    types: tuple[str, ...]
    depths: np.ndarray
    rollups: np.ndarray
    edges: np.ndarray
    hierarchy: np.ndarray
    pos: np.ndarray
    pinned: np.ndarray

    @property
    def missing_positions(self) -> int:
        """How many nodes have no saved position."""
        return int(np.isnan(self.pos[:, 0]).sum()) if len(self.ids) else 0


def graph_snapshot(app: AppModel) -> GraphSnapshot:
    """The graph view's input; GUI thread, one pass under the store lock (~0.2 s at 50k)."""
    store = app.store
    with store.reading() as graph:
        base = _read_graph(graph)
        saved = store.positions()
        pins = store.pins()
    return _with_positions(base, saved, pins)


def _read_graph(graph: Graph) -> dict[str, Any]:
    nodes = graph.nodes
    ids = tuple(i for i in graph.timeline_ids() if not nodes[i].archived)
    index = {node_id: row for row, node_id in enumerate(ids)}
    get, internal = index.get, HIERARCHY_EDGE_TYPES
    keys = graph.edges.keys()
    src = np.fromiter((get(a, -1) for a, _, _ in keys), np.int32, len(keys))
    dst = np.fromiter((get(b, -1) for _, _, b in keys), np.int32, len(keys))
    kinds = np.fromiter((k.lower() in internal for _, k, _ in keys), bool, len(keys))
    both = (src >= 0) & (dst >= 0)
    return {
        "ids": ids,
        "types": tuple(nodes[i].type for i in ids),
        "depths": np.fromiter((nodes[i].semantic_depth for i in ids), np.int32, len(ids)),
        "rollups": np.fromiter((nodes[i].semantic_rollup for i in ids), bool, len(ids)),
        "edges": np.stack([src[both], dst[both]], axis=1).reshape(-1, 2),
        "hierarchy": kinds[both],
    }


def _with_positions(
    base: dict[str, Any],
    saved: Mapping[str, Sequence[float]],
    pins: Mapping[str, Sequence[float]],
) -> GraphSnapshot:
    ids: tuple[str, ...] = base["ids"]
    pos = np.full((len(ids), 2), np.nan)
    pinned = np.zeros(len(ids), dtype=bool)
    for row, node_id in enumerate(ids):
        xy = pins.get(node_id)
        if xy is not None:
            pinned[row] = True
        else:
            xy = saved.get(node_id)
        if xy is not None:
            pos[row] = xy
    return GraphSnapshot(pos=pos, pinned=pinned, **base)


def pin_nodes(
    app: AppModel,
    pins: Mapping[str, Sequence[float] | None],
    *,
    initiator: object | None = None,
    on_error: Callable[[MemgraphError], None] | None = None,
) -> None:
    """Pin nodes at ``[x, y]`` (or unpin with None): one undo step ("Pin 'Title'")."""
    payload = {k: (None if v is None else [float(v[0]), float(v[1])]) for k, v in pins.items()}
    app.run_op(lambda w: w.set_pins(payload), initiator=initiator, on_error=on_error)


def save_positions(
    app: AppModel,
    ids: Sequence[str],
    pos: np.ndarray,
    *,
    initiator: object | None = None,
    on_done: Callable[[Any], None] | None = None,
) -> None:
    """Save a finished layout on the single writer. Not an undo step (the mirror stays put)."""
    store = app.store
    ids, pos = tuple(ids), np.array(pos, dtype=np.float64)
    app.run_op(lambda _w: store.save_positions(ids, pos), initiator=initiator, on_done=on_done)


def stored_positions(
    app: AppModel,
) -> tuple[Mapping[str, Sequence[float]], Mapping[str, Sequence[float]]]:
    """The saved layout positions and the pins, as ``{id: (x, y)}`` (under the store lock)."""
    store = app.store
    with store.reading():
        return store.positions(), store.pins()

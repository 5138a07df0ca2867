"""What the graph view draws, as plain arrays, and its writes (pins, saved positions, a node
created where the user clicked).

``graph_snapshot`` reads the active (non-archived) nodes in timeline order, the edges among
them and the saved positions and pins, under the store lock, into a ``GraphSnapshot`` the view
can turn into numpy arrays without touching the store again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from memgraph_gui.app.op_runners import OpRunner
from memgraph_gui.core.domain.model import HIERARCHY_EDGE_TYPES
from memgraph_gui.core.domain.pieces import (
    array_of,
    column,
    index_of,
    joined,
    mapped,
    rows_of,
    slices,
)

if TYPE_CHECKING:
    from memgraph_gui.core.domain.errors import MemgraphError
    from memgraph_gui.core.domain.model import EdgeKey, Node
    from memgraph_gui.core.graph.graph import Graph
    from memgraph_gui.core.memory import MemoryStore
    from memgraph_gui.core.storage.preview import StorePreview


class GraphHost(OpRunner, Protocol):
    """The AppModel as the functions below use it (``AppModel`` satisfies it; it is typed so
    because ``app_model`` imports this module through ``reads``: the app folder reads
    top-down)."""

    @property
    def store(self) -> MemoryStore: ...


@dataclass(frozen=True, slots=True)
class GraphSnapshot:
    """Active nodes (index = row) and the edges among them.

    ``edges`` is ``(m, 2)`` int32 of row indices (``from``, ``to``); ``hierarchy`` marks the
    contains / semantic_contains edges; ``pos`` is ``(n, 2)`` float64 with NaN rows where no
    position is saved; ``pinned`` marks rows the user pinned; ``parents`` is each row's
    parent row (int32, -1 when it has none among the drawn rows: none, archived or missing).
    """

    ids: tuple[str, ...]
    types: tuple[str, ...]
    depths: np.ndarray
    rollups: np.ndarray
    parents: np.ndarray
    edges: np.ndarray
    hierarchy: np.ndarray
    pos: np.ndarray
    pinned: np.ndarray
    titles: tuple[str, ...] = ()  # only in an open-time preview (store not in yet)

    @property
    def missing_positions(self) -> int:
        """How many nodes have no saved position."""
        return int(np.isnan(self.pos[:, 0]).sum()) if len(self.ids) else 0


def graph_snapshot(app: GraphHost) -> GraphSnapshot:
    """The graph view's input; GUI thread, one pass under the store lock (~0.2 s at 50k)."""
    return store_snapshot(app.store)


def store_snapshot(store: MemoryStore) -> GraphSnapshot:
    """``graph_snapshot`` of ``store``; any thread (what ``SnapshotLoader`` runs). The store
    lock is held only to look up the graph's rows (``graph_rows``, made before a new graph is
    published) or else to copy its node and edge lists (~20 ms at 50k; nodes are immutable):
    the GUI thread's own reads wait for it, so the arrays are made after."""
    saved = store.positions()  # SQL and a dict of 50k: not under the lock (the GUI's reads
    pins = store.pins()  # waited ~20 ms for it)
    with store.reading() as graph:
        rows = graph.memoised(_GRAPH_ROWS)
        if rows is None:
            timeline, live, edge_keys = snapshot_lists(graph)
    if rows is None:
        rows = _read_graph(timeline, live, edge_keys)
    return _with_positions(rows, saved, pins)


def graph_rows(graph: Graph) -> dict[str, Any]:
    """The graph view's rows and edge arrays of ``graph`` (no positions), memoised until it
    changes: ``reads.warm`` makes them on a new graph before it is published, on the thread
    that loaded it (an import's writer), so the window's read of a new 50k graph after the
    commit does not spend ~0.2 s of Python beside the GUI thread's first frames. The arrays
    are shared by every snapshot: read-only. Caller holds the lock (or the graph is not
    published yet)."""

    def rows() -> dict[str, Any]:
        made = _read_graph(*snapshot_lists(graph))
        for value in made.values():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
        return made

    return graph.derived(_GRAPH_ROWS, rows)


_GRAPH_ROWS = "app.graph_rows"


def snapshot_lists(graph: Graph) -> tuple[list[str], list[Node], list[EdgeKey]]:
    """The timeline, its nodes and every edge key of ``graph``, memoised until it changes:
    ``reads.warm`` makes them on a new graph before it is published, so a snapshot after an
    import holds the store lock only to look them up. Caller holds the lock (or the graph is
    not published yet). The lists are never changed (nodes are immutable)."""

    def lists() -> tuple[list[str], list[Node], list[EdgeKey]]:
        timeline = graph.timeline_ids()
        live: list[Node] = []
        for part in slices(timeline):  # a slice at a time: whole, ~10 ms with the GIL held
            live.extend(map(graph.nodes.__getitem__, part))
        return timeline, live, list(graph.edges)

    return graph.derived(_SNAPSHOT_LISTS, lists)


_SNAPSHOT_LISTS = "app.snapshot_lists"


def _read_graph(
    timeline: Sequence[str], live: Sequence[Node], edge_keys: Sequence[EdgeKey]
) -> dict[str, Any]:
    """Rows and edge index arrays of the nodes ``live`` (ids ``timeline``) and the edges
    ``edge_keys``; every per-item step is a C-level ``map`` (~0.1 s at 50k nodes / 150k
    edges, against ~0.4 s for generator expressions)."""
    keep = [not n.archived for n in live]
    ids = tuple(compress(timeline, keep))
    rows = list(compress(live, keep))
    sources, kinds, targets = (column(edge_keys, at) for at in range(3))
    hierarchy = _hierarchy(kinds)
    index = index_of(ids)
    edges, hierarchy = _drawn_edges(index, sources, targets, hierarchy)
    return {  # each whole-graph step a slice at a time (pieces): a worker's C call over 50k
        "ids": ids,  # held the GIL ~5-10 ms, and a window's repaint waited for several
        "types": tuple(mapped(attrgetter("type"), rows)),
        "depths": array_of(attrgetter("semantic_depth"), rows, np.int32),
        "rollups": array_of(attrgetter("semantic_rollup"), rows, bool),
        "parents": _parent_rows(index, mapped(attrgetter("parent_id"), rows)),
        "edges": edges,
        "hierarchy": hierarchy,
    }


def _parent_rows(index: Mapping[str, int], parents: Sequence[str]) -> np.ndarray:
    """Each row's parent row (-1: none drawn); ids as stored (Luker trims them when walking)."""
    return rows_of(index, [p.strip() for p in parents])


def _drawn_edges(
    index: Mapping[str, int], sources: Sequence[str], targets: Sequence[str], hierarchy: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(m, 2)`` int32 rows of the edges whose two ends are drawn (``index``: the drawn
    rows; edges touching archived nodes are not), and their hierarchy mask."""
    src, dst = rows_of(index, sources), rows_of(index, targets)
    both = (src >= 0) & (dst >= 0)
    return np.stack([src[both], dst[both]], axis=1).reshape(-1, 2), hierarchy[both]


def snapshot_from_preview(preview: StorePreview) -> GraphSnapshot:
    """The graph view's input from a store's open-time preview (any thread), so a big memory
    is drawn from its saved layout while the store finishes opening."""
    ids = preview.ids
    n = len(ids)
    hierarchy = _hierarchy(preview.kinds)
    index = index_of(ids)
    edges, hierarchy = _drawn_edges(index, preview.sources, preview.targets, hierarchy)
    base = {
        "ids": ids,
        "types": preview.types,
        "depths": np.fromiter(preview.depths, np.int32, n),
        "rollups": np.fromiter(preview.rollups, bool, n),
        "parents": _parent_rows(index, [p or "" for p in preview.parents]),
        "edges": edges,
        "hierarchy": hierarchy,
        "titles": preview.titles,
    }
    return _with_positions(base, preview.positions, preview.pins)


def _hierarchy(kinds: Sequence[str]) -> np.ndarray:
    """Per edge type: is it a hierarchy edge (contains / semantic_contains, any case)? Each
    distinct type is looked at once; a slice at a time (over 150k edges, ``set`` and
    ``fromiter`` each held a worker's GIL ~10 ms, a repaint of the window waiting on them)."""
    distinct: set[str] = set()
    for part in slices(kinds):
        distinct.update(part)
    known = {kind: kind.lower() in HIERARCHY_EDGE_TYPES for kind in distinct}
    return array_of(known.__getitem__, kinds, bool)


def _with_positions(
    base: dict[str, Any],
    saved: Mapping[str, Sequence[float]],
    pins: Mapping[str, Sequence[float]],
) -> GraphSnapshot:
    ids: tuple[str, ...] = base["ids"]
    unknown = (np.nan, np.nan)
    merged = {**saved, **pins} if pins else saved
    xys, pinned_parts = [], []
    for part in slices(ids):  # a slice at a time: whole, one C call held the GIL ~10 ms
        xy = chain.from_iterable(map(merged.get, part, repeat(unknown, len(part))))
        xys.append(np.fromiter(xy, np.float64, 2 * len(part)))
        pinned_parts.append(np.fromiter(map(pins.__contains__, part), bool, len(part)))
    pos = joined(xys, np.float64).reshape(-1, 2)  # (one copy each: see ``joined``)
    pinned = joined(pinned_parts, bool)
    return GraphSnapshot(pos=pos, pinned=pinned, **base)


def pin_nodes(
    app: GraphHost,
    pins: Mapping[str, Sequence[float] | None],
    *,
    initiator: object | None = None,
    on_error: Callable[[MemgraphError], None] | None = None,
) -> None:
    """Pin nodes at ``[x, y]`` (or unpin with None): one undo step ("Pin 'Title'")."""
    payload = {k: (None if v is None else [float(v[0]), float(v[1])]) for k, v in pins.items()}
    app.run_op(lambda w: w.set_pins(payload), initiator=initiator, on_error=on_error)


def create_pinned_node(
    app: GraphHost,
    type_id: str,
    title: str,
    xy: Sequence[float],
    *,
    fields: Mapping[str, Any] | None = None,
    initiator: object | None = None,
    on_done: Callable[[str], None] | None = None,
    on_error: Callable[[MemgraphError], None] | None = None,
) -> None:
    """Create a node of ``type_id`` titled ``title`` (with ``fields``) pinned at ``xy``: one
    write on the single writer, one ChangeSet, one undo step ("Create type 'Title'") whose
    undo takes the node and its pin away together. Luker's rule holds: a same-type node of
    the same title takes the create (and the pin). ``on_done`` gets the node's id (GUI
    thread); a refusal (a required field missing, …) goes to ``on_error``, else the model's
    ``op_failed``."""
    where = [float(xy[0]), float(xy[1])]

    def op(w: Any) -> Any:
        return w.create_pinned_node(type=type_id, title=title, fields=dict(fields or {}), at=where)

    def done(result: Any) -> None:
        if on_done is not None:
            on_done(str(result["id"]))

    app.run_op(op, initiator=initiator, on_done=done, on_error=on_error)


def stored_pins(app: GraphHost) -> Mapping[str, Sequence[float]]:
    """The pins, as ``{id: (x, y)}`` (the meta key only: cheap at any size)."""
    return app.store.pins()


def save_positions(
    app: GraphHost,
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
    app: GraphHost,
) -> tuple[Mapping[str, Sequence[float]], Mapping[str, Sequence[float]]]:
    """The saved layout positions and the pins, as ``{id: (x, y)}`` (under the store lock)."""
    store = app.store
    with store.reading():
        return store.positions(), store.pins()


def positions_by_time(ids: Sequence[str], parents: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """View ▸ Arrange by time: ``(n, 2)`` positions for rows in timeline order (the row number
    is the story's order; ``parents`` rows or -1, ``edges`` row pairs). See
    ``core.layout.timeline.arrange_by_time``. Any thread, ~0.05 s at 50k."""
    from memgraph_gui.core.layout.timeline import arrange_by_time

    return arrange_by_time(ids, np.arange(len(ids)), parents, edges)

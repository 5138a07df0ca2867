"""What the graph view draws, as plain arrays, and its writes (pins, saved positions, a node
created where the user clicked).

``graph_snapshot`` reads the active (non-archived) nodes in timeline order, the edges among
them and the saved positions and pins, under the store lock, into a ``GraphSnapshot`` the view
can turn into numpy arrays without touching the store again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from memgraph_gui.app.op_runners import OpRunner
from memgraph_gui.core.graph.picture import Picture

if TYPE_CHECKING:
    from memgraph_gui.core.domain.errors import MemgraphError
    from memgraph_gui.core.memory import MemoryStore


class GraphHost(OpRunner, Protocol):
    """The AppModel as the functions below use it (``AppModel`` satisfies it; it is typed so
    because ``app_model`` imports this module through ``reads``: the app folder reads
    top-down)."""

    @property
    def store(self) -> MemoryStore: ...


GraphSnapshot = Picture
"""What the graph view draws (``core.graph.picture.Picture``)."""


def graph_snapshot(app: GraphHost) -> GraphSnapshot:
    """The graph view's input; GUI thread, one pass under the store lock (~0.2 s at 50k)."""
    return store_snapshot(app.store)


def store_snapshot(store: MemoryStore) -> GraphSnapshot:
    """``graph_snapshot`` of ``store``; any thread (what ``SnapshotLoader`` runs): see
    ``MemoryStore.picture``."""
    return store.picture()


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

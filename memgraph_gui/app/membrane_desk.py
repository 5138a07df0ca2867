"""The desk's side of Membrane attributes: what the inspector shows of a node's sensitivity,
salience, memory type, scope and tags (with where each value comes from), a record's JSON, and
the writes it may ask for.

Views never import ``core.membrane``; they read here and write through the factories below, each
one ``set_attributes`` / ``reset_attributes`` call on the single writer (one undo step), carrying
the values the person started from (``expect``): ``EDIT_CONFLICT`` when another writer moved
one on, nothing written (details as the Write API's: ``current`` = ``{fields: {name: value}}``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from memgraph_gui.app.op_runners import StoreOpRunner
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.membrane import attributes as _attributes
from memgraph_gui.core.membrane import model, write
from memgraph_gui.core.membrane.index import overrides

if TYPE_CHECKING:
    from memgraph_gui.core.memory import MemoryStore

OnError = Callable[[MemgraphError], None] | None
OnDone = Callable[[Any], None] | None

NAMES: tuple[str, ...] = _attributes.NAMES
"""The attributes, in the order the inspector shows them."""
SENSITIVITIES: tuple[str, ...] = model.SENSITIVITIES
MEMORY_TYPES: tuple[str, ...] = model.MEMORY_TYPES
SALIENCE_RANGE = (0.0, 1.0)
RECORD, DEFAULT, SET = "record", "default", "set"
"""Where a value comes from: the record's own JSON, the default mapping, set by a person."""


class MembraneHost(StoreOpRunner, Protocol):
    """The AppModel as the writes below use it (``AppModel`` satisfies it; it is typed so
    because ``app_model`` imports this module: the app folder reads top-down)."""

    @property
    def origin(self) -> str: ...


@dataclass(frozen=True, slots=True)
class MembraneAttributes:
    """A node's Membrane attributes as the inspector shows them: ``values`` (``NAMES`` -> value,
    tags a list), ``sources`` (``NAMES`` -> ``RECORD`` / ``DEFAULT`` / ``SET``), the default
    mapping's ``defaults`` (None for a record) and whether the node is a Membrane record."""

    node_id: str
    values: Mapping[str, Any]
    sources: Mapping[str, str]
    defaults: Mapping[str, Any] | None
    is_record: bool

    @property
    def overridden(self) -> tuple[str, ...]:
        """The attributes a person set (what "Reset to default" takes back)."""
        return tuple(name for name in NAMES if self.sources[name] == SET)


def attributes_changed(changes: ChangeSet, node_id: str) -> bool:
    """Whether ``changes`` may have moved ``node_id``'s Membrane attributes (its node, or the
    overrides every Luker node and Nuggets note reads)."""
    return changes.touches(node_id) or _attributes.OVERRIDES in changes.meta_keys


class MembraneReads:
    """The AppModel's reads about Membrane attributes (mixed into ``AppModel``; GUI thread,
    lock-free: one node and one meta value are read)."""

    _store: MemoryStore

    def membrane_attributes(self, node_id: str) -> MembraneAttributes | None:
        """``node_id``'s attributes with their sources, or None when there is no such node."""
        graph = self._store.peek_graph
        node = graph.nodes.get(node_id)
        if node is None:
            return None
        given = overrides(graph)
        now = _attributes.attributes_of(node, given)
        values = {name: write.value_of(now, name) for name in NAMES}
        if model.is_record(node):
            return MembraneAttributes(node_id, values, dict.fromkeys(NAMES, RECORD), None, True)
        entry = given.get(node_id)
        entry = entry if isinstance(entry, Mapping) else {}
        default = _attributes.default_attributes(node)
        defaults = {name: write.value_of(default, name) for name in NAMES}
        sources = {name: SET if name in entry else DEFAULT for name in NAMES}
        return MembraneAttributes(node_id, values, sources, defaults, False)

    def membrane_record(self, node_id: str) -> dict[str, Any] | None:
        """The record JSON of a Membrane record node (a fresh dict), None for any other node."""
        node = self._store.peek_graph.nodes.get(node_id)
        if node is None or not model.is_record(node):
            return None
        return model.record_json(node)

    def is_membrane_record(self, node_id: str) -> bool:
        """Whether ``node_id`` is a Membrane record (cheap: no fields are parsed)."""
        node = self._store.peek_graph.nodes.get(node_id)
        return node is not None and model.is_record(node)


def set_attributes(
    app: MembraneHost,
    node_id: str,
    changes: Mapping[str, Any],
    *,
    expect: Mapping[str, Any] | None = None,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Set some of ``node_id``'s attributes (one undo step, "Set sensitivity of 'Eileen' to
    high"); ``expect`` is what the person started from. ``on_done`` gets ``{id, changed,
    attributes, source}``; a refusal (``INVALID_ARGUMENT``, ``NODE_NOT_FOUND``,
    ``EDIT_CONFLICT``) reaches ``on_error``, nothing written."""
    origin, wanted = app.origin, dict(changes)
    expected = dict(expect) if expect is not None else None

    def op(store: MemoryStore) -> Any:
        return store.membrane(origin=origin).set_attributes(node_id, wanted, expect=expected)

    app.run_store_op(op, initiator=initiator, on_done=on_done, on_error=on_error)


def reset_attributes(
    app: MembraneHost,
    node_id: str,
    names: Sequence[str] | None = None,
    *,
    expect: Mapping[str, Any] | None = None,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Take back what was set on a Luker node or a Nuggets note (all, or ``names``): back to
    the default mapping, one undo step ("Reset the Membrane attributes of 'Eileen' to the
    default"); ``expect`` as for ``set_attributes``."""
    origin = app.origin
    chosen = list(names) if names is not None else None
    expected = dict(expect) if expect is not None else None

    def op(store: MemoryStore) -> Any:
        return store.membrane(origin=origin).reset_attributes(node_id, chosen, expect=expected)

    app.run_store_op(op, initiator=initiator, on_done=on_done, on_error=on_error)

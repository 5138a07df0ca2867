"""``MembraneApi``: Membrane's retrieval over one store (``MemoryStore.membrane()``).

``retrieve_graph(task_descriptor, trust, memory_types, min_salience, root_limit, node_limit,
edge_limit, max_hops)`` and ``retrieve_by_id(id, trust)`` (and the attribute writes of
``MembraneWrites``), Membrane's positional order and JSON
names (``trust`` a ``TrustContext`` or its JSON object; ``None`` for an optional argument = left
out). Each call reads under the store lock, caught up with other processes, and answers fresh
JSON data the caller may keep; the rules and errors are ``retrieval``'s. Thread-safe.
"""

from __future__ import annotations

from typing import Any

from memgraph_gui.core.membrane import retrieval
from memgraph_gui.core.membrane.write import MembraneWrites
from memgraph_gui.core.storage.store import Store


class MembraneApi(MembraneWrites):
    """Membrane's API over ``storage``; ``origin`` names the writer of its writes in the change
    log (default: this process). Writes: ``set_attributes`` / ``reset_attributes`` (one undo
    step each; see ``write``)."""

    def __init__(self, storage: Store, *, origin: str | None = None) -> None:
        self.storage = storage
        self.origin = origin

    def retrieve_graph(
        self,
        task_descriptor: Any,
        trust: Any,
        memory_types: Any = None,
        min_salience: Any = None,
        root_limit: Any = None,
        node_limit: Any = None,
        edge_limit: Any = None,
        max_hops: Any = None,
    ) -> dict[str, Any]:
        """Membrane's ``RetrieveGraphResponse`` JSON (``retrieval.retrieve_graph``)."""
        with self.storage.reading() as graph:
            return retrieval.retrieve_graph(
                graph,
                task_descriptor,
                trust,
                memory_types,
                min_salience,
                root_limit,
                node_limit,
                edge_limit,
                max_hops,
            )

    def retrieve_by_id(self, id: Any, trust: Any) -> dict[str, Any]:
        """The record ``id`` in full (``retrieval.retrieve_by_id``): ``RECORD_NOT_FOUND``,
        ``ACCESS_DENIED`` or ``INVALID_ARGUMENT`` otherwise."""
        with self.storage.reading() as graph:
            return retrieval.retrieve_by_id(graph, id, trust)

"""``open_session``: the seed's 16-method session facade over one store."""

from __future__ import annotations

import logging
import os
from typing import Any

from memgraph_gui.core.errors import MemgraphError
from memgraph_gui.core.store import MemoryStore

log = logging.getLogger(__name__)

SESSION_METHODS = (
    "listVisibleCandidates",
    "getEdgeSummary",
    "getNodeBrief",
    "expandFromSeeds",
    "getSchema",
    "keywordSearch",
    "vectorSearch",
    "findByName",
    "compactionCandidates",
    "createNode",
    "editNode",
    "deleteNode",
    "upsertLinks",
    "deleteLinks",
    "compactNodes",
    "applyExtractionBatch",
)


class Session:
    """The session facade: reads and writes delegate to ``ReadApi`` / ``WriteApi``."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self._read = store.read_api()
        self._write = store.write_api()

    def list_visible_candidates(self, **options: Any) -> Any:
        return self._read.list_visible_candidates(**options)

    def get_edge_summary(self, node_id: Any, **options: Any) -> Any:
        return self._read.get_edge_summary(node_id, **options)

    def get_node_brief(self, node_id: Any, **options: Any) -> Any:
        return self._read.get_node_brief(node_id, **options)

    def expand_from_seeds(self, seed_ids: Any, **options: Any) -> Any:
        return self._read.expand_from_seeds(seed_ids, **options)

    def get_schema(self) -> Any:
        return self._read.get_schema()

    def keyword_search(self, **options: Any) -> Any:
        return self._read.keyword_search(**options)

    def vector_search(self, **options: Any) -> Any:
        return self._read.vector_search(**options)

    def find_by_name(self, **options: Any) -> Any:
        return self._read.find_by_name(**options)

    def compaction_candidates(self, **options: Any) -> Any:
        return self._read.compaction_candidates(**options)

    def create_node(self, **op: Any) -> Any:
        return self._write.create_node(**op)

    def edit_node(self, **op: Any) -> Any:
        return self._write.edit_node(**op)

    def delete_node(self, **op: Any) -> Any:
        return self._write.delete_node(**op)

    def upsert_links(self, **op: Any) -> Any:
        return self._write.upsert_links(**op)

    def delete_links(self, **op: Any) -> Any:
        return self._write.delete_links(**op)

    def compact_nodes(self, **op: Any) -> Any:
        return self._write.compact_nodes(**op)

    def apply_extraction_batch(self, **options: Any) -> Any:
        return self._write.apply_extraction_batch(**options)


def open_session(store: MemoryStore | str | os.PathLike[str] | None) -> Session | None:
    """A session on ``store`` (a ``MemoryStore`` or a path to an existing file).

    Returns None, as the seed says, when there is no store: None, a closed store, a missing file or
    a file that cannot be opened as a memory store (logged as a warning).
    """
    if store is None:
        return None
    if isinstance(store, MemoryStore):
        return None if store.closed else Session(store)
    try:
        return Session(MemoryStore.open(store, create=False))
    except MemgraphError as exc:
        log.warning("memgraph: cannot open a session on %s: %s", store, exc)
        return None

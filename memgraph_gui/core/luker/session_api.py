"""``SessionApi``: the seed's 16-method session facade over one store (``open_session`` makes one),
plus ``archive_node`` (Luker's ``archiveNode``)."""

from __future__ import annotations

from typing import Any

from memgraph_gui.core.luker.read_api import ReadApi
from memgraph_gui.core.luker.write_api import WriteApi
from memgraph_gui.core.storage.store import Store


class SessionApi:
    """The session facade: reads and writes delegate to ``ReadApi`` / ``WriteApi``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._read = ReadApi(store)
        self._write = WriteApi(store)

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

    def archive_node(self, **op: Any) -> Any:
        """Luker's ``archiveNode({id, replacementId})`` (beyond the seed's 16 methods)."""
        return self._write.archive_node(**op)

    def upsert_links(self, **op: Any) -> Any:
        return self._write.upsert_links(**op)

    def delete_links(self, **op: Any) -> Any:
        return self._write.delete_links(**op)

    def compact_nodes(self, **op: Any) -> Any:
        return self._write.compact_nodes(**op)

    def apply_extraction_batch(self, **options: Any) -> Any:
        return self._write.apply_extraction_batch(**options)

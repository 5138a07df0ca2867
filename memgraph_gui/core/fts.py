"""The FTS5 trigram accelerator for the window's substring search (queries of 3+ characters)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memgraph_gui.core import search

if TYPE_CHECKING:
    from memgraph_gui.core.store import MemoryStore


def indexed_substring_search(store: MemoryStore, query: str) -> list[str]:
    """Ids in timeline order whose text contains ``query``; FTS prefilter, exact confirmation.

    The trigram index folds case per character like ``str.lower`` on the stored lower-case text, so
    its hits are a superset of the exact matches; the confirmation makes both paths identical.
    """
    phrase = '"' + query.lower().replace('"', '""') + '"'
    with store.lock:
        rows = store.execute_read(
            "SELECT n.id FROM nodes_fts f JOIN nodes n ON n.ord = f.rowid WHERE nodes_fts MATCH ?",
            (phrase,),
        )
        with store.reading() as graph:
            hits = {r[0] for r in rows if r[0] in graph.nodes}
            ordered = [i for i in graph.timeline_ids() if i in hits]
            return search.substring_scan(graph, query, ordered)

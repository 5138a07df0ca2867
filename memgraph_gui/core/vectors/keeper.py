"""Vectors kept fresh as writes commit: ``refresh_nodes`` embeds what a ChangeSet touched.

A process that writes calls it after its commit (the CLI after ``memgraph call``, the window on a
worker after each batch): the touched nodes' texts are compared with the digests stored in the
file, and only what changed is embedded and stored (no whole index is loaded). Whatever it
misses (a writer that does not call it, a failure) is caught by the next search's own check: a
stale vector is never used either way.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.storage import vector_rows
from memgraph_gui.core.vectors.profiles import Cancel, Embedder
from memgraph_gui.core.vectors.text import digest, searchable, texts_of

if TYPE_CHECKING:
    from memgraph_gui.core.storage.store import Store

log = logging.getLogger(__name__)


def touched(changes: Iterable[ChangeSet]) -> set[str]:
    """The ids whose text or searchability a batch may have changed."""
    out: set[str] = set()
    for changes_ in changes:
        out |= changes_.nodes_added | changes_.nodes_updated | changes_.nodes_restored
    return out


def refresh_nodes(
    store: Store, key: str, embedder: Embedder, ids: Iterable[str], cancel: Cancel | None = None
) -> int:
    """Embed and store the vectors (under profile ``key``) of those of ``ids`` whose stored one
    is missing or stale; returns how many were made. Blocking; any thread (the store lock is
    held only to read the nodes). ``EMBEDDING_*`` errors from the embedder, nothing stored."""
    with store.reading() as graph:
        nodes = [n for n in map(graph.nodes.get, sorted(set(ids))) if n and searchable(n)]
        schema = graph.schema
    if not nodes:
        return 0
    texts = texts_of(schema, nodes)
    wanted = {n.id: (t, digest(t)) for n, t in zip(nodes, texts, strict=True) if t.strip()}
    stored = store.read_aside(lambda conn: vector_rows.digests_of(conn, key, list(wanted)))
    todo = [(i, t, d) for i, (t, d) in wanted.items() if stored.get(i) != d]
    if not todo:
        return 0
    vectors = embedder.embed([t for _i, t, _d in todo], cancel=cancel)
    rows = [
        (i, d, np.asarray(v, np.float32).tobytes())
        for (i, _t, d), v in zip(todo, vectors, strict=True)
    ]
    store.write_aside(lambda conn: vector_rows.write_rows(conn, key, rows))
    return len(rows)


class Keeper:
    """Notes the nodes this process's commits touch (a store subscription); ``flush`` embeds
    them under the active profile. Any thread; ``close`` ends the subscription."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._ids: set[str] = set()
        self._lock = threading.Lock()
        self._unsubscribe = store.subscribe(self._seen)

    def _seen(self, changes: ChangeSet) -> None:
        if not changes.external:
            with self._lock:
                self._ids |= touched([changes])

    def flush(self, *, local_only: bool = True, cancel: Cancel | None = None) -> int:
        """Embed what was touched since the last flush (only with a profile that needs no
        network when ``local_only``); returns how many vectors were made. A failure is logged
        and its ids kept for the next flush; it never undoes or fails the writes."""
        from memgraph_gui.core.vectors.api import VectorApi

        with self._lock:
            ids, self._ids = self._ids, set()
        if not ids or self._store.read_only:
            return 0
        try:
            api = VectorApi(self._store)
            spec = api.profile()
            if spec is None or (local_only and not spec.local):
                return 0
            return refresh_nodes(self._store, spec.key, api.embedder(spec), ids, cancel)
        except MemgraphError as exc:
            log.warning("memgraph: vectors not refreshed after the write (%s)", exc)
            with self._lock:
                self._ids |= ids
            return 0

    def close(self) -> None:
        self._unsubscribe()

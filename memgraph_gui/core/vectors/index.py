"""``VectorIndex``: one profile's vectors of one store in memory, kept true to the nodes' text.

The index holds a float32 matrix (one row per node it has a vector for), each row's digest (of
the text it was made from) and whether the row may be used now (``_ok``: the node is searchable
and its text now has that digest). Which nodes changed since the last look is told by a tracker
kept in step with the graph (``Graph.index``, under the store lock, so no change is missed, by
this process or replayed from another's); a new graph (a reload) or a schema change gives a new
tracker, and every node is looked at again.

Before every search, the changed nodes are checked: a row whose digest no longer matches is not
used, and the node's text is embedded again (first looking in the file, where another process
may have stored it already); what is made is stored in the file (best effort). A stale vector
is never used: what could not be embedded (the graph kept changing) is left out of the ranking.

Thread-safe: one mutex per index serialises its work; the store lock is held only to take the
tracker's ids, and to rank (numpy over the matrix: a few ms at 50k nodes).
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.storage import vector_rows
from memgraph_gui.core.vectors.profiles import Cancel, Embedder, Progress, cancelled
from memgraph_gui.core.vectors.text import digest, searchable, texts_of

if TYPE_CHECKING:
    from memgraph_gui.core.domain.schema import Schema
    from memgraph_gui.core.graph.graph import Graph
    from memgraph_gui.core.storage.store import Store

log = logging.getLogger(__name__)
ATTEMPTS = 3
"""Rounds of check-and-embed before a search ranks without what is still stale."""
CHUNK = 2048
"""Texts embedded (and rows stored) in one go by ``refresh``."""


class _Changed:
    """``Graph.index``: ids of the nodes changed since the last ``take`` (None: look at all)."""

    def __init__(self) -> None:
        self.ids: set[str] | None = None

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        if self.ids is not None:
            self.ids.add((new or old).id)  # type: ignore[union-attr]

    def take(self) -> set[str] | None:
        ids, self.ids = self.ids, set()
        return ids


@dataclass(frozen=True, slots=True)
class _Pending:
    """A node whose vector is missing or stale: what to embed, and where its row goes."""

    id: str
    type: str
    ord: int
    text: str
    digest: bytes


@dataclass(frozen=True, slots=True)
class RefreshReport:
    """What a ``refresh`` did: nodes looked at, vectors made, vectors found in the file."""

    checked: int
    embedded: int
    reused: int


class VectorIndex:
    """See the module docstring. One per (store, profile key): ``vectors.api`` keeps them."""

    def __init__(self, store: Store, key: str, embedder: Embedder) -> None:
        self._store_ref = weakref.ref(store)  # ``vectors.api`` keeps this index per store:
        self.key, self.embedder = key, embedder  # a strong reference would keep the store alive
        self._tracker_name = f"vectors:{key}"
        self._mutex = threading.RLock()
        self._loaded = False
        self._tracker: _Changed | None = None
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._digests: list[bytes] = []
        self._dim = 0
        self._matrix: npt.NDArray[np.float32] = np.zeros((0, 0), np.float32)
        self._ok: npt.NDArray[np.bool_] = np.zeros(0, bool)
        self._type: npt.NDArray[np.int32] = np.zeros(0, np.int32)
        self._ord: npt.NDArray[np.int64] = np.zeros(0, np.int64)
        self._type_codes: dict[str, int] = {}
        self._pending: dict[str, _Pending] = {}  # nodes whose row is missing or stale

    @property
    def _store(self) -> Store:
        store = self._store_ref()
        if store is None:
            raise MemgraphError("MEMORY_STORE_MISSING", "the memory store is closed")
        return store

    # -- the public jobs -------------------------------------------------------------------------
    def search(
        self, query_vector: npt.NDArray[np.float32], types: frozenset[str] | None, k: int
    ) -> list[tuple[Node, float]]:
        """The ``k`` searchable nodes most similar to ``query_vector`` (cosine, unit rows), of
        ``types`` (lower-case) when given: ``(node, score)`` by score desc, store order on
        ties. Embeds what changed first (see the module docstring)."""
        if not query_vector.any():
            return []  # a query without one feature the profile knows is near nothing
        with self._mutex:
            self._load()
            with self._store.reading() as graph:
                items, full = self._take(graph)
                schema = graph.schema
            self._check(items, full, schema)  # off the lock: at first, every node's text
            for attempt in range(ATTEMPTS):
                if self._pending:
                    self._embed(None, None)
                with self._store.reading() as graph:
                    items, full = self._take(graph)
                    if items or full:
                        self._check(items, full, graph.schema)  # what changed meanwhile
                    if not self._pending or attempt == ATTEMPTS - 1:
                        return self._rank(graph, query_vector, types, k)
        return []  # not reached: the last attempt ranks

    def refresh(
        self, cancel: Cancel | None = None, progress: Progress | None = None
    ) -> RefreshReport:
        """Make every searchable node's vector fresh (embedding and storing what is missing or
        stale), then drop stored rows of nodes that are gone. ``progress(done, total)`` counts
        the texts to embed. ``EMBEDDING_CANCELLED`` / ``EMBEDDING_FAILED``: every row stored
        before stays (each is true to the text it was made from), nothing else changed."""
        with self._mutex:
            self._load()
            with self._store.reading() as graph:
                self._tracker = None  # look at every node
                items, full = self._take(graph)
                schema = graph.schema
            self._check(items, full, schema)
            embedded, reused = self._embed(cancel, progress)
            self._prune({node_id for node_id, _node in items})
            return RefreshReport(len(items), embedded, reused)

    def fresh_count(self) -> int:
        """Rows usable now (as of the last check)."""
        with self._mutex:
            return int(self._ok[: len(self._ids)].sum())

    # -- catching up -----------------------------------------------------------------------------
    def _take(self, graph: Graph) -> tuple[list[tuple[str, Node | None]], bool]:
        """Under the store lock: the nodes changed since the last look (all of them, and True,
        on a new graph or schema)."""
        tracker = graph.index(self._tracker_name, _Changed)
        ids = tracker.take()
        if tracker is not self._tracker or ids is None:
            self._tracker = tracker
            return list(graph.nodes.items()), True
        return [(i, graph.nodes.get(i)) for i in ids], False

    def _check(self, items: Sequence[tuple[str, Node | None]], full: bool, schema: Schema) -> None:
        """Mark each row usable or not for ``items`` (every other row unusable when ``full``),
        and note in ``_pending`` the nodes to embed. Nodes are immutable: no store lock needed."""
        n = len(self._ids)
        if full:
            self._ok[:n] = False
            self._pending.clear()
        live: list[Node] = []
        for node_id, node in items:
            self._pending.pop(node_id, None)
            if node is not None and searchable(node):
                live.append(node)
            elif (row := self._row.get(node_id)) is not None:
                self._ok[row] = False
        for node, text in zip(live, texts_of(schema, live), strict=True):
            row = self._row.get(node.id)
            kind = node.type.lower()
            if not text.strip():
                if row is not None:
                    self._ok[row] = False
                continue
            mark = digest(text)
            if row is not None and self._digests[row] == mark:
                self._ok[row] = True
                self._type[row] = self._code(kind)
                self._ord[row] = node.ord
                continue
            if row is not None:
                self._ok[row] = False
            self._pending[node.id] = _Pending(node.id, kind, node.ord, text, mark)

    def _embed(self, cancel: Cancel | None, progress: Progress | None) -> tuple[int, int]:
        """Give each node of ``_pending`` its vector: from the file when another process stored
        it, else embedded (in chunks, each stored as it is made). Returns (embedded, reused)."""
        pending = list(self._pending.values())
        if not pending:
            if progress is not None:
                progress(0, 0)
            return 0, 0
        stored = {
            node_id: (mark, vec)
            for node_id, mark, vec in self._store.read_aside(
                lambda conn: vector_rows.read_rows(conn, self.key, [p.id for p in pending])
            )
        }
        todo: list[_Pending] = []
        reused = 0
        for item in pending:
            found = stored.get(item.id)
            if found is not None and found[0] == item.digest and self._fits(found[1]):
                self._put(item, np.frombuffer(found[1], np.float32))
                reused += 1
            else:
                todo.append(item)
        total = len(todo)
        for start in range(0, total, CHUNK):
            if cancel is not None and cancel.is_set():
                raise cancelled()
            chunk = todo[start : start + CHUNK]

            def step(done: int, _total: int, start: int = start) -> None:
                if progress is not None:
                    progress(start + done, total)

            vectors = self.embedder.embed([p.text for p in chunk], cancel=cancel, progress=step)
            rows = []
            for item, vector in zip(chunk, vectors, strict=True):
                self._put(item, vector)
                rows.append((item.id, item.digest, np.asarray(vector, np.float32).tobytes()))
            self._persist(rows)
        return total, reused

    def _fits(self, blob: bytes) -> bool:
        return not self._dim or len(blob) == self._dim * 4

    def _put(self, item: _Pending, vector: npt.NDArray[np.float32]) -> None:
        """The row of ``item`` becomes ``vector`` (made from its text), usable."""
        if not self._dim:
            self._dim = int(vector.shape[0])
            self._matrix = np.zeros((0, self._dim), np.float32)
        if vector.shape[0] != self._dim:
            raise MemgraphError(
                "EMBEDDING_FAILED",
                f"the embedder gave {vector.shape[0]} dimensions where this profile's stored "
                f"vectors have {self._dim}",
            )
        row = self._row.get(item.id)
        if row is None:
            row = len(self._ids)
            self._grow(row + 1)
            self._ids.append(item.id)
            self._digests.append(item.digest)
            self._row[item.id] = row
        else:
            self._digests[row] = item.digest
        self._matrix[row] = vector
        self._ok[row] = True
        if self._pending.get(item.id) is item:
            del self._pending[item.id]
        self._type[row] = self._code(item.type)
        self._ord[row] = item.ord

    def _grow(self, size: int) -> None:
        capacity = self._matrix.shape[0]
        if size <= capacity:
            return
        new = max(size, capacity * 2, 1024)
        matrix = np.zeros((new, self._dim), np.float32)
        matrix[:capacity] = self._matrix
        self._matrix = matrix
        self._ok = np.concatenate([self._ok, np.zeros(new - capacity, bool)])
        self._type = np.concatenate([self._type, np.zeros(new - capacity, np.int32)])
        self._ord = np.concatenate([self._ord, np.zeros(new - capacity, np.int64)])

    def _code(self, kind: str) -> int:
        code = self._type_codes.get(kind)
        if code is None:
            code = self._type_codes[kind] = len(self._type_codes)
        return code

    def _persist(self, rows: list[vector_rows.Row]) -> None:
        """Store ``rows`` in the file; a read-only or busy file keeps them in memory only."""
        if not rows or self._store.read_only:
            return
        try:
            self._store.write_aside(lambda conn: vector_rows.write_rows(conn, self.key, rows))
        except MemgraphError as exc:
            log.info("memgraph: vectors kept in memory only (%s)", exc)

    def _prune(self, live: set[str]) -> None:
        """Drop stored rows (file and memory) of nodes no longer in the store."""
        gone = [node_id for node_id in self._ids if node_id not in live]
        if not gone or self._store.read_only:
            return
        try:
            self._store.write_aside(lambda conn: vector_rows.delete_ids(conn, self.key, gone))
        except MemgraphError as exc:
            log.info("memgraph: stale vector rows left in the file (%s)", exc)

    # -- loading and ranking ---------------------------------------------------------------------
    def _load(self) -> None:
        """Read the profile's stored rows once (all unusable until checked)."""
        if self._loaded:
            return
        rows = self._store.read_aside(lambda conn: vector_rows.read_profile(conn, self.key))
        self._loaded = True
        if not rows:
            return
        lengths: dict[int, int] = {}
        for _id, _digest, blob in rows:
            lengths[len(blob)] = lengths.get(len(blob), 0) + 1
        size = max(lengths, key=lengths.__getitem__)  # another length: a damaged row, skipped
        if size == 0 or size % 4:
            return
        kept = [row for row in rows if len(row[2]) == size]
        self._dim = size // 4
        self._ids = [row[0] for row in kept]
        self._digests = [row[1] for row in kept]
        self._row = {node_id: i for i, node_id in enumerate(self._ids)}
        self._matrix = (
            np.frombuffer(b"".join(row[2] for row in kept), np.float32)
            .reshape(len(kept), self._dim)
            .copy()
        )
        self._ok = np.zeros(len(kept), bool)
        self._type = np.zeros(len(kept), np.int32)
        self._ord = np.zeros(len(kept), np.int64)

    def _rank(
        self,
        graph: Graph,
        query_vector: npt.NDArray[np.float32],
        types: frozenset[str] | None,
        k: int,
    ) -> list[tuple[Node, float]]:
        """Under the store lock: the top ``k`` usable rows by score, store order on ties."""
        n = len(self._ids)
        if not n or query_vector.shape[0] != self._dim:
            return []
        mask = self._ok[:n].copy()
        if types is not None:
            codes = [self._type_codes[t] for t in types if t in self._type_codes]
            mask &= np.isin(self._type[:n], codes)
        hits = np.flatnonzero(mask)
        if not hits.size:
            return []
        scores = self._matrix[:n] @ query_vector
        scores = scores[hits]
        if hits.size > k:  # the k best, and every row tied with the k-th (store order decides)
            kth = np.partition(-scores, k - 1)[k - 1]
            keep = -scores <= kth
            hits, scores = hits[keep], scores[keep]
        order = np.lexsort((self._ord[hits], -scores))[:k]
        out = []
        for row, score in zip(hits[order].tolist(), scores[order].tolist(), strict=True):
            node = graph.nodes.get(self._ids[row])
            if node is not None:
                out.append((node, round(float(score), 6)))
        return out

"""``VectorApi``: a store's embedding profile, its vectors and ``vectorSearch``.

One ``VectorIndex`` per (store, profile key) per process, kept here for the store's lifetime, so
every caller (the Read API, the window's lab, the CLI) shares the vectors already made. The
profile is read from the store on every call: another process may have changed it.

Errors (``MemgraphError``): ``NO_EMBEDDING_PROFILE`` (none set, or the stored setting is not
usable: the message says why), ``EMBEDDING_FAILED`` / ``EMBEDDING_CANCELLED`` /
``EMBEDDING_MODEL_MISSING`` from the embedder, ``BAD_ARGS`` for a bad profile.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.storage import vector_rows
from memgraph_gui.core.vectors.embedders import embedder_for
from memgraph_gui.core.vectors.index import RefreshReport, VectorIndex
from memgraph_gui.core.vectors.profiles import (
    META_KEY,
    Cancel,
    Embedder,
    ProfileSpec,
    Progress,
    parse_profile,
)
from memgraph_gui.core.vectors.text import searchable

if TYPE_CHECKING:
    from memgraph_gui.core.storage.store import Store

_INDEXES: weakref.WeakKeyDictionary[Store, dict[str, VectorIndex]] = weakref.WeakKeyDictionary()
_EMBEDDERS: dict[ProfileSpec, Embedder] = {}  # one per profile per process (a model loads once)
_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class VectorStatus:
    """A store's vectors under its active profile: searchable nodes, and vectors stored in the
    file for it (some may be stale until the next ``embed_all`` or search)."""

    profile: ProfileSpec | None
    nodes: int
    stored: int

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": None if self.profile is None else self.profile.to_json(),
            "nodes": self.nodes,
            "stored": self.stored,
        }


class VectorApi:
    """See the module docstring. ``api_key`` overrides where an endpoint's key comes from."""

    def __init__(
        self, store: Store, *, origin: str | None = None, api_key: Callable[[], str] | None = None
    ) -> None:
        self._store, self._origin, self._api_key = store, origin, api_key

    def profile(self) -> ProfileSpec | None:
        """The active profile (None when none is set). ``NO_EMBEDDING_PROFILE`` when the stored
        setting cannot be used (written by a newer memgraph, or damaged)."""
        with self._store.reading() as graph:
            value = graph.meta.get(META_KEY)
        try:
            return parse_profile(value)
        except MemgraphError as exc:
            raise MemgraphError(
                "NO_EMBEDDING_PROFILE", f"vectorSearch: the embedding profile is unusable: {exc}"
            ) from exc

    def set_profile(self, profile: ProfileSpec | str | dict[str, Any] | None) -> ChangeSet | None:
        """Make ``profile`` (a spec, a built-in's name, a profile object, or None for none) the
        active one: one undo step that every process sees; None when it already is. Vectors of
        the new profile are made by the next search or ``embed_all`` (or the window's keeper)."""
        spec = profile if isinstance(profile, ProfileSpec) else parse_profile(profile, "profile")
        value = None if spec is None else spec.to_json()
        label = "Turn off vector search" if spec is None else f"Use embedding profile {spec.name}"
        with self._store.transaction(OpKind.BATCH, label, origin=self._origin) as tx:
            if tx.meta(META_KEY) == value:
                return None
            tx.set_meta(META_KEY, value)
        return tx.changeset

    def embedder(self, spec: ProfileSpec | None = None) -> Embedder:
        """The embedder of ``spec`` (default: the active profile; ``NO_EMBEDDING_PROFILE``)."""
        spec = spec or self._require()
        if self._api_key is not None:
            return embedder_for(spec, api_key=self._api_key)
        with _LOCK:
            found = _EMBEDDERS.get(spec)
            if found is None:
                found = _EMBEDDERS[spec] = embedder_for(spec)
            return found

    def index(self, spec: ProfileSpec | None = None) -> VectorIndex:
        """This process's index of the store's vectors under ``spec`` (default: the active)."""
        spec = spec or self._require()
        with _LOCK:
            per_store = _INDEXES.setdefault(self._store, {})
            found = per_store.get(spec.key)
        if found is None:
            made = VectorIndex(self._store, spec.key, self.embedder(spec))
            with _LOCK:
                found = per_store.setdefault(spec.key, made)
        return found

    def search(
        self, query: str, types: frozenset[str] | None = None, k: int = 20
    ) -> list[tuple[Node, float]]:
        """``vectorSearch``: the ``k`` nodes nearest ``query`` under the active profile, as
        ``(node, score)`` by score desc (store order on ties); [] for a blank query.
        ``NO_EMBEDDING_PROFILE`` when none is set (no fallback)."""
        spec = self._require()
        if not query.strip():
            return []
        index = self.index(spec)
        vector = index.embedder.embed([query])[0]
        return index.search(vector, types, k)

    def embed_all(
        self, progress: Progress | None = None, cancel: Cancel | None = None
    ) -> RefreshReport:
        """Make every searchable node's vector under the active profile (storing them), drop
        rows of nodes gone. Blocking; ``progress(done, total)``; see ``VectorIndex.refresh``."""
        return self.index().refresh(cancel, progress)

    def status(self) -> VectorStatus:
        """The active profile, the searchable nodes and the vectors stored for the profile."""
        spec = self.profile()
        with self._store.reading() as graph:
            nodes = sum(1 for node in graph.nodes.values() if searchable(node))
        if spec is None:
            return VectorStatus(None, nodes, 0)
        stored = self._store.read_aside(vector_rows.counts).get(spec.key, 0)
        return VectorStatus(spec, nodes, stored)

    def _require(self) -> ProfileSpec:
        spec = self.profile()
        if spec is None:
            raise MemgraphError(
                "NO_EMBEDDING_PROFILE", "vectorSearch: no embedding profile is configured"
            )
        return spec

"""``MemoryStore``: the facade over one chat memory, as Anki's ``Collection`` is over its database.

It opens the file (``storage``) and hands out the managers callers use: the seed's Read and Write
APIs, the undo history and the session facade. Storage never imports the API layer; this module is
the one place that wires them together.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.picture import Picture
from memgraph_gui.core.layout.model import LayoutInput
from memgraph_gui.core.luker.read_api import ReadApi
from memgraph_gui.core.luker.session_api import SessionApi
from memgraph_gui.core.luker.write_api import WriteApi
from memgraph_gui.core.membrane.api import MembraneApi
from memgraph_gui.core.membrane.seen import seen_store
from memgraph_gui.core.membrane.trust import TrustContext
from memgraph_gui.core.nuggets.api import NuggetsApi
from memgraph_gui.core.nuggets.vector_spec import vector_spec
from memgraph_gui.core.storage import layout_io, retention
from memgraph_gui.core.storage.connection import BUSY_TIMEOUT_S
from memgraph_gui.core.storage.history import History
from memgraph_gui.core.storage.preview import Previewed
from memgraph_gui.core.storage.rows import dump_tables
from memgraph_gui.core.storage.store import Store
from memgraph_gui.core.storage.watcher import Subscriber
from memgraph_gui.core.vectors.api import VectorApi

log = logging.getLogger(__name__)


class MemoryStore:
    """One open ``.memgraph`` file. Open with :meth:`open`; ``":memory:"`` gives a private one.

    Thread-safe: every method may be called from any thread (see ``storage.store.Store``).
    """

    def __init__(self, storage: Store) -> None:
        self.storage = storage

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] = ":memory:",
        *,
        create: bool = True,
        origin: str | None = None,
        busy_timeout: float = BUSY_TIMEOUT_S,
        on_preview: Previewed | None = None,
        before_build: Callable[[], None] | None = None,
        index_edges: bool = True,
    ) -> MemoryStore:
        """Open (or, with ``create``, create) a store; new stores get Luker's default schema.

        Raises ``MemgraphError`` only: ``MEMORY_STORE_MISSING``, ``NOT_A_STORE``,
        ``STORE_FOREIGN``, ``STORE_DAMAGED``, ``STORE_TOO_NEW``, ``STORE_BUSY`` ... (see the README).
        A write waits up to ``busy_timeout`` seconds for another process's lock, then raises
        ``STORE_BUSY``. ``on_preview(StorePreview)`` gets what the graph view draws as soon as
        the rows are read, before the in-memory graph is built (``storage.preview``);
        ``before_build()`` once the file is checked, before the rows are read (what it raises
        ends the open; see ``Store.open``). With
        ``index_edges`` the per-node edge lists are built too (~0.08 s at 150k edges), so the
        first ``getNodeById`` / ``getNeighbors`` is as fast as later ones; the window leaves them
        to their first use, to open sooner. Changes no process-wide state (the garbage
        collector's settings are the entry point's to choose).
        """
        store = Store.open(
            path,
            create=create,
            origin=origin,
            busy_timeout=busy_timeout,
            on_preview=on_preview,
            before_build=before_build,
        )
        if index_edges:
            with store.reading() as graph:
                graph.index_edges()
        return cls(store)

    # -- the managers ----------------------------------------------------------------------------
    def read_api(self) -> ReadApi:
        """The seed's Read API (layers A-D) over this store."""
        return ReadApi(self.storage)

    def write_api(
        self, on_commit: Callable[[MemoryStore], Any] | None = None, *, origin: str | None = None
    ) -> WriteApi:
        """The seed's Write API; ``on_commit(self)`` runs after each successful mutation.

        ``origin`` names the writer in the change log (default: this process), so that
        ``history_of(origin)`` undoes only its steps.
        """
        hook = None if on_commit is None else (lambda _storage: on_commit(self))
        return WriteApi(self.storage, on_commit=hook, origin=origin)

    def nuggets(self, name: str, *, origin: str | None = None) -> NuggetsApi:
        """The Nuggets API of the nugget ``name`` (verbatim) over this store; ``origin`` names
        the writer in the change log, as for ``write_api``."""
        return NuggetsApi(self.storage, name, origin=origin)

    def membrane(self, *, origin: str | None = None) -> MembraneApi:
        """Membrane's API (retrieval over every node, attributes) over this store; ``origin``
        names the writer in the change log, as for ``write_api``."""
        return MembraneApi(self.storage, origin=origin)

    def vectors(self, *, origin: str | None = None) -> VectorApi:
        """The embedding profile, stored vectors and ``vectorSearch`` of this store."""
        return VectorApi(self.storage, origin=origin)

    @property
    def history(self) -> History:
        """Undo/redo over the whole change log (survives reopening the file)."""
        return History(self.storage)

    def history_of(self, origin: str) -> History:
        """Undo/redo of the steps one origin made (e.g. this window's own edits)."""
        return History(self.storage, origin)

    def session(self) -> SessionApi:
        """The seed's 16-method session facade."""
        return SessionApi(self.storage)

    # -- the file --------------------------------------------------------------------------------
    @property
    def path(self) -> str:
        return self.storage.path

    @property
    def origin(self) -> str:
        return self.storage.origin

    @property
    def closed(self) -> bool:
        return self.storage.closed

    @property
    def read_only(self) -> str:
        """Why the store is read-only: ``""`` (it is writable), ``"file"`` (writes raise
        ``STORE_READ_ONLY``) or ``"folder"`` (``STORE_FOLDER_READ_ONLY``)."""
        return self.storage.read_only

    @contextmanager
    def reading(self, *, leave_to_watcher: bool = False) -> Iterator[Graph]:
        """Hold the store lock and yield the in-memory graph, caught up with other processes
        (while another thread reloads it whole, the last consistent graph; with
        ``leave_to_watcher``, as of the running watcher's last poll: see ``Store.reading``)."""
        with self.storage.reading(leave_to_watcher=leave_to_watcher) as graph:
            yield graph

    @property
    def graph(self) -> Graph:
        """The in-memory graph as of now (synced). Hold ``reading()`` while iterating it."""
        return self.storage.graph

    @property
    def stamp(self) -> tuple[str, int]:
        """The content version caught up to, comparable with ``StorePreview.stamp``."""
        return self.storage.stamp

    @property
    def peek_graph(self) -> Graph:
        """The graph without the lock or a catch-up, for single lookups (see ``Store.peek_graph``)."""
        return self.storage.peek_graph

    def warm_up(self) -> None:
        """Build the lazily made indexes now (edge lists, name / lexical / keyword search, the
        timeline, the structure arrays of projections, the Nuggets notes, Membrane's candidates):
        a long-running caller (``memgraph call -``, a bridge) calls it once after opening, so no
        call pays for them. Writes keep them up to date afterwards."""
        import numpy.ma  # noqa: F401  (np.unique's first call, in projections, imports it: 15 ms)

        from memgraph_gui.core.graph.search import build_indexes
        from memgraph_gui.core.graph.structure_index import graph_arrays
        from memgraph_gui.core.membrane.candidates import candidate_index
        from memgraph_gui.core.nuggets.note_index import note_index

        with self.reading() as graph:
            build_indexes(graph)
            graph_arrays(graph)
            note_index(graph).warm()  # every Nuggets call's (each note parsed once)
            candidate_index(graph)  # every retrieveGraph's (each record read once)

    def sync(self) -> list[ChangeSet]:
        """Apply other processes' commits now; returns (and publishes) their ChangeSets."""
        return self.storage.sync()

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(changeset)`` after every commit seen, in commit order."""
        return self.storage.subscribe(callback)

    def on_new_graph(self, callback: Callable[[Graph], None]) -> Callable[[], None]:
        """Call ``callback(graph)`` with each whole new graph (a bulk load, a reload after
        another process's) before readers see it, on the loading thread; see
        ``Subscriptions.on_new_graph``."""
        return self.storage.on_new_graph(callback)

    def retire_to(self, callback: Callable[[Iterator[bool]], None]) -> Callable[[], None]:
        """Hand each graph this store stops serving to ``callback(steps)`` to free at its own
        pace; see ``Subscriptions.retire_to``."""
        return self.storage.retire_to(callback)

    def start_watcher(self, interval: float = 0.05) -> None:
        """Poll for other processes' commits on a daemon thread."""
        self.storage.start_watcher(interval)

    def stop_watcher(self) -> None:
        self.storage.stop_watcher()

    def history_retention(self) -> retention.Retention:
        """How much change log (undo history) this store keeps."""
        return self.storage.read_aside(retention.read)

    def set_history_retention(self, max_steps: Any, max_days: Any) -> retention.Retention:
        """Keep at most ``max_steps`` undo steps, none older than ``max_days`` (0 = no limit)."""
        limits = retention.parse(max_steps, max_days)
        self.storage.write_aside(lambda conn: retention.write(conn, limits))
        return limits

    def replace_all(
        self,
        nodes: list[Node],
        edges: list[Edge],
        meta: dict[str, Any],
        *,
        backup: bool = True,
        if_empty: bool = False,
        keep_meta: tuple[str, ...] = (),
        progress: Callable[[int, int], None] | None = None,
    ) -> ChangeSet:
        """Bulk-load a whole graph (import, demo), replacing everything and clearing the history;
        a store that held nodes is first copied to ``NAME.bak`` (inside the same write lock)
        unless ``backup`` is False. Readers see the old graph until it commits; see
        ``Store.replace_all`` (``if_empty``, ``keep_meta``, ``progress``)."""
        return self.storage.replace_all(
            nodes,
            edges,
            meta,
            backup=backup,
            if_empty=if_empty,
            keep_meta=keep_meta,
            progress=progress,
        )

    # -- layout ----------------------------------------------------------------------------------
    def layout_input(self, *, include_positions: bool = True) -> LayoutInput:
        """The active nodes (timeline order) and their edges as a ``LayoutInput``; ``start``
        holds saved positions (with ``include_positions``) and pins, ``pinned`` the pins."""
        return layout_io.layout_input(self.storage, include_positions=include_positions)

    def positions(self) -> dict[str, tuple[float, float]]:
        """Saved positions of existing nodes, pins applied."""
        return layout_io.saved_positions(self.storage)

    def save_positions(self, ids: Sequence[str], pos: np.ndarray) -> int:
        """Replace the saved positions (``pos[i]`` for ``ids[i]``) in one transaction; not an
        undo step and no ChangeSet. ``STORE_READ_ONLY`` etc. as for any write."""
        return layout_io.save_positions(self.storage, ids, pos)

    def picture(self) -> Picture:
        """What the window draws: the active nodes in timeline order, the edges among them,
        saved positions and pins (``Picture``); any thread."""
        return layout_io.picture(self.storage)

    def refresh_picture(self, *, min_nodes: int | None = None) -> bool:
        """Keep the picture stored with the layout current (a big memory's open draws it from
        one read); True when one was written or dropped. See ``layout_io.refresh_picture``."""
        return layout_io.refresh_picture(self.storage, min_nodes=min_nodes)

    def picture_wanted(self, *, min_nodes: int | None = None) -> bool:
        """Would ``refresh_picture`` write or drop something? A few SQL reads; any thread."""
        return layout_io.picture_wanted(self.storage, min_nodes=min_nodes)

    def pins(self) -> dict[str, tuple[float, float]]:
        """Pinned positions (set with ``write_api().set_pins``, undoable)."""
        return layout_io.pins(self.storage)

    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every graph table's rows (nodes, edges, meta) in a stable order."""
        return self.storage.read_aside(dump_tables)

    def close(self) -> None:
        """Stop the watcher and close the file (idempotent)."""
        self.storage.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def seen_memory(store: MemoryStore, trust: TrustContext) -> MemoryStore:
    """A new private in-memory ``MemoryStore`` holding ``store`` as a Membrane caller with
    ``trust`` sees it (``membrane.seen.seen_store``; a note whose links lose an omitted note
    gets its Nuggets vector spec made again), its edge lists built. The caller closes it."""
    seen = MemoryStore(seen_store(store.storage, trust, refresh_note=_note_vector))
    with seen.reading() as graph:
        graph.index_edges()
    return seen


def _note_vector(node: Node, fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` of the note ``node`` with its vector spec made from them (as a write does)."""
    note = {**fields, "id": node.id, "title": node.title, "hidden": node.archived}
    fields["vector"] = vector_spec(note)
    return fields


def open_session(store: MemoryStore | str | os.PathLike[str] | None) -> SessionApi | None:
    """The seed's session facade on ``store`` (a ``MemoryStore`` or the path of an existing file).

    Returns None, as the seed says, when there is no store: None, a closed store, a missing file or
    a file that cannot be opened as a memory store (logged as a warning).
    """
    if store is None:
        return None
    if isinstance(store, MemoryStore):
        return None if store.closed else store.session()
    try:
        return MemoryStore.open(store, create=False).session()
    except MemgraphError as exc:
        log.warning("memgraph: cannot open a session on %s: %s", store, exc)
        return None

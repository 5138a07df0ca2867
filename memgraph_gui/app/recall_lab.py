"""The Recall lab: "what would recall pick for this message?", asked before the chat does.

``RecallLab`` (owned by the ``AppModel`` as ``recall_lab``; no widgets) holds the message typed
and the nugget chosen, and runs the four rankings of the store for it off the GUI thread:
``keywordSearch``, ``vectorSearch`` (the active embedding profile), ``searchNotes`` (the nugget
chosen) and ``retrieveGraph`` (under the trust lens; with the lens off, the curator's full
trust: every sensitivity, every scope). Each ranking is kept with its scores, or with the error
its API raised (``NO_EMBEDDING_PROFILE`` while no profile is set: nothing is faked).

Every answer carries what it was for (the message, the nugget, the trust, the store and its
stamp) and lands only if the lab still asks exactly that of that store: a result for an older
message, another nugget or lens, or a store since replaced is dropped. Any change to the memory
(an edit in the inspector, another process's write) runs the rankings again, debounced.

``marks()`` gives, per ranking, the node ids the graph marks for it, and the nodes Run recall
picked (``route``: the route model's input, Run recall and applying its picks, in
``app.recall_route``). GUI thread only.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from memgraph_gui.app.lens_retrieval import MAX_HOPS, ROOT_LIMIT
from memgraph_gui.app.nuggets_desk import is_note
from memgraph_gui.app.qt import QObject, Qt, QTimer, Signal, SignalInstance, tr
from memgraph_gui.app.recall_route import RecallRoute, RouteHost, route_for
from memgraph_gui.core.domain.errors import MemgraphError, as_memgraph_error
from memgraph_gui.core.membrane.model import SENSITIVITIES
from memgraph_gui.core.membrane.trust import TrustContext

if TYPE_CHECKING:
    from memgraph_gui.core.domain.changes import ChangeSet
    from memgraph_gui.core.domain.model import Node
    from memgraph_gui.core.memory import MemoryStore

log = logging.getLogger(__name__)

RANKINGS = ("keyword", "vector", "notes", "retrieve")
"""The lab's rankings, in the order the dock shows them side by side."""
MARK_KEYS = (*RANKINGS, "picked")
"""What the graph marks: each ranking's nodes, and the nodes Run recall picked."""
K = 20
"""How many nodes each ranking returns (the seed's default ``k``)."""
NOTES_LIMIT = 20
"""How many notes ``searchNotes`` returns (Nuggets' own default is 5: the lab shows more)."""
RERUN_MS = 250
"""A change to the memory runs the rankings again this long after the last one."""
TYPE_MS = 200
"""A message typed runs the rankings this long after the last keystroke."""
PREPARE_AFTER_MS = 1200
"""``prepare`` starts this long after the lab is shown (not while the window redraws)."""
FULL_TRUST = TrustContext(SENSITIVITIES[-1], True, "", ())
"""The trust ``retrieveGraph`` runs with while the lens is off: the curator's, who sees every
record in full (every sensitivity up to the highest, every scope)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One ranked node: its id, its title as plain text, its score and what else its ranking
    says of it, in a line (``detail``: e.g. ``text 0.50 · vector 0.12``, ``root``) and per
    column of ``extra_columns`` (``parts``)."""

    node_id: str
    title: str
    score: float
    detail: str = ""
    parts: tuple[str, ...] = ()  # the values of its ranking's ``extra_columns``


@dataclass(frozen=True, slots=True)
class Ranking:
    """One ranking's answer: ``hits`` best first, or the ``error`` its API raised."""

    key: str
    hits: tuple[Hit, ...] = ()
    error: MemgraphError | None = None

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(h.node_id for h in self.hits)


@dataclass(frozen=True, slots=True)
class Query:
    """What the lab asks: the message, the nugget for ``searchNotes`` (None: the store has no
    notes) and the trust for ``retrieveGraph`` (None: the lens is off, full trust)."""

    message: str
    nugget: str | None = None
    trust: TrustContext | None = None


@dataclass(frozen=True, slots=True)
class LabResult:
    """The four rankings of ``query`` over the store as of ``stamp``, and how long they took
    together (``seconds``, on the worker thread)."""

    query: Query
    stamp: tuple[str, int]
    rankings: Mapping[str, Ranking] = field(default_factory=dict)
    seconds: float = 0.0


def rank_all(store: MemoryStore, query: Query, k: int = K) -> dict[str, Ranking]:
    """The four rankings of ``query.message`` over ``store`` (any thread; reads only). Each
    ranking that raises keeps its error; the others still run."""
    out: dict[str, Ranking] = {}
    message = query.message
    read = store.read_api()

    def ranked(key: str, fn: Any) -> None:
        try:
            out[key] = Ranking(key, tuple(fn()))
        except Exception as exc:  # a refusal, or the store closed meanwhile
            error = exc if isinstance(exc, MemgraphError) else as_memgraph_error(exc)
            out[key] = Ranking(key, (), error)

    def keyword() -> list[Hit]:
        rows = read.keyword_search(query=message, k=k)
        return [Hit(r.node.id, r.node.title or r.node.id, float(r.score)) for r in rows]

    def vector() -> list[Hit]:
        rows = read.vector_search(query=message, k=k)
        return [Hit(r.node.id, r.node.title or r.node.id, float(r.score)) for r in rows]

    def notes() -> list[Hit]:
        if query.nugget is None:
            raise MemgraphError("NO_NOTES", "this memory holds no Nuggets notes")
        rows = store.nuggets(query.nugget).search_notes(message, NOTES_LIMIT)
        return [_note_hit(row) for row in rows]

    def retrieve() -> list[Hit]:
        trust = query.trust or FULL_TRUST
        answer = store.membrane().retrieve_graph(
            message, trust, root_limit=ROOT_LIMIT, max_hops=MAX_HOPS
        )
        ids = [str((n.get("record") or {}).get("id", "")) for n in answer.get("nodes") or ()]
        with store.reading() as graph:
            found = (graph.nodes.get(i) for i in ids)
            titles = {n.id: n.title or n.id for n in found if n is not None}
        return _retrieve_hits(answer, titles)

    ranked("keyword", keyword)
    ranked("vector", vector)
    ranked("notes", notes)
    ranked("retrieve", retrieve)
    return out


def _note_hit(row: Mapping[str, Any]) -> Hit:
    note = row.get("note") or {}
    detail = tr("text {text} · vector {vector}").format(
        text=f"{float(row.get('textScore', 0.0)):.2f}",
        vector=f"{float(row.get('vectorScore', 0.0)):.2f}",
    )
    note_id = str(note.get("id", ""))
    parts = (f"{float(row.get('textScore', 0.0)):.2f}", f"{float(row.get('vectorScore', 0.0)):.2f}")
    title = str(note.get("title") or note_id)
    return Hit(note_id, title, float(row.get("score", 0.0)), detail, parts)


def _retrieve_hits(answer: Mapping[str, Any], titles: Mapping[str, str]) -> list[Hit]:
    """A ``RetrieveGraphResponse`` as ranked rows: the roots in root order, then the nodes
    expansion reached, by hop; each with its salience as its score (``retrieveGraph`` gives
    no other) and its hop, titled as the window titles the node (``titles``: node id ->
    title). A redacted record's title is its id: its payload is not the caller's to read."""
    roots = [str(i) for i in answer.get("root_ids") or ()]
    rows: dict[str, Hit] = {}
    for node in answer.get("nodes") or ():
        record = node.get("record") or {}
        node_id = str(record.get("id", ""))
        if not node_id:
            continue
        hop = int(node.get("hop", 0))
        redacted = "payload" not in record
        title = node_id if redacted else titles.get(node_id) or node_id
        detail = tr("root") if hop == 0 else tr("hop {hop}").format(hop=hop)
        if redacted:
            detail += tr(" · redacted")
        salience = float(record.get("salience", 0.0) or 0.0)
        hop_text = tr("root") if hop == 0 else str(hop)
        rows[node_id] = Hit(node_id, title, salience, detail, (hop_text,))
    order = [i for i in roots if i in rows]
    rest = sorted(
        (i for i in rows if i not in set(roots)),
        key=lambda i: rows[i].detail,
    )
    return [rows[i] for i in (*order, *rest)]


def extra_columns(key: str) -> tuple[str, ...]:
    """The headers of what a ranking says of each node besides its score (``Hit.parts``):
    ``searchNotes``'s text and vector scores, ``retrieveGraph``'s hop."""
    if key == "notes":
        return (tr("Text"), tr("Vector"))
    if key == "retrieve":
        return (tr("Hop"),)
    return ()


def problem_text(ranking: Ranking) -> str:
    """What the dock says in place of a ranking that raised: plainly, and what to do."""
    error = ranking.error
    if error is None:
        return ""
    if error.code == "NO_EMBEDDING_PROFILE":
        return tr(
            "No embedding profile is set for this memory, so vectorSearch has nothing to "
            "search. Choose one in Tools ▸ Embedding profile…, or run “memgraph --db FILE "
            "embed --profile hashed-ngrams-v1” in a terminal."
        )
    if error.code == "NO_NOTES":
        return tr("This memory holds no Nuggets notes: searchNotes has no nugget to search.")
    return tr("{code}: {message}").format(code=error.code, message=error.message)


class LabHost(RouteHost, Protocol):
    """The AppModel as the lab reads it (and hands on to its ``RecallRoute``): besides what
    the route reads, a node as the lens shows it, the store's nuggets and when changes land.
    ``AppModel`` satisfies it; it is typed so because ``app_model`` imports this module: the
    app folder reads top-down."""

    @property
    def changes_applied(self) -> SignalInstance: ...

    def node(self, node_id: str) -> Node | None: ...

    def nuggets(self) -> list[str]: ...


class RecallLab(QObject):
    """The lab's state over ``app`` (see the module docstring). GUI thread only.

    Signals: ``result_changed(LabResult | None)`` when rankings land (None: cleared, e.g. the
    message was emptied or another store opened); ``running_changed(bool)``;
    ``marks_changed()`` when ``marks()`` changed; ``nuggets_changed(list[str])`` when the
    store's nuggets changed (the dock's combo follows).
    """

    result_changed = Signal(object)
    running_changed = Signal(bool)
    marks_changed = Signal()
    nuggets_changed = Signal(object)
    _arrived = Signal(object)

    def __init__(self, app: LabHost) -> None:
        super().__init__(app if isinstance(app, QObject) else None)  # the AppModel's Qt child
        self._app = app
        self.message = ""
        self.nugget: str | None = None
        self.result: LabResult | None = None
        self.running = False
        self.marking = True  # the graph marks the rankings (the dock turns it off when hidden)
        self._ticket = 0
        self._nuggets: list[str] = []
        self._prepared: MemoryStore | None = None  # the store whose indexes ``prepare`` built
        self._timer = QTimer(self, singleShot=True, interval=TYPE_MS)
        self._timer.timeout.connect(self.run_now)
        self._arrived.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self._on_store_replaced)
        app.lens.changed.connect(self._on_lens_changed)
        self._refresh_nuggets()
        self.route = RecallRoute(app, self)  # the route input, Run recall, apply

    # -- what is asked -------------------------------------------------------------------------------
    def query(self) -> Query:
        """What the lab asks now."""
        return Query(self.message, self.nugget, self._app.lens.trust)

    def set_message(self, text: str) -> None:
        """Ask for ``text`` (debounced: the rankings run ``TYPE_MS`` after the last call). A
        blank message clears the answer shown."""
        if text == self.message:
            return
        self.message = text
        self.route.forget()  # its picks were for the message before
        if not text.strip():
            self._timer.stop()
            self._drop()
            return
        self._timer.start(TYPE_MS)

    def nuggets(self) -> list[str]:
        """The store's nuggets, sorted (the choices of ``set_nugget``)."""
        return list(self._nuggets)

    def set_nugget(self, name: str | None) -> None:
        """Search the notes of ``name`` (one of ``nuggets()``) with ``searchNotes``."""
        if name == self.nugget:
            return
        self.nugget = name
        self._again(0)

    def set_marking(self, on: bool) -> None:
        """Whether the graph marks the lab's rankings (off while the dock is hidden). On, the
        store's search indexes are built off the GUI thread if not yet (``prepare``, a moment
        later)."""
        if on:  # once the window has laid out and drawn the dock (a 50k graph's repaint)
            QTimer.singleShot(PREPARE_AFTER_MS, self, self.prepare)
        if on != self.marking:
            self.marking = on
            self.marks_changed.emit()

    def prepare(self) -> None:
        """Build what the rankings and the route input read (the keyword index, Membrane's,
        the notes' and the vectors' indexes, the candidate rows: ~1-2 s at 50k nodes, once per
        graph) on a worker thread now, so the first message typed is answered as fast as the
        next ones. Nothing lands; once per store."""
        store = self._app.store
        if self._prepared is store or self._app.closed:
            return
        self._prepared = store
        query = Query("prepare", self.nugget, self._app.lens.trust)

        def work() -> None:
            try:
                rank_all(store, query, 1)
                route_for(store, query.message)  # (refusals are kept in its answer)
            except Exception:  # the store closed meanwhile: nothing to prepare
                log.debug("memgraph: preparing the Recall lab failed", exc_info=True)

        threading.Thread(target=work, name="memgraph-recall-lab-prepare", daemon=True).start()

    # -- running -------------------------------------------------------------------------------------
    def run_now(self) -> None:
        """Run the four rankings for the message now, off the GUI thread (nothing for a blank
        message). The answer lands as ``result_changed`` if the lab still asks the same."""
        self._timer.stop()
        query = self.query()
        if not query.message.strip() or self._app.closed:
            return
        self._ticket += 1
        ticket, store = self._ticket, self._app.store
        self._set_running(True)

        def work() -> None:
            try:
                stamp = store.stamp
                started = time.perf_counter()
                rankings = rank_all(store, query)
                result: Any = LabResult(query, stamp, rankings, time.perf_counter() - started)
            except Exception as exc:  # the store closed meanwhile
                result = exc
            self._arrived.emit((ticket, store, query, result))

        threading.Thread(target=work, name="memgraph-recall-lab", daemon=True).start()

    def marks(self) -> dict[str, tuple[str, ...]]:
        """Per key of ``MARK_KEYS``, the node ids the graph marks for it (none while
        ``marking`` is off or nothing landed)."""
        out: dict[str, tuple[str, ...]] = {key: () for key in MARK_KEYS}
        if not self.marking or self.result is None:
            return out
        for key, ranking in self.result.rankings.items():
            out[key] = ranking.ids
        if self.route.picked is not None:
            out["picked"] = self.route.picked.ids
        return out

    def through_lens(self, ranking: Ranking) -> tuple[Ranking, int]:
        """``ranking`` as the window may show it now, and how many of its nodes it leaves out:
        while the trust lens is on, each node titled as ``AppModel.node`` gives it (a redacted
        one by its id and memory type) and those the actor may not see at all left out; with
        the lens off, ``ranking`` itself (0)."""
        if not self._app.lens.on:
            return ranking, 0
        hits, hidden = [], 0
        for hit in ranking.hits:
            node = self._app.node(hit.node_id)
            if node is None:
                hidden += 1
            else:
                hits.append(replace(hit, title=node.title or hit.node_id))
        return replace(ranking, hits=tuple(hits)), hidden

    def _deliver(self, item: tuple[int, MemoryStore, Query, Any]) -> None:
        ticket, store, query, result = item
        if ticket != self._ticket or self._app.closed or store is not self._app.store:
            return  # asked again since, or for a store replaced
        self._set_running(False)
        if query != self.query() or isinstance(result, BaseException):
            return  # for an older message, nugget or lens (its own run is on the way)
        self.result = result
        self.result_changed.emit(result)
        self.marks_changed.emit()

    def _set_running(self, running: bool) -> None:
        if running != self.running:
            self.running = running
            self.running_changed.emit(running)

    def _drop(self) -> None:
        """Forget the answer shown and any on the way."""
        self._ticket += 1
        self._set_running(False)
        if self.result is not None:
            self.result = None
            self.result_changed.emit(None)
            self.marks_changed.emit()

    def _again(self, delay: int) -> None:
        """Run again for the message asked (if any), ``delay`` ms from now, or sooner when a
        run is due already (a writer changing the memory every few milliseconds must not put
        the run off for ever)."""
        if not self.message.strip():
            return
        if self._timer.isActive() and self._timer.remainingTime() <= delay:
            return
        self._timer.start(delay)

    # -- what changed --------------------------------------------------------------------------------
    def _on_changes_applied(self, changes: ChangeSet, _initiator: object | None) -> None:
        if changes.empty and not changes.reloaded:
            return
        if changes.reloaded or changes.nodes_added or changes.nodes_removed:
            self._refresh_nuggets()
        elif any(_is_note_change(self._app, i) for i in changes.nodes_updated):
            self._refresh_nuggets()
        self._again(RERUN_MS)

    def _on_store_replaced(self) -> None:
        self._drop()
        if self.marking:
            self.prepare()
        self._refresh_nuggets()
        self._again(0)

    def _on_lens_changed(self) -> None:
        trust = self._app.lens.trust
        if self.result is not None and self.result.query.trust == trust:
            return  # only some node's tier moved: a change to the memory runs it again
        self._again(0)

    def _refresh_nuggets(self) -> None:
        names = self._app.nuggets()
        if names != self._nuggets:
            self._nuggets = names
            self.nuggets_changed.emit(list(names))
        if self.nugget not in names:
            self.nugget = names[0] if names else None


def _is_note_change(app: LabHost, node_id: str) -> bool:
    return is_note(app.node(node_id))

"""The trust lens: the window seen as one Membrane caller would see it (issue 22, "View as").

``TrustLens`` holds the lens's ``TrustContext`` (None: off, the curator's full view), remembered
per store file in ``QSettings``, and every node's tier for it (``core.membrane.index.tiers``:
full, redacted or omitted), computed off the GUI thread when the lens is switched on or the graph
is replaced, and kept up to date on the GUI thread as nodes change (ours or another process's
``changes_applied``; a change to the people-set attributes, meta ``OVERRIDES``, recomputes them
all off the GUI thread). ``changed`` says when the trust or some node's tier changed: the views
then draw again through the app model. The lens is remembered on its own writer thread;
``retrieval`` runs "Retrieve for a task…" with it (``app.lens_retrieval``).

``LensReads`` (mixed into ``AppModel`` ahead of ``StoreReads``) is how every view obeys the lens
without knowing about it: while the lens is on, ``node`` gives None for an omitted node and a
*redacted node* for a redacted one (``core.membrane.seen.redacted_node``: its title its id and
memory type, its fields exactly the seed's eight redacted keys, ``REDACTED_KEYS``; the seen
store of ``memgraph mcp --trust`` holds the same form); ``edges_of`` leaves out the edges of omitted
nodes and the edges leaving redacted ones (a redacted record's relations are stripped: seed);
the timeline's rows and the find's matches leave out omitted nodes and find a redacted node only
by what it shows. The writes are unchanged (a view keeps editing off for a redacted node).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import filterfalse, repeat
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

from memgraph_gui.app.lens_retrieval import LensRetrieval, RetrievalHost
from memgraph_gui.app.process_tuning import bulk_work
from memgraph_gui.app.qt import QObject, QSettings, Qt, Signal, SignalInstance, tr
from memgraph_gui.app.reads import TimelineRows, all_timeline_rows
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.model import Edge, Node
from memgraph_gui.core.domain.text import FIND_SEPARATOR, find_needle
from memgraph_gui.core.membrane.attributes import OVERRIDES, Attributes
from memgraph_gui.core.membrane.index import all_attributes, attributes
from memgraph_gui.core.membrane.model import SENSITIVITIES
from memgraph_gui.core.membrane.seen import redacted_node
from memgraph_gui.core.membrane.trust import (
    REDACTED_KEYS,
    Tier,
    TrustContext,
    parse_trust,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from memgraph_gui.app.selection import Selection
    from memgraph_gui.core.domain.changes import ChangeSet
    from memgraph_gui.core.graph.graph import Graph
    from memgraph_gui.core.memory import MemoryStore

log = logging.getLogger(__name__)

SETTINGS_GROUP = "trust_lens"
"""Where the lens of each store file is remembered (one key per file: a hash of its path)."""
OMITTED, REDACTED = 1, 2
"""``TrustLens.codes()``: a node's tier as a small number (full is 0, not listed)."""
SYNC_LIMIT = 2000
"""Changed nodes above which their tiers are recomputed off the GUI thread, all at once."""

__all__ = [
    "OMITTED",
    "REDACTED",
    "REDACTED_KEYS",
    "SENSITIVITIES",
    "LensReads",
    "TrustContext",
    "TrustLens",
    "describe",
    "load_remembered",
    "make_trust",
    "remember",
]


def make_trust(
    actor: str, max_sensitivity: str, scopes: str, authenticated: bool = False
) -> TrustContext:
    """The lens a person typed: ``scopes`` comma-separated (blanks dropped; none: every
    scope). ``INVALID_ARGUMENT`` for a level not among ``SENSITIVITIES``."""
    parts = tuple(dict.fromkeys(p.strip() for p in scopes.split(",") if p.strip()))
    return parse_trust(
        {
            "max_sensitivity": max_sensitivity,
            "authenticated": bool(authenticated),
            "actor_id": actor.strip(),
            "scopes": list(parts),
        },
        "lens",
    )


def describe(trust: TrustContext) -> str:
    """Whose view this is, for the window's banner: "Viewing as build-agent — up to medium,
    scopes project-auth" ("every scope" when none are given; "authenticated" when it is)."""
    actor = trust.actor_id or tr("an anonymous actor")
    if trust.scopes:
        scopes = tr("scopes {scopes}").format(scopes=", ".join(trust.scopes))
    else:
        scopes = tr("every scope")
    text = tr("Viewing as {actor} — up to {level}, {scopes}").format(
        actor=actor, level=trust.max_sensitivity, scopes=scopes
    )
    if trust.authenticated:
        text += tr(" (authenticated)")
    return text


def _key(path: str) -> str:
    digest = hashlib.sha1(path.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    return f"{SETTINGS_GROUP}/{digest}"


def load_remembered(path: str, settings: QSettings | None = None) -> TrustContext | None:
    """The lens last left on for the store file ``path`` (None: off, an unsaved memory, or
    nothing remembered / malformed)."""
    if not path or path == ":memory:":
        return None
    s = settings if settings is not None else _settings()
    text = s.value(_key(path), "")
    if not isinstance(text, str) or not text:
        return None
    try:
        return parse_trust(json.loads(text), "lens")
    except (ValueError, MemgraphError):
        return None


def remember(path: str, trust: TrustContext | None, settings: QSettings | None = None) -> None:
    """Remember ``trust`` (None: the full view) for the store file ``path``."""
    if not path or path == ":memory:":
        return
    s = settings if settings is not None else _settings()
    if trust is None:
        s.remove(_key(path))
    else:
        s.setValue(_key(path), json.dumps(trust.to_json()))
    s.sync()


def _settings() -> QSettings:
    from memgraph_gui.app.settings import settings

    return settings()


T = TypeVar("T")


class LensHost(RetrievalHost, Protocol):
    """The AppModel as the lens reads it (and hands on to its ``LensRetrieval``): the open
    store, its file (``opening`` while one is coming), reads under its lock, the selection, and
    when changes land, another store opens or the app closes. ``AppModel`` satisfies it; it is
    typed so because ``app_model`` imports this module: the app folder reads top-down."""

    @property
    def path(self) -> str: ...

    @property
    def opening(self) -> str | None: ...

    @property
    def selection(self) -> Selection: ...

    @property
    def changes_applied(self) -> SignalInstance: ...

    @property
    def closing(self) -> SignalInstance: ...

    def read(self, fn: Callable[[Graph], T]) -> T: ...


class TrustLens(QObject):
    """The lens over one ``AppModel`` (see the module docstring). GUI thread only.

    ``trust`` is the lens (None: off); ``ready`` is False while its tiers are being computed
    (the views keep what they show until ``changed``). ``version`` grows at every change, so
    views can memoise what they derive from the tiers.
    """

    changed = Signal()
    _computed = Signal(object)

    def __init__(self, app: LensHost) -> None:
        super().__init__(app if isinstance(app, QObject) else None)  # the AppModel's Qt child
        self._app = app
        self.trust: TrustContext | None = None
        self.ready = True
        self.version = 0
        self.omitted: frozenset[str] = frozenset()
        self.redacted: frozenset[str] = frozenset()
        self._masked: dict[str, tuple[Node, Node]] = {}
        self._codes: tuple[int, dict[str, int]] | None = None
        self._texts: dict[str, str] = {}  # a redacted node's ``search_text``
        self.rows: TimelineRows | None = None
        """The timeline's unfiltered rows under the lens, made with the tiers (None: stale)."""
        self._hinted: tuple[str, ...] | None = None
        self._row_codes: tuple[tuple[str, ...], np.ndarray | None] | None = None
        self._ticket = 0
        self._writes = ThreadPoolExecutor(1, "memgraph-trust-lens-settings")
        self._computed.connect(self._on_computed, Qt.ConnectionType.QueuedConnection)
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self.restore)
        app.closing.connect(lambda: self._writes.shutdown(wait=True))
        self.retrieval = LensRetrieval(app, self)  # "Retrieve for a task…" with this lens

    # -- state ---------------------------------------------------------------------------------
    @property
    def on(self) -> bool:
        """Whether the window shows one actor's view (the tiers may still be coming)."""
        return self.trust is not None

    def set_trust(self, trust: TrustContext | None) -> None:
        """Look through ``trust`` (None: back to the full view), remembered for this store
        file. Turning it off is immediate; turning it on computes the tiers off the GUI thread
        and says ``changed`` when they are in (the GUI thread spends only the views' redraw)."""
        if trust == self.trust:
            return
        self.trust = trust
        self._remember(trust)
        if trust is None:
            self._ticket += 1
            self.ready = True
            self._set_tiers(frozenset(), frozenset())
        else:
            self._compute()

    def _remember(self, trust: TrustContext | None) -> None:
        """Remember ``trust`` for this store file on the lens's own writer thread, in order
        (writing the settings file took ~20 ms of the switch on the GUI thread)."""
        path = self._app.path
        if path and path != ":memory:" and not self._app.closed:
            self._writes.submit(remember, path, trust)

    def flush(self) -> None:
        """Wait until the lens is remembered (tests; a store reopened reads it first)."""
        if not self._app.closed:
            self._writes.submit(lambda: None).result()

    def codes(self) -> dict[str, int]:
        """Node id -> ``OMITTED`` or ``REDACTED`` for every node not read in full (memoised per
        ``version``: views turn it into arrays over their rows in one C-level pass)."""
        memo = self._codes
        if memo is None or memo[0] != self.version:
            codes = dict.fromkeys(self.omitted, OMITTED)
            codes.update(dict.fromkeys(self.redacted, REDACTED))
            memo = self._codes = (self.version, codes)
        return memo[1]

    def hint_rows(self, ids: tuple[str, ...]) -> None:
        """The rows the graph draws: their codes are made with the next tiers, off the GUI
        thread (``row_codes``)."""
        self._hinted = ids

    def row_codes(self, ids: tuple[str, ...]) -> np.ndarray | None:
        """Per row of ``ids`` its code (0 full, ``OMITTED``, ``REDACTED``) if made with the
        tiers shown now for exactly these rows, else None."""
        made = self._row_codes
        return made[1] if made is not None and made[0] is ids else None

    def redacted_finds(self, needle: str) -> set[str]:
        """The redacted nodes a find ``needle`` (``find_needle``'s) finds by what they show
        (all of them when it is blank): ~2 ms for 17k redacted nodes."""
        if not needle:
            return set(self.redacted)
        texts = self._texts
        return {i for i in self.redacted if needle in texts.get(i, i.casefold())}

    def tier(self, node_id: str) -> Tier:
        """``node_id``'s tier under the lens ("full" while it is off)."""
        if node_id in self.omitted:
            return "omitted"
        return "redacted" if node_id in self.redacted else "full"

    def wait(self, timeout: float = 10.0) -> None:
        """Block until the tiers in flight are in (tests, scripts). GUI thread."""
        from memgraph_gui.app.qt import QCoreApplication, QElapsedTimer, QEventLoop

        clock = QElapsedTimer()
        clock.start()
        while not self.ready and clock.elapsed() < timeout * 1000:
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)

    # -- what a view is shown ----------------------------------------------------------------------
    def shown(self, node: Node | None) -> Node | None:
        """``node`` as the lens shows it: itself (full), its redacted form, or None."""
        if node is None or (not self.omitted and not self.redacted):
            return node
        node_id = node.id
        if node_id in self.omitted:
            return None
        if node_id not in self.redacted:
            return node
        memo = self._masked.get(node_id)
        if memo is not None and memo[0] is node:
            return memo[1]
        masked = self._redacted_node(node)
        self._masked[node_id] = (node, masked)
        return masked

    def _redacted_node(self, node: Node) -> Node:
        title = tr("{id} · {type} · redacted")  # (core.membrane.seen.REDACTED_TITLE, translated)
        return self._app.read(lambda graph: redacted_node(graph, node, title))

    def keeps_edge(self, edge: Edge) -> bool:
        """Whether an edge shows under the lens: neither end omitted, not leaving a redacted
        node."""
        omitted = self.omitted
        return (
            edge.from_id not in omitted
            and edge.to_id not in omitted
            and edge.from_id not in self.redacted
        )

    # -- tiers ---------------------------------------------------------------------------------
    def _compute(self) -> None:
        """Compute every node's tier for the lens on a plain thread; the last one wins."""
        trust = self.trust
        assert trust is not None
        self._ticket += 1
        self.ready = False
        ticket, store, hinted = self._ticket, self._app.store, self._hinted

        def work() -> None:
            try:
                with bulk_work():  # ~10^5 objects: no collection of the heap on the way
                    result: Any = _lens_reads(store, trust, hinted)
            except Exception as exc:  # the store closed meanwhile: dropped below
                result = exc
            self._computed.emit((ticket, store, result))

        threading.Thread(target=work, name="memgraph-trust-lens", daemon=True).start()

    def _on_computed(self, item: tuple[int, MemoryStore, Any]) -> None:
        ticket, store, result = item
        if ticket != self._ticket or self._app.closed or store is not self._app.store:
            return
        self.ready = True
        if isinstance(result, Exception):
            log.warning("memgraph: the trust lens's tiers failed", exc_info=result)
            return
        self._set_tiers(result.omitted, result.redacted, result)

    def _set_tiers(
        self, omitted: frozenset[str], redacted: frozenset[str], made: LensReadsMade | None = None
    ) -> None:
        self.omitted, self.redacted = omitted, redacted
        self.rows = None if made is None else made.rows
        if made is not None:
            self._texts = made.texts
        elif not redacted:
            self._texts = {}
        self._masked.clear()
        self.version += 1
        self._codes = None if made is None else (self.version, made.codes)
        hinted = None if made is None else made.hinted
        self._row_codes = None if made is None or hinted is None else (hinted, made.row_codes)
        self._forget_hidden_selection()
        self.changed.emit()

    def _forget_hidden_selection(self) -> None:
        if self.omitted:
            self._app.selection.forget(self.omitted & self._app.selection.ids)

    def restore(self) -> None:
        """Take the lens remembered for the open store (a new store: its own, or off)."""
        self._ticket += 1
        self.ready = True
        self.omitted = self.redacted = frozenset()
        self.rows = None
        self._masked.clear()
        self.flush()
        self.trust = load_remembered(self._app.path) if self._app.opening is None else None
        if self.trust is not None:
            self._compute()
        else:
            self.version += 1
            self.changed.emit()

    def _on_changes_applied(self, changes: ChangeSet, _initiator: object | None) -> None:
        trust = self.trust
        if trust is None:
            return
        touched = changes.nodes_added | changes.nodes_updated | changes.nodes_removed
        if touched or changes.reloaded:
            self.rows = None  # (the timeline reads them again, filtered here)
        if changes.reloaded or OVERRIDES in changes.meta_keys or len(touched) > SYNC_LIMIT:
            self._compute()  # (the tiers shown stay until the new ones are in)
            return
        if not touched:
            return
        if not self.ready:  # the ones being computed may predate this change
            self._compute()
            return
        now = self._app.read(lambda graph: _tiers_of(graph, trust, touched))
        omitted = (self.omitted - touched) | {i for i, (t, _a) in now.items() if t == "omitted"}
        redacted = (self.redacted - touched) | {i for i, (t, _a) in now.items() if t == "redacted"}
        for node_id in touched:
            self._masked.pop(node_id, None)
            self._texts.pop(node_id, None)
            tier_now = now.get(node_id)
            if tier_now is not None and tier_now[0] == "redacted":
                self._texts[node_id] = search_text(node_id, tier_now[1])
        if omitted != self.omitted or redacted != self.redacted:
            self._set_tiers(frozenset(omitted), frozenset(redacted))


def lens_tiers(store: MemoryStore, trust: TrustContext) -> tuple[frozenset[str], frozenset[str]]:
    """The omitted and the redacted nodes of ``store`` for ``trust`` (any thread; holds the
    store lock while it reads)."""
    made = _lens_reads(store, trust)
    return made.omitted, made.redacted


@dataclass(frozen=True, slots=True)
class LensReadsMade:
    """What the lens's worker makes with the tiers, so the GUI thread only shows it: the
    omitted and redacted ids, their ``codes``, the timeline's unfiltered rows under the lens,
    what a find finds each redacted node by (``search_text``) and the codes of the rows
    ``hinted`` (the graph's: ``TrustLens.hint_rows``)."""

    omitted: frozenset[str]
    redacted: frozenset[str]
    codes: dict[str, int]
    rows: TimelineRows
    texts: dict[str, str]
    hinted: tuple[str, ...] | None = None
    row_codes: np.ndarray | None = None


def _lens_reads(
    store: MemoryStore, trust: TrustContext, hinted: tuple[str, ...] | None = None
) -> LensReadsMade:
    """``lens_tiers`` and what the views derive from them (see ``LensReadsMade``), made here,
    off the GUI thread: made there, they took ~40 ms of a 50k switch."""
    with store.reading() as graph:
        attrs = all_attributes(graph)
        base = all_timeline_rows(graph)
    tier = trust.tier
    every = {node_id: tier(a.sensitivity, a.scope) for node_id, a in attrs.items()}
    omitted = frozenset(i for i, t in every.items() if t == "omitted")
    redacted = frozenset(i for i, t in every.items() if t == "redacted")
    texts = {node_id: search_text(node_id, attrs[node_id]) for node_id in redacted}
    codes = dict.fromkeys(omitted, OMITTED)
    codes.update(dict.fromkeys(redacted, REDACTED))
    ids = list(filterfalse(omitted.__contains__, base.ids))
    seqs = dict(zip(ids, map(base.seqs.__getitem__, ids), strict=True))
    rows = TimelineRows(ids, seqs, base.ascii_ids)
    made = None
    if hinted is not None:
        made = np.fromiter(map(codes.get, hinted, repeat(0)), np.int8, len(hinted))
    return LensReadsMade(omitted, redacted, codes, rows, texts, hinted, made)


def _tiers_of(
    graph: Graph, trust: TrustContext, ids: frozenset[str]
) -> dict[str, tuple[Tier, Attributes]]:
    out: dict[str, tuple[Tier, Attributes]] = {}
    for node_id in ids:
        a = attributes(graph, node_id)
        if a is not None:
            out[node_id] = (trust.tier(a.sensitivity, a.scope), a)
    return out


def search_text(node_id: str, a: Attributes) -> str:
    """What a find finds a redacted node by, case-folded: its id, memory type, sensitivity,
    salience, scope and tags (the redacted keys but its stamps) and the word "redacted" of its
    title; the parts joined by ``FIND_SEPARATOR`` as ``node_finds`` looks in them."""
    parts = [node_id, a.memory_type, "redacted", a.sensitivity, f"{a.salience:g}", a.scope]
    return FIND_SEPARATOR.join(p for p in (*parts, *a.tags) if p).casefold()


class LensReads:
    """The AppModel's reads as the lens shows them (mixed in ahead of ``StoreReads``)."""

    lens: TrustLens

    def node(self, node_id: str) -> Node | None:
        """The node as the lens shows it (see the module docstring), or None (lock-free)."""
        return self.lens.shown(super().node(node_id))  # type: ignore[misc]

    def edges_of(self, node_id: str) -> list[Edge]:
        """The edges of ``node_id`` the lens shows (none of an omitted node)."""
        edges: list[Edge] = super().edges_of(node_id)  # type: ignore[misc]
        lens = self.lens
        if not lens.omitted and not lens.redacted:
            return edges
        if node_id in lens.omitted:
            return []
        return [e for e in edges if lens.keeps_edge(e)]

    def timeline_rows(self, passes: Callable[[Node], bool] | None, text: str = "") -> TimelineRows:
        """The timeline's rows without the omitted nodes; a find finds a redacted node only by
        what it shows."""
        lens = self.lens
        if not lens.omitted and not lens.redacted:
            plain: TimelineRows = super().timeline_rows(passes, text)  # type: ignore[misc]
            return plain
        if passes is None and not find_needle(text) and lens.rows is not None:
            made = lens.rows  # (made with the tiers, off the GUI thread)
            return TimelineRows(list(made.ids), dict(made.seqs), made.ascii_ids)
        if not find_needle(text):
            rows: TimelineRows = super().timeline_rows(passes, text)  # type: ignore[misc]
        else:
            hits = self.matching_ids(text)
            if passes is None and lens.rows is not None:  # (the lens's rows, filtered: ~3 ms)
                ids = list(filter(hits.__contains__, lens.rows.ids))
                seqs = dict(zip(ids, map(lens.rows.seqs.__getitem__, ids), strict=True))
                return TimelineRows(ids, seqs, lens.rows.ascii_ids)
            rows = super().timeline_rows(passes)  # type: ignore[misc]
            kept = [i for i in rows.ids if i in hits]
            rows = TimelineRows(kept, {i: rows.seqs[i] for i in kept}, rows.ascii_ids)
        omitted = lens.omitted
        if not omitted:
            return rows
        ids = list(filterfalse(omitted.__contains__, rows.ids))  # (C-level passes: ~5 ms
        seqs = dict(zip(ids, map(rows.seqs.__getitem__, ids), strict=True))  # at 50k)
        return TimelineRows(ids, seqs, rows.ascii_ids)

    def matching_ids(self, text: str) -> set[str]:
        """The ids the find finds under the lens: none omitted, a redacted node by what it
        shows (``search_text``: its id, memory type, sensitivity, salience, scope, tags)."""
        found: set[str] = super().matching_ids(text)  # type: ignore[misc]
        lens = self.lens
        if not lens.omitted and not lens.redacted:
            return found
        found -= lens.omitted
        found -= lens.redacted
        found |= lens.redacted_finds(find_needle(text))
        return found

    def ranked_matches(self, text: str) -> list[str]:
        """``ranked_matches`` under the lens: the matching ids the lens shows, in their order
        (a redacted node found by what it shows comes last)."""
        ranked: list[str] = super().ranked_matches(text)  # type: ignore[misc]
        lens = self.lens
        if (not lens.omitted and not lens.redacted) or not find_needle(text):
            return ranked
        hits = self.matching_ids(text)
        out = [i for i in ranked if i in hits]
        seen = set(out)
        out.extend(sorted(hits - seen))
        return out

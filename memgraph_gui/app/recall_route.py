"""The Recall lab's route part: what Luker's route model is shown for the message, what it picks
when asked, what the chat would then get, and applying that as the injection state.

``RecallRoute`` (the lab's ``route``; no widgets) builds the route model's input
(``core.luker.route_input.build_route_input``: the ``schema_overview`` and ``candidateRows``
blocks, the always-inject ids, the message, their text and a token estimate) off the GUI thread
each time the lab's rankings land, for that message and store stamp; ``Run recall`` sends it to
the chat endpoint the AI draft uses (``app.settings.load_endpoint``, the key from the keyring)
on a worker thread and keeps the ids picked and why (``Picked``) with the preview of what the
chat would get; ``apply`` writes the picks as ONE undoable step. Every answer lands only for the
message (and store) it was for. GUI thread only.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from memgraph_gui.app.llm_client import DraftError, read_api_key, route_recall
from memgraph_gui.app.op_runners import OpRunner
from memgraph_gui.app.qt import QObject, Qt, Signal, SignalInstance, tr
from memgraph_gui.app.settings import DraftEndpoint, load_endpoint
from memgraph_gui.core.domain.errors import MemgraphError, as_memgraph_error
from memgraph_gui.core.luker.route_input import RouteInput, build_route_input

if TYPE_CHECKING:
    from memgraph_gui.app.trust_lens import TrustLens
    from memgraph_gui.core.luker.write_api import WriteApi
    from memgraph_gui.core.memory import MemoryStore

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Routed:
    """The route model's input for ``message`` over the store as of ``stamp`` (``route``), or
    the MemgraphError building it raised (``error``), and how long it took (``seconds``)."""

    message: str
    stamp: tuple[str, int]
    route: RouteInput | None
    error: MemgraphError | None
    seconds: float


@dataclass(frozen=True, slots=True)
class Picked:
    """Run recall's answer for ``message`` (over the route input of the store as of
    ``stamp``): the candidate ids the route model picked (``ids``, in its order) and why
    (``reasons``), the ids it gave that are no candidates (``unknown``: dropped), the
    candidates it saw (``visible_ids``), the always-injected ids, ``preview`` (what the chat
    would get: see ``preview_text``), the ``model`` asked and how long it all took."""

    message: str
    stamp: tuple[str, int]
    ids: tuple[str, ...]
    reasons: Mapping[str, str]
    unknown: tuple[str, ...]
    visible_ids: tuple[str, ...]
    always_ids: tuple[str, ...]
    preview: str
    model: str
    seconds: float


def route_for(store: MemoryStore, message: str) -> Routed:
    """``build_route_input`` for ``message`` over ``store`` (any thread; reads only)."""
    stamp = store.stamp
    started = time.perf_counter()
    try:
        route: RouteInput | None = build_route_input(store.read_api(), message)
        error = None
    except Exception as exc:  # a refusal, or the store closed meanwhile
        route, error = None, exc if isinstance(exc, MemgraphError) else as_memgraph_error(exc)
    return Routed(message, stamp, route, error, time.perf_counter() - started)


def preview_text(store: MemoryStore, always: Sequence[str], picked: Sequence[str]) -> str:
    """What the chat would get: the picked nodes' briefs (those not always injected: what the
    lab decides, first), then the always-injected ones', one compact JSON ``getNodeBrief`` a
    line under a header each (any thread; reads only). A node gone or archived since says so
    in its place."""
    read = store.read_api()
    kept = set(always)
    lines: list[str] = []
    for header, ids in (
        (tr("recall_selected ({count}):"), [i for i in picked if i not in kept]),
        (tr("always_inject ({count}):"), list(always)),
    ):
        lines.append(header.format(count=len(ids)))
        for node_id in ids:
            brief = read.get_node_brief(node_id)
            if brief is None:
                lines.append(tr("{id}: gone or archived since").format(id=node_id))
            else:
                lines.append(json.dumps(brief.to_json(), ensure_ascii=False, separators=(",", ":")))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def recall_problem(endpoint: DraftEndpoint, routed: Routed | None, message: str) -> str:
    """Why Run recall cannot run for ``message`` now ("" when it can): no chat endpoint set
    (and where to set it), no message yet, its route input not built yet, or not buildable
    (and why)."""
    if not endpoint.configured:
        return tr(
            "Run recall needs an AI chat endpoint: set one in Edit ▸ Preferences… (the same "
            "one the AI draft uses)."
        )
    if not message.strip():
        return tr("Type a message first.")
    if routed is None or routed.message != message:
        return tr("Building the route input for the message…")
    if routed.route is None:
        error = routed.error
        detail = f"{error.code}: {error.message}" if error is not None else ""
        return tr("The route input could not be built. {detail}").format(detail=detail)
    return ""


def hidden_by_lens() -> str:
    """What the route input, Run recall and its preview say while the trust lens is on."""
    return tr(
        "Hidden while viewing as another caller: the route model's input holds every "
        "memory's text. View ▸ Back to Full View to see it and to run recall."
    )


class RouteHost(OpRunner, Protocol):
    """The AppModel as the route part reads it: the open store, whether it closed, the trust
    lens, its writes (``run_op``) and when another store opens. ``AppModel`` satisfies it; it
    is typed so because ``app_model`` imports this module through ``recall_lab``: the app
    folder reads top-down."""

    @property
    def store(self) -> MemoryStore: ...

    @property
    def closed(self) -> bool: ...

    @property
    def lens(self) -> TrustLens: ...

    @property
    def store_replaced(self) -> SignalInstance: ...


class Asked(Protocol):
    """What a lab result was asked (``recall_lab.Query``): its message."""

    @property
    def message(self) -> str: ...


class LabAnswer(Protocol):
    """A lab result (``recall_lab.LabResult``) as the route part reads it: what was asked."""

    @property
    def query(self) -> Asked: ...


class LabSource(Protocol):
    """The Recall lab as its route part reads it (``RecallLab`` satisfies it; it imports this
    module): the message asked, when its rankings land (``result_changed(LabResult | None)``)
    and the signal that the graph's marks moved."""

    @property
    def message(self) -> str: ...

    @property
    def result_changed(self) -> SignalInstance: ...

    @property
    def marks_changed(self) -> SignalInstance: ...


class RecallRoute(QObject):
    """See the module docstring. Signals: ``routed(Routed | None)`` (None: cleared);
    ``recall_changed(Picked | None)``; ``recall_running_changed(bool)``;
    ``recall_failed(str)`` (what went wrong, plain text); ``applied()``;
    ``apply_failed(MemgraphError)``."""

    routed_changed = Signal(object)
    recall_changed = Signal(object)
    recall_running_changed = Signal(bool)
    recall_failed = Signal(str)
    applied = Signal()
    apply_failed = Signal(object)
    _route_arrived = Signal(object)
    _recall_arrived = Signal(object)

    def __init__(self, app: RouteHost, lab: LabSource) -> None:
        super().__init__(lab if isinstance(lab, QObject) else None)  # the lab's Qt child
        self._app, self._lab = app, lab
        self.routed: Routed | None = None
        self.picked: Picked | None = None
        self.recall_running = False
        self._route_ticket = self._recall_ticket = 0
        self._route_arrived.connect(self._deliver_route, Qt.ConnectionType.QueuedConnection)
        self._recall_arrived.connect(self._deliver_recall, Qt.ConnectionType.QueuedConnection)
        lab.result_changed.connect(self._on_result)
        app.store_replaced.connect(self.forget)

    # -- the route input -----------------------------------------------------------------------------
    def _on_result(self, result: LabAnswer | None) -> None:
        """The lab's rankings landed (None: cleared): build the route input for the same
        message over the store, off the GUI thread."""
        self._route_ticket += 1
        if result is None:
            self.forget()
            if self.routed is not None:
                self.routed = None
                self.routed_changed.emit(None)
            return
        if self.picked is not None and self.picked.message != result.query.message:
            self.forget()
        ticket, store, message = self._route_ticket, self._app.store, result.query.message

        def work() -> None:
            self._route_arrived.emit((ticket, store, route_for(store, message)))

        threading.Thread(target=work, name="memgraph-recall-lab-route", daemon=True).start()

    def _deliver_route(self, item: tuple[int, MemoryStore, Routed]) -> None:
        ticket, store, routed = item
        if ticket != self._route_ticket or self._app.closed or store is not self._app.store:
            return  # asked again since, or for a store replaced
        if routed.message != self._lab.message:
            return
        self.routed = routed
        self.routed_changed.emit(routed)

    # -- Run recall ----------------------------------------------------------------------------------
    def problem(self) -> str:
        """Why Run recall cannot run now ("" when it can; see ``recall_problem``): also while
        the trust lens is on (the route input holds every memory's text)."""
        if self._app.lens.on:
            return hidden_by_lens()
        return recall_problem(load_endpoint(), self.routed, self._lab.message)

    def run_recall(self) -> bool:
        """Send the route input and the message to the configured chat endpoint on a worker
        thread (the key read from the keyring there). ``recall_changed(Picked)`` when the
        answer is in and the lab still asks that message of that store (an edit meanwhile does
        not drop it: the picks were made from the rows as they were, ``Picked.stamp`` says
        when); ``recall_failed(text)`` says plainly what went wrong. False (nothing sent)
        when ``problem()`` says why not."""
        endpoint, routed = load_endpoint(), self.routed
        problem = self.problem()
        if problem or routed is None or routed.route is None:
            return False
        self._recall_ticket += 1
        ticket, store, route = self._recall_ticket, self._app.store, routed.route
        message, stamp = routed.message, routed.stamp
        self._set_running(True)

        def work() -> None:
            started = time.perf_counter()
            key, problem = read_api_key()
            answer: Any
            try:
                pick = route_recall(endpoint, route, message, api_key=key)
                preview = preview_text(store, route.always_inject_ids, pick.ids)
                answer = Picked(
                    message,
                    stamp,
                    tuple(pick.ids),
                    dict(pick.reasons),
                    tuple(pick.unknown),
                    route.candidate_ids,
                    route.always_inject_ids,
                    preview,
                    endpoint.model,
                    time.perf_counter() - started,
                )
            except DraftError as exc:
                answer = str(exc)
                if problem and ("HTTP 401" in answer or "HTTP 403" in answer):
                    answer += "\n" + tr("No API key was sent: {problem}").format(problem=problem)
            except MemgraphError as exc:
                answer = tr("{code}: {message}").format(code=exc.code, message=exc.message)
            except Exception as exc:  # a bug must still end the busy state
                log.warning("memgraph: Run recall failed", exc_info=True)
                answer = tr("Run recall failed: {error}").format(error=exc)
            self._recall_arrived.emit((ticket, store, message, answer))

        threading.Thread(target=work, name="memgraph-recall-lab-recall", daemon=True).start()
        return True

    def _deliver_recall(self, item: tuple[int, MemoryStore, str, Any]) -> None:
        ticket, store, message, answer = item
        if ticket != self._recall_ticket or self._app.closed or store is not self._app.store:
            return
        self._set_running(False)
        if message != self._lab.message:
            return  # for a message no longer asked
        if isinstance(answer, Picked):
            self.picked = answer
            self.recall_changed.emit(answer)
            self._lab.marks_changed.emit()
        else:
            self.recall_failed.emit(str(answer))

    def _set_running(self, running: bool) -> None:
        if running != self.recall_running:
            self.recall_running = running
            self.recall_running_changed.emit(running)

    def forget(self) -> None:
        """Forget Run recall's answer and any on the way (another message asked, another
        store opened)."""
        self._recall_ticket += 1
        self._set_running(False)
        if self.picked is not None:
            self.picked = None
            self.recall_changed.emit(None)
            self._lab.marks_changed.emit()

    # -- applying ------------------------------------------------------------------------------------
    def apply(self) -> bool:
        """Write the picks as the injection state: ``recallSelectedIds`` the picked ids,
        ``visibleIds`` the candidates the route model saw, as ONE undo step ("Apply recall
        preview"), so the live highlight and every agent see it and Ctrl+Z undoes it anywhere
        in the window. ``applied()`` once written; ``apply_failed(MemgraphError)`` when
        refused (a picked node archived or deleted since: ``NODE_NOT_FOUND``, nothing
        written). False when nothing is picked."""
        picked = self.picked
        if picked is None:
            return False
        ids, visible = list(picked.ids), list(picked.visible_ids)
        store = self._app.store

        def op(write: WriteApi) -> Any:
            read = store.read_api()
            gone = [i for i in ids if read.get_node_brief(i) is None]
            if gone:
                raise MemgraphError(
                    "NODE_NOT_FOUND",
                    tr(
                        "{ids} was archived or deleted since Run recall picked it: run it "
                        "again. Nothing was written."
                    ).format(ids=", ".join(gone[:5])),
                )
            return write.set_injection_state(
                recall_selected_ids=ids, visible_ids=visible, undoable=True
            )

        self._app.run_op(
            op,
            initiator=self,
            on_done=lambda _result: self.applied.emit(),
            on_error=self.apply_failed.emit,
        )
        return True

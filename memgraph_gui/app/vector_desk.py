"""``VectorDesk``: the window's side of embedding profiles: keeps the open store's vectors fresh
in the background, and tells the views where that stands (``VectorState``).

What runs, and where (GUI thread never embeds):

- **After each batch** (this window's, and another process's seen by the store's watcher), the
  nodes it touched are embedded on a worker thread (``keeper.refresh_nodes``: only what is
  missing or stale, compared with the digests in the file), for every profile (an endpoint's
  requests wait on the network, not on the GUI). Batches arriving meanwhile are gathered and
  refreshed in one go afterwards; the counts for the views follow as a separate step. A
  refresh that fails (an endpoint down) is shown as the last error; its nodes are caught up by
  the next whole embedding, and a search never uses their stale vectors meanwhile.
- **A whole ``embed_all``** on open, after a reload (an import here or by another process) and
  after a profile change (this window's, an undo, or another process's): in a **child process**
  (``python -m memgraph_gui.cli embed --db FILE``, as ``children.CHILD`` runs it: at a lower CPU
  priority, so the window comes first on a busy machine; its progress lines are parsed from stderr, its
  JSON line from stdout). Chosen by measurement (``tests/benchmarks/bench_vectors.py``, 50k
  demo, offscreen window repainting every 10 ms, a shared 2-core machine): on a worker thread
  the pure-Python hashing holds the GIL and the longest frame was 156-253 ms over four runs (p95
  23-42 ms); in a child process 41-60 ms (p95 15-28 ms), against 22-64 ms for the same window
  idle in the same run: what is left is the machine's other load, not the job. Cancel
  terminates the child: each chunk of 2,048 vectors is its own transaction, so what was stored
  stays and nothing is half-written. The endpoint key is never on the child's command line: the
  child reads it from the environment or the keyring as the CLI does; a key kept for this run
  only (no keyring) is passed in its environment. A store that is not a file (``:memory:``)
  cannot be opened by a child: its job runs on a thread.

Every asynchronous result carries the store it was for (the store object; its path names it in
messages) and lands only while that store is still the open one; a job for a store left is
stopped (``store_replacing``) and its late signals dropped.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import re
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from memgraph_gui.app import children
from memgraph_gui.app.op_runners import StoreOpRunner
from memgraph_gui.app.qt import (
    QObject,
    QProcess,
    Qt,
    Signal,
    SignalInstance,
    tr,
)
from memgraph_gui.app.secrets import SecretsUnavailable
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.errors import MemgraphError, as_memgraph_error
from memgraph_gui.core.storage import vector_rows
from memgraph_gui.core.vectors import keys
from memgraph_gui.core.vectors.api import VectorApi, VectorStatus
from memgraph_gui.core.vectors.keeper import refresh_nodes, touched
from memgraph_gui.core.vectors.profiles import (
    BUILTIN,
    ENDPOINT,
    HASHED_SPEC,
    META_KEY,
    MODEL_SPEC,
    ProfileSpec,
    parse_profile,
)
from memgraph_gui.core.vectors.text import searchable

if TYPE_CHECKING:
    from memgraph_gui.core.memory import MemoryStore

__all__ = [
    "BUILTIN",
    "HASHED_SPEC",
    "MODEL_SPEC",
    "EmbedJobState",
    "ProfileSpec",
    "SecretsUnavailable",
    "VectorDesk",
    "VectorState",
    "endpoint_profile",
    "model_available",
]

log = logging.getLogger(__name__)
_PROGRESS = re.compile(r"memgraph embed: ([\d,]+) of ([\d,]+) texts")
STOP_WAIT_MS = 3000


def child_command(path: str) -> tuple[str, list[str]]:
    """The program and arguments of the child embedding ``path`` (``memgraph embed --db
    PATH`` as ``children.CHILD`` runs it)."""
    return children.child_command("embed", "--db", path)


@dataclass(frozen=True, slots=True)
class EmbedJobState:
    """A running whole embedding: texts embedded of ``total`` (0 while it starts)."""

    done: int = 0
    total: int = 0


@dataclass(frozen=True, slots=True)
class VectorState:
    """What the views show: the active ``profile`` (None: vector search off), searchable
    ``nodes`` and vectors ``stored`` for the profile (None until first counted), the running
    whole ``job`` (None when none), and the last failure as plain text ("" when none)."""

    profile: ProfileSpec | None = None
    nodes: int | None = None
    stored: int | None = None
    job: EmbedJobState | None = None
    error: str = ""


def endpoint_profile(
    name: str, base_url: str, model: str, dimensions: int | None = None
) -> ProfileSpec:
    """An endpoint profile from a dialog's fields; ``MemgraphError`` ``BAD_ARGS`` saying which
    field is wrong (plain text)."""
    value: dict[str, Any] = {
        "name": name,
        "kind": ENDPOINT,
        "baseUrl": base_url,
        "model": model,
    }
    if dimensions is not None:
        value["dimensions"] = dimensions
    spec = parse_profile(value, "profile")
    assert spec is not None  # a dict always names one, or raises
    return spec


def model_available() -> bool:
    """Whether the optional sentence-embedding model's package is installed (cheap: no import)."""
    return importlib.util.find_spec("wordllama") is not None


class VectorHost(StoreOpRunner, Protocol):
    """The AppModel as the desk reads it: the open store (``opening`` while a file is coming),
    its writes (``origin``, ``run_store_op``) and when changes land, a store is left or opened,
    or the app closes. ``AppModel`` satisfies it; it is typed so because ``app_model`` imports
    this module: the app folder reads top-down."""

    @property
    def store(self) -> MemoryStore: ...

    @property
    def opening(self) -> str | None: ...

    @property
    def origin(self) -> str: ...

    @property
    def changes_applied(self) -> SignalInstance: ...

    @property
    def store_replacing(self) -> SignalInstance: ...

    @property
    def store_replaced(self) -> SignalInstance: ...

    @property
    def closing(self) -> SignalInstance: ...


class _Job:
    """One whole embedding for ``store``: a child process or a thread (see the module)."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.cancelled = False


class VectorDesk(QObject):
    """See the module docstring. Owned by the ``AppModel`` (``app.vectors``); GUI thread only.

    ``changed`` after every change of ``state``; ``job_ended(message)`` when a whole embedding
    ends ("" on success, else a plain-text reason, "cancelled" included)."""

    changed = Signal()
    job_ended = Signal(str)
    _arrived = Signal(object)  # (kind, job or store, payload) from worker threads

    def __init__(self, app: VectorHost, *, child_process: bool = True) -> None:
        """``child_process=False`` runs whole embeddings on a thread (the benchmark's
        alternative; see the module docstring)."""
        super().__init__(app if isinstance(app, QObject) else None)  # the AppModel's Qt child
        self._app = app
        self.child_process = child_process
        self._state = VectorState()
        self._job: _Job | None = None
        self._process: QProcess | None = None
        self._stderr = b""
        self._stdout = b""
        self._cancel = threading.Event()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memgraph-vectors")
        self._ids: set[str] = set()
        self._refreshing = False
        self._counting = 0  # counts asked of the worker, not back yet
        self._closed = False
        self.run_key = ""  # an endpoint key kept for this run only (no keyring), else ""
        self.refreshed = 0  # vectors made by the background refreshes (tests, benchmarks)
        self._arrived.connect(self._on_arrived, Qt.ConnectionType.QueuedConnection)
        app.changes_applied.connect(self._on_changes)
        app.store_replacing.connect(self._leave)
        app.store_replaced.connect(self._opened)
        app.closing.connect(self.shutdown)
        self._opened()

    # -- what the views read and ask ---------------------------------------------------------------
    @property
    def state(self) -> VectorState:
        """The state now (see ``VectorState``)."""
        return self._state

    def set_profile(
        self,
        spec: ProfileSpec | None,
        *,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[MemgraphError], None] | None = None,
    ) -> None:
        """Make ``spec`` the store's active profile (None: vector search off): one undo step
        on the single writer ("Use embedding profile …"); the whole embedding follows when its
        ChangeSet arrives. A refusal reaches ``on_error`` (else ``op_failed``)."""
        app = self._app
        origin = app.origin
        app.run_store_op(
            lambda store: store.vectors(origin=origin).set_profile(spec),
            on_done=on_done,
            on_error=on_error,
        )

    def embed_now(self) -> None:
        """Start a whole embedding of the open store under its profile (stopping one running)."""
        self._start_whole()

    def cancel(self) -> None:
        """Stop the running whole embedding; the vectors stored so far stay."""
        job = self._job
        if job is None:
            return
        job.cancelled = True
        self._cancel.set()
        if self._process is not None:
            _stop(self._process)

    def wait_idle(self, timeout_ms: int = 30000) -> bool:
        """Process events until no job or refresh runs (tests, benchmarks; GUI thread)."""
        from memgraph_gui.app.qt import QCoreApplication, QElapsedTimer, QEventLoop

        clock = QElapsedTimer()
        clock.start()
        while self.busy and clock.elapsed() < timeout_ms:
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        return not self.busy

    @property
    def busy(self) -> bool:
        """True while a whole embedding, a refresh or a count runs or is due."""
        return self._job is not None or self._refreshing or bool(self._ids) or self._counting > 0

    def shutdown(self) -> None:
        """Stop everything (the app closes): the child ends, the worker finishes."""
        self._closed = True
        self.cancel()
        self._drop_job()
        self._ids.clear()
        self._pool.shutdown(wait=True)

    # -- endpoint key (the keyring through core.vectors.keys) --------------------------------------
    def endpoint_key_saved(self) -> bool:
        """Whether the keyring holds an endpoint key. Raises ``SecretsUnavailable`` (a plain
        message) when no keyring can be used. Blocking: on a user's action only."""
        try:
            return bool(keys.read_secret(keys.ENDPOINT_ACCOUNT))
        except keys.KeyringUnavailable as exc:
            raise _unavailable(exc) from exc

    def save_endpoint_key(self, key: str) -> None:
        """Save ``key`` in the keyring ("" forgets the saved one). Raises ``SecretsUnavailable``
        (then ``run_key`` may keep it for this run). Blocking: on a user's action only."""
        try:
            if key:
                keys.set_endpoint_api_key(key)
            else:
                keys.forget_endpoint_api_key()
        except keys.KeyringUnavailable as exc:
            raise _unavailable(exc) from exc

    # -- reacting to the store ---------------------------------------------------------------------
    def _opened(self) -> None:
        """A store was opened (or replaced): a whole embedding, or just its counts."""
        self._state = VectorState()
        self._start_whole()

    def _leave(self) -> None:
        """The store is being left: stop its job (late results are dropped anyway)."""
        self.cancel()
        self._drop_job()
        self._ids.clear()

    def _on_changes(self, changes: ChangeSet, _initiator: object | None) -> None:
        if changes.reloaded or META_KEY in changes.meta_keys:
            self._start_whole()  # an import (here or elsewhere), or another profile
            return
        if self._state.profile is None:
            return  # vector search is off: nothing to keep
        ids = touched([changes])
        if ids:
            self._ids |= ids
            self._refresh_touched()  # now, not after the views' own work on the batch
        elif changes.nodes_removed or changes.nodes_archived:
            self._count()

    def _refresh_touched(self) -> None:
        """Embed what the batches since the last refresh touched, on the worker thread."""
        if self._refreshing or not self._ids:
            return
        store, ids, self._ids = self._app.store, self._ids, set()
        if self._closed or store.closed or store.read_only:
            return
        self._refreshing = True
        key = self.run_key

        def job() -> int:
            api = store.vectors()
            spec = api.profile()
            if spec is None:
                return 0
            embedder = api.embedder(spec) if not key else _embedder(spec, key)
            return refresh_nodes(store.storage, spec.key, embedder, ids)

        future = self._pool.submit(job)
        future.add_done_callback(lambda f: self._arrived.emit(("refreshed", store, f)))

    # -- whole embeddings --------------------------------------------------------------------------
    def _start_whole(self) -> None:
        self.cancel()
        self._drop_job()
        store = self._app.store
        if self._closed or store.closed or self._app.opening is not None:
            return
        try:
            spec = store.vectors().profile()
        except MemgraphError as exc:
            self._set(profile=None, error=exc.message)
            return
        self._set(profile=spec, error="")
        if spec is None:
            self._set(nodes=None, stored=None)
            return
        if store.read_only:
            self._count()
            return
        job = self._job = _Job(store)
        self._cancel = threading.Event()
        self._set(job=EmbedJobState())
        if self.child_process and store.path != ":memory:":
            self._start_child(job, spec)
        else:
            self._start_thread(job, spec)

    def _start_child(self, job: _Job, spec: ProfileSpec) -> None:
        process = self._process = QProcess(self)
        env = children.child_environment()
        if spec.kind == ENDPOINT and self.run_key:
            env.insert(keys.ENV_KEY, self.run_key)  # never on the command line
        process.setProcessEnvironment(env)
        process.setWorkingDirectory(children.ROOT)
        self._stderr = self._stdout = b""
        process.readyReadStandardError.connect(lambda: self._on_child_stderr(job, process))
        process.readyReadStandardOutput.connect(lambda: self._on_child_stdout(job, process))
        process.finished.connect(lambda code, status: self._on_child_done(job, process, code))
        process.errorOccurred.connect(lambda err: self._on_child_error(job, process, err))
        process.start(*child_command(job.store.path))

    def _on_child_stderr(self, job: _Job, process: QProcess) -> None:
        self._stderr += bytes(process.readAllStandardError().data())
        if job is not self._job:
            return
        *lines, self._stderr = self._stderr.split(b"\n")
        for line in reversed(lines):
            found = _PROGRESS.search(line.decode("utf-8", "replace"))
            if found:
                done, total = (int(v.replace(",", "")) for v in found.groups())
                self._set(job=EmbedJobState(done, total))
                break

    def _on_child_stdout(self, job: _Job, process: QProcess) -> None:
        data = bytes(process.readAllStandardOutput().data())
        if job is self._job:
            self._stdout += data

    def _on_child_done(self, job: _Job, process: QProcess, code: int) -> None:
        self._on_child_stdout(job, process)
        if job is not self._job:
            process.deleteLater()
            return
        message = ""
        if job.cancelled:
            message = tr("Embedding cancelled; the vectors made so far are kept.")
        elif code != 0:
            message = _child_error(self._stdout, self._stderr, code)
        self._end_job(job, message)

    def _on_child_error(self, job: _Job, process: QProcess, error: QProcess.ProcessError) -> None:
        if job is self._job and error == QProcess.ProcessError.FailedToStart:
            self._end_job(
                job,
                tr("The embedding could not start: {error}").format(error=process.errorString()),
            )

    def _start_thread(self, job: _Job, spec: ProfileSpec) -> None:
        cancel, key = self._cancel, self.run_key
        store = job.store

        def progress(done: int, total: int) -> None:
            self._arrived.emit(("progress", job, (done, total)))

        def work() -> Any:
            if key and spec.kind == ENDPOINT:
                api = VectorApi(store.storage, api_key=lambda: key)
            else:
                api = store.vectors()
            return api.embed_all(progress=progress, cancel=cancel)

        thread = threading.Thread(
            target=lambda: self._arrived.emit(("whole", job, _outcome(work))),
            name="memgraph-embed",
            daemon=True,
        )
        thread.start()

    def _end_job(self, job: _Job, message: str) -> None:
        self._drop_job()
        self._set(job=None, error="" if job.cancelled else message)
        if self._state.profile is not None:
            self._count()
        self.job_ended.emit(message)

    def _drop_job(self) -> None:
        """Forget the running job (its late signals are dropped); end its child, if any."""
        self._job = None
        process, self._process = self._process, None
        if process is not None:
            if process.state() != QProcess.ProcessState.NotRunning:
                _stop(process)
                if not process.waitForFinished(STOP_WAIT_MS):
                    process.kill()
                    process.waitForFinished(STOP_WAIT_MS)
            process.deleteLater()
        if self._state.job is not None:
            self._set(job=None)

    # -- counts ------------------------------------------------------------------------------------
    def _count(self) -> None:
        """Count the searchable nodes and stored vectors on the worker (50k nodes: ~20 ms)."""
        store = self._app.store
        if self._closed or store.closed:
            return
        self._counting += 1
        future = self._pool.submit(lambda: _status(store))
        future.add_done_callback(lambda f: self._arrived.emit(("counted", store, f)))

    # -- results (GUI thread) ----------------------------------------------------------------------
    def _on_arrived(self, item: tuple[str, Any, Any]) -> None:
        kind, owner, payload = item
        if kind == "progress":
            if owner is self._job:
                self._set(job=EmbedJobState(*payload))
        elif kind == "whole":
            job = self._job
            if job is not None and owner is job:
                self._whole_done(job, payload)
        else:  # a future from the worker: a refresh or a count
            self._worker_done(kind, owner, payload)

    def _whole_done(self, job: _Job, outcome: Any) -> None:
        error = outcome if isinstance(outcome, MemgraphError) else None
        message = ""
        if job.cancelled or (error is not None and error.code == "EMBEDDING_CANCELLED"):
            job.cancelled = True
            message = tr("Embedding cancelled; the vectors made so far are kept.")
        elif error is not None:
            message = error.message
        self._end_job(job, message)

    def _worker_done(self, kind: str, store: MemoryStore, future: Future[Any]) -> None:
        if kind == "refreshed":
            self._refreshing = False
        else:
            self._counting -= 1
        if store is self._app.store and not store.closed:
            try:
                result = future.result()
            except Exception as exc:
                error = as_memgraph_error(exc)
                log.warning("memgraph: vectors not refreshed (%s)", error.message)
                self._set(error=error.message)
            else:
                if kind == "refreshed":
                    self.refreshed += result
                    if not self._counting:
                        self._count()  # the counts after it (the vectors are stored already)
                else:
                    self._set(profile=result.profile, nodes=result.nodes, stored=result.stored)
        if kind == "refreshed" and self._ids:
            self._refresh_touched()  # batches that came meanwhile
        else:
            self.changed.emit()  # (busy may have ended)

    def _set(self, **changes: Any) -> None:
        self._state = replace(self._state, **changes)
        self.changed.emit()


def _status(store: MemoryStore) -> VectorStatus:
    """``VectorApi.status`` holding the store lock only to copy the node list (a 50k-node count
    under it kept the GUI thread's reads waiting ~30 ms). Worker thread."""
    spec = store.vectors().profile()
    with store.reading() as graph:
        nodes = list(graph.nodes.values())
    count = sum(1 for node in nodes if searchable(node))
    if spec is None:
        return VectorStatus(None, count, 0)
    stored = store.storage.read_aside(vector_rows.counts).get(spec.key, 0)
    return VectorStatus(spec, count, stored)


def _stop(process: QProcess) -> None:
    """End the child now: SIGTERM (its default action ends Python at once); on Windows, where
    ``terminate`` only asks a console program to close, ``kill``. Either is safe: every chunk
    stored is its own transaction."""
    if sys.platform == "win32":
        process.kill()
    else:
        process.terminate()


def _outcome(work: Callable[[], Any]) -> Any:
    """``work()``'s result, or the error it raised (as a ``MemgraphError``)."""
    try:
        return work()
    except Exception as exc:
        return as_memgraph_error(exc)


def _unavailable(exc: keys.KeyringUnavailable) -> SecretsUnavailable:
    if exc.no_keyring:
        return SecretsUnavailable(
            tr(
                "No system keyring is available on this computer, so the API key cannot be "
                "saved or read. Install and unlock a keyring (GNOME Keyring, KWallet, macOS "
                "Keychain or Windows Credential Manager), or set {env} in the environment."
            ).format(env=keys.ENV_KEY)
        )
    return SecretsUnavailable(tr("The system keyring failed: {error}").format(error=exc.error))


def _embedder(spec: ProfileSpec, key: str) -> Any:
    from memgraph_gui.core.vectors.embedders import embedder_for

    return embedder_for(spec, api_key=lambda: key)


def _child_error(stdout: bytes, stderr: bytes, code: int) -> str:
    """The plain reason a child ``memgraph embed`` failed: its JSON error line's message, else
    its last stderr line, else its exit status."""
    for line in reversed(stdout.decode("utf-8", "replace").splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        error = value.get("error") if isinstance(value, dict) else None
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
    lines = [x for x in stderr.decode("utf-8", "replace").splitlines() if x.strip()]
    if lines:
        return lines[-1].strip()
    return tr("The embedding stopped (exit status {code}).").format(code=code)

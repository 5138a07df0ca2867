"""The window's vectors (``app.vector_desk``): kept fresh in the background after this window's
writes and another process's, whole embeddings in a child process with progress and Cancel, and
every late result landing only on the store it was for."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.vector_desk import HASHED_SPEC, endpoint_profile
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.storage import vector_rows
from memgraph_gui.core.vectors import api as vector_api
from memgraph_gui.core.vectors import index as vector_index
from memgraph_gui.core.vectors.text import digest, searchable, texts_of
from tests.core.vectors.fake_embeddings_server import FakeEmbeddingsServer, embeddings_server

__all__ = ["embeddings_server"]

ROOT = Path(__file__).resolve().parents[2]
KEY = HASHED_SPEC.key


def stale_ids(store: MemoryStore, ids: list[str] | None = None, key: str = KEY) -> list[str]:
    """The searchable nodes (of ``ids``, default all) whose stored vector is missing or stale,
    read from the file (no search, no index)."""
    with store.storage.reading() as graph:
        chosen = ids if ids is not None else list(graph.nodes)
        nodes = [n for n in map(graph.nodes.get, chosen) if n is not None and searchable(n)]
        texts = texts_of(graph.schema, nodes)
    wanted = {n.id: digest(t) for n, t in zip(nodes, texts, strict=True) if t.strip()}
    stored = store.storage.read_aside(lambda conn: vector_rows.digests_of(conn, key, list(wanted)))
    return sorted(i for i, d in wanted.items() if stored.get(i) != d)


def rows_in_file(path: str) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM vectors").fetchone()[0])


def with_profile(app: AppModel) -> None:
    """Set the offline profile through the desk and wait for its whole embedding."""
    app.vectors.set_profile(HASHED_SPEC)
    app.runner.wait_idle()
    assert app.vectors.wait_idle()


def a_node(app: AppModel) -> str:
    with app.store.storage.reading() as graph:
        return next(n.id for n in graph.nodes.values() if searchable(n) and n.title)


def test_profile_change_embeds_every_node_in_a_child_process(qtbot: Any, demo_app: Any) -> None:
    app = demo_app
    assert app.vectors.state.profile is None
    assert rows_in_file(app.path) == 0
    seen: list[Any] = []
    app.vectors.changed.connect(lambda: seen.append(app.vectors.state.job))
    with qtbot.waitSignal(app.vectors.job_ended, timeout=60000) as ended:
        app.vectors.set_profile(HASHED_SPEC)
    assert ended.args == [""]
    assert app.vectors.wait_idle()
    state = app.vectors.state
    assert state.profile == HASHED_SPEC and state.error == "" and state.job is None
    assert state.nodes == state.stored == rows_in_file(app.path) > 500
    assert stale_ids(app.store) == []
    assert any(job is not None for job in seen)  # the job was shown while it ran
    app.undo_last()  # the profile change is one undo step
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: app.vectors.state.profile is None)


def test_a_write_here_is_re_embedded_in_the_background(qtbot: Any, demo_app: Any) -> None:
    app = demo_app
    with_profile(app)
    node_id = a_node(app)
    made = app.vectors.refreshed
    app.apply_sync(lambda w: w.edit_node(id=node_id, title="Lighthouse keeper's ledger"))
    qtbot.waitUntil(lambda: not stale_ids(app.store, [node_id]), timeout=10000)
    assert app.vectors.wait_idle()
    assert app.vectors.refreshed == made + 1
    assert stale_ids(app.store) == []


def test_another_process_write_is_re_embedded_in_the_background(qtbot: Any, demo_app: Any) -> None:
    app = demo_app
    with_profile(app)
    node_id = a_node(app)
    script = (
        "import sys\n"
        "from memgraph_gui.core import MemoryStore\n"
        "with MemoryStore.open(sys.argv[1], create=False) as s:\n"
        "    s.write_api(origin='agent').edit_node(id=sys.argv[2], title='Tide tables of 1893')\n"
    )
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-c", script, app.path, node_id], check=True, env=env)
    # the other process made no vector (it has no keeper); the window's does, unasked
    qtbot.waitUntil(lambda: app.node(node_id).title == "Tide tables of 1893", timeout=10000)
    qtbot.waitUntil(lambda: not stale_ids(app.store, [node_id]), timeout=10000)
    assert app.vectors.wait_idle()
    assert stale_ids(app.store) == []


def test_a_reload_by_another_process_embeds_the_new_memory(qtbot: Any, demo_app: Any) -> None:
    app = demo_app
    with_profile(app)
    script = (
        "import sys\n"
        "from memgraph_gui.core import MemoryStore\n"
        "from memgraph_gui.core.demo.generator import generate\n"
        "with MemoryStore.open(sys.argv[1], create=False) as s:\n"
        "    s.replace_all(*generate(300, 9), keep_meta=('embeddingProfile',), backup=False)\n"
    )
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    ended: list[str] = []
    app.vectors.job_ended.connect(ended.append)
    subprocess.run([sys.executable, "-c", script, app.path], check=True, env=env)
    qtbot.waitUntil(lambda: app.counts().nodes == 300, timeout=10000)
    qtbot.waitUntil(lambda: ended == [""], timeout=60000)  # a whole embedding, unasked
    assert app.vectors.wait_idle()
    assert stale_ids(app.store) == []
    state = app.vectors.state
    assert state.nodes is not None and state.stored is not None
    assert state.stored >= state.nodes > 250  # (a row may stay for a node not searchable)


def test_an_endpoint_profile_embeds_in_the_background_with_the_key_in_the_environment(
    qtbot: Any, demo_app: Any, embeddings_server: FakeEmbeddingsServer
) -> None:
    app = demo_app
    server = embeddings_server
    app.vectors.run_key = "sk-this-run"  # no keyring: the key kept for this run
    spec = endpoint_profile("fake", server.url, "fake-embed")
    with qtbot.waitSignal(app.vectors.job_ended, timeout=60000) as ended:
        app.vectors.set_profile(spec)
    assert ended.args == [""]
    assert app.vectors.wait_idle()
    assert stale_ids(app.store, key=spec.key) == []
    assert server.requests and all(
        r.headers.get("authorization") == "Bearer sk-this-run" for r in server.requests
    )
    sent = len(server.requests)
    node_id = a_node(app)
    app.apply_sync(lambda w: w.edit_node(id=node_id, title="Harbour master's log"))
    qtbot.waitUntil(lambda: not stale_ids(app.store, [node_id], key=spec.key), timeout=10000)
    assert app.vectors.wait_idle()
    later = server.inputs()[sent:]
    assert later == [[t for t in later[0] if "Harbour master's log" in t]]  # just that node
    assert server.requests[-1].headers.get("authorization") == "Bearer sk-this-run"


def test_a_replaced_store_late_job_result_is_dropped(
    qtbot: Any, demo_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = demo_app
    gate, entered = threading.Event(), threading.Event()
    real = vector_api.VectorApi.embed_all

    def held(self: Any, progress: Any = None, cancel: Any = None) -> Any:
        entered.set()
        gate.wait(30)
        return real(self, progress, cancel)

    monkeypatch.setattr(vector_api.VectorApi, "embed_all", held)
    app.vectors.child_process = False  # on a thread, so the test can hold it
    app.vectors.set_profile(HASHED_SPEC)
    app.runner.wait_idle()
    assert entered.wait(10) and app.vectors.state.job is not None
    ended: list[str] = []
    app.vectors.job_ended.connect(ended.append)
    other = tmp_path / "other.memgraph"
    with MemoryStore.open(other) as s:
        s.write_api().create_node(
            type="event", title="A quiet harbour", fields={"summary": "Boats at rest."}
        )
    app.replace_store(MemoryStore.open(other))
    state = app.vectors.state
    assert state.profile is None and state.job is None
    gate.set()  # the first store's job ends now, for a store no longer open
    qtbot.wait(300)
    assert app.vectors.wait_idle()
    assert ended == []
    assert app.vectors.state == state


def test_cancel_keeps_the_vectors_stored(
    qtbot: Any, demo_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = demo_app
    monkeypatch.setattr(vector_index, "CHUNK", 100)  # each 100 vectors stored as made
    real = vector_api.VectorApi.embed_all
    gate = threading.Event()

    def slowed(self: Any, progress: Any = None, cancel: Any = None) -> Any:
        def step(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total)
            if done >= 200:
                gate.wait(10)  # until the window's Cancel is set

        return real(self, step, cancel)

    monkeypatch.setattr(vector_api.VectorApi, "embed_all", slowed)
    app.vectors.child_process = False
    app.vectors.set_profile(HASHED_SPEC)
    app.runner.wait_idle()
    qtbot.waitUntil(lambda: (app.vectors.state.job or _Job0).done >= 200, timeout=10000)
    with qtbot.waitSignal(app.vectors.job_ended, timeout=10000) as ended:
        app.vectors.cancel()
        gate.set()
    assert "cancelled" in ended.args[0]
    assert app.vectors.wait_idle()
    state = app.vectors.state
    assert state.job is None and state.error == ""
    assert state.stored is not None and state.nodes is not None
    assert 200 <= state.stored < state.nodes
    assert state.stored == rows_in_file(app.path)


class _Job0:
    done = 0


def test_cancel_terminates_the_child_and_keeps_its_chunks(
    qtbot: Any, tmp_path: Path, qapp: Any
) -> None:
    from memgraph_gui.core.demo.generator import load_demo

    path = tmp_path / "big.memgraph"
    with MemoryStore.open(path) as s:
        load_demo(s, 8000, 3)
        s.vectors().set_profile(HASHED_SPEC)
    app = AppModel(MemoryStore.open(path))
    try:
        assert app.vectors.state.job is not None  # on open: a whole embedding
        qtbot.waitUntil(lambda: rows_in_file(str(path)) > 0, timeout=60000)
        with qtbot.waitSignal(app.vectors.job_ended, timeout=10000) as ended:
            app.vectors.cancel()
        assert "cancelled" in ended.args[0]
        assert app.vectors.wait_idle()
        kept = rows_in_file(str(path))
        state = app.vectors.state
        assert state.error == "" and state.stored == kept
        assert 0 < kept < state.nodes  # whole chunks: each is its own transaction
        assert kept % vector_index.CHUNK == 0
        app.vectors.embed_now()  # picks up where it stopped
        with qtbot.waitSignal(app.vectors.job_ended, timeout=60000) as again:
            pass
        assert again.args == [""]
        assert app.vectors.wait_idle()
        assert app.vectors.state.stored == app.vectors.state.nodes
    finally:
        app.close()


def test_a_child_failure_is_told_by_its_json_line() -> None:
    from memgraph_gui.app.vector_desk import _child_error

    line = b'{"error":{"code":"EMBEDDING_FAILED","message":"http://x/v1: HTTP 401 bad key"}}\n'
    assert _child_error(line, b"memgraph embed: 0 of 9 texts (0%)\n", 1) == (
        "http://x/v1: HTTP 401 bad key"
    )
    assert _child_error(b"", b"Traceback\nValueError: boom\n", 1) == "ValueError: boom"
    assert "3" in _child_error(b"", b"", 3)


def test_the_packaged_app_runs_the_memgraph_program_it_ships(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A frozen app has no Python to run ``-c``: it starts ``memgraph`` from its own folder."""
    from memgraph_gui.app.vector_desk import child_command

    program, arguments = child_command("/x/chat.memgraph")
    assert program == sys.executable and arguments[-3:] == ["embed", "--db", "/x/chat.memgraph"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "memgraph-gui"))
    program, arguments = child_command("/x/chat.memgraph")
    assert Path(program).parent == tmp_path and Path(program).stem == "memgraph"
    assert arguments == ["embed", "--db", "/x/chat.memgraph"]

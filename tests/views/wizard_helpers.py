"""Shared pieces of the wizard tests: a compactable demo copy and an app over it, settings in a
temporary folder, an in-memory keyring, a local OpenAI-compatible server. A test module uses the
fixtures by importing them (``from wizard_helpers import compactable_app, memory_keyring``)."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.keyring_fakes import MemoryKeyring, installed_keyring


def compactable_copy(template: Path, target: Path) -> Path:
    """A copy of the demo whose event schema lets the 6 newest top-level events form 2 groups."""
    from memgraph_gui.core import MemoryStore

    shutil.copy(template, target)
    with MemoryStore.open(target) as store:
        schema = store.graph.schema.to_json()
        for spec in schema:
            if spec["id"] == "event":
                spec["compression"].update(keepRecentLeaves=0, threshold=3)
        store.write_api(origin="setup").set_schema(schema)
    return target


class _Handler(BaseHTTPRequestHandler):
    """``/ok`` answers a draft, ``/slow`` sleeps 3 s, ``/auth`` refuses with 401, ``/junk``
    answers something that is not JSON. Requests are recorded on the server."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        self.server.requests.append(  # type: ignore[attr-defined]
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        if self.path.startswith("/slow"):
            time.sleep(3)
        if self.path.startswith("/auth"):
            self._send(401, {"error": {"message": "Incorrect API key provided: sk-w***"}})
        elif self.path.startswith("/junk"):
            self._send_raw(200, b"<html>gateway</html>")
        else:
            self._send(200, {"choices": [{"message": {"content": " Eileen and Rowan part. "}}]})

    def _send(self, status: int, doc: Any) -> None:
        self._send_raw(status, json.dumps(doc).encode())

    def _send_raw(self, status: int, raw: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)
        except OSError:
            pass  # the client gave up (the timeout test)

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def local_server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """``(base URL, recorded requests)`` of an OpenAI-compatible server on a free port."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.requests = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.requests  # type: ignore[attr-defined]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def wizard_settings(tmp_path: Path) -> None:
    """QSettings of both formats in the test's folder (the wizard keeps its endpoint there)."""
    from memgraph_gui.views.qt import QSettings

    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))


@pytest.fixture
def compactable_app(compacted_template: Path, tmp_path: Path) -> Iterator[Any]:
    """An ``AppModel`` over ``compactable_copy`` of the fully compacted (uniform) demo, closed
    afterwards."""
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore

    path = compactable_copy(compacted_template, tmp_path / "a.memgraph")
    model = AppModel(MemoryStore.open(path))
    yield model
    model.close()


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    """The keyring as an in-memory backend for the test (the previous one put back after)."""
    with installed_keyring(MemoryKeyring()) as backend:
        yield backend

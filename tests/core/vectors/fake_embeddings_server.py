"""A local fake of an OpenAI-compatible embeddings endpoint, for tests (no network beyond
127.0.0.1).

Use it as a context manager, or through the ``embeddings_server`` fixture (import it into a
conftest or test module: ``from tests.core.vectors.fake_embeddings_server import
embeddings_server``)::

    with FakeEmbeddingsServer(dim=8) as server:
        spec = Spec(base_url=server.url, model="fake-embed")   # server.url ends in /v1
        server.fail(2, status=429, retry_after=1)             # the next 2 requests get 429
        ...
        server.requests          # every request received: RecordedRequest(path, headers, body)
        server.inputs()          # the "input" list of each request, in order

What it answers by default (``POST .../embeddings``): for each input text, in order, a
deterministic vector of ``dim`` numbers (``server.vector(text)``: the hashed profile's row times
3 — never zero for a non-empty text, and *not* unit length: the client must normalise), as
``{"object": "list", "data": [{"object": "embedding", "index": i, "embedding": [...]}, ...],
"model": ..., "usage": {...}}``. A request with ``"dimensions": n`` gets rows of ``n`` numbers.
With ``reverse=True`` the ``data`` items come in reverse order (each with its right ``index``).

Scripting the next requests (consumed one per request, in order, then back to the default):
- ``server.fail(times, status=500, message="...", retry_after=None)``: an OpenAI-style error
  body ``{"error": {"message", "type", "code"}}`` with that status (and a ``Retry-After`` header);
- ``server.hang(times, seconds)``: hold the request ``seconds`` (cut short by ``close()``), then
  answer normally (a client with a shorter timeout sees a timeout);
- ``server.script(Reply(...), ...)``: any replies: a status, a body (a dict sent as JSON, raw
  bytes, or a callable ``body(request_json) -> dict | bytes``; ``None`` = the default answer),
  extra headers and a delay. ``server.answer(request_json)`` builds the default answer so a
  callable can alter it (``Reply(body=lambda req: {**server.answer(req), "data": []})``).
``server.wait_for_requests(n, timeout)`` blocks until ``n`` requests have arrived (for tests that
act in between, e.g. setting a cancel event while the client backs off).
"""

from __future__ import annotations

import json
import threading
import zlib
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core.vectors import hashed

Body = dict[str, Any] | bytes | Callable[[dict[str, Any]], "dict[str, Any] | bytes"] | None


@dataclass(frozen=True)
class Reply:
    """One scripted reply: ``status``, ``body`` (see the module docstring), extra ``headers``,
    and ``delay`` seconds to hold the request first (cut short by ``close()``)."""

    status: int = 200
    body: Body = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


@dataclass(frozen=True)
class RecordedRequest:
    """A request as received: ``path``, ``headers`` (names lower-cased) and the JSON ``body``
    (``None`` when it was not JSON)."""

    path: str
    headers: dict[str, str]
    body: Any


class FakeEmbeddingsServer:
    """An embeddings endpoint on 127.0.0.1 in a background thread (see the module docstring).

    ``url`` is the base URL to configure (``http://127.0.0.1:PORT/v1``); requests to any path
    ending in ``/embeddings`` are answered, others get 404. Thread-safe; ``close()`` stops it and
    releases hanging requests.
    """

    def __init__(self, dim: int = 8, *, reverse: bool = False) -> None:
        self.dim, self.reverse = dim, reverse
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Condition()
        self._script: deque[Reply] = deque()
        self._closing = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.05,), name="fake-embeddings", daemon=True
        )
        self._thread.start()
        host, port = self._httpd.server_address[:2]
        self.url = f"http://{host}:{port}/v1"

    # -- scripting -------------------------------------------------------------------------------
    def script(self, *replies: Reply) -> None:
        """Answer the next requests with ``replies``, in order."""
        with self._lock:
            self._script.extend(replies)

    def fail(
        self,
        times: int,
        status: int = 500,
        message: str = "the fake server failed",
        *,
        retry_after: float | str | None = None,
    ) -> None:
        """The next ``times`` requests get ``status`` with an OpenAI-style error ``message``."""
        headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
        body = {"error": {"message": message, "type": "fake_error", "code": status}}
        self.script(*[Reply(status, body, headers)] * times)

    def hang(self, times: int, seconds: float) -> None:
        """The next ``times`` requests are held ``seconds`` before the default answer."""
        self.script(*[Reply(delay=seconds)] * times)

    # -- what it saw -----------------------------------------------------------------------------
    def inputs(self) -> list[list[str]]:
        """The ``input`` list of every request so far, in arrival order."""
        with self._lock:
            return [r.body.get("input") for r in self.requests if isinstance(r.body, dict)]

    def wait_for_requests(self, count: int, timeout: float = 10.0) -> bool:
        """Block until ``count`` requests have arrived (False after ``timeout`` seconds)."""
        with self._lock:
            return self._lock.wait_for(lambda: len(self.requests) >= count, timeout)

    # -- answers ---------------------------------------------------------------------------------
    def vector(self, text: str, dim: int | None = None) -> list[float]:
        """The default (not unit-length) vector for ``text``."""
        row = hashed.embed([text], dim or self.dim)[0]
        if not row.any():  # the grams of a tiny text can cancel out in a few dimensions
            seed = zlib.crc32(text.encode("utf-8"))
            row = np.random.default_rng(seed).standard_normal(dim or self.dim)
        return [float(x) * 3.0 for x in row]

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """The default answer to a request's JSON (see the module docstring)."""
        texts = request.get("input") or []
        texts = [texts] if isinstance(texts, str) else texts
        dim = request.get("dimensions") or self.dim
        data = [
            {"object": "embedding", "index": i, "embedding": self.vector(t, dim)}
            for i, t in enumerate(texts)
        ]
        if self.reverse:
            data.reverse()
        return {
            "object": "list",
            "data": data,
            "model": request.get("model"),
            "usage": {"prompt_tokens": 0, "total_tokens": 0},
        }

    # -- lifetime --------------------------------------------------------------------------------
    def close(self) -> None:
        """Stop serving (hanging requests are released first)."""
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(5)

    def __enter__(self) -> FakeEmbeddingsServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _next_reply(self, recorded: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(recorded)
            self._lock.notify_all()
            return self._script.popleft() if self._script else Reply()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    body = json.loads(raw.decode("utf-8"))
                except ValueError:
                    body = None
                headers = {k.lower(): v for k, v in self.headers.items()}
                reply = server._next_reply(RecordedRequest(self.path, headers, body))
                if reply.delay:
                    server._closing.wait(reply.delay)
                if not self.path.rstrip("/").endswith("/embeddings"):
                    reply = Reply(404, {"error": {"message": f"no route {self.path}"}})
                content = reply.body
                if callable(content):
                    content = content(body if isinstance(body, dict) else {})
                if content is None:
                    content = server.answer(body if isinstance(body, dict) else {})
                data = content if isinstance(content, bytes) else json.dumps(content).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the client gave up (timed out) meanwhile
                    pass

        return Handler


@pytest.fixture
def embeddings_server() -> Iterator[FakeEmbeddingsServer]:
    """A running ``FakeEmbeddingsServer(dim=8)``, closed after the test."""
    with FakeEmbeddingsServer() as server:
        yield server

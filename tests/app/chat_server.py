"""A local OpenAI-compatible ``/chat/completions`` server whose answers a test chooses."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class FakeChat:
    """``url`` to use as the endpoint's base URL; ``replies`` are sent in turn (the last one
    again when they run out): a string is the answer's ``choices[0].message.content``, a
    ``(status, body)`` pair an HTTP error with that JSON body. ``requests`` records each
    request's ``path``, JSON ``body`` and ``Authorization`` header."""

    url: str = ""
    replies: list[Any] = field(default_factory=lambda: ["OK"])
    requests: list[dict[str, Any]] = field(default_factory=list)


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        chat: FakeChat = self.server.chat  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        chat.requests.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        reply = chat.replies.pop(0) if len(chat.replies) > 1 else chat.replies[0]
        if isinstance(reply, tuple):
            status, doc = reply
        else:
            status, doc = 200, {"choices": [{"message": {"role": "assistant", "content": reply}}]}
        raw = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def fake_chat(*replies: Any) -> Iterator[FakeChat]:
    """A running fake chat endpoint on 127.0.0.1 (a free port), shut down afterwards."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    chat = FakeChat(f"http://127.0.0.1:{server.server_address[1]}/v1", list(replies) or ["OK"])
    server.chat = chat  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield chat
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)

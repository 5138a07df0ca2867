"""The server's own words in an HTTP error from an OpenAI-compatible endpoint: shared by the
embedding endpoint (core/vectors/endpoint.py) and the AI draft / recall route client
(app/llm_client.py), which each put them in their own message."""

from __future__ import annotations

import http.client
import json
import urllib.error

MAX_DETAIL = 300
"""Characters of the server's message kept (a proxy's whole HTML page is not a message)."""


def server_message(text: str) -> str:
    """The message of an OpenAI-style error body (``error.message``, ``error`` as a string, or a
    top-level ``message``), else the body itself; on one line (runs of white space become one
    space), "" for an empty body. Pure."""
    try:
        doc = json.loads(text)
    except ValueError:
        return " ".join(text.split())
    error = doc.get("error") if isinstance(doc, dict) else None
    if isinstance(error, dict) and error.get("message"):
        message = str(error["message"])
    elif isinstance(error, str):
        message = error
    elif isinstance(doc, dict) and doc.get("message"):
        message = str(doc["message"])
    else:
        message = text
    return " ".join(message.split())


def http_error_detail(exc: urllib.error.HTTPError, limit: int = MAX_DETAIL) -> str:
    """What the server said about ``exc``: ``server_message`` of its body, else the HTTP reason,
    at most ``limit`` characters; "" when it said nothing. Reads the error's body (blocking,
    briefly: it has arrived); a body that cannot be read counts as empty."""
    try:
        text = exc.read().decode("utf-8", "replace")
    except (OSError, http.client.HTTPException):
        text = ""
    return (server_message(text) or str(exc.reason or "").strip())[:limit]

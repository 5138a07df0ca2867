"""The endpoint embedding profile: an OpenAI-compatible ``POST {base_url}/embeddings``.

Plain urllib, no SDK. ``EndpointEmbedder.embed`` sends the non-empty texts in batches of
``batch_size`` as ``{"model", "input": [...]}`` (plus ``"dimensions"`` when the profile names
them), with ``Authorization: Bearer KEY`` when a key is given, and returns one unit-length float32
row per text in the caller's order (the answer's ``data[i].index`` decides which row is which).
A batch is tried again on HTTP 429, 5xx, a timeout or a connection error, after an exponential
backoff (``backoff``, 2×, 4× … seconds, or the server's ``Retry-After`` in seconds, capped at
``MAX_RETRY_AFTER``), up to ``attempts`` tries in all; any other 4xx fails at once. Every failure
is ``MemgraphError("EMBEDDING_FAILED", ...)`` naming the URL and model, the HTTP status and the
server's own message (or the network error); a set ``cancel`` event gives
``MemgraphError("EMBEDDING_CANCELLED", ...)``. Nothing half-done is ever returned.
"""

from __future__ import annotations

import http.client
import json
import math
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.server_errors import http_error_detail
from memgraph_gui.core.vectors.profiles import ProfileSpec, cancelled

MAX_RETRY_AFTER = 30.0
"""The longest wait a server's ``Retry-After`` header can ask for, in seconds."""


def embeddings_url(base_url: str) -> str:
    """``base_url`` + ``/embeddings`` (a URL already ending in it is kept; trailing slashes and
    spaces are dropped)."""
    base = base_url.strip().rstrip("/")
    return base if base.endswith("/embeddings") else base + "/embeddings"


class _Retryable(Exception):
    """One try failed in a way worth another (429, 5xx, timeout, connection error)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message, self.retry_after = message, retry_after


class EndpointEmbedder:
    """Embeds texts through an OpenAI-compatible embeddings endpoint (see the module docstring).

    ``api_key`` is the key itself or a zero-argument callable returning it ("" or ``None`` sends
    no ``Authorization`` header); a callable is called once per ``embed()`` that has something
    to send, on the caller's thread. Blocking; call it off the GUI thread. One instance may be
    used from one thread at a time. ``dim`` is the row length of the last answer (``None``
    before any).
    """

    def __init__(
        self,
        spec: ProfileSpec,
        api_key: str | Callable[[], str] | None = None,
        *,
        batch_size: int = 64,
        attempts: int = 4,
        backoff: float = 0.5,
        timeout: float = 30.0,
    ) -> None:
        if batch_size < 1 or attempts < 1 or backoff < 0 or timeout <= 0:
            raise ValueError("batch_size and attempts must be >= 1, backoff >= 0, timeout > 0")
        self.spec = spec
        self._api_key = api_key
        self.batch_size, self.attempts = batch_size, attempts
        self.backoff, self.timeout = backoff, timeout
        self.dim: int | None = spec.dimensions

    @property
    def url(self) -> str:
        """The URL the requests go to."""
        return embeddings_url(self.spec.base_url)

    def embed(
        self,
        texts: Sequence[str],
        *,
        cancel: threading.Event | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> np.ndarray:
        """One unit-length float32 row per text, in order (a zero row for an empty or
        whitespace-only text, which is not sent). ``progress(done, total)`` after each batch
        (``total`` = ``len(texts)``, empty texts counted as done from the start). Raises
        ``MemgraphError`` ``EMBEDDING_FAILED`` or ``EMBEDDING_CANCELLED``."""
        total = len(texts)
        todo = [i for i, text in enumerate(texts) if text.strip()]
        done = total - len(todo)
        if not todo:
            if progress is not None:
                progress(total, total)
            return np.zeros((total, self.dim or 0), np.float32)
        self._check_url()
        key = self._key()
        parts: list[np.ndarray] = []
        dim: int | None = None
        for start in range(0, len(todo), self.batch_size):
            self._check_cancel(cancel)
            batch = [texts[i] for i in todo[start : start + self.batch_size]]
            rows = self._batch(batch, key, cancel)
            if dim is not None and rows.shape[1] != dim:
                raise self._failed(f"the answer has rows of {dim} and {rows.shape[1]} dimensions")
            dim = rows.shape[1]
            parts.append(rows)
            done += len(batch)
            if progress is not None:
                progress(done, total)
        self._check_cancel(cancel)
        assert dim is not None
        out = np.zeros((total, dim), np.float32)
        out[todo] = np.concatenate(parts)
        self.dim = dim
        return out

    # -- one batch ------------------------------------------------------------------------------
    def _batch(self, batch: list[str], key: str, cancel: threading.Event | None) -> np.ndarray:
        """The rows of one batch, tried up to ``attempts`` times."""
        body: dict[str, Any] = {"model": self.spec.model, "input": batch}
        if self.spec.dimensions:
            body["dimensions"] = self.spec.dimensions
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        for attempt in range(1, self.attempts + 1):
            try:
                raw = self._post(data, key)
            except _Retryable as exc:
                if attempt == self.attempts:
                    tries = f" (tried {attempt} times)" if attempt > 1 else ""
                    raise self._failed(exc.message + tries) from None
                wait = self.backoff * 2 ** (attempt - 1)
                if exc.retry_after is not None:
                    wait = min(exc.retry_after, MAX_RETRY_AFTER)
                if self._pause(wait, cancel):
                    raise cancelled() from None
                continue
            return self._rows(raw, len(batch))
        raise AssertionError("unreachable")  # pragma: no cover

    def _post(self, data: bytes, key: str) -> bytes:
        """The answer's body for one try. Raises ``_Retryable`` or ``MemgraphError``."""
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                body: bytes = response.read()
                return body
        except urllib.error.HTTPError as exc:
            detail = http_error_detail(exc) or "no details"
            message = f"HTTP {exc.code}: {detail}"
            if exc.code == 429 or exc.code >= 500:
                raise _Retryable(message, _retry_after(exc.headers.get("Retry-After"))) from None
            raise self._failed(message) from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, (TimeoutError, socket.timeout)):
                raise _Retryable(self._timeout_text()) from None
            raise _Retryable(f"could not connect: {exc.reason}") from None
        except TimeoutError:
            raise _Retryable(self._timeout_text()) from None
        except (OSError, http.client.HTTPException) as exc:  # reset, cut short, malformed answer
            raise _Retryable(f"the connection failed: {exc or type(exc).__name__}") from None

    def _rows(self, raw: bytes, count: int) -> np.ndarray:
        """The unit-length rows of one answer, ordered by ``data[i].index``."""
        try:
            doc = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise self._failed("the answer is not valid JSON") from None
        data = doc.get("data") if isinstance(doc, dict) else None
        if not isinstance(data, list):
            raise self._failed("the answer has no data list")
        if len(data) != count:
            raise self._failed(f"the answer has {len(data)} rows for {count} texts")
        rows: list[list[float] | None] = [None] * count
        for position, item in enumerate(data):
            vector = item.get("embedding") if isinstance(item, dict) else None
            index = item.get("index", position) if isinstance(item, dict) else None
            if not isinstance(index, int) or not 0 <= index < count or rows[index] is not None:
                raise self._failed(f"the answer's data[{position}].index is not a new row index")
            if not isinstance(vector, list) or not vector:
                raise self._failed(f"the answer's data[{position}].embedding is not a list")
            rows[index] = vector
        dims = sorted({len(row) for row in rows if row is not None})
        if len(dims) > 1:
            raise self._failed(f"the answer has rows of {dims[0]} and {dims[-1]} dimensions")
        try:
            out = np.asarray(rows, dtype=np.float64)
        except (TypeError, ValueError):
            raise self._failed("the answer's embeddings are not lists of numbers") from None
        if not np.isfinite(out).all():
            raise self._failed("the answer's embeddings hold non-finite numbers")
        wanted = self.spec.dimensions
        if wanted and out.shape[1] != wanted:
            raise self._failed(
                f"the answer has rows of {out.shape[1]} dimensions, the profile asks for {wanted}"
            )
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)
        return out.astype(np.float32)

    # -- helpers --------------------------------------------------------------------------------
    def _pause(self, seconds: float, cancel: threading.Event | None) -> bool:
        """Wait ``seconds`` before the next try; True when ``cancel`` was set meanwhile."""
        if cancel is None:
            threading.Event().wait(seconds)
            return False
        return cancel.wait(seconds)

    def _key(self) -> str:
        key = self._api_key
        if callable(key):
            try:
                key = key()
            except Exception as exc:
                raise self._failed(f"the API key could not be read: {exc}") from exc
        return key or ""

    def _check_url(self) -> None:
        if not self.spec.base_url.strip():
            raise MemgraphError(
                "EMBEDDING_FAILED",
                f"The embedding profile {self.spec.name!r} has no endpoint URL.",
            )
        if not self.url.lower().startswith(("http://", "https://")):
            raise self._failed("the URL must start with http:// or https://")

    def _check_cancel(self, cancel: threading.Event | None) -> None:
        if cancel is not None and cancel.is_set():
            raise cancelled()

    def _timeout_text(self) -> str:
        return f"no answer within {self.timeout:g} seconds"

    def _failed(self, detail: str) -> MemgraphError:
        return MemgraphError(
            "EMBEDDING_FAILED",
            f"The embedding endpoint {self.url} (model {self.spec.model!r}) failed: {detail}",
            url=self.url,
            model=self.spec.model,
        )


def _retry_after(value: str | None) -> float | None:
    """A ``Retry-After`` header in seconds (``None`` for none, or the HTTP-date form)."""
    try:
        seconds = float(value) if value is not None else math.nan
    except ValueError:
        return None
    return max(seconds, 0.0) if math.isfinite(seconds) else None

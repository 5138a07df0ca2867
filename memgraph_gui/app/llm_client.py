"""AI drafts and the recall route model over an OpenAI-compatible ``/chat/completions`` endpoint
(plain urllib, no SDK).

``request_chat`` (any chat), ``request_completion`` (an AI draft) and ``route_recall`` (the
Recall lab's "Run recall") are blocking and raise ``DraftError`` with a plain-text message for
every failure (no endpoint, timeout, unreachable host, HTTP 4xx/5xx with the server's own message,
an answer that is not the expected JSON). ``DraftJob`` runs a draft on a plain daemon thread,
never on the GUI thread and never on the single writer, and reports back through queued Qt
signals.
"""

from __future__ import annotations

import json
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memgraph_gui.app.qt import QObject, Signal, tr
from memgraph_gui.app.secrets import SecretsUnavailable, get_api_key
from memgraph_gui.app.settings import DraftEndpoint
from memgraph_gui.core.domain.draft import clip_lines
from memgraph_gui.core.domain.server_errors import http_error_detail
from memgraph_gui.core.luker.route_input import RouteInput
from memgraph_gui.core.luker.route_prompt import RoutePick, parse_route_answer, route_messages

SYSTEM_PROMPT = (
    "You maintain the long-term memory of a role-play chat. Write one faithful summary of the "
    "memory entries the user gives you, in the language(s) they are written in. Keep every "
    "name, place and decision; invent nothing; no preamble, no headings, plain text only."
)


class DraftError(Exception):
    """A draft could not be produced; ``str()`` is a plain-text message for the user."""


def chat_url(base_url: str) -> str:
    """``base_url`` + ``/chat/completions`` (a URL already ending in it is kept)."""
    base = base_url.strip().rstrip("/")
    return base if base.endswith("/chat/completions") else base + "/chat/completions"


def ping_messages() -> list[dict[str, str]]:
    """A tiny request for "Test connection"."""
    return [{"role": "user", "content": "Reply with the single word OK."}]


AI_INPUT_CHARS = 6000  # the children's text an AI draft request carries at most


@dataclass(frozen=True, slots=True)
class SummaryRequest:
    """The chat messages asking for a rollup summary, and how the children's text was capped:
    ``budget`` characters in all, ``cut`` of the ``entries`` shortened (ending in "…")."""

    messages: list[dict[str, str]]
    budget: int
    entries: int
    cut: int

    def cut_note(self) -> str:
        """A line for the wizard saying what was cut ("" when nothing was)."""
        if not self.cut:
            return ""
        return tr(
            "The children's text was capped at {budget} characters for the AI: {cut} of "
            "{n} entries were cut short."
        ).format(budget=self.budget, cut=self.cut, n=self.entries)


def summary_request(
    briefs: Sequence[Mapping[str, Any]],
    type_id: str,
    instruction: str = "",
    *,
    budget: int = AI_INPUT_CHARS,
) -> SummaryRequest:
    """The request for a rollup summary of ``briefs`` (oldest first): one line per entry,
    ``[seq] title: summary``, the lines capped at ``budget`` characters in all (the longest
    cut first, to a common length, with "…"); the prompt states the cap and what was cut."""
    lines = [
        " ".join(f"[{b.get('toSeq', '')}] {b.get('title', '')}: {b.get('summary', '')}".split())
        for b in briefs
    ]
    capped = clip_lines(lines, budget)
    cut = sum(1 for a, b in zip(lines, capped, strict=True) if a != b)
    ask = f"Summarise these {len(briefs)} {type_id} entries into one rollup summary."
    if instruction.strip():
        ask += "\n" + instruction.strip()
    if cut:
        ask += (
            f"\nThe entries are capped at {budget} characters in all: {cut} of them were cut "
            "short (they end in …); do not guess what was cut."
        )
    return SummaryRequest(
        [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": ask + "\n\n" + "\n".join(capped)},
        ],
        budget,
        len(lines),
        cut,
    )


def request_completion(
    endpoint: DraftEndpoint,
    messages: list[dict[str, str]],
    *,
    api_key: str = "",
    max_tokens: int = 600,
) -> str:
    """An AI draft: POST ``messages`` and return ``choices[0].message.content`` (stripped).
    Blocking, any thread but the GUI one. Raises ``DraftError`` (``request_chat``'s failures,
    worded for a draft: each names the offline draft as the way out)."""
    return _chat(endpoint, messages, api_key=api_key, max_tokens=max_tokens, draft=True)


def request_chat(
    endpoint: DraftEndpoint,
    messages: list[dict[str, str]],
    *,
    api_key: str = "",
    max_tokens: int = 1200,
) -> str:
    """POST ``messages`` to ``endpoint``'s ``/chat/completions`` and return
    ``choices[0].message.content`` (stripped). Blocking, any thread but the GUI one. Raises
    ``DraftError`` with a plain-text message for every failure: no endpoint set, timeout,
    unreachable host, HTTP 4xx/5xx (with the server's own message), an answer that is not the
    expected JSON or is empty."""
    return _chat(endpoint, messages, api_key=api_key, max_tokens=max_tokens, draft=False)


ROUTE_MAX_TOKENS = 1200  # the route model's answer: ids and a few words per id


def route_recall(
    endpoint: DraftEndpoint,
    route: RouteInput,
    message: str,
    *,
    api_key: str = "",
    max_tokens: int = ROUTE_MAX_TOKENS,
) -> RoutePick:
    """Run the route model once: ``route_messages(route, message)`` through ``request_chat``,
    the answer read by ``parse_route_answer`` against the route's candidate ids. Blocking, any
    thread but the GUI one. Raises ``DraftError`` (the request failed) or MemgraphError
    ``BAD_ROUTE_ANSWER`` (the model answered something unusable)."""
    text = request_chat(
        endpoint, route_messages(route, message), api_key=api_key, max_tokens=max_tokens
    )
    return parse_route_answer(text, route.candidate_ids)


def _chat(
    endpoint: DraftEndpoint,
    messages: list[dict[str, str]],
    *,
    api_key: str,
    max_tokens: int,
    draft: bool,
) -> str:
    """The request behind ``request_completion`` (``draft``) and ``request_chat``."""
    if not endpoint.configured:
        raise DraftError(
            tr("No AI endpoint is set. Open Preferences… to set one, or draft offline.")
            if draft
            else tr("No AI endpoint is set. Open Preferences… to set one.")
        )
    url = chat_url(endpoint.base_url)
    body = {"model": endpoint.model, "messages": messages, "max_tokens": max_tokens}
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    request = urllib.request.Request(
        url, data=json.dumps(body).encode("utf-8"), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=endpoint.timeout) as response:
            raw = response.read()
    except urllib.error.HTTPError as exc:
        raise DraftError(_http_message(exc)) from exc
    except TimeoutError as exc:
        raise DraftError(_timeout_message(endpoint, draft)) from exc
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, (TimeoutError, socket.timeout)):
            raise DraftError(_timeout_message(endpoint, draft)) from exc
        raise DraftError(
            tr("Could not reach {url}: {reason}").format(url=url, reason=exc.reason)
        ) from exc
    except (OSError, ValueError) as exc:  # a reset connection, a malformed URL
        raise DraftError(tr("Could not reach {url}: {reason}").format(url=url, reason=exc)) from exc
    return _content(raw, draft)


def _timeout_message(endpoint: DraftEndpoint, draft: bool) -> str:
    if not draft:
        return tr(
            "The AI endpoint did not answer within {seconds:g} seconds. Try again, or raise the "
            "timeout in Preferences…."
        ).format(seconds=endpoint.timeout)
    return tr(
        "The AI endpoint did not answer within {seconds:g} seconds. Try again, raise the "
        "timeout in Preferences…, or draft offline."
    ).format(seconds=endpoint.timeout)


def _http_message(exc: urllib.error.HTTPError) -> str:
    """ "The AI endpoint refused the request (HTTP 401): <the server's own message>"."""
    return tr("The AI endpoint refused the request (HTTP {status}): {detail}").format(
        status=exc.code, detail=http_error_detail(exc) or tr("no details")
    )


def _content(raw: bytes, draft: bool) -> str:
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise DraftError(tr("The AI endpoint's answer was not valid JSON.")) from exc
    try:
        content = doc["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise DraftError(tr("The AI endpoint's answer has no choices[0].message.content.")) from exc
    if not isinstance(content, str) or not content.strip():
        raise DraftError(
            tr("The AI endpoint answered with an empty draft.")
            if draft
            else tr("The AI endpoint answered with an empty message.")
        )
    return content.strip()


def read_api_key() -> tuple[str, str]:
    """``(key, problem)``: the saved key, or "" and why it could not be read (worker thread)."""
    try:
        return get_api_key(), ""
    except SecretsUnavailable as exc:
        return "", str(exc)


class DraftJob(QObject):
    """One AI request on its own daemon thread. Create and ``start()`` on the GUI thread and keep
    a reference until ``finished(text)`` or ``failed(message)`` arrives (queued to the GUI thread).
    ``api_key=None`` reads the saved key from the keyring on the worker thread (a missing keyring
    sends no key, and a 401/403 then says why).
    """

    finished = Signal(str)
    failed = Signal(str)

    def __init__(
        self,
        endpoint: DraftEndpoint,
        messages: list[dict[str, str]],
        *,
        max_tokens: int = 600,
        api_key: str | None = None,
        tag: object = None,
    ) -> None:
        super().__init__()
        self._endpoint, self._messages, self._max_tokens = endpoint, messages, max_tokens
        self._api_key = api_key  # None: read the saved one from the keyring on the thread
        self.tag = tag  # whatever the caller needs to recognise its answer
        self._thread = threading.Thread(target=self._run, name="memgraph-draft", daemon=True)

    def start(self) -> None:
        """Send the request in the background."""
        self._thread.start()

    def wait(self, timeout: float | None = None) -> None:
        """Join the thread (tests and shutdown)."""
        self._thread.join(timeout)

    def _run(self) -> None:  # worker thread: no widgets, only signals
        key, problem = self._api_key or "", ""
        if self._api_key is None and self._endpoint.configured:
            key, problem = read_api_key()
        try:
            text = request_completion(
                self._endpoint, self._messages, api_key=key, max_tokens=self._max_tokens
            )
        except DraftError as exc:
            message = str(exc)
            if problem and ("HTTP 401" in message or "HTTP 403" in message):
                message += "\n\n" + tr("No API key was sent: {problem}").format(problem=problem)
            self.failed.emit(message)
        except Exception as exc:  # a bug must still end the busy state
            self.failed.emit(tr("The AI draft failed: {error}").format(error=exc))
        else:
            self.finished.emit(text)

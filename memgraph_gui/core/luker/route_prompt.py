"""The route model's prompt and the reading of its answer (the Recall lab's "Run recall").

``route_messages`` gives the chat messages for an OpenAI-compatible chat endpoint;
``parse_route_answer`` turns the model's reply into the ids it picked (only candidate ids, in the
order given, each once) and its reasons. Pure functions: any thread.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.luker.route_input import RouteInput, route_text

ROUTE_SYSTEM_PROMPT = """\
You are the recall router of a role-play chat's long-term memory graph. Before the next turn you \
choose which memories are injected into the chat's prompt, so that the reply to the user's \
message can draw on them.

The user's content has four sections:
- schema_overview: the memory node types (table name, columns, whether they are always injected, \
how they are compressed);
- always_inject_node_ids: nodes injected anyway; do not pick them again;
- candidateRows: one memory per line (id, type, title, summary, key and row values, its last \
turn toSeq, its edges and sample neighbours);
- recall_query_context: the user's message for the next turn.

Pick the memories the reply needs: the people, places, threads and events the message is about \
or depends on, most relevant first; pick none when nothing is relevant. Use only ids that appear \
in candidateRows, exactly as written.

Answer with one JSON object and nothing else:
{"selected_ids": ["id", ...], "reasons": {"id": "why this memory is needed, in a few words"}}"""


@dataclass(frozen=True)
class RoutePick:
    """The route model's choice: ``ids`` (candidate ids, in the model's order, each once),
    ``reasons`` (id -> why, for picked ids only) and ``unknown`` (ids the model gave that are not
    candidates: dropped, kept here to show)."""

    ids: tuple[str, ...]
    reasons: dict[str, str] = field(default_factory=dict)
    unknown: tuple[str, ...] = ()


def route_messages(route: RouteInput, message: str) -> list[dict[str, str]]:
    """The chat messages for one routing request: the system prompt (what is being chosen and the
    answer's JSON form), then the user content: ``route.text``, or, when ``message`` is not the
    message ``route`` was built for, the same blocks with ``message`` as the recall query
    context (``route_text``)."""
    text = route.text
    if message != route.message:
        text = route_text(
            route.schema_overview, route.candidate_rows, route.always_inject_ids, message
        )
    return [
        {"role": "system", "content": ROUTE_SYSTEM_PROMPT},
        {"role": "user", "content": text},
    ]


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_QUOTE_CHARS = 80


def parse_route_answer(text: str, known_ids: Iterable[str]) -> RoutePick:
    """Read the model's answer: a JSON object with ``selected_ids`` (array of ids) and optional
    ``reasons`` (object id -> text), bare or fenced in ```json, possibly with prose around it.

    Ids not in ``known_ids`` are dropped (listed in ``RoutePick.unknown``); order is kept,
    repeats are dropped; ids are trimmed strings (numbers are stringified). Raises MemgraphError
    ``BAD_ROUTE_ANSWER``, quoting the start of the answer, when no JSON object with a
    ``selected_ids`` array can be found."""
    doc = _answer_object(text if isinstance(text, str) else "")
    if doc is None:
        start = " ".join(str(text or "").split())
        quoted = start[:_QUOTE_CHARS] + ("…" if len(start) > _QUOTE_CHARS else "")
        detail = (
            f"The route model's answer has no JSON object with a selected_ids array: {quoted!r}"
            if quoted
            else "The route model's answer was empty."
        )
        raise MemgraphError("BAD_ROUTE_ANSWER", detail)
    known = set(known_ids)
    picked: dict[str, None] = {}
    unknown: dict[str, None] = {}
    for item in doc["selected_ids"]:
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            continue
        node_id = str(item).strip()
        if not node_id:
            continue
        (picked if node_id in known else unknown)[node_id] = None
    reasons_in = doc.get("reasons")
    reasons: dict[str, str] = {}
    if isinstance(reasons_in, Mapping):
        for key, value in reasons_in.items():
            node_id = str(key).strip()
            if node_id in picked and isinstance(value, (str, int, float)):
                reasons[node_id] = str(value).strip()
    return RoutePick(ids=tuple(picked), reasons=reasons, unknown=tuple(unknown))


def _answer_object(text: str) -> dict[str, Any] | None:
    """The first JSON object with a ``selected_ids`` list: in a fenced block, the whole text, or
    any ``{...}`` span of it (outermost first)."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)]
    candidates.append(text)
    for candidate in candidates:
        found = _object_in(candidate.strip())
        if found is not None:
            return found
    return None


def _object_in(text: str) -> dict[str, Any] | None:
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start >= 0:
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            value = None
        if isinstance(value, dict) and isinstance(value.get("selected_ids"), list):
            return value
        start = text.find("{", start + 1)
    return None

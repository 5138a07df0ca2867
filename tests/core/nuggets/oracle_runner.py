"""Run a Nuggets scenario through our API and put its trace in canonical form.

A scenario is a list of steps ``{nugget, call, args, snapshot?}`` (``call`` is Nuggets'
camelCase name); a string ``"$<n>"`` anywhere in ``args`` stands for the id of the n-th note in
storage order (all nuggets), ``{"$num": "NaN"}`` for a number JSON cannot write. The trace holds,
per step, the call's result and every note as stored afterwards (unless ``snapshot`` is false;
always after the last step). ``canonical`` renames note ids and time stamps
by their first appearance, so a trace of the real Nuggets code (random ids, its own clock; see
``data/api_oracle.json``) and ours compare as they are.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.results import to_jsonable
from memgraph_gui.core.nuggets.model import is_note, note_json

CALLS = {
    "remember": "remember",
    "createNote": "create_note",
    "editNote": "edit_note",
    "updateNote": "update_note",
    "deleteNote": "delete_note",
    "addLink": "add_link",
    "mergeNotes": "merge_notes",
    "recordHit": "record_hit",
    "getNote": "get_note",
    "listNotes": "list_notes",
}
_ID = re.compile(r"(?:fact|note)-[^\s\"]*?-[0-9a-f]{8}(?![0-9a-f])")
_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def stored_notes(store: MemoryStore) -> list[dict[str, Any]]:
    """Every note of the store (all nuggets) in storage order, as its JSON."""
    with store.reading() as graph:
        nodes = sorted((n for n in graph.nodes.values() if is_note(n)), key=lambda n: n.ord)
        return [note_json(node) for node in nodes]


def _bind(value: Any, ids: list[str]) -> Any:
    if isinstance(value, list):
        return [_bind(item, ids) for item in value]
    if isinstance(value, dict):
        if set(value) == {"$num"}:
            return float(value["$num"])
        return {key: _bind(item, ids) for key, item in value.items()}
    if isinstance(value, str) and re.fullmatch(r"\$\d+", value):
        return ids[int(value[1:])]
    return value


def ticking_clock() -> Callable[[], str]:
    """A stand-in for ``api.iso_now`` one second later at each call (two calls in one
    millisecond share a stamp, in Nuggets as here: a trace needs them apart to compare)."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    seconds = itertools.count(1)
    return lambda: (start + timedelta(seconds=next(seconds))).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def run(store: MemoryStore, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run ``steps`` on ``store``; the trace (raw ids and stamps)."""
    trace = []
    for index, step in enumerate(steps):
        ids = [note["id"] for note in stored_notes(store)]
        api = store.nuggets(step["nugget"])
        result = to_jsonable(getattr(api, CALLS[step["call"]])(*_bind(step["args"], ids)))
        keep = step.get("snapshot", True) or index == len(steps) - 1
        trace.append({"result": result, "notes": stored_notes(store) if keep else None})
    return trace


def canonical(trace: Any) -> Any:
    """``trace`` with each distinct note id renamed ``ID<n>`` and each distinct stamp ``T<n>``,
    numbered in order of first appearance (keys visited in their stored order)."""
    names: dict[str, str] = {}
    ids, stamps = itertools.count(), itertools.count()

    def rename(match: re.Match[str], prefix: str, counter: itertools.count[int]) -> str:
        text = match.group(0)
        if text not in names:
            names[text] = f"{prefix}{next(counter)}"
        return names[text]

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            value = _ID.sub(lambda m: rename(m, "ID", ids), value)
            return _STAMP.sub(lambda m: rename(m, "T", stamps), value)
        if isinstance(value, list):
            return [walk(item) for item in value]
        if isinstance(value, dict):
            return {walk(key): walk(item) for key, item in value.items()}
        return value

    return walk(trace)

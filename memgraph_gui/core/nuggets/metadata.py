"""Nuggets' metadata inference (``inferMetadata`` / ``mergeMetadata``) as the readings say.

Every hint is a substring match on lower-cased text. Where the seed and Nuggets' code differ the
seed wins: stability is temporary for keys that *start* with ``_`` / ``tmp`` / ``scratch``, and a
note given (or stored with) scope ``session`` is temporary unless a stability is given or stored.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from memgraph_gui.core.nuggets.text import js_trim

SCOPES = ("self", "user", "shared", "project", "session")
TYPES = (
    "fact",
    "note",
    "preference",
    "reflection",
    "self_model",
    "project",
    "relationship",
    "style",
)
SOURCES = ("explicit_user", "agent_reflection", "tool_observation", "inferred", "system")
STABILITIES = ("temporary", "durable")
META_KEYS = ("subject", "scope", "type", "source", "confidence", "stability")
"""The six NoteMetadata fields, in the order Nuggets writes them."""

_SELF_HINTS = ("assistant", "astra", "self", "identity", "persona")
_SHARED_HINTS = (
    *("shared", "server", "project", "workspace", "repo", "memory_system", "system", "status"),
    *("reaction", "tool", "command", "cmd", "path", "file", "edited", "task"),
)
# the user hints (user esteban friend denis business preference likes avoid products) and no hint
# at all both give "user" (see ``infer_scope``)
_SCOPE_PREFIXES = tuple(f"{scope}:" for scope in SCOPES)


def _has(text: str, hints: Sequence[str]) -> bool:
    return any(hint in text for hint in hints)


def has_scope_prefix(key: str) -> bool:
    """Whether ``key`` (trimmed, any case) starts with ``user:`` ``self:`` ``shared:``
    ``project:`` or ``session:``."""
    return js_trim(key).lower().startswith(_SCOPE_PREFIXES)


def infer_scope(key: str, content: str = "", tags: Sequence[str] = ()) -> str:
    """The scope Nuggets infers from a key (or title), content and tags (first match wins)."""
    lower = js_trim(key).lower()
    for scope in SCOPES:
        if lower.startswith(f"{scope}:"):
            return scope
    if lower.startswith("_"):
        return "shared"
    text = f"{lower} {content.lower()} {' '.join(tags).lower()}"
    if _has(lower, ("assistant_name", "assistant_style", "assistant_tone", "assistant_voice")):
        return "self"
    if _has(lower, ("user_name", "user_tone", "user_style", "user_voice")):
        return "user"
    if _has(text, _SHARED_HINTS):
        return "project" if "project" in lower else "shared"
    if _has(text, _SELF_HINTS):
        return "self"
    return "user"  # a user hint or none: both give "user"


def prefix_scoped_key(key: str, content: str = "", tags: Sequence[str] = ()) -> str:
    """``key`` trimmed, with ``<inferred scope>:`` in front unless it has a scope prefix."""
    trimmed = js_trim(key)
    if not trimmed or has_scope_prefix(trimmed):
        return trimmed
    return f"{infer_scope(trimmed, content, tags)}:{trimmed}"


def clamp_confidence(value: Any) -> float | int:
    """A confidence as stored: not a finite number -> 0.7, else clamped to [0, 1]. A whole
    result is an ``int`` (``2`` -> ``1``, ``0.0`` -> ``0``), as JavaScript writes it."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return 0.7
    return js_number(max(0.0, min(1.0, float(value))))


def js_number(value: float | int) -> float | int:
    """A finite number as JavaScript's ``JSON.stringify`` writes it: whole values without a
    fraction (``1.0`` -> ``1``, ``-0.0`` -> ``0``), others unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def infer_metadata(
    *, kind: str, title: str, content: str, tags: Sequence[str], source_key: str | None
) -> dict[str, Any]:
    """The six metadata fields Nuggets infers for a note (key = ``source_key`` or ``title``)."""
    raw_key = source_key or title
    key = js_trim(raw_key).lower()
    scope = infer_scope(raw_key, content, tags)
    subject = {"self": "assistant:self", "user": "user:primary", "session": "session:current"}
    type_ = "fact" if kind == "fact" else "note"
    if ":pref:" in key or key.startswith("pref:") or "preferences" in tags:
        type_ = "preference"
    elif "reflect:" in key or "reflection" in tags:
        type_ = "reflection"
    elif scope == "self":
        type_ = "style" if "style" in key else "self_model"
    elif scope == "project" or key.startswith("project:"):
        type_ = "project"
    source = "explicit_user"
    if "file:" in key or "edited:" in key:
        source = "tool_observation"
    elif type_ in ("reflection", "self_model", "style"):
        source = "agent_reflection" if scope == "self" else "inferred"
    temporary = scope == "session" or key.startswith(("_", "tmp", "scratch"))
    confidence = {"tool_observation": 0.98, "agent_reflection": 0.75, "inferred": 0.6}
    return {
        "subject": subject.get(scope, "shared:project"),
        "scope": scope,
        "type": type_,
        "source": source,
        "confidence": confidence.get(source, 0.9),
        "stability": "temporary" if temporary else "durable",
    }


def merge_metadata(
    inferred: Mapping[str, Any],
    stored: Mapping[str, Any] | None = None,
    given: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Each field = given ?? stored ?? inferred (``None`` / absent counts as missing), the
    confidence clamped. With no stability given or stored, scope ``session`` is temporary."""
    stored, given = stored or {}, given or {}

    def pick(name: str) -> Any:
        for source in (given, stored):
            if source.get(name) is not None:
                return source[name]
        return inferred[name]

    out = {name: pick(name) for name in META_KEYS}
    out["confidence"] = clamp_confidence(out["confidence"])
    if given.get("stability") is None and stored.get("stability") is None:
        if out["scope"] == "session":
            out["stability"] = "temporary"
    return out

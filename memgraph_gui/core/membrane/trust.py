"""Membrane's trust rules: a caller's ``TrustContext``, the tier it reads a record at, and the
redacted form (``membrane-readings.md``, "Records and trust").

- Levels public < low < medium < high < hyper. With the caller's ``max_sensitivity`` m, a record
  at ≤ m is read in full, at exactly m+1 redacted, at ≥ m+2 omitted.
- Non-empty ``scopes``: a scoped record is seen only if its scope equals one of them exactly;
  unscoped records are seen by every allowed caller. Empty ``scopes``: no scope filtering.
- ``authenticated`` and ``actor_id`` gate nothing (kept for display).

Errors: ``INVALID_ARGUMENT`` for a missing / null trust, an unknown ``max_sensitivity``, a wrong
type; ``RECORD_NOT_FOUND`` and ``ACCESS_DENIED`` are ``retrieveByID``'s. Pure; any thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.membrane.model import MEMORY_TYPES, SENSITIVITIES

INVALID = "INVALID_ARGUMENT"
NOT_FOUND = "RECORD_NOT_FOUND"
DENIED = "ACCESS_DENIED"
REDACTED_KEYS = (
    "id",
    "type",
    "sensitivity",
    "salience",
    "scope",
    "tags",
    "created_at",
    "updated_at",
)
"""Exactly the keys a redacted record keeps, in this order (**seed**)."""
Tier = Literal["full", "redacted", "omitted"]
LEVEL = {name: rank for rank, name in enumerate(SENSITIVITIES)}


@dataclass(frozen=True, slots=True)
class TrustContext:
    """Who is reading: the highest sensitivity read in full, and the scopes allowed (empty:
    every scope)."""

    max_sensitivity: str
    authenticated: bool = False
    actor_id: str = ""
    scopes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Membrane's JSON names."""
        return {
            "max_sensitivity": self.max_sensitivity,
            "authenticated": self.authenticated,
            "actor_id": self.actor_id,
            "scopes": list(self.scopes),
        }

    def tier(self, sensitivity: str, scope: str) -> Tier:
        """The tier a record of ``sensitivity`` (one of ``SENSITIVITIES``) and ``scope``
        (``""``: unscoped) is read at."""
        if self.scopes and scope and scope not in self.scopes:
            return "omitted"
        above = LEVEL[sensitivity] - LEVEL[self.max_sensitivity]
        return "full" if above <= 0 else "redacted" if above == 1 else "omitted"

    def may_read_whole(self, sensitivity: str, scope: str) -> bool:
        """``retrieveByID``'s rule: at or below the caller's level and in scope (never
        redacted)."""
        return self.tier(sensitivity, scope) == "full"


def parse_trust(value: Any, where: str = "trust") -> TrustContext:
    """A ``TrustContext`` from Membrane's JSON (``max_sensitivity`` required; the others
    optional). ``INVALID_ARGUMENT`` naming ``where`` for anything else."""
    if value is None:
        raise MemgraphError(INVALID, f"{where} is required (a TrustContext)")
    if isinstance(value, TrustContext):
        return value
    if not isinstance(value, Mapping):
        raise MemgraphError(INVALID, f"{where} must be an object, not {_kind(value)}")
    level = value.get("max_sensitivity")
    if level is None:
        raise MemgraphError(INVALID, f"{where}.max_sensitivity is required")
    sensitivity(level, f"{where}.max_sensitivity")
    authenticated = value.get("authenticated", False)
    if not isinstance(authenticated, bool):
        raise MemgraphError(INVALID, f"{where}.authenticated must be true or false")
    actor = value.get("actor_id", "")
    if actor is None:
        actor = ""
    if not isinstance(actor, str):
        raise MemgraphError(INVALID, f"{where}.actor_id must be a string")
    scopes = value.get("scopes")
    if scopes is None:
        scopes = []
    if not isinstance(scopes, list) or not all(isinstance(s, str) for s in scopes):
        raise MemgraphError(INVALID, f"{where}.scopes must be an array of strings")
    return TrustContext(level, authenticated, actor, tuple(scopes))


def sensitivity(value: Any, where: str) -> str:
    """``value`` if it is one of the five levels, else ``INVALID_ARGUMENT`` naming it."""
    return _one_of(value, SENSITIVITIES, "sensitivity", where)


def memory_type(value: Any, where: str) -> str:
    """``value`` if it is one of the six memory types, else ``INVALID_ARGUMENT`` naming it."""
    return _one_of(value, MEMORY_TYPES, "memory type", where)


def _one_of(value: Any, allowed: tuple[str, ...], what: str, where: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise MemgraphError(
            INVALID, f"{where}: unknown {what} {value!r} (one of {', '.join(allowed)})"
        )
    return value


def redact(record: Mapping[str, Any]) -> dict[str, Any]:
    """The redacted form of a full record: exactly ``REDACTED_KEYS`` (a missing ``scope`` is
    ``""``, missing ``tags`` ``[]``, missing stamps Go's zero time)."""
    defaults: dict[str, Any] = {
        "scope": "",
        "tags": [],
        "created_at": "0001-01-01T00:00:00Z",
        "updated_at": "0001-01-01T00:00:00Z",
    }
    return {key: record.get(key, defaults.get(key)) for key in REDACTED_KEYS}


def _kind(value: Any) -> str:
    return "an array" if isinstance(value, list) else type(value).__name__

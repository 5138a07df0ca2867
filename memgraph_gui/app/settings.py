"""User preferences kept in ``QSettings``: their keys and defaults in one place.

Only the draft endpoint lives here for now (URL, model, timeout). The API key is never stored in
settings: it goes to the OS keyring (``app/secrets.py``). GUI thread (QSettings is reentrant,
but the app reads preferences when a request starts, on the GUI thread).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from memgraph_gui.app.qt import QSettings

ORGANIZATION = "memgraph"
APPLICATION = "memgraph-gui"
KEY_ENDPOINT = "draft/endpoint_url"
KEY_MODEL = "draft/model"
KEY_TIMEOUT = "draft/timeout_seconds"
KEY_MAX_CHARS = "draft/max_chars"
DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_CHARS = 600
MIN_TIMEOUT, MAX_TIMEOUT = 1.0, 600.0


@dataclass(frozen=True, slots=True)
class DraftEndpoint:
    """An OpenAI-compatible endpoint for AI drafts; ``configured`` when a base URL is set."""

    base_url: str = ""
    model: str = DEFAULT_MODEL
    timeout: float = DEFAULT_TIMEOUT

    @property
    def configured(self) -> bool:
        return bool(self.base_url.strip())


def settings() -> QSettings:
    """The app's settings store (the platform's native place; tests redirect it with
    ``QSettings.setPath`` or their own organisation name)."""
    return QSettings(ORGANIZATION, APPLICATION)


def load_endpoint(store: QSettings | None = None) -> DraftEndpoint:
    """The saved endpoint (defaults for anything missing or malformed)."""
    s = store if store is not None else settings()
    url = str(s.value(KEY_ENDPOINT, "") or "").strip()
    model = str(s.value(KEY_MODEL, DEFAULT_MODEL) or "").strip() or DEFAULT_MODEL
    return DraftEndpoint(url, model, clamp_timeout(s.value(KEY_TIMEOUT, DEFAULT_TIMEOUT)))


def save_endpoint(endpoint: DraftEndpoint, store: QSettings | None = None) -> None:
    """Persist ``endpoint`` (the timeout clamped to 1–600 s)."""
    s = store if store is not None else settings()
    s.setValue(KEY_ENDPOINT, endpoint.base_url.strip())
    s.setValue(KEY_MODEL, endpoint.model.strip() or DEFAULT_MODEL)
    s.setValue(KEY_TIMEOUT, clamp_timeout(endpoint.timeout))
    s.sync()


def clamp_timeout(value: object) -> float:
    """A timeout in seconds within 1–600 (the default for something that is not a number)."""
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return DEFAULT_TIMEOUT
    if math.isnan(seconds):
        return DEFAULT_TIMEOUT
    return min(MAX_TIMEOUT, max(MIN_TIMEOUT, seconds))

"""User preferences kept in ``QSettings``: their keys and defaults in one place.

The draft endpoint (URL, model, timeout) and the graph view's focus depth and legend state.
The API key is never stored in settings: it goes to the OS keyring (``app/secrets.py``). GUI
thread (QSettings is reentrant, but the app reads preferences when a request starts, on the GUI
thread).
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
KEY_FOCUS_HOPS = "graph/focus_hops"
KEY_LEGEND_COLLAPSED = "graph/legend_collapsed"
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


def load_focus_hops(default: int, store: QSettings | None = None) -> int:
    """The graph's focus depth last chosen (1-3 hops; ``default`` when unset or malformed)."""
    s = store if store is not None else settings()
    try:
        hops = int(s.value(KEY_FOCUS_HOPS, default))  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return default
    return hops if 1 <= hops <= 3 else default


def save_focus_hops(hops: int, store: QSettings | None = None) -> None:
    """Remember the graph's focus depth (1-3 hops)."""
    s = store if store is not None else settings()
    s.setValue(KEY_FOCUS_HOPS, int(hops))


def load_legend_collapsed(store: QSettings | None = None) -> bool:
    """Whether the graph's legend was last collapsed (False when unset)."""
    s = store if store is not None else settings()
    value = s.value(KEY_LEGEND_COLLAPSED, False)
    return value is True or str(value).lower() in ("true", "1")


def save_legend_collapsed(collapsed: bool, store: QSettings | None = None) -> None:
    """Remember whether the graph's legend is collapsed."""
    s = store if store is not None else settings()
    s.setValue(KEY_LEGEND_COLLAPSED, bool(collapsed))

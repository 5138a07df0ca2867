"""What the window remembers between runs (QSettings): geometry, dock layout, recent files."""

from __future__ import annotations

from pathlib import Path

from memgraph_gui.views.qt import QByteArray, QSettings

MAX_RECENT = 10


def settings() -> QSettings:
    """The app's settings store (organization/application names are set by ``main``)."""
    return QSettings()


def recent_files() -> list[str]:
    """Recently opened stores, newest first, only those that still exist."""
    value = settings().value("recent_files", [])
    items = [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
    return [p for p in items if isinstance(p, str) and Path(p).exists()][:MAX_RECENT]


def remember_file(path: str) -> list[str]:
    """Put ``path`` first in the recent files; returns the new list."""
    resolved = str(Path(path).resolve())
    items = [resolved, *(p for p in recent_files() if p != resolved)][:MAX_RECENT]
    settings().setValue("recent_files", items)
    return items


def load_bytes(key: str) -> QByteArray | None:
    value = settings().value(key)
    return value if isinstance(value, QByteArray) else None


def save_bytes(key: str, value: QByteArray) -> None:
    settings().setValue(key, value)


def last_file() -> str | None:
    """The memory open when the app last opened one (the demo's path included), if it still
    exists."""
    value = settings().value("last_file")
    return value if isinstance(value, str) and value and Path(value).exists() else None


def remember_last_file(path: str) -> None:
    """``path`` is the memory to open when the app starts with no file."""
    settings().setValue("last_file", str(Path(path).resolve()))

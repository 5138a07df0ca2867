"""Text for a menu item that shows data (an undo label, a file path) as it is typed.

A ``QAction``'s text treats ``&`` as a mnemonic marker ("Tom & Jerry" would show "Tom _Jerry"),
so every ``&`` of the data is doubled; a long text is cut with "…" to a readable width (the
whole text belongs in the tooltip).
"""

from __future__ import annotations

MENU_CHARS = 60


def literal(text: str) -> str:
    """``text`` with every ``&`` doubled, so a ``QAction`` shows it rather than a mnemonic."""
    return text.replace("&", "&&")


def elide_end(text: str, limit: int = MENU_CHARS) -> str:
    """``text`` on one line, at most ``limit`` characters, its end cut to "…". Pure."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: max(0, limit - 1)].rstrip() + "…"


def elide_middle(text: str, limit: int = MENU_CHARS) -> str:
    """``text`` at most ``limit`` characters, its middle cut to "…" (a path keeps its root and
    its file name). Pure."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    tail = limit - 1 - head
    return text[:head] + "…" + text[len(text) - tail :]


def menu_item(text: str, limit: int = MENU_CHARS) -> str:
    """Data shown in a menu item: one line, end-elided, ``&`` shown literally."""
    return literal(elide_end(text, limit))


def menu_path(path: str, limit: int = MENU_CHARS) -> str:
    """A file path shown in a menu item: middle-elided, ``&`` shown literally."""
    return literal(elide_middle(path, limit))

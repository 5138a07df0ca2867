"""How undo labels name a node: by its title, on one line, cut to a readable width.

A label is stored with its step in the change log and shown as typed ("Undo Edit 'Tom & Jerry'"),
so the title in it is whitespace-collapsed and elided here, once, with "…".
"""

from __future__ import annotations

TITLE_CHARS = 40


def shown_title(title: str, limit: int = TITLE_CHARS) -> str:
    """``title`` on one line, at most ``limit`` characters (the last one "…" when cut). Pure."""
    text = " ".join(title.split())
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


def quoted_title(title: str, limit: int = TITLE_CHARS) -> str:
    """``'title'`` for a label (see ``shown_title``)."""
    return f"'{shown_title(title, limit)}'"


def create_label(type_id: object, title: object, fields: object) -> str:
    """The undo label of a create: "Create event 'Title'" (the title, else the ``name``
    field; "Create event" when neither). Pure."""
    name = title or (fields.get("name") if isinstance(fields, dict) else "") or ""
    return f"Create {type_id} {quoted_title(str(name))}".replace(" ''", "")

"""Colours and marks shared by every view: node types, the three injection styles, selection.

One palette, built once, so the graph's brushes are reused by identity (pyqtgraph's symbol atlas
stays warm) and the timeline, graph and legend always agree.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from memgraph_gui.views.qt import tr

TYPE_COLORS = {
    "event": "#4e79a7",
    "character_sheet": "#e15759",
    "location_state": "#59a14f",
    "thread": "#b07aa1",
}
_EXTRA = ("#f28e2b", "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#8cd17d", "#499894", "#d37295")
ARCHIVED_COLOR = "#9a9a9a"
SELECTED_COLOR = "#ff7f0e"
EDGE_HIERARCHY_COLOR = "#8c96a8"
EDGE_RELATION_COLOR = "#c9a0dc"


def type_color(type_id: str) -> str:
    """The colour of a node type (a stable pick from a palette for types we don't know)."""
    known = TYPE_COLORS.get(type_id)
    return known or _EXTRA[zlib.crc32(type_id.encode()) % len(_EXTRA)]


@dataclass(frozen=True, slots=True)
class InjectionStyle:
    """How one injection role is drawn: a ring colour, a pyqtgraph symbol, a timeline badge."""

    key: str
    color: str
    symbol: str
    badge: str
    label: str


def injection_styles() -> tuple[InjectionStyle, InjectionStyle, InjectionStyle]:
    """Always-inject, recall-selected and visible-pool, strongest first (a node in several
    roles is drawn in the strongest)."""
    return (
        InjectionStyle("always", "#e6a100", "d", "◆", tr("always injected")),
        InjectionStyle(
            "recall", "#d6246e", "star", "★", tr("picked by recall for the next prompt")
        ),
        InjectionStyle("visible", "#1f9fb4", "o", "○", tr("in the visible pool")),
    )


def recall_lab_styles() -> tuple[InjectionStyle, ...]:
    """How the Recall lab marks each ranking on the graph and in its dock (``key`` as in
    ``app.recall_lab.MARK_KEYS``): a ring of its own shape and colour, nested round a node
    that several rankings found (keyword innermost, the recall's picks outermost)."""
    return (
        InjectionStyle("keyword", "#1f6fd1", "s", "■", tr("keywordSearch")),
        InjectionStyle("vector", "#0e9f6e", "t", "▼", tr("vectorSearch")),
        InjectionStyle("notes", "#b7791f", "h", "⬢", tr("searchNotes")),
        InjectionStyle("retrieve", "#7b3fb0", "p", "⬟", tr("retrieveGraph")),
        InjectionStyle("picked", "#1d2330", "star", "★", tr("picked by Run recall")),
    )

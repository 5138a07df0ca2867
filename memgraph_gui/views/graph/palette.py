"""Pens and brushes for the graph, built once and reused by identity (so pyqtgraph's symbol
atlas stays warm and a re-brush never allocates a new style per point)."""

from __future__ import annotations

from functools import cache

from memgraph_gui.views.qt import QColor, pg
from memgraph_gui.views.theme import (
    EDGE_HIERARCHY_COLOR,
    EDGE_RELATION_COLOR,
    SELECTED_COLOR,
    InjectionStyle,
    injection_styles,
    type_color,
)

BACKGROUND = "#fbfbfd"
LABEL_COLOR = "#1d2330"
FADED_ALPHA = 40
NODE_OUTLINE = "#ffffff"


@cache
def node_brush(type_id: str, faded: bool = False) -> object:
    """The fill of a node of ``type_id`` (one object per type and fade)."""
    color = QColor(type_color(type_id))
    if faded:
        color.setAlpha(FADED_ALPHA)
    return pg.mkBrush(color)


@cache
def node_pen(faded: bool = False) -> object:
    """The thin outline every node shares."""
    color = QColor(NODE_OUTLINE)
    if faded:
        color.setAlpha(FADED_ALPHA)
    return pg.mkPen(color, width=0.8)


@cache
def edge_pen(style: bool | int) -> object:
    """Cosmetic pen for hierarchy (contains) edges (``True``), relation edges (``False``) or
    the merged relation lines of an overview carrying many edges (width class ``2``-``4``)."""
    if style is True:
        color = QColor(EDGE_HIERARCHY_COLOR)
        color.setAlpha(150)
        return pg.mkPen(color, width=1.0, cosmetic=True)
    color = QColor(EDGE_RELATION_COLOR)
    if style is False:
        color.setAlpha(200)
        return pg.mkPen(color, width=1.3, cosmetic=True)
    # wider for more edges; opaque and thin enough to stroke fast (a 5 px translucent pen
    # made a 4k-line overview paint in ~30 ms)
    color = color.darker(100 + 12 * int(style))
    return pg.mkPen(color, width=0.9 * int(style), cosmetic=True)


@cache
def hairline_pen(style: bool | int) -> object:
    """``edge_pen(style)``'s colour one pixel wide: lines drawn while the nodes move (a 50k
    overview's width classes took ~8 ms of a 20 ms layout frame to stroke; hairlines ~1 ms)."""
    return pg.mkPen(edge_pen(style).color(), width=1.0, cosmetic=True)  # type: ignore[attr-defined]


@cache
def ring_pen(color: str, width: float = 2.6) -> object:
    """The outline of a highlight ring."""
    return pg.mkPen(QColor(color), width=width)


@cache
def clear_brush() -> object:
    """A transparent fill (rings show the node underneath)."""
    return pg.mkBrush(0, 0, 0, 0)


@cache
def halo_brush(color: str, alpha: int = 70) -> object:
    """A soft translucent fill in ``color`` (the glow behind a highlight ring)."""
    fill = QColor(color)
    fill.setAlpha(alpha)
    return pg.mkBrush(fill)


def selection_color() -> str:
    return SELECTED_COLOR


def styles() -> tuple[InjectionStyle, InjectionStyle, InjectionStyle]:
    """The three injection styles, strongest first."""
    return injection_styles()

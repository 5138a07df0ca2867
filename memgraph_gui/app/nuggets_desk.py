"""The desk's view of Nuggets notes: which nodes are notes and of which nugget, which nuggets a
store holds, and how a note reads in the timeline, on the graph and in tooltips (views never
import ``core.nuggets``; they ask here). The writes a view asks for on notes are ``app.notes``'.

A note is a node (``core.nuggets.model``): its title is the note's title (a fact's key), its
``archived`` the note's ``hidden``. What the generic panes cannot know is drawn from its fields:
the nugget, kind, scope / type, confidence, hits and content.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memgraph_gui.app.qt import tr
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.nuggets import model
from memgraph_gui.core.nuggets.model import nugget_of
from memgraph_gui.core.nuggets.note_index import note_index

if TYPE_CHECKING:
    from memgraph_gui.core.graph.graph import Graph
    from memgraph_gui.core.memory import MemoryStore

__all__ = [
    "NuggetReads",
    "in_nugget",
    "is_note",
    "note_content",
    "note_label",
    "note_tip",
    "nugget_of",
]

LABEL_VALUE_CHARS = 40  # a fact's value in its graph label, at most


def is_note(node: Node | None) -> bool:
    """Whether ``node`` is a Nuggets note (False for None; cheap: no fields are parsed)."""
    return node is not None and model.is_note(node)


def in_nugget(node: Node, nugget: str | None) -> bool:
    """Whether ``node`` passes a nugget filter: any node when ``nugget`` is None, else only the
    notes of that nugget."""
    return nugget is None or (is_note(node) and nugget_of(node) == nugget)


def note_content(node: Node) -> str:
    """A note's content on one line (the timeline's Content cell); '' for other nodes."""
    if not is_note(node):
        return ""
    return " ".join(str(node.fields.get("content", "")).split())


def note_label(node: Node) -> str:
    """What the graph writes beside a note: its title, and a fact's value after its key
    (``user:pref:tea = green``: the key alone says little). Other nodes: their title."""
    title = node.title or node.id
    if not is_note(node) or node.type != "fact":
        return title
    value = note_content(node)
    if len(value) > LABEL_VALUE_CHARS:
        value = value[: LABEL_VALUE_CHARS - 1] + "…"
    return f"{title} = {value}" if value else title


def note_tip(node: Node) -> str:
    """One line about a note for tooltips: kind, nugget, scope / type, confidence, hits, hidden
    (e.g. ``fact · astra · user / preference · confidence 0.9 · 3 hits``); '' for other nodes."""
    if not is_note(node):
        return ""
    fields = node.fields
    parts = [node.type, nugget_of(node) or tr("(no nugget)")]
    scope, type_ = fields.get("scope"), fields.get("type")
    if scope or type_:
        parts.append(f"{scope or '?'} / {type_ or '?'}")
    confidence = fields.get("confidence")
    if isinstance(confidence, (int, float)) and not isinstance(confidence, bool):
        parts.append(tr("confidence {value}").format(value=f"{confidence:g}"))
    hits = fields.get("hits")
    if isinstance(hits, int) and not isinstance(hits, bool) and hits:
        parts.append(tr("{count} hits").format(count=hits) if hits != 1 else tr("1 hit"))
    if node.archived:
        parts.append(tr("hidden"))
    return " · ".join(str(p) for p in parts)


_NUGGETS = "app.nuggets"


def _nuggets(graph: Graph) -> dict[str, frozenset[str]]:
    """Per nugget name (sorted), the ids of its notes (from the store's ``NoteIndex``, kept
    in step with every change: no note is parsed again here)."""
    return note_index(graph).nugget_ids()


def warm_nuggets(graph: Graph) -> None:
    """Build a new graph's nugget facet and the note index behind it (and behind ``listNotes``
    and ``searchNotes``) off the GUI thread (``reads.warm``: the first read of a big Nuggets
    memory parses every note once and makes all a first ``searchNotes`` needs: ~2 s at 50k)."""
    note_index(graph).warm()
    graph.derived(_NUGGETS, lambda: _nuggets(graph))


class NuggetReads:
    """The AppModel's reads about nuggets (mixed into ``AppModel``; GUI thread)."""

    _store: MemoryStore

    if TYPE_CHECKING:

        def read(self, fn: Callable[[Graph], Any]) -> Any: ...  # StoreReads has it

    def nuggets(self) -> list[str]:
        """The names of the nuggets whose notes the store holds, sorted (memoised per graph;
        empty for a memory without notes)."""
        return list(self.read(lambda graph: graph.derived(_NUGGETS, lambda: _nuggets(graph))))

    def nugget_ids(self, nugget: str) -> frozenset[str]:
        """The ids of ``nugget``'s notes (hidden ones too; memoised per graph)."""
        by_name = self.read(lambda graph: graph.derived(_NUGGETS, lambda: _nuggets(graph)))
        ids: frozenset[str] = by_name.get(nugget, frozenset())
        return ids

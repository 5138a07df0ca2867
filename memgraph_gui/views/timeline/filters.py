"""``TimelineFilter``: which nodes the timeline shows (type, level, archived, nugget, text, seq
range)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from memgraph_gui.app.nuggets_desk import in_nugget
from memgraph_gui.app.reads import finds, level_of
from memgraph_gui.core.domain.model import Node

Archived = Literal["active", "archived", "all"]


@dataclass(frozen=True, slots=True)
class TimelineFilter:
    """An immutable filter; the empty filter shows every node.

    ``levels`` match the node's ``level`` (e.g. ``semantic``) or, for rollups, ``L<depth>``;
    ``text`` is the window's find (``AppModel.matching_ids``: id, title or a field's value,
    case-folded, any script); ``nugget`` keeps only the notes of that Nuggets nugget.
    """

    types: frozenset[str] | None = None
    levels: frozenset[str] | None = None
    archived: Archived = "all"
    text: str = ""
    seq_min: int | None = None
    seq_max: int | None = None
    nugget: str | None = None

    @property
    def active(self) -> bool:
        """True when some node may be hidden."""
        return self != TimelineFilter()

    @property
    def besides_text(self) -> TimelineFilter:
        """This filter without its text (the model asks the app model for the text's matches
        over the whole graph, which is faster than testing node by node)."""
        return replace(self, text="")

    def passes(self, node: Node) -> bool:
        """Whether ``node`` is shown."""
        if self.types is not None and node.type not in self.types:
            return False
        if self.levels is not None and level_of(node) not in self.levels:
            return False
        if (self.archived == "active" and node.archived) or (
            self.archived == "archived" and not node.archived
        ):
            return False
        if not in_nugget(node, self.nugget):
            return False
        if self.seq_min is not None and node.seq_to < self.seq_min:
            return False
        if self.seq_max is not None and node.seq_to > self.seq_max:
            return False
        return finds(node, self.text)

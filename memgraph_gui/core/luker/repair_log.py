"""The repairs an import made: summed up per kind for ``ParsedStore.warnings``, and each one
recorded with the ids it concerns for the ``ImportReport`` (which adds the titles)."""

from __future__ import annotations

from dataclasses import dataclass

EXAMPLES = 5
"""How many instances each summary line names before "and N more"."""


@dataclass(frozen=True)
class NodeRepair:
    """One repair about node ``node``: ``what`` is a template whose ``{0}``, ``{1}``... are filled
    with the nodes of ``others`` as the report names them (id and title)."""

    node: str
    what: str
    others: tuple[str, ...] = ()


@dataclass(frozen=True)
class LinkRepair:
    """Link ``index`` of the file (``source`` -relation-> ``target`` as written) was dropped, or
    moved to ``moved_to`` (its ends after the repair)."""

    index: int
    source: str
    target: str
    relation: str
    reason: str
    moved_to: tuple[str, str] | None = None


class RepairLog:
    """Collects repairs: per kind for the summary lines (in first-seen order), and one by one."""

    def __init__(self) -> None:
        self._kinds: dict[str, list[str]] = {}
        self.notes: list[str] = []
        self.dropped_nodes: list[tuple[str, str, str]] = []
        """(key, title as written, why) of each node of the file that is not imported."""
        self.key_mismatches: list[NodeRepair] = []
        self.dropped_links: list[LinkRepair] = []
        self.moved_links: list[LinkRepair] = []
        self.parent_repairs: list[NodeRepair] = []

    def add(self, kind: str, example: str) -> None:
        """Record one repair of ``kind`` (``"parentId cleared, no such node"``): ``example``."""
        self._kinds.setdefault(kind, []).append(example)

    def note(self, message: str) -> None:
        """Record a message that stands on its own (shown once, no count)."""
        self._kinds.setdefault(message, [])
        self.notes.append(message)

    def node_dropped(self, key: str, title: str, why: str) -> None:
        """The file's node ``key`` is not imported, because ``why``."""
        self.add(f"nodes dropped, {why}", key)
        self.dropped_nodes.append((key, title, why))

    def key_mismatch(self, repair: NodeRepair, kind: str, example: str) -> None:
        """A node whose key differs from its ``id``, and how that was resolved."""
        self.add(kind, example)
        self.key_mismatches.append(repair)

    def parent_repaired(self, repair: NodeRepair, kind: str, example: str) -> None:
        """A ``parentId`` or ``childrenIds`` entry of ``repair.node`` changed or dropped."""
        self.add(kind, example)
        self.parent_repairs.append(repair)

    def link_dropped(self, repair: LinkRepair) -> None:
        self.add(
            f"edges dropped, {repair.reason}",
            f"edges[{repair.index}] {repair.source or '?'} → {repair.target or '?'}",
        )
        self.dropped_links.append(repair)

    def link_moved(self, repair: LinkRepair) -> None:
        assert repair.moved_to is not None
        self.add(
            f"edges moved, {repair.reason}",
            f"edges[{repair.index}] {repair.source} → {repair.target} now "
            f"{repair.moved_to[0]} → {repair.moved_to[1]}",
        )
        self.moved_links.append(repair)

    def messages(self) -> list[str]:
        """``"<kind> (<count>): ex1; ex2; ... and N more"`` per kind; a note as it was given."""
        out = []
        for kind, examples in self._kinds.items():
            if not examples:
                out.append(kind)
                continue
            shown = "; ".join(examples[:EXAMPLES])
            more = f" and {len(examples) - EXAMPLES:,} more" if len(examples) > EXAMPLES else ""
            out.append(f"{kind} ({len(examples):,}): {shown}{more}")
        return out

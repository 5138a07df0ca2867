"""Incrementally maintained write-side lookups: live nodes by ``(type, lower title)`` and the
numbers of live ``Summary N`` events (Luker names a new event after the highest one)."""

from __future__ import annotations

import re
from collections import Counter

from memgraph_gui.core.domain.model import Node

_SUMMARY_TITLE = re.compile(r"(?:summary|摘要)\s*#?\s*(\d+)", re.IGNORECASE)


class TitleIndex:
    """Kept in step with the graph node by node once built."""

    def __init__(self, nodes: list[Node]) -> None:
        self.by_title: dict[tuple[str, str], set[str]] = {}
        self.summary_numbers: Counter[int] = Counter()
        for node in nodes:
            self.add(node)

    def add(self, node: Node) -> None:
        if node.archived or node.level != "semantic":
            return
        self.by_title.setdefault((node.type, node.title.lower()), set()).add(node.id)
        if node.type == "event" and (number := _summary_number(node.title)):
            self.summary_numbers[number] += 1

    def remove(self, node: Node) -> None:
        if node.archived or node.level != "semantic":
            return
        ids = self.by_title.get((node.type, node.title.lower()))
        if ids is not None:
            ids.discard(node.id)
            if not ids:
                del self.by_title[(node.type, node.title.lower())]
        if node.type == "event" and (number := _summary_number(node.title)):
            self.summary_numbers[number] -= 1
            if self.summary_numbers[number] <= 0:
                del self.summary_numbers[number]

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        if old is not None:
            self.remove(old)
        if new is not None:
            self.add(new)

    def summary_max(self) -> int:
        return max(self.summary_numbers, default=0)


def _summary_number(title: str) -> int:
    """N of a ``Summary N`` / ``摘要 N`` title (any case, ``#`` optional); 0 otherwise."""
    if title[:1] not in "sS摘":
        return 0
    match = _SUMMARY_TITLE.fullmatch(title.strip())
    return int(match.group(1)) if match else 0

"""The repairs an import made, summed up per kind for the user (``ParsedStore.warnings``)."""

from __future__ import annotations

EXAMPLES = 5
"""How many instances each summary line names before "and N more"."""


class RepairLog:
    """Collects repairs as (kind, example) and renders one line per kind, in first-seen order."""

    def __init__(self) -> None:
        self._kinds: dict[str, list[str]] = {}

    def add(self, kind: str, example: str) -> None:
        """Record one repair of ``kind`` (``"parentId cleared, no such node"``): ``example``."""
        self._kinds.setdefault(kind, []).append(example)

    def note(self, message: str) -> None:
        """Record a message that stands on its own (shown once, no count)."""
        self._kinds.setdefault(message, [])

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

"""What the compaction wizard did with each group, and the report it ends with."""

from __future__ import annotations

from dataclasses import dataclass, field

from memgraph_gui.app.compaction_reads import GroupRow
from memgraph_gui.views.qt import tr, tr_n

APPROVED, SKIPPED, FAILED = "approved", "skipped", "failed"
QUEUED = "queued"  # approved, waiting for the run's one write (``message`` holds the summary)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One group's fate: approved (with its rollup), skipped, or skipped after a refusal; queued
    while its approval waits for the run's one write."""

    group: GroupRow
    status: str
    rollup_id: str = ""
    rollup_title: str = ""
    message: str = ""


@dataclass(slots=True)
class Report:
    """The outcomes so far, in review order, and how many groups were never reached."""

    outcomes: list[Outcome] = field(default_factory=list)
    total: int = 0

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    def rollup_ids(self) -> list[str]:
        return [o.rollup_id for o in self.outcomes if o.status == APPROVED]

    def queued(self) -> list[int]:
        """The positions of the approvals still waiting for the run's write."""
        return [i for i, o in enumerate(self.outcomes) if o.status == QUEUED]

    def headline(self) -> str:
        """ "Approved 3 groups, skipped 1, 1 refused, 2 not reviewed." (plain text)"""
        text = tr_n("Approved {approved} of %n group(s), skipped {skipped}", self.total).format(
            approved=self.count(APPROVED), skipped=self.count(SKIPPED)
        )
        if self.count(FAILED):
            text += tr(", {n} refused").format(n=self.count(FAILED))
        left = self.total - len(self.outcomes)
        if left:
            text += tr(", {n} not reviewed").format(n=left)
        text += "."
        approved = self.count(APPROVED)
        if approved == 1:
            text += " " + tr("The rollup is one step in Edit ▸ Undo.")
        elif approved:
            text += " " + tr("The {n} rollups are one step in Edit ▸ Undo.").format(n=approved)
        return text

    def lines(self) -> list[str]:
        """One line per reviewed group."""
        return [_line(o) for o in self.outcomes]


def _line(outcome: Outcome) -> str:
    group = outcome.group
    where = tr("Group {n} (seq {a}–{b}, {count} nodes)").format(
        n=group.number, a=group.seq_from, b=group.seq_to, count=len(group.child_ids)
    )
    if outcome.status == APPROVED:
        return "✓ " + tr("{where} → {title} ({id})").format(
            where=where, title=outcome.rollup_title, id=outcome.rollup_id
        )
    if outcome.status == FAILED:
        return "✗ " + tr("{where}: {message}").format(where=where, message=outcome.message)
    if outcome.status == QUEUED:
        return "… " + tr("{where}: approved, not compacted yet").format(where=where)
    return "– " + tr("{where}: skipped").format(where=where)

"""The injection state: which nodes go into the next prompt."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from memgraph_gui.core.domain.collation import sort_locale

INJECTION_KEYS = ("alwaysInjectIds", "recallSelectedIds", "visibleIds")


@dataclass(frozen=True, slots=True)
class InjectionState:
    """The seed's ``InjectionState``; the sets are frozen.

    ``visible_order`` is ``visibleIds`` in the order it was recorded (a JavaScript ``Set`` keeps
    insertion order, and ``expandFromSeeds`` puts its pool first in that order); ``visible_ids``
    is the same ids as a set. Given only one of the two, the other is derived (a set alone is
    ordered by ``localeCompare``).
    """

    always_inject_ids: frozenset[str] = frozenset()
    recall_selected_ids: frozenset[str] = frozenset()
    visible_ids: frozenset[str] = frozenset()
    visible_order: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.visible_order and not self.visible_ids:
            object.__setattr__(self, "visible_ids", frozenset(self.visible_order))
        elif self.visible_ids and not self.visible_order:
            object.__setattr__(self, "visible_order", tuple(sort_locale(self.visible_ids)))

    def to_json(self) -> dict[str, list[str]]:
        """``{alwaysInjectIds, recallSelectedIds, visibleIds}``: the first two sorted, the
        visible ids in their recorded order."""
        return {
            "alwaysInjectIds": sort_locale(self.always_inject_ids),
            "recallSelectedIds": sort_locale(self.recall_selected_ids),
            "visibleIds": list(self.visible_order),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any] | None) -> InjectionState:
        """Parse the stored form; missing keys are empty sets."""
        data = data or {}
        return InjectionState(
            always_inject_ids=frozenset(_id_list(data.get("alwaysInjectIds"))),
            recall_selected_ids=frozenset(_id_list(data.get("recallSelectedIds"))),
            visible_order=_id_list(data.get("visibleIds")),
        )

    @property
    def injected_ids(self) -> frozenset[str]:
        """Always-inject plus recall-selected: what the prompt actually receives."""
        return self.always_inject_ids | self.recall_selected_ids


def _id_list(value: Any) -> tuple[str, ...]:
    """Ids in order, trimmed, blanks and repeats dropped."""
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError("expected an array of node ids")
    out = dict.fromkeys(str(v).strip() for v in value)
    out.pop("", None)
    return tuple(out)

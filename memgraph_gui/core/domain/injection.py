"""The injection state: which nodes go into the next prompt."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from memgraph_gui.core.domain.collation import sort_locale

INJECTION_KEYS = ("alwaysInjectIds", "recallSelectedIds", "visibleIds")


@dataclass(frozen=True, slots=True)
class InjectionState:
    """The seed's ``InjectionState``; the sets are frozen and serialise as sorted arrays."""

    always_inject_ids: frozenset[str] = frozenset()
    recall_selected_ids: frozenset[str] = frozenset()
    visible_ids: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, list[str]]:
        """``{alwaysInjectIds, recallSelectedIds, visibleIds}`` as sorted arrays."""
        return {
            "alwaysInjectIds": sort_locale(self.always_inject_ids),
            "recallSelectedIds": sort_locale(self.recall_selected_ids),
            "visibleIds": sort_locale(self.visible_ids),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any] | None) -> InjectionState:
        """Parse the stored form; missing keys are empty sets."""
        data = data or {}
        return InjectionState(
            always_inject_ids=_id_set(data.get("alwaysInjectIds")),
            recall_selected_ids=_id_set(data.get("recallSelectedIds")),
            visible_ids=_id_set(data.get("visibleIds")),
        )

    @property
    def injected_ids(self) -> frozenset[str]:
        """Always-inject plus recall-selected: what the prompt actually receives."""
        return self.always_inject_ids | self.recall_selected_ids


def _id_set(value: Any) -> frozenset[str]:
    if value is None:
        return frozenset()
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError("expected an array of node ids")
    return frozenset(str(v).strip() for v in value if str(v).strip())

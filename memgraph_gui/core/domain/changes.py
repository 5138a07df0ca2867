"""``ChangeSet``: what one committed batch changed, and what each surface must refresh."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from memgraph_gui.core.domain.model import EdgeKey


class OpKind(StrEnum):
    """The kind of a committed batch (one undo step each, except UNDO/REDO/EXTERNAL/LOAD)."""

    BATCH = "batch"
    CREATE_NODE = "create_node"
    EDIT_NODE = "edit_node"
    ARCHIVE_NODE = "archive_node"
    RESTORE_NODE = "restore_node"
    UPSERT_LINKS = "upsert_links"
    DELETE_LINKS = "delete_links"
    COMPACT = "compact"
    DISSOLVE = "dissolve"
    INJECTION = "injection"
    SCHEMA = "schema"
    PIN = "pin"
    NUGGETS = "nuggets"  # a Nuggets API write (core.nuggets.api): one call, one step
    UNDO = "undo"
    REDO = "redo"
    EXTERNAL = "external"
    LOAD = "load"


@dataclass(frozen=True, slots=True)
class ChangeSet:
    """Ids touched by one commit (ours, an undo/redo, or another process's), with refresh hints.

    ``batch_id`` is the change-log batch (0 for a full reload); ``label`` is the undo text.
    """

    op: OpKind
    label: str = ""
    origin: str = ""
    batch_id: int = 0
    nodes_added: frozenset[str] = frozenset()
    nodes_updated: frozenset[str] = frozenset()
    nodes_removed: frozenset[str] = frozenset()
    nodes_archived: frozenset[str] = frozenset()
    nodes_restored: frozenset[str] = frozenset()
    edges_added: frozenset[EdgeKey] = frozenset()
    edges_removed: frozenset[EdgeKey] = frozenset()
    fields: frozenset[str] = frozenset()
    injection_changed: bool = False
    schema_changed: bool = False
    counters_changed: bool = False
    reloaded: bool = False
    external: bool = False
    meta_keys: frozenset[str] = field(default=frozenset())
    positions_saved: bool = False  # another process saved layout positions (no content change)

    @property
    def edges_changed(self) -> frozenset[EdgeKey]:
        return self.edges_added | self.edges_removed

    @property
    def empty(self) -> bool:
        """True when nothing at all changed."""
        return not (
            self.nodes_added
            or self.nodes_updated
            or self.nodes_removed
            or self.edges_added
            or self.edges_removed
            or self.meta_keys
            or self.reloaded
            or self.positions_saved
        )

    @property
    def pins_changed(self) -> bool:
        """True when pinned positions (meta ``"pins"``) may have changed."""
        return self.reloaded or "pins" in self.meta_keys

    @property
    def timeline_rows_changed(self) -> bool:
        return bool(self.nodes_added or self.nodes_removed or self.reloaded)

    @property
    def graph_topology_changed(self) -> bool:
        return bool(self.nodes_added or self.nodes_removed or self.edges_changed or self.reloaded)

    def touches(self, node_id: str) -> bool:
        """True if ``node_id`` was updated or removed (an inspector showing it must reload)."""
        return self.reloaded or node_id in self.nodes_updated or node_id in self.nodes_removed

    def merged(self, other: ChangeSet) -> ChangeSet:
        """Union of two change sets (for coalescing bursts); keeps the later op and label."""
        return ChangeSet(
            op=other.op,
            label=other.label,
            origin=other.origin,
            batch_id=other.batch_id,
            nodes_added=self.nodes_added | other.nodes_added,
            nodes_updated=self.nodes_updated | other.nodes_updated,
            nodes_removed=self.nodes_removed | other.nodes_removed,
            nodes_archived=self.nodes_archived | other.nodes_archived,
            nodes_restored=self.nodes_restored | other.nodes_restored,
            edges_added=self.edges_added | other.edges_added,
            edges_removed=self.edges_removed | other.edges_removed,
            fields=self.fields | other.fields,
            injection_changed=self.injection_changed or other.injection_changed,
            schema_changed=self.schema_changed or other.schema_changed,
            counters_changed=self.counters_changed or other.counters_changed,
            reloaded=self.reloaded or other.reloaded,
            external=self.external or other.external,
            meta_keys=self.meta_keys | other.meta_keys,
            positions_saved=self.positions_saved or other.positions_saved,
        )

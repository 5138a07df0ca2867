"""Turning change-log rows into ``ChangeSet``s and applying them to a ``Graph``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memgraph_gui.core.domain.changes import ChangeSet, OpKind
from memgraph_gui.core.domain.images import (
    Change,
    edge_from_image,
    edge_image,
    edge_key_from_text,
    node_from_image,
    node_image,
)
from memgraph_gui.core.graph.graph import Graph

COUNTER_KEYS = frozenset(
    {"nodeSeq", "seqCounter", "appliedSeqTo", "loggedSeqTo", "sourceMessageCount"}
)


def build_changeset(
    changes: Iterable[Change],
    *,
    op: OpKind,
    label: str = "",
    origin: str = "",
    batch_id: int = 0,
    external: bool = False,
) -> ChangeSet:
    """Summarise before/after images into a ``ChangeSet``."""
    added: set[str] = set()
    updated: set[str] = set()
    removed: set[str] = set()
    archived: set[str] = set()
    restored: set[str] = set()
    fields: set[str] = set()
    meta_keys: set[str] = set()
    edges_added: set[tuple[str, str, str]] = set()
    edges_removed: set[tuple[str, str, str]] = set()
    for ch in changes:
        if ch.kind == "node":
            _classify_node(ch, added, updated, removed, archived, restored, fields)
        elif ch.kind == "edge":
            key = edge_key_from_text(ch.key)
            if ch.after is not None:
                edges_added.add(key)
            if ch.before is not None and ch.after is None:
                edges_removed.add(key)
        else:
            meta_keys.add(ch.key)
    return ChangeSet(
        op=op,
        label=label,
        origin=origin,
        batch_id=batch_id,
        nodes_added=frozenset(added),
        nodes_updated=frozenset(updated),
        nodes_removed=frozenset(removed),
        nodes_archived=frozenset(archived),
        nodes_restored=frozenset(restored),
        edges_added=frozenset(edges_added),
        edges_removed=frozenset(edges_removed),
        fields=frozenset(fields),
        injection_changed="injection" in meta_keys,
        schema_changed="schema" in meta_keys,
        counters_changed=bool(meta_keys & COUNTER_KEYS),
        external=external,
        meta_keys=frozenset(meta_keys),
    )


def _classify_node(
    ch: Change,
    added: set[str],
    updated: set[str],
    removed: set[str],
    archived: set[str],
    restored: set[str],
    fields: set[str],
) -> None:
    before, after = ch.before, ch.after
    if before is None:
        added.add(ch.key)
        return
    if after is None:
        removed.add(ch.key)
        return
    updated.add(ch.key)
    if after.get("archived") and not before.get("archived"):
        archived.add(ch.key)
    elif before.get("archived") and not after.get("archived"):
        restored.add(ch.key)
    fields.update(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    old_fields, new_fields = before.get("fields") or {}, after.get("fields") or {}
    fields.update(
        f"fields.{k}"
        for k in set(old_fields) | set(new_fields)
        if old_fields.get(k) != new_fields.get(k)
    )


def current_image(graph: Graph, kind: str, key: str) -> Any:
    """The graph's present image for a change-log key (None when absent)."""
    if kind == "node":
        return node_image(graph.nodes.get(key))
    if kind == "edge":
        return edge_image(graph.edges.get(edge_key_from_text(key)))
    return graph.meta.get(key)


def apply_image(graph: Graph, kind: str, key: str, image: Any) -> None:
    """Make the graph hold ``image`` at ``key`` (None removes it)."""
    if kind == "node":
        if image is None:
            graph.drop_node(key)
        else:
            graph.put_node(node_from_image(image))
    elif kind == "edge":
        if image is None:
            graph.drop_edge(edge_key_from_text(key))
        else:
            graph.put_edge(edge_from_image(image))
    else:
        graph.set_meta(key, image)

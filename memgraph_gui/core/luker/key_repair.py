"""Nodes whose key in ``nodes`` differs from their own ``id``: the key wins, links follow it.

What Luker does (persistence.js ``normalizeStoreForRuntime``): every node is rebuilt under its key,
``id: key``; the ``id`` written inside the node is ignored. Links (edges, ``parentId``,
``childrenIds``) that name the node by that inner ``id`` then name no node, and its repair drops
them silently: in a file where one node's key had been edited, 75 of 900 links vanished and the
node was left alone.

What we do: the key is the node's id, as in Luker (so ids stay what Luker would show), and every
link naming the inner ``id`` is moved to the key, when that is unambiguous: the inner ``id`` is no
other node's key and no other node claims it. Otherwise links naming it keep their meaning in Luker
(they belong to the node with that key, or to none) and are reported like any other dropped link.
Every mismatch, and every link moved or dropped because of one, is named in the import report.
"""

from __future__ import annotations

from dataclasses import replace

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.luker.repair_log import NodeRepair, RepairLog

_KIND = "node keys differing from the node's id"


def resolve_claims(claims: list[tuple[str, str]], keys: set[str], log: RepairLog) -> dict[str, str]:
    """``{inner id: key}`` for the claims links may be moved by; every claim is logged with how
    it was resolved. ``claims`` are ``(key, inner id)`` in document order; ``keys`` every node
    key of the file (also of nodes not imported: a link naming one keeps meaning that node)."""
    owners: dict[str, list[str]] = {}
    for key, claimed in claims:
        owners.setdefault(claimed, []).append(key)
    aliases: dict[str, str] = {}
    for key, claimed in claims:
        if claimed in keys:
            what = (
                "its id is {0}, another node's key: kept the key (as Luker does); "
                "links naming that id stay with that node"
            )
        elif len(owners[claimed]) > 1:
            what = (
                "its id is {0}, also the id inside another node: kept the key (as Luker does); "
                "links naming that id, if any, are not imported (each is listed)"
            )
        else:
            what = (
                "its id is {0}: kept the key (as Luker does); links naming that id, if any, "
                "are moved to the key (each is listed)"
            )
            aliases[claimed] = key
        log.key_mismatch(NodeRepair(key, what, (claimed,)), _KIND, f"key {key}, id {claimed}")
    return aliases


def repoint_hierarchy(nodes: list[Node], aliases: dict[str, str], log: RepairLog) -> list[Node]:
    """``nodes`` with ``parentId`` and ``childrenIds`` entries naming an inner id moved to its
    node's key (each move logged); the list itself when there is nothing to move."""
    if not aliases:
        return nodes
    out = []
    for node in nodes:
        parent = aliases.get(node.parent_id, node.parent_id)
        children = tuple(aliases.get(child, child) for child in node.children_ids)
        if parent != node.parent_id:
            log.parent_repaired(
                NodeRepair(
                    node.id,
                    "parentId named {0}, the id inside {1}: moved to that node's key",
                    (node.parent_id, parent),
                ),
                "parentId moved to the key of the node its id names",
                f"{node.id} → {node.parent_id} now {parent}",
            )
        for before, after in zip(node.children_ids, children, strict=True):
            if before != after:
                log.parent_repaired(
                    NodeRepair(
                        node.id,
                        "childrenIds named {0}, the id inside {1}: moved to that node's key",
                        (before, after),
                    ),
                    "childrenIds entries moved to the key of the node their id names",
                    f"{node.id} lists {before} now {after}",
                )
        changed = parent != node.parent_id or children != node.children_ids
        out.append(replace(node, parent_id=parent, children_ids=children) if changed else node)
    return out

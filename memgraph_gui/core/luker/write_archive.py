"""``archiveNode({id, replacementId})``: Luker's archive with an optional replacement.

Archiving with a replacement marks the node superseded and moves its links to the replacement
(the end of the replacement's own ``supersededBy`` chain), as Luker's Write API does; see
``WriteApi.archive_node`` for the answers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.errors import bad_args
from memgraph_gui.core.domain.model import Edge
from memgraph_gui.core.domain.results import WriteResult
from memgraph_gui.core.graph.tx import Tx
from memgraph_gui.core.luker import args
from memgraph_gui.core.luker.labels import quoted_title

if TYPE_CHECKING:
    from memgraph_gui.core.storage.store import Store

ALREADY_ARCHIVED = {"ok": True, "changed": False, "note": "node already archived"}


class ArchiveWrites:
    """Mixin for ``WriteApi`` (uses its ``_require``, ``_origin`` and ``_committed``)."""

    _origin: str | None

    def _require(self) -> Store:
        raise NotImplementedError

    def _committed(self, applied: list[Any] | bool) -> None:
        raise NotImplementedError

    def archive_node(self, *, id: Any = None, replacement_id: Any = None) -> WriteResult:
        """Archive a node, optionally superseded by ``replacement_id``. One undo step.

        With a replacement other than the node itself, the replacement's ``supersededBy`` chain
        is followed to its end (stopping before a missing node or one already on the chain,
        the archived node included); the node's ``supersededBy`` becomes that final id and
        every link starting or ending at the node is moved there, in place. A moved link that
        would join the final node to itself is dropped, and of links that become equal only
        the earliest stays. Parent and children are left as they are.

        Returns ``{ok: true, changed: true}``; ``{ok: true, changed: false, note: "node already
        archived"}`` (nothing written); ``{ok: false, error: {code: "NODE_NOT_FOUND", message}}``
        for an unknown node or replacement (nothing written). Raises ``BAD_ARGS`` when ``id`` is
        missing or an argument is not an id.
        """
        _storable(id=id, replacementId=replacement_id)
        node_id = args.node_id(id, "archiveNode: id")
        if not node_id:
            raise bad_args("archiveNode: id is required.")
        replacement = args.node_id(replacement_id, "archiveNode: replacementId")
        store = self._require()
        with store.transaction(OpKind.ARCHIVE_NODE, "Archive", origin=self._origin) as tx:
            payload = archive(tx, node_id, replacement)
        if payload.get("changed"):
            self._committed(True)
        return WriteResult(payload, tx.changeset)


def archive(tx: Tx, node_id: str, replacement_id: str) -> dict[str, Any]:
    """Stage the archive (see ``ArchiveWrites.archive_node``); returns the answer's payload.

    Stages nothing unless the answer is ``changed: true``. Sets ``tx.label``.
    """
    node = tx.node(node_id)
    if node is None:
        return not_found(node_id)
    if node.archived:
        return dict(ALREADY_ARCHIVED)
    replacement = tx.node(replacement_id) if replacement_id else None
    if replacement_id and replacement is None:
        return not_found(replacement_id, "replacement")
    final = None
    if replacement is not None and replacement_id != node_id:
        final = chain_end(tx, replacement_id, node_id)
        move_links(tx, node_id, final)
    tx.put_node(replace(node, archived=True, superseded_by=final or node.superseded_by))
    tx.label = archive_label(node.title or node_id, _title(tx, final))
    return {"ok": True, "changed": True}


def chain_end(tx: Tx, start: str, archived_id: str) -> str:
    """The end of ``start``'s ``supersededBy`` chain: the last existing node before a missing
    one or one already passed (``archived_id`` counts as passed, so no node supersedes itself)."""
    seen = {archived_id, start}
    current = start
    while True:
        node = tx.node(current)
        following = node.superseded_by if node is not None else None
        if not following or following in seen or tx.node(following) is None:
            return current
        seen.add(following)
        current = following


def move_links(tx: Tx, old: str, new: str) -> int:
    """Re-point every link at ``old`` to ``new``, each keeping its place in the link order;
    returns how many links were moved (not dropped).

    Luker rewrites its edge array in place and then keeps the first of equal edges, so a moved
    link that equals an existing, later one takes that one's place; an earlier one wins.
    """
    touching = sorted(
        (e for e in tx.graph.edges_of(old) if tx.edge(e.key) is not None), key=lambda e: e.ord
    )
    moved = 0
    for edge in touching:
        tx.remove_edge(edge.key)
        from_id = new if edge.from_id == old else edge.from_id
        to_id = new if edge.to_id == old else edge.to_id
        if from_id == to_id:
            continue
        existing = tx.edge((from_id, edge.type, to_id))
        if existing is None or existing.ord > edge.ord:
            tx.put_edge(Edge(from_id, to_id, edge.type, edge.seq_to, edge.ord))
            moved += 1
    return moved


SHOWN = 200


def not_found(node_id: str, what: str = "node") -> dict[str, Any]:
    """Luker's answer, worded as Luker words it: ``archiveNode: node n_9 does not exist.`` /
    ``archiveNode: replacement n_9 does not exist.`` (the id as given, unquoted; an id longer
    than ``SHOWN`` characters, which no real memory has, is cut: a 2 MB id is not echoed)."""
    shown = node_id if len(node_id) <= SHOWN else node_id[:60] + "…"
    message = f"archiveNode: {what} {shown} does not exist."
    return {"ok": False, "error": {"code": "NODE_NOT_FOUND", "message": message}}


def archive_label(title: str, replacement_title: str | None) -> str:
    """The undo label: "Archive 'Old'" or "Archive 'Old' (replaced by 'New')"."""
    label = f"Archive {quoted_title(title)}"
    return (
        f"{label} (replaced by {quoted_title(replacement_title)})" if replacement_title else label
    )


def _title(tx: Tx, node_id: str | None) -> str | None:
    node = tx.node(node_id) if node_id else None
    return (node.title or node.id) if node is not None else None


def _storable(**arguments: Any) -> None:
    """Refuse (``BAD_ARGS``) lone surrogates / runaway nesting in any named argument."""
    for name, value in arguments.items():
        args.check_data(value, name)

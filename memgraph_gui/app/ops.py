"""One small factory per user action (Anki's ``aqt/operations``), so views stay declarative.

Each runs one Write API call on the single writer (one commit, one undo step) and reports a
refusal as a ``MemgraphError`` to ``on_error`` (or the model's ``op_failed``). A result the API
returns as ``{ok: false, error}`` is raised as that error, so a field can show it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from memgraph_gui.app import notes
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.nuggets_desk import is_note
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.results import WriteResult
from memgraph_gui.core.luker.write_api import WriteApi

OnError = Callable[[MemgraphError], None] | None
OnDone = Callable[[Any], None] | None


def checked(result: WriteResult) -> WriteResult:
    """Raise the API's refusal carried in a result (``ok: false`` or an ``error`` entry), its
    details (an ``EDIT_CONFLICT``'s ``expected`` / ``current`` / ``proposed``) included."""
    error = result.get("error")
    if result.get("ok") is False or isinstance(error, Mapping):
        error = error if isinstance(error, Mapping) else {}
        details = {k: v for k, v in error.items() if k not in ("code", "message")}
        raise MemgraphError(
            str(error.get("code") or "OP_FAILED"), str(error.get("message") or "refused"), **details
        )
    return result


def _run(
    app: AppModel,
    call: Callable[[WriteApi], WriteResult],
    initiator: object | None,
    on_done: OnDone,
    on_error: OnError,
) -> None:
    app.run_op(lambda w: checked(call(w)), initiator=initiator, on_done=on_done, on_error=on_error)


def edit_node(
    app: AppModel,
    node_id: str,
    *,
    title: str | None = None,
    set_fields: Mapping[str, Any] | None = None,
    clear_fields: Sequence[str] = (),
    expected: Mapping[str, Any] | None = None,
    keep_seq: bool = True,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Change a node's title and/or fields (one step: "Edit 'Title'").

    ``expected`` (``{title?, fields?}``) is what the person started from: when another writer
    has moved it on, nothing is written and ``on_error`` gets ``EDIT_CONFLICT`` with the
    ``expected`` / ``current`` / ``proposed`` values in ``error.details``. A hand edit keeps
    the node's ``seqTo`` (``keep_seq``, default true; ``mark_current`` stamps it on request).
    """
    _run(
        app,
        lambda w: w.edit_node(
            id=node_id,
            title=title,
            set_fields=dict(set_fields or {}),
            clear_fields=list(clear_fields),
            expected=dict(expected) if expected is not None else None,
            keep_seq=keep_seq,
        ),
        initiator,
        on_done,
        on_error,
    )


def mark_current(
    app: AppModel,
    node_id: str,
    *,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Stamp the node's ``seqTo`` with the current seq ("Mark 'Title' as current"; nothing is
    written when it is current already); ``on_done`` gets ``{ok, changed, seqTo}``."""
    _run(app, lambda w: w.mark_current(id=node_id), initiator, on_done, on_error)


def archive_node(
    app: AppModel,
    node_id: str,
    *,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Archive (soft-delete) a node ("Archive 'Title'"); a visible Nuggets note is hidden
    through Nuggets' ``deleteNote`` instead ("Hide 'Title'", ``notes.hide_note``)."""
    node = app.node(node_id)
    if is_note(node):
        if node is not None and not node.archived:
            notes.hide_note(app, node_id, initiator=initiator, on_done=on_done, on_error=on_error)
        return
    _run(app, lambda w: w.delete_node(id=node_id), initiator, on_done, on_error)


def restore_node(
    app: AppModel,
    node_id: str,
    *,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Bring an archived node back ("Restore 'Title'"); a hidden Nuggets note comes back
    through Nuggets' ``updateNote(hidden: false)`` instead ("Update 'Title'",
    ``notes.restore_note``)."""
    node = app.node(node_id)
    if is_note(node):
        if node is not None and node.archived:
            notes.restore_note(
                app, node_id, initiator=initiator, on_done=on_done, on_error=on_error
            )
        return
    _run(app, lambda w: w.restore_node(id=node_id), initiator, on_done, on_error)


def add_link(
    app: AppModel,
    source_id: str,
    target_id: str,
    relation: str,
    *,
    direction: str = "outgoing",
    initiator: object | None = None,
    on_error: OnError = None,
) -> None:
    """Link ``source`` to ``target`` with ``relation`` (direction: outgoing/incoming/bidirectional)."""
    link = {"target": {"id": target_id}, "relation": relation, "direction": direction}
    _run(
        app,
        lambda w: w.upsert_links(source={"id": source_id}, links=[link]),
        initiator,
        None,
        on_error,
    )


def remove_link(
    app: AppModel,
    source_id: str,
    target_id: str,
    relation: str,
    *,
    direction: str = "outgoing",
    initiator: object | None = None,
    on_error: OnError = None,
) -> None:
    """Remove the ``relation`` link ``source -> target`` (``direction`` as in Luker's
    ``link_delete``: outgoing, incoming or bidirectional) ("Remove link 'relation'")."""
    _run(
        app,
        lambda w: w.delete_links(
            source={"id": source_id},
            target={"id": target_id},
            relation=relation,
            direction=direction,
        ),
        initiator,
        None,
        on_error,
    )


def compact(
    app: AppModel,
    node_type: str,
    child_ids: Sequence[str],
    summary: str,
    *,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """One ``compactNodes`` ("Compact 12 events"); ``on_done`` gets ``{rollupNodeId}``."""
    _run(
        app,
        lambda w: w.compact_nodes(type=node_type, child_ids=list(child_ids), summary=summary),
        initiator,
        on_done,
        on_error,
    )


def compact_groups(
    app: AppModel,
    node_type: str,
    groups: Sequence[tuple[Sequence[str], str]],
    *,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Roll up several ``(child ids, summary)`` groups in one write: one undo step ("Compact 4
    groups"). ``on_done`` gets ``{results, compacted}``: per group ``{rollupNodeId}`` or
    ``{error: {code, message}}`` (a refused group is left out, the others roll up)."""
    entries = [{"childIds": list(ids), "summary": summary} for ids, summary in groups]
    app.run_op(
        lambda w: w.compact_groups(type=node_type, groups=entries),
        initiator=initiator,
        on_done=on_done,
        on_error=on_error,
    )


def dissolve(
    app: AppModel,
    rollup_id: str,
    *,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Dissolve a rollup: its children return to where they were, the rollup is archived."""
    _run(app, lambda w: w.dissolve_rollup(id=rollup_id), initiator, on_done, on_error)


def set_summarize_instruction(
    app: AppModel,
    type_id: str,
    instruction: str,
    *,
    initiator: object | None = None,
    on_done: OnDone = None,
    on_error: OnError = None,
) -> None:
    """Store ``instruction`` as the type's ``compression.summarizeInstruction`` (what the AI
    draft is told besides the entries): one schema edit, one undo step "Edit schema"."""
    _run(
        app,
        lambda w: w.set_summarize_instruction(type=type_id, instruction=instruction),
        initiator,
        on_done,
        on_error,
    )

"""A small store of Nuggets notes for app / view tests and the note inspector's screenshot: two
nuggets, facts and notes, links (one dangling), a hidden note, English and Chinese text. Notes
are staged as whole MemoryNote JSON (``core.nuggets.model.stage_note``), as an import would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.nuggets import metadata, model
from memgraph_gui.core.nuggets.text import normalise_tags, title_tags
from memgraph_gui.core.nuggets.vector_spec import vector_spec

STAMP = "2026-11-20T09:15:00.000Z"


def note(
    note_id: str,
    title: str,
    content: str,
    *,
    nugget: str = "work",
    kind: str = "note",
    tags: tuple[str, ...] = (),
    links: tuple[tuple[str, str], ...] = (),
    hidden: bool = False,
    hits: int = 0,
    session: str = "",
    **meta: Any,
) -> dict[str, Any]:
    """One MemoryNote as Nuggets writes it (metadata inferred unless given, system tags)."""
    given = list(title_tags(title)) + list(tags)
    inferred = metadata.infer_metadata(
        kind=kind,
        title=title,
        content=content,
        tags=given,
        source_key=title if kind == "fact" else None,
    )
    data = metadata.merge_metadata(inferred, None, meta)
    out: dict[str, Any] = {
        "id": note_id,
        "nuggetName": nugget,
        "title": title,
        "content": content,
        "tags": normalise_tags([nugget, *given, f"scope:{data['scope']}", f"type:{data['type']}"]),
        "links": [{"to": to, "reason": reason, "createdAt": STAMP} for to, reason in links],
        "vector": {"seed": 0, "basis": []},
        "hidden": hidden,
        "kind": kind,
    }
    if kind == "fact":
        out["sourceKey"] = title
    out.update(
        {
            "hits": hits,
            "lastHitSession": session,
            "createdAt": STAMP,
            "updatedAt": STAMP,
            "lastAccessedAt": STAMP,
        }
    )
    if hidden:
        out["archivedAt"] = STAMP
    out.update(data)
    out["vector"] = vector_spec(out)
    return out


def sample_notes() -> list[dict[str, Any]]:
    """The notes of ``note_store``, in storage order."""
    return [
        note(
            "note-work-deploy01",
            "Deploy checklist",
            "Run the migrations first.\nThen pnpm deploy from the repo root.\n"
            "Check the status page afterwards.",
            tags=("ops", "release"),
            links=(("fact-work-cmd00001", "uses"), ("note-work-gone0001", "replaced")),
            hits=4,
            session="s-0412",
        ),
        note(
            "fact-work-cmd00001",
            "project:deploy-cmd",
            "pnpm deploy",
            kind="fact",
            links=(("note-work-deploy01", "uses"),),
            hits=7,
            session="s-0415",
            source="explicit_user",
            confidence=1.0,
        ),
        note(
            "note-work-deploy02",
            "Deploy steps (old)",
            "Run the migrations first.\nTag the release in git.",
            tags=("ops",),
            hits=1,
        ),
        note(
            "note-work-style001",
            "Answer style",
            "Short answers, code first, no apologies.",
            tags=("style",),
            scope="self",
        ),
        note(
            "fact-work-tmp00001",
            "tmp:scratch-branch",
            "feature/nuggets-desk",
            kind="fact",
            hidden=True,
        ),
        note(
            "note-home-tea00001",
            "用户喜欢的茶",
            "龙井，不加糖。\nPrefers green tea in the afternoon.",
            nugget="home",
            tags=("preferences",),
            hits=2,
            session="s-0007",
        ),
    ]


def stage(store: MemoryStore, notes: list[dict[str, Any]]) -> None:
    """Write ``notes`` into ``store`` in one batch (as an import would)."""
    with store.storage.transaction(OpKind.BATCH, "Import notes") as tx:
        for entry in notes:
            model.stage_note(tx, entry)


def note_store(path: Path | str) -> MemoryStore:
    """A store at ``path`` holding ``sample_notes()`` (the caller closes it)."""
    store = MemoryStore.open(path)
    stage(store, sample_notes())
    return store

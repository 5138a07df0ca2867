"""What ``mergeNotes(target, source, reason)`` will make of the target, before it runs.

Pure (no store): the readings' merge rules applied to two notes' JSON, so a dialog can show the
merged content, tags and links exactly as the write will store them. The write itself stays the
Nuggets API's; ``tests/app/test_note_merge.py`` pins that the two agree.

- content: the target's non-empty lines (each trimmed as JavaScript trims), then the source's,
  repeats dropped (first kept), joined by ``\\n``;
- tags: the target's then the source's (system tags too), normalised, repeats dropped;
- links: the target's, then the source's that point at neither note, unique by target and
  lower-cased reason (first kept); then, as the merge redirects every link to the source, a
  target link to the source points at the target itself and is dropped (**seed**);
- hits: the two notes' hits added.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from memgraph_gui.core.nuggets.text import js_trim, normalise_tags, unique


@dataclass(frozen=True, slots=True)
class MergePreview:
    """The target after the merge: ``content``, ``tags``, ``links`` (dicts as stored), ``hits``;
    ``redirected``: ids of the nugget's other notes whose links to the source will point at the
    target."""

    content: str
    tags: tuple[str, ...]
    links: tuple[Mapping[str, Any], ...]
    hits: int
    redirected: tuple[str, ...]


def dedupe_links(links: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """``links`` unique by target and lower-cased reason, the first of each kept."""
    seen: set[tuple[Any, str]] = set()
    out = []
    for link in links:
        key = (link.get("to"), str(link.get("reason", "")).lower())
        if key not in seen:
            seen.add(key)
            out.append(link)
    return out


def merged_content(target: str, source: str) -> str:
    """The merged content: unique non-empty trimmed lines, the target's first."""
    lines = [js_trim(line) for text in (target, source) for line in text.split("\n")]
    return "\n".join(unique(line for line in lines if line))


def _links(note: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [link for link in note.get("links") or () if isinstance(link, Mapping)]


def _hits(note: Mapping[str, Any]) -> int:
    hits = note.get("hits")
    return hits if isinstance(hits, int) and not isinstance(hits, bool) else 0


def merge_preview(
    target: Mapping[str, Any],
    source: Mapping[str, Any],
    others: Iterable[Mapping[str, Any]] = (),
) -> MergePreview:
    """The target as ``mergeNotes(target["id"], source["id"], reason)`` will store it (its
    ``updatedAt`` / ``lastRewrittenAt`` aside: the merge's instant). ``others``: the nugget's
    other notes, for ``redirected``."""
    target_id, source_id = target.get("id"), source.get("id")
    links = dedupe_links(
        [
            *_links(target),
            *(link for link in _links(source) if link.get("to") not in (target_id, source_id)),
        ]
    )
    links = dedupe_links(
        link
        for link in links
        if link.get("to") not in (source_id, target_id)  # redirected to itself: dropped
    )
    redirected = tuple(
        str(note.get("id"))
        for note in others
        if note.get("id") not in (target_id, source_id)
        and any(link.get("to") == source_id for link in _links(note))
    )
    return MergePreview(
        content=merged_content(str(target.get("content", "")), str(source.get("content", ""))),
        tags=tuple(normalise_tags([*target.get("tags", ()), *source.get("tags", ())])),
        links=tuple(links),
        hits=_hits(target) + _hits(source),
        redirected=redirected,
    )

"""``merge_preview``: the target of ``mergeNotes`` as the readings' merge rules make it."""

from __future__ import annotations

from typing import Any

from memgraph_gui.core.nuggets.merge_preview import dedupe_links, merge_preview, merged_content


def _link(to: str, reason: str = "r", at: str = "t0") -> dict[str, str]:
    return {"to": to, "reason": reason, "createdAt": at}


def _note(note_id: str, content: str = "", tags: Any = (), links: Any = (), hits: int = 0) -> Any:
    return {
        "id": note_id,
        "content": content,
        "tags": list(tags),
        "links": list(links),
        "hits": hits,
    }


def test_content_is_the_unique_non_empty_trimmed_lines_target_first() -> None:
    assert merged_content("a\n\n  b \nc", "b\n\u3000c\u3000\nd\n") == "a\nb\nc\nd"
    assert merged_content("", "") == ""
    assert merged_content("x", "") == "x"


def test_tags_are_the_targets_then_the_sources_normalised_system_tags_too() -> None:
    target = _note("t", tags=["work", "ops", "scope:user", "type:note"])
    source = _note("s", tags=["work", "Release  Notes", "scope:project", "ops", "type:fact"])
    preview = merge_preview(target, source)
    assert preview.tags == (
        "work",
        "ops",
        "scope:user",
        "type:note",
        "release-notes",
        "scope:project",
        "type:fact",
    )


def test_links_keep_the_targets_add_the_sources_to_others_and_drop_self_links() -> None:
    target = _note("t", links=[_link("a", "uses"), _link("s", "dup"), _link("b", "x")])
    source = _note(
        "s",
        links=[_link("t", "back"), _link("s", "self"), _link("a", "USES", "t9"), _link("c", "y")],
    )
    preview = merge_preview(target, source)
    # the target's link to the source would point at the target itself: dropped (seed); the
    # source's "USES" to a is the same link as the target's "uses" (first kept)
    assert preview.links == (_link("a", "uses"), _link("b", "x"), _link("c", "y"))


def test_hits_add_up_and_other_notes_linking_the_source_are_named() -> None:
    target = _note("t", hits=3)
    source = _note("s", hits=4)
    others = [_note("o1", links=[_link("s")]), _note("o2", links=[_link("t")]), target, source]
    preview = merge_preview(target, source, others)
    assert preview.hits == 7
    assert preview.redirected == ("o1",)


def test_dedupe_links_is_by_target_and_lower_cased_reason() -> None:
    links = [_link("a", "Same"), _link("a", "same", "t2"), _link("a", "other"), _link("b", "same")]
    assert dedupe_links(links) == [links[0], links[2], links[3]]

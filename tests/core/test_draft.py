"""The offline extractive draft of a rollup summary."""

from __future__ import annotations

from memgraph_gui.core.domain.draft import (
    LINE_FLOOR,
    clip_lines,
    draft_budget,
    extractive_summary,
    tokens_of,
)


def test_keeps_timeline_order_not_input_order() -> None:
    briefs = [
        {"toSeq": 9, "summary": "Rowan burns the letter."},
        {"toSeq": 2, "summary": "Eileen finds a letter in the cellar."},
        {"toSeq": 5, "summary": "Mira reads it aloud."},
    ]
    draft = extractive_summary(briefs)
    assert draft == (
        "Eileen finds a letter in the cellar.\nMira reads it aloud.\nRowan burns the letter."
    )


def test_near_duplicates_are_dropped_and_the_older_kept() -> None:
    briefs = [
        {"toSeq": 1, "summary": "Eileen met Rowan at the north gate. It rained."},
        {"toSeq": 2, "summary": "Eileen met Rowan at the north gate again!"},
    ]
    draft = extractive_summary(briefs)
    assert draft.count("north gate") == 1
    assert draft.startswith("Eileen met Rowan at the north gate.")


def test_budget_is_respected_and_every_child_is_represented_first() -> None:
    people = ("Eileen", "Rowan", "Mira", "Dorian")
    deeds = ("burns a letter", "loses her sword", "crosses the river", "sings at night")
    briefs = [
        {
            "toSeq": i,
            "summary": f"{people[i]} {deeds[i]}. The weather was grey and the roads "
            "were long and muddy.",
        }
        for i in range(4)
    ]
    draft = extractive_summary(briefs, max_chars=100)
    assert len(draft) <= 100
    assert draft.splitlines() == [f"{p} {d}." for p, d in zip(people, deeds, strict=True)]
    assert extractive_summary(briefs, max_chars=1000).count("weather") == 4  # a line each


def test_names_are_preferred_within_a_tight_budget() -> None:
    briefs = [{"summary": "it was cold and wet and dark outside. Eileen gave Rowan the key."}]
    assert extractive_summary(briefs, max_chars=40) == "Eileen gave Rowan the key."


def test_chinese_sentences_split_without_spaces() -> None:
    briefs = [
        {"toSeq": 1, "summary": "艾琳在北门遇见了罗文。天下着雨！他们争论地图的事？"},
        {"toSeq": 2, "summary": "艾琳在北门遇见了罗文。"},
    ]
    draft = extractive_summary(briefs)
    assert draft.count("艾琳在北门遇见了罗文。") == 1
    assert "天下着雨！" in draft and "他们争论地图的事？" in draft
    assert " " not in draft  # CJK sentences are joined without spaces
    assert len(extractive_summary(briefs, max_chars=12)) <= 12


def test_title_is_used_when_there_is_no_summary_and_a_stop_is_added() -> None:
    briefs = [{"title": "Mira leaves town", "toSeq": 3}, {"title": "雾沼之战", "toSeq": 4}]
    assert extractive_summary(briefs) == "Mira leaves town.\n雾沼之战。"


def test_deterministic_and_empty_inputs() -> None:
    briefs = [{"toSeq": 1, "summary": "A. B. C."}, {"toSeq": 1, "summary": "D e f. G h i."}]
    assert extractive_summary(briefs) == extractive_summary(list(briefs))
    assert extractive_summary([]) == ""
    assert extractive_summary([{"summary": "   "}]) == ""
    assert extractive_summary([{"summary": "Hello there."}], max_chars=0) == ""


def test_one_sentence_longer_than_the_budget_is_clipped_with_an_ellipsis() -> None:
    briefs = [{"summary": "Eileen " + "walks far away " * 20 + "home."}]
    draft = extractive_summary(briefs, max_chars=50)
    assert len(draft) <= 50 and draft.endswith("…") and draft.startswith("Eileen walks")


def test_tokens_are_words_and_cjk_bigrams() -> None:
    assert tokens_of("The Map of 银月城") == {"map", "银月", "月城"}


DEMO_THREE = [  # three events as the demo writes them (core/demo/generator.py)
    {
        "toSeq": 9,
        "summary": "时间：第3天；地点：银月城。Eileen draws her sword against Rowan（拔剑对峙）。"
        "The alliance holds, for now.",
    },
    {
        "toSeq": 10,
        "summary": "时间：第3天；地点：雾沼。Mira saves the life of Dorian（救下）。局势暂时稳定。",
    },
    {
        "toSeq": 11,
        "summary": "时间：第3天；地点：码头。Rowan duels Mira（决斗）。"
        "Blood is spilled and cannot be taken back.",
    },
]


def test_a_draft_of_three_demo_events_keeps_each_ones_time_place_who_and_what() -> None:
    """Before: the three time/place sentences were near-duplicates, so the draft kept only the
    first one and approving it lost two places."""
    lines = extractive_summary(DEMO_THREE).splitlines()
    assert len(lines) == 3
    facts = [
        ("第3天", "银月城", "Eileen", "Rowan", "draws her sword"),
        ("第3天", "雾沼", "Mira", "Dorian", "saves the life"),
        ("第3天", "码头", "Rowan", "Mira", "duels"),
    ]
    for line, wanted in zip(lines, facts, strict=True):
        assert all(fact in line for fact in wanted), line


def test_a_big_group_keeps_every_childs_facts_and_drops_the_least_informative_first() -> None:
    places = ["银月城", "雾沼", "码头", "北门", "灰塔", "王都"]
    people = ["Eileen", "Rowan", "Mira", "Dorian", "Kain", "Lysa"]
    briefs = [
        {
            "toSeq": i,
            "summary": f"时间：第{i // 4 + 1}天；地点：{places[i % 6]}。{people[i % 6]} duels "
            f"{people[(i + 1) % 6]}（决斗）。The alliance holds, for now.",
        }
        for i in range(12)
    ]
    budget = draft_budget(len(briefs), 600)
    assert budget == 12 * (LINE_FLOOR + 1) - 1
    lines = extractive_summary(briefs, max_chars=budget).splitlines()
    assert len(lines) == 12 and sum(len(x) for x in lines) + 11 <= budget
    for i, line in enumerate(lines):
        assert f"第{i // 4 + 1}天" in line and places[i % 6] in line
        assert people[i % 6] in line and people[(i + 1) % 6] in line
    # only the sentence with no name, no number and no CJK term gave way to fit the budget
    assert sum("alliance" in line for line in lines) < 12


def test_clip_lines_cuts_the_longest_to_a_common_length() -> None:
    texts = ["short", "a" * 100, "b" * 50]
    clipped = clip_lines(texts, 80)
    assert clipped[0] == "short" and len("\n".join(clipped)) <= 80
    assert clipped[1].endswith("…") and clipped[2].endswith("…")
    assert clip_lines(["x", "y"], 80) == ["x", "y"]

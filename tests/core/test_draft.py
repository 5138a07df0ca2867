"""The offline extractive draft of a rollup summary."""

from __future__ import annotations

from memgraph_gui.core.domain.draft import extractive_summary, tokens_of


def test_keeps_timeline_order_not_input_order() -> None:
    briefs = [
        {"toSeq": 9, "summary": "Rowan burns the letter."},
        {"toSeq": 2, "summary": "Eileen finds a letter in the cellar."},
        {"toSeq": 5, "summary": "Mira reads it aloud."},
    ]
    draft = extractive_summary(briefs)
    assert (
        draft == "Eileen finds a letter in the cellar. Mira reads it aloud. Rowan burns the letter."
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
    assert all(name in draft for name in people)
    assert "weather" not in draft
    assert extractive_summary(briefs).count("weather") == 1  # the rest were near-duplicates


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
    assert extractive_summary(briefs) == "Mira leaves town. 雾沼之战。"


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

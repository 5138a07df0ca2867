"""The route model's prompt and the reading of its answer."""

from __future__ import annotations

from typing import Any

import pytest
from graph_builders import char, load

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.luker.route_input import build_route_input
from memgraph_gui.core.luker.route_prompt import RoutePick, parse_route_answer, route_messages

KNOWN = ["a", "b", "艾琳", "n_10"]


def test_messages_are_the_system_prompt_then_the_blocks(store: Any) -> None:
    read = load(store, [char("a", title="Alice"), char("b", title="Bob")])
    route = build_route_input(read, "Who is Alice?")
    messages = route_messages(route, "Who is Alice?")
    assert [m["role"] for m in messages] == ["system", "user"]
    system = messages[0]["content"]
    assert "selected_ids" in system and "reasons" in system and "candidateRows" in system
    assert messages[1]["content"] == route.text
    # Another message: the same blocks around it, never the stale query.
    other = route_messages(route, "Where is Bob?")[1]["content"]
    assert other.endswith("recall_query_context:\nWhere is Bob?")
    assert other.removesuffix("Where is Bob?") == route.text.removesuffix("Who is Alice?")


@pytest.mark.parametrize(
    "answer",
    [
        '{"selected_ids": ["b", "a"], "reasons": {"b": "asked about", "a": " named "}}',
        'Sure.\n```json\n{"selected_ids": ["b", "a"], "reasons": {"b": "asked about",'
        ' "a": "named"}}\n```\nDone.',
        'I pick {"selected_ids": ["b", "a", "b"], "reasons": {"b": "asked about", "a": "named",'
        ' "zz": "x"}} as asked',
        '```\n{"selected_ids": [" b ", "a"], "reasons": {"b": "asked about", "a": "named"}}\n```',
    ],
)
def test_answers_in_any_wrapping(answer: str) -> None:
    pick = parse_route_answer(answer, KNOWN)
    assert pick == RoutePick(("b", "a"), {"b": "asked about", "a": "named"}, ())


def test_unknown_ids_are_dropped_and_reported_in_order() -> None:
    pick = parse_route_answer(
        '{"selected_ids": ["ghost", "艾琳", 10, "n_10", "a", "ghost", null, "", true],'
        ' "reasons": {"ghost": "?", "艾琳": "she is asked for"}}',
        KNOWN,
    )
    assert pick.ids == ("艾琳", "n_10", "a")
    assert pick.unknown == ("ghost", "10")
    assert pick.reasons == {"艾琳": "she is asked for"}
    assert parse_route_answer('{"selected_ids": []}', KNOWN) == RoutePick((), {}, ())


def test_nested_object_and_first_usable_object() -> None:
    answer = '{"thinking": "hm"} then {"result": {"selected_ids": ["a"]}}'
    assert parse_route_answer(answer, KNOWN).ids == ("a",)


@pytest.mark.parametrize(
    ("answer", "quoted"),
    [
        ("I think Alice and Bob matter most here, because the message asks", "I think Alice"),
        ('{"ids": ["a"]}', '{"ids"'),
        ('{"selected_ids": "a"}', "selected_ids"),
        ('```json\n{"selected_ids": ["a"\n```', "selected_ids"),
    ],
)
def test_unusable_answers_raise_with_the_start_quoted(answer: str, quoted: str) -> None:
    with pytest.raises(MemgraphError) as info:
        parse_route_answer(answer, KNOWN)
    assert info.value.code == "BAD_ROUTE_ANSWER"
    assert "selected_ids" in str(info.value) and quoted in str(info.value)


def test_long_and_empty_answers_are_clear() -> None:
    with pytest.raises(MemgraphError) as info:
        parse_route_answer("x" * 500, KNOWN)
    assert len(str(info.value)) < 200 and "…" in str(info.value)
    with pytest.raises(MemgraphError) as info:
        parse_route_answer("   ", KNOWN)
    assert info.value.code == "BAD_ROUTE_ANSWER" and "empty" in str(info.value)

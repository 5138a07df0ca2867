"""``request_chat`` and ``route_recall`` against a local fake chat endpoint (no Qt needed)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memgraph_gui.app.llm_client import DraftError, request_chat, request_completion, route_recall
from memgraph_gui.app.settings import DraftEndpoint
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.luker.route_input import build_route_input
from memgraph_gui.core.luker.route_prompt import ROUTE_SYSTEM_PROMPT, RoutePick
from tests.app.chat_server import fake_chat
from tests.core.graph_builders import char, edge, load

MESSAGES = [{"role": "user", "content": "Say 凯恩."}]


def endpoint(url: str, timeout: float = 5.0) -> DraftEndpoint:
    return DraftEndpoint(url, "test-model", timeout)


def test_request_chat_posts_the_messages_and_returns_the_content() -> None:
    with fake_chat("  凯恩 \n") as chat:
        assert request_chat(endpoint(chat.url), MESSAGES, api_key="sk-1", max_tokens=7) == "凯恩"
    (sent,) = chat.requests
    assert sent["path"] == "/v1/chat/completions" and sent["auth"] == "Bearer sk-1"
    assert sent["body"] == {"model": "test-model", "messages": MESSAGES, "max_tokens": 7}
    with fake_chat("fine") as chat:
        request_chat(endpoint(chat.url + "/"), MESSAGES)
    assert chat.requests[0]["auth"] is None and chat.requests[0]["body"]["max_tokens"] == 1200


def test_request_chat_failures_are_plain_and_not_worded_as_drafts() -> None:
    with pytest.raises(DraftError, match="No AI endpoint is set") as info:
        request_chat(endpoint(""), MESSAGES)
    assert "draft" not in str(info.value)
    refused = (401, {"error": {"message": "Incorrect API key provided: sk-w***"}})
    with fake_chat(refused, "   ", (200, {"choices": []})) as chat:
        with pytest.raises(DraftError, match=r"HTTP 401.*Incorrect API key provided"):
            request_chat(endpoint(chat.url), MESSAGES)
        with pytest.raises(DraftError, match="empty message"):
            request_chat(endpoint(chat.url), MESSAGES)
        with pytest.raises(DraftError, match=r"no choices\[0\]\.message\.content"):
            request_chat(endpoint(chat.url), MESSAGES)
    with pytest.raises(DraftError, match=r"Could not reach http://127\.0\.0\.1:9/chat/completions"):
        request_chat(endpoint("http://127.0.0.1:9", 2.0), MESSAGES)


def test_request_completion_keeps_its_draft_wording() -> None:
    with pytest.raises(DraftError, match="or draft offline"):
        request_completion(endpoint(""), MESSAGES)
    with fake_chat(" A draft. ", "") as chat:
        assert request_completion(endpoint(chat.url), MESSAGES) == "A draft."
        with pytest.raises(DraftError, match="empty draft"):
            request_completion(endpoint(chat.url), MESSAGES)
    assert chat.requests[0]["body"]["max_tokens"] == 600


@pytest.fixture
def route(store: Any) -> Any:
    read = load(
        store,
        [char("a", seq=1, title="Alice"), char("b", seq=2, title="Bob"), char("艾琳", seq=3)],
        [edge("a", "b", "allied_with")],
    )
    return build_route_input(read, "Where did Alice go?")


def test_route_recall_sends_the_blocks_and_reads_the_pick(route: Any) -> None:
    answer = (
        "```json\n"
        + json.dumps({"selected_ids": ["a", "ghost", "艾琳", "a"], "reasons": {"a": "named"}})
        + "\n```"
    )
    with fake_chat(answer) as chat:
        pick = route_recall(endpoint(chat.url), route, "Where did Alice go?", api_key="k")
    assert pick == RoutePick(("a", "艾琳"), {"a": "named"}, ("ghost",))
    body = chat.requests[0]["body"]
    assert body["messages"] == [
        {"role": "system", "content": ROUTE_SYSTEM_PROMPT},
        {"role": "user", "content": route.text},
    ]
    assert chat.requests[0]["auth"] == "Bearer k"


def test_route_recall_failures(route: Any) -> None:
    with fake_chat("I would pick Alice.") as chat:
        with pytest.raises(MemgraphError) as info:
            route_recall(endpoint(chat.url), route, route.message)
    assert info.value.code == "BAD_ROUTE_ANSWER" and "I would pick Alice." in str(info.value)
    with pytest.raises(DraftError, match="No AI endpoint is set"):
        route_recall(endpoint(""), route, route.message)

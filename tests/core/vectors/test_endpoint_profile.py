"""The endpoint embedding profile against a local fake OpenAI-compatible server: batching,
order, auth, retry with backoff and Retry-After, failures with the server's message, cancel."""

from __future__ import annotations

import socket
import threading
from typing import Any

import numpy as np
import pytest

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.vectors.embedders import embedder_for
from memgraph_gui.core.vectors.endpoint import MAX_RETRY_AFTER, EndpointEmbedder, embeddings_url
from memgraph_gui.core.vectors.profiles import ENDPOINT, ProfileSpec
from tests.core.vectors.fake_embeddings_server import FakeEmbeddingsServer, Reply


def Spec(base_url: str, dimensions: int | None = None) -> ProfileSpec:
    """An endpoint profile for ``base_url`` with the model ``fake-embed``."""
    return ProfileSpec("remote", ENDPOINT, base_url, "fake-embed", dimensions)


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The backoff waits the embedder asks for (recorded, not slept)."""
    asked: list[float] = []

    def pause(self: EndpointEmbedder, seconds: float, cancel: Any) -> bool:
        asked.append(seconds)
        return False

    monkeypatch.setattr(EndpointEmbedder, "_pause", pause)
    return asked


def _unit(server: FakeEmbeddingsServer, texts: list[str]) -> np.ndarray:
    rows = np.array([server.vector(t) for t in texts], dtype=np.float64)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _failure(embedder: EndpointEmbedder, texts: list[str], **kw: Any) -> MemgraphError:
    with pytest.raises(MemgraphError) as caught:
        embedder.embed(texts, **kw)
    return caught.value


def test_batches_in_order_unit_length(embeddings_server: FakeEmbeddingsServer) -> None:
    texts = [f"memory number {i}" for i in range(150)]
    rows = EndpointEmbedder(Spec(embeddings_server.url)).embed(texts)
    assert [len(batch) for batch in embeddings_server.inputs()] == [64, 64, 22]
    assert [t for batch in embeddings_server.inputs() for t in batch] == texts
    assert rows.dtype == np.float32 and rows.shape == (150, 8)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(rows, _unit(embeddings_server, texts), atol=1e-6)
    first = embeddings_server.requests[0]
    assert first.path == "/v1/embeddings"
    assert first.body == {"model": "fake-embed", "input": texts[:64]}
    assert "authorization" not in first.headers


def test_the_answer_is_ordered_by_index_not_position() -> None:
    texts = ["alpha", "beta", "gamma", "delta"]
    with FakeEmbeddingsServer(reverse=True) as server:
        rows = EndpointEmbedder(Spec(server.url)).embed(texts)
        np.testing.assert_allclose(rows, _unit(server, texts), atol=1e-6)
        assert [item["index"] for item in server.answer({"input": texts})["data"]] == [3, 2, 1, 0]


def test_empty_texts_get_zero_rows_and_are_not_sent(
    embeddings_server: FakeEmbeddingsServer,
) -> None:
    rows = EndpointEmbedder(Spec(embeddings_server.url)).embed(["a king", "", "  \n", "a queen"])
    assert embeddings_server.inputs() == [["a king", "a queen"]]
    assert not rows[1].any() and not rows[2].any()
    np.testing.assert_allclose(
        rows[[0, 3]], _unit(embeddings_server, ["a king", "a queen"]), atol=1e-6
    )


def test_only_empty_texts_send_nothing(embeddings_server: FakeEmbeddingsServer) -> None:
    calls: list[tuple[int, int]] = []
    rows = EndpointEmbedder(Spec(embeddings_server.url, dimensions=8)).embed(
        ["", " "], progress=lambda d, t: calls.append((d, t))
    )
    assert rows.shape == (2, 8) and not rows.any()
    assert embeddings_server.requests == [] and calls == [(2, 2)]


def test_urls_keep_an_embeddings_suffix_and_drop_trailing_slashes(
    embeddings_server: FakeEmbeddingsServer,
) -> None:
    assert embeddings_url(" http://h/v1/ ") == "http://h/v1/embeddings"
    assert embeddings_url("http://h/v1/embeddings/") == "http://h/v1/embeddings"
    EndpointEmbedder(Spec(embeddings_server.url + "/embeddings/")).embed(["x"])
    EndpointEmbedder(Spec(embeddings_server.url + "//")).embed(["y"])
    assert [r.path for r in embeddings_server.requests] == ["/v1/embeddings", "/v1/embeddings"]


def test_the_key_is_sent_as_bearer_and_a_callable_is_read_once_per_call(
    embeddings_server: FakeEmbeddingsServer,
) -> None:
    EndpointEmbedder(Spec(embeddings_server.url), "sk-plain").embed(["x"])
    reads: list[int] = []

    def key() -> str:
        reads.append(1)
        return "sk-called"

    EndpointEmbedder(Spec(embeddings_server.url), key, batch_size=2).embed(["a", "b", "c", "d"])
    assert [r.headers["authorization"] for r in embeddings_server.requests] == [
        "Bearer sk-plain",
        "Bearer sk-called",
        "Bearer sk-called",
    ]
    assert reads == [1]


def test_dimensions_are_sent_when_the_profile_names_them(
    embeddings_server: FakeEmbeddingsServer,
) -> None:
    rows = EndpointEmbedder(Spec(embeddings_server.url, dimensions=4)).embed(["x", "y"])
    assert embeddings_server.requests[0].body["dimensions"] == 4 and rows.shape == (2, 4)


def test_progress_after_each_batch(embeddings_server: FakeEmbeddingsServer) -> None:
    calls: list[tuple[int, int]] = []
    texts = ["", *[f"t{i}" for i in range(5)]]
    EndpointEmbedder(Spec(embeddings_server.url), batch_size=2).embed(
        texts, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(3, 6), (5, 6), (6, 6)]


# -- retry ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("status", [429, 500, 503])
def test_retried_with_exponential_backoff_then_success(
    embeddings_server: FakeEmbeddingsServer, waits: list[float], status: int
) -> None:
    embeddings_server.fail(2, status)
    rows = EndpointEmbedder(Spec(embeddings_server.url), backoff=0.5).embed(["a", "b"])
    assert len(embeddings_server.requests) == 3 and waits == [0.5, 1.0]
    np.testing.assert_allclose(rows, _unit(embeddings_server, ["a", "b"]), atol=1e-6)


def test_retry_after_is_honoured_and_capped(
    embeddings_server: FakeEmbeddingsServer, waits: list[float]
) -> None:
    embeddings_server.fail(1, 429, "slow down", retry_after=7)
    embeddings_server.fail(1, 429, "slow down", retry_after=100_000)
    embeddings_server.fail(1, 429, "slow down", retry_after="Wed, 21 Oct 2026 07:28:00 GMT")
    EndpointEmbedder(Spec(embeddings_server.url), backoff=0.25).embed(["a"])
    assert waits == [7.0, MAX_RETRY_AFTER, 1.0]  # a date is not seconds: the backoff is used


def test_a_timeout_is_retried(embeddings_server: FakeEmbeddingsServer, waits: list[float]) -> None:
    embeddings_server.hang(1, 30)
    rows = EndpointEmbedder(Spec(embeddings_server.url), timeout=1.0).embed(["a"])
    assert len(embeddings_server.requests) == 2 and len(waits) == 1 and rows.shape == (1, 8)


def test_timeouts_to_the_end_fail_naming_the_timeout(
    embeddings_server: FakeEmbeddingsServer, waits: list[float]
) -> None:
    embeddings_server.hang(2, 30)
    error = _failure(EndpointEmbedder(Spec(embeddings_server.url), attempts=2, timeout=0.3), ["a"])
    assert error.code == "EMBEDDING_FAILED"
    assert "no answer within 0.3 seconds (tried 2 times)" in error.message


def test_a_refused_connection_is_retried_then_fails(waits: list[float]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    error = _failure(EndpointEmbedder(Spec(url), attempts=3), ["a"])
    assert error.code == "EMBEDDING_FAILED" and len(waits) == 2
    assert f"{url}/embeddings" in error.message and "'fake-embed'" in error.message
    assert "could not connect" in error.message and "tried 3 times" in error.message


def test_exhausting_the_attempts_fails_with_the_last_status(
    embeddings_server: FakeEmbeddingsServer, waits: list[float]
) -> None:
    embeddings_server.fail(10, 503, "model is loading")
    error = _failure(EndpointEmbedder(Spec(embeddings_server.url), attempts=3), ["a"])
    assert len(embeddings_server.requests) == 3 and waits == [0.5, 1.0]
    assert error.code == "EMBEDDING_FAILED"
    assert "HTTP 503: model is loading (tried 3 times)" in error.message


def test_a_401_fails_at_once_with_the_servers_message(
    embeddings_server: FakeEmbeddingsServer, waits: list[float]
) -> None:
    embeddings_server.fail(1, 401, "Incorrect API key provided: sk-wr***ng.")
    error = _failure(EndpointEmbedder(Spec(embeddings_server.url), "sk-wrong"), ["a"])
    assert len(embeddings_server.requests) == 1 and waits == []
    assert error.code == "EMBEDDING_FAILED"
    assert error.message == (
        f"The embedding endpoint {embeddings_server.url}/embeddings (model 'fake-embed') failed: "
        "HTTP 401: Incorrect API key provided: sk-wr***ng."
    )


def test_a_plain_text_error_body_is_quoted(embeddings_server: FakeEmbeddingsServer) -> None:
    embeddings_server.script(Reply(400, b"input too long\n  for this model"))
    error = _failure(EndpointEmbedder(Spec(embeddings_server.url)), ["a"])
    assert error.message.endswith("HTTP 400: input too long for this model")


# -- bad answers ----------------------------------------------------------------------------------
def test_an_answer_that_is_not_json_fails(embeddings_server: FakeEmbeddingsServer) -> None:
    embeddings_server.script(Reply(200, b"<html>proxy login</html>"))
    error = _failure(EndpointEmbedder(Spec(embeddings_server.url)), ["a"])
    assert error.code == "EMBEDDING_FAILED" and "not valid JSON" in error.message
    assert len(embeddings_server.requests) == 1


def test_rows_of_different_dimensions_fail(embeddings_server: FakeEmbeddingsServer) -> None:
    def short_second_row(request: dict[str, Any]) -> dict[str, Any]:
        answer = embeddings_server.answer(request)
        answer["data"][1]["embedding"] = answer["data"][1]["embedding"][:7]
        return answer

    embeddings_server.script(Reply(body=short_second_row))
    error = _failure(EndpointEmbedder(Spec(embeddings_server.url)), ["a", "b", "c"])
    assert error.code == "EMBEDDING_FAILED"
    assert "the answer has rows of 7 and 8 dimensions" in error.message


def test_batches_of_different_dimensions_fail(embeddings_server: FakeEmbeddingsServer) -> None:
    embeddings_server.script(
        Reply(), Reply(body=lambda req: embeddings_server.answer({**req, "dimensions": 5}))
    )
    error = _failure(EndpointEmbedder(Spec(embeddings_server.url), batch_size=1), ["a", "b"])
    assert "the answer has rows of 8 and 5 dimensions" in error.message


def test_a_wrong_count_of_rows_fails(embeddings_server: FakeEmbeddingsServer) -> None:
    def drop_one(request: dict[str, Any]) -> dict[str, Any]:
        answer = embeddings_server.answer(request)
        answer["data"].pop()
        return answer

    embeddings_server.script(Reply(body=drop_one))
    error = _failure(EndpointEmbedder(Spec(embeddings_server.url)), ["a", "b", "c"])
    assert "the answer has 2 rows for 3 texts" in error.message


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ({"data": "nope"}, "no data list"),
        ({"data": [{"index": 0, "embedding": [1, "x"]}]}, "not lists of numbers"),
        ({"data": [{"index": 3, "embedding": [1.0]}]}, "data[0].index"),
        ({"data": [{"index": 0, "embedding": []}]}, "data[0].embedding"),
        ({"data": [{"index": 0, "embedding": [1.0, float("nan")]}]}, "non-finite"),
    ],
)
def test_malformed_answers_fail(
    embeddings_server: FakeEmbeddingsServer, answer: dict[str, Any], problem: str
) -> None:
    embeddings_server.script(Reply(body=answer))
    error = _failure(EndpointEmbedder(Spec(embeddings_server.url)), ["a"])
    assert error.code == "EMBEDDING_FAILED" and problem in error.message


def test_the_profiles_dimensions_are_checked(embeddings_server: FakeEmbeddingsServer) -> None:
    embeddings_server.script(
        Reply(body=lambda req: embeddings_server.answer({**req, "dimensions": 6}))
    )
    error = _failure(EndpointEmbedder(Spec(embeddings_server.url, dimensions=4)), ["a"])
    assert "rows of 6 dimensions, the profile asks for 4" in error.message


def test_a_url_that_is_not_http_is_refused_before_any_request(tmp_path: Any) -> None:
    error = _failure(EndpointEmbedder(Spec(tmp_path.as_uri())), ["a"])
    assert error.code == "EMBEDDING_FAILED" and "http:// or https://" in error.message
    error = _failure(EndpointEmbedder(Spec("  ")), ["a"])
    assert error.code == "EMBEDDING_FAILED" and "no endpoint URL" in error.message


def test_a_failing_key_reader_fails_the_call(embeddings_server: FakeEmbeddingsServer) -> None:
    def broken() -> str:
        raise RuntimeError("keyring locked")

    error = _failure(EndpointEmbedder(Spec(embeddings_server.url), broken), ["a"])
    assert "the API key could not be read: keyring locked" in error.message
    assert embeddings_server.requests == []


# -- cancel ---------------------------------------------------------------------------------------
def test_cancel_before_a_batch_sends_no_more(embeddings_server: FakeEmbeddingsServer) -> None:
    cancel = threading.Event()
    embedder = EndpointEmbedder(Spec(embeddings_server.url), batch_size=2)
    error = _failure(
        embedder, ["a", "b", "c", "d", "e"], cancel=cancel, progress=lambda d, t: cancel.set()
    )
    assert error.code == "EMBEDDING_CANCELLED" and len(embeddings_server.requests) == 1


def test_cancel_during_a_backoff_returns_promptly(embeddings_server: FakeEmbeddingsServer) -> None:
    embeddings_server.fail(1, 429, "busy", retry_after=MAX_RETRY_AFTER)
    cancel = threading.Event()
    outcome: list[BaseException | np.ndarray] = []

    def run() -> None:
        try:
            outcome.append(
                EndpointEmbedder(Spec(embeddings_server.url)).embed(["a"], cancel=cancel)
            )
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    assert embeddings_server.wait_for_requests(1)
    cancel.set()
    worker.join(MAX_RETRY_AFTER / 3)  # the backoff alone would take MAX_RETRY_AFTER
    assert not worker.is_alive()
    assert isinstance(outcome[0], MemgraphError) and outcome[0].code == "EMBEDDING_CANCELLED"
    assert len(embeddings_server.requests) == 1


def test_embedder_for_an_endpoint_profile_reads_the_saved_key(
    embeddings_server: FakeEmbeddingsServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMGRAPH_EMBEDDING_API_KEY", "sk-from-env")
    embedder = embedder_for(Spec(embeddings_server.url))
    assert isinstance(embedder, EndpointEmbedder)
    embedder.embed(["x"])
    assert embeddings_server.requests[0].headers["authorization"] == "Bearer sk-from-env"

"""The server's own words in an HTTP error (shared by the embedding endpoint and the AI client)."""

from __future__ import annotations

import io
import urllib.error
from email.message import Message

import pytest

from memgraph_gui.core.domain.server_errors import MAX_DETAIL, http_error_detail, server_message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            '{"error": {"message": "Incorrect API key\\n  provided", "type": "x"}}',
            "Incorrect API key provided",
        ),
        ('{"error": "model not found"}', "model not found"),
        ('{"message": "rate limited"}', "rate limited"),
        ('{"error": {"code": 500}}', '{"error": {"code": 500}}'),
        ("input too long\n  for this model", "input too long for this model"),
        ("", ""),
    ],
)
def test_the_message_of_an_openai_style_body_on_one_line(body: str, expected: str) -> None:
    assert server_message(body) == expected


def _http_error(body: bytes, reason: str = "Bad Request") -> urllib.error.HTTPError:
    return urllib.error.HTTPError("http://x/v1", 400, reason, Message(), io.BytesIO(body))


def test_the_detail_falls_back_to_the_reason_and_is_cut() -> None:
    assert http_error_detail(_http_error(b"", " Bad Request ")) == "Bad Request"
    assert http_error_detail(_http_error(b"", "")) == ""
    assert http_error_detail(_http_error(b"x" * 1000)) == "x" * MAX_DETAIL
    assert http_error_detail(_http_error(b'{"error": {"message": "no"}}'), limit=1) == "n"

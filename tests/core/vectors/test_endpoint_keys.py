"""The embedding endpoint's key: the environment first, else the keyring's account
``embedding-endpoint``, else ""; reading never raises, saving explains a missing keyring."""

from __future__ import annotations

import logging

import pytest
from keyring.backend import KeyringBackend

from memgraph_gui.core.vectors.keys import (
    ENV_KEY,
    KeyringUnavailable,
    endpoint_api_key,
    forget_endpoint_api_key,
    set_endpoint_api_key,
)
from tests.keyring_fakes import (
    MemoryKeyring,
    broken_backend,
    memory_backend,
    no_backend,
)

__all__ = ["broken_backend", "memory_backend", "no_backend"]


@pytest.fixture(autouse=True)
def no_env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_KEY, raising=False)


def test_saved_in_the_keyring_under_its_own_account(memory_backend: MemoryKeyring) -> None:
    assert endpoint_api_key() == ""
    set_endpoint_api_key(" sk-embed ")
    assert memory_backend.saved == {("memgraph-gui", "embedding-endpoint"): "sk-embed"}
    assert endpoint_api_key() == "sk-embed"
    forget_endpoint_api_key()
    assert endpoint_api_key() == "" and memory_backend.saved == {}
    forget_endpoint_api_key()  # nothing saved is fine


def test_an_empty_key_forgets(memory_backend: MemoryKeyring) -> None:
    set_endpoint_api_key("sk-1")
    set_endpoint_api_key("")
    assert memory_backend.saved == {}


def test_the_environment_comes_first(
    memory_backend: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_endpoint_api_key("sk-saved")
    monkeypatch.setenv(ENV_KEY, "sk-env")
    assert endpoint_api_key() == "sk-env"
    monkeypatch.setenv(ENV_KEY, "  ")
    assert endpoint_api_key() == "sk-saved"


def test_no_keyring_reads_as_no_key_and_saving_explains(
    no_backend: KeyringBackend, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="memgraph_gui.core.vectors.keys"):
        assert endpoint_api_key() == ""
    assert "No system keyring is available" in caplog.text
    with pytest.raises(KeyringUnavailable, match=f"No system keyring.*or set {ENV_KEY} instead"):
        set_endpoint_api_key("sk-1")
    with pytest.raises(KeyringUnavailable) as caught:
        forget_endpoint_api_key()
    assert caught.value.no_keyring


def test_a_broken_keyring_reads_as_no_key_and_saving_says_why(
    broken_backend: KeyringBackend, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="memgraph_gui.core.vectors.keys"):
        assert endpoint_api_key() == ""
    assert "the secret service is locked" in caplog.text
    with pytest.raises(KeyringUnavailable, match="The system keyring failed: the secret service"):
        set_endpoint_api_key("sk-1")
    with pytest.raises(KeyringUnavailable) as caught:
        forget_endpoint_api_key()
    assert not caught.value.no_keyring

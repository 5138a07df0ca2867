"""The AI draft's key (app/secrets.py) goes through the core's keyring helpers
(core/vectors/keys.py) under its own account: the two keys never mix, and the draft's messages
for a missing or broken keyring are its own."""

from __future__ import annotations

import pytest
from keyring.backend import KeyringBackend

from memgraph_gui.app import secrets
from memgraph_gui.core.vectors import keys
from tests.keyring_fakes import (
    MemoryKeyring,
    broken_backend,
    memory_backend,
    no_backend,
)

__all__ = ["broken_backend", "memory_backend", "no_backend"]


def test_the_draft_and_embedding_keys_are_separate(
    memory_backend: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(keys.ENV_KEY, raising=False)
    secrets.set_api_key("sk-draft")
    keys.set_endpoint_api_key("sk-embed")
    assert memory_backend.saved == {
        ("memgraph-gui", "draft-endpoint"): "sk-draft",
        ("memgraph-gui", "embedding-endpoint"): "sk-embed",
    }
    assert secrets.get_api_key() == "sk-draft" and keys.endpoint_api_key() == "sk-embed"
    secrets.delete_api_key()
    assert secrets.saved_api_key() == "" and keys.endpoint_api_key() == "sk-embed"
    secrets.set_api_key("sk-2")
    secrets.set_api_key("")  # an empty key deletes
    assert ("memgraph-gui", "draft-endpoint") not in memory_backend.saved


def test_the_drafts_messages_without_a_keyring(no_backend: KeyringBackend) -> None:
    for call in (secrets.saved_api_key, lambda: secrets.set_api_key("k"), secrets.delete_api_key):
        with pytest.raises(secrets.SecretsUnavailable) as caught:
            call()
        assert str(caught.value).startswith("No system keyring is available")
        assert str(caught.value).endswith("or use an endpoint that needs no key.")


def test_the_drafts_messages_with_a_broken_keyring(broken_backend: KeyringBackend) -> None:
    with pytest.raises(secrets.SecretsUnavailable, match=r"^The system keyring failed: the secret"):
        secrets.saved_api_key()
    secrets.use_for_this_run("sk-run")
    try:
        assert secrets.get_api_key() == "sk-run"
    finally:
        secrets.use_for_this_run("")

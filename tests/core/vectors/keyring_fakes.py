"""Keyring backends for tests: ``MemoryKeyring`` (a dict), ``BrokenKeyring`` (every call fails),
and fixtures that install one for a test (``memory_backend``, ``broken_backend``,
``no_backend`` = keyring's own "fail" backend, which raises ``NoKeyringError``), the previous
backend put back after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from keyring.backend import KeyringBackend
from keyring.errors import KeyringError, PasswordDeleteError


class MemoryKeyring(KeyringBackend):
    """Passwords in ``self.saved`` keyed by ``(service, account)``."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.saved: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.saved.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.saved[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.saved.pop((service, username), None) is None:
            raise PasswordDeleteError("not saved")


class BrokenKeyring(KeyringBackend):
    """A backend whose every call fails (a locked or crashed desktop service)."""

    priority = 1  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        raise KeyringError("the secret service is locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise KeyringError("the secret service is locked")

    def delete_password(self, service: str, username: str) -> None:
        raise KeyringError("the secret service is locked")


def _installed(backend: KeyringBackend) -> Iterator[KeyringBackend]:
    import keyring

    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def memory_backend() -> Iterator[MemoryKeyring]:
    """An empty ``MemoryKeyring`` as the keyring for the test."""
    yield from _installed(MemoryKeyring())  # type: ignore[misc]


@pytest.fixture
def broken_backend() -> Iterator[KeyringBackend]:
    """A ``BrokenKeyring`` as the keyring for the test."""
    yield from _installed(BrokenKeyring())


@pytest.fixture
def no_backend() -> Iterator[KeyringBackend]:
    """No usable keyring (``NoKeyringError`` on every call) for the test."""
    from keyring.backends import fail

    yield from _installed(fail.Keyring())

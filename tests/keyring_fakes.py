"""Keyring backends for tests (core, app and views alike): ``MemoryKeyring`` (a dict),
``BrokenKeyring`` (every call fails); ``installed_keyring(backend)`` makes one the keyring for a
``with`` block, the previous backend put back after; and fixtures that install one for a test
(``memory_backend``, ``broken_backend``, ``no_backend`` = keyring's own "fail" backend, which
raises ``NoKeyringError``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

import pytest
from keyring.backend import KeyringBackend
from keyring.errors import KeyringError, PasswordDeleteError

B = TypeVar("B", bound=KeyringBackend)


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


@contextmanager
def installed_keyring(backend: B) -> Iterator[B]:
    """``backend`` as the keyring inside the ``with`` block (the previous one put back after)."""
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
    with installed_keyring(MemoryKeyring()) as backend:
        yield backend


@pytest.fixture
def broken_backend() -> Iterator[KeyringBackend]:
    """A ``BrokenKeyring`` as the keyring for the test."""
    with installed_keyring(BrokenKeyring()) as backend:
        yield backend


@pytest.fixture
def no_backend() -> Iterator[KeyringBackend]:
    """No usable keyring (``NoKeyringError`` on every call) for the test."""
    from keyring.backends import fail

    with installed_keyring(fail.Keyring()) as backend:
        yield backend

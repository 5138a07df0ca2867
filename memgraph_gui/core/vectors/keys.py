"""API keys in the OS keyring (service ``memgraph-gui``; never in settings or the store).

The keyring handling is shared: ``read_secret`` / ``write_secret`` / ``delete_secret`` take the
account (``embedding-endpoint`` for the embedding endpoint here, ``draft-endpoint`` for the AI
draft in app/secrets.py, which maps ``KeyringUnavailable`` to its own translated messages).
``keyring`` raises ``NoKeyringError`` on a machine without a usable backend (a bare Linux box, a
container); every helper turns that, and any other backend failure, into ``KeyringUnavailable``.

The embedding endpoint's key: ``endpoint_api_key()`` never raises (the environment variable
``MEMGRAPH_EMBEDDING_API_KEY`` first, else the keyring, else ""), so a background embedder can
call it freely. Blocking (a backend may talk to a desktop service or prompt the user): call these
off the GUI thread, or on a user's click.
"""

from __future__ import annotations

import logging
import os
from typing import Any

SERVICE = "memgraph-gui"
ENDPOINT_ACCOUNT = "embedding-endpoint"
ENV_KEY = "MEMGRAPH_EMBEDDING_API_KEY"

log = logging.getLogger(__name__)

NO_KEYRING = (
    "No system keyring is available on this computer, so the API key cannot be saved or read. "
    "Install and unlock a keyring (GNOME Keyring, KWallet, macOS Keychain or Windows Credential "
    "Manager)"
)


class KeyringUnavailable(Exception):
    """The OS keyring cannot be used; ``str()`` is a plain-text explanation.

    ``no_keyring`` is True when no backend is installed at all (rather than one that failed);
    ``error`` is the backend's own exception (``None`` when the package is missing).
    """

    def __init__(self, message: str, *, no_keyring: bool, error: BaseException | None) -> None:
        super().__init__(message)
        self.no_keyring, self.error = no_keyring, error


def read_secret(account: str) -> str:
    """The key saved for ``account`` ("" when none is). Raises ``KeyringUnavailable``."""
    keyring = _keyring()
    try:
        return keyring.get_password(SERVICE, account) or ""
    except Exception as exc:  # any backend failure, NoKeyringError included
        raise _unavailable(exc, account) from exc


def write_secret(account: str, key: str) -> None:
    """Save ``key`` for ``account`` (an empty key deletes it). Raises ``KeyringUnavailable``."""
    if not key:
        delete_secret(account)
        return
    keyring = _keyring()
    try:
        keyring.set_password(SERVICE, account, key)
    except Exception as exc:
        raise _unavailable(exc, account) from exc


def delete_secret(account: str) -> None:
    """Forget the key saved for ``account`` (nothing saved is fine). Raises
    ``KeyringUnavailable``."""
    keyring = _keyring()
    from keyring.errors import PasswordDeleteError

    try:
        keyring.delete_password(SERVICE, account)
    except PasswordDeleteError:
        return
    except Exception as exc:
        raise _unavailable(exc, account) from exc


def endpoint_api_key() -> str:
    """The embedding endpoint's key: ``$MEMGRAPH_EMBEDDING_API_KEY`` when set, else the one
    saved in the keyring, else "". Never raises: a missing or broken keyring gives "" (and a
    debug log line). Blocking; any thread."""
    from_env = os.environ.get(ENV_KEY, "").strip()
    if from_env:
        return from_env
    try:
        return read_secret(ENDPOINT_ACCOUNT)
    except KeyringUnavailable as exc:
        log.debug("no embedding endpoint key from the keyring: %s", exc)
        return ""


def set_endpoint_api_key(key: str) -> None:
    """Save the embedding endpoint's key in the keyring ("" forgets it). Raises
    ``KeyringUnavailable``."""
    write_secret(ENDPOINT_ACCOUNT, key.strip())


def forget_endpoint_api_key() -> None:
    """Forget the embedding endpoint's saved key. Raises ``KeyringUnavailable``."""
    delete_secret(ENDPOINT_ACCOUNT)


def _keyring() -> Any:
    try:
        import keyring
    except ImportError as exc:  # pragma: no cover - keyring is a dependency
        raise KeyringUnavailable(
            "The keyring package is not installed, so the API key cannot be stored.",
            no_keyring=True,
            error=None,
        ) from exc
    return keyring


def _unavailable(exc: BaseException, account: str) -> KeyringUnavailable:
    from keyring.errors import NoKeyringError

    if isinstance(exc, NoKeyringError):
        hint = f", or set {ENV_KEY} instead" if account == ENDPOINT_ACCOUNT else ""
        return KeyringUnavailable(NO_KEYRING + hint + ".", no_keyring=True, error=exc)
    return KeyringUnavailable(f"The system keyring failed: {exc}", no_keyring=False, error=exc)

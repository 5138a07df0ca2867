"""The draft endpoint's API key in the OS keyring (never in settings or the store).

The keyring handling is core/vectors/keys.py's (shared with the embedding endpoint's key, account
``embedding-endpoint``); here the account is ``draft-endpoint``. ``keyring`` raises
``NoKeyringError`` on a machine without a usable backend (a bare Linux box, a container); every
function here turns that, and any other backend failure, into ``SecretsUnavailable`` with a
message a preferences dialog can show as is. Blocking (a backend may talk to a desktop service
or prompt the user): the preferences dialog calls them on a user's click, the AI draft reads the
key on its own worker thread.

Without a usable keyring a key can still be used for this run: ``use_for_this_run`` keeps it in
this process's memory only (never on disk), and ``get_api_key`` answers with it.
"""

from __future__ import annotations

from memgraph_gui.app.qt import tr
from memgraph_gui.core.vectors import keys

SERVICE = keys.SERVICE
ACCOUNT = "draft-endpoint"


_RUN: dict[str, str] = {"key": ""}  # a key typed while no keyring works: this process only


class SecretsUnavailable(Exception):
    """The OS keyring cannot be used; ``str()`` is a plain-text explanation for the user."""


def use_for_this_run(key: str) -> None:
    """Keep ``key`` in memory for this run only ("" forgets it): for machines without a
    keyring. Any thread; never written anywhere."""
    _RUN["key"] = key


def run_key() -> str:
    """The key kept for this run ("" for none)."""
    return _RUN["key"]


def get_api_key() -> str:
    """The key to send: the saved one, else the one kept for this run, else "". Raises
    ``SecretsUnavailable`` only when the keyring fails and no key is kept for this run."""
    try:
        return saved_api_key() or _RUN["key"]
    except SecretsUnavailable:
        if _RUN["key"]:
            return _RUN["key"]
        raise


def saved_api_key() -> str:
    """The key saved in the keyring, or "" when none is. Raises ``SecretsUnavailable``."""
    try:
        return keys.read_secret(ACCOUNT)
    except keys.KeyringUnavailable as exc:
        raise _unavailable(exc) from exc


def set_api_key(key: str) -> None:
    """Save ``key`` (an empty key deletes it). Raises ``SecretsUnavailable``."""
    try:
        keys.write_secret(ACCOUNT, key)
    except keys.KeyringUnavailable as exc:
        raise _unavailable(exc) from exc


def delete_api_key() -> None:
    """Forget the saved key (nothing saved is fine). Raises ``SecretsUnavailable``."""
    try:
        keys.delete_secret(ACCOUNT)
    except keys.KeyringUnavailable as exc:
        raise _unavailable(exc) from exc


def _unavailable(exc: keys.KeyringUnavailable) -> SecretsUnavailable:
    """The core's keyring failure as a message for the preferences dialog."""
    if exc.error is None:
        return SecretsUnavailable(
            tr("The keyring package is not installed, so the API key cannot be stored.")
        )
    if exc.no_keyring:
        return SecretsUnavailable(
            tr(
                "No system keyring is available on this computer, so the API key cannot be "
                "saved or read. Install and unlock a keyring (GNOME Keyring, KWallet, macOS "
                "Keychain or Windows Credential Manager), or use an endpoint that needs no key."
            )
        )
    return SecretsUnavailable(tr("The system keyring failed: {error}").format(error=exc.error))

"""The shared API key row: a keyring that fails on OK, and which key a test request sends."""

from __future__ import annotations

from typing import Any

from memgraph_gui.app.secrets import SecretsUnavailable


class FakeKeys:
    """A ``KeyStore``'s four functions over plain attributes; ``broken`` makes the keyring
    calls raise as a locked keyring does."""

    def __init__(self, saved: str = "", broken: bool = False) -> None:
        self.saved, self.run, self.broken = saved, "", broken

    def store(self) -> Any:
        from memgraph_gui.views.api_key_field import KeyStore

        def keep_for_run(key: str) -> None:
            self.run = key

        return KeyStore(self.is_saved, self.save, lambda: self.run, keep_for_run)

    def is_saved(self) -> bool:
        self._check()
        return bool(self.saved)

    def save(self, key: str) -> None:
        self._check()
        self.saved = key

    def _check(self) -> None:
        if self.broken:
            raise SecretsUnavailable("The system keyring failed: locked")


def _field(qtbot: Any, keys: FakeKeys) -> Any:
    from memgraph_gui.views.api_key_field import ApiKeyField

    field = ApiKeyField(keys.store(), "Forget saved key")
    qtbot.addWidget(field)
    field.load()
    return field


def test_a_keyring_failing_on_ok_says_so_then_keeps_the_key_for_this_run(qtbot: Any) -> None:
    keys = FakeKeys()
    field = _field(qtbot, keys)
    assert "Kept in the system keyring" in field.note.text()
    keys.broken = True  # locked between opening and OK
    field.edit.setText("sk-typed")
    assert not field.keep()  # the dialog stays open
    assert "keyring failed: locked" in field.note.text()
    assert "for this run only" in field.note.text()
    assert field.keep() and keys.run == "sk-typed" and keys.saved == ""


def test_forget_and_the_key_a_request_sends(qtbot: Any) -> None:
    keys = FakeKeys(saved="sk-saved")
    field = _field(qtbot, keys)
    assert field.forget_button.isEnabled() and "saved" in field.edit.placeholderText()
    assert field.key_to_send() is None  # the saved one
    field.edit.setText("sk-typed")
    assert field.key_to_send() == "sk-typed"
    field.forget_button.click()
    assert field.edit.text() == "" and field.key_to_send() == ""
    assert not field.forget_button.isEnabled()
    assert field.keep() and keys.saved == ""
    untouched = FakeKeys(saved="sk-saved")
    assert _field(qtbot, untouched).keep() and untouched.saved == "sk-saved"  # nothing typed

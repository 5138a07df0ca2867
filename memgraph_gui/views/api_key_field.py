"""``ApiKeyField``: an API key's row in a settings dialog, shared by Edit ▸ Preferences… (the AI
draft's key) and Tools ▸ Embedding profile… (the embedding endpoint's key).

A password edit with a "Forget saved key" button, and a note for the row under it: the key is
kept in the OS keyring, never in the memory file. A machine without a usable keyring gets the
keyring's own message in the note, and a key typed then is kept in memory for this run only
(and said so). Where the key lives is the dialog's ``KeyStore``: the draft's through
app/secrets.py, the endpoint's through the app's vector desk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from memgraph_gui.app.secrets import SecretsUnavailable
from memgraph_gui.views.qt import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    Qt,
    QWidget,
    tr,
)

_ERROR_STYLE = "color: #b3261e;"


@dataclass(frozen=True, slots=True)
class KeyStore:
    """Where one API key lives. ``is_saved()``: whether the keyring holds the key; ``save(key)``:
    save it ("" forgets the saved one); both raise ``SecretsUnavailable`` (a plain message) when
    no keyring can be used, and block (a backend may prompt): called on the GUI thread on a
    dialog's opening or OK only. ``run_key()`` / ``keep_for_run(key)``: the key kept in memory
    for this run when there is no keyring ("" for none / forgets it)."""

    is_saved: Callable[[], bool]
    save: Callable[[str], None]
    run_key: Callable[[], str]
    keep_for_run: Callable[[str], None]


class ApiKeyField(QWidget):
    """The key edit (``edit``) and ``forget_button`` in a row (this widget), and ``note`` for
    the form's next row (``add_to`` places both). ``load()`` reads the key's state (on opening),
    ``keep()`` saves what was typed or forgotten (on OK). GUI thread."""

    def __init__(self, store: KeyStore, forget_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self._saved_key = False
        self._forget_key = False
        self._no_keyring = False  # then a typed key is kept in memory for this run only
        self.edit = QLineEdit()
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.forget_button = QPushButton(forget_text)
        self.forget_button.clicked.connect(self._on_forget_clicked)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(self.forget_button)
        self.note = QLabel("")
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        self.note.setObjectName("keyring-note")

    def add_to(self, form: QFormLayout, label: str | QWidget) -> None:
        """Add the row (after ``label``) and the note under it to ``form``."""
        form.addRow(label, self)
        form.addRow("", self.note)

    def load(self) -> None:
        """Show whether a key is saved (or kept for this run, without a keyring). Blocking."""
        try:
            self._saved_key = self._store.is_saved()
        except SecretsUnavailable as exc:
            self._keyring_unavailable(str(exc))
            return
        self._show_key_state()

    def keep(self) -> bool:
        """Save the typed key, or forget the saved one when asked; without a keyring, keep it
        for this run. False when the keyring failed just now: the note says why, and the next
        call keeps the key for this run. Blocking."""
        typed = self.edit.text()
        if self._no_keyring:
            if typed or self._forget_key:
                self._store.keep_for_run(typed)
            return True
        try:
            if typed or self._forget_key:
                self._store.save(typed)
        except SecretsUnavailable as exc:
            self._keyring_unavailable(str(exc))
            return False
        return True

    def key_to_send(self) -> str | None:
        """For a request made with the fields as they are: the typed key, else ``None`` (use
        the saved one) when one is saved and not forgotten, else ""."""
        typed = self.edit.text()
        return typed or (None if self._saved_key and not self._forget_key else "")

    def _keyring_unavailable(self, message: str) -> None:
        """No keyring: a key typed here is kept in memory for this run only (and said so)."""
        self._no_keyring = True
        self._saved_key = bool(self._store.run_key())
        kept = self._saved_key and not self._forget_key
        self.forget_button.setEnabled(kept)
        self.edit.setPlaceholderText(
            tr("a key is kept for this run") if kept else tr("no system keyring: kept for this run")
        )
        self.note.setStyleSheet(_ERROR_STYLE)
        self.note.setText(
            message
            + "\n"
            + tr(
                "A key typed here is still used, for this run only: it is kept in memory, "
                "never written anywhere, and forgotten when memgraph closes."
            )
        )

    def _show_key_state(self) -> None:
        saved = self._saved_key and not self._forget_key
        self.edit.setPlaceholderText(
            tr("a key is saved in the system keyring") if saved else tr("none (not needed locally)")
        )
        self.forget_button.setEnabled(saved)
        self.note.setStyleSheet("")
        self.note.setText(tr("Kept in the system keyring, never in the memory file."))

    def _on_forget_clicked(self) -> None:
        self._forget_key = True
        self.edit.clear()
        if self._no_keyring:
            self.forget_button.setEnabled(False)
            self.edit.setPlaceholderText(tr("no system keyring: kept for this run"))
        else:
            self._show_key_state()

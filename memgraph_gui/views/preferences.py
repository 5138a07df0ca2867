"""``PreferencesDialog``: the AI draft endpoint (URL, model, timeout in ``QSettings``; the API key
in the OS keyring) with a "Test connection" button. A machine without a keyring gets a clear
note and a disabled key field, never a crash."""

from __future__ import annotations

from memgraph_gui.app.llm_client import DraftJob, ping_messages
from memgraph_gui.app.secrets import (
    SecretsUnavailable,
    delete_api_key,
    run_key,
    saved_api_key,
    set_api_key,
    use_for_this_run,
)
from memgraph_gui.app.settings import (
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    DraftEndpoint,
    load_endpoint,
    save_endpoint,
)
from memgraph_gui.views.qt import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSettings,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
    tr,
)

_ERROR_STYLE = "color: #b3261e;"


class PreferencesDialog(QDialog):
    """Edit ▸ Preferences…: where AI drafts come from. ``settings_store`` defaults to the app's
    QSettings (tests pass a sandboxed one). OK saves; a keyring failure keeps the dialog open."""

    test_finished = Signal()  # "Test connection" ended (success or failure)

    def __init__(
        self, parent: QWidget | None = None, *, settings_store: QSettings | None = None
    ) -> None:
        super().__init__(parent)
        self._settings = settings_store
        self._job: DraftJob | None = None
        self._saved_key = False
        self._forget_key = False
        self._no_keyring = False  # then a typed key is kept in memory for this run only
        self.setObjectName("preferences")
        self.setWindowTitle(tr("Preferences"))
        self.setMinimumWidth(560)
        layout = QVBoxLayout(self)
        layout.addWidget(_heading(tr("AI drafts for the compaction wizard")))
        layout.addWidget(
            _note(
                tr(
                    "Optional. Any OpenAI-compatible endpoint (OpenAI, a local llama.cpp or "
                    "Ollama server…). Without one, drafts are made offline from the children's "
                    "own sentences."
                )
            )
        )
        layout.addLayout(self._build_form())
        layout.addLayout(self._build_test_row())
        layout.addStretch(1)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._load()

    def _build_form(self) -> QFormLayout:
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("https://api.openai.com/v1")
        self.model_edit = QLineEdit()
        self.timeout_spin = QDoubleSpinBox()
        self.timeout_spin.setRange(MIN_TIMEOUT, MAX_TIMEOUT)
        self.timeout_spin.setDecimals(0)
        self.timeout_spin.setSuffix(" " + tr("s"))
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.forget_button = QPushButton(tr("Forget saved key"))
        self.forget_button.clicked.connect(self._on_forget_clicked)
        key_row = QHBoxLayout()
        key_row.addWidget(self.key_edit, 1)
        key_row.addWidget(self.forget_button)
        self.key_note = _note("")
        self.key_note.setObjectName("keyring-note")
        form = QFormLayout()
        form.addRow(tr("Endpoint URL:"), self.url_edit)
        form.addRow(tr("Model:"), self.model_edit)
        form.addRow(tr("Timeout:"), self.timeout_spin)
        form.addRow(tr("API key:"), key_row)
        form.addRow("", self.key_note)
        return form

    def _build_test_row(self) -> QHBoxLayout:
        self.test_button = QPushButton(tr("Test connection"))
        self.test_button.clicked.connect(self.test_connection)
        self.test_result = _note("")
        self.test_result.setObjectName("test-result")
        row = QHBoxLayout()
        row.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.test_result, 1)
        return row

    # -- load / save -------------------------------------------------------------------------------
    def _load(self) -> None:
        endpoint = load_endpoint(self._settings)
        self.url_edit.setText(endpoint.base_url)
        self.model_edit.setText(endpoint.model)
        self.timeout_spin.setValue(endpoint.timeout)
        try:
            self._saved_key = bool(saved_api_key())
        except SecretsUnavailable as exc:
            self._keyring_unavailable(str(exc))
            return
        self._show_key_state()

    def _keyring_unavailable(self, message: str) -> None:
        """No keyring: a key typed here is kept in memory for this run only (and said so)."""
        self._no_keyring = True
        self._saved_key = bool(run_key())
        kept = self._saved_key and not self._forget_key
        self.forget_button.setEnabled(kept)
        self.key_edit.setPlaceholderText(
            tr("a key is kept for this run") if kept else tr("no system keyring: kept for this run")
        )
        self.key_note.setStyleSheet(_ERROR_STYLE)
        self.key_note.setText(
            message
            + "\n"
            + tr(
                "A key typed here is still used, for this run only: it is kept in memory, "
                "never written anywhere, and forgotten when memgraph closes."
            )
        )

    def _show_key_state(self) -> None:
        saved = self._saved_key and not self._forget_key
        self.key_edit.setPlaceholderText(
            tr("a key is saved in the system keyring") if saved else tr("none (not needed locally)")
        )
        self.forget_button.setEnabled(saved)
        self.key_note.setStyleSheet("")
        self.key_note.setText(tr("Kept in the system keyring, never in the memory file."))

    def endpoint(self) -> DraftEndpoint:
        """The endpoint as the fields describe it now."""
        return DraftEndpoint(
            self.url_edit.text().strip(), self.model_edit.text().strip(), self.timeout_spin.value()
        )

    def accept(self) -> None:
        """Save the endpoint and the key; stay open (with the reason) if the keyring fails."""
        save_endpoint(self.endpoint(), self._settings)
        typed = self.key_edit.text()
        if self._no_keyring:
            if typed or self._forget_key:
                use_for_this_run(typed)
            super().accept()
            return
        try:
            if typed:
                set_api_key(typed)
            elif self._forget_key:
                delete_api_key()
        except SecretsUnavailable as exc:
            self._keyring_unavailable(str(exc))
            return
        super().accept()

    # -- test ------------------------------------------------------------------------------------
    def test_connection(self) -> None:
        """Send a tiny request with the fields as they are (the typed key, else the saved one)."""
        endpoint = self.endpoint()
        typed = self.key_edit.text()
        key = typed or (None if self._saved_key and not self._forget_key else "")
        self._job = DraftJob(endpoint, ping_messages(), max_tokens=8, api_key=key, tag=endpoint)
        self._job.finished.connect(self._on_test_answered)
        self._job.failed.connect(self._on_test_failed)
        self.test_button.setEnabled(False)
        self.test_result.setStyleSheet("")
        self.test_result.setText(tr("Connecting…"))
        self._job.start()

    def _on_test_answered(self, text: str) -> None:
        tested = self._job.tag if self._job is not None else None  # fields may differ by now
        self._job = None
        self.test_button.setEnabled(True)
        model = tested.model if isinstance(tested, DraftEndpoint) else ""
        self.test_result.setText(
            tr("Connected: {model} answered “{text}”.").format(
                model=model, text=" ".join(text.split())[:80]
            )
        )
        self.test_finished.emit()

    def _on_test_failed(self, message: str) -> None:
        self._job = None
        self.test_button.setEnabled(True)
        self.test_result.setStyleSheet(_ERROR_STYLE)
        self.test_result.setText(message)
        self.test_finished.emit()

    def _on_forget_clicked(self) -> None:
        self._forget_key = True
        self.key_edit.clear()
        if self._no_keyring:
            self.forget_button.setEnabled(False)
            self.key_edit.setPlaceholderText(tr("no system keyring: kept for this run"))
        else:
            self._show_key_state()


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


def _heading(text: str) -> QLabel:
    label = _note(text)
    label.setStyleSheet("font-weight: 600;")
    return label

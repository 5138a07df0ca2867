"""``PreferencesDialog``: the AI draft endpoint (URL, model, timeout in ``QSettings``; the API key
in the OS keyring, through ``ApiKeyField``) with a "Test connection" button. A machine without a
keyring gets a clear note, and a key typed then is kept for this run only; never a crash."""

from __future__ import annotations

from memgraph_gui.app.llm_client import DraftJob, ping_messages
from memgraph_gui.app.secrets import run_key, saved_api_key, set_api_key, use_for_this_run
from memgraph_gui.app.settings import (
    MAX_TIMEOUT,
    MIN_TIMEOUT,
    DraftEndpoint,
    load_endpoint,
    save_endpoint,
)
from memgraph_gui.views.api_key_field import ApiKeyField, KeyStore
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
DRAFT_KEY = KeyStore(
    is_saved=lambda: bool(saved_api_key()),
    save=set_api_key,  # "" deletes the saved key
    run_key=run_key,
    keep_for_run=use_for_this_run,
)
"""The AI draft's key: the keyring account ``draft-endpoint`` (app/secrets.py)."""


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
        self.setObjectName("preferences")
        self.setWindowTitle(tr("Preferences"))
        self.setMinimumWidth(560)
        layout = QVBoxLayout(self)
        layout.addWidget(
            _heading(
                tr("AI endpoint: drafts in the compaction wizard, Run recall in the Recall lab")
            )
        )
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
        self.key_field = ApiKeyField(DRAFT_KEY, tr("Forget saved key"))
        self.key_edit, self.forget_button = self.key_field.edit, self.key_field.forget_button
        self.key_note = self.key_field.note
        form = QFormLayout()
        form.addRow(tr("Endpoint URL:"), self.url_edit)
        form.addRow(tr("Model:"), self.model_edit)
        form.addRow(tr("Timeout:"), self.timeout_spin)
        self.key_field.add_to(form, tr("API key:"))
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
        self.key_field.load()

    def endpoint(self) -> DraftEndpoint:
        """The endpoint as the fields describe it now."""
        return DraftEndpoint(
            self.url_edit.text().strip(), self.model_edit.text().strip(), self.timeout_spin.value()
        )

    def accept(self) -> None:
        """Save the endpoint and the key; stay open (with the reason) if the keyring fails."""
        save_endpoint(self.endpoint(), self._settings)
        if self.key_field.keep():
            super().accept()

    # -- test ------------------------------------------------------------------------------------
    def test_connection(self) -> None:
        """Send a tiny request with the fields as they are (the typed key, else the saved one)."""
        endpoint = self.endpoint()
        key = self.key_field.key_to_send()
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


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


def _heading(text: str) -> QLabel:
    label = _note(text)
    label.setStyleSheet("font-weight: 600;")
    return label

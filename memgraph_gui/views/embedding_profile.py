"""``EmbeddingProfileDialog``: Tools ▸ Embedding profile… — which embedder makes the open
memory's vectors for ``vectorSearch`` (a store setting: every process sees it).

Four choices: none (vector search off), the offline ``hashed-ngrams-v1`` (the suggestion when
none is set), the ``wordllama-l2-256`` model (disabled, with a plain note, when its package is
not installed), or an OpenAI-compatible ``/embeddings`` endpoint (name, base URL, model,
optional dimensions; its API key in the OS keyring, as the AI draft's: a machine without a
keyring gets a note, and a key typed then is kept for this run only). OK sets the profile as
one undo step (Ctrl+Z takes it back); the vectors are then made in the background, with progress
in the status bar. The dialog shows how many nodes have vectors under the active profile.
"""

from __future__ import annotations

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.vector_desk import (
    HASHED_SPEC,
    MODEL_SPEC,
    ProfileSpec,
    VectorDesk,
    endpoint_profile,
    model_available,
)
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.api_key_field import ApiKeyField, KeyStore
from memgraph_gui.views.qt import (
    QAction,
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
    is_alive,
    tr,
)

_ERROR_STYLE = "color: #b3261e;"
NONE, HASHED, MODEL, ENDPOINT = range(4)
MAX_DIMENSIONS = 65536


class EmbeddingProfileDialog(QDialog):
    """See the module docstring. GUI thread; talks only to ``app.vectors``."""

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._desk = app.vectors
        self.setObjectName("embedding-profile")
        self.setWindowTitle(tr("Embedding profile"))
        layout = QVBoxLayout(self)
        layout.addWidget(
            _note(
                tr(
                    "Vector search (vectorSearch, the Recall lab) ranks memories by meaning. "
                    "The profile says what makes the vectors; it is kept in the memory file, so "
                    "every program using this memory searches the same way."
                )
            )
        )
        self._choices = QButtonGroup(self)
        self.none_button = self._choice(layout, tr("&None: vector search off"), NONE)
        self.hashed_button = self._choice(
            layout,
            tr("&Offline: {name} (no download, any language; suggested)").format(
                name=HASHED_SPEC.name
            ),
            HASHED,
        )
        self.model_button = self._choice(
            layout,
            tr("&Model: {name} (a small sentence-embedding model)").format(name=MODEL_SPEC.name),
            MODEL,
        )
        self.model_note = _note("")
        self.model_note.setObjectName("model-note")
        self.model_note.setContentsMargins(24, 0, 0, 0)
        layout.addWidget(self.model_note)
        self.endpoint_button = self._choice(
            layout, tr("&Endpoint: an OpenAI-compatible embeddings service"), ENDPOINT
        )
        self.endpoint_form = self._build_endpoint_form()
        layout.addWidget(self.endpoint_form)
        self.counts = _note("")
        self.counts.setObjectName("vector-counts")
        layout.addWidget(self.counts)
        self.error = _note("")
        self.error.setObjectName("profile-error")
        self.error.setStyleSheet(_ERROR_STYLE)
        layout.addWidget(self.error)
        layout.addStretch(1)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._choices.idToggled.connect(self._on_choice)
        self._desk.changed.connect(self._show_counts)
        self._load()

    def _choice(self, layout: QVBoxLayout, text: str, which: int) -> QRadioButton:
        button = QRadioButton(text)
        self._choices.addButton(button, which)
        layout.addWidget(button)
        return button

    def _build_endpoint_form(self) -> QWidget:
        box = QWidget()
        box.setContentsMargins(16, 0, 0, 0)
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("openai-small")
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("https://api.openai.com/v1")
        self.model_edit = QLineEdit()
        self.model_edit.setPlaceholderText("text-embedding-3-small")
        self.dimensions_spin = QSpinBox()
        self.dimensions_spin.setRange(0, MAX_DIMENSIONS)
        self.dimensions_spin.setSpecialValueText(tr("the model's own"))
        self.key_field = ApiKeyField(endpoint_key(self._desk), tr("&Forget saved key"))
        self.key_edit, self.forget_button = self.key_field.edit, self.key_field.forget_button
        self.key_note = self.key_field.note
        form = QFormLayout(box)
        form.setContentsMargins(0, 0, 0, 0)
        for label, field in (
            (tr("N&ame:"), self.name_edit),
            (tr("&Base URL:"), self.url_edit),
            (tr("Mo&del:"), self.model_edit),
            (tr("D&imensions:"), self.dimensions_spin),
        ):
            form.addRow(_buddy(label, field), field)
        self.key_field.add_to(form, _buddy(tr("API &key:"), self.key_edit))
        return box

    # -- load ----------------------------------------------------------------------------------
    def _load(self) -> None:
        has_model = model_available()
        self.model_button.setEnabled(has_model)
        self.model_note.setVisible(not has_model)
        self.model_note.setText(
            tr(
                "Not installed. Install it with: pip install 'memgraph-gui[model]' "
                "(its weights come in the package: nothing is downloaded at run time)."
            )
        )
        spec = self._desk.state.profile
        which = HASHED  # the suggestion when none is set
        if spec is not None:
            which = {"hashed": HASHED, "model": MODEL, "endpoint": ENDPOINT}.get(spec.kind, HASHED)
        if spec is not None and spec.kind == "endpoint":
            self.name_edit.setText(spec.name)
            self.url_edit.setText(spec.base_url)
            self.model_edit.setText(spec.model)
            self.dimensions_spin.setValue(spec.dimensions or 0)
        if which == MODEL and not has_model:
            which = NONE
        self._choices.button(which).setChecked(True)
        self._on_choice(which, True)
        self.key_field.load()
        self._show_counts()

    def _show_counts(self) -> None:
        state = self._desk.state
        if state.profile is None:
            text = tr("Vector search is off: no node has a vector in use.")
        elif state.nodes is None or state.stored is None:
            text = tr("Active: {name}. Counting the vectors…").format(name=state.profile.name)
        else:
            text = tr("Active: {name}. {stored} of {nodes} nodes have vectors.").format(
                name=state.profile.name,
                stored=f"{min(state.stored, state.nodes):,}",
                nodes=f"{state.nodes:,}",
            )
        if state.job is not None:
            text += " " + tr("Embedding now: {done} of {total}.").format(
                done=f"{state.job.done:,}", total=f"{state.job.total:,}"
            )
        if state.error:
            text += "\n" + tr("The last embedding failed: {error}").format(error=state.error)
        self.counts.setText(text)

    def _on_choice(self, which: int, checked: bool) -> None:
        if checked:
            self.endpoint_form.setEnabled(which == ENDPOINT)
            # the key's note (in red when no keyring works) concerns the endpoint alone
            self.key_note.setVisible(which == ENDPOINT)
            self.adjustSize()  # room for the note, or none left where it was

    # -- the choice ----------------------------------------------------------------------------
    def chosen(self) -> ProfileSpec | None:
        """The profile the dialog describes now. ``MemgraphError`` (``BAD_ARGS``, a plain
        message naming the field) for an endpoint whose fields cannot make one."""
        which = self._choices.checkedId()
        if which == HASHED:
            return HASHED_SPEC
        if which == MODEL:
            return MODEL_SPEC
        if which == ENDPOINT:
            dims = self.dimensions_spin.value() or None
            return endpoint_profile(
                self.name_edit.text().strip() or self.model_edit.text().strip(),
                self.url_edit.text().strip(),
                self.model_edit.text().strip(),
                dims,
            )
        return None

    def accept(self) -> None:
        """Set the chosen profile (one undo step) and keep the key; stay open, saying why, for
        fields that make no profile or a keyring that fails."""
        try:
            spec = self.chosen()
        except MemgraphError as exc:
            self.error.setText(exc.message)
            return
        if spec is not None and spec.kind == "endpoint" and not self.key_field.keep():
            return
        self.error.clear()
        if spec != self._desk.state.profile:
            self._desk.set_profile(spec)
        elif spec is not None and self._desk.state.error:
            self._desk.embed_now()  # the same profile after a failure (a new key?): again
        super().accept()


def endpoint_key(desk: VectorDesk) -> KeyStore:
    """The embedding endpoint's key: the keyring account ``embedding-endpoint``, or without a
    keyring ``desk.run_key`` (which the desk's embeddings then use)."""

    def keep_for_run(key: str) -> None:
        desk.run_key = key

    return KeyStore(
        is_saved=desk.endpoint_key_saved,
        save=desk.save_endpoint_key,  # "" forgets the saved key
        run_key=lambda: desk.run_key,
        keep_for_run=keep_for_run,
    )


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


def _buddy(text: str, field: QWidget) -> QLabel:
    label = QLabel(text)
    label.setBuddy(field)
    return label


class EmbeddingProfileAction:
    """Tools ▸ Embedding profile…: ``action`` opens the dialog (one at a time, non-modal to the
    app's work: the embedding it starts runs while it is open or after)."""

    def __init__(self, app: AppModel, window: QWidget) -> None:
        self._app, self._window = app, window
        self.dialog: EmbeddingProfileDialog | None = None
        self.action = QAction(tr("&Embedding profile…"), window)
        self.action.setObjectName("embedding-profile-action")
        self.action.setStatusTip(tr("Choose what makes the vectors of vector search"))
        self.action.triggered.connect(self.open)

    def open(self) -> EmbeddingProfileDialog:
        """Show the dialog (a fresh one, reading the state now)."""
        if self.dialog is not None and is_alive(self.dialog):
            self.dialog.close()
        dialog = self.dialog = EmbeddingProfileDialog(self._app, self._window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

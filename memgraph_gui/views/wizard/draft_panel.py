"""``DraftPanel``: the editable draft summary of one group, with an offline and an AI draft.

A new draft never silently replaces text the user typed: when the editor holds edits, the draft
waits in a bar above it ("Replace" / "Keep mine"). AI drafts run on their own thread; while one
runs, "Cancel" gives the panel back at once. While a draft comes and goes the buttons stay where
they are (the editor gives and takes the room the bar and the status line need) and keyboard
focus stays put (on the AI / Cancel button that takes its turn, or wherever it was). The AI
request carries the children's text capped at ``AI_INPUT_CHARS`` characters, and the status
line says when it was cut. An answer that is no longer awaited (cancelled, or
for a group the user has already left) is dropped when it comes; one for a group left says so
in the status line (unless that line already tells something about the group shown).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memgraph_gui.app.llm_client import DraftJob, summary_request
from memgraph_gui.app.settings import DEFAULT_MAX_CHARS, DraftEndpoint, load_endpoint
from memgraph_gui.core.domain.draft import draft_budget, extractive_summary
from memgraph_gui.views.qt import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
    tr,
)

EndpointSource = Callable[[], DraftEndpoint]


class DraftPanel(QWidget):
    """The draft editor. ``text_changed()`` fires on every edit (the page re-checks Approve)."""

    text_changed = Signal()
    ai_finished = Signal()  # an AI request ended (success or failure): for tests and busy state

    def __init__(
        self, parent: QWidget | None = None, *, endpoint: EndpointSource = load_endpoint
    ) -> None:
        super().__init__(parent)
        self._endpoint = endpoint
        self._briefs: list[dict[str, Any]] = []
        self._type_id = ""
        self._instruction = ""
        self._drafted = ""  # the text the panel itself put in the editor last
        self._pending = ""  # a draft waiting for the user's go-ahead
        self._awaited: object | None = None  # the tag of the AI request whose answer is wanted
        self._left: set[object] = set()  # tags of requests for groups the user has left
        self._jobs: set[DraftJob] = set()
        self._cut_note = ""  # what the awaited AI request left out of the children's text
        self._build()

    # -- layout ----------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        heading = QLabel(tr("Draft summary"))
        heading.setStyleSheet("font-weight: 600;")
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("draft-editor")
        self.editor.setPlaceholderText(tr("The rollup's summary (required)."))
        self.editor.textChanged.connect(self._on_text_changed)
        self.count_label = QLabel()
        self.count_label.setTextFormat(Qt.TextFormat.PlainText)
        self.count_label.setStyleSheet("color: palette(mid);")
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.status.setObjectName("draft-status")
        # the editor (stretch 1) takes up what the bar and the status line need: the buttons,
        # last in the panel, never move while a draft comes in
        layout.addWidget(heading)
        layout.addWidget(self._build_pending_bar())
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.status)
        layout.addLayout(self._build_buttons())

    def _build_buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.offline_button = QPushButton(tr("Draft again (offline)"))
        self.offline_button.setToolTip(tr("Pick the children's most informative sentences."))
        self.offline_button.clicked.connect(self.draft_offline)
        self.ai_button = QPushButton(tr("Draft with AI"))
        self.ai_button.setToolTip(tr("Ask the endpoint set in Preferences for a draft."))
        self.ai_button.clicked.connect(self.draft_with_ai)
        self.cancel_button = QPushButton(tr("Cancel AI draft"))
        self.cancel_button.setToolTip(tr("Stop waiting for the AI endpoint's answer."))
        self.cancel_button.clicked.connect(self.cancel_ai)
        width = max(self.ai_button.sizeHint().width(), self.cancel_button.sizeHint().width())
        for button in (self.ai_button, self.cancel_button):  # they take turns in one place
            button.setMinimumWidth(width)
        self.cancel_button.hide()
        row.addWidget(self.offline_button)
        row.addWidget(self.ai_button)
        row.addWidget(self.cancel_button)
        row.addStretch(1)
        row.addWidget(self.count_label)
        return row

    def _build_pending_bar(self) -> QFrame:
        self.pending_bar = QFrame()
        self.pending_bar.setObjectName("draft-pending")
        self.pending_bar.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(self.pending_bar)
        row.setContentsMargins(8, 4, 4, 4)
        self.pending_label = QLabel(tr("A new draft is ready. Replace your edited text?"))
        self.pending_label.setWordWrap(True)  # never widens the panel (the splitter would move)
        self.replace_button = QPushButton(tr("Replace"))
        self.replace_button.clicked.connect(self.accept_pending)
        self.keep_button = QPushButton(tr("Keep mine"))
        self.keep_button.clicked.connect(self.discard_pending)
        row.addWidget(self.pending_label, 1)
        row.addWidget(self.replace_button)
        row.addWidget(self.keep_button)
        self.pending_bar.hide()
        return self.pending_bar

    # -- public ----------------------------------------------------------------------------------
    def set_group(self, type_id: str, briefs: list[dict[str, Any]], instruction: str = "") -> None:
        """Show a new group: its offline draft replaces whatever the last group left."""
        self._type_id, self._briefs, self._instruction = type_id, briefs, instruction
        self.discard_pending()
        self.status.clear()
        if self._awaited is not None:
            self._left.add(self._awaited)  # its answer is for the group left: never used here
        self._stop_waiting()
        self._put(self._offline_draft())

    def text(self) -> str:
        """The summary as the user left it."""
        return self.editor.toPlainText()

    def set_text(self, text: str) -> None:
        """Replace the editor's text (counts as a draft the user has not edited yet)."""
        self._put(text)

    @property
    def edited(self) -> bool:
        """True when the editor holds something the panel did not put there."""
        return self.editor.toPlainText() != self._drafted

    def draft_offline(self) -> None:
        """A fresh extractive draft (offered, not forced, when the user has edited)."""
        self.status.clear()
        self._offer(self._offline_draft())

    def draft_with_ai(self) -> None:
        """Ask the configured endpoint for a draft in the background."""
        endpoint = self._endpoint()
        if not endpoint.configured:
            self._show_error(
                tr("No AI endpoint is set. Open Preferences… to set one, or draft offline.")
            )
            return
        request = summary_request(self._briefs, self._type_id, self._instruction)
        self._awaited = tag = object()
        self._cut_note = request.cut_note()
        job = DraftJob(endpoint, request.messages, tag=tag)
        job.finished.connect(self._on_ai_finished)
        job.failed.connect(self._on_ai_failed)
        self._jobs.add(job)
        _take_turns(self.ai_button, self.cancel_button)
        self.status.setStyleSheet("")
        asking = tr("Asking {model}…").format(model=endpoint.model)
        self.status.setText(f"{asking}\n{self._cut_note}" if self._cut_note else asking)
        job.start()

    @property
    def waiting(self) -> bool:
        """True while an AI answer is awaited."""
        return self._awaited is not None

    def cancel_ai(self) -> None:
        """Stop waiting for the AI answer: the panel is free at once and the answer, when it
        comes, is dropped (the request itself ends on its own, by its answer or its timeout)."""
        if self._awaited is None:
            return
        self._stop_waiting()
        self.status.setStyleSheet("")
        self.status.setText(tr("AI draft cancelled."))

    def accept_pending(self) -> None:
        """Put the waiting draft in the editor."""
        if self._pending:
            self._put(self._pending)
        self.discard_pending()

    def discard_pending(self) -> None:
        """Drop the waiting draft; the user's text stays."""
        self._pending = ""
        self.pending_bar.hide()

    # -- internals -------------------------------------------------------------------------------
    def _put(self, text: str) -> None:
        self._drafted = text
        self.editor.setPlainText(text)

    def _offer(self, text: str) -> None:
        if not self.edited or not self.editor.toPlainText().strip():
            self._put(text)
            return
        self._pending = text
        self.pending_bar.show()

    def _offline_draft(self) -> str:
        """The extractive draft: one line per child, within a budget that has room for each."""
        return extractive_summary(
            self._briefs, max_chars=draft_budget(len(self._briefs), DEFAULT_MAX_CHARS)
        )

    def _stop_waiting(self) -> None:
        self._awaited = None
        if self.cancel_button.isVisibleTo(self):
            _take_turns(self.cancel_button, self.ai_button)

    def _awaited_job(self) -> bool:
        """Whether the job whose signal is being handled is the awaited one (it is dropped from
        the jobs kept alive either way, and the panel stops waiting when it is)."""
        job = self.sender()
        if not isinstance(job, DraftJob):
            return False
        self._jobs.discard(job)
        if job.tag in self._left:
            self._left.discard(job.tag)
            if self._awaited is None and not self.status.text():
                self.status.setStyleSheet("")
                self.status.setText(
                    tr("An AI draft for the group you left came in; it was not used here.")
                )
            return False
        if self._awaited is None or job.tag is not self._awaited:
            return False
        self._stop_waiting()
        return True

    def _on_ai_finished(self, text: str) -> None:
        if self._awaited_job():
            self.status.setStyleSheet("")
            self.status.setText(self._cut_note)  # the draft saw only what the note says
            self._offer(text)
        self.ai_finished.emit()

    def _on_ai_failed(self, message: str) -> None:
        if self._awaited_job():
            self._show_error(message)
        self.ai_finished.emit()

    def _show_error(self, message: str) -> None:
        self.status.setStyleSheet("color: #b3261e;")
        self.status.setText(message)

    def _on_text_changed(self) -> None:
        self.count_label.setText(tr("{n} characters").format(n=len(self.editor.toPlainText())))
        self.text_changed.emit()


def _take_turns(leaving: QPushButton, coming: QPushButton) -> None:
    """Show ``coming`` in the place of ``leaving``; the keyboard focus, if ``leaving`` had it,
    moves with it (a hidden button would pass it on to whatever comes next in the window)."""
    had_focus = leaving.hasFocus() or leaving.window().focusWidget() is leaving
    coming.show()
    if had_focus:
        coming.setFocus(Qt.FocusReason.OtherFocusReason)
    leaving.hide()

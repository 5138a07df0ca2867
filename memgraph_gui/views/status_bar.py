"""``StatusPanel``: the status bar's permanent fields — file, counts, injection, last external
change, and a progress bar for long work. Refreshes are coalesced (one per event-loop pass)."""

from __future__ import annotations

import time
from pathlib import Path

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.views.qt import (
    QLabel,
    QProgressBar,
    QStatusBar,
    Qt,
    QTimer,
    QToolButton,
    tr,
)
from memgraph_gui.views.theme import injection_styles


def _label() -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setStyleSheet("QLabel { padding: 0 6px; border-left: 1px solid palette(mid); }")
    return label


class StatusPanel:
    """Fills a ``QStatusBar`` from the app model; O(1) per refresh."""

    def __init__(self, app: AppModel, bar: QStatusBar) -> None:
        self._app = app
        self.file = _label()
        self.counts = _label()
        self.injection = _label()
        self.external = _label()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self._work: dict[str, tuple[str, int, int]] = {}  # who shows progress: text, done, total
        self._opening: str | None = None  # the file the window is opening (``set_opening``)
        for widget in (self.file, self.counts, self.injection, self.external):
            bar.addPermanentWidget(widget)
        bar.addPermanentWidget(self.progress)
        self.embedding = EmbeddingStatus(app, bar, self)
        self._timer = QTimer(singleShot=True, interval=0)
        self._timer.timeout.connect(self.refresh)
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self.refresh)
        app.lens.changed.connect(self._timer.start)  # under "View as": what the actor sees
        self.refresh()

    def refresh(self) -> None:
        """Show the current counts."""
        if self._app.closed:
            return
        counts = self._app.counts()
        path = self._opening or self._app.opening or counts.path  # (the file coming)
        name = Path(path).name or path
        suffix = f"  ({tr('read-only')})" if counts.read_only else ""
        self.file.setText(name + suffix)
        self.file.setToolTip(path)
        self.counts.setText(self._counts_text(counts.nodes, counts.edges))
        state = counts.injection
        always, recall, visible = injection_styles()
        self.injection.setText(
            f"{always.badge} {len(state.always_inject_ids):,}  "
            f"{recall.badge} {len(state.recall_selected_ids):,}  "
            f"{visible.badge} {len(state.visible_ids):,}"
        )
        self.injection.setToolTip(
            tr(
                "Injected into the next prompt: {a} always, {r} picked by recall; "
                "{v} in the visible pool"
            ).format(
                a=len(state.always_inject_ids),
                r=len(state.recall_selected_ids),
                v=len(state.visible_ids),
            )
        )
        when = self._app.last_external_change
        stamp = time.strftime("%H:%M:%S", time.localtime(when)) if when else tr("none")
        self.external.setText(tr("last external change: {t}").format(t=stamp))

    def _counts_text(self, nodes: int, edges: int) -> str:
        """The memory's size; under the trust lens, how many of its nodes the actor sees (the
        count of their links is not worked out: none is given rather than one that counts
        what the actor may not see)."""
        if self._app.opening is not None or self._opening is not None:
            return tr("opening…")
        lens = self._app.lens
        if lens.trust is not None and lens.ready:
            shown = nodes - len(lens.omitted)
            return tr("{shown} of {n} nodes shown").format(shown=f"{shown:,}", n=f"{nodes:,}")
        return tr("{n} nodes · {e} edges").format(n=f"{nodes:,}", e=f"{edges:,}")

    def set_opening(self, path: str | None) -> None:
        """Name ``path`` as the memory being opened (its picture may be drawn meanwhile), or
        None once the open ended: the fields show the open memory again."""
        self._opening = path
        self.refresh()

    def show_progress(self, text: str, done: int = 0, total: int = 0, *, owner: str = "") -> None:
        """A busy (total 0) or determinate progress bar with ``text`` as its tooltip, for
        ``owner`` (the open, the layout, file work): it stays while any owner still works."""
        self._work.pop(owner, None)
        self._work[owner] = (text, done, total)  # the newest owner's text is shown
        self._show_work()

    def hide_progress(self, *, owner: str = "") -> None:
        """``owner``'s work ended; the bar shows the others' still running, or goes."""
        self._work.pop(owner, None)
        self._show_work()

    def _show_work(self) -> None:
        if not self._work:
            self.progress.hide()
            return
        text, done, total = next(reversed(self._work.values()))
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.setToolTip(text)
        self.progress.show()

    def _on_changes_applied(self, _changes: ChangeSet, _initiator: object | None) -> None:
        self._timer.start()


EMBEDDING = "embedding"
"""The progress bar's owner while a whole embedding runs."""


class EmbeddingStatus:
    """The background embedding in the status bar: its progress (the shared bar, with the
    counts as tooltip), a Cancel button while it runs, and the last failure in plain text
    (cleared by the next success)."""

    def __init__(self, app: AppModel, bar: QStatusBar, panel: StatusPanel) -> None:
        self._app, self._panel = app, panel
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setObjectName("embedding-status")
        self.cancel = QToolButton()
        self.cancel.setObjectName("embedding-cancel")
        self.cancel.setText(tr("Cancel"))
        self.cancel.setToolTip(tr("Stop embedding; the vectors made so far are kept"))
        self.cancel.clicked.connect(app.vectors.cancel)
        self.error = QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setObjectName("embedding-error")
        self.error.setStyleSheet("QLabel { color: #b3261e; padding: 0 6px; }")
        self.error.setMaximumWidth(360)
        for widget in (self.label, self.cancel, self.error):
            widget.hide()
        bar.addWidget(self.error, 1)  # the left: room for a message
        bar.addPermanentWidget(self.label)  # beside the progress bar
        bar.addPermanentWidget(self.cancel)
        app.vectors.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Show the desk's state now."""
        state = self._app.vectors.state
        job = state.job
        if job is None:
            self._panel.hide_progress(owner=EMBEDDING)
            self.label.hide()
            self.cancel.hide()
        else:
            name = state.profile.name if state.profile is not None else ""
            if job.total:
                text = tr("Embedding {done} of {total}").format(
                    done=f"{job.done:,}", total=f"{job.total:,}"
                )
            else:
                text = tr("Embedding: starting")
            self.label.setText(text)
            self.label.setToolTip(
                tr("Making the vectors of vector search with the profile {name}").format(name=name)
            )
            self.label.show()
            self.cancel.show()
            self._panel.show_progress(text, job.done, job.total, owner=EMBEDDING)
        if state.error:
            first = state.error.splitlines()[0]
            self.error.setText(tr("Embedding failed: {error}").format(error=first[:120]))
            self.error.setToolTip(state.error)
            self.error.show()
        else:
            self.error.hide()

"""The dialog for a refused undo (``UNDO_CONFLICT``): what changed since, by whom and when, named
by title; then Skip this step, or Undo anyway after seeing what it would overwrite.

It never writes: it emits ``skip_requested(batch_id)`` or ``force_requested(batch_id, seen)`` and
the window runs the app model's ``skip_step`` / ``undo_anyway``. Opened with ``open()`` (window
modal, no nested event loop), so tests drive it by clicking its buttons.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from memgraph_gui.views.qt import (
    QDialog,
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

_VALUE_CHARS = 300  # a long value is cut in the preview; the store keeps it whole
_LINES_SHOWN = 6  # rows named in the explanation; the preview lists every one


class UndoConflictDialog(QDialog):
    """Explains one refused undo or redo and offers what can be done about it.

    ``details`` are the error's (``action``, ``step``, ``conflicts``, ``seen``); ``desk_origin``
    names this window's own steps ("this desk"); ``readable`` names the node ids in step labels
    (``UndoFacade.readable``). For a refused redo it only explains.
    """

    skip_requested = Signal(int)
    force_requested = Signal(int, int)

    def __init__(
        self,
        details: Mapping[str, Any],
        desk_origin: str,
        parent: QWidget | None = None,
        *,
        readable: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("undo-conflict")
        self.details = details
        self._desk = desk_origin
        self._readable = readable or (lambda label: label)  # step labels name titles, not ids
        self._step = details.get("step") or {}
        undo = details.get("action") == "undo"
        self.setWindowTitle(tr("Cannot undo") if undo else tr("Cannot redo"))
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setMinimumWidth(520)
        self.explanation = _plain_label(self.explain())
        self.explanation.setObjectName("undo-conflict-explanation")
        self.preview = QPlainTextEdit()
        self.preview.setObjectName("undo-conflict-preview")
        self.preview.setReadOnly(True)
        self.preview.setPlainText(self.overwrites())
        self.preview.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.explanation)
        layout.addWidget(self.preview, 1)
        layout.addLayout(self._buttons(undo))

    # -- the text ----------------------------------------------------------------------------------
    def explain(self) -> str:
        """The whole refusal as plain text: the step, then one line per row that changed."""
        label = self._readable(str(self._step.get("label") or ""))
        if self.details.get("action") == "undo":
            head = tr("Cannot undo “{label}”:").format(label=label)
        else:
            head = tr("Cannot redo “{label}”:").format(label=label)
        conflicts = self._conflicts()
        lines = [head, *("• " + self._conflict_line(c) for c in conflicts[:_LINES_SHOWN])]
        if len(conflicts) > _LINES_SHOWN:
            more = len(conflicts) - _LINES_SHOWN
            lines.append("• " + tr("and {n} more (Undo anyway… lists them all)").format(n=more))
        if self.details.get("action") == "undo":
            lines += [
                "",
                tr(
                    "Skip this step to leave it as it is and undo the steps before it, or undo "
                    "it anyway as a new edit that overwrites these changes."
                ),
            ]
        return "\n".join(lines)

    def overwrites(self) -> str:
        """What "Undo anyway" would overwrite: per row and field, the value now and after."""
        lines = [tr("Undoing anyway will write, as a new step you can undo:"), ""]
        for conflict in self._conflicts():
            lines.append(_thing(conflict))
            for item in conflict.get("overwrites") or ():
                field = str(item.get("field") or "")
                if conflict.get("kind") != "node":
                    now, after = item.get("current"), item.get("restored")
                    lines.append("    " + (tr("removed") if after is None else tr("restored")))
                    if now is not None and after is not None:
                        lines.append("    " + tr("now: {value}").format(value=_value(now)))
                    continue
                lines.append(
                    "    "
                    + tr("{field}: now {now} → after undo {after}").format(
                        field=field,
                        now=_value(item.get("current")),
                        after=_value(item.get("restored")),
                    )
                )
            lines.append("")
        return "\n".join(lines).rstrip()

    def _conflicts(self) -> Sequence[Mapping[str, Any]]:
        conflicts = self.details.get("conflicts")
        return conflicts if isinstance(conflicts, list) else ()

    def _conflict_line(self, conflict: Mapping[str, Any]) -> str:
        thing, problem = _thing(conflict), conflict.get("problem")
        by = conflict.get("by")
        if isinstance(by, Mapping):
            who = self._who(str(by.get("origin") or ""))
            at = _when(float(by.get("ts") or 0))
            source = tr("by {who} at {time}").format(who=who, time=at)
        else:
            source = tr("by a change the history no longer keeps")
        if problem == "dangling":
            text = tr("{thing} was made since {source} and would be left without its node")
        elif problem == "orphaned":
            text = tr("{thing} would be left without its node, removed since {source}")
        elif problem == "removed":
            text = tr("{thing} was removed since {source}")
        elif problem == "added":
            text = tr("{thing} was made again since {source}")
        else:
            text = tr("{thing} was changed since {source}")
        text = text.format(thing=thing, source=source)
        fields = [str(f) for f in conflict.get("fields") or ()]
        if len(fields) == 1:
            text += " " + tr("(field {name})").format(name=fields[0])
        elif fields:
            text += " " + tr("(fields {names})").format(names=", ".join(fields))
        if isinstance(by, Mapping) and by.get("label"):
            label = self._readable(str(by["label"]))
            text += "; " + tr("their step: “{label}”").format(label=label)
        return text

    def _who(self, origin: str) -> str:
        return tr("this desk") if origin == self._desk else origin

    # -- the buttons -------------------------------------------------------------------------------
    def _buttons(self, undo: bool) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addStretch(1)
        self.skip_button = QPushButton(tr("&Skip this step"))
        self.skip_button.setToolTip(
            tr(
                "Leave this step as it is (kept in the history as not undone); "
                "Undo goes on with the step before it."
            )
        )
        self.anyway_button = QPushButton(tr("Undo &anyway…"))
        self.anyway_button.setToolTip(tr("See what undoing it anyway would overwrite."))
        self.overwrite_button = QPushButton(tr("&Overwrite"))
        self.overwrite_button.setVisible(False)
        self.cancel_button = QPushButton(tr("Cancel") if undo else tr("OK"))
        for button in (self.skip_button, self.anyway_button, self.overwrite_button):
            button.setVisible(undo and button is not self.overwrite_button)
            row.addWidget(button)
        row.addWidget(self.cancel_button)
        self.skip_button.clicked.connect(self._on_skip)
        self.anyway_button.clicked.connect(self.show_overwrites)
        self.overwrite_button.clicked.connect(self._on_overwrite)
        self.cancel_button.clicked.connect(self.reject)
        self.cancel_button.setDefault(True)
        return row

    def show_overwrites(self) -> None:
        """Second stage of "Undo anyway": show what it would overwrite and ask to confirm."""
        lines = min(self.preview.document().blockCount(), _PREVIEW_LINES)
        margins = self.preview.contentsMargins()
        frame = 2 * self.preview.frameWidth() + margins.top() + margins.bottom()
        spacing = self.preview.fontMetrics().lineSpacing()
        self.preview.setMinimumHeight(lines * spacing + 2 * frame + 8)
        self.preview.setVisible(True)
        self.anyway_button.setVisible(False)
        self.overwrite_button.setVisible(True)
        self.overwrite_button.setDefault(True)
        self.cancel_button.setDefault(False)
        self.resize(self.width(), max(self.height(), self.sizeHint().height()))  # grow: no clip

    def _on_skip(self) -> None:
        self.skip_requested.emit(int(self._step.get("batchId") or 0))
        self.accept()

    def _on_overwrite(self) -> None:
        seen = int(self.details.get("seen") or 0)
        self.force_requested.emit(int(self._step.get("batchId") or 0), seen)
        self.accept()


_PREVIEW_LINES = 14  # what the preview shows before it scrolls


def _plain_label(text: str) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setText(text)
    return label


def _thing(conflict: Mapping[str, Any]) -> str:
    """“Eileen” as "the node “Eileen”", a link with both ends' titles, a store setting by name."""
    kind = conflict.get("kind")
    if kind == "edge":
        ends = conflict.get("ends") or ["", ""]
        return tr("the link “{a}” —{relation}→ “{b}”").format(
            a=ends[0], relation=conflict.get("relation") or "", b=ends[1]
        )
    if kind == "meta":
        return tr("the store's “{name}”").format(name=conflict.get("title") or "")
    return tr("the node “{title}”").format(title=conflict.get("title") or "")


def _value(value: Any) -> str:
    if value is None or value in ("", [], {}):
        return tr("(empty)")
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("\n", " ⏎ ")
    return "“" + (text[:_VALUE_CHARS] + "…" if len(text) > _VALUE_CHARS else text) + "”"


def _when(ts: float) -> str:
    """``21:04`` today, else ``2026-11-24 21:04`` (local time)."""
    moment, today = time.localtime(ts), time.localtime()
    return time.strftime("%H:%M" if moment[:3] == today[:3] else "%Y-%m-%d %H:%M", moment)

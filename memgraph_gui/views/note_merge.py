"""Merge two Nuggets notes: Edit ▸ Merge Notes… (and the graph's and timeline's context menus).

``NoteMerge`` owns the action. With two notes of one nugget selected it opens
``MergeNotesDialog``: the person picks which note is kept (the target), types the reason, and
sees exactly what ``mergeNotes`` will make of the target (content, tags, links, hits: computed
by the same rules, ``app.notes.preview_merge``), then Merge runs one undoable ``mergeNotes``.
Anything else selected (one node, three, a node that is not a note, notes of two nuggets) is
refused with a sentence saying why (``tell``, replaceable by tests).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import islice
from typing import Any

from memgraph_gui.app import notes
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.nuggets_desk import is_note
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.inspector.style import ERROR_COLOR, dot_icon, plain_label, section_title
from memgraph_gui.views.qt import QAction, QtCore, QtGui, QWidget, tr
from memgraph_gui.views.qt import QtWidgets as W
from memgraph_gui.views.theme import ARCHIVED_COLOR, type_color

Qt = QtCore.Qt
Tell = Callable[[QWidget | None, str], None]
NEW_COLOR = "#e6f2dc"  # what the other note brings, in the preview


def tell_refusal(parent: QWidget | None, message: str) -> None:
    """Say why nothing can be merged (a modal message box)."""
    box = W.QMessageBox(parent)
    box.setIcon(W.QMessageBox.Icon.Information)
    box.setWindowTitle(tr("Merge Notes"))
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(message)
    box.exec()


class NoteMerge(QtCore.QObject):
    """Edit ▸ Merge Notes…: enabled while two nodes are selected (see the module docstring)."""

    def __init__(self, app: AppModel, parent: QWidget) -> None:
        super().__init__(parent)
        self._app = app
        self._parent = parent
        self.tell: Tell = tell_refusal
        """Shows a refusal (tests replace it)."""
        self.dialog: MergeNotesDialog | None = None
        self.action = QAction(tr("&Merge Notes…"), self)
        self.action.setStatusTip(
            tr("Merge two notes of one nugget: one is kept, the other hidden (undoable)")
        )
        self.action.triggered.connect(self.open)
        app.selection.changed.connect(self._on_selection_changed)
        self._on_selection_changed(app.selection.ids, app.selection.current, None)

    def open(self) -> MergeNotesDialog | None:
        """Open the dialog for the two selected notes (non-blocking), or say why not."""
        selection = self._app.selection
        current = selection.current
        # the note clicked last is merged into the other by default
        ids = sorted(selection.ids, key=lambda node_id: node_id == current)
        found = notes.merge_candidates(self._app, ids)
        if isinstance(found, str):
            self.tell(self._parent, found)
            return None
        if self.dialog is not None:
            self.dialog.close()  # (one merge at a time: the newer choice wins)
        dialog = MergeNotesDialog(self._app, found, self._parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(partial(self._on_dialog_gone, id(dialog)))
        self.dialog = dialog
        dialog.open()
        return dialog

    def _on_dialog_gone(self, which: int) -> None:
        if id(self.dialog) == which:  # not a dialog closed before this one opened
            self.dialog = None

    def _on_selection_changed(self, ids: object, _current: object, _source: object) -> None:
        """Shown while a note is selected (a memory without notes never sees it), enabled for
        two nodes; two that cannot be merged are refused with the reason."""
        chosen = ids if isinstance(ids, frozenset) else frozenset()
        some = islice(chosen, 3)  # (a whole timeline may be selected: a few tell enough)
        self.action.setVisible(any(is_note(self._app.node(i)) for i in some))
        self.action.setEnabled(len(chosen) == 2 and not self._app.read_only)


class MergeNotesDialog(W.QDialog):
    """Pick the target, type the reason, see the merged note, Merge (one undo step)."""

    def __init__(
        self, app: AppModel, candidates: notes.MergeCandidates, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._app = app
        self._notes = (candidates.first, candidates.second)
        self.setWindowTitle(tr("Merge Notes"))
        self.setObjectName("merge-notes")
        self.intro = plain_label(
            tr(
                "Both notes belong to the nugget “{nugget}”. The note kept gets the other's "
                "content lines, tags and links; the other is hidden, with a link to it, and "
                "every link to it moves to the note kept."
            ).format(nugget=candidates.nugget)
        )
        self.intro.setWordWrap(True)
        self.keep_first = W.QRadioButton()
        self.keep_second = W.QRadioButton()
        for button, (kept, merged) in (
            (self.keep_first, self._notes),
            (self.keep_second, self._notes[::-1]),
        ):
            button.setText(
                tr("Keep “{kept}”, merge “{merged}” into it").format(
                    kept=_short(kept), merged=_short(merged)
                )
            )
            button.setToolTip(f"{kept.get('id')}\n{kept.get('title')}")
        self.keep_first.setChecked(True)
        self.reason = W.QLineEdit(tr("duplicate"))
        self.reason.setPlaceholderText(tr("why they are one note"))
        self.reason.selectAll()
        self._make_preview_widgets()
        self.summary = plain_label()
        self.summary.setWordWrap(True)
        self.status = plain_label()
        self.status.setWordWrap(True)
        self.status.setStyleSheet(f"color: {ERROR_COLOR};")
        self.status.setVisible(False)
        self.buttons = W.QDialogButtonBox(W.QDialogButtonBox.StandardButton.Cancel)
        self.merge_button = self.buttons.addButton(
            tr("Merge"), W.QDialogButtonBox.ButtonRole.AcceptRole
        )
        self._build()
        self.keep_first.toggled.connect(self._on_target_changed)
        self.buttons.accepted.connect(self.merge)
        self.buttons.rejected.connect(self.reject)
        self._merging = False
        self.preview = self._show_preview()
        app.changes_applied.connect(self._on_changes_applied)

    def _make_preview_widgets(self) -> None:
        """The merged note's content, tags and links (read-only)."""
        self.content = W.QPlainTextEdit()
        self.content.setReadOnly(True)
        self.content.setMinimumHeight(90)
        self.tags = W.QListWidget()
        self.tags.setFlow(W.QListView.Flow.LeftToRight)
        self.tags.setWrapping(True)
        self.tags.setSpacing(3)
        self.tags.setFixedHeight(58)
        self.links = W.QTableWidget(0, 2)
        self.links.setHorizontalHeaderLabels([tr("Reason"), tr("Note")])
        self.links.verticalHeader().setVisible(False)
        self.links.setEditTriggers(W.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.links.setSelectionMode(W.QAbstractItemView.SelectionMode.NoSelection)
        self.links.horizontalHeader().setStretchLastSection(True)
        self.links.horizontalHeader().setDefaultAlignment(
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        )
        self.links.verticalHeader().setDefaultSectionSize(22)
        self.links.setShowGrid(False)
        self.links.setColumnWidth(0, 140)
        self.links.setMinimumHeight(80)

    def _build(self) -> None:
        form = W.QFormLayout()
        form.setFieldGrowthPolicy(W.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(tr("Reason:"), self.reason)
        layout = W.QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.keep_first)
        layout.addWidget(self.keep_second)
        layout.addLayout(form)
        layout.addWidget(section_title(tr("The note kept, after the merge")))
        legend = plain_label(tr("Shaded: what the other note brings."))
        legend.setEnabled(False)
        layout.addWidget(legend)
        layout.addWidget(plain_label(tr("Content")))
        layout.addWidget(self.content, 2)
        layout.addWidget(plain_label(tr("Tags")))
        layout.addWidget(self.tags)
        layout.addWidget(plain_label(tr("Links")))
        layout.addWidget(self.links, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.resize(560, 620)

    # -- the choice ------------------------------------------------------------------------------
    def target_and_source(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The note kept and the note merged into it, as chosen now."""
        first, second = self._notes
        return (first, second) if self.keep_first.isChecked() else (second, first)

    def choose_target(self, note_id: str) -> None:
        """Keep the note ``note_id`` (one of the two)."""
        (self.keep_first if self._notes[0].get("id") == note_id else self.keep_second).setChecked(
            True
        )

    def _show_preview(self) -> notes.Preview | None:
        target, source = self.target_and_source()
        preview = notes.preview_merge(self._app, str(target.get("id")), str(source.get("id")))
        self.preview = preview
        self.merge_button.setEnabled(preview is not None and not self._merging)
        if preview is None:
            self._show_error(tr("One of the two notes is gone: nothing can be merged."))
            return None
        self.content.setPlainText(preview.content)
        self._mark_new_lines(str(target.get("content", "")))
        self.tags.clear()
        nugget = str(target.get("nuggetName", ""))
        own_tags = set(target.get("tags") or ())
        for tag in preview.tags:
            item = W.QListWidgetItem(tag)
            if tag not in own_tags:  # comes from the other note
                item.setBackground(QtGui.QBrush(QtGui.QColor(NEW_COLOR)))
            if notes.is_system_tag(tag, nugget):
                font = item.font()
                font.setItalic(True)
                item.setFont(font)
                item.setToolTip(tr("System tag"))
            self.tags.addItem(item)
        own_links = list(target.get("links") or ())
        self.links.setRowCount(len(preview.links))
        for row, link in enumerate(preview.links):
            to = str(link.get("to", ""))
            node = self._app.node(to)
            reason = W.QTableWidgetItem(str(link.get("reason", "")))
            shown = node.title if node is not None else tr("missing: {id}").format(id=to)
            other = W.QTableWidgetItem(shown)
            other.setToolTip(to)
            if node is None:
                other.setForeground(QtGui.QBrush(QtGui.QColor(ARCHIVED_COLOR)))
            other.setIcon(dot_icon(ARCHIVED_COLOR if node is None else type_color(node.type)))
            if link not in own_links:  # comes from the other note
                for cell in (reason, other):
                    cell.setBackground(QtGui.QBrush(QtGui.QColor(NEW_COLOR)))
            self.links.setItem(row, 0, reason)
            self.links.setItem(row, 1, other)
        hits_before = (_hits(target), _hits(source))
        lines = [
            tr("Hits: {a} + {b} = {total}.").format(
                a=hits_before[0], b=hits_before[1], total=preview.hits
            ),
            tr("“{source}” will be hidden, with a link to “{target}”.").format(
                source=_short(source), target=_short(target)
            ),
        ]
        if preview.redirected:
            lines.append(
                tr(
                    "{count} other note(s) link to “{source}”: their links will point to “{target}”."
                ).format(
                    count=len(preview.redirected), source=_short(source), target=_short(target)
                )
            )
        self.summary.setText(" ".join(lines))
        return preview

    def _mark_new_lines(self, own: str) -> None:
        """Give the lines the other note brings a light background (the text stays plain)."""
        kept = {line.strip() for line in own.split("\n")}
        marks = []
        block = self.content.document().firstBlock()
        while block.isValid():
            if block.text().strip() not in kept:
                mark = W.QTextEdit.ExtraSelection()
                mark.cursor = QtGui.QTextCursor(block)
                mark.format.setBackground(QtGui.QColor(NEW_COLOR))
                mark.format.setProperty(QtGui.QTextFormat.Property.FullWidthSelection, True)
                marks.append(mark)
            block = block.next()
        self.content.setExtraSelections(marks)

    # -- merging -------------------------------------------------------------------------------
    def merge(self) -> None:
        """Run ``mergeNotes(target, source, reason)`` (one undo step); the dialog closes once it
        is written, or shows the refusal."""
        if self._merging or self.preview is None:
            return
        target, source = self.target_and_source()
        self._merging = True
        self.merge_button.setEnabled(False)
        self.status.setVisible(False)
        target_id = str(target.get("id"))
        notes.merge_notes(
            self._app,
            target_id,
            str(source.get("id")),
            self.reason.text(),
            initiator=self,
            on_done=self._on_merged,
            on_error=self._on_refused,
        )

    def _on_merged(self, _result: object) -> None:
        self._merging = False
        target, _source = self.target_and_source()
        self._app.selection.select([str(target.get("id"))], source=self)
        self.accept()

    def _on_refused(self, error: MemgraphError) -> None:
        self._merging = False
        self._show_error(error.message)
        self.merge_button.setEnabled(self.preview is not None)

    def _show_error(self, message: str) -> None:
        self.status.setText(message)
        self.status.setVisible(bool(message))

    # -- slots ---------------------------------------------------------------------------------
    def _on_target_changed(self, _checked: bool) -> None:
        self._show_preview()

    def _on_changes_applied(self, changes: ChangeSet, initiator: object | None) -> None:
        """Another writer changed one of the notes (or anything, on a reload): preview anew
        from what is stored now, so Merge never runs on a stale picture."""
        if initiator is self or self._merging:
            return
        ids = [str(n.get("id")) for n in self._notes]
        if any(changes.touches(i) for i in ids) or changes.nodes_added or changes.nodes_removed:
            fresh = [notes.note_of(self._app.node(i)) for i in ids]
            if all(n is not None for n in fresh):
                self._notes = (fresh[0], fresh[1])  # type: ignore[assignment]
            self._show_preview()


def _short(note: dict[str, Any]) -> str:
    title = " ".join(str(note.get("title", "")).split())
    return title if len(title) <= 40 else title[:39] + "…"


def _hits(note: dict[str, Any]) -> int:
    hits = note.get("hits")
    return hits if isinstance(hits, int) and not isinstance(hits, bool) else 0

"""``NodeInspector``: the dock that shows and edits ``app.selection.current``.

Every edit is one Write API call through ``app.ops`` with ``initiator=self`` (one undo step:
"Edit 'Title'", "Archive 'Title'", "Link 'Title' to 1 node(s)", "Remove link 'rel'"). While it
is in flight the field shows "Saving…" and is read-only; a refusal shows the API's message in
red under that field and keeps the user's text. Other writers' changes to the shown node
(undo, other windows, other processes) reload it, keeping any field the user is still editing;
the node's removal clears the inspector.

Every field and title edit carries the value it was based on (``expected``): when another
writer moved it on meanwhile, nothing is written and the field shows both values with "Keep
mine" / "Take theirs". Leaving a node with unsaved typing asks Save / Discard / Cancel
(``ask_unsaved``, replaceable by tests). Every completion is bound to the node and field it was
for: one arriving after the person moved on updates that node's state, never the shown one.

A Nuggets note is the same case with its own form and write path: its Nuggets fields
(``note_fields``: the seed's value sets, system tags protected, hits and stamps read-only) and
its links with their reasons (``note_links``); each edit is one Nuggets API call
(``app.notes.edit_field``: ``editNote`` for the content, ``updateNote`` for the rest), Archive /
Restore are Hide / Restore (``deleteNote`` / ``hidden: false``), with the same Apply / Revert,
conflicts, unsaved-edit question and binding of results to their note.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from memgraph_gui.app import notes, ops
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.nuggets_desk import is_note
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.freeze import thaw
from memgraph_gui.core.domain.model import Node
from memgraph_gui.views import unsaved
from memgraph_gui.views.inspector.field_form import FieldForm
from memgraph_gui.views.inspector.field_kinds import patch_for
from memgraph_gui.views.inspector.header import NodeHeader
from memgraph_gui.views.inspector.link_rows import LinkRow, link_rows
from memgraph_gui.views.inspector.links_panel import LinksPanel
from memgraph_gui.views.inspector.membrane_section import MembraneSection
from memgraph_gui.views.inspector.note_fields import note_columns
from memgraph_gui.views.inspector.note_links import NoteLinksPanel
from memgraph_gui.views.inspector.redacted import RedactedPage
from memgraph_gui.views.inspector.style import plain_label, section_title, separator
from memgraph_gui.views.inspector.target_picker import TargetPickerDialog
from memgraph_gui.views.qt import QAction, QKeySequence, QtCore, QTimer, QWidget, tr
from memgraph_gui.views.qt import QtWidgets as W
from memgraph_gui.views.unsaved import Ask, Part, settle

Qt = QtCore.Qt
_WHERE = re.compile(r"^(edit|delete|create) \S+: ")
LABEL_MAX = 150
Key = tuple[str, str | None]  # (node id, column; None for the title)


@dataclass
class _Parked:
    """A field edit refused after the person moved on from its node: shown when they return."""

    value: Any
    baseline: Any
    error: MemgraphError


@dataclass
class _SaveAll:
    """A "Save" of every unsaved edit of one node: the writes still out, and what comes next."""

    node_id: str
    waiting: set[str | None]
    on_saved: Callable[[], None]
    on_failed: Callable[[], None]


class NodeInspector(QWidget):
    """Shows and edits one node (see the module docstring).

    Actions for the window's Edit menu: ``archive_action`` (Del) and ``restore_action``; both act
    on the shown node and are enabled only when they apply.
    """

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._node_id: str | None = None
        self._related: set[str] = set()
        self._in_flight: dict[Key, int] = {}
        self._save_all: _SaveAll | None = None
        self._parked: dict[Key, _Parked] = {}
        self._shown = Part(
            self._shown_unsaved, self._shown_summary, self._save_shown, self._discard_shown
        )
        self._leaving = False
        self.ask_unsaved: Ask = unsaved.ask_unsaved
        """Asks Save / Discard / Cancel before leaving unsaved edits (tests replace it)."""
        self.picker: TargetPickerDialog | None = None
        self.setObjectName("node-inspector")
        self.archive_action = QAction(tr("&Archive Node"), self)
        self.archive_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.archive_action.setStatusTip(tr("Archive the node in the inspector (undoable)"))
        self.archive_action.setIconText(tr("Archive"))
        self.restore_action = QAction(tr("&Restore Node"), self)
        self.restore_action.setIconText(tr("Restore"))
        self.restore_action.setStatusTip(tr("Bring the archived node back (undoable)"))
        self.mark_current_action = QAction(tr("Mark as &Current"), self)
        self.mark_current_action.setIconText(tr("Mark as current"))
        self.mark_current_action.setStatusTip(
            tr(
                "Stamp this memory's seqTo with the current chat turn, so the timeline and "
                "recall treat it as recent, as an agent's edit would (undoable). Edits made "
                "here keep its seqTo."
            )
        )
        self.header = NodeHeader()
        self.form = FieldForm()
        self.links = LinksPanel()
        self.note_links = NoteLinksPanel()
        self.membrane = MembraneSection(app)
        self._membrane_shown = Part(
            self.membrane.shown_unsaved,
            self.membrane.shown_summary,
            self.membrane.save_shown,
            self.membrane.discard_shown,
        )
        self.note = plain_label()
        self.note.setWordWrap(True)
        self.empty = plain_label(
            tr("Nothing selected.\n\nClick a node in the timeline or the graph to see it here.")
        )
        self.links_title = section_title(tr("Links"))
        self.fields_title = section_title(tr("Fields"))
        self._fields_rule = separator()  # (a record has no field form: one rule then)
        self.redacted = RedactedPage()  # a node the trust lens shows redacted
        self._pages = W.QStackedWidget()
        self._build()
        self._connect()
        self.show_node(app.selection.current)

    # -- layout ------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setEnabled(False)
        self.note.setStyleSheet(
            "QLabel { background: palette(alternate-base); border: 1px solid palette(mid);"
            " border-radius: 3px; padding: 3px 6px; }"
        )
        content = QWidget()
        layout = W.QVBoxLayout(content)
        layout.setContentsMargins(10, 8, 10, 10)
        layout.setSpacing(6)
        layout.addWidget(self.note)
        layout.addWidget(self.header)
        layout.addWidget(self._fields_rule)
        layout.addWidget(self.fields_title)
        layout.addWidget(self.form)
        layout.addWidget(separator())
        layout.addWidget(self.membrane)
        layout.addWidget(separator())
        layout.addWidget(self.links_title)
        layout.addWidget(self.links)
        layout.addWidget(self.note_links)
        layout.addStretch(1)
        scroll = W.QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(W.QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(content)
        self._pages.addWidget(self.empty)
        self._pages.addWidget(scroll)
        self._pages.addWidget(self.redacted)
        outer = W.QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self._pages)
        self.header.set_actions(self.archive_action, self.restore_action, archived=False)
        self.header.set_mark_current_action(self.mark_current_action)

    def _connect(self) -> None:
        app = self._app
        app.selection.changed.connect(self._on_selection_changed)
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self._on_store_replaced)
        app.lens.changed.connect(self._on_lens_changed)
        self.archive_action.triggered.connect(self._on_archive_triggered)
        self.restore_action.triggered.connect(self._on_restore_triggered)
        self.mark_current_action.triggered.connect(self._on_mark_current_triggered)
        self.header.title_committed.connect(self._on_title_committed)
        self.header.title_input_rejected.connect(self._on_title_input_rejected)
        self.header.title_keep_mine_requested.connect(self._on_title_keep_mine)
        self.form.keep_mine_requested.connect(self._on_field_keep_mine)
        self.header.node_clicked.connect(self._on_node_clicked)
        self.form.field_committed.connect(self._on_field_committed)
        self.form.field_input_rejected.connect(self._on_field_input_rejected)
        self.links.node_activated.connect(self._on_node_clicked)
        self.note_links.note_activated.connect(self._on_node_clicked)
        self.links.add_requested.connect(self.open_link_picker)
        self.links.remove_requested.connect(self._on_remove_requested)

    # -- showing -----------------------------------------------------------------------------------
    def edit_actions(self) -> list[QAction]:
        """The actions for the window's Edit menu: Archive Node (Del), Restore Node, Mark as
        Current."""
        return [self.archive_action, self.restore_action, self.mark_current_action]

    @property
    def node_id(self) -> str | None:
        """The id of the node shown, or None."""
        return self._node_id

    def show_node(self, node_id: str | None) -> None:
        """Show ``node_id`` (None, or an id that no longer exists: the empty state), dropping
        whatever was typed for the node shown before (ask first: ``has_unsaved_edits``)."""
        node = self._app.node(node_id) if node_id else None
        self._node_id = node.id if node is not None else None
        self._leaving = False
        self._save_all = None
        self._pages.setCurrentIndex(0 if node is None else 1)
        self.membrane.show_node(self._node_id)
        if node is None:
            self._related = set()
            self.form.clear()
            self.header.title_conflict.dismiss()
            self._update_actions(None)
            return
        self.links.clear_error()
        if self._show_redacted(node):
            return
        self._refresh(node, reload_editors=True, keep_dirty=False)
        self._show_in_flight(node.id)
        self._restore_parked(node.id)

    def _refresh(
        self, node: Node, *, reload_editors: bool, keep_dirty: bool = True, links: bool = True
    ) -> None:
        """Show ``node``; ``links=False`` keeps the links table (no link of it changed)."""
        app = self._app
        if self._show_redacted(node):
            return
        self._pages.setCurrentIndex(1)
        self.header.show_node(node, app.node, app.injection())
        if links:
            self._show_links(node)
        if reload_editors:
            self.header.show_title(node, keep_dirty=keep_dirty)
            self._load_form(node, keep_dirty=keep_dirty)
        writable = not app.read_only and not node.archived
        # a record's title is made from its payload, its fields are Membrane's (shown read-only)
        self.header.title.set_editable(writable and not app.is_membrane_record(node.id))
        self.form.set_editable(writable)
        self.membrane.set_editable(writable)
        self.links.set_editable(writable)
        self._show_note(node)
        self._update_actions(node)
        self._align_labels()

    def _show_redacted(self, node: Node) -> bool:
        """Show ``node`` on the redacted page if the trust lens shows it redacted (nothing
        editable: no form, no links, no actions); False if it shows in full."""
        if self._app.lens.tier(node.id) != "redacted":
            return False
        self._related = set()
        self.form.clear()
        # its editors, hidden, hold nothing of it and nothing typed (an editor never loaded
        # counted as typed: leaving the node asked to save a title, and Save wrote it)
        self.header.show_title(node, keep_dirty=False)
        self.membrane.show_node(None)
        self.redacted.show_node(node)
        self._pages.setCurrentIndex(2)
        self._update_actions(None)
        return True

    def _on_lens_changed(self) -> None:
        """The trust lens moved: show the node as it now lets it be seen. Typing in a node
        the lens still shows in full stays (only its links and names are shown again)."""
        node_id = self._node_id
        node = self._app.node(node_id) if node_id else None
        if node is None or node_id != self._app.selection.current:
            self.show_node(self._app.selection.current)
            return
        redacted = self._app.lens.tier(node.id) == "redacted"
        if redacted != (self._pages.currentWidget() is self.redacted):
            self.show_node(node.id)  # it moved between the full and the redacted form
        else:
            self._refresh(node, reload_editors=False)

    def _load_form(self, node: Node, *, keep_dirty: bool, fresh: tuple[str, ...] = ()) -> None:
        """The form for ``node``: its type's columns, or a note's Nuggets fields."""
        note = notes.note_of(node)
        record = self._app.is_membrane_record(node.id)
        self.fields_title.setVisible(note is None and not record)  # a note's: its own sections
        self.form.setVisible(not record)  # a record's JSON: the Membrane section shows it
        self._fields_rule.setVisible(not record)
        if record:
            self.form.load(None, {}, keep_dirty=False, columns=[])
        elif note is None:
            spec = self._app.schema().get(node.type)
            self.form.load(spec, node.fields, keep_dirty=keep_dirty, fresh=fresh)
        else:
            columns = note_columns(note)
            self.form.load(None, note, keep_dirty=keep_dirty, fresh=fresh, columns=columns)

    def _show_links(self, node: Node) -> None:
        note = notes.note_of(node)
        self.links.setVisible(note is None)
        self.note_links.setVisible(note is not None)
        if note is not None:
            links = notes.note_links(self._app, note)
            self.note_links.show_links(links)
            self.links_title.setText(
                tr("Links ({count})").format(count=len(links)) if links else tr("Links")
            )
            self._related = {link.to for link in links}
            return
        rows = link_rows(node.id, self._app.edges_of(node.id))
        self.links.show_links(rows, self._app.node)
        self.links_title.setText(
            tr("Links ({count})").format(count=len(rows)) if rows else tr("Links")
        )
        self._related = {r.other_id for r in rows} | set(node.children_ids) | {node.parent_id}

    def _show_note(self, node: Node) -> None:
        if self._app.read_only:
            text = tr("Read-only memory: everything shows, nothing can be changed.")
        elif node.archived and is_note(node):
            text = tr("Hidden: listNotes and searchNotes leave it out. Restore it to edit it.")
        elif node.archived:
            text = tr("Archived: restore it to edit it.")
        else:
            text = ""
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def _update_actions(self, node: Node | None) -> None:
        self._name_actions(is_note(node))
        writable = node is not None and not self._app.read_only
        self.archive_action.setEnabled(writable and node is not None and not node.archived)
        self.restore_action.setEnabled(writable and node is not None and node.archived)
        archived = node is not None and node.archived
        self.header.set_actions(self.archive_action, self.restore_action, archived)
        behind = (
            node is not None and node.level == "semantic" and node.seq_to < self._app.current_seq()
        )
        self.mark_current_action.setEnabled(writable and not archived and behind)

    def _name_actions(self, note: bool) -> None:
        """A note is hidden (Nuggets' soft delete), any other node archived."""
        if self.archive_action.property("note") == note:
            return
        self.archive_action.setProperty("note", note)
        if note:
            self.archive_action.setText(tr("&Hide Note"))
            self.archive_action.setIconText(tr("Hide"))
            self.archive_action.setStatusTip(tr("Hide the note: Nuggets' deleteNote (undoable)"))
            self.restore_action.setText(tr("&Restore Note"))
            self.restore_action.setStatusTip(tr("Bring the hidden note back (undoable)"))
        else:
            self.archive_action.setText(tr("&Archive Node"))
            self.archive_action.setIconText(tr("Archive"))
            self.archive_action.setStatusTip(tr("Archive the node in the inspector (undoable)"))
            self.restore_action.setText(tr("&Restore Node"))
            self.restore_action.setStatusTip(tr("Bring the archived node back (undoable)"))
        self.restore_action.setIconText(tr("Restore"))

    def _align_labels(self) -> None:
        labels = self.header.label_widgets() + self.form.label_widgets()
        labels += self.membrane.label_widgets()
        if not labels:
            return
        width = min(LABEL_MAX, max(w.sizeHint().width() for w in labels))
        for label in labels:
            label.setFixedWidth(width)

    # -- edits -------------------------------------------------------------------------------------
    def _write_edit(self, column: str | None, value: Any) -> None:
        """Write one field (or the title, ``column`` None) of the shown node, based on the value
        its editor started from; the completion is bound to that node and column."""
        node_id = self._node_id
        if node_id is None or self._app.read_only:
            return
        if is_note(self._app.node(node_id)):
            self._write_note_edit(node_id, column, value)
            return
        if column is None:
            patch: dict[str, Any] = {"title": value}
            expected: dict[str, Any] = {"title": self.header.title.baseline}
        else:
            set_fields, clear = patch_for(column, value)
            patch = {"set_fields": set_fields, "clear_fields": clear}
            expected = {"fields": {column: thaw(self.form.row(column).editor.baseline)}}
        baseline = self.header.title.baseline if column is None else expected["fields"][column]
        key = (node_id, column)
        self._in_flight[key] = self._in_flight.get(key, 0) + 1
        self._set_busy(column, True)
        ops.edit_node(
            self._app,
            node_id,
            **patch,
            expected=expected,
            initiator=self,
            on_done=partial(self._on_edit_saved, node_id, column),
            on_error=partial(self._on_edit_refused, node_id, column, value, baseline),
        )

    def _write_note_edit(self, node_id: str, column: str | None, value: Any) -> None:
        """Write one field of the note shown (or its title, ``column`` None) through Nuggets,
        based on the value its editor started from; bound to that note and field as any edit."""
        if column is None:
            baseline: Any = self.header.title.baseline
        else:
            baseline = thaw(self.form.row(column).editor.baseline)
        key = (node_id, column)
        self._in_flight[key] = self._in_flight.get(key, 0) + 1
        self._set_busy(column, True)
        notes.edit_field(
            self._app,
            node_id,
            column or "title",
            value,
            expected=baseline,
            initiator=self,
            on_done=partial(self._on_edit_saved, node_id, column),
            on_error=partial(self._on_edit_refused, node_id, column, value, baseline),
        )

    def _set_busy(self, column: str | None, busy: bool) -> None:
        if column is None:
            self.header.show_title_busy(busy)
        elif column in self.form.rows:
            self.form.row(column).show_busy(busy)

    def _show_in_flight(self, node_id: str) -> None:
        """Editors of ``node_id`` with a write in flight are busy, the others are not (rows are
        reused from node to node, so a busy flag never outlives its write)."""
        for column in [None, *self.form.rows]:
            busy = (node_id, column) in self._in_flight
            editor = self.header.title if column is None else self.form.row(column).editor
            if editor.busy != busy:
                self._set_busy(column, busy)

    def _landed(self, node_id: str, column: str | None) -> None:
        key = (node_id, column)
        left = self._in_flight.get(key, 0) - 1
        if left > 0:
            self._in_flight[key] = left
        else:
            self._in_flight.pop(key, None)

    def _show_error(self, column: str | None, message: str) -> None:
        if column is None:
            self.header.show_title_error(message)
        elif column in self.form.rows:
            self.form.row(column).show_error(message)

    def _on_edit_saved(self, node_id: str, column: str | None, _result: object) -> None:
        self._landed(node_id, column)
        node = self._app.node(node_id)
        if node_id != self._node_id or node is None:
            return  # shown again later, it loads what is stored
        self._set_busy(column, False)
        if column is None:
            self.header.show_title(node, keep_dirty=False)
        elif column in self.form.rows:
            # "Keep mine" may have changed the column's kind back: lay it out again if so
            self._load_form(node, keep_dirty=True, fresh=(column,))
        self._refresh(node, reload_editors=False)
        self._save_landed(node_id, column, ok=True)

    def _on_edit_refused(
        self, node_id: str, column: str | None, value: Any, baseline: Any, error: MemgraphError
    ) -> None:
        self._landed(node_id, column)
        if node_id != self._node_id:
            # its field is gone: the window says it, and the text waits for the person's return
            self._parked[(node_id, column)] = _Parked(value, baseline, error)
            self._app.op_failed.emit(error, self)
            return
        self._set_busy(column, False)
        conflict = error.code == "EDIT_CONFLICT"
        if column is None:
            self.header.title.mark_refused(value)
            if conflict:
                self.header.show_title_conflict(str(_stored(error, None)))
        elif column in self.form.rows:
            row = self.form.row(column)
            row.editor.mark_refused(value)
            if conflict:
                row.show_conflict(_stored(error, column))
        if not conflict:
            self._show_error(column, describe_error(error))
        self._save_landed(node_id, column, ok=False)

    def _on_field_keep_mine(self, column: str) -> None:
        """Write the person's value over the stored one the conflict showed."""
        write, mine = self.form.row(column).keep_mine()
        if write:
            self._write_edit(column, mine)

    def _on_title_keep_mine(self) -> None:
        header = self.header
        try:
            mine = str(header.title.value())
        except ValueError as exc:
            header.show_title_error(str(exc))
            return
        theirs = header.title_theirs
        header.title_conflict.dismiss()
        header.title.rebase(theirs)
        if mine == theirs:
            header.title.set_value(theirs)
            return
        self._write_edit(None, mine)

    # -- unsaved edits (HoldsUnsaved) ---------------------------------------------------------------
    def has_unsaved_edits(self) -> bool:
        """True while the shown node has typing neither written nor being written, or a conflict
        waiting for Keep mine / Take theirs, or a write was refused after the person moved on
        from its node (its text waits there)."""
        return bool(self._parked) or self._shown_unsaved() or self.membrane.has_unsaved_edits()

    def unsaved_summary(self) -> str:
        """What is unsaved, for the question: "the title and “goal” of “Eileen”"."""
        parts = [self._shown_summary()] if self._shown_unsaved() else []
        for node_id in dict.fromkeys(node_id for node_id, _column in self._parked):
            node = self._app.node(node_id)
            parts.append(
                tr("a refused edit of “{title}”").format(title=node.title if node else node_id)
            )
        if self.membrane.has_unsaved_edits():
            parts.append(self.membrane.unsaved_summary())
        return "; ".join(parts)

    def save_unsaved(self, on_saved: Callable[[], None], on_failed: Callable[[], None]) -> bool:
        """Write every unsaved edit of the shown node (see ``HoldsUnsaved``). A conflict waiting
        for a choice, input that is no value, or a refused edit of another node (which is then
        shown) is left for the person: False, nothing written. The Membrane section's edits
        are saved alongside (``on_saved`` once both parts are written)."""
        if self.membrane.has_unsaved_edits():
            return _both(self._save_fields, self.membrane.save_unsaved, on_saved, on_failed)
        return self._save_fields(on_saved, on_failed)

    def _save_fields(self, on_saved: Callable[[], None], on_failed: Callable[[], None]) -> bool:
        if not self._parked:
            return self._save_shown(on_saved, on_failed)

        def show_parked() -> None:  # the shown node is saved; a refused edit needs a choice
            if self._parked:
                self._app.selection.select([next(iter(self._parked))[0]], source=self)
            on_failed()

        return self._save_shown(show_parked, on_failed)

    def discard_unsaved(self) -> None:
        """Back to the stored values: typing, conflicts and refused edits are dropped."""
        self._parked.clear()
        self._discard_shown()
        self.membrane.discard_unsaved()

    def _shown_unsaved(self) -> bool:
        if self._node_id is None:
            return False
        return self.header.title_unsaved() or bool(self.form.unsaved_columns())

    def _shown_summary(self) -> str:
        node = self._app.node(self._node_id) if self._node_id else None
        parts = [tr("the title")] if self.header.title_unsaved() else []
        parts += [f"“{column}”" for column in self.form.unsaved_columns()]
        if not parts:
            return ""
        listed = ", ".join(parts[:-1]) + (tr(" and ") if len(parts) > 1 else "") + parts[-1]
        title = node.title if node is not None else self._node_id or ""
        return tr("{fields} of “{title}”").format(fields=listed, title=title)

    def _save_shown(self, on_saved: Callable[[], None], on_failed: Callable[[], None]) -> bool:
        node_id = self._node_id
        if node_id is None or not self._shown_unsaved():
            on_saved()
            return True
        header, form = self.header, self.form
        if header.title_conflict.pending or any(form.row(c).conflict.pending for c in form.rows):
            return False
        keys: list[str | None] = [None] if header.title_unsaved() else []
        values: dict[str | None, Any] = {}
        for column in [*keys, *form.unsaved_columns()]:
            editor = header.title if column is None else form.row(column).editor
            try:
                values[column] = editor.value()
            except ValueError as exc:
                self._show_error(column, str(exc))
                return False
        self._save_all = _SaveAll(node_id, set(values), on_saved, on_failed)
        for column, value in values.items():
            self._write_edit(column, value)
        return True

    def _discard_shown(self) -> None:
        if self.header.title_unsaved():
            self.header.discard_title()
        for column in self.form.unsaved_columns():
            self.form.row(column).discard()

    def _restore_parked(self, node_id: str) -> None:
        """Show the refused edits of ``node_id`` made before the person moved on: their text,
        based on what it was based on, with the conflict or the reason."""
        for key in [k for k in self._parked if k[0] == node_id]:
            parked = self._parked.pop(key)
            column = key[1]
            if column is not None and column not in self.form.rows:
                continue
            editor = self.header.title if column is None else self.form.row(column).editor
            editor.restore_draft(parked.baseline, parked.value)
            editor.mark_refused(parked.value)
            if parked.error.code != "EDIT_CONFLICT":
                self._show_error(column, describe_error(parked.error))
            elif column is None:
                self.header.show_title_conflict(str(_stored(parked.error, None)))
            else:
                self.form.row(column).show_conflict(_stored(parked.error, column))

    def _save_landed(self, node_id: str, column: str | None, *, ok: bool) -> None:
        pending = self._save_all
        if pending is None or pending.node_id != node_id or column not in pending.waiting:
            return
        pending.waiting.discard(column)
        if not ok:
            self._save_all = None
            pending.on_failed()
        elif not pending.waiting:
            self._save_all = None
            pending.on_saved()

    def _ask_before_leaving(self) -> None:
        """The selection moved away from a node with unsaved edits: Save / Discard / Cancel."""
        if not self._leaving:
            return
        if self._app.selection.current == self._node_id:
            self._leaving = False  # back already: the edits stay as they are
            return
        if not self._shown_unsaved() and not self.membrane.shown_unsaved():
            self._left()
            return
        parts = [self._shown, self._membrane_shown]
        if settle(self, parts, self.ask_unsaved, then=self._left, failed=self._stay):
            self._left()
        elif self._save_all is None and not self.membrane.saving:
            self._stay()  # Cancel (or a Save that could not start)

    def _left(self) -> None:
        if self._leaving:
            self.show_node(self._app.selection.current)

    def _stay(self) -> None:
        """Back to the node with the edits: the selection follows the inspector again."""
        if not self._leaving:
            return
        self._leaving = False
        if self._node_id is not None and self._app.node(self._node_id) is not None:
            self._app.selection.select([self._node_id], source=self)

    # -- links and state ---------------------------------------------------------------------------
    def open_link_picker(self) -> TargetPickerDialog | None:
        """Open "Add link…" for the shown node (non-blocking); its OK adds the link."""
        node = self._app.node(self._node_id) if self._node_id else None
        if node is None or self._app.read_only or node.archived:
            return None
        relations = self._app.relations_in_use()
        self.picker = TargetPickerDialog(self._find_targets, relations, source=node, parent=self)
        self.picker.accepted.connect(self._on_picker_accepted)
        self.picker.open()
        return self.picker

    def _find_targets(self, text: str) -> list[Node]:
        matches = list(self._app.read_api().find_by_name(query=text).matches)
        lens = self._app.lens
        if lens.on:  # found by its name only when the actor reads it in full
            matches = [m for m in matches if lens.tier(m.id) == "full"]
        exact = self._app.node(text)
        if exact is not None and not exact.archived and exact not in matches:
            matches.insert(0, exact)
        return matches

    def _on_picker_accepted(self) -> None:
        picker, self.picker = self.picker, None
        if picker is None:
            return
        choice, source_id = picker.choice(), picker.source_id
        picker.deleteLater()
        if choice is None or self._app.node(source_id) is None:
            return
        target, relation, direction = choice
        self.links.clear_error()
        ops.add_link(
            self._app,
            source_id,  # the node the picker was opened for, whatever is shown now
            target,
            relation,
            direction=direction,
            initiator=self,
            on_error=partial(self._on_link_refused, source_id),
        )

    def _on_remove_requested(self, link: LinkRow) -> None:
        if self._node_id is None or self._app.read_only:
            return
        self.links.clear_error()
        ops.remove_link(
            self._app,
            self._node_id,
            link.other_id,
            link.relation,
            direction=link.direction,
            initiator=self,
            on_error=partial(self._on_link_refused, self._node_id),
        )

    def _on_link_refused(self, node_id: str, error: MemgraphError) -> None:
        if node_id != self._node_id:
            self._app.op_failed.emit(error, self)  # its links are no longer shown
            return
        self.links.show_error(describe_error(error))

    def _on_archive_triggered(self) -> None:
        """Archive the shown node; a note is hidden through Nuggets (``ops.archive_node``)."""
        node = self._app.node(self._node_id) if self._node_id else None
        if node is not None and not node.archived and not self._app.read_only:
            ops.archive_node(
                self._app,
                node.id,
                initiator=self,
                on_done=self._state_saved(node.id),
                on_error=partial(self._on_state_refused, node.id),
            )

    def _on_restore_triggered(self) -> None:
        """Restore the shown node; a hidden note comes back through Nuggets' ``updateNote``."""
        node = self._app.node(self._node_id) if self._node_id else None
        if node is not None and node.archived and not self._app.read_only:
            ops.restore_node(
                self._app,
                node.id,
                initiator=self,
                on_done=self._state_saved(node.id),
                on_error=partial(self._on_state_refused, node.id),
            )

    def _state_saved(self, node_id: str) -> Callable[[object], None] | None:
        """What runs when a note's hide / restore lands (its fields changed too); None for
        other nodes."""
        if not is_note(self._app.node(node_id)):
            return None
        return partial(self._on_note_state_saved, node_id)

    def _on_mark_current_triggered(self) -> None:
        """Stamp the shown node's ``seqTo`` with the current seq (hand edits keep it)."""
        node = self._app.node(self._node_id) if self._node_id else None
        if node is not None and not node.archived and not self._app.read_only:
            ops.mark_current(
                self._app,
                node.id,
                initiator=self,
                on_error=partial(self._on_state_refused, node.id),
            )

    def _on_note_state_saved(self, node_id: str, _result: object) -> None:
        """A note hidden or restored from here: its fields changed too (hidden, archivedAt,
        updatedAt): show them, keeping any typing."""
        node = self._app.node(node_id)
        if node_id == self._node_id and node is not None:
            self._load_form(node, keep_dirty=True)
            self._refresh(node, reload_editors=False)

    def _on_state_refused(self, node_id: str, error: MemgraphError) -> None:
        if node_id != self._node_id:
            self._app.op_failed.emit(error, self)
            return
        self._show_error(None, describe_error(error))

    # -- signals -----------------------------------------------------------------------------------
    def _on_title_committed(self, text: str) -> None:
        self._write_edit(None, text)  # column None: the title

    def _on_title_input_rejected(self, message: str) -> None:
        self._show_error(None, message)

    def _on_field_committed(self, column: str, value: object) -> None:
        self._write_edit(column, value)

    def _on_field_input_rejected(self, column: str, message: str) -> None:
        self._show_error(column, message)

    def _on_node_clicked(self, node_id: str) -> None:
        if self._app.node(node_id) is not None:
            self._app.selection.select([node_id], source=self)

    def _on_selection_changed(self, _ids: object, current: str | None, _source: object) -> None:
        if current == self._node_id or self._leaving:
            return  # (while leaving, the node shown next is the selection's current one then)
        if self._shown_unsaved() or self.membrane.shown_unsaved():
            self._leaving = True
            # ask once every pane has followed the selection, so Cancel brings them all back
            QTimer.singleShot(0, self, self._ask_before_leaving)
            return
        self.show_node(current)

    def _on_store_replaced(self) -> None:
        # refused edits and write state belong to the memory closed (same ids, other nodes)
        self._in_flight.clear()
        self._parked.clear()
        self.membrane.forget()
        self.show_node(self._app.selection.current)

    def _on_changes_applied(self, changes: ChangeSet, initiator: object | None) -> None:
        node_id = self._node_id
        if node_id is None:
            return
        node = self._app.node(node_id)
        if node is None or node_id in changes.nodes_removed:
            self.show_node(None)
            return
        self.membrane.follow(changes)
        if changes.touches(node_id):
            links = changes.reloaded or _links_or_neighbours_changed(
                changes, node_id, self._related
            )
            self._refresh(node, reload_editors=initiator is not self, links=links)
        elif _links_or_neighbours_changed(changes, node_id, self._related):
            self._refresh(node, reload_editors=False)
        elif changes.counters_changed or changes.reloaded:
            self._update_actions(node)  # the current seq moved: Mark as current may apply now


def _both(
    first: Callable[[Callable[[], None], Callable[[], None]], bool],
    second: Callable[[Callable[[], None], Callable[[], None]], bool],
    on_saved: Callable[[], None],
    on_failed: Callable[[], None],
) -> bool:
    """Save two parts: ``on_saved`` once both are written, ``on_failed`` once, at the first
    refusal; False when either cannot start."""
    waiting = [2]
    failed: list[bool] = []

    def one() -> None:
        waiting[0] -= 1
        if not waiting[0] and not failed:
            on_saved()

    def refused() -> None:
        if not failed:
            failed.append(True)
            on_failed()

    return first(one, refused) and second(one, refused)


def _links_or_neighbours_changed(changes: ChangeSet, node_id: str, related: set[str]) -> bool:
    if changes.injection_changed or changes.schema_changed:
        return True
    if any(node_id in (a, b) for a, _t, b in changes.edges_changed):
        return True
    # (a note's dangling link finds its note once that is added, and loses it when removed)
    touched = changes.nodes_updated | changes.nodes_archived
    return bool(related & (touched | changes.nodes_added | changes.nodes_removed))


def _stored(error: MemgraphError, column: str | None) -> Any:
    """The stored value an ``EDIT_CONFLICT`` reports for ``column`` (None: the title)."""
    current = error.details.get("current") or {}
    if column is None:
        return current.get("title", "")
    return (current.get("fields") or {}).get(column)


def describe_error(error: MemgraphError) -> str:
    """The API's refusal as one sentence for under a field ("edit n_7: " is implied there)."""
    message = _WHERE.sub("", error.message.strip()) or error.code
    return message[:1].upper() + message[1:]

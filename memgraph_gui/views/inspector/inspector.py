"""``NodeInspector``: the dock that shows and edits ``app.selection.current``.

Every edit is one Write API call through ``app.ops`` with ``initiator=self`` (one undo step:
"Edit 'Title'", "Archive 'Title'", "Link 'Title' to 1 node(s)", "Remove link 'rel'"). While it
is in flight the field shows "Saving…" and is read-only; a refusal shows the API's message in
red under that field and keeps the user's text. Other writers' changes to the shown node
(undo, other windows, other processes) reload it, keeping any field the user is still editing;
the node's removal clears the inspector.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from memgraph_gui.app import ops
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.model import Node
from memgraph_gui.views.inspector.field_form import FieldForm
from memgraph_gui.views.inspector.field_kinds import patch_for
from memgraph_gui.views.inspector.header import NodeHeader
from memgraph_gui.views.inspector.link_rows import LinkRow, link_rows
from memgraph_gui.views.inspector.links_panel import LinksPanel
from memgraph_gui.views.inspector.style import plain_label, section_title, separator
from memgraph_gui.views.inspector.target_picker import TargetPickerDialog
from memgraph_gui.views.qt import QAction, QKeySequence, QtCore, QWidget, tr
from memgraph_gui.views.qt import QtWidgets as W

Qt = QtCore.Qt
_WHERE = re.compile(r"^(edit|delete|create) \S+: ")
LABEL_MAX = 150


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
        self.picker: TargetPickerDialog | None = None
        self.setObjectName("node-inspector")
        self.archive_action = QAction(tr("&Archive Node"), self)
        self.archive_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.archive_action.setStatusTip(tr("Archive the node in the inspector (undoable)"))
        self.archive_action.setIconText(tr("Archive"))
        self.restore_action = QAction(tr("&Restore Node"), self)
        self.restore_action.setIconText(tr("Restore"))
        self.restore_action.setStatusTip(tr("Bring the archived node back (undoable)"))
        self.header = NodeHeader()
        self.form = FieldForm()
        self.links = LinksPanel()
        self.note = plain_label()
        self.note.setWordWrap(True)
        self.empty = plain_label(
            tr("Nothing selected.\n\nClick a node in the timeline or the graph to see it here.")
        )
        self.links_title = section_title(tr("Links"))
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
        layout.addWidget(separator())
        layout.addWidget(section_title(tr("Fields")))
        layout.addWidget(self.form)
        layout.addWidget(separator())
        layout.addWidget(self.links_title)
        layout.addWidget(self.links)
        layout.addStretch(1)
        scroll = W.QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(W.QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(content)
        self._pages.addWidget(self.empty)
        self._pages.addWidget(scroll)
        outer = W.QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self._pages)
        self.header.set_actions(self.archive_action, self.restore_action, archived=False)

    def _connect(self) -> None:
        app = self._app
        app.selection.changed.connect(self._on_selection_changed)
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self._on_store_replaced)
        self.archive_action.triggered.connect(self._on_archive_triggered)
        self.restore_action.triggered.connect(self._on_restore_triggered)
        self.header.title_committed.connect(self._on_title_committed)
        self.header.title_input_rejected.connect(self._on_title_input_rejected)
        self.header.node_clicked.connect(self._on_node_clicked)
        self.form.field_committed.connect(self._on_field_committed)
        self.form.field_input_rejected.connect(self._on_field_input_rejected)
        self.links.node_activated.connect(self._on_node_clicked)
        self.links.add_requested.connect(self.open_link_picker)
        self.links.remove_requested.connect(self._on_remove_requested)

    # -- showing -----------------------------------------------------------------------------------
    def edit_actions(self) -> list[QAction]:
        """The actions for the window's Edit menu: Archive Node (Del), Restore Node."""
        return [self.archive_action, self.restore_action]

    @property
    def node_id(self) -> str | None:
        """The id of the node shown, or None."""
        return self._node_id

    def show_node(self, node_id: str | None) -> None:
        """Show ``node_id`` (None, or an id that no longer exists: the empty state)."""
        node = self._app.node(node_id) if node_id else None
        self._node_id = node.id if node is not None else None
        self._pages.setCurrentIndex(0 if node is None else 1)
        if node is None:
            self._related = set()
            self.form.clear()
            self._update_actions(None)
            return
        self.links.clear_error()
        self._refresh(node, reload_editors=True, keep_dirty=False)

    def _refresh(
        self, node: Node, *, reload_editors: bool, keep_dirty: bool = True, links: bool = True
    ) -> None:
        """Show ``node``; ``links=False`` keeps the links table (no link of it changed)."""
        app = self._app
        self.header.show_node(node, app.node, app.injection())
        if links:
            self._show_links(node)
        if reload_editors:
            self.header.show_title(node, keep_dirty=keep_dirty)
            self.form.load(app.schema().get(node.type), node.fields, keep_dirty=keep_dirty)
        writable = not app.read_only and not node.archived
        self.header.title.set_editable(writable)
        self.form.set_editable(writable)
        self.links.set_editable(writable)
        self._show_note(node)
        self._update_actions(node)
        self._align_labels()

    def _show_links(self, node: Node) -> None:
        rows = link_rows(node.id, self._app.edges_of(node.id))
        self.links.show_links(rows, self._app.node)
        self.links_title.setText(
            tr("Links ({count})").format(count=len(rows)) if rows else tr("Links")
        )
        self._related = {r.other_id for r in rows} | set(node.children_ids) | {node.parent_id}

    def _show_note(self, node: Node) -> None:
        if self._app.read_only:
            text = tr("Read-only memory: everything shows, nothing can be changed.")
        elif node.archived:
            text = tr("Archived: restore it to edit it.")
        else:
            text = ""
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def _update_actions(self, node: Node | None) -> None:
        writable = node is not None and not self._app.read_only
        self.archive_action.setEnabled(writable and node is not None and not node.archived)
        self.restore_action.setEnabled(writable and node is not None and node.archived)
        archived = node is not None and node.archived
        self.header.set_actions(self.archive_action, self.restore_action, archived)

    def _align_labels(self) -> None:
        labels = self.header.label_widgets() + self.form.label_widgets()
        if not labels:
            return
        width = min(LABEL_MAX, max(w.sizeHint().width() for w in labels))
        for label in labels:
            label.setFixedWidth(width)

    # -- edits -------------------------------------------------------------------------------------
    def _write_edit(self, column: str | None, value: Any) -> None:
        node_id = self._node_id
        if node_id is None or self._app.read_only:
            return
        if column is None:
            patch: dict[str, Any] = {"title": value}
        else:
            set_fields, clear = patch_for(column, value)
            patch = {"set_fields": set_fields, "clear_fields": clear}
        self._set_busy(column, True)
        ops.edit_node(
            self._app,
            node_id,
            **patch,
            initiator=self,
            on_done=partial(self._on_edit_saved, node_id, column),
            on_error=partial(self._on_edit_refused, node_id, column, value),
        )

    def _set_busy(self, column: str | None, busy: bool) -> None:
        if column is None:
            self.header.show_title_busy(busy)
        elif column in self.form.rows:
            self.form.row(column).show_busy(busy)

    def _show_error(self, column: str | None, message: str) -> None:
        if column is None:
            self.header.show_title_error(message)
        elif column in self.form.rows:
            self.form.row(column).show_error(message)

    def _on_edit_saved(self, node_id: str, column: str | None, _result: object) -> None:
        node = self._app.node(node_id)
        if node_id != self._node_id or node is None:
            return
        if column is None:
            self.header.show_title_busy(False)
            self.header.show_title(node, keep_dirty=False)
        elif column in self.form.rows:
            row = self.form.row(column)
            row.editor.set_busy(False)
            row.editor.set_value(node.fields.get(column))
            row.clear_status()
        self._refresh(node, reload_editors=False)

    def _on_edit_refused(
        self, node_id: str, column: str | None, value: Any, error: MemgraphError
    ) -> None:
        if node_id != self._node_id:
            self._app.op_failed.emit(error, self)  # its field is gone: let the window say it
            return
        self._set_busy(column, False)
        if column is None:
            self.header.title.mark_refused(value)
        elif column in self.form.rows:
            self.form.row(column).editor.mark_refused(value)
        self._show_error(column, describe_error(error))

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
        exact = self._app.node(text)
        if exact is not None and not exact.archived and exact not in matches:
            matches.insert(0, exact)
        return matches

    def _on_picker_accepted(self) -> None:
        picker, self.picker = self.picker, None
        choice = picker.choice() if picker is not None else None
        if picker is not None:
            picker.deleteLater()
        if choice is None or self._node_id is None:
            return
        target, relation, direction = choice
        self.links.clear_error()
        ops.add_link(
            self._app,
            self._node_id,
            target,
            relation,
            direction=direction,
            initiator=self,
            on_error=self._on_link_refused,
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
            on_error=self._on_link_refused,
        )

    def _on_link_refused(self, error: MemgraphError) -> None:
        self.links.show_error(describe_error(error))

    def _on_archive_triggered(self) -> None:
        node = self._app.node(self._node_id) if self._node_id else None
        if node is not None and not node.archived and not self._app.read_only:
            ops.archive_node(self._app, node.id, initiator=self, on_error=self._on_state_refused)

    def _on_restore_triggered(self) -> None:
        node = self._app.node(self._node_id) if self._node_id else None
        if node is not None and node.archived and not self._app.read_only:
            ops.restore_node(self._app, node.id, initiator=self, on_error=self._on_state_refused)

    def _on_state_refused(self, error: MemgraphError) -> None:
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
        if current != self._node_id:
            self.show_node(current)

    def _on_store_replaced(self) -> None:
        self.show_node(self._app.selection.current)

    def _on_changes_applied(self, changes: ChangeSet, initiator: object | None) -> None:
        node_id = self._node_id
        if node_id is None:
            return
        node = self._app.node(node_id)
        if node is None or node_id in changes.nodes_removed:
            self.show_node(None)
            return
        if changes.touches(node_id):
            links = changes.reloaded or _links_or_neighbours_changed(
                changes, node_id, self._related
            )
            self._refresh(node, reload_editors=initiator is not self, links=links)
        elif _links_or_neighbours_changed(changes, node_id, self._related):
            self._refresh(node, reload_editors=False)


def _links_or_neighbours_changed(changes: ChangeSet, node_id: str, related: set[str]) -> bool:
    if changes.injection_changed or changes.schema_changed:
        return True
    if any(node_id in (a, b) for a, _t, b in changes.edges_changed):
        return True
    return bool(related & (changes.nodes_updated | changes.nodes_archived))


def describe_error(error: MemgraphError) -> str:
    """The API's refusal as one sentence for under a field ("edit n_7: " is implied there)."""
    message = _WHERE.sub("", error.message.strip()) or error.code
    return message[:1].upper() + message[1:]

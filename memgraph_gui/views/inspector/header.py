"""The inspector's header: type and state badges, the editable title, id / level / seq, and the
parent and children (clicking one emits ``node_clicked(id)``)."""

from __future__ import annotations

from collections.abc import Callable

from memgraph_gui.app.nuggets_desk import is_note, nugget_of
from memgraph_gui.core.domain.injection import InjectionState
from memgraph_gui.core.domain.model import Node
from memgraph_gui.views.conflict import ConflictPanel
from memgraph_gui.views.inspector.editors import LineEditor
from memgraph_gui.views.inspector.style import (
    ARCHIVED_BADGE,
    ERROR_COLOR,
    ElidedLabel,
    badge,
    dot_icon,
    link_button,
    plain_label,
    set_button_text,
    status_label,
    type_badge,
)
from memgraph_gui.views.menu_text import elide_end
from memgraph_gui.views.qt import QAction, QtCore, QWidget, Signal, tr
from memgraph_gui.views.qt import QtWidgets as W
from memgraph_gui.views.theme import injection_styles, type_color
from memgraph_gui.views.timeline.model import seq_tip

Qt = QtCore.Qt
NUGGET_BADGE = "#5b6b7a"
_NOT_FOR_NOTES = (1, 3, 4, 5)  # Level, Prompt, Parent, Children
NodeLookup = Callable[[str], Node | None]
CHILD_ROWS = 5
_SHORT = {
    "always": lambda: tr("always"),
    "recall": lambda: tr("recall"),
    "visible": lambda: tr("visible"),
}


class NodeHeader(QWidget):
    """Shows one node's identity; emits ``title_committed(text)``, ``node_clicked(id)`` and
    ``title_keep_mine_requested`` (the person keeps their title in a conflict; "Take theirs"
    loads the stored title here)."""

    title_committed = Signal(str)
    title_input_rejected = Signal(str)
    title_keep_mine_requested = Signal()
    node_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.archive_button = W.QToolButton()
        self.restore_button = W.QToolButton()
        for button in (self.archive_button, self.restore_button):
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.injection = W.QHBoxLayout()
        self.title = LineEditor(required=True)
        font = self.title.line.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.line.setFont(font)
        self.title_status = status_label()
        self.title_conflict = ConflictPanel()
        self.title_theirs = ""
        self.id_label = ElidedLabel()
        self.id_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.level_label = plain_label()
        self.seq_label = plain_label()
        self.mark_current_button = W.QToolButton()
        self.parent_button = link_button()
        self.no_parent = plain_label(tr("none (top level)"))
        self.no_parent.setEnabled(False)
        self.child_list = W.QListWidget()
        self.child_list.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.child_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.child_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.child_list.setToolTip(tr("Click a child to show it"))
        self.no_children = plain_label(tr("none"))
        self.no_children.setEnabled(False)
        self._badges = W.QHBoxLayout()
        self.meta = W.QFormLayout()
        self._build()
        self.title.committed.connect(self._on_title_committed)
        self.title.input_rejected.connect(self.title_input_rejected)
        self.title.reverted.connect(self.clear_title_status)
        self.title_conflict.keep_mine.connect(self.title_keep_mine_requested)
        self.title_conflict.take_theirs.connect(self._on_take_theirs)
        self.parent_button.clicked.connect(self._on_parent_clicked)
        self.child_list.itemClicked.connect(self._on_child_clicked)
        self.child_list.itemActivated.connect(self._on_child_clicked)

    def _build(self) -> None:
        layout = W.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        top = W.QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addLayout(self._badges)
        top.addStretch(1)
        top.addWidget(self.archive_button)
        top.addWidget(self.restore_button)
        self._badges.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.title)
        layout.addWidget(self.title_conflict)
        layout.addWidget(self.title_status)
        self.meta.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self.meta.setHorizontalSpacing(10)
        self.meta.setVerticalSpacing(4)
        self.meta.setFieldGrowthPolicy(W.QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.seq_label.setToolTip(seq_tip())
        self.mark_current_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.mark_current_button.setAutoRaise(True)
        seq_row = W.QHBoxLayout()
        seq_row.addWidget(self.seq_label)
        seq_row.addWidget(self.mark_current_button)
        seq_row.addStretch(1)
        parent_cell = _stack(self.parent_button, self.no_parent)
        children_cell = _stack(self.child_list, self.no_children)
        for text, widget in (
            (tr("Id"), self.id_label),
            (tr("Level"), self.level_label),
            (tr("Seq"), _row_cell(seq_row)),
            (tr("Prompt"), _row_cell(self.injection)),
            (tr("Parent"), parent_cell),
            (tr("Children"), children_cell),
        ):
            self.meta.addRow(_meta_label(text), widget)
        seq_name = self.meta.itemAt(2, W.QFormLayout.ItemRole.LabelRole)
        if seq_name is not None and (seq_widget := seq_name.widget()) is not None:
            seq_widget.setToolTip(seq_tip())
        layout.addLayout(self.meta)

    # -- showing a node ----------------------------------------------------------------------------
    def show_node(self, node: Node, lookup: NodeLookup, injection: InjectionState) -> None:
        """Fill every part but the title editor (see ``show_title``)."""
        self._show_badges(node)
        self._show_injection(node, injection)
        self.id_label.set_full_text(node.id)
        self.level_label.setText(node.level)
        self.seq_label.setText(_seq_text(node))
        self._show_parent(node, lookup)
        self._show_children(node, lookup)
        # a note has no level of its own, no place in a prompt and no parent or children
        note = is_note(node)
        for row in _NOT_FOR_NOTES:
            self.meta.setRowVisible(row, not note)

    def show_title(self, node: Node, *, keep_dirty: bool) -> None:
        """Show the node's title; with ``keep_dirty`` a title being typed stays, with the
        title it was based on (its write is checked against that)."""
        if keep_dirty and self.title.is_dirty():
            return
        self.title.set_value(node.title)
        self.clear_title_status()
        if not keep_dirty:
            self.title_conflict.dismiss()

    def title_unsaved(self) -> bool:
        """True while the title holds typing neither written nor being written, or a conflict."""
        title = self.title
        return self.title_conflict.pending or (title.is_dirty() and not title.busy)

    def show_title_conflict(self, theirs: str) -> None:
        """The stored title moved on to ``theirs`` while the person typed theirs."""
        self.title_theirs = theirs
        self.title_conflict.show_conflict(str(self.title.draft()), theirs)

    def discard_title(self) -> None:
        self.title_conflict.dismiss()
        self.title.revert()
        self.clear_title_status()

    def label_widgets(self) -> list[QWidget]:
        return [
            w
            for i in range(self.meta.rowCount())
            if (item := self.meta.itemAt(i, W.QFormLayout.ItemRole.LabelRole)) is not None
            and (w := item.widget()) is not None
        ]

    def set_actions(self, archive: QAction, restore: QAction, archived: bool) -> None:
        """Show the button of the action that applies (Archive, or Restore when archived)."""
        self.archive_button.setDefaultAction(archive)
        self.restore_button.setDefaultAction(restore)
        self.archive_button.setVisible(not archived)
        self.restore_button.setVisible(archived)

    def set_mark_current_action(self, action: QAction) -> None:
        """The "Mark as current" button beside the seq (shown only while it applies)."""
        self.mark_current_button.setDefaultAction(action)
        self.mark_current_button.setVisible(action.isEnabled())
        action.changed.connect(self._on_mark_current_changed)

    def _on_mark_current_changed(self) -> None:
        action = self.mark_current_button.defaultAction()
        if action is not None:
            self.mark_current_button.setVisible(action.isEnabled())

    def _show_badges(self, node: Node) -> None:
        _clear(self._badges)
        self._badges.addWidget(type_badge(node.type))
        if is_note(node):
            nugget = badge(nugget_of(node) or tr("no nugget"), NUGGET_BADGE)
            nugget.setToolTip(tr("The nugget this note belongs to"))
            self._badges.addWidget(nugget)
        if node.archived:
            hidden = is_note(node)  # a Nuggets note is hidden, not archived
            self._badges.addWidget(
                badge(tr("hidden") if hidden else tr("archived"), ARCHIVED_BADGE)
            )
        if node.semantic_rollup:
            text = tr("rollup · depth {depth}").format(depth=node.semantic_depth)
            self._badges.addWidget(badge(text, "#7f8c8d"))

    def _show_injection(self, node: Node, injection: InjectionState) -> None:
        _clear(self.injection)
        roles = {
            "always": injection.always_inject_ids,
            "recall": injection.recall_selected_ids,
            "visible": injection.visible_ids,
        }
        for style in injection_styles():
            if node.id in roles[style.key]:
                mark = plain_label(f"{style.badge} {_SHORT[style.key]()}")
                mark.setStyleSheet(f"color: {style.color}; font-weight: bold;")
                mark.setToolTip(style.label)
                self.injection.addWidget(mark)
        if not self.injection.count():
            none = plain_label(tr("not injected"))
            none.setEnabled(False)
            self.injection.addWidget(none)
        self.injection.addStretch(1)

    def _show_parent(self, node: Node, lookup: NodeLookup) -> None:
        parent = lookup(node.parent_id) if node.parent_id else None
        self.parent_button.setVisible(parent is not None)
        self.no_parent.setVisible(parent is None)
        if node.parent_id and parent is None:
            self.no_parent.setText(tr("{id} (missing)").format(id=node.parent_id))
        else:
            self.no_parent.setText(tr("none (top level)"))
        if parent is not None:
            set_button_text(self.parent_button, parent.title)
            self.parent_button.setToolTip(f"{parent.type} · {parent.id}\n{parent.title}")
            self.parent_button.setProperty("node_id", parent.id)

    def _show_children(self, node: Node, lookup: NodeLookup) -> None:
        self.child_list.clear()
        for child_id in node.children_ids:
            child = lookup(child_id)
            item = W.QListWidgetItem(elide_end(child.title if child is not None else child_id))
            item.setData(Qt.ItemDataRole.UserRole, child_id)
            item.setIcon(dot_icon(type_color(child.type) if child is not None else "#999999"))
            if child is not None:
                item.setToolTip(f"{child.type} · {child.id}\n{child.title}")
            self.child_list.addItem(item)
        count = len(node.children_ids)
        self.child_list.setVisible(count > 0)
        self.no_children.setVisible(count == 0)
        rows = min(CHILD_ROWS, max(1, count))
        row_height = max(self.child_list.sizeHintForRow(0), 18) if count else 18
        self.child_list.setFixedHeight(rows * row_height + 2 * self.child_list.frameWidth() + 2)

    # -- title status ------------------------------------------------------------------------------
    def show_title_error(self, message: str) -> None:
        self.title_status.setProperty("error", True)
        self.title_status.setStyleSheet(f"color: {ERROR_COLOR};")
        self.title_status.setText(message)
        self.title_status.setVisible(True)

    def show_title_busy(self, busy: bool) -> None:
        self.title.set_busy(busy)
        if busy:
            self.title_status.setProperty("error", False)
            self.title_status.setStyleSheet("color: palette(mid);")
            self.title_status.setText(tr("Saving…"))
            self.title_status.setVisible(True)
        elif not self.title_status.property("error"):
            self.clear_title_status()

    def clear_title_status(self) -> None:
        self.title_status.setProperty("error", False)
        self.title_status.clear()
        self.title_status.setVisible(False)

    @property
    def title_error(self) -> str:
        return self.title_status.text() if self.title_status.property("error") else ""

    # -- slots -------------------------------------------------------------------------------------
    def _on_take_theirs(self) -> None:
        self.title_conflict.dismiss()
        self.title.set_value(self.title_theirs)
        self.clear_title_status()

    def _on_title_committed(self, value: object) -> None:
        self.title_committed.emit(str(value))

    def _on_parent_clicked(self) -> None:
        node_id = self.parent_button.property("node_id")
        if node_id:
            self.node_clicked.emit(str(node_id))

    def _on_child_clicked(self, item: W.QListWidgetItem) -> None:
        self.node_clicked.emit(str(item.data(Qt.ItemDataRole.UserRole)))


def _meta_label(text: str) -> W.QLabel:
    label = plain_label(text)
    label.setEnabled(False)  # the palette's muted text colour
    label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
    return label


def _clear(layout: W.QBoxLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        if item is not None and (widget := item.widget()) is not None:
            widget.hide()
            widget.deleteLater()


def _row_cell(layout: W.QHBoxLayout) -> QWidget:
    cell = QWidget()
    cell.setLayout(layout)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(8)
    return cell


def _stack(*widgets: QWidget) -> QWidget:
    """Several widgets in one form cell, only one of which is visible at a time."""
    cell = QWidget()
    layout = W.QVBoxLayout(cell)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout.addWidget(widget)
    return cell


def _seq_text(node: Node) -> str:
    text = str(node.seq_to)
    if node.floor_range is not None:
        start, end = node.floor_range
        text += "   " + tr("floors {start}–{end}").format(start=start, end=end)
    return text

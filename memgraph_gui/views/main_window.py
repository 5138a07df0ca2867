"""The main window: the graph in the centre, the timeline and the inspector as docks, menus,
a find box, and a status bar. It wires panes to the ``AppModel``; panes never talk to each other.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.opening import OpenProblem
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views import unsaved
from memgraph_gui.views.dialogs import show_error
from memgraph_gui.views.embedding_profile import EmbeddingProfileAction
from memgraph_gui.views.file_actions import FileActions
from memgraph_gui.views.focus_frame import FocusFrame
from memgraph_gui.views.graph import GraphView
from memgraph_gui.views.graph.find_box import FindBox, FindStepper
from memgraph_gui.views.help import ShortcutsDialog, about_box, shortcuts
from memgraph_gui.views.inspector import NodeInspector
from memgraph_gui.views.menu_text import menu_item
from memgraph_gui.views.note_merge import NoteMerge
from memgraph_gui.views.nuggets_file_actions import NuggetsFileActions
from memgraph_gui.views.qt import (
    QApplication,
    QCloseEvent,
    QDialog,
    QDockWidget,
    QKeySequence,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    Qt,
    QtCore,
    QtGui,
    QTimer,
    QToolBar,
    QtWidgets,
    QWidget,
    is_alive,
    tr,
)
from memgraph_gui.views.recall_lab import RecallLabPanel
from memgraph_gui.views.status_bar import StatusPanel
from memgraph_gui.views.timeline.panel import TimelinePanel
from memgraph_gui.views.trust_lens import LensControls
from memgraph_gui.views.undo_conflict import UndoConflictDialog
from memgraph_gui.views.undo_keys import UndoKeys
from memgraph_gui.views.unsaved import Ask, settle
from memgraph_gui.views.window_settings import load_bytes, save_bytes
from memgraph_gui.views.wizard import CompactionActions

RECALL_LAB_KEY = "Ctrl+Shift+L"
RECALL_LAB_SHARE = 0.42  # of the window's height, the first time the Recall lab is shown
GRAPH_LEAST_HEIGHT = 0.4  # of the window's height: below it the Recall lab gives way
DOCK_SHARE = (0.27, 0.21)  # of the window's width: timeline, inspector (the graph keeps > half)


class MainWindow(QMainWindow):
    """Top-level window over one ``AppModel``."""

    def __init__(self, app: AppModel) -> None:
        super().__init__()
        self._app = app
        self._pending_select: str | None = None
        self.undo_conflict: UndoConflictDialog | None = None  # the refused undo on screen
        self.ask_unsaved: Ask = (
            unsaved.ask_unsaved
        )  # Save / Discard / Cancel on close (tests replace it)
        self.setObjectName("memgraph-main")
        self.timeline_panel = TimelinePanel(app)
        self.timeline = self.timeline_panel.model
        self.status = StatusPanel(app, self.statusBar())
        self.files = FileActions(app, self, self.status)
        self.nuggets_files = NuggetsFileActions(app, self, self.status)
        self.files.opened.connect(self._on_opened)
        self.files.before_leaving = self._leave_memory
        self.files.open_failed.connect(self._forget_pending_select)
        self.files.nothing_open.connect(self._on_nothing_open)
        self.help_dialog: QDialog | None = None  # the shortcuts list or About box on screen
        self._no_memory = False
        self.compaction = CompactionActions(app, self)
        self._build_centre()
        self.timeline_dock = self._dock(
            tr("Timeline"), "timeline", self.timeline_panel, Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self.inspector = NodeInspector(app)
        self.inspector_dock = self._dock(
            tr("Inspector"), "inspector", self.inspector, Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.note_merge = NoteMerge(app, self)
        self.graph_view.node_menu_actions.append(self.note_merge.action)
        self.timeline_panel.table.addAction(self.note_merge.action)  # its context menu
        self.timeline_panel.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.lens_controls = LensControls(app, self)  # View as…: the banner goes on top
        self._build_find_bar()
        self._build_menus()
        self._build_focus_chain()
        self.timeline_panel.filter_cleared.connect(self.find_box.clear)
        self._inspector_width = QTimer(self, singleShot=True, interval=0)
        self._inspector_width.timeout.connect(self.fit_inspector_width)
        app.selection.changed.connect(lambda *_: self._inspector_width.start())
        app.op_failed.connect(self._on_op_failed)
        app.busy_changed.connect(self._on_busy_changed)
        app.store_replaced.connect(self._show_title)
        self._show_title()
        self._restore_layout()
        self.lens_controls.refresh()  # (a restored layout does not decide the banner)

    # -- building ------------------------------------------------------------------------------------
    def _build_centre(self) -> None:
        self.graph_view = GraphView(self._app)
        self.setCentralWidget(self.graph_view)
        self.graph_view.progress_changed.connect(self._on_layout_progress)
        self.files.previewed.connect(self.graph_view.show_preview)
        self.files.open_failed.connect(self.graph_view.cancel_preview)
        self._build_recall_lab()

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{name}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_recall_lab(self) -> None:
        """The Recall lab, a dock along the bottom (hidden until View ▸ Recall Lab); the graph
        marks its rankings only while it is shown."""
        self._recall_lab_sized = False
        self.recall_lab = RecallLabPanel(self._app)
        self.recall_lab.set_preferences_action(self.compaction.preferences)
        self.recall_lab_dock = self._dock(
            tr("Recall Lab"), "recall-lab", self.recall_lab, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.recall_lab_dock.hide()
        self._app.recall_lab.set_marking(False)
        self.recall_lab_dock.visibilityChanged.connect(self._on_recall_lab_shown)
        toggle = self.recall_lab_dock.toggleViewAction()
        toggle.setText(tr("Recall &Lab"))
        toggle.setShortcut(QKeySequence(RECALL_LAB_KEY))
        toggle.triggered.connect(self._on_recall_lab_toggled)
        toggle.setToolTip(
            tr("What would recall pick for a message? ({key})").format(key=RECALL_LAB_KEY)
        )

    def _on_recall_lab_shown(self, _visible: bool) -> None:
        self._app.recall_lab.set_marking(not self.recall_lab_dock.isHidden())

    def _on_recall_lab_toggled(self, shown: bool) -> None:
        """View ▸ Recall Lab: the first showing takes a share of the window's height (later
        ones keep the height it was left at); the message box gets the keyboard."""
        dock = self.recall_lab_dock
        if not shown:
            return
        if not self._recall_lab_sized and not dock.isFloating():
            self._recall_lab_sized = True
            QTimer.singleShot(0, self._size_recall_lab)  # once the dock is in the layout
        self.recall_lab.message.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _size_recall_lab(self) -> None:
        dock = self.recall_lab_dock
        if is_alive(dock) and dock.isVisible() and not dock.isFloating():
            height = int(self.height() * RECALL_LAB_SHARE)
            self.resizeDocks([dock], [height], Qt.Orientation.Vertical)

    def _build_focus_chain(self) -> None:
        """Tab goes Find box → timeline → graph → inspector (its fields, top to bottom) → the
        timeline's filters → Find box again, never cell by cell through the table; the part
        that has the keyboard is framed (``focus_frame``). See ``focusNextPrevChild``."""
        graph = self.graph_view.plot
        graph.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.graph_view.setFocusProxy(graph)
        self.inspector.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # a stop even with no node
        self.focus_frame = FocusFrame(
            [self.find_box, self.timeline_panel, self.graph_view, self.inspector], self
        )

    def tab_stops(self) -> list[QWidget]:
        """Where Tab goes, in order (computed now: the inspector's fields change per node)."""
        inspector = tab_stops_in(self.inspector) or [self.inspector]
        filters = tab_stops_in(self.timeline_panel.filters)
        return [
            self.find_box,
            self.timeline_panel.table,
            self.graph_view.plot,
            *inspector,
            *filters,
            *self.recall_lab.tab_stops(),
        ]

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab / Shift+Tab anywhere in the window (children pass it up to here): the next stop
        of ``tab_stops``; focus outside them moves as Qt would."""
        focused = QApplication.focusWidget()
        stops = [w for w in self.tab_stops() if _can_focus(w)]
        here = next_stop = None
        for index, stop in enumerate(stops):
            if focused is not None and (focused is stop or stop.isAncestorOf(focused)):
                here = index  # (the innermost stop that holds the focus wins: go on looking)
        if here is None or not stops:
            return super().focusNextPrevChild(next)
        next_stop = stops[(here + (1 if next else -1)) % len(stops)]
        reason = Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason
        next_stop.setFocus(reason)
        return True

    def _build_find_bar(self) -> None:
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.lens_controls.banner)  # its own
        self.addToolBarBreak(Qt.ToolBarArea.TopToolBarArea)  # row, above the find bar
        bar = QToolBar(tr("Find"), self)
        bar.setObjectName("toolbar-find")
        bar.setMovable(False)
        self.find_box = FindBox()
        self.find_box.setPlaceholderText(tr("Find in graph and timeline (Ctrl+F)…"))
        self.find_box.setClearButtonEnabled(True)
        self.find_box.setMaximumWidth(360)
        bar.addWidget(self.find_box)
        self.find_stepper = FindStepper(self.find_box, self.graph_view)  # Enter / Shift+Enter
        bar.addWidget(self.find_stepper.label)  # "12 matches"
        bar.addSeparator()
        bar.addAction(self.lens_controls.view_as)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self._find_timer = QTimer(self, singleShot=True, interval=200)
        self._find_timer.timeout.connect(self._apply_find)
        self.find_box.textChanged.connect(self._find_timer.start)

    def _build_menus(self) -> None:
        self._file_menu()
        self._edit_menu()
        self._view_menu()
        self._tools_menu()
        self._help_menu()

    def _file_menu(self) -> None:
        menu = self.menuBar().addMenu(tr("&File"))
        files = self.files
        menu.addActions([files.new, files.open])
        menu.addMenu(files.recent_menu)
        menu.addAction(files.demo)
        menu.addSeparator()
        menu.addActions([files.import_luker, files.export_luker])
        menu.addActions([self.nuggets_files.import_action, self.nuggets_files.export_action])
        menu.addSeparator()
        quit_action = menu.addAction(tr("&Quit"))
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)

    def _edit_menu(self) -> None:
        menu = self.menuBar().addMenu(tr("&Edit"))
        self.undo_action = menu.addAction(tr("&Undo"))
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self._on_undo)
        self.redo_action = menu.addAction(tr("&Redo"))
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.redo_action.triggered.connect(self._on_redo)
        self.undo_keys = UndoKeys(self, self.undo_action, self.redo_action)
        stack = self._app.undo.stack
        for signal in (
            stack.indexChanged,
            stack.cleanChanged,
            stack.canUndoChanged,
            stack.canRedoChanged,
        ):
            signal.connect(self._update_undo_actions)
        self._update_undo_actions()
        menu.addSeparator()
        menu.addActions(list(self.inspector.edit_actions()))
        menu.addAction(self.note_merge.action)
        menu.addSeparator()
        self.edit_menu = menu
        find = menu.addAction(tr("&Find…"))
        find.setShortcut(QKeySequence.StandardKey.Find)
        find.triggered.connect(self._focus_find)
        menu.addSeparator()
        menu.addAction(self.compaction.preferences)

    def _view_menu(self) -> None:
        self.view_menu = menu = self.menuBar().addMenu(tr("&View"))
        graph = self.graph_view.graph_actions
        menu.addActions([graph.fit, graph.focus])
        hops = menu.addMenu(tr("Focus &depth"))
        hops.addActions(list(graph.hops.values()))
        menu.addSeparator()
        levels = menu.addMenu(tr("&Level"))
        levels.addActions(list(graph.levels.values()))
        menu.addActions([graph.prompt_view, graph.arrange_time, graph.unfold, graph.fold])
        menu.addSeparator()
        menu.addActions([graph.show_hierarchy, graph.show_relations, graph.legend])
        menu.addSeparator()
        menu.addAction(graph.relayout)
        menu.addSeparator()
        menu.addAction(self.timeline_dock.toggleViewAction())
        self.view_menu.addAction(self.inspector_dock.toggleViewAction())
        menu.addAction(self.recall_lab_dock.toggleViewAction())
        menu.addSeparator()
        lens = self.lens_controls
        menu.addActions([lens.view_as, lens.retrieve, lens.full_view])

    def _tools_menu(self) -> None:
        self.tools_menu = self.menuBar().addMenu(tr("&Tools"))
        self.tools_menu.addActions(
            [self.compaction.compaction_wizard, self.compaction.review_rollups]
        )
        self.tools_menu.addSeparator()
        self.embedding_profile = EmbeddingProfileAction(self._app, self)
        self.tools_menu.addAction(self.embedding_profile.action)

    def _help_menu(self) -> None:
        self.help_menu = self.menuBar().addMenu(tr("&Help"))
        self.shortcuts_action = self.help_menu.addAction(tr("&Keyboard shortcuts"))
        self.shortcuts_action.setShortcut(QKeySequence(Qt.Key.Key_F1))
        self.shortcuts_action.triggered.connect(self.show_shortcuts)
        self.about_action = self.help_menu.addAction(tr("&About memgraph-gui"))
        self.about_action.triggered.connect(self.show_about)

    def show_shortcuts(self) -> ShortcutsDialog:
        """Help ▸ Keyboard shortcuts: every key of the window's actions, read from them now."""
        menus = [a.menu() for a in self.menuBar().actions() if a.menu() is not None]
        rows = shortcuts(
            [m for m in menus if isinstance(m, QMenu)],
            [
                (tr("Graph"), self.graph_view.actions()),
                (tr("Inspector"), self.inspector.actions()),
                (tr("Window"), self.actions()),
            ],
        )
        dialog = ShortcutsDialog(rows, self)
        self._show_help(dialog)
        return dialog

    def show_about(self) -> QMessageBox:
        """Help ▸ About: the installed version and the open store's path."""
        box = about_box(self, self._app.path)
        self._show_help(box)
        return box

    def _show_help(self, dialog: QDialog) -> None:
        if self.help_dialog is not None and is_alive(self.help_dialog):
            self.help_dialog.close()
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.help_dialog = dialog
        dialog.open()

    # -- state -----------------------------------------------------------------------------------
    def _show_title(self) -> None:
        path = self._app.opening or self._app.path  # (the file coming, while the app stands in)
        name = Path(path).name if path != ":memory:" else tr("(unsaved memory)")
        if self._no_memory:
            name = tr("no memory open")
        self.setWindowTitle(tr("{name} — memgraph").format(name=name))
        self.setWindowFilePath(path if path != ":memory:" else "")

    def _update_undo_actions(self, *_args: object) -> None:
        stack = self._app.undo.stack
        if not is_alive(stack):
            return
        busy = self._app.runner.busy
        self.undo_action.setEnabled(stack.canUndo() and not busy)
        self.redo_action.setEnabled(stack.canRedo() and not busy)
        undo_text, redo_text = stack.undoText(), stack.redoText()
        self.undo_action.setText(
            tr("&Undo {label}").format(label=menu_item(undo_text)) if undo_text else tr("&Undo")
        )
        self.redo_action.setText(
            tr("&Redo {label}").format(label=menu_item(redo_text)) if redo_text else tr("&Redo")
        )
        self.undo_action.setToolTip(undo_text)
        self.redo_action.setToolTip(redo_text)

    def _restore_layout(self) -> None:
        geometry, state = load_bytes("window/geometry"), load_bytes("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1360, 820)
        if state is not None:
            self.restoreState(state)
            self._banner_on_its_own_row()  # a state saved before the banner put it anywhere
        else:
            self.fit_docks(force=True)

    def _banner_on_its_own_row(self) -> None:
        """The lens's banner across the top, on a row of its own above the find bar."""
        banner, find_bar = self.lens_controls.banner, self.find_box.parentWidget()
        if not isinstance(find_bar, QToolBar):
            return
        self.removeToolBar(banner)
        self.insertToolBar(find_bar, banner)
        self.insertToolBarBreak(find_bar)

    def fit_docks(self, *, force: bool = False) -> None:
        """Give the docks their share of the width (``DOCK_SHARE``) when ``force``, or when the
        graph got less than half of the window (a smaller window, a restored layout): docks give
        way, down to their minimum widths."""
        docks = [
            d
            for d in (self.timeline_dock, self.inspector_dock)
            if d.isVisible() or not self.isVisible()
        ]
        docks = [d for d in docks if not d.isFloating() and not d.isHidden()]
        if not docks:
            return
        width = self.width()
        if not force and self.graph_view.width() >= width / 2:
            return
        self.fit_inspector_width()
        shares = dict(zip((self.timeline_dock, self.inspector_dock), DOCK_SHARE, strict=True))
        separator = self.style().pixelMetric(
            QtWidgets.QStyle.PixelMetric.PM_DockWidgetSeparatorExtent
        )
        budget = min(width * sum(shares[d] for d in docks), width / 2 - len(docks) * separator - 2)
        least = [_least_width(d) for d in docks]
        wanted = [max(low, width * shares[d]) for d, low in zip(docks, least, strict=True)]
        over = sum(wanted) - budget
        slack = [w - low for w, low in zip(wanted, least, strict=True)]
        if over > 0 and sum(slack) > 0:  # give way, each dock down towards its minimum
            cut = min(1.0, over / sum(slack))
            wanted = [w - cut * room for w, room in zip(wanted, slack, strict=True)]
        self.resizeDocks(docks, [int(w) for w in wanted], Qt.Orientation.Horizontal)

    def fit_inspector_width(self) -> None:
        """The inspector's fields scroll up and down, never sideways: its dock is kept at least
        as wide as the node's form needs (nothing cut off at the right)."""
        scroll = self.inspector.findChild(QScrollArea)
        content = scroll.widget() if scroll is not None else None
        if scroll is None or content is None:
            return
        around = scroll.verticalScrollBar().sizeHint().width() + 2 * scroll.frameWidth()
        layout = self.inspector.layout()
        margins = layout.contentsMargins() if layout is not None else None
        sides = margins.left() + margins.right() if margins is not None else 0
        need = content.minimumSizeHint().width() + around + sides
        if need != self.inspector.minimumWidth():
            self.inspector.setMinimumWidth(need)
            QTimer.singleShot(0, self._after_resize)  # the graph may have lost its half

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self._after_window_resize)  # once the layout placed the docks

    def _after_resize(self) -> None:
        if is_alive(self):
            self.fit_docks()

    def _after_window_resize(self) -> None:
        if is_alive(self):
            self.fit_docks()
            self._fit_recall_lab()

    def _fit_recall_lab(self) -> None:
        """After the window was resized: the Recall lab gives way when the graph got less
        than ``GRAPH_LEAST_HEIGHT`` of the window's height (a layout left in a taller window),
        back to its first share. (A person may still drag it taller.)"""
        dock = self.recall_lab_dock
        if dock.isHidden() or dock.isFloating() or not self.isVisible():
            return
        if self.graph_view.height() < self.height() * GRAPH_LEAST_HEIGHT:
            self._size_recall_lab()

    def open_path(self, path: str) -> None:
        """Open ``path`` (off the GUI thread); see ``FileActions.open_path``."""
        self.files.open_path(path)

    def open_demo(self) -> None:
        """Open the bundled demo memory (off the GUI thread)."""
        self.files.open_demo()

    def select_when_open(self, node_id: str) -> None:
        """Select ``node_id`` once the memory being opened is in (scripted runs, screenshots)."""
        self._pending_select = node_id
        if not self.files.opening:
            self._select_pending()

    def _forget_pending_select(self) -> None:
        """The open it was for failed or was superseded: select nothing in a later one."""
        self._pending_select = None

    def _select_pending(self) -> None:
        node_id, self._pending_select = self._pending_select, None
        if node_id and self._app.node(node_id) is not None:
            self._app.selection.select([node_id])

    @property
    def problems_shown(self) -> list[OpenProblem]:
        """Every problem reported to the user so far."""
        return self.files.problems_shown

    def settled(self) -> bool:
        """True when nothing is opening, writing, laying out or filling in edges (for screenshots
        and tests)."""
        return (
            not self.files.opening
            and not self._app.runner.busy
            and not self.graph_view.layout_job.running
            and not self.graph_view.edges.filling
        )

    # -- handlers ------------------------------------------------------------------------------------
    def _on_undo(self) -> None:
        self._app.undo_last(on_error=self._on_undo_failed)

    def _on_redo(self) -> None:
        self._app.redo_last(on_error=self._on_undo_failed)

    def _on_undo_failed(self, error: MemgraphError) -> None:
        if error.code != "UNDO_CONFLICT" or "step" not in error.details:
            show_error(self, tr("Cannot undo or redo"), error)
            return
        if self.undo_conflict is not None and is_alive(self.undo_conflict):
            self.undo_conflict.close()
        dialog = UndoConflictDialog(
            error.details, self._app.origin, self, readable=self._app.undo.readable
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.skip_requested.connect(self._on_skip_step)
        dialog.force_requested.connect(self._on_undo_anyway)
        self.undo_conflict = dialog
        dialog.open()

    def _on_skip_step(self, batch_id: int) -> None:
        label = self._app.undo.stack.undoText()
        self._app.skip_step(
            batch_id,
            on_done=lambda _c: self.statusBar().showMessage(
                tr("Skipped “{label}”: it stays in the history, not undone.").format(label=label),
                8000,
            ),
            on_error=self._on_undo_failed,
        )

    def _on_undo_anyway(self, batch_id: int, seen: int) -> None:
        self._app.undo_anyway(batch_id, seen, on_error=self._on_undo_failed)

    def _on_op_failed(self, error: MemgraphError, _initiator: object | None) -> None:
        show_error(self, tr("The change was refused"), error)

    def _on_busy_changed(self, _busy: bool) -> None:
        self._update_undo_actions()

    def _on_opened(self, _path: str) -> None:
        self._set_no_memory(False)
        self._show_title()
        self._select_pending()

    def _on_nothing_open(self) -> None:
        """An open failed and no memory is open (only the empty stand-in the window started
        on): nothing can be edited until File ▸ Open, New or the demo."""
        self._set_no_memory(True)

    def _set_no_memory(self, none: bool) -> None:
        was, self._no_memory = self._no_memory, none
        for part in (self.graph_view, self.timeline_panel, self.inspector):
            part.setEnabled(not none)
        self.find_box.setEnabled(not none)
        if none:
            self.statusBar().showMessage(
                tr("No memory is open: File ▸ Open…, File ▸ New… or File ▸ Open the demo memory.")
            )
        elif was:
            self.statusBar().clearMessage()
        self._show_title()

    @property
    def no_memory(self) -> bool:
        """True while no memory is open (a failed open left only the empty stand-in)."""
        return self._no_memory

    def _focus_find(self) -> None:
        self.find_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.find_box.selectAll()

    def _apply_find(self) -> None:
        text = self.find_box.text()
        self.graph_view.set_search(text)
        self.timeline_panel.set_text_filter(text)

    def _on_layout_progress(self, text: str) -> None:
        if text:
            self.status.show_progress(text, owner="layout")
        else:
            self.status.hide_progress(owner="layout")

    def _leave_memory(self, go: Callable[[], object]) -> bool:
        """Before the open memory is left (closed, another opened, replaced): unsaved edits in
        the inspector and the rollup review are settled (Save / Discard / Cancel). True to go on
        now; on Save ``go`` runs once everything is written."""
        return settle(
            self,
            [self.inspector, self.compaction.review],
            self.ask_unsaved,
            then=go,
            failed=self._on_unsaved_not_saved,
        )

    def _on_unsaved_not_saved(self) -> None:
        """Save was chosen but an edit could not be written (refused, or a conflict to resolve):
        nothing was left; say why, since the edit may sit in a hidden dock."""
        if self.inspector.has_unsaved_edits():
            self.inspector_dock.show()
        self.statusBar().showMessage(
            tr("Nothing was left: an edit could not be saved. Resolve it where it is shown."),
            10000,
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._leave_memory(self.close):
            event.ignore()
            return
        save_bytes("window/geometry", self.saveGeometry())
        save_bytes("window/state", self.saveState())
        self.graph_view.shutdown()
        super().closeEvent(event)


def _least_width(dock: QDockWidget) -> int:
    widget = dock.widget()
    inner = max(widget.minimumSizeHint().width(), widget.minimumWidth()) if widget else 0
    return max(dock.minimumSizeHint().width(), inner)


def _can_focus(widget: QWidget) -> bool:
    return (
        widget.isVisible()
        and widget.isEnabled()
        and widget.focusProxy() is None
        and bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)
    )


def tab_stops_in(part: QWidget) -> list[QWidget]:
    """The widgets Tab visits inside ``part``, top to bottom, then left to right (plain scroll
    areas are no stops: their contents are)."""
    found = [w for w in part.findChildren(QWidget) if _can_focus(w) and type(w) is not QScrollArea]
    origin = QtCore.QPoint(0, 0)
    return sorted(found, key=lambda w: (w.mapTo(part, origin).y(), w.mapTo(part, origin).x()))

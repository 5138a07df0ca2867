"""The main window: timeline on the left, an overview of the memory on the right.

(The full desk — graph view, inspector, compaction wizard — is built on this frame.)
"""

from __future__ import annotations

import time

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.opening import try_open
from memgraph_gui.app.qt import (
    QAction,
    QFileDialog,
    QFormLayout,
    QFrame,
    QKeySequence,
    QLabel,
    QMainWindow,
    QSplitter,
    Qt,
    QTableView,
    QVBoxLayout,
    QWidget,
    tr,
)
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.views.dialogs import show_problem
from memgraph_gui.views.timeline_model import TimelineTableModel


class MainWindow(QMainWindow):
    """Top-level window over one ``AppModel``."""

    def __init__(self, app: AppModel) -> None:
        super().__init__()
        self._app = app
        self.setWindowTitle(tr("memgraph — memory graph desk"))
        self.timeline = TimelineTableModel(app)
        self._list = QTableView()
        self._list.setModel(self.timeline)
        self._list.verticalHeader().setVisible(False)
        self._list.verticalHeader().setDefaultSectionSize(22)
        self._list.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self._list.setWordWrap(False)
        header = self._list.horizontalHeader()
        for column, width in ((0, 60), (1, 64), (2, 190), (3, 190)):
            self._list.setColumnWidth(column, width)
        header.setStretchLastSection(True)
        self._list.scrollToBottom()
        self._overview = QLabel()
        self._overview.setTextFormat(Qt.TextFormat.PlainText)
        self._overview.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self._counts = QFormLayout()
        splitter = QSplitter()
        splitter.addWidget(self._list)
        splitter.addWidget(self._side_panel())
        splitter.setSizes([860, 340])
        self.setCentralWidget(splitter)
        self._build_menus()
        app.changes_applied.connect(self._on_changes_applied)
        app.store_replaced.connect(self.refresh)
        self.refresh()

    def _side_panel(self) -> QWidget:
        panel = QFrame()
        layout = QVBoxLayout(panel)
        heading = QLabel(tr("This memory"))
        heading.setStyleSheet("font-weight: bold; font-size: 14pt;")
        layout.addWidget(heading)
        layout.addLayout(self._counts)
        legend = QLabel(
            tr(
                "◆ always injected   ★ picked by recall for the next prompt\n"
                "Grey italic rows are archived."
            )
        )
        legend.setTextFormat(Qt.TextFormat.PlainText)
        legend.setWordWrap(True)
        layout.addWidget(legend)
        layout.addWidget(self._overview)
        layout.addStretch(1)
        return panel

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(tr("&File"))
        open_action = QAction(tr("&Open…"), self)
        open_action.setShortcut(QKeySequence.StandardKey.Open)
        open_action.triggered.connect(self._open_file)
        file_menu.addAction(open_action)
        quit_action = QAction(tr("&Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)

    def refresh(self) -> None:
        """Recompute the status bar from the model."""
        counts = self._app.counts()
        state = counts.injection
        external = self._app.last_external_change
        when = time.strftime("%H:%M:%S", time.localtime(external)) if external else tr("none")
        self.statusBar().showMessage(
            tr(
                "{path}  ·  {n} nodes, {e} edges  ·  injected {i}  ·  last external change {t}"
            ).format(
                path=counts.path,
                n=f"{counts.nodes:,}",
                e=f"{counts.edges:,}",
                i=len(state.injected_ids),
                t=when,
            )
        )

    def _on_changes_applied(self, changes: ChangeSet, initiator: object | None) -> None:
        self.refresh()

    def _open_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, tr("Open memory"), "", tr("Memory stores (*.memgraph);;All files (*)")
        )
        if path:
            self.open_path(path)

    def open_path(self, path: str) -> None:
        """Open ``path`` in this window; a file that cannot be used is explained in a dialog and
        the current memory stays open."""
        store, problem = try_open(path)
        if store is not None:
            self._app.replace_store(store)
        if problem is not None:
            show_problem(self, problem)

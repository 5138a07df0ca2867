"""The Recall lab's route tabs: "Route input" (the blocks Luker's route model is shown for the
message, with a size estimate in tokens and a Copy button) and "Run recall" (send them to the
configured chat endpoint, the ids it picks and why, the preview of what the chat would get, and
"Apply as injection state"). Everything shown is plain text. GUI thread only."""

from __future__ import annotations

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.recall_route import Picked, Routed, hidden_by_lens
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.qt import (
    QAction,
    QApplication,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    Qt,
    QtCore,
    QtGui,
    QtWidgets,
    QVBoxLayout,
    QWidget,
    tr,
)

ID_ROLE = Qt.ItemDataRole.UserRole


def _text_box(name: str) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setObjectName(name)
    box.setReadOnly(True)
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    box.setTabChangesFocus(True)
    font = box.font()
    font.setFamily("monospace")
    font.setStyleHint(font.StyleHint.Monospace)
    box.setFont(font)
    return box


def _note(name: str) -> QLabel:
    label = QLabel("")
    label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


class RouteInputTab(QWidget):
    """The route model's input for the message: what it holds, about how many tokens, the
    text itself (read-only), and Copy."""

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._route = app.recall_lab.route
        self.summary = _note("recall-lab-route-summary")
        self.copy = QPushButton(tr("&Copy"))
        self.copy.setObjectName("recall-lab-route-copy")
        self.copy.setToolTip(tr("Copy the blocks and the message, as the route model reads them"))
        self.copy.clicked.connect(self.copy_text)
        self.text = _text_box("recall-lab-route-text")
        head = QHBoxLayout()
        head.addWidget(self.summary, 1)
        head.addWidget(self.copy, 0, Qt.AlignmentFlag.AlignTop)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 6, 4, 4)
        box.addLayout(head)
        box.addWidget(self.text, 1)
        self._shown: Routed | None = None
        self._filled: object | None = None  # the route input whose text the box holds
        self._route.routed_changed.connect(self._show)
        app.lens.changed.connect(self._on_lens_changed)
        self._show(self._route.routed)

    def _on_lens_changed(self) -> None:
        self._show(self._route.routed)

    def _show(self, routed: Routed | None) -> None:
        self._shown = routed
        route = routed.route if routed is not None else None
        self.copy.setEnabled(route is not None and not self._app.lens.on)
        if self._app.lens.on:
            self.summary.setText(hidden_by_lens())
            self._clear_text()
            return
        if routed is None:
            self.summary.setText(tr("Type a message to see what the route model would be shown."))
            self._clear_text()
            return
        if route is None:
            error = routed.error
            detail = f"{error.code}: {error.message}" if error is not None else ""
            self.summary.setText(
                tr("The route input could not be built. {detail}").format(detail=detail)
            )
            self._clear_text()
            return
        self.summary.setText(
            tr(
                "schema_overview: {types} types · candidateRows: {rows} rows · "
                "always-inject: {always} · about {tokens} tokens · built in {ms} ms"
            ).format(
                types=len(route.schema_overview),
                rows=len(route.candidate_rows),
                always=len(route.always_inject_ids),
                tokens=f"{route.tokens:,}",
                ms=f"{routed.seconds * 1000:.0f}",
            )
        )
        self._fill()

    def _fill(self) -> None:
        """Put the route input's text in the box, once per route input and only while the tab
        is shown (a 50k memory's is ~1.5 MB: ~20 ms to lay out)."""
        routed = self._shown
        route = routed.route if routed is not None else None
        if route is None or route is self._filled or not self.isVisible():
            return
        self._filled = route
        self.text.setPlainText(route.text)

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        self._fill()

    def _clear_text(self) -> None:
        self._filled = None
        self.text.setPlainText("")

    def copy_text(self) -> None:
        """Put the route input's text on the clipboard."""
        routed = self._shown
        if routed is not None and routed.route is not None and not self._app.lens.on:
            QApplication.clipboard().setText(routed.route.text)


class RunRecallTab(QWidget):
    """Run recall, the ids picked and why, the preview of what the chat would get, Apply."""

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._route = route = app.recall_lab.route
        self._preferences: QAction | None = None
        self._build()
        route.routed_changed.connect(self.refresh)
        route.recall_changed.connect(self._show_picked)
        route.recall_running_changed.connect(self.refresh)
        route.recall_failed.connect(self._on_failed)
        route.applied.connect(self._on_applied)
        route.apply_failed.connect(self._on_apply_failed)
        app.lens.changed.connect(self._on_lens_changed)
        self._show_picked(route.picked)

    def _build(self) -> None:
        self.run = QPushButton(tr("&Run recall"))
        self.run.setObjectName("recall-lab-run")
        self.run.clicked.connect(self._on_run)
        self.preferences = QPushButton(tr("&Preferences…"))
        self.preferences.setObjectName("recall-lab-preferences")
        self.preferences.setToolTip(tr("Set the AI chat endpoint Run recall sends to"))
        self.preferences.clicked.connect(self._open_preferences)
        self.status = _note("recall-lab-run-status")
        self.picks = QtWidgets.QTreeWidget()
        self.picks.setObjectName("recall-lab-picks")
        self.picks.setColumnCount(3)
        self.picks.setHeaderLabels(["#", tr("Picked"), tr("Why")])
        self.picks.setRootIsDecorated(False)
        self.picks.setUniformRowHeights(True)
        self.picks.setAlternatingRowColors(True)
        header = self.picks.header()
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QtWidgets.QHeaderView.ResizeMode.Interactive)
        header.resizeSection(1, 170)
        header.setStretchLastSection(True)
        self.picks.itemClicked.connect(self._on_item)
        self.picks.itemActivated.connect(self._on_item)
        self.unknown = _note("recall-lab-unknown")
        self.unknown.setStyleSheet("color: #8a5a00;")
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setChildrenCollapsible(False)
        split.addWidget(self._build_left())
        split.addWidget(self._build_right())
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 6, 4, 4)
        box.addWidget(split)

    def _build_left(self) -> QWidget:
        buttons = QHBoxLayout()
        buttons.addWidget(self.run)
        buttons.addWidget(self.preferences)
        buttons.addStretch(1)
        left = QWidget()
        left_box = QVBoxLayout(left)
        left_box.setContentsMargins(0, 0, 0, 0)
        left_box.addLayout(buttons)
        left_box.addWidget(self.status)
        left_box.addWidget(self.picks, 1)
        left_box.addWidget(self.unknown)
        return left

    def _build_right(self) -> QWidget:
        self.preview = _text_box("recall-lab-preview")
        self.preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)  # no sideways
        self.apply = QPushButton(tr("&Apply as injection state"))
        self.apply.setObjectName("recall-lab-apply")
        self.apply.setToolTip(
            tr(
                "Write the picks as recallSelectedIds and the candidates as visibleIds: "
                "one step, undone with Ctrl+Z"
            )
        )
        self.apply.clicked.connect(self._on_apply)
        self.apply_status = _note("recall-lab-apply-status")
        right = QWidget()
        right_box = QVBoxLayout(right)
        right_box.setContentsMargins(0, 0, 0, 0)
        title = QLabel(tr("Preview injection: what the chat would get"))
        title.setTextFormat(Qt.TextFormat.PlainText)
        right_box.addWidget(title)
        right_box.addWidget(self.preview, 1)
        apply_row = QHBoxLayout()
        apply_row.addWidget(self.apply)
        apply_row.addWidget(self.apply_status, 1)
        right_box.addLayout(apply_row)
        return right

    def set_preferences_action(self, action: QAction) -> None:
        """The window's Preferences… (the Preferences button triggers it)."""
        self._preferences = action

    def tab_stops(self) -> list[QWidget]:
        """Where Tab goes in this tab, in order (hidden or disabled ones are skipped)."""
        return [self.run, self.preferences, self.picks, self.preview, self.apply]

    # -- showing -------------------------------------------------------------------------------------
    def refresh(self, *_args: object) -> None:
        """Run recall's button and what it says, as things are now (the endpoint is read
        again: Preferences may have changed it)."""
        route = self._route
        problem = route.problem()
        running = route.recall_running
        self.run.setEnabled(not problem and not running)
        self.run.setToolTip(problem or tr("Send the route input and the message to the endpoint"))
        needs_endpoint = problem.startswith(tr("Run recall needs"))
        self.preferences.setVisible(needs_endpoint and self._preferences is not None)
        if running:
            self.status.setText(tr("Asking the route model…"))
        elif problem:
            self.status.setText(problem)
        elif route.picked is None:
            self.status.setText(
                tr("Run recall sends the route input and the message to the AI endpoint.")
            )

    def _show_picked(self, picked: Picked | None) -> None:
        self.picks.clear()
        self.apply_status.setText("")
        self.apply.setEnabled(picked is not None)
        if picked is None:
            self.preview.setPlainText("")
            self.unknown.setText("")
            self.unknown.setVisible(False)
            self.refresh()
            return
        lens = self._app.lens.on  # titles as the actor may see them; no reasons, no preview
        items = []
        for rank, node_id in enumerate(picked.ids, start=1):
            node = self._app.node(node_id)
            if node is not None:
                title = node.title or node_id
            else:
                title = tr("(hidden by the lens)") if lens else node_id
            reason = "" if lens else picked.reasons.get(node_id, "")
            item = QtWidgets.QTreeWidgetItem([str(rank), title, reason])
            item.setData(0, ID_ROLE, node_id)
            item.setToolTip(1, title if node is None and lens else f"{title}\n{node_id}")
            item.setToolTip(2, reason)
            items.append(item)
        self.picks.addTopLevelItems(items)
        unknown = "" if lens else ", ".join(picked.unknown)
        self.unknown.setText(
            tr("The model also named ids that are not candidates (dropped): {ids}").format(
                ids=unknown
            )
            if unknown
            else ""
        )
        self.unknown.setVisible(bool(unknown))
        self.preview.setPlainText(hidden_by_lens() if lens else picked.preview)
        self.refresh()
        self.status.setText(
            tr("{model} picked {count} of {candidates} candidates in {s} s.").format(
                model=picked.model,
                count=len(picked.ids),
                candidates=len(picked.visible_ids),
                s=f"{picked.seconds:.1f}",
            )
        )

    def _on_lens_changed(self) -> None:
        self._show_picked(self._route.picked)

    def picked_ids(self) -> list[str]:
        """The ids listed, in the model's order (tests)."""
        count = self.picks.topLevelItemCount()
        found = (self.picks.topLevelItem(i) for i in range(count))
        return [str(item.data(0, ID_ROLE)) for item in found if item is not None]

    # -- handlers ------------------------------------------------------------------------------------
    def _on_run(self) -> None:
        self._route.run_recall()  # (refused: ``refresh`` says why)
        self.refresh()

    def _on_failed(self, message: str) -> None:
        self.refresh()
        self.status.setText(tr("Run recall failed: {message}").format(message=message))

    def _on_apply(self) -> None:
        if self._route.apply():
            self.apply.setEnabled(False)
            self.apply_status.setText(tr("Writing…"))

    def _on_applied(self) -> None:
        self.apply.setEnabled(self._route.picked is not None)
        self.apply_status.setText(tr("Applied: one step, Ctrl+Z undoes it."))

    def _on_apply_failed(self, error: MemgraphError) -> None:
        self.apply.setEnabled(self._route.picked is not None)
        self.apply_status.setText(
            tr("Not applied: {code}: {message}").format(code=error.code, message=error.message)
        )

    def _on_item(self, item: QtWidgets.QTreeWidgetItem, _column: int = 0) -> None:
        node_id = item.data(0, ID_ROLE)
        if isinstance(node_id, str) and self._app.node(node_id) is not None:
            self._app.selection.select([node_id], source=None)

    def _open_preferences(self) -> None:
        if self._preferences is not None:
            self._preferences.trigger()

    def changeEvent(self, event: QtCore.QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.ActivationChange and self.isActiveWindow():
            self.refresh()  # back from Preferences: the endpoint may be set now

    def showEvent(self, event: object) -> None:
        super().showEvent(event)  # type: ignore[arg-type]
        self.refresh()

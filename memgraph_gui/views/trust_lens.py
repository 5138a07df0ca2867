"""The window's trust lens controls: View ▸ View as… (Ctrl+Shift+V) opens ``ViewAsDialog`` (actor,
max sensitivity, scopes, authenticated); while the lens is on, ``LensBanner`` across the top of
the window says whose view this is and "Back to full view" returns to the curator's view in one
click, and View ▸ Retrieve for a Task… (Ctrl+Shift+R) asks for a task descriptor, a root limit
and hops (``RetrieveDialog``, the SDKs' defaults) and runs Membrane's ``retrieveGraph`` with the
lens's trust off the GUI thread; the graph marks its roots and the nodes reached with their hops
and the banner says what came back. What every pane shows under the lens comes from the app
model (``app.trust_lens``, ``app.lens_retrieval``)."""

from __future__ import annotations

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.lens_retrieval import MAX_HOPS, ROOT_LIMIT, Retrieved
from memgraph_gui.app.trust_lens import SENSITIVITIES, TrustContext, describe, make_trust
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.qt import (
    QAction,
    QDialog,
    QKeySequence,
    QMainWindow,
    QObject,
    Qt,
    QToolBar,
    QWidget,
    tr,
)
from memgraph_gui.views.qt import QtWidgets as W

VIEW_AS_KEY = "Ctrl+Shift+V"
RETRIEVE_KEY = "Ctrl+Shift+R"
BANNER_STYLE = (
    "QToolBar#trust-lens-banner { background: #fff3cd; border-bottom: 2px solid #e0a800;"
    " spacing: 8px; padding: 3px 8px; }"
    "QLabel#trust-lens-text { color: #5c4400; font-weight: bold; }"
)


class ViewAsDialog(QDialog):
    """Asks for the lens: actor id, max sensitivity (the five levels), scopes (comma-separated;
    none: every scope) and authenticated. ``trust()`` is the answer once accepted."""

    def __init__(self, parent: QWidget | None, current: TrustContext | None) -> None:
        super().__init__(parent)
        self.setObjectName("view-as-dialog")
        self.setWindowTitle(tr("View as"))
        self.actor = W.QLineEdit()
        self.actor.setPlaceholderText(tr("e.g. build-agent"))
        self.level = W.QComboBox()
        self.level.addItems(list(SENSITIVITIES))
        self.scopes = W.QLineEdit()
        self.scopes.setPlaceholderText(tr("comma-separated; empty: every scope"))
        self.authenticated = W.QCheckBox(tr("Authenticated"))
        self.error = W.QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setStyleSheet("color: #c0392b;")
        self.error.setVisible(False)
        given = current or TrustContext("low")
        self.actor.setText(given.actor_id)
        self.level.setCurrentText(given.max_sensitivity)
        self.scopes.setText(", ".join(given.scopes))
        self.authenticated.setChecked(given.authenticated)
        intro = W.QLabel(
            tr(
                "See the memory as this actor would through Membrane: records up to the "
                "level are shown in full, one level above redacted, higher ones and other "
                "scopes not at all."
            )
        )
        intro.setTextFormat(Qt.TextFormat.PlainText)
        intro.setWordWrap(True)
        form = W.QFormLayout()
        form.addRow(tr("Actor"), self.actor)
        form.addRow(tr("Up to sensitivity"), self.level)
        form.addRow(tr("Scopes"), self.scopes)
        form.addRow("", self.authenticated)
        buttons = W.QDialogButtonBox(
            W.QDialogButtonBox.StandardButton.Ok | W.QDialogButtonBox.StandardButton.Cancel
        )
        ok = buttons.button(W.QDialogButtonBox.StandardButton.Ok)
        ok.setText(tr("View as this actor"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = W.QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self._trust: TrustContext | None = None

    def accept(self) -> None:
        try:
            self._trust = make_trust(
                self.actor.text(),
                self.level.currentText(),
                self.scopes.text(),
                self.authenticated.isChecked(),
            )
        except MemgraphError as exc:
            self.error.setText(exc.message)
            self.error.setVisible(True)
            return
        super().accept()

    def trust(self) -> TrustContext | None:
        """The lens asked for (None until accepted)."""
        return self._trust


class RetrieveDialog(QDialog):
    """Asks for a task descriptor, the root limit and the hops (the SDKs' defaults: 10 and
    1). ``task``, ``root_limit`` and ``max_hops`` hold the answer."""

    def __init__(self, parent: QWidget | None, actor: str, task: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("retrieve-dialog")
        self.setWindowTitle(tr("Retrieve for a task"))
        intro = W.QLabel(
            tr(
                "What would {actor} get for this task? Membrane's retrieveGraph runs with the "
                "lens's trust; the graph marks the roots and the nodes reached, with their hops."
            ).format(actor=actor or tr("this actor"))
        )
        intro.setTextFormat(Qt.TextFormat.PlainText)
        intro.setWordWrap(True)
        self.task = W.QLineEdit(task)
        self.task.setPlaceholderText(tr("e.g. fix auth build error"))
        self.roots = W.QSpinBox()
        self.roots.setRange(1, 1000)
        self.roots.setValue(ROOT_LIMIT)
        self.hops = W.QSpinBox()
        self.hops.setRange(0, 10)
        self.hops.setValue(MAX_HOPS)
        form = W.QFormLayout()
        form.addRow(tr("Task"), self.task)
        form.addRow(tr("Root limit"), self.roots)
        form.addRow(tr("Max hops"), self.hops)
        buttons = W.QDialogButtonBox(
            W.QDialogButtonBox.StandardButton.Ok | W.QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(W.QDialogButtonBox.StandardButton.Ok).setText(tr("Retrieve"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = W.QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(buttons)


class LensBanner(QToolBar):
    """The strip across the top of the window while the lens is on: whose view this is, and
    "Back to full view"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("Trust lens"), parent)
        self.setObjectName("trust-lens-banner")
        self.setMovable(False)
        self.setFloatable(False)
        self.setStyleSheet(BANNER_STYLE)
        self.text = W.QLabel()
        self.text.setObjectName("trust-lens-text")
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setSizePolicy(W.QSizePolicy.Policy.Expanding, W.QSizePolicy.Policy.Preferred)
        self.back = W.QPushButton(tr("Back to full view"))
        self.back.setObjectName("trust-lens-back")
        self.back.setToolTip(tr("Leave the lens: the curator's full view of every node"))
        self.result = W.QLabel()
        self.result.setObjectName("trust-lens-result")
        self.result.setTextFormat(Qt.TextFormat.PlainText)
        self.clear_result = W.QPushButton(tr("Clear marks"))
        self.clear_result.setToolTip(tr("Take the retrieval's marks off the graph"))
        self.addWidget(self.text)
        self.result_action = self.addWidget(self.result)
        self.clear_action = self.addWidget(self.clear_result)
        self.back_action = self.addWidget(self.back)
        self.toggleViewAction().setVisible(False)  # shown by the lens, not by the person


class LensControls(QObject):
    """The lens's actions and banner in ``window`` over ``app``: ``view_as`` (View ▸ View as…,
    Ctrl+Shift+V), ``full_view`` (View ▸ Back to Full View) and ``banner``. ``ask`` asks for
    a lens (tests replace it)."""

    def __init__(self, app: AppModel, window: QMainWindow) -> None:
        super().__init__(window)
        self._app, self._window = app, window
        self.view_as = QAction(tr("View &as…"), window)
        self.view_as.setShortcut(QKeySequence(VIEW_AS_KEY))
        self.view_as.setStatusTip(
            tr("See the memory as one Membrane actor would: its trust decides what shows")
        )
        self.view_as.setIconText(tr("View as…"))
        self.full_view = QAction(tr("Back to &Full View"), window)
        self.full_view.setStatusTip(tr("Leave the lens: every node, as the curator sees it"))
        self.retrieve = QAction(tr("&Retrieve for a Task…"), window)
        self.retrieve.setShortcut(QKeySequence(RETRIEVE_KEY))
        self.retrieve.setIconText(tr("Retrieve for a task…"))
        self.retrieve.setStatusTip(
            tr("Run Membrane's retrieveGraph with the lens's trust and mark what it returns")
        )
        self.banner = LensBanner(window)
        self.view_as.triggered.connect(self.open_dialog)
        self.full_view.triggered.connect(self.back_to_full_view)
        self.retrieve.triggered.connect(self.open_retrieve)
        self.banner.back.clicked.connect(self.back_to_full_view)
        self.banner.clear_result.clicked.connect(app.lens.retrieval.clear)
        app.lens.changed.connect(self.refresh)
        retrieval = app.lens.retrieval
        retrieval.finished.connect(self._show_result)
        retrieval.cleared.connect(self._show_result)
        retrieval.failed.connect(self._on_failed)
        self.dialog: ViewAsDialog | None = None
        self.retrieve_dialog: RetrieveDialog | None = None
        self._last_task = ""
        self.banner.insertAction(self.banner.back_action, self.retrieve)  # on the banner too
        self._say("")
        self.refresh()

    def open_dialog(self) -> ViewAsDialog:
        """Open the View as dialog (non-blocking); accepted, it turns the lens on."""
        if self.dialog is not None:
            self.dialog.close()
        dialog = self.dialog = ViewAsDialog(self._window, self._app.lens.trust)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.look_as(dialog.trust()))
        dialog.destroyed.connect(self._forget_dialog)
        dialog.open()
        return dialog

    def _forget_dialog(self) -> None:
        self.dialog = None

    def look_as(self, trust: TrustContext | None) -> None:
        """Turn the lens to ``trust`` (None: the full view)."""
        self._app.lens.set_trust(trust)
        self.refresh()

    def back_to_full_view(self) -> None:
        """One click back to the curator's full view."""
        self.look_as(None)

    def open_retrieve(self) -> RetrieveDialog | None:
        """Ask for a task (non-blocking; only while the lens is on); accepted, it runs
        ``retrieveGraph`` off the GUI thread."""
        trust = self._app.lens.trust
        if trust is None:
            return None
        if self.retrieve_dialog is not None:
            self.retrieve_dialog.close()
        dialog = self.retrieve_dialog = RetrieveDialog(
            self._window, trust.actor_id, self._last_task
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.run_retrieve(dialog))
        dialog.destroyed.connect(self._forget_retrieve_dialog)
        dialog.open()
        return dialog

    def _forget_retrieve_dialog(self) -> None:
        self.retrieve_dialog = None

    def run_retrieve(self, dialog: RetrieveDialog) -> None:
        """Retrieve for what ``dialog`` holds."""
        self._last_task = dialog.task.text()
        self._app.lens.retrieval.run(self._last_task, dialog.roots.value(), dialog.hops.value())
        self._say(tr("Retrieving for “{task}”…").format(task=_short(self._last_task)))

    def _show_result(self, result: Retrieved | None = None) -> None:
        result = self._app.lens.retrieval.result
        if result is None:
            self._say("")
            return
        self._say(
            tr("“{task}”: {count} node(s), {roots} root(s)").format(
                task=_short(result.task), count=len(result.hops), roots=len(result.roots)
            ),
            clearable=True,
        )

    def _on_failed(self, error: MemgraphError) -> None:
        self._say(tr("Retrieval refused: {message}").format(message=error.message))

    def _say(self, text: str, *, clearable: bool = False) -> None:
        self.banner.result.setText(text)
        self.banner.result_action.setVisible(bool(text))
        self.banner.clear_action.setVisible(clearable)

    def refresh(self) -> None:
        """Show the banner while the lens is on, saying whose view this is."""
        trust = self._app.lens.trust
        self.full_view.setEnabled(trust is not None)
        self.retrieve.setEnabled(trust is not None)
        if trust is None:
            self.banner.setVisible(False)
            return
        text = describe(trust)
        if not self._app.lens.ready:
            text += tr(" (working out what this actor may see…)")
        self.banner.text.setText(text)
        self.banner.setVisible(True)


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"

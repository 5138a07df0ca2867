"""``RecallLabPanel``: the Recall lab dock's contents over ``app.recall_lab``.

A message box; the nugget ``searchNotes`` searches; the trust ``retrieveGraph`` runs with (the
lens's, or full trust with the lens off); the four rankings side by side, each marked on the
graph in its own ring (``theme.recall_lab_styles``); the route model's input; Run recall, its
picks, the injection preview and Apply (``route_tabs``). Clicking a ranked node selects it:
the inspector shows it and the graph centres it, as a click in the find's results does. The
panel only shows what the lab gives; it asks nothing of the store itself. GUI thread only."""

from __future__ import annotations

from memgraph_gui.app.app_model import AppModel
from memgraph_gui.app.recall_lab import RANKINGS, LabResult
from memgraph_gui.app.trust_lens import describe
from memgraph_gui.views.qt import (
    QAction,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    Qt,
    QtWidgets,
    QVBoxLayout,
    QWidget,
    tr,
)
from memgraph_gui.views.recall_lab.rankings import RankingColumn
from memgraph_gui.views.recall_lab.route_tabs import RouteInputTab, RunRecallTab
from memgraph_gui.views.theme import recall_lab_styles

MESSAGE_LINES = 3


def _plain_note(key: str) -> str:
    """What a column's note says when there is nothing more particular to say."""
    notes = {
        "keyword": tr("by the words shared"),
        "vector": tr("by the embedding profile"),
        "notes": tr("the nugget's notes"),
        "retrieve": tr("Membrane's graph retrieval"),
    }
    return notes.get(key, "")


class RecallLabPanel(QWidget):
    """The lab's widgets (see the module docstring)."""

    def __init__(self, app: AppModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._app = app
        self._lab = lab = app.recall_lab
        self.setObjectName("recall-lab")
        self._build()
        lab.result_changed.connect(self._show_result)
        lab.running_changed.connect(self._show_status)
        lab.nuggets_changed.connect(self._show_nuggets)
        app.lens.changed.connect(self._on_lens_changed)
        self._show_nuggets(lab.nuggets())
        self._show_trust()
        self._show_result(lab.result)

    # -- building ------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.tabs = QtWidgets.QTabWidget()
        self.tabs.setObjectName("recall-lab-tabs")
        self.tabs.setDocumentMode(True)
        self.tabs.setTabBarAutoHide(True)
        self.tabs.addTab(self._build_rankings(), tr("Rankings"))
        self.route_input = RouteInputTab(self._app)
        self.tabs.addTab(self.route_input, tr("Route input"))
        self.recall = RunRecallTab(self._app)
        self.tabs.addTab(self.recall, tr("Run recall"))
        box = QVBoxLayout(self)
        box.setContentsMargins(6, 6, 6, 6)
        box.setSpacing(6)
        box.addLayout(self._build_top())
        box.addWidget(self.tabs, 1)

    def _build_top(self) -> QHBoxLayout:
        self.message = QPlainTextEdit()
        self.message.setObjectName("recall-lab-message")
        self.message.setPlaceholderText(
            tr("Type or paste a message: what would recall pick for it?")
        )
        self.message.setTabChangesFocus(True)
        line = self.message.fontMetrics().lineSpacing()
        self.message.setFixedHeight(line * MESSAGE_LINES + 14)
        self.message.textChanged.connect(self._on_message_edited)
        self.nugget = QComboBox()
        self.nugget.setObjectName("recall-lab-nugget")
        self.nugget.setToolTip(tr("The Nuggets nugget whose notes searchNotes searches"))
        self.nugget.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.nugget.currentIndexChanged.connect(self._on_nugget_chosen)
        nugget_label = QLabel(tr("&Nugget:"))
        nugget_label.setBuddy(self.nugget)
        self.trust = QLabel("")
        self.trust.setObjectName("recall-lab-trust")
        self.trust.setTextFormat(Qt.TextFormat.PlainText)
        self.trust.setWordWrap(True)
        self.status = QLabel("")
        self.status.setObjectName("recall-lab-status")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setStyleSheet("color: #5a6270;")
        side = QVBoxLayout()
        side.setSpacing(4)
        pick = QHBoxLayout()
        pick.addWidget(nugget_label)
        pick.addWidget(self.nugget)
        pick.addStretch(1)
        side.addLayout(pick)
        side.addWidget(self.trust)
        side.addWidget(self.status)
        side.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.message, 3)
        top.addLayout(side, 2)
        return top

    def _build_rankings(self) -> QWidget:
        self.columns: dict[str, RankingColumn] = {}
        row = QHBoxLayout()
        row.setSpacing(8)
        styles = {s.key: s for s in recall_lab_styles()}
        for key in RANKINGS:
            column = RankingColumn(styles[key])
            column.node_chosen.connect(self._select)
            self.columns[key] = column
            row.addWidget(column, 1)
        rankings = QWidget()
        rankings.setLayout(row)
        row.setContentsMargins(4, 6, 4, 4)
        return rankings

    # -- showing -------------------------------------------------------------------------------------
    def _show_result(self, result: LabResult | None) -> None:
        for key, column in self.columns.items():
            ranking = result.rankings.get(key) if result is not None else None
            note, hidden = self._note(key, result), 0
            if ranking is not None:
                ranking, hidden = self._lab.through_lens(ranking)
            if hidden:
                note = tr("{note} · {count} hidden by the lens").format(note=note, count=hidden)
            column.show_ranking(ranking, note)
        self._show_status(self._lab.running)

    def _note(self, key: str, result: LabResult | None) -> str:
        if result is None:
            return _plain_note(key)
        if key == "notes" and result.query.nugget is not None:
            return tr("in nugget {name}").format(name=result.query.nugget or tr("(no nugget)"))
        if key == "retrieve":
            if result.query.trust is not None:
                return tr("under the lens · score: salience")
            return tr("full trust (no lens) · score: salience")
        return _plain_note(key)

    def _show_status(self, running: bool) -> None:
        result = self._lab.result
        if running:
            text = tr("Ranking…")
        elif result is not None:
            text = tr("The four rankings took {ms} ms.").format(ms=f"{result.seconds * 1000:.0f}")
        elif self._lab.message.strip():
            text = ""
        else:
            text = tr("Type a message to see what each recall path finds.")
        self.status.setText(text)

    def _show_nuggets(self, names: list[str]) -> None:
        self.nugget.blockSignals(True)
        self.nugget.clear()
        for name in names:
            self.nugget.addItem(name or tr("(no nugget)"), name)
        self.nugget.setCurrentIndex(max(0, self.nugget.findData(self._lab.nugget)))
        self.nugget.blockSignals(False)
        self.nugget.setEnabled(bool(names))
        if not names:
            self.nugget.addItem(tr("(no notes)"))

    def _show_trust(self) -> None:
        trust = self._app.lens.trust
        if trust is None:
            text = tr("retrieveGraph reads with full trust (the lens is off).")
        else:
            text = tr("retrieveGraph reads under the lens: {who}").format(who=describe(trust))
        self.trust.setText(text)

    # -- handlers ------------------------------------------------------------------------------------
    def _on_lens_changed(self) -> None:
        """The lens moved, or some node's tier: show again what the actor may see."""
        self._show_trust()
        self._show_result(self._lab.result)

    def _on_message_edited(self) -> None:
        self._lab.set_message(self.message.toPlainText())
        self._show_status(self._lab.running)

    def _on_nugget_chosen(self, _index: int) -> None:
        name = self.nugget.currentData()
        if isinstance(name, str):
            self._lab.set_nugget(name)

    def _select(self, node_id: str) -> None:
        """Select ``node_id`` in every pane (the graph centres it; the inspector shows it)."""
        if self._app.node(node_id) is not None:
            self._app.selection.select([node_id], source=None)

    def tab_stops(self) -> list[QWidget]:
        """Where Tab goes in the lab, in order: the message, the nugget, the tabs, then the
        shown tab's parts left to right (``MainWindow.tab_stops`` takes them in turn)."""
        page = self.tabs.currentWidget()
        if page is self.route_input:
            inside: list[QWidget] = [self.route_input.copy, self.route_input.text]
        elif page is self.recall:
            inside = self.recall.tab_stops()
        else:
            inside = [column.table for column in self.columns.values()]
        return [self.message, self.nugget, self.tabs.tabBar(), *inside]

    def set_preferences_action(self, action: QAction) -> None:
        """The window's Preferences… (Run recall offers it while no endpoint is set)."""
        self.recall.set_preferences_action(action)

    def set_message(self, text: str) -> None:
        """Type ``text`` into the message box, as the person would (tests, screenshots)."""
        self.message.setPlainText(text)

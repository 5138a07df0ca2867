"""The Help menu's dialogs: Keyboard shortcuts (listed from the window's own actions, so the list
stays true as actions change) and About (the installed version and the open store's path)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memgraph_gui.views.qt import (
    QAction,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QKeySequence,
    QLabel,
    QMenu,
    QMessageBox,
    Qt,
    QVBoxLayout,
    QWidget,
    tr,
)
from memgraph_gui.views.qt import QtWidgets as W


@dataclass(frozen=True, slots=True)
class Shortcut:
    """One row of the list: where the command is, what it is called, its keys."""

    where: str
    command: str
    keys: str


def plain_text(text: str) -> str:
    """An action's or menu's text as read: mnemonic ``&`` gone (``&&`` is a literal ``&``)."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".…").strip()


def shortcuts(
    menus: Iterable[QMenu], others: Iterable[tuple[str, Iterable[QAction]]]
) -> list[Shortcut]:
    """Every action with a key in ``menus`` (their submenus too) and in ``others`` (``(where,
    actions)`` pairs: actions that live on a pane, not in a menu). Each action once, in menu
    order."""
    rows: list[Shortcut] = []
    seen: set[int] = set()

    def add(where: str, action: QAction) -> None:
        keys = [k for k in action.shortcuts() if not k.isEmpty()]
        if id(action) in seen or not keys or action.isSeparator():
            return
        seen.add(id(action))
        text = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys)
        rows.append(Shortcut(where, plain_text(action.text()), text))

    def walk(menu: QMenu, where: str) -> None:
        for action in menu.actions():
            sub = action.menu()
            if isinstance(sub, QMenu):
                walk(sub, f"{where} ▸ {plain_text(sub.title())}")
            else:
                add(where, action)

    for menu in menus:
        walk(menu, plain_text(menu.title()))
    for where, actions in others:
        for action in actions:
            add(where, action)
    return rows


class ShortcutsDialog(QDialog):
    """A table of ``Shortcut`` rows (plain text), filterable by typing."""

    def __init__(self, rows: list[Shortcut], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcuts")
        self.setWindowTitle(tr("Keyboard shortcuts"))
        self.resize(560, 520)
        self.table = W.QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels([tr("Keys"), tr("Command"), tr("Where")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(W.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(W.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setTabKeyNavigation(False)
        for row, item in enumerate(rows):
            for column, text in enumerate((item.keys, item.command, item.where)):
                self.table.setItem(row, column, W.QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        note = QLabel(
            tr(
                "Tab and Shift+Tab move between the Find box, the timeline, the graph and the "
                "inspector; the part that has the keyboard is framed."
            )
        )
        note.setTextFormat(Qt.TextFormat.PlainText)
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def rows(self) -> list[tuple[str, str, str]]:
        """The table as shown: (keys, command, where) per row."""

        def text(row: int, column: int) -> str:
            item = self.table.item(row, column)
            return item.text() if item is not None else ""

        return [(text(r, 0), text(r, 1), text(r, 2)) for r in range(self.table.rowCount())]


def about_text(version: str, path: str) -> str:
    """The About box's text (plain)."""
    store = path if path != ":memory:" else tr("none (an unsaved memory)")
    return tr(
        "memgraph-gui {version}\n\nA desk for AI chat memory graphs (Luker's format).\n\n"
        "Open memory store: {store}"
    ).format(version=version, store=store)


def installed_version() -> str:
    """The package's version from its installed metadata ("unknown" when not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("memgraph-gui")
    except PackageNotFoundError:
        return tr("unknown")


def about_box(parent: QWidget, path: str) -> QMessageBox:
    """The About box (not shown: the caller opens it)."""
    box = QMessageBox(
        QMessageBox.Icon.Information,
        tr("About memgraph-gui"),
        about_text(installed_version(), path),
        QMessageBox.StandardButton.Ok,
        parent,
    )
    box.setObjectName("about")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return box

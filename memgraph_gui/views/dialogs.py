"""Message boxes for problems the app layer describes (plain text only: paths and node text
come from users and LLMs)."""

from __future__ import annotations

from memgraph_gui.app.opening import OpenProblem
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.views.qt import QMessageBox, Qt, QWidget, tr


def show_problem(parent: QWidget | None, problem: OpenProblem) -> None:
    """A modal box: critical for a file that could not be opened, information otherwise."""
    icon = QMessageBox.Icon.Critical if problem.fatal else QMessageBox.Icon.Information
    box = QMessageBox(icon, problem.title, problem.message, QMessageBox.StandardButton.Ok, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setObjectName(f"problem-{problem.code}")
    box.exec()


def show_error(parent: QWidget | None, title: str, error: MemgraphError) -> None:
    """A refused write or failed file operation: the API's message and its code."""
    detail = error.message[:1].upper() + error.message[1:]
    show_problem(
        parent,
        OpenProblem(
            error.code,
            title,
            tr("{detail}\n\n(code {code})").format(detail=detail, code=error.code),
        ),
    )


def ask_empty_file(parent: QWidget | None, path: str) -> bool:
    """File ▸ Open picked a 0-byte file: make it a new memory store? (True: yes.)"""
    box = QMessageBox(
        QMessageBox.Icon.Question,
        tr("Empty file"),
        tr("{path} is empty (0 bytes).\n\nMake it a new memory store?").format(path=path),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
        parent,
    )
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.setObjectName("ask-empty-file")
    return box.exec() == QMessageBox.StandardButton.Yes


def ask_start(parent: QWidget | None, problem: OpenProblem | None) -> str:
    """A file could not be opened and no memory is open: say why and offer a way on. Returns
    "demo", "open" (File ▸ Open) or "" (stay with no memory open)."""
    icon = QMessageBox.Icon.Critical if problem is not None else QMessageBox.Icon.Information
    title = problem.title if problem is not None else tr("No memory open")
    text = (problem.message + "\n\n" if problem is not None else "") + tr(
        "No memory is open. Open the demo memory, or another file?"
    )
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.NoButton, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setObjectName("ask-start")
    demo = box.addButton(tr("Open the &demo"), QMessageBox.ButtonRole.AcceptRole)
    other = box.addButton(tr("&Open a file…"), QMessageBox.ButtonRole.ActionRole)
    box.addButton(QMessageBox.StandardButton.Close)
    box.setDefaultButton(demo)
    box.exec()
    clicked = box.clickedButton()
    return "demo" if clicked is demo else "open" if clicked is other else ""

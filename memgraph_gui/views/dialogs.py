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

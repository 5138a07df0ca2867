"""The one question an import asks: what reading the file repaired and what importing it adds or
replaces, then "Import" (or "Replace this memory") or Cancel. Nothing is written before that."""

from __future__ import annotations

from memgraph_gui.app.files import ImportCheck
from memgraph_gui.views.qt import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
    tr,
)


class ImportReportDialog(QDialog):
    """Shows ``check``'s report: the counts at the top, every repair and every new type in a
    scrollable plain-text list below; accepted means "write it".

    Window-modal and non-blocking: call ``open()`` and connect ``accepted``/``rejected`` (tests
    click ``accept_button``/``cancel_button``). Node titles come from the file, so everything is
    shown as plain text, never rich text.
    """

    def __init__(self, parent: QWidget | None, check: ImportCheck, store_path: str) -> None:
        super().__init__(parent)
        self.setObjectName("import-report")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        report = check.report
        self.replace = check.replace
        self.setWindowTitle(
            tr("Replace this memory?") if self.replace else tr("Import this Luker file?")
        )
        layout = QVBoxLayout(self)
        lines = report.summary_lines()
        if self.replace:
            lines.append(
                tr(
                    "Importing replaces everything in {path}. A copy of the current file is "
                    "kept as {bak}."
                ).format(path=store_path, bak=store_path + ".bak")
            )
        self.summary = QLabel("\n".join([tr("From {path}").format(path=check.path), *lines]))
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.summary)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        details = "\n".join(report.detail_lines())
        self.details.setPlainText(details)
        self.details.setVisible(bool(details))
        layout.addWidget(self.details, 1)
        buttons = QDialogButtonBox()
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.accept_button: QPushButton = buttons.addButton(
            tr("Replace this memory") if self.replace else tr("Import"),
            QDialogButtonBox.ButtonRole.AcceptRole,
        )
        (self.cancel_button if self.replace else self.accept_button).setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(760, 520 if details else 200)

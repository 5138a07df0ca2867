"""``ConflictPanel``: what to do when the stored value moved on while the person edited it.

It shows the person's value and the stored one side by side (and, for long text, the
difference), with "Keep mine" and "Take theirs". Nothing is written until one is chosen; the
owner does the writing (Keep mine: the person's value, based on the stored one now) or loading
(Take theirs). All text is plain text.
"""

from __future__ import annotations

import difflib
import re

from memgraph_gui.views.qt import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
    tr,
)

LONG_TEXT = 80
"""Values longer than this (or on several lines) also show the difference."""
_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")


class ConflictPanel(QFrame):
    """Yours / stored now, the difference for long text, Keep mine / Take theirs.

    Emits ``keep_mine`` or ``take_theirs``; the owner acts and then calls ``dismiss``.
    """

    keep_mine = Signal()
    take_theirs = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conflict-panel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(
            "QFrame#conflict-panel { border: 1px solid #d4a017; border-radius: 3px;"
            " background: palette(alternate-base); }"
        )
        self.note = _plain(tr("Changed elsewhere while you were editing. Nothing was saved."))
        self.note.setWordWrap(True)
        self.mine = _text_box("conflict-mine")
        self.theirs = _text_box("conflict-theirs")
        self.difference = _text_box("conflict-difference")
        self.difference_title = _plain(tr("Difference (− stored now, + yours)"))
        self.keep_button = QPushButton(tr("Keep mine"))
        self.keep_button.setToolTip(tr("Save your value over the stored one"))
        self.take_button = QPushButton(tr("Take theirs"))
        self.take_button.setToolTip(tr("Drop your value and load the stored one"))
        self._build()
        self.keep_button.clicked.connect(self.keep_mine)
        self.take_button.clicked.connect(self.take_theirs)
        self.setVisible(False)

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        layout.addWidget(self.note)
        sides = QHBoxLayout()
        for title, box in ((tr("Yours"), self.mine), (tr("Stored now"), self.theirs)):
            column = QVBoxLayout()
            column.addWidget(_plain(title))
            column.addWidget(box)
            sides.addLayout(column)
        layout.addLayout(sides)
        layout.addWidget(self.difference_title)
        layout.addWidget(self.difference)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.take_button, self.keep_button):
            button.setAutoDefault(False)
            buttons.addWidget(button)
        layout.addLayout(buttons)

    @property
    def pending(self) -> bool:
        """True while the person has not chosen yet."""
        return not self.isHidden()

    def show_conflict(self, mine: str, theirs: str, *, note: str | None = None) -> None:
        """Show ``mine`` beside ``theirs`` (texts as the editor shows them)."""
        if note is not None:
            self.note.setText(note)
        self.mine.setPlainText(mine)
        self.theirs.setPlainText(theirs)
        long = max(len(mine), len(theirs)) > LONG_TEXT or "\n" in mine + theirs
        self.difference.setPlainText(difference(theirs, mine) if long else "")
        self.difference.setVisible(long)
        self.difference_title.setVisible(long)
        self.setVisible(True)

    def update_theirs(self, theirs: str) -> None:
        """The stored value moved on again: show the newest one."""
        self.show_conflict(self.mine.toPlainText(), theirs)

    def dismiss(self) -> None:
        self.setVisible(False)


def difference(theirs: str, mine: str) -> str:
    """What changes from ``theirs`` to ``mine``: a unified line diff for several lines, else the
    words removed ``[-…-]`` and added ``{+…+}`` in one line."""
    if "\n" in theirs or "\n" in mine:
        lines = difflib.unified_diff(
            theirs.splitlines(), mine.splitlines(), tr("stored now"), tr("yours"), lineterm=""
        )
        return "\n".join(lines)
    a, b = _TOKEN.findall(theirs), _TOKEN.findall(mine)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append("".join(a[i1:i2]))
            continue
        if i2 > i1:
            out.append("[-" + "".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + "".join(b[j1:j2]) + "+}")
    return "".join(out)


def _plain(text: str) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text)
    return label


def _text_box(name: str) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setObjectName(name)
    box.setReadOnly(True)
    box.setMaximumHeight(110)
    box.setTabChangesFocus(True)
    return box

"""A text area fits its wrapped text without resizing itself for ever (found with a Nuggets
note: at some widths a scroll bar that came and went with the height made the area narrower, the
text a line taller, the area taller, the bar go, and so on, and the window hung)."""

from __future__ import annotations

import time
from typing import Any

TEXT = (
    "Owner of Hoja Verde 绿叶茶铺 in Valencia; partner Lucía; cat Mochi.\n"
    "Learning Mandarin; climbs twice a week."
)


def test_the_area_settles_at_every_width(qtbot: Any) -> None:
    from PySide6.QtWidgets import QApplication

    from memgraph_gui.views.inspector.area_editors import TextAreaEditor

    editor = TextAreaEditor()
    qtbot.addWidget(editor)
    editor.show()
    editor.set_value(TEXT)
    resizes = [0]
    editor.area.resized.connect(lambda: resizes.__setitem__(0, resizes[0] + 1))
    restless = []
    for width in range(110, 260, 2):
        editor.resize(width, 400)
        QApplication.processEvents()
        resizes[0] = 0
        end = time.monotonic() + 0.05
        while time.monotonic() < end:
            QApplication.processEvents()
        if resizes[0] > 4:
            restless.append((width, resizes[0]))
    assert not restless, f"the area kept resizing itself at (width, resizes): {restless[:5]}"
    area = editor.area
    line = area.fontMetrics().lineSpacing()
    assert area.height() >= 2 * line  # still fitted to its text

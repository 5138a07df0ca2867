"""Render the inspector dock over a copy of the 2,000-node demo to PNGs (for docs/screenshots).

    QT_QPA_PLATFORM=xcb DISPLAY=:82 python scripts/screenshot_inspector.py OUT_DIR

Writes ``inspector.png`` (a character with a list field and links) and ``inspector-error.png``
(a thread whose required ``note`` was cleared: the API's refusal under the field).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any


def main(out_dir: str) -> None:
    from memgraph_gui.views.qt import QApplication

    qt_app = QApplication.instance() or QApplication(sys.argv)
    app = _demo_copy()
    graph = app.store.graph
    char = max(
        (n for n in graph.nodes.values() if n.type == "character_sheet" and not n.archived),
        key=lambda n: sum(1 for e in graph.edges_of(n.id) if not e.internal),
    )
    aliases = [a.strip() for a in str(char.fields.get("aliases", "")).split(",") if a.strip()]
    app.apply_sync(lambda w: w.edit_node(id=char.id, set_fields={"aliases": aliases}))
    window, dock, inspector = _window(app)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    app.selection.select([char.id])
    _settle()
    dock.grab().save(str(out / "inspector.png"))
    thread = next(n for n in graph.nodes.values() if n.type == "thread" and not n.archived)
    app.selection.select([thread.id])
    _settle()
    row = inspector.form.row("note")
    row.editor.area.setPlainText("")
    row.editor.apply()
    app.runner.wait_idle()
    _settle()
    dock.grab().save(str(out / "inspector-error.png"))
    window.close()
    app.close()
    del qt_app


def _demo_copy() -> Any:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.app.opening import open_demo
    from memgraph_gui.core import MemoryStore

    demo = open_demo()
    demo_file = demo.path
    demo.close()
    work = Path(tempfile.mkdtemp()) / "demo.memgraph"
    shutil.copy(demo_file, work)
    return AppModel(MemoryStore.open(work))


def _window(app: Any) -> tuple[Any, Any, Any]:
    from memgraph_gui.views.inspector import NodeInspector
    from memgraph_gui.views.qt import QMainWindow, Qt, QtWidgets

    window = QMainWindow()
    inspector = NodeInspector(app)
    dock = QtWidgets.QDockWidget("Inspector", window)
    dock.setWidget(inspector)
    dock.setFeatures(QtWidgets.QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.setCentralWidget(QtWidgets.QWidget())
    window.resize(980, 940)
    window.show()
    window.resizeDocks([dock], [380], Qt.Orientation.Horizontal)
    return window, dock, inspector


def _settle() -> None:
    from memgraph_gui.views.qt import QApplication

    for _ in range(20):
        QApplication.processEvents()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")

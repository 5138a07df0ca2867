"""The Qt binding keeps Python's reference counts: PySide6 6.12.0 dropped a reference to
``None`` in every static ``processEvents()`` / ``sendPostedEvents()`` call, so a window that
spun its event loop long enough (the writer's ``wait_idle`` does) aborted with
"deallocating None". ``pyproject.toml`` excludes it; this catches a binding that regresses."""

from __future__ import annotations

import gc
import sys


def test_spinning_the_event_loop_keeps_none_alive(qapp) -> None:  # type: ignore[no-untyped-def]
    from memgraph_gui.views.qt import QCoreApplication, QEventLoop

    gc.collect()
    before = sys.getrefcount(None)
    for _ in range(2000):
        QCoreApplication.processEvents()
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 1)
        QCoreApplication.sendPostedEvents()
    gc.collect()
    assert sys.getrefcount(None) >= before - 100  # 6.12.0 lost 6,000 here


CLOSE_AFTER_QUEUED_OPS = """
import gc, os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from memgraph_gui.views.qt import QApplication
from memgraph_gui.app.app_model import AppModel
from memgraph_gui.core import MemoryStore
qt = QApplication([])
app = AppModel(MemoryStore.open(sys.argv[1]))
for i in range(15):
    app.run_op(lambda w, i=i: w.create_node(type="character_sheet", title=f"c{i}"))
app.runner.wait_idle()
app.close()
del app
gc.collect()
print("ok")
"""


def test_a_closed_model_with_undo_steps_is_collected_safely(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """With PySide6 6.7–6.11 this segfaulted in the garbage collector unless the undo mirror
    was cleared on close (a separate process, so a crash is a failure, not the end of the run)."""
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", CLOSE_AFTER_QUEUED_OPS, str(tmp_path / "s.memgraph")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]

"""The Qt binding keeps Python's reference counts: PySide6 6.12.0 dropped a reference to
``None`` in every static ``processEvents()`` / ``sendPostedEvents()`` call, so a window that
spun its event loop long enough (the writer's ``wait_idle`` does) aborted with
"deallocating None". ``pyproject.toml`` excludes it; this catches a binding that regresses."""

from __future__ import annotations

import gc
import sys

import pytest

pytest.importorskip("PySide6")


def test_spinning_the_event_loop_keeps_none_alive(qapp) -> None:  # type: ignore[no-untyped-def]
    from memgraph_gui.app.qt import QCoreApplication, QEventLoop

    gc.collect()
    before = sys.getrefcount(None)
    for _ in range(2000):
        QCoreApplication.processEvents()
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 1)
        QCoreApplication.sendPostedEvents()
    gc.collect()
    assert sys.getrefcount(None) >= before - 100  # 6.12.0 lost 6,000 here

"""``memgraph-gui [FILE] [--screenshot OUT.png]``: the desktop app (with no FILE: the memory
open last time, or the demo the first time)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any


def _options(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="memgraph-gui")
    parser.add_argument(
        "file",
        nargs="?",
        help="a .memgraph store (default: the one open last time, else the bundled demo)",
    )
    parser.add_argument(
        "--screenshot", metavar="OUT.png", help="render the window offscreen to a PNG and exit"
    )
    parser.add_argument(
        "--select", metavar="NODE_ID", help="select this node once the memory is open"
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Show the window at once over an empty memory, then open FILE (or the memory open last
    time, or the demo) off the GUI thread; with ``--screenshot`` wait until it is drawn, save
    the PNG and exit."""
    options = _options(argv)
    if options.screenshot:
        import os

        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.app.process_tuning import tune_process
    from memgraph_gui.core.memory import MemoryStore
    from memgraph_gui.views.main_window import MainWindow
    from memgraph_gui.views.qt import QApplication, app_icon

    tune_process()  # this process is the window's: the app layer may tune it (process_tuning)
    existing = QApplication.instance()
    qt_app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    qt_app.setOrganizationName("memgraph")
    qt_app.setApplicationName("memgraph-gui")
    qt_app.setWindowIcon(app_icon())
    app = AppModel(MemoryStore.open(":memory:"))
    window = MainWindow(app)
    window.files.dialogs = not options.screenshot
    window.show()
    if options.file:
        window.open_path(options.file)
    else:
        window.files.open_start()
    if options.select:
        window.select_when_open(options.select)
    if options.screenshot:
        return _screenshot(qt_app, window, app, options.screenshot)
    status = qt_app.exec()
    app.close()
    return int(status)


def _screenshot(qt_app: Any, window: Any, app: Any, out: str) -> int:
    """Wait (≤ 60 s) until the window is settled, then save it as a PNG."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not window.settled():
        qt_app.processEvents()
        time.sleep(0.01)
    for problem in window.problems_shown:
        print(f"memgraph-gui: {problem.message}", file=sys.stderr)
    qt_app.processEvents()
    ok = window.grab().save(out)
    app.close()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

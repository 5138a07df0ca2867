"""``memgraph-gui [FILE] [--screenshot OUT.png]``: the desktop app (the demo when no FILE)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Build the QApplication, the AppModel and the main window; run or take a screenshot."""
    parser = argparse.ArgumentParser(prog="memgraph-gui")
    parser.add_argument("file", nargs="?", help="a .memgraph store (default: the bundled demo)")
    parser.add_argument(
        "--screenshot", metavar="OUT.png", help="render the window offscreen to a PNG and exit"
    )
    options = parser.parse_args(argv)
    if options.screenshot:
        import os

        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.app.opening import open_demo, try_open
    from memgraph_gui.app.qt import QApplication, app_icon
    from memgraph_gui.views.dialogs import show_problem
    from memgraph_gui.views.main_window import MainWindow

    existing = QApplication.instance()
    qt_app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    qt_app.setApplicationName("memgraph-gui")
    qt_app.setWindowIcon(app_icon())
    store, problem = try_open(options.file) if options.file else (None, None)
    if problem is not None and options.screenshot:
        print(f"memgraph-gui: {problem.message}", file=sys.stderr)
    elif problem is not None:
        show_problem(None, problem)
    app = AppModel(store or open_demo())
    window = MainWindow(app)
    window.resize(1200, 760)
    window.show()
    if options.screenshot:
        qt_app.processEvents()
        ok = window.grab().save(options.screenshot)
        app.close()
        return 0 if ok else 1
    status = qt_app.exec()
    app.close()
    return int(status)


if __name__ == "__main__":
    raise SystemExit(main())

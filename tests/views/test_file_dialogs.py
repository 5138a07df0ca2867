"""File dialogs never open a store file: browsing the open store's folder keeps its SQLite locks.

Closing any descriptor of a file drops this process's POSIX (fcntl) locks on it, SQLite's
included. Qt's default icon provider reads each listed file to guess its type, so the window lost
its locks on the open store as soon as a File dialog listed its folder; the next process to open
the store then deleted ``-wal``/``-shm`` under the window. Each test drives the real dialog of one
File menu action, lets it list the store's folder completely (icon and Type of every row asked
for, as painting and the completer do), closes it, and then has other processes use the store.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.core.processes import ROOT, call_result

ACTIONS = ["new", "open", "import_luker", "export_luker"]


def _deleted_store_fds(store: Path) -> list[str]:
    """This process's descriptors on the store's files that now point at deleted files."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(store)) and target.endswith("(deleted)"):
            found.append(target)
    return found


def _browse_and_cancel(qtbot: Any, dialog: Any, folder: Path, store: Path) -> list[str]:
    """Show ``folder`` in ``dialog`` as a person browsing there would (every filter, the
    detail view, the completer over the folder), wait until the store's row has its icon and
    Type, then cancel. Returns the Type texts seen for the store and its ``-wal``."""
    from memgraph_gui.views.qt import QFileDialog, Qt, QtWidgets

    dialog.setViewMode(QFileDialog.ViewMode.Detail)
    dialog.setDirectory(str(folder))
    filters = dialog.nameFilters()
    dialog.selectNameFilter(filters[-1])  # "All files (*)": the store's row is listed
    model = dialog.findChild(QtWidgets.QFileSystemModel)
    assert model is not None
    line = dialog.findChild(QtWidgets.QLineEdit, "fileNameEdit")
    if line is not None:  # typing the folder makes the completer list it
        line.setText(str(folder) + "/")
    seen: list[str] = []

    def listed() -> bool:
        seen.clear()
        for name in (store.name, store.name + "-wal"):
            index = model.index(str(folder / name))
            if not index.isValid():
                return False
            model.data(index, Qt.ItemDataRole.DecorationRole)
            text = model.data(index.siblingAtColumn(2), Qt.ItemDataRole.DisplayRole)
            if not text:
                return False
            seen.append(text)
        return True

    qtbot.waitUntil(listed, timeout=10000)
    dialog.grab()  # paint the rows too
    qtbot.wait(300)  # let the gatherer thread finish its batch
    dialog.reject()
    return list(seen)


def _other_processes_still_share_the_store(
    qtbot: Any, app: Any, store: Path, wal_inode: int
) -> None:
    """A read by a second process leaves ``-wal`` in place; writes then cross both ways."""
    wal = Path(str(store) + "-wal")
    # a second process only reads the store; the window still holds it open
    assert call_result(store, "call", "getCurrentlyInjectedNodeIds", "[]") is not None
    assert wal.exists(), "the store's -wal was deleted while the window holds the store"
    assert wal.stat().st_ino == wal_inode
    assert _deleted_store_fds(store) == []

    # a write by another process reaches the window …
    second = call_result(store, "call", "createNode", '[{"type": "character_sheet", "title": "B"}]')
    qtbot.waitUntil(lambda: app.store.read_api().get_node(second["id"]) is not None, timeout=5000)
    # … and a write by the window reaches a third process
    mine = app.apply_sync(lambda api: api.create_node(type="character_sheet", title="C"))
    got = call_result(store, "call", "listNodes", "[]")
    assert {n["title"] for n in got} == {"A", "B", "C"}
    assert mine["id"] in {n["id"] for n in got}
    assert wal.exists() and wal.stat().st_ino == wal_inode
    assert _deleted_store_fds(store) == []


@pytest.mark.parametrize("action", ACTIONS)
def test_browsing_the_store_folder_in_a_file_dialog_keeps_the_stores_locks(
    qtbot: Any, tmp_path: Path, action: str
) -> None:
    from memgraph_gui.app.app_model import AppModel
    from memgraph_gui.core import MemoryStore
    from memgraph_gui.views.main_window import MainWindow
    from memgraph_gui.views.qt import QApplication, QFileDialog, QTimer

    folder = tmp_path / "t2"
    folder.mkdir()
    store = folder / "b.memgraph"
    app = AppModel(MemoryStore.open(store))
    window = MainWindow(app)
    qtbot.addWidget(window)
    window.files.dialogs = False
    first = call_result(store, "call", "createNode", '[{"type": "character_sheet", "title": "A"}]')
    wal = Path(str(store) + "-wal")
    assert wal.exists()
    wal_inode = wal.stat().st_ino
    qtbot.waitUntil(lambda: app.store.read_api().get_node(first["id"]) is not None, timeout=5000)

    types: list[str] = []
    ran: list[object] = []

    def drive() -> None:  # runs inside the dialog's modal loop
        dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog)]
        open_ = [d for d in dialogs if d.isVisible()]
        if not open_:
            QTimer.singleShot(50, drive)
            return
        ran.append(open_[0])
        types.extend(_browse_and_cancel(qtbot, open_[0], folder, store))

    QTimer.singleShot(0, drive)
    getattr(window.files, action).trigger()
    assert ran, "the action showed no file dialog"
    assert types and all(types), types

    _other_processes_still_share_the_store(qtbot, app, store, wal_inode)
    app.close()


def test_the_icon_provider_names_types_from_the_name(qapp: Any, tmp_path: Path) -> None:
    """A store that is not a database at all still reads as a memory store: the Type comes from
    the name (its content would say "plain text"); a FIFO is typed without being read."""
    from memgraph_gui.views.file_dialogs import NameOnlyIconProvider
    from memgraph_gui.views.qt import QtCore, QtGui

    text = tmp_path / "fake.memgraph"
    text.write_text("hello, plain text\n")
    fifo = tmp_path / "pipe.memgraph"
    os.mkfifo(fifo)
    unknown = tmp_path / "notes.zzz-unknown"
    unknown.write_text("hello, plain text\n")
    provider = NameOnlyIconProvider()
    assert provider.type(QtCore.QFileInfo(str(text))) == "Memory store"
    assert provider.type(QtCore.QFileInfo(str(fifo))) == "Memory store"
    assert provider.type(QtCore.QFileInfo(str(unknown))) == "File"  # not "plain text document"
    assert provider.type(QtCore.QFileInfo(str(tmp_path))) == "Folder"
    assert not provider.icon(QtCore.QFileInfo(str(unknown))).isNull()
    for kind in QtGui.QAbstractFileIconProvider.IconType:  # Qt's other overload reaches it too
        assert not provider.icon(kind).isNull()


def test_every_file_dialog_in_the_views_is_built_by_the_one_helper() -> None:
    """No view calls QFileDialog's static functions or builds one itself (those use Qt's
    default icon provider, which reads the files it lists)."""
    views = ROOT / "memgraph_gui" / "views"
    pattern = re.compile(
        r"QFileDialog\s*\(|\.get(Open|Save)File(Name|Names|Url|Urls)|getExistingDirectory|"
        r"QFileSystemModel|QFileIconProvider|QCompleter"
    )
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in views.rglob("*.py")
        if path.name != "file_dialogs.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []

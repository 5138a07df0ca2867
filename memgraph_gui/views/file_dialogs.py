"""The one place the window builds file dialogs: none of them ever opens a file to look at it.

Why: the window holds the open store through SQLite, whose locks are POSIX advisory (fcntl)
locks; closing *any* descriptor of that file in this process drops all of them. Qt's file dialog
asks its icon provider for each listed file's icon and "Type" text, and the default provider
gets both from ``QMimeDatabase.mimeTypeForFile``, which opens and reads the file when its name
says nothing (``.memgraph`` is not a known type). Browsing the store's folder (or letting the
file-name completer list it) therefore released the window's locks: the next process to open the
store took it for unused, checkpointed and deleted ``-wal``/``-shm`` under the window.

So every dialog here is Qt's own widget dialog (a native one may run a toolkit in this process
that sniffs content too) with ``NameOnlyIconProvider``, which decides from the name and ``stat``
alone. The completer of the file-name box and the sidebar share that dialog's model and provider.
Filters are name patterns (never mime types resolved from content).
"""

from __future__ import annotations

from memgraph_gui.views.qt import (
    QFileDialog,
    QIcon,
    QtCore,
    QtGui,
    QtWidgets,
    QWidget,
    app_icon,
    tr,
)

STORE_SUFFIX = "memgraph"


class NameOnlyIconProvider(QtGui.QAbstractFileIconProvider):
    """Icons and type names from a file's name and ``stat`` only; never opens a file.

    Called on Qt's file-info gatherer thread: the icons are made up front on the GUI thread and
    only handed out here; the mime lookup is a pure name-pattern match (no file access).
    """

    def __init__(self) -> None:
        super().__init__()
        style = QtWidgets.QApplication.style()
        self._folder = style.standardIcon(QtWidgets.QStyle.StandardPixmap.SP_DirIcon)
        self._file = style.standardIcon(QtWidgets.QStyle.StandardPixmap.SP_FileIcon)
        self._drive = style.standardIcon(QtWidgets.QStyle.StandardPixmap.SP_DriveHDIcon)
        self._computer = style.standardIcon(QtWidgets.QStyle.StandardPixmap.SP_ComputerIcon)
        self._store = app_icon()
        self._mimes = QtCore.QMimeDatabase()
        self._store_type = tr("Memory store")
        self._folder_type = tr("Folder")
        self._file_type = tr("File")

    def icon(self, which: object) -> QIcon:
        """The icon for a ``QFileInfo`` (by its name) or for an ``IconType``."""
        if isinstance(which, QtCore.QFileInfo):
            if which.isDir():
                return self._folder
            if which.suffix().lower() == STORE_SUFFIX:
                return self._store
            return self._file
        kinds = QtGui.QAbstractFileIconProvider.IconType
        if which == kinds.Computer:
            return self._computer
        if which == kinds.Drive:
            return self._drive
        if which == kinds.File:
            return self._file
        return self._folder  # Desktop, Trashcan, Network, Folder

    def type(self, info: QtCore.QFileInfo) -> str:
        """The "Type" column's text, from the name: never from the content."""
        if info.isDir():
            return self._folder_type
        if info.suffix().lower() == STORE_SUFFIX:
            return self._store_type
        known = self._mimes.mimeTypesForFileName(info.fileName())  # glob patterns only
        if known:
            return known[0].comment() or known[0].name()
        return self._file_type


class NameOnlyFileDialog(QFileDialog):
    """Qt's widget file dialog with a ``NameOnlyIconProvider`` (kept alive by the dialog: Qt
    does not own it). Its model, the file-name completer and the sidebar all use that provider."""

    def __init__(self, parent: QWidget | None, caption: str, directory: str, name_filter: str):
        super().__init__(parent, caption, directory, name_filter)
        self.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        self.name_only_icons = NameOnlyIconProvider()
        self.setIconProvider(self.name_only_icons)


def make_file_dialog(
    parent: QWidget | None,
    caption: str,
    directory: str,
    name_filter: str,
    *,
    save: bool = False,
) -> QFileDialog:
    """A file dialog that never opens the files it lists (see the module doc). ``save``: a Save
    dialog (asks before overwriting); otherwise one for an existing file. The caller runs it
    (``exec()`` or ``open()``) and reads ``selectedFiles()``. GUI thread."""
    dialog = NameOnlyFileDialog(parent, caption, directory, name_filter)
    if save:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
    else:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    return dialog


def ask_file(
    parent: QWidget | None, caption: str, directory: str, name_filter: str, *, save: bool = False
) -> str:
    """Run ``make_file_dialog`` modally; the chosen path, or "" when cancelled. GUI thread."""
    dialog = make_file_dialog(parent, caption, directory, name_filter, save=save)
    try:
        if dialog.exec() != QFileDialog.DialogCode.Accepted:
            return ""
        chosen = dialog.selectedFiles()
        return chosen[0] if chosen else ""
    finally:
        dialog.deleteLater()

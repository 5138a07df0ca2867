"""Settings sandbox for Qt tests: QSettings go to a temporary folder, never the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def sandboxed_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point QSettings (INI format, user scope) at a fresh temporary folder for each test."""
    from PySide6.QtCore import QCoreApplication, QSettings

    folder = tmp_path_factory.mktemp("settings")
    QCoreApplication.setOrganizationName("memgraph-tests")
    QCoreApplication.setApplicationName("memgraph-gui-tests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    yield folder

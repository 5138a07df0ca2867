"""SQLite failures as ``MemgraphError`` codes, each with what is wrong and what to do.

Every public entry of ``storage`` runs under :func:`sqlite_errors`, so callers of the Python API
only ever see ``MemgraphError`` (never a raw ``sqlite3`` exception).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from memgraph_gui.core.domain.errors import MemgraphError

# (error-name prefix, code, message template); the first matching prefix wins.
_BY_NAME = (
    (
        "SQLITE_BUSY",
        "STORE_BUSY",
        "{path} stayed locked by another program (it is writing); try again in a moment",
    ),
    ("SQLITE_LOCKED", "STORE_BUSY", "{path} stayed locked by another program; try again"),
    (
        "SQLITE_READONLY_DIRECTORY",
        "STORE_FOLDER_READ_ONLY",
        "the folder holding {path} is "
        "read-only, and SQLite must create its journal files there; copy the store to a writable "
        "folder (it can still be opened for reading)",
    ),
    (
        "SQLITE_READONLY",
        "STORE_READ_ONLY",
        "{path} is read-only, so it can be read but not "
        "changed; make the file writable (or save a copy) to edit it",
    ),
    (
        "SQLITE_CORRUPT",
        "STORE_DAMAGED",
        "{path} is damaged ({detail}); restore it from a backup",
    ),
    (
        "SQLITE_NOTADB",
        "NOT_A_STORE",
        "{path} is not a memgraph store (it is not a SQLite "
        "database at all); open a .memgraph file or import a Luker export instead",
    ),
    (
        "SQLITE_FULL",
        "STORE_FULL",
        "the disk holding {path} is full; free some space and try again (nothing was written)",
    ),
    (
        "SQLITE_CANTOPEN",
        "STORE_CANT_OPEN",
        "{path} cannot be opened ({detail}); check that the folder exists and that you may read it",
    ),
    (
        "SQLITE_IOERR",
        "IO_ERROR",
        "reading or writing {path} failed ({detail}); check the disk and try again",
    ),
    ("SQLITE_PERM", "STORE_READ_ONLY", "{path} may not be changed here ({detail})"),
)


def translate(exc: sqlite3.Error, path: str) -> MemgraphError:
    """The ``MemgraphError`` for a SQLite failure on the store at ``path``."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    detail = str(exc)
    if not name and "malformed" in detail:
        name = "SQLITE_CORRUPT"
    if not name and "locked" in detail:
        name = "SQLITE_BUSY"
    for prefix, code, template in _BY_NAME:
        if name.startswith(prefix):
            return MemgraphError(code, template.format(path=path, detail=detail))
    return MemgraphError("STORE_ERROR", f"{path}: the store reported: {detail}")


@contextmanager
def sqlite_errors(path: str) -> Iterator[None]:
    """Run the block; a ``sqlite3.Error`` leaves it as the matching ``MemgraphError``."""
    try:
        yield
    except sqlite3.Error as exc:
        raise translate(exc, path) from exc


@contextmanager
def opening(path: str) -> Iterator[None]:
    """Opening a store: SQLite failures, a too-new format and undecodable rows as error codes."""
    try:
        with sqlite_errors(path):
            yield
    except ValueError as exc:  # migrations: written by a newer memgraph
        raise MemgraphError("STORE_TOO_NEW", f"{path}: {exc}; update memgraph to open it") from exc
    except (KeyError, TypeError) as exc:
        raise MemgraphError(
            "STORE_DAMAGED",
            f"{path} holds a damaged row ({type(exc).__name__}: {exc}); restore it from a backup",
        ) from exc


@contextmanager
def out_of_sync(on_conflict: Callable[[], None]) -> Iterator[None]:
    """A write whose new node id already exists in the file: the in-memory graph lagged behind
    another writer. Nothing is written; the graph is marked for a reload and the caller retries."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        on_conflict()
        raise MemgraphError(
            "STORE_CHANGED",
            f"the store changed underneath this write ({exc}); nothing was written, try again",
        ) from exc


def file_read_only(path: str) -> str:
    return (
        f"{path} is read-only, so it can be read but not changed; make the file writable "
        "(or save a copy) to edit it"
    )


def folder_read_only(path: str) -> str:
    return (
        f"the folder holding {path} is read-only, so the store was opened for reading only; "
        "copy it to a writable folder to edit it"
    )

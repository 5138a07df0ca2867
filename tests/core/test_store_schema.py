"""A new store's schema is the checked-in one, whatever sqlite-utils happens to be installed.

sqlite-utils writes the tables' DDL, and its 4.0 changed it (column types, quoting): two machines
with different versions would create different files. ``pyproject.toml`` pins the version tested
here, and this test compares a new store's ``sqlite_master`` with ``data/store_schema.sql``.

After an intended schema change, regenerate the copy with (from the repository root):

    PYTHONPATH=. python tests/core/test_store_schema.py --write
"""

from __future__ import annotations

import re
import sqlite3
import sys
import tempfile
from pathlib import Path

_WHITESPACE = re.compile(r"\s+")
SNAPSHOT = Path(__file__).parent / "data" / "store_schema.sql"


def new_store_schema() -> str:
    """The normalised schema of a store created now: one ``type name ON table: sql`` line per
    ``sqlite_master`` row (whitespace runs collapsed), sorted, then the format version."""
    from memgraph_gui.core.memory import MemoryStore

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "new.memgraph"
        MemoryStore.open(path).close()
        conn = sqlite3.connect(path)
        try:
            rows = conn.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
            ).fetchall()
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        finally:
            conn.close()
    lines = [
        f"{kind} {name} ON {table}: {_WHITESPACE.sub(' ', sql or '').strip()}"
        for kind, name, table, sql in rows
    ]
    return "\n".join([*lines, f"user_version {version}", f"application_id {app_id:#x}"]) + "\n"


def test_a_new_store_has_the_checked_in_schema():
    assert new_store_schema() == SNAPSHOT.read_text(encoding="utf-8"), (
        "a new store's schema differs from tests/core/data/store_schema.sql; if intended, "
        "regenerate it: PYTHONPATH=. python tests/core/test_store_schema.py --write"
    )


def test_the_tested_sqlite_utils_is_the_pinned_one():
    from importlib.metadata import version

    pyproject = (Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    pinned = re.search(r'"sqlite-utils==([^"]+)"', pyproject)
    assert pinned is not None, "pyproject.toml must pin sqlite-utils to one version"
    assert version("sqlite-utils") == pinned.group(1)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    SNAPSHOT.write_text(new_store_schema(), encoding="utf-8")
    print(f"wrote {SNAPSHOT}")

"""Which outside files a store is in step with: ``{resolved path: SHA-256}`` of the bytes last
imported from or written to each (``store_info``, so no undo takes it back)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from memgraph_gui.core.storage.store import Store

_GET = "SELECT value FROM store_info WHERE key=?"
_PUT = "INSERT OR REPLACE INTO store_info(key, value) VALUES (?, ?)"


def _parsed(rows: list[Any]) -> dict[str, str]:
    try:
        record = json.loads(rows[0][0]) if rows else {}
    except ValueError:
        return {}
    return record if isinstance(record, dict) else {}


def recorded(store: Store, key: str) -> dict[str, str]:
    """The files recorded under ``key`` (inside this thread's transaction when there is one)."""
    return _parsed(store.execute_read(_GET, (key,)))


def record_in_transaction(store: Store, key: str, files: Mapping[str, str]) -> None:
    """Add ``files`` to the record, inside the caller's open write transaction."""
    record = recorded(store, key) | dict(files)
    store.execute_write(_PUT, (key, json.dumps(record, ensure_ascii=False)))


def record_aside(store: Store, key: str, files: Mapping[str, str]) -> None:
    """Add ``files`` to the record in a transaction of its own (not undoable, no ChangeSet)."""

    def job(conn: Any) -> None:
        record = _parsed(conn.execute(_GET, (key,)).fetchall()) | dict(files)
        conn.execute(_PUT, (key, json.dumps(record, ensure_ascii=False)))

    store.write_aside(job)

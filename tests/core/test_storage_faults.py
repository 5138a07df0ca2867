"""Files that cannot be used as they are: each gets its own error code and a message saying what
is wrong and what to do, from the Python API and the CLI (never a traceback), and nothing in the
file changes."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.storage import retention
from tests.core.processes import ROOT, memgraph, read_only_folder, without_file_override


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_store(path: Path, titles: str = "AB") -> None:
    with MemoryStore.open(path) as store:
        for title in titles:
            store.write_api().create_node(type="character_sheet", title=title)


def open_error(path: Path) -> MemgraphError:
    with pytest.raises(MemgraphError) as err:
        MemoryStore.open(path, create=False)
    return err.value


def cli_error(path: Path, *args: str, prefix: list[str] | None = None) -> dict:
    result = memgraph("--db", str(path), *args, prefix=prefix)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout.splitlines()[-1])["error"]


# -- damaged -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("fields", '{"traits": '),
        ("fields", "[1, 2]"),
        ("children_ids", "{}"),
        ("children_ids", '["n_1", '),
    ],
)
def test_bad_json_in_a_row_is_a_damaged_store(tmp_path: Path, column: str, value: str) -> None:
    path = tmp_path / "s.memgraph"
    make_store(path)
    with sqlite3.connect(path) as raw:
        raw.execute(f"UPDATE nodes SET {column} = ? WHERE id = 'n_2'", (value,))
    err = open_error(path)
    assert err.code == "STORE_DAMAGED" and "n_2" in err.message and "backup" in err.message
    assert cli_error(path, "info")["code"] == "STORE_DAMAGED"


def test_damaged_pages_are_a_damaged_store(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    make_store(path, "ABCDEFGH")
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page:] = b"\xa5" * (len(data) - page)  # every page after the first is garbage
    path.write_bytes(bytes(data))
    assert open_error(path).code == "STORE_DAMAGED"
    assert cli_error(path, "call", "listNodes", "[]")["code"] == "STORE_DAMAGED"


def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.memgraph"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    before = digest(path)
    err = open_error(path)
    assert err.code == "NOT_A_STORE" and "not a memgraph store" in err.message
    assert cli_error(path, "info")["code"] == "NOT_A_STORE"
    assert digest(path) == before


# -- another program's database ------------------------------------------------------------------
def test_another_programs_sqlite_file_is_refused_before_anything_changes(tmp_path: Path) -> None:
    path = tmp_path / "places.sqlite"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
        raw.execute("INSERT INTO moz_places(url) VALUES ('https://example.org')")
    raw.close()
    before = digest(path)
    err = open_error(path)
    assert err.code == "STORE_FOREIGN" and "untouched" in err.message
    assert cli_error(path, "call", "--create", "createNode", '[{"type": "event"}]')["code"] == (
        "STORE_FOREIGN"
    )
    assert digest(path) == before
    assert not path.with_name(path.name + "-wal").exists()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_zero_byte_file_becomes_a_new_store(tmp_path: Path) -> None:
    path = tmp_path / "empty.memgraph"
    path.touch()
    with MemoryStore.open(path, create=False) as store:
        assert store.read_api().get_schema().types[0].id == "event"
        store.write_api().create_node(type="character_sheet", title="Eileen")
    with MemoryStore.open(path, create=False) as store:
        assert [n.title for n in store.read_api().list_nodes()] == ["Eileen"]


def test_a_store_from_a_newer_memgraph_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    make_store(path)
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 99")
    err = open_error(path)
    assert err.code == "STORE_TOO_NEW" and "update memgraph" in err.message


# -- read-only -----------------------------------------------------------------------------------
READ_ONLY_PROBE = """
import json, sys
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
out = {}
with MemoryStore.open(sys.argv[1], create=False) as s:
    out["read_only"] = s.read_only
    out["titles"] = [n.title for n in s.read_api().list_nodes()]
    out["search"] = list(s.read_api().search_text("a"))
    try:
        s.write_api().create_node(type="character_sheet", title="C")
    except MemgraphError as exc:
        out["error"] = [exc.code, exc.message]
print(json.dumps(out))
"""


def probe(path: Path, prefix: list[str]) -> dict:
    """Run ``READ_ONLY_PROBE`` in a child that starts with ``prefix``."""
    result = subprocess.run(
        [*prefix, sys.executable, "-c", READ_ONLY_PROBE, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_read_only_file_opens_for_reading_and_refuses_writes(tmp_path: Path) -> None:
    prefix = without_file_override()
    if prefix is None:
        pytest.skip("cannot drop root's permission override here (no setpriv)")
    path = tmp_path / "s.memgraph"
    make_store(path)
    path.chmod(0o444)
    before = digest(path)
    out = probe(path, prefix)
    assert out["read_only"] == "file" and out["titles"] == ["A", "B"]
    assert out["error"][0] == "STORE_READ_ONLY" and "writable" in out["error"][1]
    error = cli_error(path, "call", "createNode", '[{"type": "event"}]', prefix=prefix)
    assert error["code"] == "STORE_READ_ONLY"
    assert digest(path) == before


def test_a_file_in_a_read_only_folder_opens_for_reading(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    path = folder / "s.memgraph"
    make_store(path)
    before = digest(path)
    prefix = read_only_folder(folder)
    if prefix is None:
        pytest.skip("cannot make a read-only folder here")
    try:
        out = probe(path, prefix)
        assert out["read_only"] == "folder" and out["titles"] == ["A", "B"]
        assert out["error"][0] == "STORE_FOLDER_READ_ONLY" and "folder" in out["error"][1]
        new = cli_error(folder / "new.memgraph", "call", "--create", "getSchema", prefix=prefix)
        assert new["code"] == "STORE_FOLDER_READ_ONLY"
    finally:
        folder.chmod(0o755)
    assert digest(path) == before


# -- the change log's retention --------------------------------------------------------------------
def test_the_change_log_keeps_the_configured_number_of_steps(file_store: MemoryStore) -> None:
    file_store.set_history_retention(max_steps=5, max_days=0)
    write = file_store.write_api()
    for i in range(80):
        write.create_node(type="character_sheet", title=f"C{i}")
    undoable, _ = file_store.history.depth()
    assert 5 <= undoable <= 5 + 50
    kept = file_store.storage.execute_read("SELECT count(*) FROM batches")[0][0]
    assert kept == undoable
    assert file_store.history_retention() == retention.Retention(5, 0)
    while file_store.history.undo() is not None:
        pass
    assert len(file_store.graph.nodes) == 80 - undoable


def test_a_process_that_missed_pruned_rows_reloads(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    with MemoryStore.open(path) as lagging, MemoryStore.open(path) as busy:
        busy.set_history_retention(max_steps=1, max_days=0)
        for i in range(60):
            busy.write_api().create_node(type="character_sheet", title=f"C{i}")
        seen = lagging.sync()
        assert seen[-1].reloaded and len(lagging.graph.nodes) == 60


def test_retention_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "s.memgraph"
    make_store(path, "ABCDEF")
    shown = memgraph("--db", str(path), "retention")
    assert json.loads(shown.stdout) == {"maxSteps": 1000, "maxDays": 365.0, "undo": 6}
    changed = memgraph("--db", str(path), "retention", "--steps", "2", "--days", "0")
    assert json.loads(changed.stdout) == {"maxSteps": 2, "maxDays": 0.0, "undo": 2}
    assert cli_error(path, "retention", "--steps", "-3")["code"] == "BAD_ARGS"


def test_replacing_a_store_keeps_the_previous_one_as_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "chat.memgraph"
    make_store(path, "AB")
    export = tmp_path / "other.json"
    export.write_text(json.dumps({"nodes": {"x_1": {"type": "thread", "title": "Quest"}}}))
    assert memgraph("--db", str(path), "import-luker", str(export), "--replace").returncode == 0
    with MemoryStore.open(path, create=False) as store:
        assert [n.title for n in store.read_api().list_nodes()] == ["Quest"]
    with MemoryStore.open(tmp_path / "chat.memgraph.bak", create=False) as previous:
        assert [n.title for n in previous.read_api().list_nodes()] == ["A", "B"]
        assert previous.history.depth() == (2, 0)  # the history came along

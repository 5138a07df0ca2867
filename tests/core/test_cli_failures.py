"""The ``memgraph`` process never prints a traceback: failures are JSON lines (exit 1), usage
errors stay on stderr (exit 2), and ``call -`` reads raw bytes so a bad line is just answered."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from boundary_helpers import ROOT, make_db, run_process, strict


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return make_db(tmp_path)


def test_stdin_is_read_as_bytes_by_the_real_cli(db: Path) -> None:
    lines = b'{"call":"getNode","args":["n_1"]}\n\xff\xfe\n{"call":"getNode","args":["n_2"]}\r\n'
    done = run_process(db, "call", "-", stdin=lines)
    assert done.returncode == 1 and done.stderr == b""
    out = [strict(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert [o.get("result", {}).get("id") for o in out] == ["n_1", None, "n_2"]
    assert "not valid UTF-8" in out[1]["error"]["message"]


def test_undecodable_argv_is_answered_in_json(db: Path) -> None:
    for argv in ([b"\xff"], [b"getNode", b'["\xff"]'], [b"getNode", b"[\xff]"]):
        done = run_process(db, "call", *argv)
        assert done.returncode == 1, done
        assert done.stderr == b"", done.stderr.decode(errors="replace")
        [line] = done.stdout.decode("utf-8").splitlines()
        assert strict(line)["error"]["code"] == "BAD_ARGS"


def test_a_reader_that_goes_away_gets_no_traceback(db: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "memgraph_gui.cli", "--db", str(db), "call", "-"]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(b'{"call":"getNode","args":["n_1"]}\n')
        proc.stdin.flush()
        assert strict(proc.stdout.readline().decode())["result"]["id"] == "n_1"
        proc.stdout.close()
        for step in (
            lambda: proc.stdin.write(b'{"call":"getSchema"}\n' * 20_000),
            proc.stdin.close,
        ):
            try:
                step()
            except BrokenPipeError:
                pass
        assert proc.wait(timeout=60) == 1
        assert b"Traceback" not in proc.stderr.read()


def test_store_failures_are_json_lines(tmp_path: Path) -> None:
    junk = tmp_path / "junk.memgraph"
    junk.write_bytes(b"not a database" * 100)
    for path in (junk, tmp_path):
        done = run_process(path, "call", "getNode", '["n_1"]')
        assert done.returncode == 1 and b"Traceback" not in done.stderr
        assert "error" in strict(done.stdout.decode())
        done = run_process(path, "call", "-", stdin=b'{"call":"history"}\n\n{"call":"getNode"}\n')
        assert done.returncode == 1 and b"Traceback" not in done.stderr
        lines = [strict(line) for line in done.stdout.decode().splitlines()]
        assert len(lines) == 2 and all("error" in line for line in lines)


def test_usage_errors_stay_exit_two_on_stderr(tmp_path: Path) -> None:
    done = run_process(tmp_path / "x.memgraph", "call")
    assert done.returncode == 2 and done.stdout == b"" and b"usage:" in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "memgraph_gui.cli", "call", "history"],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2 and b"--db" in done.stderr

"""Errors are not swallowed: a failing subscriber is reported once, by name; ``memgraph watch``
stops cleanly, at once, when its reader goes away."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import threading
import time

from memgraph_gui.core import MemoryStore
from tests.core.processes import ROOT


class Shelf:
    def broken(self, changes: object) -> None:
        raise RuntimeError("this listener is broken")


def test_a_failing_subscriber_is_reported_once_by_name_and_the_others_still_hear(
    caplog,
) -> None:
    store = MemoryStore.open(":memory:")
    heard: list[object] = []
    store.subscribe(Shelf().broken)
    store.subscribe(heard.append)
    api = store.write_api()
    with caplog.at_level(logging.WARNING, logger="memgraph_gui"):
        for i in range(5):
            api.create_node(type="character_sheet", title=f"N{i}")
    reports = [r for r in caplog.records if "Shelf.broken" in r.getMessage()]
    assert len(reports) == 1 and reports[0].levelno == logging.ERROR
    assert reports[0].exc_info is not None  # with the traceback
    assert len(caplog.records) == 1  # not once per change
    assert len(heard) == 5
    assert store.storage.subscriber_failures() == {f"{__name__}.Shelf.broken": 5}
    store.close()


def test_memgraph_watch_into_head_exits_zero_at_once(file_store) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = (
        f"set -o pipefail; python -m memgraph_gui.cli --db '{file_store.path}' watch | head -1"
    )
    env["PATH"] = f"{os.path.dirname(sys.executable)}:{env['PATH']}"
    pipeline = subprocess.Popen(
        ["bash", "-c", command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: killed whole below, whatever happens
    )
    stop = threading.Event()
    api = file_store.write_api()

    def keep_writing() -> None:  # until the watcher has shown a change
        i = 0
        while not stop.wait(0.2):
            api.create_node(type="character_sheet", title=f"W{i}")
            i += 1

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        assert pipeline.stdout is not None
        first = pipeline.stdout.readline()
    finally:
        stop.set()
        writer.join()
    shown = time.monotonic()
    try:
        status = pipeline.wait(timeout=10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pipeline.pid, signal.SIGKILL)
    assert '"op"' in first
    assert time.monotonic() - shown < 2.0, "the watch went on after its reader had gone"
    assert status == 0  # pipefail: the watch's own status
    assert pipeline.stderr is not None and "Traceback" not in pipeline.stderr.read()

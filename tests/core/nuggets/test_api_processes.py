"""An agent process writes through ``memgraph call`` while another process (a window, say) holds
the store open with its watcher: the holder sees the notes and the link within a second."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import ChangeSet
from memgraph_gui.core.nuggets import model
from tests.core.processes import ROOT


def test_an_agents_remember_and_add_link_reach_an_open_store_within_a_second(
    tmp_path: Path,
) -> None:
    path = tmp_path / "agent.memgraph"
    with MemoryStore.open(path) as store:
        seen: list[tuple[float, ChangeSet]] = []
        linked = threading.Event()

        def on_change(changes: ChangeSet) -> None:
            seen.append((time.time(), changes))
            if changes.external and changes.edges_added:
                linked.set()

        store.subscribe(on_change)
        store.start_watcher()
        requests = [
            {"call": "remember", "args": ["agent", "user:tea", "green", {"confidence": None}]},
            {"call": "remember", "args": ["agent", "project:cmd", "make test"]},
            {"call": "addLink", "args": ["agent", "user:tea", "PROJECT:CMD", "both"]},
        ]
        done = subprocess.run(
            [sys.executable, "-m", "memgraph_gui.cli", "--db", str(path), "call", "-"],
            input="".join(json.dumps(r) + "\n" for r in requests),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert answers == [{"result": None}, {"result": None}, {"result": True}]
        assert linked.wait(2.0), f"no external link ChangeSet within 2 s: {seen}"

        external = [(t, c) for t, c in seen if c.external]
        assert all(c.op == "nuggets" for _, c in external)
        assert [c.label for _, c in external] == [
            "Remember 'user:tea'",
            "Remember 'project:cmd'",
            "Link 'user:tea' and 'project:cmd'",
        ]
        for when, changes in external:
            committed = store.storage.execute_read(
                "SELECT ts FROM batches WHERE id=?", (changes.batch_id,)
            )[0][0]
            assert when - committed < 1.0, f"{changes.label} seen {when - committed:.3f} s late"

        notes = store.nuggets("agent").list_notes()
        assert [n["title"] for n in notes] == ["user:tea", "project:cmd"]
        tea, cmd = notes
        assert tea["links"] == [{"to": cmd["id"], "reason": "both", "createdAt": tea["updatedAt"]}]
        assert cmd["links"] == [{"to": tea["id"], "reason": "both", "createdAt": tea["updatedAt"]}]
        assert set(store.graph.edges) == {
            (tea["id"], model.LINK_EDGE, cmd["id"]),
            (cmd["id"], model.LINK_EDGE, tea["id"]),
        }
        assert {n.id for n in store.graph.nodes.values() if model.is_note(n)} == {
            tea["id"],
            cmd["id"],
        }

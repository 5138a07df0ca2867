"""``Store.guard``: a check on each batch's rows before COMMIT; what it raises rolls it back."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError

ROOT = Path(__file__).resolve().parents[2]


def _title_in_another_process(db: Path, node_id: str) -> str:
    code = (
        "import sys; from memgraph_gui.core import MemoryStore\n"
        "with MemoryStore.open(sys.argv[1], create=False) as s:\n"
        "    n = s.read_api().get_node(sys.argv[2]); print(n.title if n else '-')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(db), node_id],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=60,
        check=True,
    )
    return done.stdout.strip()


def test_a_refused_batch_leaves_the_file_the_graph_and_the_history(tmp_path: Path) -> None:
    db = tmp_path / "g.memgraph"
    with MemoryStore.open(db) as store:
        made = store.write_api().create_node(type="character_sheet", title="Ann")
        node_id = made["id"]
        seen: list[Any] = []

        def guard(graph: Any, changes: list[Any]) -> None:
            seen.append((graph.nodes[node_id].title, [(c.kind, c.key) for c in changes]))
            if any(c.kind == "node" and c.key == node_id and c.before for c in changes):
                raise MemgraphError("ACCESS_DENIED", "not this one")

        store.storage.guard = guard
        depth = len(store.history.steps())
        with pytest.raises(MemgraphError, match="not this one"):
            store.write_api().edit_node(id=node_id, title="Bea")
        assert seen[0][0] == "Ann"  # the graph as it was, before the batch
        assert ("node", node_id) in seen[0][1]
        assert store.read_api().get_node(node_id).title == "Ann"
        assert len(store.history.steps()) == depth
        assert _title_in_another_process(db, node_id) == "Ann"
        other = store.write_api().create_node(type="character_sheet", title="Cid")  # passes
        assert _title_in_another_process(db, other["id"]) == "Cid"
        store.storage.guard = None
        store.write_api().edit_node(id=node_id, title="Bea")
    assert _title_in_another_process(db, node_id) == "Bea"

"""Two real processes on one store: retrieval in one follows the records another process
writes (its candidate index kept in step by the change log), and ``memgraph call`` in a fresh
process reads what this one wrote."""

from __future__ import annotations

import json
from pathlib import Path

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from tests.core.membrane.conftest import node_ids, put, rec, trust
from tests.core.processes import call_result, run_python

WRITER = """
import json, sys
from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.changes import OpKind
from tests.core.membrane.conftest import put, rec
with MemoryStore.open(sys.argv[1], create=False) as store:
    put(store, [rec("a", sensitivity="hyper", salience=0.9), rec("new", salience=0.95)])
    with store.storage.transaction(OpKind.BATCH, "Drop b") as tx:
        for key in tx.edge_keys_touching("b"):
            tx.remove_edge(key)
        tx.remove_node("b")
print("done")
"""


def test_retrieval_follows_another_processes_writes(tmp_path: Path) -> None:
    path = tmp_path / "m.memgraph"
    with MemoryStore.open(path) as store:
        put(store, [rec("a", salience=0.9), rec("b", salience=0.5, relations=[("r", "a")])])
        api = store.membrane()
        before = api.retrieve_graph("", trust("medium"), None, None, None, None, None, 1)
        assert node_ids(before) == ["a", "b"]
        writer = run_python(WRITER, str(path))
        out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
        assert out.strip() == "done"
        after = api.retrieve_graph("", trust("medium"), None, None, None, None, None, 1)
        assert node_ids(after) == ["new"]
        assert set(api.retrieve_graph("", trust("high"))["nodes"][1]["record"]) == {
            "id",
            "type",
            "sensitivity",
            "salience",
            "scope",
            "tags",
            "created_at",
            "updated_at",
        }
        try:
            api.retrieve_by_id("a", trust("medium"))
        except MemgraphError as exc:
            assert exc.code == "ACCESS_DENIED"
        else:
            raise AssertionError("a is hyper now")
        put(
            store,
            [
                rec(
                    "mine",
                    "entity",
                    "public",
                    0.1,
                    payload={"kind": "entity", "canonical_name": "Mine"},
                )
            ],
        )
    got = call_result(
        path, "call", "retrieveGraph", json.dumps(["mine", trust("public"), ["entity"]])
    )
    assert got["root_ids"] == ["mine"]
    record = call_result(path, "call", "retrieveByID", json.dumps(["mine", trust("public")]))
    assert record["payload"] == {"kind": "entity", "canonical_name": "Mine"}

"""``WriteApi.set_summarize_instruction``: one type's AI instruction, written inside the write
transaction, so another process's schema change made meanwhile is kept."""

from __future__ import annotations

import pytest

from memgraph_gui.core import MemoryStore
from memgraph_gui.core.domain.errors import MemgraphError
from tests.core.processes import run_python

RELABEL = """
import sys
from memgraph_gui.core import MemoryStore
with MemoryStore.open(sys.argv[1], create=False) as store:
    schema = store.graph.schema.to_json()
    next(t for t in schema if t["id"] == "thread")["label"] = "Plot thread"
    store.write_api(origin="bridge").set_schema(schema)
"""


def _spec(store: MemoryStore, type_id: str) -> dict:
    with store.reading() as graph:
        return dict(graph.schema.get(type_id).raw)


def test_the_instruction_is_set_and_a_change_made_meanwhile_elsewhere_is_kept(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with MemoryStore.open(tmp_path / "m.memgraph", create=True) as store:
        store.sync()
        other = run_python(RELABEL, str(store.path))
        _out, err = other.communicate(timeout=60)
        assert other.returncode == 0, err
        result = store.write_api().set_summarize_instruction(
            type="Event", instruction="  Under 80 words.  "
        )
        assert result.payload == {"types": 4} and result.changes is not None
        assert _spec(store, "event")["compression"]["summarizeInstruction"] == "Under 80 words."
        assert _spec(store, "thread")["label"] == "Plot thread"  # the other process's edit
        store.history.undo()
        assert _spec(store, "event")["compression"]["summarizeInstruction"] == ""
        assert _spec(store, "thread")["label"] == "Plot thread"


@pytest.mark.parametrize(
    "arguments, code",
    [
        ({"type": "nope", "instruction": "x"}, "BAD_ARGS"),
        ({"type": "event", "instruction": 5}, "BAD_ARGS"),
        ({"type": "event", "instruction": "word " * 25_000}, "BAD_IMPORT"),
        ({"type": "event", "instruction": "\ud800"}, "BAD_ARGS"),
    ],
)
def test_refusals_write_nothing(arguments, code) -> None:  # type: ignore[no-untyped-def]
    with MemoryStore.open(":memory:") as store:
        before = store.dump()
        with pytest.raises(MemgraphError) as err:
            store.write_api().set_summarize_instruction(**arguments)
        assert err.value.code == code
        assert store.dump() == before

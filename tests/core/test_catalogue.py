"""The tool catalogue: each argument's declared JSON type is what the call's own checks take."""

from __future__ import annotations

from typing import Any

import pytest

from memgraph_gui.core import MemoryStore, catalogue, jsonapi
from memgraph_gui.core.demo.generator import load_demo
from memgraph_gui.core.domain.errors import MemgraphError

# a value of each JSON type; a declared type must refuse every one it does not allow
SAMPLES: dict[str, list[Any]] = {
    "string": ["text"],
    "integer": [7],
    "number": [7.5],
    "boolean": [True],
    "array": [["x"], [1]],
    "object": [{"x": 1}],
}
# The external API reads any value as its string, as JavaScript's String() does (seed).
COERCED = {("getNodeById", "id"), ("searchNodesLexical", "query")}
REFUSALS = {"BAD_ARGS", "INVALID_ARGUMENT", "OP_FAILED"}


def _allowed(schema: dict[str, Any]) -> set[str]:
    if "anyOf" in schema:
        return set().union(*(_allowed(s) for s in schema["anyOf"]))
    kind = schema["type"]
    kinds = set(kind) if isinstance(kind, list) else {kind}
    return kinds | ({"integer"} if "number" in kinds else set())


@pytest.fixture(scope="module")
def demo() -> Any:
    store = MemoryStore.open(":memory:")
    load_demo(store, 600, 3)
    yield store
    store.close()


def test_every_argument_has_a_type() -> None:
    untyped = [
        (name, a.name)
        for name, tool in catalogue.tools().items()
        for a in tool.arguments
        if not a.schema
    ]
    assert untyped == []


def test_a_value_of_an_undeclared_type_is_refused_by_the_call(demo: Any) -> None:
    accepted: list[tuple[str, str, Any]] = []
    for name, tool in catalogue.tools().items():
        for argument in tool.arguments:
            if (name, argument.name) in COERCED:
                continue
            allowed = _allowed(dict(argument.schema))
            for kind, values in SAMPLES.items():
                if kind in allowed or (kind == "integer" and "number" in allowed):
                    continue
                for value in values:
                    if kind == "array" and "array" in allowed:
                        continue
                    given = {argument.name: value}
                    if name in jsonapi.NUGGETS and argument.name != "nugget":
                        given["nugget"] = "astra"
                    try:
                        jsonapi.call(demo, name, tool.call_args(given))
                    except MemgraphError as exc:
                        if exc.code in REFUSALS:
                            continue
                    accepted.append((name, argument.name, value))
    assert accepted == [], "\n".join(map(repr, accepted))


def test_the_schema_lists_exactly_the_options_the_call_accepts() -> None:
    from memgraph_gui.core.luker.read_api import ReadApi

    tool = catalogue.tools()["listNodes"]
    assert list(tool.input_schema()["properties"]) == jsonapi.accepted_options(ReadApi.list_nodes)
    with pytest.raises(MemgraphError, match="unknown option 'nope'"):
        jsonapi.call(MemoryStore.open(":memory:"), "listNodes", [{"nope": 1}])

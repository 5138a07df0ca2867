"""Building many nodes column by column gives the same frozen nodes as the constructor."""

from __future__ import annotations

import dataclasses

import pytest

from memgraph_gui.core.domain.model import Node, nodes_from_columns


def _columns(nodes: list[Node]) -> dict[str, list[object]]:
    names = [f.name for f in dataclasses.fields(Node)]
    return {name: [getattr(n, name) for n in nodes] for name in names}


def test_columns_make_the_same_nodes_as_the_constructor() -> None:
    made = [
        Node("a", "event", title="A", seq_to=3, children_ids=("b",), ord=1),
        Node("b", "event", parent_id="a", archived=True, floor_range=(1, 2), ord=2),
        Node("c", "sheet", semantic_rollup=True, semantic_depth=2, superseded_by="a", ord=3),
    ]
    built = nodes_from_columns(_columns(made))
    assert built == made
    assert [n.ord for n in built] == [1, 2, 3]
    assert built[1].floor_range == (1, 2) and built[2].superseded_by == "a"
    with pytest.raises(dataclasses.FrozenInstanceError):
        built[0].title = "changed"  # type: ignore[misc]


def test_columns_must_name_every_field_with_as_many_values() -> None:
    columns = _columns([Node("a", "event"), Node("b", "event")])
    with pytest.raises(ValueError, match="exactly"):
        nodes_from_columns({k: v for k, v in columns.items() if k != "title"})
    with pytest.raises(ValueError, match="title has 1 values, not 2"):
        nodes_from_columns({**columns, "title": ["only one"]})
    assert nodes_from_columns(_columns([])) == []

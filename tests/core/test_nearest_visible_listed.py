"""``getNearestVisibleAncestor`` walks up first and then looks for those few ids in one pass over
the caller's ids (``args.listed``) instead of making a set of them all: the answer and every
error must be those of the plain computation it replaced (restated below as the oracle), over
random trees (cycles, missing parents, archived nodes, ids with spaces) and id arrays holding
junk."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.luker import args
from memgraph_gui.core.luker.read_api import ReadApi

MAX_SAFE = 2**53 - 1


class Tagged(str):
    pass


def old_node_id(value: Any, name: str = "id") -> str:
    """``args.node_id`` as it reads an id."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise MemgraphError("BAD_ARGS", f"{name}: expected a string id, got {type(value).__name__}")
    if isinstance(value, int) and abs(value) > MAX_SAFE:
        raise MemgraphError("BAD_ARGS", f"{name}: integer id out of range (at most {MAX_SAFE:,})")
    return str(value).strip()


def old_id_set(value: Any, name: str) -> frozenset[str]:
    """``args.id_set`` (Luker's ``toIdSet``) as it was: every item checked, trimmed, blanks and
    ``null`` dropped."""
    if value is None:
        return frozenset()
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise MemgraphError("BAD_ARGS", f"{name}: expected an array of ids")  # (seed: Iterable)
    items = value if isinstance(value, (list, tuple)) else list(value)
    if set(map(type, items)) <= {str}:
        ids = list(map(str.strip, items))
    else:
        ids = [old_node_id(item, name) for item in items if item is not None]
    return frozenset(ids) - {""}


def oracle(graph: Graph, node_id: Any, visible_ids: Any) -> str | None:
    """The call as it was: the id set first, then the id, then the walk up."""
    visible = old_id_set(visible_ids, "visibleNodeIds")
    current, guard = old_node_id(node_id), set()
    while current and current not in guard:
        guard.add(current)
        node = graph.nodes.get(current)
        if node is None or node.archived:
            return None
        if current in visible:
            return graph.nodes[current].id
        current = node.parent_id.strip()
    return None


class GraphStore:
    """Just what ``ReadApi.get_nearest_visible_ancestor`` reads of a store."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    @contextmanager
    def reading(self) -> Iterator[Graph]:
        yield self.graph


IDS = ["a", "b", "c", "d", "7", "艾", "a b"]
PARENTS = [*IDS, "", " b ", "c\t", "\u3000d", "missing", "  "]
ITEMS = st.one_of(
    st.sampled_from([*IDS, *PARENTS, " a", "b\n", "\xa0c", "A", "missing"]),
    st.sampled_from([None, 7, -7, 2**60, True, False, 1.5, math.nan, b"a", ("a",)]),
    st.builds(lambda: {"id": "a"}),
    st.builds(lambda: ["a"]),
    st.sampled_from(IDS).map(Tagged),
)
ARRAY_KINDS = ["list", "tuple", "set", "generator", "dict"]


def outcome(call: Any) -> tuple[Any, ...]:
    try:
        found = call()
    except MemgraphError as error:
        return ("error", error.code, str(error))
    return ("ok", None if found is None else getattr(found, "id", found))


def array(kind: str, items: list[Any]) -> Any:
    """A fresh id array of ``kind`` holding ``items`` (a set or dict only of hashable ones)."""
    if kind == "list":
        return list(items)
    if kind == "tuple":
        return tuple(items)
    if kind == "generator":
        return (item for item in items)
    hashable = [i for i in items if not isinstance(i, (dict, list))]
    return set(hashable) if kind == "set" else dict.fromkeys(hashable)


@settings(max_examples=400, deadline=None)
@given(
    tree=st.dictionaries(
        st.sampled_from(IDS), st.tuples(st.sampled_from(PARENTS), st.booleans()), max_size=7
    ),
    start=st.one_of(st.sampled_from([*PARENTS, " a ", "A"]), ITEMS),
    kind=st.sampled_from(ARRAY_KINDS),
    items=st.lists(ITEMS, max_size=12),
    clean=st.booleans(),
    odd=st.sampled_from([None, "ab", b"ab", 5, 1.5, None]),
    use_odd=st.integers(0, 5),
)
def test_nearest_visible_is_the_oracle(
    tree: dict[str, tuple[str, bool]],
    start: Any,
    kind: str,
    items: list[Any],
    clean: bool,
    odd: Any,
    use_odd: int,
) -> None:
    graph = Graph()
    for ord_, (node_id, (parent, archived)) in enumerate(tree.items()):
        graph.put_node(Node(id=node_id, type="t", parent_id=parent, archived=archived, ord=ord_))
    if clean:  # only strings, as a JSON caller sends (the one-pass path)
        items = [i for i in items if isinstance(i, str)]
    api = ReadApi(GraphStore(graph))  # type: ignore[arg-type]

    def value() -> Any:
        return odd if use_odd == 0 else array(kind, items)

    expected = outcome(lambda: oracle(graph, start, value()))
    found = outcome(lambda: api.get_nearest_visible_ancestor(start, visible_node_ids=value()))
    assert found == expected
    keys = outcome(lambda: args.listed(value(), "visibleNodeIds", IDS))
    every = outcome(lambda: set(IDS) & old_id_set(value(), "visibleNodeIds"))
    assert keys == every


def test_a_long_array_is_read_whole_even_when_the_node_is_missing() -> None:
    graph = Graph()
    graph.put_node(Node(id="a", type="t", ord=1))
    api = ReadApi(GraphStore(graph))  # type: ignore[arg-type]
    ids = [f"n_{i}" for i in range(5_000)]
    assert api.get_nearest_visible_ancestor("a", visible_node_ids=[*ids, " a "]).id == "a"
    for node_id in ("a", " a", "missing", "", None):  # found at once or not at all: read whole
        with pytest.raises(MemgraphError, match=r"visibleNodeIds: expected a string id, got dict"):
            api.get_nearest_visible_ancestor(node_id, visible_node_ids=["a", *ids, {"id": "a"}])
    with pytest.raises(MemgraphError, match=r"visibleNodeIds: expected a string id, got float"):
        api.get_nearest_visible_ancestor(1.5, visible_node_ids=[*ids, 2.5])  # the ids named first
    with pytest.raises(MemgraphError, match=r"^BAD_ARGS: id: expected a string id, got float"):
        api.get_nearest_visible_ancestor(1.5, visible_node_ids=ids)


ASCII_IDS = st.text(st.sampled_from(["a", "b", "!", " ", "\t", "\x00", "\x1c", "\x1f", "\x7f"]))


@settings(max_examples=400, deadline=None)
@given(
    items=st.lists(ASCII_IDS, max_size=8),
    wanted=st.lists(ASCII_IDS.map(str.strip).filter(bool), max_size=4),
    kind=st.sampled_from(["list", "tuple", "set", "generator"]),
)
def test_listed_is_the_id_set_for_any_ascii_ids(
    items: list[str], wanted: list[str], kind: str
) -> None:
    """Separators, spaces and control characters in the ids (the joined search's cases)."""
    assert args.listed(array(kind, items), "x", wanted) == set(wanted) & old_id_set(
        array(kind, items), "x"
    )


def test_an_id_holding_the_separator_is_not_found_across_two_items() -> None:
    graph = Graph()
    graph.put_node(Node(id="p\x00q", type="t", ord=1))
    api = ReadApi(GraphStore(graph))  # type: ignore[arg-type]
    assert api.get_nearest_visible_ancestor("p\x00q", visible_node_ids=["p", "q"]) is None
    assert args.listed(["p", "q"], "x", ["p\x00q", "q"]) == {"q"}
    assert api.get_nearest_visible_ancestor("p\x00q", visible_node_ids=["p\x00q"]).id == "p\x00q"

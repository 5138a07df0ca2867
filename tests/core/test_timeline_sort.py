"""The timeline order (seqTo, then the id by ``localeCompare``) is the same whichever sort makes
it: numpy's (ASCII ids, machine-integer seqs: no GIL held) or Python's (any other)."""

from __future__ import annotations

import random

import pytest

from memgraph_gui.core.domain.collation import sort_keys
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.graph.graph import Graph


@pytest.mark.parametrize(
    ("prefixes", "seqs"),
    [
        (["n_", "N_", "a", "Z", "n-", "n_0"], [0, 1, 2, 5]),  # numpy for both sorts
        (["n_", "N_", "a"], [0, 1, 2**70]),  # a seq too big for int64: Python's sort
        (["n_", "伊", "é", "a"], [0, 3, 3, 4]),  # non-ASCII ids: Python's sort by UCA keys
    ],
)
@pytest.mark.parametrize("numpy_from", [0, 10**9])
def test_the_timeline_is_seq_then_id_whichever_sort_makes_it(
    prefixes, seqs, numpy_from, monkeypatch
) -> None:
    from memgraph_gui.core.graph import graph as graph_module

    monkeypatch.setattr(graph_module, "NUMPY_SORT_FROM", numpy_from)
    rng = random.Random(7)
    graph = Graph()
    for _ in range(2_000):
        node_id = rng.choice(prefixes) + str(rng.randint(0, 400))
        graph.nodes[node_id] = Node(node_id, "event", seq_to=rng.choice(seqs))
    ids = list(graph.nodes)
    keys = dict(zip(ids, sort_keys(ids), strict=True))
    expected = sorted(ids, key=lambda i: (graph.nodes[i].seq_to, keys[i]))
    assert graph.timeline_ids() == expected

"""Big containers dropped and checked a slice at a time give what doing it at once gives."""

from __future__ import annotations

import time

from memgraph_gui.core.domain import pieces


def test_release_empties_lists_and_dicts_and_leaves_what_others_hold() -> None:
    kept = ["held elsewhere"]
    items = [[i] for i in range(2 * pieces.SLICE + 3)] + [kept]
    table = {i: [i] for i in range(pieces.SLICE + 1)} | {"kept": kept}
    keys = {(i, "knows", i + 1) for i in range(pieces.SLICE + 1)}
    for each in (items, table, keys):
        pieces.release(each)
    assert items == [] and table == {} and keys == set() and kept == ["held elsewhere"]


def test_all_distinct_finds_repeats_within_and_across_slices() -> None:
    size = 2 * pieces.SLICE + 7
    ids = [f"n_{i}" for i in range(size)]
    assert pieces.all_distinct(ids, str.strip)
    assert not pieces.all_distinct([*ids, "n_0"], str.strip)  # across slices
    assert not pieces.all_distinct(["a", "a", *ids], str.strip)  # in the first slice
    assert not pieces.all_distinct(ids, lambda text: text[:3])  # keys, not items, compared
    assert pieces.all_distinct([], str.strip)
    assert [len(part) for part in pieces.slices(ids)] == [pieces.SLICE, pieces.SLICE, 7]


def test_rows_of_and_column_a_slice_at_a_time_equal_one_pass() -> None:
    size = 2 * pieces.SLICE + 11
    keys = [(f"n_{i}", "knows", f"n_{(i * 7) % size}") for i in range(size)]
    keys[::97] = [(k[0], k[1], "gone") for k in keys[::97]]  # some ends missing, in each slice
    index = {f"n_{i}": i for i in range(size)}
    sources, targets = pieces.column(keys, 0), pieces.column(keys, 2)
    assert sources == [k[0] for k in keys] and targets == [k[2] for k in keys]
    rows = pieces.rows_of(index, targets)
    assert rows.dtype.name == "int32" and len(rows) == size
    assert rows.tolist() == [index.get(t, -1) for t in targets]  # missing ends are -1
    assert (rows == -1).any() and pieces.rows_of(index, []).tolist() == []


def test_mapped_array_of_and_index_of_a_slice_at_a_time_equal_one_pass() -> None:
    import numpy as np

    size = 2 * pieces.SLICE + 5
    items = [f"n_{i % (size - 3)}" for i in range(size)]  # the last three repeat earlier ones
    assert pieces.mapped(str.upper, items) == [i.upper() for i in items]
    lengths = pieces.array_of(len, items, np.int32)
    assert lengths.dtype.name == "int32" and lengths.tolist() == [len(i) for i in items]
    assert pieces.index_of(items) == {item: row for row, item in enumerate(items)}
    assert pieces.mapped(str.upper, []) == [] and pieces.index_of([]) == {}
    assert pieces.array_of(len, [], np.int32).tolist() == []


def test_releasing_empties_a_step_at_a_time() -> None:
    items, table = list(range(2_500)), {i: str(i) for i in range(2_500)}
    for each in (items, table):
        steps = pieces.releasing(each, step=1_000)
        next(steps)
        assert len(each) == 1_500  # one step freed, the rest waits for the next
        assert sum(1 for _ in steps) == 2 and not each


def test_dismantling_waits_for_other_holders_then_empties_each_part() -> None:
    nodes, edges = {i: [i] for i in range(2 * pieces.STEP)}, [[i] for i in range(10)]
    holder = [nodes]  # a reader still using the graph these came from
    steps = pieces.dismantling([nodes, None, [], edges])
    del edges
    seen = [next(steps) for _ in range(3)]
    assert seen == [True, False, False]  # the free part went first; then it waits
    assert len(nodes) == 2 * pieces.STEP  # nothing taken from what another still holds
    holder.clear()
    nodes_seen = nodes
    del nodes  # the last holder lets go (``nodes_seen`` below is only this test's look)
    assert next(steps) is False  # still held here, by the test: emptying would show
    del nodes_seen
    assert list(steps) == [True, True]  # now freed, a step at a time, then done


def test_dismantling_gives_up_after_its_patience() -> None:
    held = {1: 1}
    steps = pieces.dismantling([held], patience=0.005)
    assert next(steps) is False
    time.sleep(0.02)
    assert list(steps) == [] and held == {1: 1}  # left to its holder


def test_releasing_empties_a_big_item_nothing_else_holds_a_step_at_a_time() -> None:
    shared = list(range(5_000))  # a reader still holds it: never emptied
    cache = {"rows": list(range(5_000)), "shared": shared, "small": [1, 2]}
    steps = pieces.releasing(cache, step=1_000)
    count = sum(1 for _ in steps)
    assert count >= 5  # the 5,000 rows went in steps, not in the step that popped them
    assert cache == {} and shared == list(range(5_000))

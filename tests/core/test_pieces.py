"""Big containers dropped and checked a slice at a time give what doing it at once gives."""

from __future__ import annotations

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

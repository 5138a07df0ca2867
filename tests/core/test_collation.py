"""The batch collation keys order texts exactly as the per-text keys do."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from memgraph_gui.core.domain.collation import ascii_key, sort_keys, uca_key

ASCII = st.text(alphabet=string.printable + "\x00\x01\x1f\x7f", max_size=8)


def _order(keys: list[object]) -> list[int]:
    return sorted(range(len(keys)), key=keys.__getitem__)  # type: ignore[arg-type]


@given(st.lists(ASCII, max_size=30))
def test_ascii_batch_keys_order_like_ascii_key(texts: list[str]) -> None:
    assert _order(sort_keys(texts)) == _order([ascii_key(t) for t in texts])


@settings(deadline=None)  # the first call loads pyuca's collation table
@given(st.lists(st.text(max_size=6), min_size=1, max_size=12))
def test_any_text_falls_back_to_the_full_collation(texts: list[str]) -> None:
    expected = [ascii_key(t) if t.isascii() else uca_key(t) for t in texts]
    if all(t.isascii() for t in texts):
        assert _order(sort_keys(texts)) == _order(expected)
    else:
        assert sort_keys(texts) == [uca_key(t) for t in texts]


def test_localecompare_basics() -> None:
    texts = ["b", "B", "a", "_x", "10", "9", "A"]
    assert [texts[i] for i in _order(sort_keys(texts))] == ["_x", "10", "9", "a", "A", "b", "B"]

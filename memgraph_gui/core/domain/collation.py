"""JavaScript ``localeCompare`` order (ICU root collation) for ids and titles.

Luker sorts ties by ``a.id.localeCompare(b.id)``. For ASCII text the Unicode Collation Algorithm
reduces to a primary order (punctuation < digits < letters, case-blind) and then a tertiary pass
(lower before upper), which ``str.translate`` computes at C speed. Anything else goes through
pyuca's full DUCET collator, loaded on first need.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

# ASCII in ICU root primary order; letters pair case variants on one primary weight.
_PRIMARY_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"
_PRIMARY: dict[int, str | None] = {c: None for c in range(32)}  # controls are ignorable
_PRIMARY[127] = None
_TERTIARY: dict[int, str | None] = dict(_PRIMARY)
for _rank, _ch in enumerate(_PRIMARY_ORDER, start=1):
    _PRIMARY[ord(_ch)] = chr(_rank)
    _TERTIARY[ord(_ch)] = "\x01"
    if _ch.isalpha():
        _PRIMARY[ord(_ch.upper())] = chr(_rank)
        _TERTIARY[ord(_ch.upper())] = "\x02"


@lru_cache(maxsize=1)
def _collator() -> Any:
    from pyuca import Collator

    return Collator()


@lru_cache(maxsize=262_144)
def ascii_key(text: str) -> tuple[str, str]:
    """Collation key of an ASCII string (only comparable with other ``ascii_key`` results)."""
    return (text.translate(_PRIMARY), text.translate(_TERTIARY))


@lru_cache(maxsize=262_144)
def uca_key(text: str) -> tuple[int, ...]:
    """Full UCA collation key of any string (comparable with other ``uca_key`` results)."""
    return tuple(_collator().sort_key(text))


def key_function(texts: Iterable[str]) -> Callable[[str], Any]:
    """The fastest key function that orders every string of ``texts`` like ``localeCompare``."""
    return ascii_key if all(t.isascii() for t in texts) else uca_key


def sort_locale(texts: Iterable[str]) -> list[str]:
    """``texts`` sorted as JS ``[...].sort((a, b) => a.localeCompare(b))`` sorts them."""
    items = list(texts)
    return sorted(items, key=key_function(items))


def _byte_table(weights: dict[int, str | None]) -> tuple[bytes, bytes]:
    """``weights`` as a ``bytes.translate`` table and its deleted bytes (0xff maps to itself)."""
    table = bytearray(range(256))
    for code, weight in weights.items():
        if weight is not None:
            table[code] = ord(weight)
    return bytes(table), bytes(code for code, weight in weights.items() if weight is None)


_PRIMARY_BYTES, _TERTIARY_BYTES = _byte_table(_PRIMARY), _byte_table(_TERTIARY)


def sort_keys(texts: list[str]) -> list[Any]:
    """One ``localeCompare``-ordered key per text (all comparable with each other).

    For ASCII text each key is one string, primary weights then ``"\x00"`` then tertiary
    weights (ordered as the ``ascii_key`` pair is), made by two ``bytes.translate`` calls over
    the joined texts: ~10 ms for 50k ids against ~0.1 s one by one.
    """
    if not all(map(str.isascii, texts)):
        return list(map(uca_key, texts))
    if not texts:
        return []
    joined = "\xff".join(texts).encode("latin-1")  # 0xff is never in ASCII text
    primary = joined.translate(*_PRIMARY_BYTES).decode("latin-1").split("\xff")
    tertiary = joined.translate(*_TERTIARY_BYTES).decode("latin-1").split("\xff")
    return list(map("\x00".join, zip(primary, tertiary, strict=True)))

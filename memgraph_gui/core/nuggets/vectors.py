"""Nuggets' FHRR note vectors, exact to float64 and cheap (``searchNotes``' ``vectorScore``).

Nuggets builds a note's vector from its basis terms (``vector.basis``, ``D`` = 16384): term ``k``
(from 0) is the role ``e^(2πi·kd/D)`` bound to the term's key ``e^(2πi·u_d)``, ``u`` the
mulberry32 draws from the term's 32-bit seed; the bound terms are summed and scaled by
``1/√n`` (an empty basis is the one term ``empty``), the row ``[Re | Im]`` divided by its norm
(+1e-12), and ``vectorScore = (query row · note row + 1) / 2``.

The seed is the term's first four UTF-8 bytes, so a note's vector is fixed by its sequence of
``(position, seed)`` pairs and a store holds a few hundred distinct pairs at most. So:

- a bound term (one ``D``-length row) is computed once per distinct pair (``_rows``, bounded);
- a sequence's scale and norm are computed once per distinct sequence (``factor``, keyed by the
  sequence itself, so it stays valid whatever happens to the notes);
- per query, the query row's dot with each distinct pair among the candidates (``pair_dots``);
  as the query row is its own pairs' rows summed times its factor, that dot is the factor times
  a sum of dots of two bound rows, each computed once (one ``D``-length dot) and cached. A
  note's dot is the sum of its pairs' dots times its sequence's factor.

Each step computes what Nuggets computes (the same phases, ``atan2``, wrap, magnitudes, sum
order of the query vector), only regrouped: results agree with it to ~1e-15.

Thread: the caches are guarded by one lock; every function may be called from any thread.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

D = 16384
"""The vector dimension Nuggets uses for its graph layer."""
EMPTY_TERM = "empty"
"""The one term of an empty basis."""
TWO_PI = 2 * math.pi
_GOLDEN = 0x6D2B79F5  # mulberry32's increment
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
ROW_CACHE_LIMIT = 512
"""Bound rows kept (256 KB each); pairs past that are computed when needed, never kept."""
FACTOR_CACHE_LIMIT = 200_000
"""Sequence factors kept before the cache is emptied and refilled."""
PREFIX_CACHE_LIMIT = 100_000
"""Term prefixes whose seeds are kept before that cache is emptied and refilled."""
GRAM_CACHE_LIMIT = 1_000_000
"""Dots of two pairs' bound rows kept before the cache is emptied and refilled."""

Pair = tuple[int, int]  # (position, 32-bit seed)
FloatArray = npt.NDArray[np.float64]

_lock = threading.Lock()
_rows: dict[Pair, FloatArray] = {}
_factors: dict[tuple[int, ...], float] = {}
_grams: dict[tuple[Pair, Pair], float] = {}
_prefix_seeds: dict[str, int] = {}  # a term's first four characters -> its seed
_positions = np.arange(D, dtype=np.float64)
_steps = np.arange(1, D + 1, dtype=np.uint64) * np.uint64(_GOLDEN)


def _js_term(term: Any) -> str:
    """The text ``TextEncoder.encode`` sees for a basis entry (``String(term)``)."""
    if isinstance(term, str):
        return term
    if term is None:
        return "null"
    if isinstance(term, bool):
        return "true" if term else "false"
    if isinstance(term, float) and term.is_integer():
        return str(int(term))
    return str(term)


def term_seed(term: Any) -> int:
    """``seedFromName``: the term's first four UTF-8 bytes, little-endian, zero-padded (lone
    surrogates encode as U+FFFD, as ``TextEncoder`` does)."""
    text = _js_term(term)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = _LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")
    return int.from_bytes(data[:4].ljust(4, b"\x00"), "little")


def mulberry32(seed: int, count: int = D) -> FloatArray:
    """The first ``count`` draws of ``mulberry32(seed)`` (each in [0, 1)), vectorised: the
    generator's state after step ``i`` is ``seed + i·0x6d2b79f5`` modulo 2^32."""
    state = ((np.uint64(seed & 0xFFFFFFFF) + _steps[:count]) & np.uint64(0xFFFFFFFF)).astype(
        np.uint32
    )
    t = (state ^ (state >> np.uint32(15))) * (state | np.uint32(1))
    t = (t + (t ^ (t >> np.uint32(7))) * (t | np.uint32(61))) ^ t
    draws: FloatArray = (t ^ (t >> np.uint32(14))).astype(np.float64) / 4294967296.0
    return draws


def bound_row(position: int, seed: int) -> FloatArray:
    """``bind(roleKey[position], makeKeyFromText(term))`` as the row ``[Re | Im]`` (every step
    as Nuggets takes it: cos/sin of both phases, ``atan2`` back, the sum wrapped into
    (-π, π], the product of the magnitudes)."""
    role = (position * TWO_PI) * _positions / D
    role_re, role_im = np.cos(role), np.sin(role)
    key = TWO_PI * mulberry32(seed)
    key_re, key_im = np.cos(key), np.sin(key)
    phase = np.arctan2(role_im, role_re) + np.arctan2(key_im, key_re)
    out = (phase > math.pi) | (phase <= -math.pi)
    if out.any():
        wrapped = np.fmod(np.fmod(phase[out] + math.pi, TWO_PI) + TWO_PI, TWO_PI) - math.pi
        phase[out] = wrapped
    magnitude = np.sqrt(
        (role_re * role_re + role_im * role_im) * (key_re * key_re + key_im * key_im)
    )
    return np.concatenate((np.cos(phase) * magnitude, np.sin(phase) * magnitude))


def _dot(a: FloatArray, b: FloatArray) -> float:
    """``a · b`` by numpy's own loop (``np.dot`` goes to BLAS, which may spread one 32k dot
    over threads: on a busy machine ~50x slower)."""
    return float(np.einsum("i,i->", a, b))


def _row(pair: Pair) -> FloatArray:
    with _lock:
        row = _rows.get(pair)
    if row is None:
        row = bound_row(*pair)
        row.flags.writeable = False
        with _lock:
            if len(_rows) < ROW_CACHE_LIMIT:
                _rows[pair] = row
    return row


def basis_seeds(basis: Any) -> tuple[int, ...]:
    """The seeds of a stored basis, in order (``('empty',)``'s for an empty or missing one).
    A seed depends only on a term's first four characters (at least its first four bytes), so
    it is looked up by them."""
    terms = basis if isinstance(basis, (list, tuple)) and basis else (EMPTY_TERM,)
    seeds = _prefix_seeds
    if all(type(term) is str for term in terms):
        try:  # every prefix seen before: one dict lookup a term
            return tuple([seeds[term[:4]] for term in terms])
        except KeyError:
            pass
    out = []
    for term in terms:
        if type(term) is str:
            prefix = term[:4]
            seed = seeds.get(prefix)
            if seed is None:
                if len(seeds) >= PREFIX_CACHE_LIMIT:
                    seeds.clear()
                seed = seeds[prefix] = term_seed(prefix)
        else:
            seed = term_seed(term)
        out.append(seed)
    return tuple(out)


def query_basis(query: str, options: Any = None) -> list[str]:
    """``buildQueryBasis``: ``query:<tok>`` for the query's first 10 tokens, deduped (none:
    ``query:<query trimmed, lower-cased>``), then the filter's ``subject:`` ``scope:`` ``type:``."""
    from memgraph_gui.core.nuggets.text import js_trim, tokenize, unique

    tokens = tokenize(query)[:10]
    basis = [f"query:{t}" for t in tokens] if tokens else [f"query:{js_trim(query).lower()}"]
    if options:
        for name in ("subject", "scope", "type"):
            value = options.get(name)
            if value:
                basis.append(f"{name}:{_js_term(value)}")
    return unique(basis)


def _summed(seeds: Sequence[int]) -> FloatArray:
    """The bound terms of ``seeds`` summed in order, then scaled by ``1/√n`` (Nuggets'
    ``vectorFromBasis`` as a row)."""
    total = np.zeros(2 * D)
    for position, seed in enumerate(seeds):
        total += _row((position, seed))
    return total * (1 / math.sqrt(len(seeds)))


def unit_row(seeds: Sequence[int]) -> FloatArray:
    """``stackAndUnitNorm`` of the vector of ``seeds``: the row divided by (its norm + 1e-12)."""
    row = _summed(seeds)
    return row * (1 / (math.sqrt(_dot(row, row)) + 1e-12))


def factor(seeds: tuple[int, ...]) -> float:
    """What a sum of the sequence's bound rows is multiplied by to give its unit row:
    ``(1/√n) / (norm + 1e-12)`` (cached per sequence)."""
    return factors([seeds])[0]


def factors(sequences: Sequence[tuple[int, ...]]) -> list[float]:
    """``factor`` of each sequence, the ones not cached yet computed together: a sequence's
    squared norm is the sum of the dots of its bound rows two by two (each dot cached), which
    is its summed row's own dot product, regrouped."""
    with _lock:
        found = [_factors.get(seeds) for seeds in sequences]
    missing = list(dict.fromkeys(s for s, f in zip(sequences, found, strict=True) if f is None))
    if missing:
        computed = dict(zip(missing, _factors_of(missing), strict=True))
        with _lock:
            if len(_factors) + len(computed) > FACTOR_CACHE_LIMIT:
                _factors.clear()
            _factors.update(computed)
        found = [computed.get(s, f) for s, f in zip(sequences, found, strict=True)]
    return found  # type: ignore[return-value]


def _factors_of(sequences: list[tuple[int, ...]]) -> list[float]:
    numbers: dict[Pair, int] = {}
    for seeds in sequences:
        for pair in enumerate(seeds):
            numbers.setdefault(pair, len(numbers))
    pairs = list(numbers)
    gram = np.zeros((len(pairs) + 1, len(pairs) + 1))  # the last row and column: padding
    together = {
        (numbers[a], numbers[b])
        for seeds in sequences
        for a in enumerate(seeds)
        for b in enumerate(seeds)
    }
    for i, j in together:
        if i <= j:
            gram[i, j] = gram[j, i] = _gram(pairs[i], pairs[j])
    width = max(len(seeds) for seeds in sequences)
    index = np.full((len(sequences), width), len(pairs), np.intp)
    for row, seeds in enumerate(sequences):
        index[row, : len(seeds)] = [numbers[pair] for pair in enumerate(seeds)]
    squared = gram[index[:, :, None], index[:, None, :]].sum(axis=(1, 2))
    scale = 1 / np.sqrt(np.array([len(seeds) for seeds in sequences], np.float64))
    out: FloatArray = scale * (1 / (np.sqrt(squared * (scale * scale)) + 1e-12))
    return [float(f) for f in out]


def _gram(a: Pair, b: Pair) -> float:
    """``row(a) · row(b)`` (cached: a pure function of the two pairs)."""
    key = (a, b) if a <= b else (b, a)
    with _lock:
        found = _grams.get(key)
    if found is None:
        found = _dot(_row(a), _row(b))
        with _lock:
            if len(_grams) >= GRAM_CACHE_LIMIT:
                _grams.clear()
            _grams[key] = found
    return found


def pair_dots(query_seeds: tuple[int, ...], pairs: Iterable[Pair]) -> list[float]:
    """``unit_row(query_seeds) · bound row`` for each pair: the query's factor times the sum of
    the pair's dots with the query's own bound rows (each such dot one ``D``-length dot, once)."""
    scale = factor(query_seeds)
    own = list(enumerate(query_seeds))
    return [scale * sum(_gram(q, pair) for q in own) for pair in pairs]


def vector_score(query_seeds: tuple[int, ...], seeds: tuple[int, ...]) -> float:
    """One note's ``vectorScore`` against a query's basis seeds (the shortcut, for one note)."""
    dots = pair_dots(query_seeds, enumerate(seeds))
    return (sum(dots) * factor(seeds) + 1) / 2

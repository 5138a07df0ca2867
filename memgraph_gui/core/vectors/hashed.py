"""The offline default embedding profile: hashed character n-grams, no download, any script.

A text is folded (Unicode NFKC, case-folded) and cut into runs of letters and digits. A run of
CJK characters (no spaces between words) gives its characters and each pair of neighbours; any
other run gives the word itself and its character trigrams with boundary marks (``<be``,
``bet`` … ``al>``), so "betrayed" and "betrayal" share most of theirs. Each gram is hashed with
CRC-32 (the same in every process and on every machine, unlike Python's ``hash``) to one of
``DIM`` dimensions and a sign; counts are damped (1 + log) and the vector is scaled to unit
length, so a dot product is the cosine similarity. An empty text gives the zero vector.
Deterministic; pure; any thread.
"""

from __future__ import annotations

import math
import re
import unicodedata
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain

import numpy as np

PROFILE = "hashed-ngrams-v1"
"""The profile's name in a store's settings."""
DIM = 256
_RUN = re.compile(r"\w+")
_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_CJK = re.compile(f"[{_CJK_CHARS}]")
_PARTS = re.compile(f"[{_CJK_CHARS}]+|[^{_CJK_CHARS}]+")  # CJK stretches, and the rest


def grams(text: str) -> Counter[str]:
    """The features of ``text`` (see the module docstring), with their counts."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return Counter(chain.from_iterable(map(_run_grams, _RUN.findall(folded))))


def _run_grams(run: str) -> tuple[str, ...]:
    """The features of one run of letters and digits (remembered: words recur)."""
    found = _RUNS.get(run)
    if found is None:
        if _CJK.search(run):
            found = tuple(_cjk_grams(run))
        else:
            marked = f"<{run}>"
            found = (run, *(marked[i : i + 3] for i in range(len(marked) - 2)))
        if len(_RUNS) >= CACHE_LIMIT:
            _RUNS.clear()
        _RUNS[run] = found
    return found


def _cjk_grams(run: str) -> Iterable[str]:
    """A mixed run: its CJK characters and neighbour pairs; other letters as a word each."""
    for part in _PARTS.findall(run):
        if _CJK.match(part):
            yield from part
            yield from (part[i : i + 2] for i in range(len(part) - 1))
        else:
            yield part


def _run_codes(run: str) -> tuple[int, ...]:
    """The CRC-32 of each feature of one run (remembered)."""
    found = _CODES.get(run)
    if found is None:
        found = tuple(zlib.crc32(gram.encode("utf-8")) for gram in _run_grams(run))
        if len(_CODES) >= CACHE_LIMIT:
            _CODES.clear()
        _CODES[run] = found
    return found


CACHE_LIMIT = 200_000
"""Runs remembered (each cache is emptied when full; only speed depends on it)."""
_RUNS: dict[str, tuple[str, ...]] = {}
_CODES: dict[str, tuple[int, ...]] = {}


def embed(texts: Sequence[str], dim: int = DIM) -> np.ndarray:
    """One unit-length float32 row per text (``len(texts) × dim``). Any thread.

    Features are counted by their CRC-32 (two features with one code, a chance of 2^-32 a pair,
    count as one)."""
    cells: list[int] = []
    weights: list[float] = []
    log = math.log
    for row, text in enumerate(texts):
        base = row * dim
        folded = unicodedata.normalize("NFKC", text).casefold()
        counts = Counter(chain.from_iterable(map(_run_codes, _RUN.findall(folded))))
        for code, count in counts.items():
            cells.append(base + code % dim)
            weights.append((1.0 if code & 0x80000000 else -1.0) * (1 + log(count)))
    flat = np.bincount(
        np.asarray(cells, np.int64), np.asarray(weights, np.float64), len(texts) * dim
    )
    out = flat.reshape(len(texts), dim).astype(np.float32)
    norms = np.linalg.norm(out, axis=1)
    np.divide(out, norms[:, None], out=out, where=norms[:, None] > 0)
    return out

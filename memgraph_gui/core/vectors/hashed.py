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
    out: Counter[str] = Counter()
    folded = unicodedata.normalize("NFKC", text).casefold()
    for run in _RUN.findall(folded):
        if _CJK.search(run):
            out.update(_cjk_grams(run))
        else:
            out[run] += 1
            marked = f"<{run}>"
            out.update(marked[i : i + 3] for i in range(len(marked) - 2))
    return out


def _cjk_grams(run: str) -> Iterable[str]:
    """A mixed run: its CJK characters and neighbour pairs; other letters as a word each."""
    for part in _PARTS.findall(run):
        if _CJK.match(part):
            yield from part
            yield from (part[i : i + 2] for i in range(len(part) - 1))
        else:
            yield part


def embed(texts: Sequence[str], dim: int = DIM) -> np.ndarray:
    """One unit-length float32 row per text (``len(texts) × dim``)."""
    out = np.zeros((len(texts), dim), np.float32)
    for row, text in enumerate(texts):
        for gram, count in grams(text).items():
            code = zlib.crc32(gram.encode("utf-8"))
            out[row, code % dim] += (1.0 if code & 0x80000000 else -1.0) * (1 + math.log(count))
    norms = np.linalg.norm(out, axis=1)
    np.divide(out, norms[:, None], out=out, where=norms[:, None] > 0)
    return out

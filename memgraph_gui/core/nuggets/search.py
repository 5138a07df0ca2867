"""Nuggets' ``searchNotes``, exact to float64 (``score``, ``vectorScore``, ``textScore``).

- ``textScore``: ``q`` = the query lower-cased and trimmed (empty: 0). 0.75 if the note's
  haystack (``note_index.note_haystack``) contains ``q``, plus the share of ``q``'s distinct
  tokens that the haystack's tokens hold (0 to 1.75).
- ``vectorScore``: ``(query row · note row + 1) / 2`` with Nuggets' FHRR vectors (``vectors``).
- ``raw = 0.42·vectorScore + 0.48·min(textScore, 1.5)/1.5 + metadata boost``.
- Candidates = ``listNotes(filter)`` (hidden ones too when ``includeHidden`` asks: the seed),
  sorted by ``raw`` descending, ties in list order; a softmax at T = 0.35 over all candidates
  gives ``score``; the first ``limit`` come back.

Every step is a few array operations over the note index's columns: no note is parsed, and the
vectors cost one ``D``-length dot per distinct ``(position, seed)`` pair among the candidates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.nuggets import vectors
from memgraph_gui.core.nuggets.model import note_json
from memgraph_gui.core.nuggets.note_index import NoteIndex, note_index
from memgraph_gui.core.nuggets.text import js_trim, tokenize, unique

TEMPERATURE = 0.35
VECTOR_WEIGHT = 0.42
TEXT_WEIGHT = 0.48
TEXT_CAP = 1.5
PHRASE_SCORE = 0.75
DEFAULT_LIMIT = 5

Floats = npt.NDArray[np.float64]
Slots = npt.NDArray[np.intp]


def text_scores(index: NoteIndex, slots: Slots, query: str) -> Floats:
    """``scoreTextMatch`` of ``query`` for each of ``slots``."""
    q = js_trim(query.lower())
    if not q:
        return np.zeros(len(slots))
    scores: Floats = np.where(index.phrase_hits(q, slots), PHRASE_SCORE, 0.0)
    tokens = unique(tokenize(q))
    if tokens:
        scores = scores + index.token_counts(tokens, slots) / len(tokens)
    return scores


def vector_scores(
    index: NoteIndex, slots: Slots, query: str, options: Mapping[str, Any] | None
) -> Floats:
    """``vectorScore`` of the query's basis (``vectors.query_basis``) for each of ``slots``."""
    query_seeds = vectors.basis_seeds(vectors.query_basis(query, options))
    sequences = index.sequence[slots]
    used = np.zeros(len(index.sequence_seeds), bool)
    used[sequences] = True
    numbers = np.flatnonzero(used)
    factors = index.sequence_factor
    missing = numbers[np.isnan(factors[numbers])]
    if len(missing):
        seeds = index.sequence_seeds
        factors[missing] = vectors.factors([seeds[n] for n in missing.tolist()])
    pair_rows = index.sequence_pairs[numbers]
    wanted = np.zeros(len(index.pairs) + 1, bool)  # the last: the padding's (a zero dot)
    wanted[pair_rows] = True
    numbers_of_pairs = np.flatnonzero(wanted[:-1]).tolist()
    pairs = [index.pairs[p] for p in numbers_of_pairs]
    dots = np.zeros(len(index.pairs) + 1)
    dots[numbers_of_pairs] = vectors.pair_dots(query_seeds, pairs)
    by_sequence = np.zeros(len(used))
    by_sequence[numbers] = dots[pair_rows].sum(axis=1) * factors[numbers]
    return (by_sequence[sequences] + 1) / 2


def _slice_end(limit: Any, count: int) -> int:
    """How many results ``slice(0, limit)`` keeps of ``count`` (``None``: the default 5;
    fractions truncate, a negative limit drops that many from the end, NaN keeps none)."""
    if limit is None:
        limit = DEFAULT_LIMIT
    try:
        value = float(limit)
    except (TypeError, ValueError):
        return 0
    if math.isnan(value):
        return 0
    if math.isinf(value):
        return count if value > 0 else 0
    end = int(value)
    return max(count + end, 0) if end < 0 else min(end, count)


def _top(raw: Floats, count: int) -> Slots:
    """Positions of the ``count`` highest of ``raw``, descending, ties in position order."""
    size = len(raw)
    if count <= 0:
        return np.zeros(0, np.intp)
    if count * 4 >= size:
        return np.argsort(-raw, kind="stable")[:count]
    threshold = np.partition(raw, size - count)[size - count]
    chosen = np.flatnonzero(raw >= threshold)
    return chosen[np.argsort(-raw[chosen], kind="stable")][:count]


def search_notes(
    graph: Graph,
    nugget: str,
    query: str,
    limit: Any = DEFAULT_LIMIT,
    options: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """``searchNotes(query, limit, filter)`` of ``nugget``: ``[{note, score, vectorScore,
    textScore}]``, best first (see the module docstring). Reads only; store lock held."""
    index = note_index(graph)
    slots = index.select(nugget, options)
    if len(slots) == 0:
        return []
    vector = vector_scores(index, slots, query, options)
    text = text_scores(index, slots, query)
    raw = vector * VECTOR_WEIGHT + np.minimum(text, TEXT_CAP) / TEXT_CAP * TEXT_WEIGHT
    raw = raw + index.boost[slots]
    scaled = raw / TEMPERATURE
    weights = np.exp(scaled - scaled.max())
    total = float(weights.sum()) + 1e-12
    results = []
    for position in _top(raw, _slice_end(limit, len(slots))).tolist():
        node = index.nodes[int(slots[position])]
        assert node is not None
        results.append(
            {
                "note": note_json(node),
                "score": float(weights[position]) / total,
                "vectorScore": float(vector[position]),
                "textScore": float(text[position]),
            }
        )
    return results

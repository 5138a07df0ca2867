"""An offline, extractive draft of a rollup summary from its children's briefs.

No model, no network: the draft is a pick of the children's own sentences, in timeline order, so
it can never invent a fact. Deterministic (same briefs, same draft) and script-agnostic: Chinese
and Japanese text has no spaces, so sentences also end at 。！？ and words are character bigrams.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# A sentence ends at . ! ? (before a space or the end) or at the CJK 。！？ (anywhere), with any
# closing quotes or brackets; line breaks end one too.
_SENTENCE = re.compile(r"[^\n]*?(?:[.!?…]+[\"'”’)\]]*(?=\s|$)|[。！？]+[」』”’）)]*|\n|$)")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_CJK_RUN = re.compile(_CJK.pattern + "+")
_SPACE = re.compile(r"\s+")
_STOP = frozenset(
    "a an and are as at be been but by for from had has have he her his i in into is it its "
    "of on or she so that the their them then there they this to was we were which while who "
    "with you".split()
)
NEAR_DUPLICATE = 0.6  # token-set Jaccard at or above which two sentences say the same thing
_ENDS = tuple(".!?…。！？」』”’)）]\"'")


@dataclass(frozen=True, slots=True)
class _Sentence:
    child: int  # the child's place in timeline order
    place: int  # the sentence's place in the child
    text: str
    tokens: frozenset[str]
    names: int


def extractive_summary(briefs: Sequence[Mapping[str, object]], *, max_chars: int = 600) -> str:
    """A draft summary: the children's most informative sentences, in timeline order.

    ``briefs`` are NodeBrief-like mappings (``summary``, ``title``, and ``toSeq`` or ``seq`` for
    the order; other keys are ignored). Each child's best sentence is taken first (so every
    child is represented while the budget allows), then the rest by how much new they say.
    Near-duplicates are dropped and the result fits in ``max_chars`` characters. Pure.
    """
    sentences = _dedupe(_sentences(_in_timeline_order(briefs)))
    if not sentences or max_chars <= 0:
        return ""
    chosen = _choose(sentences, max_chars)
    if not chosen:
        return _clip(sentences[0].text, max_chars)
    return _join([s.text for s in sorted(chosen, key=lambda s: (s.child, s.place))])


def _in_timeline_order(briefs: Sequence[Mapping[str, object]]) -> list[str]:
    """Each brief's text (its summary, else its title), oldest first; stable for equal seqs."""

    def seq(item: tuple[int, Mapping[str, object]]) -> tuple[float, int]:
        value = item[1].get("toSeq", item[1].get("seq", 0))
        return (float(value) if isinstance(value, (int, float)) else 0.0, item[0])

    ordered = sorted(enumerate(briefs), key=seq)
    texts = []
    for _, brief in ordered:
        text = str(brief.get("summary") or "").strip() or str(brief.get("title") or "").strip()
        texts.append(text)
    return texts


def _sentences(texts: list[str]) -> list[_Sentence]:
    found: list[_Sentence] = []
    for child, text in enumerate(texts):
        parts = [_SPACE.sub(" ", m.group(0)).strip() for m in _SENTENCE.finditer(text)]
        for place, part in enumerate(_terminated(p) for p in parts if p):
            tokens = tokens_of(part)
            if tokens:
                found.append(_Sentence(child, place, part, tokens, _count_names(part)))
    return found


def _terminated(part: str) -> str:
    """The sentence with a full stop when it had none (a CJK one after CJK text)."""
    if part.endswith(_ENDS):
        return part
    return part + ("。" if _CJK.search(part[-1:]) else ".")


def tokens_of(text: str) -> frozenset[str]:
    """Content tokens: lower-cased words (stop words dropped) and CJK character bigrams."""
    tokens = {w.casefold() for w in _WORD.findall(_CJK.sub(" ", text))}
    tokens -= _STOP
    for run in _CJK_RUN.findall(text):
        tokens.update(run[i : i + 2] for i in range(max(1, len(run) - 1)))
    return frozenset(tokens)


def _count_names(text: str) -> int:
    """Capitalised words that are not stop words: the people and places a summary must keep."""
    words = _WORD.findall(_CJK.sub(" ", text))
    return sum(1 for w in words if w[:1].isupper() and w.casefold() not in _STOP)


def _similar(a: frozenset[str], b: frozenset[str]) -> bool:
    return len(a & b) >= NEAR_DUPLICATE * len(a | b)


def _dedupe(sentences: list[_Sentence]) -> list[_Sentence]:
    """Drop a sentence that nearly repeats an earlier one (the earlier, older one stays)."""
    kept: list[_Sentence] = []
    for sentence in sentences:
        if not any(_similar(sentence.tokens, k.tokens) for k in kept):
            kept.append(sentence)
    return kept


def _score(sentence: _Sentence, seen: set[str]) -> float:
    """New content (a CJK bigram counts half: a two-character word is one bigram, a four-character
    one three), names, and a little for a child's opening sentence."""
    new = sum(0.5 if _CJK.match(t) else 1.0 for t in sentence.tokens - seen)
    return new + 2.0 * sentence.names + (0.5 if sentence.place == 0 else 0.0)


def _choose(sentences: list[_Sentence], max_chars: int) -> list[_Sentence]:
    """Greedy: every child's best sentence first, then the most informative of the rest."""
    chosen: list[_Sentence] = []
    seen: set[str] = set()
    used = 0
    children = sorted({s.child for s in sentences})
    firsts = [_best([s for s in sentences if s.child == c], seen) for c in children]
    rest = [s for s in sentences if s not in firsts]
    for pool in (firsts, rest):
        remaining = list(pool)
        while remaining:
            pick = _best(remaining, seen)
            remaining.remove(pick)
            cost = len(pick.text) + (1 if chosen else 0)
            if used + cost > max_chars or not pick.tokens - seen:
                continue
            chosen.append(pick)
            seen |= pick.tokens
            used += cost
    return chosen


def _best(pool: list[_Sentence], seen: set[str]) -> _Sentence:
    """The highest-scoring sentence; ties go to the older one (determinism)."""
    return max(pool, key=lambda s: (_score(s, seen), -s.child, -s.place))


def _join(parts: list[str]) -> str:
    """Sentences joined with a space, except after CJK punctuation (which needs none)."""
    out = ""
    for part in parts:
        if out and not _CJK.search(out[-1]) and out[-1] not in "。！？」』”）":
            out += " "
        out += part
    return out


def _clip(text: str, max_chars: int) -> str:
    """``text`` cut to ``max_chars`` characters with an ellipsis (at a word break when there is
    one in the last fifth)."""
    if len(text) <= max_chars:
        return text
    cut = text[: max(0, max_chars - 1)]
    space = cut.rfind(" ")
    if space >= len(cut) * 4 // 5:
        cut = cut[:space]
    return cut.rstrip() + "…"

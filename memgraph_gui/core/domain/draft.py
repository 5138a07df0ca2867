"""An offline, extractive draft of a rollup summary from its children's briefs.

No model, no network: the draft is the children's own sentences, in timeline order, one compact
line per child, so it can never invent a fact and never drops a child: each line keeps what its
child says (its time, place, who and what). Deterministic (same briefs, same draft) and
script-agnostic: Chinese and Japanese text has no spaces, so sentences also end at 。！？ and
words are character bigrams.
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
LINE_FLOOR = 60  # characters per child a draft budget allows at least (see ``draft_budget``)


def draft_budget(children: int, max_chars: int) -> int:
    """The characters a draft of ``children`` children may take: ``max_chars``, raised to
    ``LINE_FLOOR`` per child (and a line break between two), so a big group's draft still has
    room for every child's time, place, who and what. Pure."""
    return max(max_chars, children * (LINE_FLOOR + 1) - 1) if children > 0 else max_chars


@dataclass(frozen=True, slots=True)
class _Sentence:
    child: int  # the child's place in timeline order
    place: int  # the sentence's place in the child
    text: str
    tokens: frozenset[str]
    names: int
    keys: frozenset[str]  # the tokens that carry facts: names, numbers, CJK terms


def extractive_summary(briefs: Sequence[Mapping[str, object]], *, max_chars: int = 600) -> str:
    """A draft summary: one line per child, oldest first, in the children's own words.

    ``briefs`` are NodeBrief-like mappings (``summary``, ``title``, and ``toSeq`` or ``seq`` for
    the order; other keys are ignored). Each line holds its child's sentences (its time, place,
    who and what), less any sentence that nearly repeats an earlier one and brings no new name,
    number or CJK term. When the lines exceed ``max_chars`` characters, the least informative
    sentences go first (a child always keeps its most informative one); when that is not
    enough, each line is clipped with "…" to a fair share. A child whose every sentence repeats
    earlier ones gets no line. Fits in ``max_chars``. Pure.
    """
    if max_chars <= 0:
        return ""
    lines = _lines(_dedupe(_sentences(_in_timeline_order(briefs))))
    if not lines:
        return ""
    _drop_least_informative(lines, max_chars)
    texts = [_join([s.text for s in line]) for line in lines]
    return "\n".join(_clip_to_share(texts, max_chars))


def _lines(sentences: list[_Sentence]) -> list[list[_Sentence]]:
    by_child: dict[int, list[_Sentence]] = {}
    for sentence in sentences:
        by_child.setdefault(sentence.child, []).append(sentence)
    return [by_child[c] for c in sorted(by_child)]


def _length(lines: list[list[_Sentence]]) -> int:
    return sum(len(_join([s.text for s in line])) for line in lines) + len(lines) - 1


def _drop_least_informative(lines: list[list[_Sentence]], max_chars: int) -> None:
    """Drop sentences, least informative first (ties: the later one of the longer line), until
    the lines fit or each child is down to one sentence."""
    while _length(lines) > max_chars:
        pool = [(s, line) for line in lines if len(line) > 1 for s in line]
        if not pool:
            return
        pick, line = min(
            pool,
            key=lambda p: (
                _worth(p[0]),
                -len(_join([s.text for s in p[1]])),
                -p[0].child,
                -p[0].place,
            ),
        )
        line.remove(pick)


def _worth(sentence: _Sentence) -> float:
    """What a sentence carries: names and numbers most, CJK terms, then other words."""
    numbers = sum(1 for k in sentence.keys if k.isdigit())
    cjk = sum(1 for k in sentence.keys if _CJK.match(k))
    return 3.0 * sentence.names + 2.0 * numbers + 0.5 * cjk + 0.25 * len(sentence.tokens)


def clip_lines(texts: list[str], max_chars: int) -> list[str]:
    """Clip the longest of ``texts`` with "…" to one common length so that, joined with line
    breaks, they fit in ``max_chars`` characters (short ones are left whole). Pure."""
    return _clip_to_share(texts, max_chars)


def _clip_to_share(texts: list[str], max_chars: int) -> list[str]:
    """Clip the longest lines to one common length so that all of them fit in ``max_chars``."""
    if not texts:
        return []
    room = max_chars - (len(texts) - 1)
    if sum(len(t) for t in texts) <= room:
        return texts
    cap = max(1, room // len(texts))
    while cap < room and sum(min(len(t), cap + 1) for t in texts) <= room:
        cap += 1
    return [_clip(t, cap) for t in texts]


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
                names = _names(part)
                keys = frozenset(t for t in tokens if t.isdigit() or _CJK.match(t) or t in names)
                found.append(_Sentence(child, place, part, tokens, len(names), keys))
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


def _names(text: str) -> set[str]:
    """Capitalised words that are not stop words (casefolded): the people and places a summary
    must keep."""
    words = _WORD.findall(_CJK.sub(" ", text))
    return {w.casefold() for w in words if w[:1].isupper() and w.casefold() not in _STOP}


def _similar(a: frozenset[str], b: frozenset[str]) -> bool:
    return len(a & b) >= NEAR_DUPLICATE * len(a | b)


def _dedupe(sentences: list[_Sentence]) -> list[_Sentence]:
    """Drop a sentence that nearly repeats an earlier one of its own child and brings no name,
    number or CJK term that child has not said yet; then drop a child whose whole text nearly
    repeats (or is contained in) an earlier child's and adds no such term. Two children's like
    sentences both stay ("Day 1; at the Docks." in each): each is a fact of its own child."""
    kept: list[_Sentence] = []
    for child in sorted({s.child for s in sentences}):
        own: list[_Sentence] = []
        keys: set[str] = set()
        for sentence in (s for s in sentences if s.child == child):
            repeat = any(_similar(sentence.tokens, k.tokens) for k in own)
            if not repeat or sentence.keys - keys:
                own.append(sentence)
                keys |= sentence.keys
        kept.extend(own)
    lines = _lines(kept)
    out: list[_Sentence] = []
    earlier: list[tuple[frozenset[str], frozenset[str]]] = []
    for line in lines:
        tokens = frozenset().union(*(s.tokens for s in line))
        keys_of = frozenset().union(*(s.keys for s in line))
        if any((tokens <= t or _similar(tokens, t)) and keys_of <= k for t, k in earlier):
            continue
        earlier.append((tokens, keys_of))
        out.extend(line)
    return out


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

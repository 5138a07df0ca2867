"""The one index of the Nuggets notes, kept in step with every write (``Graph.index``): what
``listNotes`` and ``searchNotes`` read and what the write calls look notes up by, so a call never
scans or parses the whole store and a write never re-parses it. The one place that knows
``listNotes``' order.

Each note has a slot (reused after a note goes) with: its nugget, hidden flag, subject / scope /
type (as integer codes), ``stability == 'durable'``, ``scope in (user, self)``, confidence
(clamped as a load clamps it), the metadata boost those give, its text haystack (lower-cased)
and token set, and its basis as a sequence of FHRR ``(position, seed)`` pairs (``vectors``).
``listNotes``' order (``updatedAt`` ascending, ties by storage order ``ord``) is a sorted list
kept by bisection, with the same slots as an array. The haystacks also feed a
blocked text for the phrase test of ``textScore`` (``_PhraseBlocks``). For the writes
(``api``) and the desk's nugget facet: per slot where its links go, and per nugget its slots,
its notes by trimmed lower-cased title (``addLink`` / ``mergeNotes`` by title) and its facts by
lower-cased ``sourceKey`` (``remember``).

A write only marks the node pending (nothing is parsed then); the next read parses the pending
notes, all at once (so the first read after a load parses every note's fields, each once,
``parsed_fields``; the parsed values are not kept: a store opened from its file keeps its notes'
fields as unparsed text, ``LazyFields``). Not thread-safe by itself: the store lock serialises
writes and reads.
"""

from __future__ import annotations

import bisect
import json
import math
from collections.abc import Iterable, Iterator, Mapping
from itertools import accumulate, compress, repeat
from operator import attrgetter, contains
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from memgraph_gui.core.domain.freeze import LazyFields
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.domain.text import js_string
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.substring_index import HASH_BITS, _bitmap, _needle_buckets
from memgraph_gui.core.nuggets import vectors
from memgraph_gui.core.nuggets.metadata import clamp_confidence
from memgraph_gui.core.nuggets.model import is_note
from memgraph_gui.core.nuggets.text import js_trim, tokenize
from memgraph_gui.core.nuggets.vectors import Pair, basis_seeds

INDEX_NAME = "nuggets.notes"
NO_CODE = -1
"""The code of a value no filter can name (a stored subject / scope / type that is no string)."""
UNKNOWN = -2
"""The code of a filter value no note has."""
_FILTERED = ("subject", "scope", "type")
BLOCK_SHIFT = 8  # 256 slots a phrase block
DENSE = 8  # phrase hits in a block from which its other haystacks are tested one by one
BULK = 64
"""Pending notes from which the order is re-sorted whole rather than kept by bisection."""


class Entry(NamedTuple):
    """One note as the write calls see it; entries sort in ``listNotes`` order (``updated``,
    then ``ord``, which is unique). ``targets``: where its links go (``to``, as stored)."""

    updated: str
    ord: int
    targets: tuple[object, ...]
    node: Node


BY_ORD = attrgetter("ord")
"""An ``Entry``'s storage order."""


def link_targets(fields: Mapping[str, Any]) -> tuple[object, ...]:
    """Where a note's links go (``to``, as stored), in order; links that are no object skipped."""
    links = fields.get("links")
    if not links or not isinstance(links, (list, tuple)):
        return ()
    if all(type(link) is dict for link in links):  # as parsed: no ABC check a link
        return tuple([link.get("to") for link in links])
    return tuple(link.get("to") for link in links if isinstance(link, Mapping))


def parsed_fields(nodes: list[Node]) -> Iterator[Mapping[str, Any]]:
    """Each node's fields, one after the other: those still held as JSON text parsed here as
        plain data that the caller drops (the text stays unparsed in the node). One ``json.loads``
        a note, its result dropped before the next, took half the time of one parse of them all
        (0.3 s against 0.6 s at 50k, the collector off): the freed objects are reused warm, and
    the collector does not rescan 50k parsed notes each time the index's new objects set it off. A
        damaged text is left to the node's own parse, which reports it."""
    for node in nodes:
        fields = node.fields
        if type(fields) is LazyFields:
            try:
                value = json.loads(fields.text)
            except ValueError:
                yield fields
                continue
            yield value if type(value) is dict else fields
        else:
            yield fields


def note_haystack(title: Any, fields: Mapping[str, Any]) -> str:
    """``scoreTextMatch``'s haystack: title, content, tags joined by spaces, subject, scope,
    type, joined by newlines, lower-cased."""
    tags = fields.get("tags")
    if not isinstance(tags, (list, tuple)):
        tag_text = ""
    elif all(type(t) is str for t in tags):
        tag_text = " ".join(tags)
    else:
        tag_text = " ".join(map(js_string, tags))
    parts = [title, fields.get("content"), tag_text, *(fields.get(n) for n in _FILTERED)]
    if all(type(p) is str for p in parts):
        return "\n".join(parts).lower()
    return "\n".join(map(js_string, parts)).lower()


def metadata_boost(fields: Mapping[str, Any]) -> tuple[float, float]:
    """``(confidence, boost)``: the confidence as a load leaves it, and ``searchNotes``'
    ``(durable ? 0.05 : 0) + (scope user/self ? 0.03 : 0) + confidence·0.05``, in that order."""
    confidence = clamp_confidence(fields.get("confidence"))
    durable = 0.05 if fields.get("stability") == "durable" else 0
    personal = 0.03 if fields.get("scope") in ("user", "self") else 0
    return confidence, durable + personal + confidence * 0.05


class NoteIndex:
    """See the module docstring."""

    def __init__(self, nodes: Iterable[Node]) -> None:
        self._pending: dict[str, Node | None] = {n.id: n for n in nodes if is_note(n)}
        self._slot_of: dict[str, int] = {}
        self._free: list[int] = []
        self.nodes: list[Node | None] = []  # by slot
        self.haystacks: list[str] = []  # by slot
        self._tokens: list[tuple[str, ...]] = []  # by slot: its distinct tokens
        self._untokenized: set[int] = set()  # slots whose tokens are not yet in ``_postings``
        self._keys: list[tuple[str, int] | None] = []  # by slot: its key in ``_order``
        self._targets: list[tuple[object, ...]] = []  # by slot: where its links go
        self._places: list[tuple[str, str, str | None]] = []  # by slot: nugget, title, fact key
        self._members: dict[str, set[int]] = {}  # nugget -> its slots
        self._titles: dict[str, dict[str, set[int]]] = {}  # nugget -> title key -> slots
        self._facts: dict[str, dict[str, set[int]]] = {}  # nugget -> fact key -> slots
        self._order: list[tuple[str, int, int]] = []  # (updatedAt, ord, slot), sorted
        self._order_array: npt.NDArray[np.intp] | None = None  # the slots of ``_order``
        self._bulk = False
        self._phrases = _PhraseBlocks(self.haystacks)
        self._codes: dict[str, int] = {}  # nugget names, subjects, scopes, types -> code
        self._postings: dict[str, set[int]] = {}  # token -> slots
        self._posting_arrays: dict[str, npt.NDArray[np.intp]] = {}
        self._sequences: dict[tuple[int, ...], int] = {}  # seeds -> sequence number
        self.sequence_seeds: list[tuple[int, ...]] = []  # by sequence number
        self._pair_ids: dict[Pair, int] = {}
        self.pairs: list[Pair] = []  # (position, seed) by pair number
        self.sequence_pairs = np.full((64, 20), -1, np.intp)  # pair numbers, -1 padded
        self.sequence_factor = np.full(64, np.nan)  # ``vectors.factor``, NaN until computed
        size = 1024
        self.nugget = np.full(size, NO_CODE, np.int32)
        self.hidden = np.zeros(size, bool)
        self.meta = np.full((3, size), NO_CODE, np.int32)  # subject, scope, type codes
        self.confidence = np.zeros(size)
        self.boost = np.zeros(size)
        self.sequence = np.zeros(size, np.intp)

    # -- kept in step -----------------------------------------------------------------------------
    def node_changed(self, old: Node | None, new: Node | None) -> None:
        node = new if new is not None else old
        assert node is not None
        if new is not None and is_note(new):
            self._pending[new.id] = new
        elif (
            (old is not None and is_note(old))
            or node.id in self._slot_of
            or node.id in self._pending
        ):
            self._pending[node.id] = None

    def refresh(self) -> None:
        """Parse the pending notes (all in one go) and update their slots."""
        if not self._pending:
            return
        pending = self._pending
        for node_id in pending:
            self._drop(node_id)
        present = [node for node in pending.values() if node is not None]
        self._bulk = len(present) > BULK
        if self._bulk:
            self._order_array = None
        try:
            for node, fields in zip(present, parsed_fields(present), strict=True):
                self._add(node, fields)
        finally:  # on a failure (a damaged row), left consistent: a retry redoes the batch
            if self._bulk:
                self._order.sort()
                self._bulk = False
        self._pending = {}

    def _drop(self, node_id: str) -> None:
        slot = self._slot_of.pop(node_id, None)
        if slot is None:
            return
        key = self._keys[slot]
        if key is not None:
            at = bisect.bisect_left(self._order, (*key, slot))
            del self._order[at]
            if self._order_array is not None:
                self._order_array = np.delete(self._order_array, at)
        self._phrases.changed(slot)
        if slot in self._untokenized:
            self._untokenized.discard(slot)
        for token in self._tokens[slot]:
            postings = self._postings[token]
            postings.discard(slot)
            self._posting_arrays.pop(token, None)
            if not postings:
                del self._postings[token]
        self.nodes[slot], self.haystacks[slot], self._tokens[slot] = None, "", ()
        self._keys[slot], self._targets[slot] = None, ()
        nugget, title, fact = self._places[slot]
        _discard(self._members, nugget, slot)
        _discard(self._titles[nugget], title, slot)
        if fact is not None:
            _discard(self._facts[nugget], fact, slot)
        self.nugget[slot] = NO_CODE
        self._free.append(slot)

    def _add(self, node: Node, fields: Mapping[str, Any]) -> None:
        slot = self._free.pop() if self._free else self._new_slot()
        self._slot_of[node.id] = slot
        self.nodes[slot] = node
        name = fields.get("nuggetName")
        nugget = name if isinstance(name, str) else ""
        self.nugget[slot] = self._code(nugget)
        self._add_lookups(slot, nugget, node, fields)
        self.hidden[slot] = node.archived
        for row, name in enumerate(_FILTERED):
            value = fields.get(name)
            self.meta[row, slot] = self._code(value) if isinstance(value, str) else NO_CODE
        self.confidence[slot], self.boost[slot] = metadata_boost(fields)
        self.haystacks[slot] = note_haystack(node.title, fields)
        self._untokenized.add(slot)  # tokens: at the first search that needs them
        vector = fields.get("vector")
        seeds = basis_seeds(vector.get("basis") if isinstance(vector, Mapping) else None)
        number = self._sequences.get(seeds)
        if number is None:
            number = self._new_sequence(seeds)
        self.sequence[slot] = number
        key = self._keys[slot] = (js_string(fields.get("updatedAt")), node.ord)
        if self._bulk:
            self._order.append((*key, slot))  # sorted once, when all are in
        else:
            at = bisect.bisect_left(self._order, (*key, slot))
            self._order.insert(at, (*key, slot))
            if self._order_array is not None:
                self._order_array = np.insert(self._order_array, at, slot)
        self._phrases.changed(slot)

    def _add_lookups(self, slot: int, nugget: str, node: Node, fields: Mapping[str, Any]) -> None:
        """The write calls' part: where the note's links go, and its nugget, title and fact key
        tables (``_drop`` undoes it)."""
        self._targets[slot] = link_targets(fields)
        title = js_trim(node.title).lower()
        key = fields.get("sourceKey")
        fact = key.lower() if node.type == "fact" and isinstance(key, str) else None
        self._places[slot] = (nugget, title, fact)
        _include(self._members, nugget, slot)
        _include(self._titles.setdefault(nugget, {}), title, slot)
        if fact is not None:
            _include(self._facts.setdefault(nugget, {}), fact, slot)

    def warm(self) -> None:
        """Make now all a first ``searchNotes`` would make: parse the pending notes, take their
        tokens, join the phrase blocks, compute the vector norms (for a warm-up off the GUI
        thread, or a long-running caller's)."""
        self.refresh()
        self._tokenize()
        self._phrases.rebuild()
        count = len(self.sequence_seeds)
        missing = np.flatnonzero(np.isnan(self.sequence_factor[:count]))
        if len(missing):
            seeds = self.sequence_seeds
            self.sequence_factor[missing] = vectors.factors([seeds[n] for n in missing.tolist()])

    def _tokenize(self) -> None:
        """Take the tokens of the notes added since into ``_postings`` (from their haystacks:
        no parse). Deferred to the first text score, so a call that only looks notes up (a
        one-shot ``remember``) does not pay for them."""
        if not self._untokenized:
            return
        slots, self._untokenized = sorted(self._untokenized), set()
        bulk = len(slots) > BULK
        if bulk:
            self._posting_arrays = {}
        postings, arrays, haystacks = self._postings, self._posting_arrays, self.haystacks
        for slot in slots:
            tokens = self._tokens[slot] = tuple(dict.fromkeys(tokenize(haystacks[slot])))
            for token in tokens:
                found = postings.get(token)
                if found is None:
                    postings[token] = {slot}
                else:
                    found.add(slot)
                if not bulk:
                    arrays.pop(token, None)

    def _new_slot(self) -> int:
        slot = len(self.nodes)
        self.nodes.append(None)
        self.haystacks.append("")
        self._tokens.append(())
        self._keys.append(None)
        self._targets.append(())
        self._places.append(("", "", None))
        if slot >= len(self.nugget):
            grow = len(self.nugget)
            self.nugget = np.concatenate((self.nugget, np.full(grow, NO_CODE, np.int32)))
            self.hidden = np.concatenate((self.hidden, np.zeros(grow, bool)))
            self.meta = np.concatenate((self.meta, np.full((3, grow), NO_CODE, np.int32)), 1)
            self.confidence = np.concatenate((self.confidence, np.zeros(grow)))
            self.boost = np.concatenate((self.boost, np.zeros(grow)))
            self.sequence = np.concatenate((self.sequence, np.zeros(grow, np.intp)))
        return slot

    def _new_sequence(self, seeds: tuple[int, ...]) -> int:
        number = self._sequences[seeds] = len(self.sequence_seeds)
        self.sequence_seeds.append(seeds)
        rows, width = self.sequence_pairs.shape
        if number >= rows or len(seeds) > width:
            grown = np.full((max(rows, 2 * number), max(width, len(seeds))), -1, np.intp)
            grown[:rows, :width] = self.sequence_pairs
            self.sequence_pairs = grown
            factors = np.full(len(grown), np.nan)
            factors[:rows] = self.sequence_factor
            self.sequence_factor = factors
        for position, seed in enumerate(seeds):
            pair = (position, seed)
            found = self._pair_ids.get(pair)
            if found is None:
                found = self._pair_ids[pair] = len(self.pairs)
                self.pairs.append(pair)
            self.sequence_pairs[number, position] = found
        return number

    def _code(self, value: str) -> int:
        code = self._codes.get(value)
        if code is None:
            code = self._codes[value] = len(self._codes)
        return code

    # -- reads ------------------------------------------------------------------------------------
    def entry(self, slot: int) -> Entry:
        """The note in ``slot`` (a slot of a present note, after ``refresh``)."""
        node, key = self.nodes[slot], self._keys[slot]
        assert node is not None and key is not None
        return Entry(key[0], key[1], self._targets[slot], node)

    def notes_of(self, nugget: str) -> list[Entry]:
        """The nugget's notes (hidden too), in storage order."""
        self.refresh()
        return sorted(map(self.entry, self._members.get(nugget, ())), key=BY_ORD)

    def all_notes(self) -> list[Entry]:
        """Every note of every nugget, in storage order."""
        self.refresh()
        slots = (slot for slots in self._members.values() for slot in slots)
        return sorted(map(self.entry, slots), key=BY_ORD)

    def with_title(self, nugget: str, title: str) -> list[Entry]:
        """The nugget's notes whose trimmed title is ``title`` (trimmed) in any case."""
        self.refresh()
        return list(map(self.entry, self._titles.get(nugget, {}).get(js_trim(title).lower(), ())))

    def facts(self, nugget: str, key: str) -> list[Entry]:
        """The nugget's fact notes whose ``sourceKey`` is ``key`` in any case."""
        self.refresh()
        return list(map(self.entry, self._facts.get(nugget, {}).get(key.lower(), ())))

    def nugget_ids(self) -> dict[str, frozenset[str]]:
        """Per nugget name (sorted) that has notes, the ids of its notes (hidden too)."""
        self.refresh()
        nodes = self.nodes
        return {
            name: frozenset(nodes[slot].id for slot in slots)  # type: ignore[union-attr]
            for name, slots in sorted(self._members.items())
        }

    def select(self, nugget: str, options: Mapping[str, Any] | None) -> npt.NDArray[np.intp]:
        """The slots of ``listNotes(options)`` for ``nugget``, in its order (``updatedAt``
        ascending, ties by ``ord``): hidden only with ``includeHidden``; subject / scope /
        type equal where the option is set (an empty one filters nothing)."""
        self.refresh()
        if self._order_array is None:
            self._order_array = np.fromiter(
                (slot for _at, _ord, slot in self._order), np.intp, len(self._order)
            )
        order = self._order_array
        code = self._codes.get(nugget, UNKNOWN)
        keep = self.nugget[order] == code
        if not options or not _truthy(options.get("includeHidden")):
            keep &= ~self.hidden[order]
        for row, name in enumerate(_FILTERED):
            value = options.get(name) if options else None
            if _truthy(value):
                wanted = self._codes.get(value, UNKNOWN) if isinstance(value, str) else UNKNOWN
                keep &= self.meta[row, order] == wanted
        chosen: npt.NDArray[np.intp] = order[keep]
        return chosen

    def phrase_hits(self, phrase: str, slots: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
        """For each of ``slots``: whether its haystack contains ``phrase`` (non-empty; after
        ``select``)."""
        hits = np.zeros(len(self.nodes), bool)
        wanted = np.zeros(len(self.nodes), bool)
        wanted[slots] = True
        hits[self._phrases.slots_containing(phrase, wanted)] = True
        chosen: npt.NDArray[np.bool_] = hits[slots]
        return chosen

    def token_counts(
        self, tokens: Iterable[str], slots: npt.NDArray[np.intp]
    ) -> npt.NDArray[np.float64]:
        """For each of ``slots``: how many of ``tokens`` (distinct) its haystack has."""
        self._tokenize()
        counts = np.zeros(len(self.nodes))
        for token in tokens:
            postings = self._posting_arrays.get(token)
            if postings is None:
                found = self._postings.get(token)
                if not found:
                    continue
                postings = self._posting_arrays[token] = np.fromiter(found, np.intp, len(found))
            counts[postings] += 1
        return counts[slots]


class _PhraseBlocks:
    """The haystacks of 256 consecutive slots joined by NUL into one UTF-8 text per block (a
    byte search: as exact as a character one, UTF-8 being self-synchronising, and fast where
    a block holds CJK text, which makes a ``str`` two bytes a character), with the
    bitmap of its hashed 1-, 2- and 3-grams (``substring_index``'s), rebuilt when one of its
    slots changes. A phrase is looked for only in the blocks whose bitmap holds all its
    n-grams, by C-level ``find`` calls: one per block and one per haystack that holds it (the
    rest of a found haystack is skipped), rather than a test of each haystack; past ``DENSE``
    hits in a block, the rest of its haystacks are tested one by one (cheaper where most hold
    the phrase). Exact: the bitmaps only decide where to look."""

    def __init__(self, haystacks: list[str]) -> None:
        self._haystacks = haystacks
        self._texts: list[bytes] = []  # by block number: the joined text, UTF-8
        self._starts: list[list[int]] = []  # by block number: where each slot's text starts
        self._bitmaps = np.zeros((0, (1 << HASH_BITS) // 8), np.uint8)  # by block number
        self._dirty: set[int] = set()

    def changed(self, slot: int) -> None:
        self._dirty.add(slot >> BLOCK_SHIFT)

    def slots_containing(self, phrase: str, wanted: npt.NDArray[np.bool_]) -> list[int]:
        """The slots whose haystack contains ``phrase`` (non-empty), ascending: all of those
        that ``wanted`` marks, maybe some others (blocks without a wanted slot are skipped)."""
        haystacks = self._haystacks
        if "\x00" in phrase:  # could span two haystacks of a block: test each wanted one
            return [s for s in np.flatnonzero(wanted).tolist() if phrase in haystacks[s]]
        self.rebuild()
        needle = phrase.encode("utf-8", "surrogatepass")
        buckets = _needle_buckets(phrase)
        columns = (buckets >> np.uint32(3)).astype(np.intp)
        masks = np.left_shift(1, buckets & np.uint32(7)).astype(np.uint8)
        held = ((self._bitmaps[:, columns] & masks) != 0).all(axis=1)
        blocks = np.zeros(len(held), bool)
        blocks[np.flatnonzero(wanted) >> BLOCK_SHIFT] = True
        held &= blocks
        found: list[int] = []
        for number in np.flatnonzero(held).tolist():
            text = self._texts[number]
            at = text.find(needle)
            if at < 0:
                continue
            starts, base = self._starts[number], number << BLOCK_SHIFT
            hits = 0
            while at >= 0:
                index = bisect.bisect_right(starts, at) - 1
                found.append(base + index)
                hits += 1
                rest = base + index + 1
                if index + 1 >= len(starts):
                    break
                if hits >= DENSE:  # many hold it: test each wanted one of the rest (C-level)
                    end = base + len(starts)
                    rest_wanted = (np.flatnonzero(wanted[rest:end]) + rest).tolist()
                    texts = map(haystacks.__getitem__, rest_wanted)
                    found += compress(rest_wanted, map(contains, texts, repeat(phrase)))
                    break
                at = text.find(needle, starts[index + 1])
        return found

    def rebuild(self) -> None:
        """Re-join the blocks whose slots changed and recompute their n-gram bitmaps."""
        if not self._dirty:
            return
        haystacks = self._haystacks
        count = (len(haystacks) >> BLOCK_SHIFT) + 1
        if count > len(self._texts):
            self._texts += [b""] * (count - len(self._texts))
            self._starts += [[0]] * (count - len(self._starts))
            grown = np.zeros((count, self._bitmaps.shape[1]), np.uint8)
            grown[: len(self._bitmaps)] = self._bitmaps
            self._bitmaps = grown
        for number in self._dirty:
            texts = haystacks[number << BLOCK_SHIFT : (number + 1) << BLOCK_SHIFT]
            encoded = [t.encode("utf-8", "surrogatepass") for t in texts]
            self._texts[number] = b"\x00".join(encoded)
            self._starts[number] = [0, *accumulate(len(t) + 1 for t in encoded[:-1])]
            text = "\x00".join(texts)
            self._bitmaps[number] = _bitmap(text) if text else 0
        self._dirty.clear()


def _include(table: dict[str, set[int]], key: str, slot: int) -> None:
    found = table.get(key)
    if found is None:
        table[key] = {slot}
    else:
        found.add(slot)


def _discard(table: dict[str, set[int]], key: str, slot: int) -> None:
    found = table.get(key)
    if found is not None:
        found.discard(slot)
        if not found:
            del table[key]


def _truthy(value: Any) -> bool:
    """JavaScript truthiness of a JSON value (NaN is false)."""
    if isinstance(value, float) and math.isnan(value):
        return False
    return bool(value)


def note_index(graph: Graph) -> NoteIndex:
    """The graph's note index (made on first use, every note parsed at its first read, then kept
    in step; store lock held)."""
    return graph.index(INDEX_NAME, lambda: NoteIndex(graph.nodes.values()))

"""A substring index over one haystack per node, kept in step with every write.

Nodes sit in blocks of 256 consecutive row orders (``ord``), each block in ``ord`` order
with its haystacks joined into one string. Each block also keeps a bitmap of the hashed
character n-grams (1, 2 and 3 characters) in its text: a query looks only at the blocks whose
bitmap holds every n-gram of the needle, runs one C-level ``find`` over each, and tests the
block's haystacks one by one only where that ``find`` hit. A query with no match usually
touches no text at all, and one with few matches touches a few blocks. A one-character needle
(a letter, a digit, common punctuation), which matches most nodes, is answered from a
character mask per haystack instead (``hits``), without reading the haystacks.

A write marks the node pending (nothing is computed then); the next query computes the
haystacks of the pending nodes (all at once, so the first query after a load can parse every
node's fields in one go) and rebuilds only their blocks. The answer is always exactly
"every node whose haystack contains the needle, in ``ord`` order": the bitmaps and the joined
text only decide where to look (a hash collision or a hit across two haystacks costs time,
never a wrong answer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain, compress, repeat
from operator import contains
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from memgraph_gui.core.domain.model import Node

Haystacks = Callable[[list[Node]], list[str]]  # one per node; '' for a node never found
BLOCK_SHIFT = 8  # 256 row orders a block
HASH_BITS = 16  # n-gram buckets per block bitmap (an 8 KB row)
_WIDTH = (1 << HASH_BITS) // 8
_MIX = (np.uint32(0x9E3779B1), np.uint32(0x85EBCA77), np.uint32(0xC2B2AE3D))
_SHIFT = np.uint32(32 - HASH_BITS)
_SEPARATOR = "\x00"


def _codes(text: str) -> npt.NDArray[np.uint32]:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


def _grams(codes: npt.NDArray[np.uint32], longest: int) -> list[npt.NDArray[np.uint32]]:
    """Bucket numbers of every 1-, 2-, ... ``longest``-character n-gram of ``codes`` (one
    array per length; a multiply-xor hash in 32-bit arithmetic, its top bits kept)."""
    out: list[npt.NDArray[np.uint32]] = []
    mixed = codes * _MIX[0]
    for size in range(1, min(longest, len(codes)) + 1):
        if size > 1:
            mixed = (mixed[:-1] ^ codes[size - 1 :]) * _MIX[size - 1]
        out.append(mixed >> _SHIFT)
    return out


def _bitmap(text: str) -> npt.NDArray[np.uint8]:
    """The packed bitmap of every 1-, 2- and 3-gram bucket of ``text``."""
    bits = np.zeros(1 << HASH_BITS, bool)
    for buckets in _grams(_codes(text), 3):
        bits[buckets] = True
    return np.packbits(bits, bitorder="little")


def _needle_buckets(needle: str) -> npt.NDArray[np.uint32]:
    """The buckets a block must hold to contain ``needle``: its 3-grams (or its one 2- or
    1-gram when shorter; a repeated one is checked twice, which is cheaper than ``np.unique``,
    whose first call imports ``numpy.ma``: 15 ms)."""
    return _grams(_codes(needle), 3)[-1]


_ONE_BIT = ".abcdefghijklmnopqrstuvwxyz0123456789 _-,'/:()!?#&+@\";*=[]<>%$"
"""Characters that each have a bit of their own in a haystack's character mask (``_Block.
chars``): a one-character needle among them is answered from the masks, without reading a
haystack (no upper-case letter has one: the name index's haystacks are lower-cased)."""
_BIT_OF = np.zeros(129, np.uint64)  # by character code (128: every other character): its bit
_BIT_OF[[ord(c) for c in _ONE_BIT]] = [np.uint64(1) << np.uint64(i) for i in range(len(_ONE_BIT))]
assert len(_ONE_BIT) <= 64 and len(set(_ONE_BIT)) == len(_ONE_BIT)


class _Block:
    """The indexed nodes of one range of row orders."""

    __slots__ = ("_chars", "entries", "joined", "nodes", "ords", "slot", "texts")

    def __init__(self, slot: int) -> None:
        self.slot = slot
        self.entries: dict[int, tuple[Node, str]] = {}  # ord -> (node, haystack)
        self.nodes: list[Node] = []
        self.ords: npt.NDArray[np.int64] = np.zeros(0, np.int64)
        self.texts: list[str] = []
        self.joined = ""
        self._chars: npt.NDArray[np.uint64] | None = None

    def chars(self) -> npt.NDArray[np.uint64]:
        """Each haystack's character mask: the bits (``_BIT_OF``) of the characters in it;
        computed on first use after a rebuild (a few numpy passes over the joined text)."""
        if self._chars is None:
            lengths = np.fromiter(map(len, self.texts), np.int64, len(self.texts)) + 1
            starts = np.zeros(len(lengths), np.int64)
            np.cumsum(lengths[:-1], out=starts[1:])
            bits = _BIT_OF[np.minimum(_codes(self.joined), 128)]
            # (each haystack is non-empty, so no two starts are equal; a separator has no bit)
            self._chars = np.bitwise_or.reduceat(bits, starts) if len(starts) else bits[:0]
        return self._chars

    def rebuild(self) -> npt.NDArray[np.uint8]:
        """Re-join the block in ``ord`` order; returns its new bitmap."""
        ords = sorted(self.entries)
        ordered = [self.entries[o] for o in ords]
        self.ords = np.array(ords, dtype=np.int64)
        self.nodes = [node for node, _text in ordered]
        self.texts = [text for _node, text in ordered]
        self.joined = _SEPARATOR.join(self.texts)
        self._chars = None
        return _bitmap(self.joined) if self.joined else np.zeros(_WIDTH, np.uint8)

    def matches(self, needle: str) -> list[Node]:
        if needle not in self.joined:
            return []
        return list(compress(self.nodes, map(contains, self.texts, repeat(needle))))


class Hits(NamedTuple):
    """The nodes whose haystack contains a needle, held as positions rather than as a list.

    ``parts`` are the node lists of the blocks that hold hits (each one its block never changes
    in place: a rebuild makes new lists), ``starts`` the flat position of each part's first node
    in their concatenation (one more at the end: the total), ``rows`` the hits' flat positions
    (ascending, so ``ord`` order) and ``ords`` their row orders. Gathering positions touches no
    node object: ~3x cheaper than a list of the hits when tens of thousands match.
    """

    parts: tuple[list[Node], ...]
    starts: npt.NDArray[np.int64]
    rows: npt.NDArray[np.int64]
    ords: npt.NDArray[np.int64]


class SubstringIndex:
    """Nodes by the substrings of their haystack (see the module docstring and ``Graph.index``).

    Not thread-safe by itself: the store lock serialises writes and queries.
    """

    def __init__(self, nodes: Iterable[Node], haystacks: Haystacks) -> None:
        self._haystacks = haystacks
        self._blocks: dict[int, _Block] = {}  # block number -> block
        self._numbers: list[int] = []  # block number by slot
        self._bitmaps = np.zeros((16, _WIDTH), np.uint8)  # bitmap by slot
        self._dirty: set[int] = set()  # block numbers
        self._pending: dict[int, Node | None] = {node.ord: node for node in nodes}

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        if old is not None:
            self._pending[old.ord] = None
        if new is not None:
            self._pending[new.ord] = new

    def matches(self, needle: str) -> Iterator[Node]:
        """Every node whose haystack contains ``needle`` (non-empty), in ``ord`` order; lazily,
        block by block, so a caller that stops early skips the rest."""
        return chain.from_iterable(self.block_matches(needle))

    def hits(self, needle: str) -> Hits:
        """``matches`` as ``Hits``: one C-level pass tests every haystack of the blocks whose
        joined text holds ``needle``, and the hits come out as arrays."""
        if not needle:
            raise ValueError("the needle must not be empty")
        self.refresh()
        blocks = [self._blocks[number] for number in self._candidates(needle)]
        blocks = [block for block in blocks if needle in block.joined]
        if not blocks:
            empty = np.zeros(0, np.int64)
            return Hits((), np.zeros(1, np.int64), empty, empty)
        bit = _BIT_OF[ord(needle)] if len(needle) == 1 and ord(needle) < 128 else 0
        if bit:  # one character with a bit of its own: the masks say which haystacks hold it
            found = (np.concatenate([block.chars() for block in blocks]) & bit) != 0
        else:
            texts = chain.from_iterable([block.texts for block in blocks])
            found = np.frombuffer(bytes(map(contains, texts, repeat(needle))), np.bool_)
        sizes = np.fromiter(map(len, [block.nodes for block in blocks]), np.int64, len(blocks))
        starts = np.zeros(len(blocks) + 1, np.int64)
        np.cumsum(sizes, out=starts[1:])
        rows = np.flatnonzero(found).astype(np.int64, copy=False)
        ords = np.concatenate([block.ords for block in blocks])
        return Hits(tuple(block.nodes for block in blocks), starts, rows, ords[rows])

    def prepare_masks(self) -> None:
        """Compute what the first one-character ``hits`` would (every block's character masks:
        ~25 ms at 200k nodes)."""
        self.refresh()
        for block in self._blocks.values():
            block.chars()

    def block_matches(self, needle: str) -> Iterator[list[Node]]:
        """``matches`` as one list per block (cheaper to gather when most nodes match)."""
        if not needle:
            raise ValueError("the needle must not be empty")
        self.refresh()
        for number in self._candidates(needle):
            yield self._blocks[number].matches(needle)

    def _candidates(self, needle: str) -> list[int]:
        """Block numbers (ascending) whose bitmap holds every bucket of ``needle``."""
        buckets = _needle_buckets(needle)
        columns = (buckets >> np.uint32(3)).astype(np.intp)
        masks = np.left_shift(1, buckets & np.uint32(7)).astype(np.uint8)
        rows = self._bitmaps[: len(self._numbers), columns]
        held = np.flatnonzero(((rows & masks) != 0).all(axis=1))
        return sorted(map(self._numbers.__getitem__, held.tolist()))

    def refresh(self) -> None:
        """Compute the pending nodes' haystacks and rebuild the blocks they touched."""
        if self._pending:  # cleared only when done: a retry after a failure redoes it all
            present = [node for node in self._pending.values() if node is not None]
            texts = iter(self._haystacks(present))
            blocks, dirty = self._blocks, self._dirty
            for ord_, node in self._pending.items():
                number = ord_ >> BLOCK_SHIFT
                block = blocks.get(number) or self._block(number)
                text = next(texts) if node is not None else ""
                if node is not None and text:
                    block.entries[ord_] = (node, text)
                else:
                    block.entries.pop(ord_, None)
                dirty.add(number)
            self._pending.clear()
        for number in list(self._dirty):
            block = self._blocks[number]
            self._bitmaps[block.slot] = block.rebuild()
            self._dirty.discard(number)

    def _block(self, number: int) -> _Block:
        found = self._blocks.get(number)
        if found is None:
            slot = len(self._blocks)
            if slot >= len(self._bitmaps):
                grown = np.zeros((2 * len(self._bitmaps), _WIDTH), np.uint8)
                grown[:slot] = self._bitmaps
                self._bitmaps = grown
            found = self._blocks[number] = _Block(slot)
            self._numbers.append(number)
        return found

"""An inverted index for ``keywordSearch``, kept in step with every write.

token -> compact ``array('q')`` of node ``ord``s; numpy reads them without a copy. Every node is
posted (archived ones too); an ``alive`` mask says which may be found. A write changes only the
postings of the tokens a node gained or lost, and archiving flips one mask entry, so even tokens
that every event has (type keywords such as ``event``) cost nothing to maintain.

Removing a token from a node is lazy: the ``ord`` waits in that token's pending set and is
dropped from its postings in one vectorised pass when the token is next read (or when many
removals wait), so a batch that edits hundreds of nodes sharing common tokens does not rescan
those long postings once per node.

A query adds 1 per matched query token to a count array through each token's postings, zeroes
the dead, then takes the top ``k`` by (count desc, store order) one score level at a time.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable

import numpy as np
import numpy.typing as npt

from memgraph_gui.core.domain.model import Node

Tokens = Callable[[Node], frozenset[str]]
PENDING_LIMIT = 200_000  # lazy removals kept before all are applied (bounds the extra memory)
Admit = Callable[[Node], bool]


class KeywordIndex:
    """See the module docstring and ``Graph.index``."""

    def __init__(self, nodes: Iterable[Node], tokens: Tokens, admit: Admit) -> None:
        self._tokens, self._admit = tokens, admit
        self._postings: dict[str, array[int]] = {}
        self._arrays: dict[str, npt.NDArray[np.int64]] = {}
        self._removed: dict[str, set[int]] = {}  # token -> ords still in its postings, but gone
        self._removed_count = 0
        self._nodes: dict[int, Node] = {}
        self._alive = np.zeros(1024, bool)
        self._types: npt.NDArray[np.int32] | None = None
        self._type_codes: dict[str, int] = {}
        lists: dict[str, list[int]] = {}
        for node in nodes:
            for token in self._tokens(node):
                found = lists.get(token)
                if found is None:
                    lists[token] = [node.ord]
                else:
                    found.append(node.ord)
            self._set(node)
        self._postings = {token: array("q", ords) for token, ords in lists.items()}

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        ord_ = (new or old).ord  # type: ignore[union-attr]
        before = self._tokens(old) if old is not None else frozenset()
        after = self._tokens(new) if new is not None else frozenset()
        self._post(ord_, after - before, before - after)
        if new is None:
            self._nodes.pop(ord_, None)
            self._alive[ord_] = False
        else:
            self._set(new)
        self._types = None

    def _set(self, node: Node) -> None:
        if node.ord >= len(self._alive):
            grown = np.zeros(max(2 * len(self._alive), node.ord + 1), bool)
            grown[: len(self._alive)] = self._alive
            self._alive = grown
        self._nodes[node.ord] = node
        self._alive[node.ord] = self._admit(node)

    def _post(self, ord_: int, added: Iterable[str], removed: Iterable[str]) -> None:
        for token in added:
            waiting = self._removed.get(token)
            if waiting is not None and ord_ in waiting:
                waiting.discard(ord_)  # removed, then given back: it is still in the postings
                continue
            ords = self._postings.get(token)
            if ords is None:
                self._arrays.pop(token, None)  # a query for it before cached it empty
                self._postings[token] = array("q", (ord_,))
            else:
                self._arrays.pop(token, None)  # release the numpy view before resizing
                ords.append(ord_)
        for token in removed:
            if token in self._postings:
                self._removed.setdefault(token, set()).add(ord_)
                self._arrays.pop(token, None)
                self._removed_count += 1
        if self._removed_count > PENDING_LIMIT:
            for token in list(self._removed):
                self._flush(token)

    def _flush(self, token: str) -> None:
        """Drop the token's pending removals from its postings (one pass)."""
        gone = self._removed.pop(token, None)
        if not gone:
            return
        self._removed_count -= len(gone)
        ords = self._postings[token]
        view = np.frombuffer(ords, np.int64)
        kept = view[~np.isin(view, np.fromiter(gone, np.int64, len(gone)))]
        del view
        if len(kept):
            fresh = array("q")
            fresh.frombytes(kept.tobytes())
            self._postings[token] = fresh
        else:
            del self._postings[token]

    def _array(self, token: str) -> npt.NDArray[np.int64]:
        found = self._arrays.get(token)
        if found is None:
            self._flush(token)
            ords = self._postings.get(token)
            found = np.frombuffer(ords, np.int64) if ords else np.empty(0, np.int64)
            self._arrays[token] = found
        return found

    def _type_mask(self, types: frozenset[str], size: int) -> npt.NDArray[np.bool_]:
        if self._types is None or len(self._types) < size:
            codes = np.full(size, -1, np.int32)
            for ord_, node in self._nodes.items():
                codes[ord_] = self._type_codes.setdefault(node.type.lower(), len(self._type_codes))
            self._types = codes
        wanted = [self._type_codes[t] for t in types if t in self._type_codes]
        return np.isin(self._types[:size], wanted)

    def top(
        self, wanted: frozenset[str], types: frozenset[str] | None, k: int
    ) -> list[tuple[Node, int]]:
        """The ``k`` best ``(node, matched token count)`` among live nodes; ties in store order."""
        size = len(self._alive)
        counts = np.zeros(size, np.int32)
        for token in wanted:
            counts[self._array(token)] += 1
        counts[~self._alive] = 0
        if types is not None:
            counts[~self._type_mask(types, size)] = 0
        hits = np.flatnonzero(counts)
        out: list[tuple[Node, int]] = []
        for level in range(int(counts.max(initial=0)), 0, -1):
            chosen = hits[counts[hits] == level][: k - len(out)]
            out.extend((self._nodes[i], level) for i in chosen.tolist())
            if len(out) >= k:
                break
        return out

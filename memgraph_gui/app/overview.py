"""The overview by rollup level (semantic zoom), as arrays: which drawn rows a cut shows, what each
shown row holds, and the relation edges projected onto the shown rows. No Qt: any thread.

A memory is a forest of rollups over events (L1 summarises a few events, L2 a few L1s, ...)
beside characters, places and threads outside the tree. A *cut* at level ``L`` shows, on every
chain from an event up to its topmost rollup, exactly one row: the ancestor at depth ``L`` when
the chain reaches it, else the chain's top. Rollups above ``L`` are hidden (their rows at ``L``
stand for them), and every other node shows as itself. Rollups the user (or the zoom) *opened*
give way to their children; rollups *closed* by hand swallow their whole subtree.

Relation edges are Luker's projection onto the shown set (``getNearestVisibleAncestor`` /
``projectEdges`` with ``visibleIds`` = the shown rows): both ends roll up to their shown row,
edges collapsing onto one row are dropped, and the rest merge into one line per pair of rows
with the number of raw edges as its count. Hierarchy edges always collapse inside a cut.

Rows and parents are those of the graph view's snapshot (active nodes only; an archived parent
is no parent, which is how Luker's walk stops at an archived ancestor).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TOP = 1 << 20
"""The level of the coarsest cut: every chain shows its topmost rollup."""
ALL = -1
"""The level of no cut at all: every row shown."""
MARK_BUDGET = 3_000
"""At fit zoom the deepest level whose cut shows at most this many rows is chosen."""


@dataclass(frozen=True, slots=True)
class Tree:
    """The rollup forest over a snapshot's rows: ``parents`` (row, or -1), ``depths`` (a
    rollup's depth, 0 for everything else), ``leaves`` (rows that hold themselves: not
    rollups)."""

    parents: np.ndarray
    depths: np.ndarray
    leaves: np.ndarray

    @property
    def n(self) -> int:
        return len(self.parents)

    @property
    def max_depth(self) -> int:
        return int(self.depths.max(initial=0))


@dataclass(frozen=True, slots=True)
class Cut:
    """What one cut shows: ``rep`` (each row's shown row, -1 for a hidden rollup above the
    cut), ``shown`` (mask) and ``held`` (per shown row, how many non-rollup rows it stands for:
    1 for a node shown as itself, 0 for a rollup with nothing live under it)."""

    level: int
    rep: np.ndarray
    shown: np.ndarray
    held: np.ndarray

    @property
    def count(self) -> int:
        return int(self.shown.sum())

    def folded(self) -> np.ndarray:
        """Shown rows that hold more than themselves (a folded rollup)."""
        return np.flatnonzero(self.shown & (self.held > 1))


def cut(
    tree: Tree,
    level: int,
    opened: np.ndarray | None = None,
    closed: np.ndarray | None = None,
) -> Cut:
    """The cut at ``level`` (``ALL``, 0..max depth, or ``TOP``), with the ``opened`` rollups
    (bool mask) showing their children instead and the ``closed`` ones showing themselves in
    place of their whole subtree. Vectorised: one numpy pass per tree level."""
    n = tree.n
    rows = np.arange(n)
    if level == ALL:
        rep = rows.copy()
    else:
        rep = _climb(tree, level, opened)
    if closed is not None and closed.any():
        top_closed = _top_marked(tree, closed)
        rep = np.where(top_closed >= 0, top_closed, rep)
    shown = np.zeros(n, dtype=bool)
    valid = rep >= 0
    shown[rep[valid]] = True
    held = np.bincount(rep[valid & tree.leaves], minlength=n)
    return Cut(level, rep, shown, np.where(shown, held, 0))


def _climb(tree: Tree, level: int, opened: np.ndarray | None) -> np.ndarray:
    """Each row's shown row: climb while the parent is at most ``level`` deep and not
    opened; rows deeper than ``level`` (rollups above the cut) are -1 unless no row below
    them is shown in their place (then they show: e.g. a rollup with no live children)."""
    parents, depths = tree.parents, tree.depths
    current = np.arange(tree.n)
    blocked = np.zeros(tree.n, dtype=bool) if opened is None else opened
    for _ in range(tree.max_depth + 1):
        up = parents[current]
        has = up >= 0
        move = has.copy()
        move[has] = (depths[up[has]] <= level) & ~blocked[up[has]]
        if not move.any():
            break
        current = np.where(move, up, current)
    rep = current
    above = (depths > level) & ~tree.leaves
    if opened is not None:
        above |= opened & ~tree.leaves  # an opened rollup shows its children, not itself
    covered = np.zeros(tree.n, dtype=bool)
    covered[parents[parents >= 0]] = True  # a rollup with a live child has someone below it
    return np.where(above & covered, -1, rep)


def _top_marked(tree: Tree, marked: np.ndarray) -> np.ndarray:
    """For each row, its topmost ancestor (itself included) in ``marked``, else -1."""
    parents = tree.parents
    top = np.where(marked, np.arange(tree.n), -1)
    current = np.arange(tree.n)
    for _ in range(tree.max_depth + 1):
        up = parents[current]
        has = up >= 0
        if not has.any():
            break
        current = np.where(has, up, current)
        hit = has & marked[np.maximum(up, 0)]
        top = np.where(hit, up, top)
    return top


def level_for(tree: Tree, budget: int = MARK_BUDGET) -> int:
    """The deepest cut that shows at most ``budget`` rows (``ALL`` when every row fits; the
    top cut when none does)."""
    if tree.n <= budget:
        return ALL
    for level in range(0, tree.max_depth + 1):
        if cut(tree, level).count <= budget:
            return level
    return TOP


@dataclass(frozen=True, slots=True)
class Links:
    """Relation edges projected onto a cut: ``pairs`` ``(k, 2)`` of shown rows (smaller row
    first) and ``counts`` (raw edges merged into each)."""

    pairs: np.ndarray
    counts: np.ndarray

    def degree(self, n: int) -> np.ndarray:
        """Per row, the raw edges its merged lines carry."""
        return np.bincount(self.pairs.ravel(), np.repeat(self.counts, 2), minlength=n)


def project(rep: np.ndarray, edges: np.ndarray, hierarchy: np.ndarray) -> Links:
    """Roll the relation ``edges`` (``(m, 2)`` rows; ``hierarchy`` marks the others) up to
    ``rep`` and merge them per unordered pair (Luker's projection, summed over relation types
    and directions)."""
    relation = edges[~hierarchy]
    a, b = rep[relation[:, 0]], rep[relation[:, 1]]
    keep = (a >= 0) & (b >= 0) & (a != b)
    low, high = np.minimum(a[keep], b[keep]), np.maximum(a[keep], b[keep])
    n = max(len(rep), 1)
    keys, counts = np.unique(low.astype(np.int64) * n + high, return_counts=True)
    pairs = np.stack([keys // n, keys % n], axis=1).astype(np.int64).reshape(-1, 2)
    return Links(pairs, counts.astype(np.int64))


@dataclass(frozen=True, slots=True)
class Budget:
    """The merged lines worth drawing: ``drawn`` (mask over ``Links.pairs``) and, per row,
    ``left_out`` (how many of its raw edges' lines are not drawn: the "+N links" cue)."""

    drawn: np.ndarray
    left_out: np.ndarray


def budget(links: Links, n: int, *, per_node: int = 3, hubs: np.ndarray | None = None) -> Budget:
    """Each row's ``per_node`` strongest lines (by count; a line kept by either end is
    drawn), leaving out lines to the ``hubs`` (row mask; default: rows whose lines carry more
    than 5% of all raw edges, at least 50) unless both ends are hubs."""
    pairs, counts = links.pairs, links.counts
    if not len(pairs):
        return Budget(np.zeros(0, dtype=bool), np.zeros(n, dtype=np.int64))
    degree = links.degree(n)
    if hubs is None:
        hubs = degree > max(50, 0.05 * counts.sum())
    drawn = np.zeros(len(pairs), dtype=bool)
    for end in (0, 1):
        rows = pairs[:, end]
        # per row, rank its lines by count (strongest first), ties by the other end
        order = np.lexsort((pairs[:, 1 - end], -counts, rows))
        first = np.r_[0, np.flatnonzero(np.diff(rows[order])) + 1]
        rank = np.arange(len(order)) - np.repeat(first, np.diff(np.r_[first, len(order)]))
        drawn[order[rank < per_node]] = True
    to_hub = hubs[pairs[:, 0]] ^ hubs[pairs[:, 1]]
    drawn &= ~to_hub
    hidden = ~drawn
    left_out = np.bincount(pairs[hidden].ravel(), np.repeat(counts[hidden], 2), minlength=n)
    return Budget(drawn, left_out.astype(np.int64))


def visible_cut(tree: Tree, visible: np.ndarray) -> Cut:
    """The cut Luker's recall model sees: the ``visible`` rows (mask), every other row rolled
    up to its nearest visible ancestor (-1 when none: it is not shown at all)."""
    parents = tree.parents
    rep = np.where(visible, np.arange(tree.n), -1)
    current = np.arange(tree.n)
    for _ in range(tree.max_depth + 1):
        pending = rep < 0
        up = parents[current]
        step = pending & (up >= 0)
        if not step.any():
            break
        current = np.where(step, up, current)
        found = step & visible[np.maximum(up, 0)]
        rep = np.where(found, up, rep)
    shown = visible.copy()
    valid = rep >= 0
    held = np.bincount(rep[valid & tree.leaves], minlength=tree.n)
    return Cut(ALL, rep, shown, np.where(shown, held, 0))

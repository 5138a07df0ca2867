"""The ``candidateRows`` of the whole candidate pool under one store read, in bulk.

``pool_rows(graph, visible)`` is, row for row and key for key, ``getNodeBrief(id,
includeEdgeSummary=True, edgeSummaryLimit=8).to_json()`` over ``listVisibleCandidates()``
(``tests/core/test_route_input.py`` compares the two, on fixtures, random graphs and random
write sequences). Calling getNodeBrief per id costs ~0.3 s warm and ~0.9 s after a write on the
50k demo (1,920 candidates, a hub of degree ~5,700): each call re-projects the node's columns
and sorts its neighbours. Here:

- the per-node part of a row (id … toSeq, exposure) depends on the node and the schema only, so
  it is kept per node (``RowParts``, a ``Graph.index``: dropped node by node as nodes change, all
  at once when the schema changes), and so are each row and its JSON text while made of the
  same parts;
- the edge summaries of every candidate come from one pass over the structure arrays
  (``structure_index``): every edge's ends lifted to the visible set at once (``projection.lift``),
  then degree and relation counts by ``bincount`` and the sample neighbours from one sort by
  (pair, recency). Each edge's recency (``topology.edge_seq``) is kept per edge across writes
  (``EdgeSeqs``, following new and removed edges by ``Edge.ord``). The numbers (a ``Skeleton``)
  are kept too: after a write, each edge's projected ends, relation and recency are compared
  with the last skeleton's, edge by edge (lined up by ord), and only the candidates at an end
  of an edge that came, went or moved are worked out again (a new link: its two ends; a new
  event outside the visible set: none); the rest are carried over. A field edit only
  re-renders the sample titles, and only of the summaries that sample a changed node. A node
  whose sample order would hinge on two ids that collate equal takes the per-node path
  (``recall.edge_summary``), which orders such ties by first appearance;
- the whole block (rows, texts, CJK count) is kept until the graph next changes.

The caller holds the store lock (``store.reading()``).
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from dataclasses import dataclass
from itertools import pairwise
from operator import attrgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from memgraph_gui.core.domain.collation import ascii_key, uca_key
from memgraph_gui.core.domain.freeze import thaw
from memgraph_gui.core.domain.model import SYMMETRIC_RELATIONS, Edge, EdgeKey, Node
from memgraph_gui.core.graph import recall
from memgraph_gui.core.graph.brief import key_columns, node_summary, project_columns
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.projection import lift, visible_mask
from memgraph_gui.core.graph.structure_index import Flags, GraphArrays, graph_arrays, merged_by_ord
from memgraph_gui.core.graph.topology import edge_seq

EDGE_SUMMARY_LIMIT = 8
_MAX_BINS = 1 << 22  # (target, relation, direction) bins counted densely up to this many
_REBUILD_AFTER = 20_000  # EdgeSeqs starts again after more changed nodes or edges than this

Ints = npt.NDArray[np.int64]
_ORD, _SEQ = attrgetter("ord"), attrgetter("seq_to")
_NO_SEQ = np.iinfo(np.int64).min  # (an edge without a whole seqTo of its own)


_CJK = re.compile(
    "[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31ff"
    "\u3200-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003134f]"
)


def cjk_count(text: str) -> int:
    """How many CJK characters (ideographs, kana, Hangul, CJK punctuation, full-width forms)
    ``text`` holds; additive over concatenation."""
    return len(text) - len(_CJK.sub("", text))


def compact_json(value: Any) -> str:
    """``value`` as compact JSON, non-ASCII characters as they are."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class RowsBlock:
    """The candidate rows of one graph version and visible set, shared by every caller that asks
    for them before the next change: ``rows`` (never change them: ``copy_row`` first),
    ``texts`` (each row as ``compact_json``) and ``cjk`` (``cjk_count`` of all the texts)."""

    rows: tuple[dict[str, Any], ...]
    texts: tuple[str, ...]
    cjk: int


def pool_rows(graph: Graph, visible: frozenset[str] | None) -> list[dict[str, Any]]:
    """One getNodeBrief row (a fresh dict) per candidate, in pool order; ``visible`` None: the
    recorded ``visibleIds`` (getNodeBrief's default)."""
    return [copy_row(row) for row in pool_block(graph, visible).rows]


def copy_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row that shares nothing changeable with ``row`` (the same keys in the same order)."""
    summary = row["edgeSummary"]
    return {
        **row,
        "keyValues": dict(row["keyValues"]),
        "rowValues": dict(row["rowValues"]),
        "edgeSummary": {
            "degree": summary["degree"],
            "relations": [dict(r) for r in summary["relations"]],
            "sample_neighbors": [dict(n) for n in summary["sample_neighbors"]],
        },
    }


def pool_block(graph: Graph, visible: frozenset[str] | None) -> RowsBlock:
    """The ``RowsBlock`` of ``graph`` as it is now under ``visible`` (None: the recorded
    ``visibleIds``), kept until the graph next changes (the last four visible sets)."""
    seen = recall.default_visible(graph) if visible is None else visible
    blocks: OrderedDict[frozenset[str], RowsBlock] = graph.derived("route_blocks", OrderedDict)
    block = blocks.get(seen)
    if block is None:
        block = blocks[seen] = _block(graph, seen)
        while len(blocks) > 4:
            blocks.popitem(last=False)
    else:
        blocks.move_to_end(seen)
    return block


_ZERO: dict[str, Any] = {"degree": 0, "relations": [], "sample_neighbors": []}
"""The zero edge summary (shared: rows are never changed in place)."""


def _block(graph: Graph, seen: frozenset[str]) -> RowsBlock:
    pool = recall.candidate_pool(graph)
    parts = graph.index("route_rows", RowParts)
    always = graph.injection.always_inject_ids
    nodes = graph.nodes
    summaries = edge_summaries(graph, [n for n in pool if n.id in seen], seen, EDGE_SUMMARY_LIMIT)
    parts.forget_others(pool)
    rows, texts, cjk = [], [], 0
    for node in pool:
        children = 0
        for child_id in node.children_ids:
            child = nodes.get(child_id)
            if child is not None and not child.archived:
                children += 1
        row, text, count = parts.row(
            graph, node, children, summaries.get(node.id, _ZERO), node.id in always
        )
        rows.append(row)
        texts.append(text)
        cjk += count
    return RowsBlock(tuple(rows), tuple(texts), cjk)


class RowParts:
    """The node-and-schema part of each candidate's row, kept across writes (``Graph.index``)."""

    def __init__(self) -> None:
        self._parts: dict[str, tuple[Any, ...]] = {}
        # id -> the part, summary and counts a row was made of, and (row, text, cjk count)
        self._rows: dict[str, tuple[Any, Any, Any, tuple[dict[str, Any], str, int]]] = {}

    def forget_others(self, pool: list[Node]) -> None:
        """Drop the rows kept for nodes outside ``pool`` once they outnumber it (memory)."""
        if len(self._rows) > 2 * len(pool) + 1000:
            keep = {n.id for n in pool}
            self._rows = {k: v for k, v in self._rows.items() if k in keep}

    def row(
        self, graph: Graph, node: Node, children: int, summary: dict[str, Any], always: bool
    ) -> tuple[dict[str, Any], str, int]:
        """``(row, compact_json(row), cjk_count of it)`` for a candidate: the ones made last
        time for this id when made of the same parts (the same part and summary objects, the
        same counts) or when equal to them (most rows stay the same from one change to the
        next, and equal rows made here have their keys in the same order)."""
        part = self.get(graph, node)
        found = self._rows.get(node.id)
        if (
            found is not None
            and found[0] is part
            and found[1] is summary
            and found[2] == (children, always)
        ):
            return found[3]
        row = {
            "id": part[0],
            "level": part[1],
            "type": part[2],
            "tableName": part[3],
            "title": part[4],
            "summary": part[5],
            "keyValues": part[6],
            "rowValues": part[7],
            "toSeq": part[8],
            "childCount": children,
            "exposure": part[9],
            "edgeSummary": summary,
            "alwaysInject": always,
        }
        if found is not None and found[3][0] == row:
            made = found[3]
        else:
            text = compact_json(row)
            made = (row, text, cjk_count(text))
        self._rows[node.id] = (part, summary, (children, always), made)
        return made

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        for node in (old, new):
            if node is not None:
                self._parts.pop(node.id, None)

    def get(self, graph: Graph, node: Node) -> tuple[Any, ...]:
        """``(id, level, type, tableName, title, summary, keyValues, rowValues, toSeq,
        exposure)`` as ``read_briefs._brief`` makes them."""
        part = self._parts.get(node.id)
        if part is None:
            spec = graph.schema.get(node.type.lower())
            part = self._parts[node.id] = (
                node.id,
                "semantic" if node.level == "semantic" else "episodic",
                node.type,
                ((spec.table_name if spec else "") or node.type).strip(),
                node.title,
                node_summary(node),
                thaw(project_columns(node, key_columns(spec))),
                thaw(project_columns(node, list(spec.columns) if spec else [])),
                node.seq_to,
                recall.exposure(graph, node),
            )
        return part


class EdgeSeqs:
    """``topology.edge_seq`` of every edge, aligned with ``graph_arrays(graph)``'s edges (store
    order), kept across writes (``Graph.index``).

    Follows the edges by ``Edge.ord`` as ``structure_index.StructureIndex`` does (new and
    removed edges merged in), and recomputes an edge's recency when its own ``seqTo`` or an end
    node's changed. Holds the last ``Skeleton`` made and the summaries rendered from it.
    """

    def __init__(self, graph: Graph) -> None:
        self._graph = graph
        self.skeleton: Skeleton | None = None  # the last edge summaries made (``edge_summaries``)
        # id -> [stamp, samples, neighbour nodes, degree, relations, summary dict] last made: a
        # summary dict is handed out again while what it was made of is the same, so the rows
        # made of it (and their text) are kept too; ``stamp``: the call that last handed it out
        self.rendered: dict[str, list[Any]] = {}
        self.renders = 0  # calls that rendered summaries so far
        # ids of the nodes changed since the last of them (None: too many to follow)
        self.changed_nodes: set[str] | None = set()
        self.step: Step | None = None  # how the last merge changed the edges
        self._rebuild(graph_arrays(graph))

    def _rebuild(self, arrays: GraphArrays) -> None:
        self._ord = arrays.ord
        self._seq = _all_seqs(self._graph, arrays)
        self.step = None
        self._added: dict[int, Edge] = {}  # ord -> edge, new since the last call
        self._removed: set[int] = set()  # ords of edges gone since the last call
        self._dirty_edges: set[EdgeKey] = set()
        self._dirty_nodes: set[str] = set()
        self._stale = False

    def node_changed(self, old: Node | None, new: Node | None) -> None:
        if self.changed_nodes is not None:
            self.changed_nodes.add(new.id if new is not None else old.id)  # type: ignore[union-attr]
            if len(self.changed_nodes) > _REBUILD_AFTER:
                self.changed_nodes = None
        if not self._stale and (old is None or new is None or old.seq_to != new.seq_to):
            self._dirty_nodes.add(new.id if new is not None else old.id)  # type: ignore[union-attr]
            if len(self._dirty_nodes) > _REBUILD_AFTER:
                self._stale = True  # cheaper to start again than to follow them one by one

    def edge_changed(self, old: Edge | None, new: Edge | None) -> None:
        if self._stale:
            return
        if old is not None and new is not None and old.ord == new.ord:
            self._dirty_edges.add(new.key)  # only its seqTo changed
            return
        if old is not None and self._added.pop(old.ord, None) is None:
            self._removed.add(old.ord)
        if new is not None:
            self._added[new.ord] = new
        if len(self._added) + len(self._removed) > _REBUILD_AFTER:
            self._stale = True

    def seqs(self, arrays: GraphArrays) -> Ints:
        """Each edge's recency, aligned with ``arrays`` (``graph_arrays(graph)`` now): the same
        array as last time when no recency changed."""
        graph = self._graph
        if self._stale:
            self._rebuild(arrays)
        if self._added or self._removed:
            edges = sorted(self._added.values(), key=_ORD)
            added = np.fromiter((edge_seq(graph, e) for e in edges), np.int64, len(edges))
            ords = np.fromiter(map(_ORD, edges), np.int64, len(edges))
            removed = np.array(sorted(self._removed), np.int64)
            merged = merged_by_ord(self._ord, [self._seq], self._removed, ords, [added])
            self._added, self._removed = {}, set()
            if merged is None:
                self._rebuild(arrays)
            else:
                self.step = Step(self._ord, removed, np.sort(ords))
                self._ord, (self._seq,) = merged[0], merged[1]
        for node_id in self._dirty_nodes:
            self._dirty_edges.update(e.key for e in graph.edges_of(node_id))
        self._dirty_nodes.clear()
        if self._dirty_edges:
            fresh = self._seq.copy()  # an earlier answer stays as it was
            for key in self._dirty_edges:
                changed = graph.edges.get(key)
                if changed is not None:
                    at = int(np.searchsorted(self._ord, changed.ord))
                    if at < len(self._ord) and self._ord[at] == changed.ord:
                        fresh[at] = edge_seq(graph, changed)
            self._dirty_edges.clear()
            if not np.array_equal(fresh, self._seq):
                self._seq = fresh  # a new array only when a recency changed
        if self._ord is not arrays.ord and not np.array_equal(self._ord, arrays.ord):
            self._rebuild(arrays)  # never expected: out of step with the structure
        self._ord = arrays.ord  # (equal) the next call compares by identity first
        return self._seq


def _all_seqs(graph: Graph, arrays: GraphArrays) -> Ints:
    """``edge_seq`` of every edge, aligned with ``arrays``: an edge's own whole ``seqTo`` as
    it is (at least 0), else the larger end's ``seqTo`` (at least 0), by array; any other own
    value (a float, a bool) through ``edge_seq`` itself."""
    edges = list(graph.edges.values())
    at = np.searchsorted(arrays.ord, np.fromiter(map(_ORD, edges), np.int64, len(edges)))
    nodes = graph.nodes
    node_seq = np.fromiter((nodes[i].seq_to for i in arrays.ids.tolist()), np.int64)
    node_seq = np.maximum(np.append(node_seq, 0), 0)  # slot -1 (no node): 0
    seq: Ints = np.maximum(node_seq[arrays.src], node_seq[arrays.dst])
    own = np.fromiter(
        (s if type(s) is int else _NO_SEQ for s in map(_SEQ, edges)), np.int64, len(edges)
    )
    whole = own != _NO_SEQ
    seq[at[whole]] = np.maximum(own[whole], 0)
    for i in np.flatnonzero(~whole).tolist():
        if edges[i].seq_to is not None:
            seq[at[i]] = edge_seq(graph, edges[i])
    return seq


@dataclass(frozen=True, slots=True)
class Step:
    """One merge of edge changes: the edges' ords ``before`` it, the ords ``removed`` and
    ``added`` (ascending)."""

    before: Ints
    removed: Ints
    added: Ints


@dataclass(frozen=True, slots=True)
class Skeleton:
    """The edge summaries of a target list as ids and numbers (no titles): what depends only on
    the structure, the edge recencies and the visible set, so a field edit leaves it valid.
    ``samples[i]``: target ``i``'s sample neighbours as ``(seq, slot)``, in order; ``exact``:
    the targets answered node by node; ``slots``: the targets' slots; ``ends``: each edge's
    lifted ends where it is projected (-1 where not) and ``lifted`` each node's (``lift``), to
    find what the next one must redo."""

    arrays: GraphArrays
    seqs: Ints
    visible: frozenset[str]
    limit: int
    targets: tuple[str, ...]
    degree: list[int]
    relations: list[list[dict[str, Any]]]
    samples: list[list[tuple[int, int]]]
    exact: set[int]
    slots: Ints
    ends: tuple[Ints, Ints]
    lifted: Ints

    def fits(
        self,
        arrays: GraphArrays,
        seqs: Ints,
        visible: frozenset[str],
        limit: int,
        targets: tuple[str, ...],
    ) -> bool:
        return (
            self.arrays is arrays
            and self.seqs is seqs
            and self.limit == limit
            and self.visible == visible
            and self.targets == targets
        )


def edge_summaries(
    graph: Graph, targets: list[Node], visible: frozenset[str], limit: int
) -> dict[str, dict[str, Any]]:
    """``recall.edge_summary(graph, id, visible, None, limit).to_json()`` for each of ``targets``
    (active nodes in ``visible``), keyed by id, from one pass over the structure arrays (kept
    as a ``Skeleton`` while the structure and the edge recencies stay as they are; after a
    change only the targets it touches are worked out again)."""
    if not targets:
        return {}
    arrays = graph_arrays(graph)
    index = graph.index("route_edge_seqs", lambda: EdgeSeqs(graph))
    seqs = index.seqs(arrays)
    ids = tuple(n.id for n in targets)
    skeleton = index.skeleton
    if skeleton is None or not skeleton.fits(arrays, seqs, visible, limit, ids):
        skeleton = index.skeleton = _skeleton(
            arrays, seqs, visible, limit, ids, skeleton, index.step
        )
    names, nodes, slot_of = arrays.ids, graph.nodes, arrays.slot
    rendered = index.rendered
    if len(rendered) > 2 * len(ids) + 1000:  # forget nodes no longer asked for
        keep = set(ids)
        rendered = index.rendered = {k: v for k, v in rendered.items() if k in keep}
    last, stamp, changed = index.renders, index.renders + 1, index.changed_nodes
    index.renders, index.changed_nodes = stamp, set()
    moved = {slot_of.get(i, -1) for i in changed} if changed is not None else None
    out: dict[str, dict[str, Any]] = {}
    for i, node_id in enumerate(ids):
        if i in skeleton.exact:
            out[node_id] = _one(graph, node_id, visible, limit)
            continue
        picked, degree, relations = skeleton.samples[i], skeleton.degree[i], skeleton.relations[i]
        made = rendered.get(node_id)
        if (
            made is not None
            and made[0] == last  # rendered by the last call, from the same numbers, and no
            and made[1] is picked  # neighbour node changed since (nodes changed: ``moved``)
            and made[3] == degree
            and made[4] is relations
            and moved is not None
            and not any(slot in moved for _, slot in picked)
        ):
            made[0] = stamp
            out[node_id] = made[5]
            continue
        neighbours = tuple(nodes[names[slot]] for _, slot in picked)
        if (
            made is None
            or made[1] != picked
            or made[3] != degree
            or made[4] != relations
            or made[2] != neighbours  # a neighbour's node changed (its title…)
        ):
            samples = [
                {"id": n.id, "type": n.type, "title": n.title, "to_seq": seq}
                for n, (seq, _) in zip(neighbours, picked, strict=True)
            ]
            summary = {"degree": degree, "relations": relations, "sample_neighbors": samples}
            made = [stamp, picked, neighbours, degree, relations, summary]
        else:
            made[0:3] = [stamp, picked, neighbours]
            made[4] = relations
        rendered[node_id] = made
        out[node_id] = made[5]
    return out


def _skeleton(
    arrays: GraphArrays,
    seqs: Ints,
    visible: frozenset[str],
    limit: int,
    ids: tuple[str, ...],
    before: Skeleton | None,
    step: Step | None,
) -> Skeleton:
    """The ``Skeleton`` of ``ids``: a target's numbers are taken from ``before`` when no edge
    it could see changed its projection (``_touched``; a new visible set or hierarchy moves
    the projected ends of some edges), else worked out again (all of them when ``before``
    cannot be compared: another limit, renumbered slots)."""
    slots = np.fromiter((arrays.slot[i] for i in ids), np.int64, len(ids))
    if before is None or before.arrays.slot is not arrays.slot or before.limit != limit:
        lifted = lift(arrays, visible_mask(arrays, visible))
        ends = _ends(lifted, arrays.src, arrays.dst)
        degree, relations, samples, exact = _summaries(arrays, seqs, ends, slots, limit)
        return Skeleton(
            arrays,
            seqs,
            visible,
            limit,
            ids,
            degree,
            relations,
            samples,
            exact,
            slots,
            ends,
            lifted,
        )
    gone, added = _alignment(before.arrays.ord, arrays.ord, step)
    if (
        arrays.parent is before.arrays.parent
        and arrays.archived is before.arrays.archived
        and before.visible == visible
    ):
        lifted = before.lifted  # the same lift: only the new edges' ends to lift
        ends = _carried(before.ends, gone, added, -1)
        new_a, new_b = _ends(lifted, arrays.src[added], arrays.dst[added])
        ends[0][added], ends[1][added] = new_a, new_b
    else:
        lifted = lift(arrays, visible_mask(arrays, visible))
        ends = _ends(lifted, arrays.src, arrays.dst)
    touched = _touched(before, arrays, seqs, ends, gone, added)
    had = dict(zip(before.slots.tolist(), range(len(before.slots)), strict=True))
    redo = [j for j, s in enumerate(slots.tolist()) if touched[s] or s not in had]
    fresh = _summaries(arrays, seqs, ends, slots[redo], limit)
    made = dict(zip(redo, range(len(redo)), strict=True))
    degree, relations, samples, exact = [], [], [], set()
    for j, s in enumerate(slots.tolist()):
        k = made.get(j)
        if k is None:
            old = had[s]
            degree.append(before.degree[old])
            relations.append(before.relations[old])
            samples.append(before.samples[old])
            if old in before.exact:
                exact.add(j)
        else:
            degree.append(fresh[0][k])
            relations.append(fresh[1][k])
            samples.append(fresh[2][k])
            if k in fresh[3]:
                exact.add(j)
    return Skeleton(
        arrays, seqs, visible, limit, ids, degree, relations, samples, exact, slots, ends, lifted
    )


def _ends(lifted: Ints, src: Ints, dst: Ints) -> tuple[Ints, Ints]:
    """Each edge's ends lifted to the visible set where it is projected (both ends lift to a
    node, not the same one), else -1 and -1."""
    a, b = lifted[src], lifted[dst]
    keep = (a >= 0) & (b >= 0) & (a != b)
    return np.where(keep, a, -1), np.where(keep, b, -1)


def _alignment(old: Ints, new: Ints, step: Step | None) -> tuple[Ints, Ints]:
    """How the edges ``new`` (ords, ascending) follow from ``old``: the positions in ``old`` of
    the edges gone and the positions in ``new`` of the edges added (the others keep their
    order). From ``step`` (what ``EdgeSeqs`` merged) when it starts from ``old``."""
    if len(new) >= len(old) and np.array_equal(new[: len(old)], old):
        return np.zeros(0, np.int64), np.arange(len(old), len(new))
    if step is not None and step.before is old:
        gone, added = np.searchsorted(old, step.removed), np.searchsorted(new, step.added)
        if (
            len(old) - len(gone) == len(new) - len(added)
            and np.array_equal(old[np.minimum(gone, len(old) - 1)], step.removed)
            and np.array_equal(new[np.minimum(added, len(new) - 1)], step.added)
        ):
            return gone, added
    table = np.full(int(max(old.max(initial=0), new.max(initial=0))) + 1, -1, np.int64)
    table[new] = np.arange(len(new))
    at = table[old]
    kept = np.zeros(len(new), np.bool_)
    kept[at[at >= 0]] = True
    return np.flatnonzero(at < 0), np.flatnonzero(~kept)


def _carried(columns: tuple[Ints, Ints], gone: Ints, added: Ints, fill: int) -> tuple[Ints, Ints]:
    """Per-edge ``columns`` of the old edges moved onto the new ones (``_alignment``), ``fill``
    for the edges added."""
    return (_carry(columns[0], gone, added, fill), _carry(columns[1], gone, added, fill))


def _carry(column: Ints, gone: Ints, added: Ints, fill: int) -> Ints:
    kept = np.delete(column, gone)
    return np.insert(kept, added - np.arange(len(added)), fill) if len(added) else kept


def _touched(
    before: Skeleton,
    arrays: GraphArrays,
    seqs: Ints,
    ends: tuple[Ints, Ints],
    gone: Ints,
    added: Ints,
) -> Flags:
    """Per slot, whether its summary may differ from the one in ``before``: the slot is a
    projected end, before or now, of an edge that came, went, or changed its projected ends,
    relation or recency (a target's summary depends on those edges only)."""
    a, b = ends
    was_a, was_b = _carried(before.ends, gone, added, -1)
    changed = (was_a != a) | (was_b != b)
    if before.seqs is not seqs:
        changed |= (a >= 0) & (_carry(before.seqs, gone, added, -1) != seqs)
    if before.arrays.rel is not arrays.rel:
        changed |= (a >= 0) & (_carry(before.arrays.rel, gone, added, -1) != arrays.rel)
    hit = [was_a[changed], was_b[changed], a[changed], b[changed]]
    hit += [before.ends[0][gone], before.ends[1][gone]]
    flags = np.zeros(len(arrays.ids) + 1, np.bool_)  # the last one takes the -1s
    flags[np.concatenate(hit)] = True
    return flags[:-1]


def _summaries(
    arrays: GraphArrays, seqs: Ints, ends: tuple[Ints, Ints], slots: Ints, limit: int
) -> tuple[list[int], list[list[dict[str, Any]]], list[list[tuple[int, int]]], set[int]]:
    """Degree, relations, samples and the targets to answer node by node, for the targets at
    ``slots`` (each target's from the projected edges it is an end of, ``ends``)."""
    count, many = len(arrays.ids), len(slots)
    a, b = ends
    keep = a >= 0
    target_of = np.full(count + 1, -1, np.int64)  # slot -> target number; slot -1 -> -1
    target_of[slots] = np.arange(many)
    ta, tb = target_of[a], target_of[b]
    at_a = np.flatnonzero(keep & (ta >= 0))  # raw edges seen from their from-end
    at_b = np.flatnonzero(keep & (tb >= 0))  # ... and from their to-end
    node = np.concatenate([ta[at_a], tb[at_b]])
    where = np.concatenate([at_a, at_b])
    symmetric = np.array([r in SYMMETRIC_RELATIONS for r in arrays.relations.tolist()], np.bool_)
    ra, rb = arrays.rel[at_a], arrays.rel[at_b]
    # direction codes: 0 out, 1 in, 2 symmetric (reported as out)
    kinds = np.concatenate(
        [ra * 3 + np.where(symmetric[ra], 2, 0), rb * 3 + np.where(symmetric[rb], 2, 1)]
    )
    degree = np.bincount(node, minlength=many).tolist()
    relations = _relations(arrays, node, kinds, where, many)
    raw = np.flatnonzero(keep & ((ta >= 0) | (tb >= 0)))  # the edges any target sees
    samples, exact = _samples(arrays, a[raw], b[raw], seqs[raw], target_of, limit)
    return degree, relations, samples, exact


def _one(graph: Graph, node_id: str, visible: frozenset[str], limit: int) -> dict[str, Any]:
    return recall.edge_summary(graph, node_id, visible, None, limit).to_json()


def _relations(
    arrays: GraphArrays, node: Ints, kinds: Ints, where: Ints, many: int
) -> list[list[dict[str, Any]]]:
    """Per target: ``{relation, direction, count}`` by count, ties by first raw edge (the order
    Luker's tally meets them in)."""
    width = 3 * max(1, len(arrays.relations))
    key = node * width + kinds
    if many * width <= _MAX_BINS:
        counts = np.bincount(key, minlength=many * width)
        first = np.full(many * width, np.iinfo(np.int64).max, np.int64)
        np.minimum.at(first, key, where)
        groups = np.flatnonzero(counts)
        counts, first = counts[groups], first[groups]
    else:
        groups, inverse = np.unique(key, return_inverse=True)
        counts = np.bincount(inverse)
        first = np.full(len(groups), np.iinfo(np.int64).max, np.int64)
        np.minimum.at(first, inverse, where)
    targets = groups // width
    order = np.lexsort((first, -counts, targets))
    names = arrays.relations.tolist()
    out: list[list[dict[str, Any]]] = [[] for _ in range(many)]
    for t, k, c in zip(
        targets[order].tolist(),
        (groups[order] % width).tolist(),
        counts[order].tolist(),
        strict=True,
    ):
        out[t].append(
            {"relation": names[k // 3], "direction": "in" if k % 3 == 1 else "out", "count": c}
        )
    return out


def _samples(
    arrays: GraphArrays,
    a: Ints,
    b: Ints,
    seq: Ints,
    target_of: Ints,
    limit: int,
) -> tuple[list[list[tuple[int, int]]], set[int]]:
    """Per target: the ``limit`` most recent neighbours (a neighbour's recency is its newest
    edge), ties by ``localeCompare`` of the ids; and the targets to answer node by node.

    ``a`` / ``b`` / ``seq``: the lifted ends and recency of the projected raw edges that touch a
    target; ``target_of``: slot -> target number (-1 for none)."""
    many = int(target_of.max(initial=-1)) + 1
    cap = max(1, limit)
    if not len(a):
        return [[] for _ in range(many)], set()
    # each pair of ends once (either direction), with its newest edge: sort by pair, newest first
    count = len(arrays.ids) + 1
    low, high = np.minimum(a, b), np.maximum(a, b)
    pair = low * count + high
    top = int(seq.max()) + 1
    if int(pair.max()) < (1 << 62) // top:
        order = np.argsort(pair * top + (top - 1 - seq))
    else:
        order = np.lexsort((-seq, pair))
    pair, seq = pair[order], seq[order]
    head = np.ones(len(pair), np.bool_)
    head[1:] = pair[1:] != pair[:-1]
    pair, seq = pair[head], seq[head]
    low, high = pair // count, pair % count
    # both ends of each pair, seen from the end that is a target
    t_low, t_high = target_of[low], target_of[high]
    node = np.concatenate([t_low[t_low >= 0], t_high[t_high >= 0]])
    other = np.concatenate([high[t_low >= 0], low[t_high >= 0]])
    seq = np.concatenate([seq[t_low >= 0], seq[t_high >= 0]])
    # which targets have a neighbour whose id is not ASCII (``key_function`` then uses UCA)
    distinct = np.unique(other)
    names = arrays.ids
    odd = distinct[np.fromiter((not names[o].isascii() for o in distinct.tolist()), np.bool_)]
    uca = (np.bincount(node[np.isin(other, odd)], minlength=many) > 0).tolist()
    # per target newest first; keep the first ``cap`` and whatever ties with the last of them
    order = np.lexsort((-seq, node))
    node, other, seq = node[order], other[order], seq[order]
    starts = np.searchsorted(node, np.arange(many))
    ends = np.append(starts[1:], len(node))
    rank = np.arange(len(node)) - starts[node]
    last = np.clip(np.minimum(starts + cap, ends) - 1, 0, len(node) - 1)
    keep = (rank < cap) | (seq == seq[last][node])
    picked: list[list[tuple[int, int]]] = [[] for _ in range(many)]
    for t, o, s in zip(node[keep].tolist(), other[keep].tolist(), seq[keep].tolist(), strict=True):
        picked[t].append((o, s))
    return _ranked(arrays, picked, uca, cap)


def _ranked(
    arrays: GraphArrays,
    picked: list[list[tuple[int, int]]],
    uca: list[bool],
    cap: int,
) -> tuple[list[list[tuple[int, int]]], set[int]]:
    """Each target's chosen ``(slot, seq)`` neighbours as ``(to_seq, slot)``, newest first, ties
    by ``localeCompare`` (``uca_key`` where any neighbour id is not ASCII, as ``key_function``
    chooses), ``cap`` at most; and the targets where two ids collate equal (their order is
    first appearance)."""
    ids = arrays.ids
    out: list[list[tuple[int, int]]] = []
    exact: set[int] = set()
    for t, chosen in enumerate(picked):
        key = uca_key if uca[t] else ascii_key
        ranked = sorted((-s, key(ids[o]), o) for o, s in chosen)
        if any(x[:2] == y[:2] for x, y in pairwise(ranked)):
            exact.add(t)
        out.append([(max(0, -s), o) for s, _, o in ranked[:cap]])
    return out, exact

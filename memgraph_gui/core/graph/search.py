"""Searches: Luker's ``keywordSearch`` / ``findByName`` / ``searchNodesLexical`` (exact to the
seeds) and the find (``find_nodes``: one substring search behind the window's Find box, its
timeline filter and ``search_text``). Each is answered from an index kept in step with writes
(``keyword_index``, ``substring_index``), so a query is a few C-level string, set or array
operations rather than a Python pass over the nodes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np

from memgraph_gui.core.domain.freeze import EMPTY_MAPPING, LazyFields
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.domain.results import NodeRows, gather
from memgraph_gui.core.domain.text import (
    FIND_SEPARATOR,
    TOKEN_SPLIT,
    find_needle,
    flatten_values,
    js_string,
    node_find_text,
    node_finds,
    tokenize,
)
from memgraph_gui.core.graph import timeline_order
from memgraph_gui.core.graph.graph import Graph
from memgraph_gui.core.graph.keyword_index import KeywordIndex
from memgraph_gui.core.graph.substring_index import SubstringIndex
from memgraph_gui.core.graph.topology import is_recall_diagnostic

LEXICAL_FIELDS = (
    "title",
    "name",
    "summary",
    "state",
    "traits",
    "constraint",
    "key_sentences",
    "aliases",
)


def nodes_in_store_order(graph: Graph) -> list[Node]:
    """Every node in the store's own order (Luker's object insertion order)."""
    return graph.derived("nodes_by_ord", lambda: sorted(graph.nodes.values(), key=lambda n: n.ord))


Profile = tuple[tuple[str, ...], frozenset[str], int]


def _type_profiles(graph: Graph) -> dict[str, Profile]:
    """Per type: its columns, its keywords' tokens and how many keywords it has."""

    def build() -> dict[str, Profile]:
        out: dict[str, Profile] = {}
        for spec in graph.schema.types:
            words = [k for k in spec.keywords if k]
            out[spec.id] = (spec.columns, frozenset(_long_tokens(" ".join(words))), len(words))
        return out

    return graph.per_schema("kw_profiles", build)


def _long_tokens(text: str) -> list[str]:
    return [t for t in TOKEN_SPLIT.split(text.lower()) if len(t) >= 2]


def _keyword_tokens(graph: Graph, node: Node) -> frozenset[str]:
    """Luker's keyword corpus tokens: title + the type's columns + the type's keywords (every
    field value instead when that corpus would hold a single fragment)."""
    fields = node.fields
    frags = [node.title] if node.title else []
    profile = _type_profiles(graph).get(node.type.lower())
    keyword_tokens: frozenset[str] = frozenset()
    keyword_count = 0
    if profile is not None:
        columns, keyword_tokens, keyword_count = profile
        frags += [js_string(fields[c]) for c in columns if fields.get(c) is not None]
    if len(frags) + keyword_count <= 1:
        frags += [js_string(v) for v in fields.values() if v is not None]
    return frozenset(_long_tokens(" ".join(frags))) | keyword_tokens


def query_tokens(query: str) -> list[str]:
    """Luker's query tokens (length ≥ 2; duplicates kept: they count in the denominator)."""
    return [t for t in tokenize(query) if len(t) >= 2]


def _active(node: Node) -> bool:
    return not node.archived and not is_recall_diagnostic(node)


def _keyword_index(graph: Graph) -> KeywordIndex:
    return graph.index(
        "keywords",
        lambda: KeywordIndex(
            nodes_in_store_order(graph), lambda n: _keyword_tokens(graph, n), _active
        ),
    )


def keyword_search(
    graph: Graph, query: str, types: frozenset[str] | None, k: int
) -> list[tuple[Node, float]]:
    """Token-overlap search over active nodes; ``(node, score)`` by score desc, store order ties.

    ``score`` = distinct query tokens the node has / query tokens (duplicates counted).
    """
    tokens = query_tokens(query)
    denominator = max(1, len(tokens))
    hits = _keyword_index(graph).top(frozenset(tokens), types, k)
    return [(node, count / denominator) for node, count in hits]


def field_maps(nodes: list[Node]) -> list[Mapping[str, Any]]:
    """Each node's fields, the ones still held as JSON text parsed in one ``json.loads`` call.

    A store opens with every node's fields unparsed; one parse of them all is ~3x cheaper than
    one a node. The values are plain (lists, dicts), equal to the frozen ones and not kept.
    """
    out: list[Mapping[str, Any]] = [node.fields for node in nodes]
    lazy = [(i, fields.text) for i, fields in enumerate(out) if isinstance(fields, LazyFields)]
    if len(lazy) < 2:
        return out
    try:
        parsed = json.loads("[" + ",".join(text for _i, text in lazy) + "]")
    except ValueError:
        return out  # a damaged row: each node's own parse reports it
    if len(parsed) == len(lazy) and all(type(p) is dict for p in parsed):
        for (i, _text), fields in zip(lazy, parsed, strict=True):
            out[i] = fields
    return out


def _name_index(graph: Graph) -> SubstringIndex:
    """Active nodes by their lower-cased title and primary-key values, NUL-separated (the
    index is rebuilt when the schema changes, so each type's key columns are looked up once)."""
    keys: dict[str, tuple[str, ...] | None] = {}  # node type -> its key columns; None: hidden

    def key_columns(node: Node) -> tuple[str, ...] | None:
        if node.type not in keys:
            spec = graph.schema.get(node.type.lower())
            hidden = is_recall_diagnostic(node)  # decided by the type alone
            keys[node.type] = None if hidden else spec.primary_key if spec else ()
        return keys[node.type]

    def haystacks(nodes: list[Node]) -> list[str]:
        columns = [None if n.archived else key_columns(n) for n in nodes]
        keyed = [n for n, c in zip(nodes, columns, strict=True) if c]
        fields = iter(field_maps(keyed))
        return [
            "" if c is None else _name_text(n, c, next(fields) if c else EMPTY_MAPPING)
            for n, c in zip(nodes, columns, strict=True)
        ]

    return graph.index("names", lambda: SubstringIndex(graph.nodes.values(), haystacks))


def _name_text(node: Node, columns: tuple[str, ...], fields: Mapping[str, Any]) -> str:
    parts = [node.title.lower()]
    for column in columns:
        value = fields.get(column)
        if value:
            parts.append(js_string(value).lower())
    return "\x00".join(parts)


def find_by_name(graph: Graph, query: str, types: frozenset[str] | None) -> NodeRows:
    """Active nodes whose title or primary-key columns contain ``query`` (any case), timeline
    order. The answer is a view (``NodeRows``) over the index's blocks: many hits are put in
    order by their row orders alone (``timeline_order.permutation``) and no node is touched
    until the answer is read (~1.5 ms for 'e', 68k hits at 200k nodes). Store lock held."""
    needle = query.strip().lower().replace("\x00", "")
    if not needle:
        return NodeRows()
    hits = _name_index(graph).hits(needle)
    rows, ords = hits.rows, hits.ords
    if not len(rows):
        return NodeRows()
    if types is not None:
        found = gather(hits.parts, hits.starts, rows)
        kept = np.fromiter((node.type.lower() in types for node in found), np.bool_, len(rows))
        rows, ords = rows[kept], ords[kept]
    if len(rows) > timeline_order.FEW:
        order = timeline_order.permutation(graph, ords)
        if order is not None:
            return NodeRows(hits.parts, rows[order], hits.starts)
    nodes = list(gather(hits.parts, hits.starts, rows))  # few: sorted by their keys
    return NodeRows.of(timeline_order.in_timeline_order(graph, nodes, ords))


def lexical_text(node: Node, fields: Mapping[str, Any] | None = None) -> str:
    """The legacy external API's match text: title + the lexical fields, space-joined (from
    ``fields`` when given: the node's fields as ``field_maps`` reads them)."""
    get = (node.fields if fields is None else fields).get
    parts = [node.title]
    for value in map(get, LEXICAL_FIELDS):
        if value is not None:
            parts.append(value if type(value) is str else js_string(value))
    return " ".join(filter(None, parts))


def _lexical_index(graph: Graph) -> SubstringIndex:
    def haystacks(nodes: list[Node]) -> list[str]:
        live = [n for n in nodes if not n.archived]
        fields = field_maps(live)
        texts = iter([lexical_text(n, f).lower() for n, f in zip(live, fields, strict=True)])
        return ["" if n.archived else next(texts) for n in nodes]

    return graph.index("lexical", lambda: SubstringIndex(graph.nodes.values(), haystacks))


def lexical_matches(graph: Graph, query: str, exclude: frozenset[str]) -> Iterable[Node]:
    """Nodes in store order whose lexical text contains ``query`` (lower-cased, not trimmed)."""
    needle = query.lower()
    if not needle:
        return
    for node in _lexical_index(graph).matches(needle):
        if node.id not in exclude:
            yield node


_PARSE_CHUNK = 4096  # nodes whose fields are parsed in one go when the find index is built


def _find_index(graph: Graph) -> SubstringIndex:
    """Every node by its find text (``node_find_text``), kept in step with writes."""

    def haystacks(nodes: list[Node]) -> list[str]:
        out: list[str] = []
        for start in range(0, len(nodes), _PARSE_CHUNK):  # a bounded parse at a time
            chunk = nodes[start : start + _PARSE_CHUNK]
            out += map(node_find_text, chunk, field_maps(chunk))
        return out

    return graph.index("find", lambda: SubstringIndex(graph.nodes.values(), haystacks))


def prepare_find(graph: Graph) -> None:
    """Build the find index now (~0.4 s at 50k nodes, ~1.7 s at 200k), so that the first find
    is as fast as later ones. Store lock held (or the graph not published yet)."""
    _find_index(graph).refresh()


def find_nodes(graph: Graph, query: str) -> list[Node]:
    """The nodes (archived ones too) that ``query`` finds, in row order: the one find of the
    window's Find box, its timeline filter and ``search_text``. A node is found when
    ``find_needle(query)`` is in its id, its title or one scalar of its fields, case-folded
    (``node_finds`` for one node); an empty query finds nothing. ~1-20 ms at 50k nodes (the
    first call builds the index: ~0.3 s). Store lock held."""
    needle = find_needle(query)
    if not needle:
        return []
    if FIND_SEPARATOR in needle:  # never in a joined find text's join, only in a part's own text
        return [n for n in nodes_in_store_order(graph) if node_finds(n, needle)]
    return list(chain.from_iterable(_find_index(graph).block_matches(needle)))


def find_ids(graph: Graph, query: str) -> set[str]:
    """The ids of ``find_nodes(graph, query)``."""
    return set(map(attrgetter("id"), find_nodes(graph, query)))


def find_in_timeline_order(graph: Graph, query: str) -> list[str]:
    """The ids of ``find_nodes(graph, query)`` in timeline order (``search_text``'s answer)."""
    hits = find_nodes(graph, query)
    return [node.id for node in timeline_order.in_timeline_order(graph, hits)]


NAME_FIELDS = ("name", "aliases", "alias")
"""Fields that name a node: a find in them (or in the title) ranks first."""


def names_find(node: Node, needle: str) -> bool:
    """Whether the find ``needle`` (from ``find_needle``, non-empty) is in the node's title or
    in one of its ``NAME_FIELDS`` (each scalar of a list on its own)."""
    if needle in node.title.casefold():
        return True
    for name in NAME_FIELDS:
        value = node.fields.get(name)
        if value is None:
            continue
        if isinstance(value, str):
            if needle in value.casefold():
                return True
        elif any(needle in part.casefold() for part in flatten_values(value)):
            return True
    return False


def find_ranked(graph: Graph, query: str) -> list[str]:
    """The ids of ``find_nodes(graph, query)`` (the same matches) ranked for stepping through
    them: those whose title or name fields (``names_find``) hold the query first, then the
    rest, each in timeline order. Store lock held."""
    needle = find_needle(query)
    if not needle:
        return []
    hits = timeline_order.in_timeline_order(graph, find_nodes(graph, query))
    named = [names_find(node, needle) for node in hits]
    first = [n.id for n, ok in zip(hits, named, strict=True) if ok]
    return first + [n.id for n, ok in zip(hits, named, strict=True) if not ok]


def build_indexes(graph: Graph) -> None:
    """Build what the first edge, name, lexical, find and keyword lookups would otherwise build
    (~1.7 s at 50k nodes, most of it the keyword index), so that first calls are as fast as
    later ones. Store lock held."""
    graph.index_edges()
    timeline_order.prepare(graph)
    _name_index(graph).prepare_masks()
    _lexical_index(graph).refresh()
    prepare_find(graph)
    _keyword_index(graph)

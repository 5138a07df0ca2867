"""The route model's input: the ``schema_overview`` and ``candidateRows`` blocks that Luker's
``chooseRecallRoute`` builds (the seed's "Worked Example: replicate the native recall LLM input"),
plus the always-inject ids and the message, serialised as the model gets them.

``candidate_rows`` equals, field by field and order by order, the JSON of
``getNodeBrief(view.id, includeEdgeSummary=True, edgeSummaryLimit=8)`` for each of
``listVisibleCandidates()`` (``tests/core/test_route_input.py`` checks it), but builds every row
under one store read with the edge summaries computed for the whole pool at once
(``route_rows``), so it stays fast on a big store.

Everything here only reads; every function may be called from any thread.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from memgraph_gui.core.domain.collation import sort_locale
from memgraph_gui.core.luker import args
from memgraph_gui.core.luker.read_api import ReadApi
from memgraph_gui.core.luker.route_rows import (
    cjk_count,
    compact_json,
    copy_row,
    pool_block,
    pool_rows,
)

SCHEMA_HEADER = "schema_overview:"
ALWAYS_HEADER = "always_inject_node_ids:"
ROWS_HEADER = "candidateRows:"
QUERY_HEADER = "recall_query_context:"


def estimate_tokens(text: str) -> int:
    """A model-independent size estimate of ``text`` in tokens: each CJK character (ideograph,
    kana, Hangul, CJK punctuation, full-width form) counts 1, the other characters together
    count one per 4 characters, rounded up. So ``"abcd"`` is 1, ``"abcde"`` 2, ``"凯恩"`` 2,
    ``""`` 0. Real tokenisers differ by model; this is for comparing sizes, not billing."""
    return _tokens(len(text), cjk_count(text))


def _tokens(length: int, cjk: int) -> int:
    return cjk + math.ceil((length - cjk) / 4)


def schema_overview(read: ReadApi) -> list[dict[str, Any]]:
    """The ``schema_overview`` block: one entry per ``getSchema().types``, in schema order, with
    exactly the worked example's keys (``id``, ``table_name``, ``table_columns``,
    ``required_columns``, ``force_update``, ``always_inject``, ``editable``, ``compression_mode``).
    """
    out = []
    for spec in read.get_schema().types:
        view = spec.to_view_json()
        out.append(
            {
                "id": view["type"],
                "table_name": view["tableName"],
                "table_columns": list(view["tableColumns"]),
                "required_columns": list(view["requiredColumns"]),
                "force_update": view["forceUpdate"],
                "always_inject": view["alwaysInject"],
                "editable": view["editable"],
                "compression_mode": view["compressionMode"],
            }
        )
    return out


def candidate_rows(read: ReadApi, *, visible_node_ids: Any = None) -> list[dict[str, Any]]:
    """The ``candidateRows`` block: the JSON of ``getNodeBrief(id, includeEdgeSummary=True,
    edgeSummaryLimit=8)`` (the ``memgraph call getNodeBrief`` shape) for each node of
    ``listVisibleCandidates()``, in that order. ``visible_node_ids`` is getNodeBrief's option:
    None (the worked example) means the recorded ``visibleIds``. One store read; fresh dicts the
    caller may change. Raises ``BAD_ARGS`` for a malformed ``visible_node_ids``."""
    explicit = None if visible_node_ids is None else args.id_set(visible_node_ids, "visibleNodeIds")
    with read._store.reading() as graph:  # the Read API's own store: one read
        return pool_rows(graph, explicit)


@dataclass(frozen=True)
class RouteInput:
    """What the route model is given for one message.

    ``schema_overview`` / ``candidate_rows``: the two blocks (see the functions of those names);
    ``always_inject_ids``: the injection state's ``alwaysInjectIds`` in its JSON order
    (``localeCompare``); ``message``: the recall query context; ``text``: all of it as the model
    reads it (``route_text``); ``tokens``: ``estimate_tokens(text)``. ``rows``: the candidate
    rows as kept for the store version (shared: never change them); ``candidate_rows`` are
    copies of them, made on first use.
    """

    schema_overview: tuple[dict[str, Any], ...]
    rows: tuple[dict[str, Any], ...] = field(repr=False)
    always_inject_ids: tuple[str, ...]
    message: str
    text: str
    tokens: int

    @cached_property
    def candidate_rows(self) -> tuple[dict[str, Any], ...]:
        """The ``candidateRows`` block as fresh dicts the caller may change (copied once, on
        first use: the text needs no copies)."""
        return tuple(copy_row(row) for row in self.rows)

    @property
    def candidate_ids(self) -> tuple[str, ...]:
        """The candidate rows' ids, in row order (what the route model may pick from)."""
        return tuple(row["id"] for row in self.rows)


def _json_lines(items: Sequence[Any]) -> str:
    """A JSON array with one compact element per line (valid JSON, easy to read and diff)."""
    return _lines([compact_json(item) for item in items])


def _lines(texts: Sequence[str]) -> str:
    return "[\n" + ",\n".join(texts) + "\n]" if texts else "[]"


def route_text(
    schema: Sequence[dict[str, Any]],
    rows: Sequence[dict[str, Any]],
    always_inject_ids: Sequence[str],
    message: str,
) -> str:
    """The blocks as the route model reads them, four sections separated by a blank line::

        schema_overview:
        [ one compact JSON object per line ]

        always_inject_node_ids:
        ["id", ...]                      (one compact JSON array)

        candidateRows:
        [ one compact JSON object (a getNodeBrief row) per line ]

        recall_query_context:
        the message, as given

    Each JSON section parses as it stands (``json.loads`` of the lines after the header).
    """
    return _joined(_json_lines(schema), always_inject_ids, _json_lines(rows), message)


def _joined(schema: str, always_inject_ids: Sequence[str], rows: str, message: str) -> str:
    return "\n\n".join(
        (
            f"{SCHEMA_HEADER}\n{schema}",
            f"{ALWAYS_HEADER}\n{compact_json(list(always_inject_ids))}",
            f"{ROWS_HEADER}\n{rows}",
            f"{QUERY_HEADER}\n{message}",
        )
    )


def build_route_input(read: ReadApi, message: str) -> RouteInput:
    """The route model's input for ``message`` over the store as it is now (one consistent read
    for the rows and the always-inject ids). The rows and their text are kept until the store
    next changes, so asking again for another message costs little. Raises ``BAD_ARGS`` when
    ``message`` is no string."""
    query = args.text(message, "message")
    schema = schema_overview(read)
    with read._store.reading() as graph:  # one read: rows, injection state
        block = pool_block(graph, None)
        always = tuple(sort_locale(graph.injection.always_inject_ids))
    schema_text = _json_lines(schema)
    text = _joined(schema_text, always, _lines(block.texts), query)
    # the rows' CJK characters are counted once per row text and kept; the rest counted here
    cjk = block.cjk + cjk_count(_joined(schema_text, always, "", query))
    return RouteInput(
        schema_overview=tuple(schema),
        rows=block.rows,
        always_inject_ids=always,
        message=query,
        text=text,
        tokens=_tokens(len(text), cjk),
    )

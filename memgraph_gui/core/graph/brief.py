"""``formatNodeBrief``: the projection of a node the recall LLM reads (``getNodeBrief``)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from memgraph_gui.core.domain.freeze import thaw
from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.domain.schema import TypeSpec
from memgraph_gui.core.domain.text import js_number
from memgraph_gui.core.graph.topology import normalize_text

_SEQ_COLUMNS = frozenset({"last_update_seq", "last_update_turn", "seq_to", "turn_to", "seq"})
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")


def display_scalar(value: Any) -> str:
    """Luker's ``toDisplayScalar``: one line of text for any field value."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        parts = [
            normalize_text(v) if isinstance(v, str) else normalize_text(_json(v)) for v in value
        ]
        return ", ".join(p for p in parts if p)
    if isinstance(value, Mapping):
        return normalize_text(_json(value))
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    return normalize_text(str(value))


def _json(value: Any) -> str:
    return json.dumps(thaw(value), ensure_ascii=False, separators=(",", ":"))


def node_summary(node: Node) -> str:
    """``fields.summary`` as one normalised line ('' when absent)."""
    value = node.fields.get("summary")
    return "" if value is None else normalize_text(display_scalar(value))


def _summary_object(node: Node) -> Mapping[str, Any]:
    """A JSON object embedded in the summary (fenced or bare), else empty."""
    text = node.fields.get("summary")
    if not isinstance(text, str) or "{" not in text:
        return {}
    for candidate in (_FENCE.sub("", text.strip()), text[text.find("{") : text.rfind("}") + 1]):
        try:
            parsed = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(parsed, dict):
            return parsed
    return {}


def _find_ci(value: Any, key: str, depth: int = 0) -> Any:
    """Case-insensitive key search through nested objects/arrays (depth ≤ 5)."""
    if depth > 5:
        return None
    if isinstance(value, Mapping):
        for k, v in value.items():
            if str(k).strip().lower() == key:
                return v
        items = list(value.values())
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        return None
    for item in items:
        found = _find_ci(item, key, depth + 1)
        if found is not None:
            return found
    return None


def cell(node: Node, column: str) -> str:
    """Luker's ``getTableCellValueFromNode``: a column's display value for ``node``."""
    key = column.strip().lower()
    if key in ("title", "name"):
        return node.title or display_scalar(node.fields.get("name"))
    if key == "type":
        return node.type
    if key == "summary":
        return node_summary(node)
    if key in ("seq_range", "turn_range") or key in _SEQ_COLUMNS:
        return str(node.seq_to)
    structured: dict[str, Any] = dict(node.fields)
    nested = node.fields.get("fields")
    if isinstance(nested, Mapping):
        structured.update(nested)
    parsed = _summary_object(node)
    structured.update(parsed)
    if key in structured:
        return display_scalar(structured[key])
    deep = _find_ci(node.fields, key)
    if deep is None:
        deep = _find_ci(parsed, key)
    return display_scalar(deep) if deep is not None else ""


def project_columns(node: Node, columns: list[str]) -> Mapping[str, str]:
    """``{column: display value}`` for the non-empty columns, in order."""
    out: dict[str, str] = {}
    for raw in columns:
        column = raw.strip()
        if column and column not in out:
            value = cell(node, column)
            if value:
                out[column] = value
    return MappingProxyType(out)


def key_columns(spec: TypeSpec | None) -> list[str]:
    """Primary-key columns then required columns, without repeats."""
    if spec is None:
        return []
    return list(dict.fromkeys([*spec.primary_key, *spec.required]))

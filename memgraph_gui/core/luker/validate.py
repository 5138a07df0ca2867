"""Write-side validation: field values, sizes and required columns, with errors naming the place."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.schema import TypeSpec
from memgraph_gui.core.graph.brief import display_scalar
from memgraph_gui.core.luker.args import MAX_SAFE_INTEGER

MAX_TITLE = 1_000
MAX_TEXT = 100_000
MAX_FIELDS_CHARS = 1_000_000
MAX_RELATION = 100
MAX_DEPTH = 6


def violation(message: str) -> MemgraphError:
    return MemgraphError("SCHEMA_VIOLATION", message)


def too_large(message: str) -> MemgraphError:
    return MemgraphError("TOO_LARGE", message)


def check_title(title: str, where: str) -> None:
    if len(title) > MAX_TITLE:
        raise too_large(f"{where}: title is {len(title):,} characters (at most {MAX_TITLE:,})")


def check_fields(fields: Any, where: str) -> dict[str, Any]:
    """A plain copy of ``fields`` after checking every value is JSON data of sane size."""
    if fields is None:
        return {}
    if not isinstance(fields, Mapping):
        raise violation(f"{where}: fields must be an object, got {type(fields).__name__}")
    total = 0
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if not isinstance(key, str) or not key.strip():
            raise violation(f"{where}: field names must be non-empty strings")
        total += _check_value(value, f"{where}.fields.{key}", 0)
        out[key] = value
    if total > MAX_FIELDS_CHARS:
        raise too_large(f"{where}: fields hold {total:,} characters (at most {MAX_FIELDS_CHARS:,})")
    return out


def _check_value(value: Any, path: str, depth: int) -> int:
    """Size in characters of a valid value; raises for anything that is not JSON data."""
    if depth > MAX_DEPTH:
        raise violation(f"{path}: nested deeper than {MAX_DEPTH} levels")
    if value is None or isinstance(value, bool):
        return 4
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            raise violation(f"{path}: numbers must be finite")
        if isinstance(value, int) and abs(value) > MAX_SAFE_INTEGER:
            raise violation(f"{path}: integers must be within ±{MAX_SAFE_INTEGER:,}")
        return 8
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise too_large(f"{path}: {len(value):,} characters (at most {MAX_TEXT:,})")
        return len(value)
    if isinstance(value, (list, tuple)):
        return sum(_check_value(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value))
    if isinstance(value, Mapping):
        return sum(_check_value(v, f"{path}.{k}", depth + 1) for k, v in value.items())
    raise violation(
        f"{path}: expected a string, number, boolean, array or object, got {type(value).__name__}"
    )


def missing_required(
    spec: TypeSpec, title: str, fields: Mapping[str, Any], columns: list[str] | None = None
) -> list[str]:
    """Required columns (of ``columns``, default all) that would be empty."""
    out = []
    for column in spec.required:
        if columns is not None and column not in columns:
            continue
        value = (
            title
            if column.lower() in ("title", "name") and not fields.get(column)
            else fields.get(column)
        )
        if not display_scalar(value).strip():
            out.append(column)
    return out

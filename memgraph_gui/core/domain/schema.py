"""The node-type schema: Luker's type list, normalised, with the seed's ``SchemaSpecView``."""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memgraph_gui.core.domain.errors import ImportFormatError
from memgraph_gui.core.domain.freeze import thaw

SCHEMA_FILE_TYPE = "luker-memory-graph-schema"
COMPRESSION_MODES = ("none", "hierarchical", "flat")
MAX_SCHEMA_TEXT = 100_000  # characters of one label, hint or instruction
_ID_CHARS = re.compile(r"[^a-z0-9_-]")


@dataclass(frozen=True, slots=True)
class TypeSpec:
    """One normalised node type; ``raw`` is its full Luker dict (treat as read-only)."""

    raw: Mapping[str, Any]

    @property
    def id(self) -> str:
        return str(self.raw["id"])

    @property
    def table_name(self) -> str:
        return str(self.raw["tableName"])

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(self.raw["tableColumns"])

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(self.raw["requiredColumns"])

    @property
    def primary_key(self) -> tuple[str, ...]:
        return tuple(self.raw["primaryKeyColumns"])

    @property
    def keywords(self) -> tuple[str, ...]:
        return tuple(self.raw["keywords"])

    @property
    def compression(self) -> Mapping[str, Any]:
        return self.raw["compression"]  # type: ignore[no-any-return]

    @property
    def hierarchical(self) -> bool:
        return self.compression.get("mode") == "hierarchical"

    @property
    def always_inject(self) -> bool:
        """Luker: the type's ``alwaysInject`` flag, or any type kept in ``event_table``."""
        return bool(self.raw["alwaysInject"]) or self.table_name == "event_table"

    @property
    def editable(self) -> bool:
        return bool(self.raw["editable"])

    def to_view_json(self) -> dict[str, Any]:
        """The seed's ``SchemaSpecView`` JSON."""
        force = self.raw.get("forceUpdate")
        return {
            "type": self.id,
            "tableName": self.table_name,
            "tableColumns": list(self.columns),
            "requiredColumns": list(self.required),
            "primaryKeyColumns": list(self.primary_key),
            "forceUpdate": True if isinstance(force, Mapping) else bool(force),
            "alwaysInject": bool(self.raw["alwaysInject"]),
            "editable": self.editable,
            "compressionMode": str(self.compression.get("mode", "none")),
        }


@dataclass(frozen=True)
class Schema:
    """An ordered list of node types."""

    types: tuple[TypeSpec, ...]
    by_id: dict[str, TypeSpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {spec.id: spec for spec in self.types})

    @staticmethod
    def from_json(items: Sequence[Mapping[str, Any]]) -> Schema:
        """Wrap an already-normalised type list (as stored)."""
        return Schema(tuple(TypeSpec(item) for item in items))

    def get(self, type_id: str) -> TypeSpec | None:
        """The type with this id (ids are lower-case), or None."""
        return self.by_id.get(type_id)

    def to_json(self) -> list[dict[str, Any]]:
        """The full Luker type list (a deep copy)."""
        return [thaw(spec.raw) for spec in self.types]

    def to_view_json(self) -> dict[str, Any]:
        """The seed's ``SchemaView``: ``{types: [SchemaSpecView, ...]}``."""
        return {"types": [spec.to_view_json() for spec in self.types]}


def normalize_schema(doc: Any) -> list[dict[str, Any]]:
    """Validate a Luker schema export (or a bare array) and return the normalised type list.

    Missing keys get Luker's defaults (``normalizeNodeTypeSchema``); values of the wrong type raise
    ``ImportFormatError`` naming the offending path. An empty list gives the default schema.
    """
    path = ""
    items = doc
    if isinstance(doc, Mapping):
        if doc.get("type") not in (None, SCHEMA_FILE_TYPE):
            raise ImportFormatError(
                "type", f"expected {SCHEMA_FILE_TYPE!r}, got {doc.get('type')!r}"
            )
        items, path = doc.get("schema"), "schema"
    if not isinstance(items, list):
        raise ImportFormatError(path, "expected an array of node types")
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        spec = normalize_type(item, index, f"{path}[{index}]" if path else f"[{index}]")
        base, suffix = spec["id"], 2
        while spec["id"] in seen:
            spec["id"], suffix = f"{base}_{suffix}", suffix + 1
        seen.add(spec["id"])
        out.append(spec)
    if not out:
        from memgraph_gui.core.domain.default_schema import default_schema

        return default_schema()
    return out


def normalize_type(item: Any, index: int, path: str) -> dict[str, Any]:
    """Normalise one node type the way Luker does, keeping unknown keys."""
    if not isinstance(item, Mapping):
        raise ImportFormatError(path, "expected an object")
    raw_id = item.get("id")
    if raw_id is not None and not isinstance(raw_id, str):
        raise ImportFormatError(f"{path}.id", "expected a string")
    type_id = _ID_CHARS.sub("_", (raw_id or "").strip().lower()) or f"custom_{index + 1}"
    spec = copy.deepcopy(dict(item))
    spec["id"] = type_id
    spec["label"] = _text(item, "label", path, (raw_id or "").strip() or f"Type {index + 1}")
    spec["tableName"] = _text(
        item, "tableName", path, (raw_id or "").strip() or f"table_{index + 1}"
    )
    spec.update(_columns(item, type_id, path))
    spec["keywords"] = _string_list(item.get("keywords"), f"{path}.keywords")
    spec["columnHints"] = _string_map(item.get("columnHints"), f"{path}.columnHints")
    spec["forceUpdate"] = _force_update(item.get("forceUpdate", type_id == "event"), path)
    spec["editable"] = _flag(item, "editable", path, type_id != "event")
    for key in ("alwaysInject", "latestOnly", "recordsFloorRange"):
        spec[key] = _flag(item, key, path, False)
    spec["level"] = _text(item, "level", path, "semantic")
    spec["extractHint"] = _text(item, "extractHint", path, "")
    spec["extractionInstructions"] = _text(item, "extractionInstructions", path, "")
    spec["extractEveryN"] = max(1, _whole(item.get("extractEveryN"), f"{path}.extractEveryN", 1))
    spec["ragPerTypeK"] = max(0, _whole(item.get("ragPerTypeK"), f"{path}.ragPerTypeK", 0))
    spec["compression"] = _compression(item.get("compression"), f"{path}.compression")
    return spec


def _columns(item: Mapping[str, Any], type_id: str, path: str) -> dict[str, list[str]]:
    """A type's column lists (table, required, primary key, embedding), as Luker defaults them."""
    columns = _string_list(item.get("tableColumns", ["title"]), f"{path}.tableColumns")
    default_required = ["summary"] if type_id == "event" else []
    keys = _string_list(item.get("primaryKeyColumns"), f"{path}.primaryKeyColumns")
    embedding = item.get("embeddingColumns")
    return {
        "tableColumns": columns,
        "requiredColumns": _string_list(
            item.get("requiredColumns", default_required), f"{path}.requiredColumns"
        ),
        "primaryKeyColumns": [c for c in keys if c in columns],
        "embeddingColumns": list(columns)
        if embedding is None
        else [c for c in _string_list(embedding, f"{path}.embeddingColumns") if c in columns],
    }


def _text(item: Mapping[str, Any], key: str, path: str, default: str) -> str:
    value = item.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise ImportFormatError(f"{path}.{key}", "expected a string")
    if len(value) > MAX_SCHEMA_TEXT:
        raise ImportFormatError(
            f"{path}.{key}", f"is {len(value):,} characters long (at most {MAX_SCHEMA_TEXT:,})"
        )
    return value.strip() or default


def _flag(item: Mapping[str, Any], key: str, path: str, default: bool) -> bool:
    value = item.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ImportFormatError(f"{path}.{key}", "expected true or false")
    return value


def _whole(value: Any, path: str, default: int) -> int:
    """A number floored to an int; None/0 fall back to ``default`` like JS ``x || default``."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ImportFormatError(path, "expected a finite number")
    if abs(value) > 2**53 - 1:
        raise ImportFormatError(path, "out of range (at most 9,007,199,254,740,991)")
    return int(value) if value else default


def _string_list(value: Any, path: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ImportFormatError(path, "expected an array of strings")
    out: list[str] = []
    for index, entry in enumerate(value):
        if not isinstance(entry, str):
            raise ImportFormatError(f"{path}[{index}]", "expected a string")
        text = entry.strip()
        if text and text not in out:
            out.append(text)
    return out


def _string_map(value: Any, path: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ImportFormatError(path, "expected an object of strings")
    out: dict[str, str] = {}
    for key, entry in value.items():
        if not isinstance(entry, str):
            raise ImportFormatError(f"{path}.{key}", "expected a string")
        if str(key).strip() and entry.strip():
            out[str(key).strip()] = entry.strip()
    return out


def _force_update(value: Any, path: str) -> bool | dict[str, bool]:
    """A boolean, or Luker Studio's per-column ``{col: bool}`` map (kept as given)."""
    if isinstance(value, bool):
        return value
    if not isinstance(value, Mapping):
        raise ImportFormatError(f"{path}.forceUpdate", "expected true/false or an object")
    out: dict[str, bool] = {}
    for key, entry in value.items():
        if not isinstance(entry, bool):
            raise ImportFormatError(f"{path}.forceUpdate.{key}", "expected true or false")
        out[str(key)] = entry
    return out


def _compression(value: Any, path: str) -> dict[str, Any]:
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise ImportFormatError(path, "expected an object")
    out = copy.deepcopy(dict(value))
    mode = value.get("mode", "none")
    if mode is None:
        mode = "none"
    if mode not in COMPRESSION_MODES:
        raise ImportFormatError(f"{path}.mode", f"expected one of {', '.join(COMPRESSION_MODES)}")
    out["mode"] = mode
    out["threshold"] = max(2, _whole(value.get("threshold"), f"{path}.threshold", 6))
    out["fanIn"] = max(2, _whole(value.get("fanIn"), f"{path}.fanIn", 3))
    out["maxDepth"] = max(1, _whole(value.get("maxDepth"), f"{path}.maxDepth", 6))
    keep = value.get("keepRecentLeaves")
    out["keepRecentLeaves"] = max(0, _whole(keep, f"{path}.keepRecentLeaves", 0))
    out["rule"] = _text(value, "rule", path, "")
    out["summarizeInstruction"] = _text(value, "summarizeInstruction", path, "")
    return out

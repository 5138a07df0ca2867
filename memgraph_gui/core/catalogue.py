"""The tool catalogue: every method ``memgraph call`` knows, as a named tool with an input schema.

A tool takes one JSON object of named arguments; ``Tool.call_args`` turns it into the JSON array of
positional arguments ``jsonapi.call`` takes, so a tool answers exactly what ``memgraph call`` does.
The argument names and places are read from the call's own tables and signatures, never listed
here: a method's positional arguments (``jsonapi.READ`` / ``WRITE`` shapes, the external
functions', Nuggets' and Membrane's parameters) by their parameter names, and the options object
flattened into one argument per keyword-only parameter of the Python method, named as
``jsonapi`` maps option keys (``activeOnly``, ``from``). What this module adds is each argument's
JSON type (``_TYPES``, by name; ``tests/core/test_catalogue.py`` checks that the call's own checks
refuse a value of any other type), and the seed's words for each tool (``seed_docs``).

A null argument is the same as a missing one (a JSON caller's "left out"). Pure; any thread.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from memgraph_gui.core import jsonapi, seed_docs
from memgraph_gui.core.domain.errors import bad_args
from memgraph_gui.core.luker.read_api import ReadApi
from memgraph_gui.core.luker.write_api import WriteApi
from memgraph_gui.core.membrane.api import MembraneApi
from memgraph_gui.core.nuggets.api import NuggetsApi

_STR: dict[str, Any] = {"type": "string"}
_STRS: dict[str, Any] = {"type": "array", "items": _STR}
_INT: dict[str, Any] = {"type": "integer"}
_NUM: dict[str, Any] = {"type": "number"}
_BOOL: dict[str, Any] = {"type": "boolean"}
_OBJ: dict[str, Any] = {"type": "object"}
_OBJS: dict[str, Any] = {"type": "array", "items": _OBJ}
_RANGE: dict[str, Any] = {"type": "object", "properties": {"from": _NUM, "to": _NUM}}
_WHOLE: dict[str, Any] = {"type": "number"}  # Luker's counts: any number, floored
_LUKER_ID: dict[str, Any] = {"type": ["string", "number"]}  # Luker reads a number as its string
_TYPES: dict[str, dict[str, Any]] = {
    # Luker's Read and Write APIs
    "id": _LUKER_ID,
    "seedIds": _STRS,
    "query": _STR,
    "state": _OBJ,
    "pins": _OBJ,
    "types": _STRS,
    "levels": _STRS,
    "activeOnly": _BOOL,
    "seqRange": _RANGE,
    "seqWindow": _RANGE,
    "from": _LUKER_ID,
    "to": _LUKER_ID,
    "excludeInternal": _BOOL,
    "edgeTypes": _STRS,
    "direction": {"type": "string", "enum": ["in", "out", "both"]},
    "projectTo": {"anyOf": [{"type": "string", "enum": ["raw", "visible"]}, _STRS]},
    "predicate": _OBJ,
    "maxDepth": _WHOLE,
    "visibleNodeIds": _STRS,
    "excludeRecentMessages": _WHOLE,
    "limit": _WHOLE,
    "includeEdgeSummary": _BOOL,
    "edgeSummaryLimit": _WHOLE,
    "hops": _WHOLE,
    "includeChildren": _BOOL,
    "k": _WHOLE,
    "type": _STR,
    "depth": _WHOLE,
    "ops": _OBJS,
    "maxSeq": _INT,
    "label": _STR,
    "title": _STR,
    "fields": _OBJ,
    "links": _OBJS,
    "ref": _STR,
    "setFields": _OBJ,
    "clearFields": _STRS,
    "expected": _OBJ,
    "keepSeq": _BOOL,
    "replacementId": _STR,
    "source": {"type": "object", "properties": {"id": _STR, "ref": _STR}},
    "target": {"type": "object", "properties": {"id": _STR}},
    "relation": _STR,
    "childIds": _STRS,
    "summary": _STR,
    # the external API
    "options": _OBJ,
    # Nuggets
    "nugget": _STR,
    "key": _STR,
    "value": _STR,
    "meta": _OBJ,
    "content": _STR,
    "tags": _STRS,
    "updates": _OBJ,
    "partial": _OBJ,
    "hard": _BOOL,
    "a": _STR,
    "b": _STR,
    "reason": _STR,
    "session": _STR,
    "filter": _OBJ,
    # Membrane
    "task_descriptor": _STR,
    "trust": {
        "type": "object",
        "properties": {
            "max_sensitivity": {
                "type": "string",
                "enum": ["public", "low", "medium", "high", "hyper"],
            },
            "authenticated": _BOOL,
            "actor_id": _STR,
            "scopes": _STRS,
        },
        "required": ["max_sensitivity"],
    },
    "memory_types": _STRS,
    "min_salience": _NUM,
    "root_limit": _INT,
    "node_limit": _INT,
    "edge_limit": _INT,
    "max_hops": _INT,
}
# where one name means another type in one method: (tool, argument) -> type
_TYPE_IN: dict[tuple[str, str], dict[str, Any]] = {
    ("deleteLinks", "direction"): {
        "type": "string",
        "enum": ["outgoing", "incoming", "bidirectional"],
    },
    ("searchNotes", "limit"): _INT,
    ("mergeNotes", "target"): _STR,
    ("mergeNotes", "source"): _STR,
}
_POSITIONAL_NAMES = {"node_id": "id", "seed_ids": "seedIds"}
_WRITING_NUGGETS = frozenset(jsonapi.NUGGETS) - {"getNote", "listNotes", "searchNotes"}
WRITES = frozenset([*jsonapi.WRITE, *_WRITING_NUGGETS, "undo", "redo"])
"""The methods that write (the others never change the store)."""


@dataclass(frozen=True, slots=True)
class Argument:
    """One named argument of a tool: its place in the call (``slot``: the index in the
    positional array; ``option``: the key inside the options object there, or None when the
    argument is the positional value itself) and its JSON type."""

    name: str
    slot: int
    option: str | None
    schema: Mapping[str, Any]
    required: bool = False


@dataclass(frozen=True, slots=True)
class Tool:
    """One method as a tool: ``name`` is the seed's (``listNodes``), ``writes`` says whether it
    may change the store."""

    name: str
    title: str
    description: str
    writes: bool
    arguments: tuple[Argument, ...]

    def input_schema(self) -> dict[str, Any]:
        """The JSON Schema of the arguments object (unknown names are refused)."""
        notes = seed_docs.PARAMS.get(self.name, {})
        properties = {
            a.name: {**a.schema, **({"description": notes[a.name]} if a.name in notes else {})}
            for a in self.arguments
        }
        schema: dict[str, Any] = {
            "type": "object",
            "properties": properties,
            "additionalProperties": False,
        }
        required = [a.name for a in self.arguments if a.required]
        if required:
            schema["required"] = required
        return schema

    def call_args(self, given: Mapping[str, Any] | None) -> list[Any]:
        """``given`` (the tool's arguments object) as ``jsonapi.call``'s argument array.

        Nulls count as missing; trailing missing arguments are left out, a missing one before
        a given one is null (the call's "left out"). Raises ``BAD_ARGS`` for a name the tool
        does not take, listing those it does.
        """
        given = {} if given is None else given
        known = {a.name: a for a in self.arguments}
        unknown = [name for name in given if name not in known]
        if unknown:
            accepted = ", ".join(a.name for a in self.arguments) or "no arguments"
            raise bad_args(
                f"{self.name}: unknown argument {jsonapi.shown(unknown[0])} (accepted: {accepted})"
            )
        slots: dict[int, Any] = {}
        for name, value in given.items():
            if value is None:
                continue
            argument = known[name]
            if argument.option is None:
                slots[argument.slot] = value
            else:
                slots.setdefault(argument.slot, {})[argument.option] = value
        width = max(slots, default=-1) + 1
        return [slots.get(index) for index in range(width)]


@cache
def tools() -> dict[str, Tool]:
    """Every method of ``jsonapi.METHODS`` as a ``Tool``, by name, in that (sorted) order."""
    return {name: _tool(name) for name in jsonapi.METHODS}


def _tool(name: str) -> Tool:
    return Tool(
        name=name,
        title=seed_docs.TITLES[name],
        description=seed_docs.TOOLS[name],
        writes=name in WRITES,
        arguments=tuple(_arguments(name)),
    )


def _arguments(name: str) -> Iterable[Argument]:
    """The named arguments of method ``name``, in the order of its positional array."""
    if name in jsonapi.READ or name in jsonapi.WRITE:
        target, shape = jsonapi.READ.get(name) or jsonapi.WRITE[name]
        cls: type = ReadApi if name in jsonapi.READ else WriteApi
        fn = getattr(cls, target)
        positional = iter(_positional(fn, skip=1))
        for slot, kind in enumerate(shape):
            if kind == "opts":
                for option in jsonapi.accepted_options(fn):
                    yield _argument(name, option, slot, option)
            else:
                yield _argument(name, next(positional), slot)
    elif name in jsonapi.EXTERNAL:
        for slot, param in enumerate(_positional(jsonapi.EXTERNAL[name], skip=1)):
            yield _argument(name, param, slot)
    elif name in jsonapi.NUGGETS:
        target, required, _most = jsonapi.NUGGETS[name]
        yield _argument(name, "nugget", 0, required=True)
        params = _positional(getattr(NuggetsApi, target), skip=1)
        for slot, param in enumerate(params, start=1):  # the call refuses too few of them
            yield _argument(name, param, slot, required=slot <= required)
    elif name in jsonapi.MEMBRANE:
        target, _most = jsonapi.MEMBRANE[name]
        for slot, param in enumerate(_positional(getattr(MembraneApi, target), skip=1)):
            yield _argument(name, param, slot)


def _argument(
    tool: str, name: str, slot: int, option: str | None = None, *, required: bool = False
) -> Argument:
    luker = tool in jsonapi.READ or tool in jsonapi.WRITE or tool in jsonapi.EXTERNAL
    schema = _TYPE_IN.get((tool, name)) or (_STR if name == "id" and not luker else None)
    schema = schema or _TYPES.get(name, {})
    return Argument(name, slot, option, schema, required)


def _positional(fn: Callable[..., Any], *, skip: int) -> list[str]:
    """``fn``'s positional parameters after the first ``skip`` (self, or the store), named as
    the seeds name them (``node_id`` -> ``id``)."""
    params = list(inspect.signature(fn).parameters.values())[skip:]
    return [
        _POSITIONAL_NAMES.get(p.name, p.name)
        for p in params
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]

"""Every node's Membrane attributes: sensitivity, salience, memory type, scope and tags.

A Membrane record carries its own (its record JSON). A Luker node or a Nuggets note gets them
from the default mapping below, unless a person set some of them (the store's meta
``OVERRIDES``: ``{node id: {attribute: value}}``, written like any meta value: undoable, seen by
other processes). The mapping (also in the README):

| node | memory type | sensitivity | salience | scope | tags |
|---|---|---|---|---|---|
| Luker ``event`` | episodic | low | 0.5 | none | none |
| Luker ``character_sheet``, ``location_state`` | entity | low | 0.5 | none | none |
| Luker ``thread`` | working | low | 0.5 | none | none |
| Luker rollup (any type) | semantic | low | 0.6 + 0.1 × depth, at most 1 | none | none |
| other Luker types | semantic | low | 0.5 | none | none |
| Nuggets fact; note of another type | semantic | by its scope | confidence | nugget | its tags |
| Nuggets note of type note, reflection | episodic | by its scope | confidence | nugget | its tags |

(``nugget``: the nugget's name; ``confidence``: the note's.) A Nuggets note's sensitivity
follows its metadata scope: ``user`` and ``self`` (what the agent
knows about its user, or about itself) are ``medium``; ``shared``, ``project`` and ``session`` are
``low``. An archived Luker node's salience is 0.1 (it is kept, not recalled). Pure; any thread.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memgraph_gui.core.domain.model import Node
from memgraph_gui.core.membrane.model import (
    MEMORY_TYPES,
    SENSITIVITIES,
    is_record,
)

OVERRIDES = "membraneAttributes"
"""The meta key of the attributes people set on Luker nodes and Nuggets notes."""
NAMES = ("sensitivity", "salience", "memory_type", "scope", "tags")
"""The attributes, in the order the inspector shows them."""
NOTE_LEVEL = "nugget"  # Nuggets' note level (core.nuggets.model.NOTE_LEVEL; not imported: a lens
# never imports another)
_ENTITY_TYPES = frozenset({"character_sheet", "location_state"})
_EPISODIC_NOTE_TYPES = frozenset({"note", "reflection"})
_PERSONAL_SCOPES = frozenset({"user", "self"})


@dataclass(frozen=True, slots=True)
class Attributes:
    """A node's Membrane attributes; ``source`` says where they come from: ``record`` (a
    Membrane record's own), ``default`` (the mapping) or ``set`` (some set by a person)."""

    sensitivity: str
    salience: float
    memory_type: str
    scope: str
    tags: tuple[str, ...]
    source: str = "default"

    def to_json(self) -> dict[str, Any]:
        """Membrane's JSON names: ``{sensitivity, salience, type, scope, tags}``."""
        return {
            "sensitivity": self.sensitivity,
            "salience": self.salience,
            "type": self.memory_type,
            "scope": self.scope,
            "tags": list(self.tags),
        }


def attributes_of(node: Node, overrides: Mapping[str, Any] | None = None) -> Attributes:
    """``node``'s attributes: a record's own, else the default mapping with what ``overrides``
    (the meta ``OVERRIDES`` value) sets for it. Values of the wrong kind in a record or an
    override fall back to the default (the importer and the write path refuse them)."""
    if is_record(node):
        return _of_record(node)
    base = default_attributes(node)
    given = (overrides or {}).get(node.id)
    if not isinstance(given, Mapping) or not given:
        return base
    return Attributes(
        sensitivity=_choice(given.get("sensitivity"), SENSITIVITIES, base.sensitivity),
        salience=_number(given.get("salience"), base.salience),
        memory_type=_choice(given.get("memory_type"), MEMORY_TYPES, base.memory_type),
        scope=given["scope"] if isinstance(given.get("scope"), str) else base.scope,
        tags=_tags(given["tags"]) if "tags" in given else base.tags,
        source="set",
    )


def default_attributes(node: Node) -> Attributes:
    """The default mapping (see the module docstring) for a Luker node or a Nuggets note."""
    if node.level == NOTE_LEVEL:
        fields = node.fields
        kind, note_type = fields.get("kind"), fields.get("type")
        episodic = kind != "fact" and note_type in _EPISODIC_NOTE_TYPES
        personal = fields.get("scope") in _PERSONAL_SCOPES
        name = fields.get("nuggetName")
        return Attributes(
            sensitivity="medium" if personal else "low",
            salience=_number(fields.get("confidence"), 0.7),
            memory_type="episodic" if episodic else "semantic",
            scope=name if isinstance(name, str) else "",
            tags=_tags(fields.get("tags")),
        )
    if node.semantic_rollup:
        memory_type, salience = "semantic", min(1.0, 0.6 + 0.1 * node.semantic_depth)
    elif node.type == "event":
        memory_type, salience = "episodic", 0.5
    elif node.type in _ENTITY_TYPES:
        memory_type, salience = "entity", 0.5
    elif node.type == "thread":
        memory_type, salience = "working", 0.5
    else:
        memory_type, salience = "semantic", 0.5
    if node.archived:
        salience = 0.1
    return Attributes("low", salience, memory_type, "", ())


def _of_record(node: Node) -> Attributes:
    fields = node.fields
    return Attributes(
        sensitivity=_choice(fields.get("sensitivity"), SENSITIVITIES, "low"),
        salience=_number(fields.get("salience"), 0.0),
        memory_type=_choice(fields.get("type"), MEMORY_TYPES, node.type),
        scope=fields["scope"] if isinstance(fields.get("scope"), str) else "",
        tags=_tags(fields.get("tags")),
        source="record",
    )


def _choice(value: Any, allowed: tuple[str, ...], default: str) -> str:
    return value if isinstance(value, str) and value in allowed else default


def _number(value: Any, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value) if math.isfinite(value) else default


def _tags(value: Any) -> tuple[str, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(tag for tag in value if isinstance(tag, str))
    return ()

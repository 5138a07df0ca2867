"""The one write path of Membrane attributes: ``set_attributes`` and ``reset_attributes``.

``changes`` maps any of ``attributes.NAMES`` (sensitivity, salience, memory_type, scope, tags)
to a new value: a sensitivity of ``SENSITIVITIES``, a memory type of ``MEMORY_TYPES``, a salience
that is a finite number in [0, 1], a scope that is a string (``""``: unscoped), tags that are a
list of strings. Anything else is ``INVALID_ARGUMENT`` naming the place (``changes.salience``),
before anything is read.

- A Membrane record (``model.is_record``) gets the values written into its record JSON
  (``memory_type`` is the record's ``type`` and the node's ``type``; an empty scope or tag list
  drops the key, as Membrane's ``omitempty`` does), its ``updated_at`` set to now (RFC 3339,
  UTC) and one ``audit_log`` entry appended: ``{"action": "revise", "actor": origin or
  "memgraph", "timestamp": now, "rationale": what changed}``.
- A Luker node or a Nuggets note gets them in the meta ``OVERRIDES`` (``{node id: {attribute:
  value}}``): a value equal to the default mapping removes its key, an entry left empty is
  removed (and the meta key with the last entry). ``reset_attributes`` removes a node's
  overrides (all, or the named ones): back to the default mapping.

Each call is one store transaction, one ChangeSet and one undo step, labelled like "Set
sensitivity of 'Eileen' to high". A call that would change nothing writes nothing (no step) and
answers ``changed: false``. An unknown id is ``NODE_NOT_FOUND`` (as the Write API's edits; the
id may name any node, not only a record).

``expect`` (optional, ``{attribute: value}``) is what the person started from. It is compared
inside the write's transaction, after every other process's commit: an attribute whose value now
differs from the expected one and from the one proposed (a change to the very value proposed is
agreement) refuses the call with ``EDIT_CONFLICT``, details shaped as the Write API's
(``nodeId``, ``expected`` / ``current`` / ``proposed`` as ``{fields: {attribute: value}}``), and
nothing is written. Thread-safe (the store serialises writes); runs on the caller's thread.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from memgraph_gui.core.domain.changes import OpKind
from memgraph_gui.core.domain.errors import MemgraphError
from memgraph_gui.core.domain.freeze import freeze, thaw
from memgraph_gui.core.domain.model import Node, evolve
from memgraph_gui.core.domain.results import WriteResult
from memgraph_gui.core.membrane import trust
from memgraph_gui.core.membrane.attributes import (
    NAMES,
    OVERRIDES,
    Attributes,
    attributes_of,
    default_attributes,
)
from memgraph_gui.core.membrane.model import is_record, record_json

if TYPE_CHECKING:
    from memgraph_gui.core.graph.tx import Tx
    from memgraph_gui.core.storage.store import Store

ACTOR = "memgraph"
"""The audit log's actor when the writer has no origin."""
NODE_NOT_FOUND = "NODE_NOT_FOUND"
EDIT_CONFLICT = "EDIT_CONFLICT"
LABEL_CHARS = 40
SHOWN = {
    "sensitivity": "sensitivity",
    "salience": "salience",
    "memory_type": "memory type",
    "scope": "scope",
    "tags": "tags",
}
"""Each attribute's name in labels and messages."""
_RECORD_KEY = {"memory_type": "type"}  # the record JSON's name of an attribute (else its own)
_OMIT_EMPTY = ("scope", "tags")  # Membrane's omitempty keys


def check_changes(changes: Any, where: str = "changes") -> dict[str, Any]:
    """``changes`` as ``{attribute: value}`` in ``NAMES`` order, each value checked (tags as a
    list, salience as a float); ``INVALID_ARGUMENT`` naming the place otherwise."""
    if not isinstance(changes, Mapping):
        raise MemgraphError(trust.INVALID, f"{where} must be an object of attributes")
    unknown = [key for key in changes if key not in NAMES]
    if unknown:
        raise MemgraphError(
            trust.INVALID,
            f"{where}.{unknown[0]}: unknown attribute (one of {', '.join(NAMES)})",
        )
    if not changes:
        raise MemgraphError(trust.INVALID, f"{where} must name at least one attribute")
    return {
        name: check_value(name, changes[name], f"{where}.{name}")
        for name in NAMES
        if name in changes
    }


def check_value(name: str, value: Any, where: str) -> Any:
    """One attribute's new value, checked (see the module docstring)."""
    if name == "sensitivity":
        return trust.sensitivity(value, where)
    if name == "memory_type":
        return trust.memory_type(value, where)
    if name == "salience":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise MemgraphError(trust.INVALID, f"{where} must be a number from 0 to 1")
        if not math.isfinite(value) or not 0 <= value <= 1:
            raise MemgraphError(trust.INVALID, f"{where} must be from 0 to 1, not {value!r}")
        return float(value)
    if name == "scope":
        return _text(value, where)
    if not isinstance(value, (list, tuple)):
        raise MemgraphError(trust.INVALID, f"{where} must be an array of strings")
    return [_text(tag, f"{where}[{i}]") for i, tag in enumerate(value)]


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise MemgraphError(trust.INVALID, f"{where} must be a string")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise MemgraphError(trust.INVALID, f"{where}: a lone surrogate cannot be stored") from None
    return value


def _check_expect(expect: Any) -> dict[str, Any] | None:
    if expect is None:
        return None
    if not isinstance(expect, Mapping):
        raise MemgraphError(trust.INVALID, "expect must be an object of attributes")
    unknown = [key for key in expect if key not in NAMES]
    if unknown:
        raise MemgraphError(
            trust.INVALID, f"expect.{unknown[0]}: unknown attribute (one of {', '.join(NAMES)})"
        )
    return dict(expect)


def _node_id(node_id: Any) -> str:
    if not isinstance(node_id, str) or not node_id:
        raise MemgraphError(trust.INVALID, "node_id must be a non-empty string")
    return node_id


# -- the writes --------------------------------------------------------------------------------
def set_attributes(
    store: Store,
    node_id: Any,
    changes: Any,
    *,
    origin: str | None = None,
    expect: Any = None,
) -> WriteResult:
    """Set some of ``node_id``'s Membrane attributes (see the module docstring): one undo step.

    Returns ``{id, changed, attributes, source}`` (``attributes`` in ``NAMES``, as they hold
    after the call) with the ChangeSet. Raises ``INVALID_ARGUMENT``, ``NODE_NOT_FOUND``,
    ``EDIT_CONFLICT`` (nothing written), or the store's errors (``STORE_READ_ONLY`` ...)."""
    wanted = check_changes(changes)
    expected = _check_expect(expect)
    node_id = _node_id(node_id)
    return _write(store, node_id, wanted, None, origin, expected)


def reset_attributes(
    store: Store,
    node_id: Any,
    names: Any = None,
    *,
    origin: str | None = None,
    expect: Any = None,
) -> WriteResult:
    """Remove what a person set on a Luker node or a Nuggets note (all its overrides, or only
    the attributes ``names``): back to the default mapping, one undo step ("Reset … to the
    default"). A record has no default to go back to: ``INVALID_ARGUMENT``. Answers as
    ``set_attributes`` (``changed: false`` when nothing was set)."""
    chosen: tuple[str, ...] = NAMES
    if names is None:
        pass
    elif isinstance(names, (list, tuple)) and names and all(n in NAMES for n in names):
        chosen = tuple(n for n in NAMES if n in names)
    else:
        raise MemgraphError(
            trust.INVALID, f"names must be a non-empty list of attributes ({', '.join(NAMES)})"
        )
    expected = _check_expect(expect)
    node_id = _node_id(node_id)
    return _write(store, node_id, None, chosen, origin, expected)


def _write(
    store: Store,
    node_id: str,
    wanted: dict[str, Any] | None,
    reset: tuple[str, ...] | None,
    origin: str | None,
    expected: dict[str, Any] | None,
) -> WriteResult:
    label = _label(store, node_id, wanted, reset)
    with store.transaction(OpKind.EDIT_NODE, label, origin=origin) as tx:
        node = tx.node(node_id)
        if node is None:
            raise MemgraphError(NODE_NOT_FOUND, f"{node_id}: no such node", nodeId=node_id)
        overrides = _overrides(tx)
        now = attributes_of(node, overrides)
        if reset is not None:
            if is_record(node):
                raise MemgraphError(
                    trust.INVALID,
                    f"{node_id}: a Membrane record's attributes are its own; there is no "
                    "default mapping to reset to",
                    nodeId=node_id,
                )
            default = default_attributes(node)
            wanted = {name: value_of(default, name) for name in reset}
        assert wanted is not None
        if expected is not None:
            _check_conflict(node_id, now, expected, wanted)
        if is_record(node):
            changed = _write_record(tx, node, now, wanted, origin)
        else:
            changed = _write_override(tx, node, overrides, wanted, reset)
        after = attributes_of(tx.node(node_id) or node, _overrides(tx))
    payload = {
        "id": node_id,
        "changed": changed,
        "attributes": {name: value_of(after, name) for name in NAMES},
        "source": after.source,
    }
    return WriteResult(payload, tx.changeset if changed else None)


def value_of(attributes: Attributes, name: str) -> Any:
    """One attribute's value as JSON (tags a list)."""
    value = getattr(attributes, name)
    return list(value) if name == "tags" else value


def _same(name: str, a: Any, b: Any) -> bool:
    if name == "tags":
        return isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and list(a) == list(b)
    if name == "salience":
        return _number(a) is not None and _number(a) == _number(b)
    return bool(a == b) and type(a) is type(b)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _check_conflict(
    node_id: str, now: Attributes, expected: dict[str, Any], wanted: dict[str, Any]
) -> None:
    was: dict[str, Any] = {}
    current: dict[str, Any] = {}
    proposed: dict[str, Any] = {}
    parts: list[str] = []
    for name, value in expected.items():
        stored = value_of(now, name)
        if _same(name, stored, value):
            continue
        if name in wanted and _same(name, stored, wanted[name]):
            continue
        was[name], current[name] = thaw(value), stored
        if name in wanted:
            proposed[name] = wanted[name]
        parts.append(
            f"{SHOWN[name]} (you started from {_shown(name, value)}, now {_shown(name, stored)})"
        )
    if not parts:
        return
    raise MemgraphError(
        EDIT_CONFLICT,
        f"set attributes {node_id}: changed by another writer since you started editing: "
        + "; ".join(parts)
        + ". Nothing was written.",
        nodeId=node_id,
        expected={"fields": was},
        current={"fields": current},
        proposed={"fields": proposed} if proposed else {},
    )


def _write_record(
    tx: Tx, node: Node, now: Attributes, wanted: dict[str, Any], origin: str | None
) -> bool:
    """Write ``wanted`` into the record's JSON (with ``updated_at`` and an audit entry);
    False, staging nothing, when every value is already the record's."""
    moved = {k: v for k, v in wanted.items() if not _same(k, value_of(now, k), v)}
    if not moved:
        return False
    record = record_json(node)
    for name, value in moved.items():
        key = _RECORD_KEY.get(name, name)
        if name in _OMIT_EMPTY and not value:
            record.pop(key, None)
        else:
            record[key] = value
    stamp = rfc3339_now()
    record["updated_at"] = stamp
    log = record.get("audit_log")
    log = list(log) if isinstance(log, list) else []
    rationale = "; ".join(
        f"{SHOWN[k]} {_shown(k, value_of(now, k))} → {_shown(k, v)}" for k, v in moved.items()
    )
    log.append(
        {
            "action": "revise",
            "actor": origin or ACTOR,
            "timestamp": stamp,
            "rationale": f"Set in memgraph: {rationale}",
        }
    )
    record["audit_log"] = log
    node_type = record.get("type") if isinstance(record.get("type"), str) else node.type
    tx.put_node(evolve(node, type=node_type, fields=freeze(record)))
    return True


def _write_override(
    tx: Tx,
    node: Node,
    overrides: dict[str, Any],
    wanted: dict[str, Any],
    reset: tuple[str, ...] | None,
) -> bool:
    """Lay ``wanted`` into the node's overrides entry (a default value removes its key, an
    empty entry goes); False, staging nothing, when the overrides would not change."""
    default = default_attributes(node)
    given = overrides.get(node.id)
    entry = dict(given) if isinstance(given, Mapping) else {}
    before = dict(entry)
    for name, value in wanted.items():
        if reset is not None or _same(name, value_of(default, name), value):
            entry.pop(name, None)
        else:
            entry[name] = value
    if entry == before and (entry or node.id not in overrides):
        return False
    updated = dict(overrides)
    if entry:
        updated[node.id] = entry
    else:
        updated.pop(node.id, None)
    tx.set_meta(OVERRIDES, updated or None)
    return True


def _overrides(tx: Tx) -> dict[str, Any]:
    value = thaw(tx.meta(OVERRIDES))
    return value if isinstance(value, dict) else {}


# -- labels and stamps -------------------------------------------------------------------------
def rfc3339_now() -> str:
    """Now in UTC as Go writes a ``time.Time`` (RFC 3339, fractional seconds without trailing
    zeros, ``Z``)."""
    now = datetime.now(UTC)
    text = now.strftime("%Y-%m-%dT%H:%M:%S")
    if now.microsecond:
        text += f".{now.microsecond:06d}".rstrip("0")
    return text + "Z"


def _label(
    store: Store, node_id: str, wanted: dict[str, Any] | None, reset: tuple[str, ...] | None
) -> str:
    """The undo step's text: "Set sensitivity of 'Eileen' to high", "Set sensitivity and tags
    of 'Eileen'", "Reset the Membrane attributes of 'Eileen' to the default"."""
    with store.reading() as graph:
        node = graph.nodes.get(node_id)
        title = quoted(node.title or node_id if node is not None else node_id)
    if reset is not None:
        if reset == NAMES:
            return f"Reset the Membrane attributes of {title} to the default"
        return f"Reset {_listed([SHOWN[n] for n in reset])} of {title} to the default"
    assert wanted is not None
    if len(wanted) == 1:
        ((name, value),) = wanted.items()
        return f"Set {SHOWN[name]} of {title} to {_shown(name, value)}"
    return f"Set {_listed([SHOWN[n] for n in wanted])} of {title}"


def quoted(title: str) -> str:
    """``'title'`` on one line, at most ``LABEL_CHARS`` characters."""
    line = " ".join(title.split())
    if len(line) > LABEL_CHARS:
        line = line[: LABEL_CHARS - 1].rstrip() + "…"
    return f"'{line}'"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _shown(name: str, value: Any) -> str:
    """A value for a label or a message: ``high``, ``0.8``, ``'team'``, ``a, b``, ``none``."""
    if name == "tags":
        tags = [str(t) for t in value] if isinstance(value, (list, tuple)) else []
        return ", ".join(tags) if tags else "none"
    if name == "scope":
        return f"'{value}'" if value else "none"
    if name == "salience" and _number(value) is not None:
        return f"{float(value):g}"
    return str(value)


class MembraneWrites:
    """``set_attributes`` / ``reset_attributes`` as methods, for ``MembraneApi`` to inherit: it
    needs ``storage`` (the ``Store``) and ``origin`` (the writer's name, or None)."""

    storage: Store
    origin: str | None

    def set_attributes(self, node_id: Any, changes: Any, *, expect: Any = None) -> WriteResult:
        """See the module function ``set_attributes``."""
        return set_attributes(self.storage, node_id, changes, origin=self.origin, expect=expect)

    def reset_attributes(
        self, node_id: Any, names: Any = None, *, expect: Any = None
    ) -> WriteResult:
        """See the module function ``reset_attributes``."""
        return reset_attributes(self.storage, node_id, names, origin=self.origin, expect=expect)

"""The JSON boundary: run any seed method by its camelCase name with a JSON array of arguments.

Options objects use the seed's camelCase keys; they are mapped onto the Python keyword arguments
(``seqRange`` -> ``seq_range``, ``from`` -> ``from_id``). Results come back as the seed's JSON.

Only strict JSON (RFC 8259) crosses the boundary, both ways: ``loads`` refuses ``NaN`` /
``Infinity`` tokens and numbers no float can hold, ``call`` refuses arguments no store can hold
(lone surrogates, unsafe integers, deep nesting, huge strings) before it touches the store, and
``dumps`` never writes ``NaN`` or a lone surrogate. The one exception: the Nuggets methods
(``NUGGETS``) take ``NaN`` / ``Infinity`` in their arguments, as a Nuggets agent may send them (a
non-finite confidence is stored as 0.7); their answers are strict JSON all the same.
"""

from __future__ import annotations

import inspect
import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from memgraph_gui.core.domain import strict_json
from memgraph_gui.core.domain.errors import MemgraphError, bad_args
from memgraph_gui.core.domain.results import to_jsonable
from memgraph_gui.core.luker import args, external
from memgraph_gui.core.memory import MemoryStore
from memgraph_gui.core.nuggets.model import NoteList

dumps = strict_json.dumps
"""``data`` as one line of strict JSON text (see ``strict_json.dumps``)."""
_RENAMES = {"from": "from_id", "to": "to_id"}
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")

# name -> (target, shape): shape lists the positional arguments: "id" (a value) or "opts".
READ = {
    "listNodes": ("list_nodes", ["opts"]),
    "getNode": ("get_node", ["id"]),
    "listEdges": ("list_edges", ["opts"]),
    "getSchema": ("get_schema", []),
    "getNeighbors": ("get_neighbors", ["id", "opts"]),
    "getAncestor": ("get_ancestor", ["id", "opts"]),
    "getDescendants": ("get_descendants", ["id", "opts"]),
    "getNearestVisibleAncestor": ("get_nearest_visible_ancestor", ["id", "opts"]),
    "projectEdges": ("project_edges", ["opts"]),
    "listVisibleCandidates": ("list_visible_candidates", ["opts"]),
    "getNodeExposure": ("get_node_exposure", ["id"]),
    "getEdgeSummary": ("get_edge_summary", ["id", "opts"]),
    "getNodeBrief": ("get_node_brief", ["id", "opts"]),
    "expandFromSeeds": ("expand_from_seeds", ["id", "opts"]),
    "keywordSearch": ("keyword_search", ["opts"]),
    "vectorSearch": ("vector_search", ["opts"]),
    "findByName": ("find_by_name", ["opts"]),
    "compactionCandidates": ("compaction_candidates", ["opts"]),
    "getInjectionState": ("get_injection_state", []),
    "searchText": ("search_text", ["id"]),
}
WRITE = {
    "applyExtractionBatch": ("apply_extraction_batch", ["opts"]),
    "createNode": ("create_node", ["opts"]),
    "editNode": ("edit_node", ["opts"]),
    "deleteNode": ("delete_node", ["opts"]),
    "archiveNode": ("archive_node", ["opts"]),
    "upsertLinks": ("upsert_links", ["opts"]),
    "deleteLinks": ("delete_links", ["opts"]),
    "compactNodes": ("compact_nodes", ["opts"]),
    "dissolveRollup": ("dissolve_rollup", ["opts"]),
    "restoreNode": ("restore_node", ["opts"]),
    "setInjectionState": ("set_injection_state", ["id"]),
    "setPins": ("set_pins", ["id"]),
}
EXTERNAL: dict[str, Callable[..., Any]] = {
    "searchNodesLexical": external.search_nodes_lexical,
    "listRecentNodes": external.list_recent_nodes,
    "getNodeById": external.get_node_by_id,
    "getCurrentlyInjectedNodeIds": external.get_currently_injected_node_ids,
}
# The Nuggets methods (core.nuggets.api.NuggetsApi): name -> (target, required, at most) argument
# counts after the nugget name, which always comes first. null for an optional argument = left out.
NUGGETS: dict[str, tuple[str, int, int]] = {
    "remember": ("remember", 2, 3),
    "createNote": ("create_note", 2, 4),
    "editNote": ("edit_note", 2, 3),
    "updateNote": ("update_note", 2, 2),
    "deleteNote": ("delete_note", 1, 2),
    "addLink": ("add_link", 3, 3),
    "mergeNotes": ("merge_notes", 3, 3),
    "recordHit": ("record_hit", 1, 2),
    "getNote": ("get_note", 1, 1),
    "listNotes": ("list_notes", 0, 1),
    "searchNotes": ("search_notes", 1, 3),
}
# The Membrane methods (core.membrane.api.MembraneApi): name -> (target, at most) positional
# arguments in Membrane's order; null or a missing trailing argument = left out.
MEMBRANE: dict[str, tuple[str, int]] = {
    "retrieveGraph": ("retrieve_graph", 8),
    "retrieveByID": ("retrieve_by_id", 2),
}
METHODS = sorted([*READ, *WRITE, *EXTERNAL, *NUGGETS, *MEMBRANE, "undo", "redo", "history"])


def check_call(method: Any, arguments: Any) -> list[Any]:
    """Refuse a call whose shape or data the boundary does not accept; returns the argument list.

    ``method`` must be a string and ``arguments`` a list of strict JSON data a store can hold:
    anything else raises ``BAD_ARGS`` (``TOO_LARGE`` for a string over ``args.MAX_STRING``
    characters) naming the place, e.g. ``args[0].title``. Pure: touches no store.
    """
    if not isinstance(method, str):
        raise bad_args(f"the method name must be a string, got {type(method).__name__}")
    if not isinstance(arguments, list):
        raise bad_args("arguments must be a JSON array of the method's positional arguments")
    args.check_data(
        _finite_for_check(arguments) if method in NUGGETS else arguments, "args", strict_json=True
    )
    return arguments


def _finite_for_check(value: Any) -> Any:
    """``value`` with each non-finite float as 0.0: what the strict checks see of a Nuggets
    call's arguments (which may hold NaN / Infinity; everything else is checked as strictly)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else 0.0
    if isinstance(value, list):
        return [_finite_for_check(item) for item in value]
    if isinstance(value, dict):
        return {key: _finite_for_check(item) for key, item in value.items()}
    return value


def call(
    store: MemoryStore | None, method: str, arguments: Any, *, origin: str | None = None
) -> Any:
    """Run ``method`` with ``arguments`` (a JSON array); returns JSON data or raises MemgraphError.

    ``check_call`` runs first, so refused arguments never reach the store. Each write method is
    one transaction (and, but for ``setInjectionState``, one undo step); reads write nothing.
    ``undo`` / ``redo`` take the newest step of the whole history, or with ``origin`` the newest
    step that origin made. Runs on the caller's thread.
    """
    check_call(method, arguments)
    if method == "onInjectionChanged":
        raise bad_args(
            "onInjectionChanged needs a live connection: run `memgraph --db FILE watch`, "
            "which prints every change (with the injection state) as a JSON line"
        )
    if method in EXTERNAL:
        return to_jsonable(_call_external(store, method, arguments))
    if method in NUGGETS:
        return _call_nuggets(store, method, arguments)
    if method in MEMBRANE:
        return _call_membrane(store, method, arguments)
    if store is None:
        if method in READ or method in WRITE or method in ("undo", "redo", "history"):
            raise MemgraphError("MEMORY_STORE_MISSING", "no memory store at the given path")
        raise unknown(method)
    if method in ("undo", "redo", "history") and arguments:
        raise bad_args(f"{method} takes no arguments, got {len(arguments)}")
    if method in ("undo", "redo"):
        history = store.history if origin is None else store.history_of(origin)
        changes = getattr(history, method)()
        return {"done": changes is not None, "label": changes.label if changes else None}
    if method == "history":
        return [step.to_json() for step in store.history.steps(include_skipped=True)]
    if method in READ:
        name, shape = READ[method]
        return to_jsonable(_invoke(getattr(store.read_api(), name), shape, arguments, method))
    if method in WRITE:
        name, shape = WRITE[method]
        return to_jsonable(_invoke(getattr(store.write_api(), name), shape, arguments, method))
    raise unknown(method)


def _call_nuggets(store: MemoryStore | None, method: str, arguments: list[Any]) -> Any:
    """Run a Nuggets method: the nugget name first, then the method's own arguments."""
    target, required, most = NUGGETS[method]
    if not arguments or not isinstance(arguments[0], str):
        got = "nothing" if not arguments else f"{type(arguments[0]).__name__}"
        raise bad_args(f"{method}: args[0] must be the nugget name (a string), got {got}")
    own = arguments[1:]
    if not required <= len(own) <= most:
        wanted = f"{required}" if required == most else f"{required} to {most}"
        raise bad_args(
            f"{method} takes the nugget name and {wanted} argument(s), got {len(own)} after it"
        )
    if store is None:
        raise MemgraphError("MEMORY_STORE_MISSING", "no memory store at the given path")
    fn = getattr(store.nuggets(arguments[0]), target)
    try:
        result = fn(*own)
    except MemgraphError as exc:
        raise _placed(exc, method, fn) from None
    # listNotes' NoteList becomes its list of notes; the other answers are plain JSON already
    return to_jsonable(result) if isinstance(result, NoteList) else result


def _call_membrane(store: MemoryStore | None, method: str, arguments: list[Any]) -> Any:
    """Run a Membrane method with its positional arguments (errors: ``INVALID_ARGUMENT``,
    ``RECORD_NOT_FOUND``, ``ACCESS_DENIED``, as ``core.membrane.retrieval`` raises them)."""
    target, most = MEMBRANE[method]
    if len(arguments) > most:
        raise MemgraphError(
            "INVALID_ARGUMENT", f"{method} takes at most {most} arguments, got {len(arguments)}"
        )
    if store is None:
        raise MemgraphError("MEMORY_STORE_MISSING", "no memory store at the given path")
    padded = [*arguments, *[None] * (most - len(arguments))]
    return getattr(store.membrane(), target)(*padded)


def _placed(exc: MemgraphError, method: str, fn: Callable[..., Any]) -> MemgraphError:
    """``exc`` with the Python parameter it names as its place in the JSON call (``remember:
    meta.confidence ...`` -> ``remember: args[3].confidence ...``; args[0] is the nugget)."""
    if exc.code != "BAD_ARGS":
        return exc
    for index, name in enumerate(inspect.signature(fn).parameters, start=1):
        head = f"{method}: {name}"
        if exc.message.startswith(head) and exc.message[len(head) : len(head) + 1] in " .[":
            return bad_args(f"{method}: args[{index}]{exc.message[len(head) :]}")
    return exc


def unknown(method: str) -> MemgraphError:
    return bad_args(f"unknown method {shown(method)}; known: {', '.join(METHODS)}")


def shown(text: str) -> str:
    """A caller's string for a message: quoted, escaped, cut to 60 characters."""
    return repr(text[:60] + ("…" if len(text) > 60 else ""))


def _call_external(store: MemoryStore | None, method: str, arguments: list[Any]) -> Any:
    """Run a legacy external function; like JS, missing arguments are None, extra ones refused."""
    fn = EXTERNAL[method]
    params = list(inspect.signature(fn).parameters.values())[1:]  # after the store
    if len(arguments) > len(params):
        raise bad_args(f"{method} takes at most {len(params)} argument(s), got {len(arguments)}")
    required = sum(1 for p in params if p.default is inspect.Parameter.empty)
    padded = [*arguments, *[None] * max(0, required - len(arguments))]
    return fn(store, *padded)


def _invoke(fn: Callable[..., Any], shape: list[str], arguments: list[Any], method: str) -> Any:
    if len(arguments) > len(shape):
        raise bad_args(f"{method} takes at most {len(shape)} argument(s), got {len(arguments)}")
    positional: list[Any] = []
    keywords: dict[str, Any] = {}
    for kind, value in zip(shape, arguments, strict=False):
        if kind == "opts":
            keywords = _keywords(fn, value, method)
        else:
            positional.append(value)
    if "id" in shape and not positional:
        positional.append(None)
    return fn(*positional, **keywords)


def _keywords(fn: Callable[..., Any], value: Any, method: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise bad_args(f"{method}: options must be a JSON object")
    accepted = set(_option_params(fn))
    out: dict[str, Any] = {}
    for key, item in value.items():
        name = _RENAMES.get(key, _CAMEL.sub("_", key).lower())
        if name not in accepted:
            names = ", ".join(sorted(accepted_options(fn)))
            raise bad_args(f"{method}: unknown option {shown(key)} (accepted: {names})")
        out[name] = _predicate(item) if name == "predicate" else item
    return out


def accepted_options(fn: Callable[..., Any]) -> list[str]:
    """The keys of the options object ``fn`` (a Read / Write API method) takes, as a JSON
    caller writes them (``activeOnly``, ``from``), in its signature's order."""
    return [_camel(name) for name in _option_params(fn)]


def _option_params(fn: Callable[..., Any]) -> list[str]:
    """``fn``'s keyword-only parameters: the options its options object may set."""
    return [
        p.name
        for p in inspect.signature(fn).parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    ]


def _predicate(value: Any) -> Callable[[Any], bool]:
    """JSON can't carry a function: ``{"type": "event", "level": "semantic"}`` matches NodeViews."""
    if not isinstance(value, Mapping):
        raise bad_args("predicate: expected an object of NodeView fields to match")
    wanted = dict(value)
    return lambda node: all(node.to_json().get(k) == v for k, v in wanted.items())


def _camel(name: str) -> str:
    reverse = {v: k for k, v in _RENAMES.items()}
    if name in reverse:
        return reverse[name]
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


# -- strict JSON text in and out ------------------------------------------------------------------
def loads(text: str, what: str = "the request", *, non_finite: bool = False) -> Any:
    """Parse strict JSON ``text``; anything else raises ``BAD_ARGS`` naming ``what``.

    Refused besides invalid JSON: the ``NaN`` / ``Infinity`` / ``-Infinity`` tokens, numbers no
    float can hold (``1e400``), integers too long to convert, and nesting past the parser's
    recursion limit. With ``non_finite`` (a Nuggets call's arguments) the tokens are taken as
    the floats they name, and ``1e400`` as Infinity, as JavaScript reads it. Never raises
    anything but ``MemgraphError``.
    """
    try:
        return json.loads(text) if non_finite else strict_json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"(line {exc.lineno}, column {exc.colno})"
        raise bad_args(f"{what} is not valid JSON: {exc.msg} {where}") from exc
    except strict_json.NotJsonNumber as exc:
        problem = (
            f"{exc.token} is not a JSON value (numbers must be finite)"
            if exc.constant
            else f"the number {exc.token[:40]} is out of range"
        )
        raise bad_args(f"{what} is not valid JSON: {problem}") from exc
    except ValueError as exc:  # an integer literal past int()'s digit limit
        raise bad_args(f"{what} is not usable JSON: {exc}") from exc
    except RecursionError as exc:
        raise bad_args(f"{what} is nested too deeply") from exc


def loads_request(text: str) -> Any:
    """One ``call -`` request line, parsed as ``loads`` does, except that a request for a
    Nuggets method (``{"call": "remember", ...}``) may hold ``NaN`` / ``Infinity``."""
    try:
        return loads(text, "the request")
    except MemgraphError as strict_error:
        try:
            request = loads(text, "the request", non_finite=True)
        except MemgraphError:
            raise strict_error from None
        if isinstance(request, dict) and request.get("call") in NUGGETS:
            return request
        raise strict_error from None

"""The JSON boundary: run any seed method by its camelCase name with a JSON array of arguments.

Options objects use the seed's camelCase keys; they are mapped onto the Python keyword arguments
(``seqRange`` -> ``seq_range``, ``from`` -> ``from_id``). Results come back as the seed's JSON.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any

from memgraph_gui.core.domain.errors import MemgraphError, bad_args
from memgraph_gui.core.domain.results import to_jsonable
from memgraph_gui.core.luker import external
from memgraph_gui.core.memory import MemoryStore

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
    "upsertLinks": ("upsert_links", ["opts"]),
    "deleteLinks": ("delete_links", ["opts"]),
    "compactNodes": ("compact_nodes", ["opts"]),
    "dissolveRollup": ("dissolve_rollup", ["opts"]),
    "restoreNode": ("restore_node", ["opts"]),
    "setInjectionState": ("set_injection_state", ["id"]),
}
EXTERNAL: dict[str, Callable[..., Any]] = {
    "searchNodesLexical": external.search_nodes_lexical,
    "listRecentNodes": external.list_recent_nodes,
    "getNodeById": external.get_node_by_id,
    "getCurrentlyInjectedNodeIds": external.get_currently_injected_node_ids,
}
METHODS = sorted([*READ, *WRITE, *EXTERNAL, "undo", "redo", "history"])


def call(store: MemoryStore | None, method: str, arguments: Any) -> Any:
    """Run ``method`` with ``arguments`` (a JSON array); returns JSON data or raises MemgraphError."""
    if not isinstance(arguments, list):
        raise bad_args("arguments must be a JSON array of the method's positional arguments")
    if method == "onInjectionChanged":
        raise bad_args(
            "onInjectionChanged needs a live connection: run `memgraph --db FILE watch`, "
            "which prints every change (with the injection state) as a JSON line"
        )
    if method in EXTERNAL:
        return to_jsonable(_call_external(store, method, arguments))
    if store is None:
        if method in READ or method in WRITE or method in ("undo", "redo", "history"):
            raise MemgraphError("MEMORY_STORE_MISSING", "no memory store at the given path")
        raise bad_args(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    if method in ("undo", "redo"):
        changes = getattr(store.history, method)()
        return {"done": changes is not None, "label": changes.label if changes else None}
    if method == "history":
        return [step.to_json() for step in store.history.steps()]
    if method in READ:
        name, shape = READ[method]
        return to_jsonable(_invoke(getattr(store.read_api(), name), shape, arguments, method))
    if method in WRITE:
        name, shape = WRITE[method]
        return to_jsonable(_invoke(getattr(store.write_api(), name), shape, arguments, method))
    raise bad_args(f"unknown method {method!r}; known: {', '.join(METHODS)}")


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
    accepted = {
        p.name
        for p in inspect.signature(fn).parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }
    out: dict[str, Any] = {}
    for key, item in value.items():
        name = _RENAMES.get(key, _CAMEL.sub("_", key).lower())
        if name not in accepted:
            names = ", ".join(sorted(_camel(a) for a in accepted))
            raise bad_args(f"{method}: unknown option {key!r} (accepted: {names})")
        out[name] = _predicate(item) if name == "predicate" else item
    return out


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

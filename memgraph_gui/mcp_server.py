"""``memgraph mcp``: one store served to an MCP client over stdio (the official ``mcp`` SDK 2.x).

- **Tools**: every method ``memgraph call`` knows (``core.catalogue``), answered by
  ``jsonapi.call``: the structured content is ``{"result": ...}``, the very object ``memgraph
  call`` prints, and its text the same JSON; a refusal is a tool error whose structured content
  is ``{"error": {"code", "message"}}`` (the seed's code and message), and the server serves on.
  ``undo`` / ``redo`` undo and redo this client's own steps only, never the person's.
- **Resources**: ``memgraph://schema`` (the node-type schema and the node counts by type),
  ``memgraph://injection`` (the injection state) and ``memgraph://node/{id}`` (``getNode``).
  A client subscribed to one (``resources/subscribe``, or a ``subscriptions/listen`` stream) is
  told when any process's commit changes it: the store's watcher (the one that drives the
  window) hands each ChangeSet to the event loop.
- **Writes** are ordinary writes: one batch, one ChangeSet and one undo step each, whose label
  ends with the client's name (" (via NAME)") and whose origin is ``NAME (mcp)``: ``undo``
  finds the steps of every session of a client of that name (an agent that reconnects too).
- **Trust**: with a ``TrustContext`` every answer (tools and resources) is read from the memory
  as that actor sees it (``core.membrane.seen``); writes naming a record the actor cannot read
  whole are refused (see ``Memory.call``).

``Memory`` is the blocking part (any thread); ``serve`` runs the SDK's server on stdin/stdout.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from mcp import types
from mcp.server import NotificationOptions, Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated
from mcp.shared.exceptions import MCPError
from pydantic import ConfigDict, TypeAdapter
from pydantic_core import PydanticSerializationError

from memgraph_gui import __version__
from memgraph_gui.core import catalogue, jsonapi
from memgraph_gui.core.domain.errors import MemgraphError, as_memgraph_error
from memgraph_gui.core.domain.images import Change, edge_key_from_text
from memgraph_gui.core.domain.strict_json import dumps
from memgraph_gui.core.membrane.index import attributes
from memgraph_gui.core.memory import MemoryStore

if TYPE_CHECKING:
    from memgraph_gui.core.domain.changes import ChangeSet
    from memgraph_gui.core.graph.graph import Graph
    from memgraph_gui.core.membrane.trust import TrustContext

log = logging.getLogger(__name__)

SCHEMA_URI = "memgraph://schema"
INJECTION_URI = "memgraph://injection"
NODE_PREFIX = "memgraph://node/"
NODE_TEMPLATE = NODE_PREFIX + "{id}"
RESOURCE_NOT_FOUND = -32002  # the MCP spec's code for an unknown resource
_DENIED = "this write would change a record this actor cannot read whole; nothing was written"
_ANSWER = TypeAdapter(dict[str, Any], config=ConfigDict(ser_json_inf_nan="null"))
_OUTPUT_SCHEMA = {"type": "object", "properties": {"result": {}}, "required": ["result"]}


class Memory:
    """The store one server serves, as the tools and resources see it. Blocking; any thread.

    ``trust`` (None: the whole memory) makes every read answer from the memory as that actor
    sees it. ``read_only`` leaves the writing tools out, and refuses them by name.
    """

    def __init__(
        self, store: MemoryStore, *, read_only: bool = False, trust: TrustContext | None = None
    ) -> None:
        self.store = store
        self.read_only = read_only
        self.trust = trust
        self.client = ""
        self._view: MemoryStore | None = None
        self._view_stamp: tuple[str, int] | None = None
        self._view_lock = threading.RLock()
        if trust is not None:
            store.storage.guard = self._guard

    # -- who is writing --------------------------------------------------------------------------
    def sign(self, client: str) -> None:
        """Name the client: its writes' labels end with " (via CLIENT)", their origin is
        ``CLIENT (mcp)`` (so ``undo`` finds the steps of this client, in any session). Idempotent."""
        client = " ".join(client.split())[:80] or "MCP client"
        if client == self.client:
            return
        self.client = client
        self.store.storage.origin = f"{client} (mcp)"
        self.store.storage.signature = f" (via {client})"

    # -- tools -----------------------------------------------------------------------------------
    def tools(self) -> list[catalogue.Tool]:
        """The tools this server offers, in name order (no writing tool when read-only)."""
        return [t for t in catalogue.tools().values() if not (self.read_only and t.writes)]

    def call(self, name: str, arguments: dict[str, Any] | None) -> Any:
        """Run tool ``name`` with its arguments object; the ``memgraph call`` result, or raises
        ``MemgraphError`` with the seed's code (``BAD_ARGS`` for an unknown tool or argument,
        ``STORE_READ_ONLY`` for a writing tool on a read-only server).

        With trust, a write that names (in any string of its arguments) a node the actor sees
        redacted is refused with ``ACCESS_DENIED``; one that names a node the actor cannot see
        at all is answered as the seed answers a missing node (it runs on the actor's view,
        which the real store never sees); a batch that would change a hidden node anyway is
        refused before it commits (``_guard``), and an answer never names an omitted node.
        """
        tool = catalogue.tools().get(name)
        if tool is None:
            raise jsonapi.unknown(name)
        if self.read_only and tool.writes:
            raise MemgraphError(
                "STORE_READ_ONLY", f"{name} writes, and this server is read-only (--read-only)"
            )
        call_args = jsonapi.check_call(name, tool.call_args(arguments))
        if not tool.writes:
            return jsonapi.call(self.reader(), name, call_args)
        if self.trust is None:
            return jsonapi.call(self.store, name, call_args, origin=self.store.origin)
        hidden = self._named_hidden(call_args)
        if hidden == "omitted":
            return self._on_view(name, call_args)
        if hidden is not None:
            message = f"{hidden} is redacted for this actor: it cannot be written"
            raise MemgraphError("ACCESS_DENIED", message)
        if name == "setInjectionState":
            call_args = [self._keeping_hidden(call_args[0] if call_args else None)]
        answer = jsonapi.call(self.store, name, call_args, origin=self.store.origin)
        with self.store.reading() as graph:
            named = set(_strings(answer)) & graph.nodes.keys()
        if all(self.tier(node_id) != "omitted" for node_id in named):
            return answer
        if name == "setInjectionState":  # the new state, as the actor sees it
            return jsonapi.call(self.reader(), "getInjectionState", [])
        # the guard lets no change touch a hidden node: this write changed nothing (a create
        # that met a same-named twin the actor cannot see)
        raise MemgraphError("ACCESS_DENIED", _DENIED)

    def _named_hidden(self, call_args: list[Any]) -> str | None:
        """Does a write under trust name a node the actor cannot read whole? The first such
        redacted node's id, else ``"omitted"`` when it names one the actor cannot see, else
        None."""
        with self.store.reading() as graph:
            named = set(_strings(call_args)) & graph.nodes.keys()
            tiers = {node_id: _tier_in(graph, node_id, self.trust) for node_id in named}
        redacted = sorted(i for i, tier in tiers.items() if tier == "redacted")
        if redacted:
            return redacted[0]
        return "omitted" if "omitted" in tiers.values() else None

    def _keeping_hidden(self, state: Any) -> Any:
        """``setInjectionState``'s ``state`` with, under each key it sets, the ids the actor
        cannot read whole that the key lists now (after the given ones): the actor sets what
        it sees, and what it does not see stays."""
        if not isinstance(state, dict):
            return state  # the call refuses it
        with self.store.reading() as graph:
            now = graph.injection.to_json()
        kept = dict(state)
        for key, given in state.items():
            current = now.get(key)
            if isinstance(given, list) and isinstance(current, (list, tuple)):
                hidden = [i for i in current if i not in given and self.tier(i) != "full"]
                kept[key] = [*given, *hidden]
        return kept

    def _on_view(self, name: str, call_args: list[Any]) -> Any:
        """Answer a write on the actor's view (where the hidden node does not exist); the view
        is made again before the next read."""
        with self._view_lock:
            view = self.reader()
            try:
                return jsonapi.call(view, name, call_args)
            finally:
                self._view_stamp = None

    def _guard(self, graph: Graph, changes: list[Change]) -> None:
        """Refuse (``ACCESS_DENIED``) a batch that would change a node the actor cannot read
        whole, an edge of one, or take one out of the injection state — what a write may do
        without naming it (a create merged into a same-titled node, ``remember`` of a fact)."""
        assert self.trust is not None
        touched: set[str] = set()
        for change in changes:
            if change.kind == "node" and change.before is not None:
                touched.add(change.key)
            elif change.kind == "edge":
                touched.update(edge_key_from_text(change.key)[:2])
            elif change.kind == "meta" and change.key == "injection":
                dropped = _listed(change.before) - _listed(change.after)
                touched.update(node_id for _key, node_id in dropped)
        for node_id in touched:
            if node_id in graph.nodes and _tier_in(graph, node_id, self.trust) != "full":
                raise MemgraphError("ACCESS_DENIED", _DENIED)

    def tier(self, node_id: str) -> str:
        """How the actor sees node ``node_id`` now: full, redacted or omitted (an unknown node
        too); always full without trust."""
        with self.store.reading() as graph:
            return _tier_in(graph, node_id, self.trust)

    def may_tell(self, uri: str) -> bool:
        """May the actor hear that ``uri`` changed? Not for a node it cannot see (which would
        tell that the node exists)."""
        if self.trust is None or not uri.startswith(NODE_PREFIX):
            return True
        return self.tier(uri.removeprefix(NODE_PREFIX)) != "omitted"

    # -- reads -----------------------------------------------------------------------------------
    def reader(self) -> MemoryStore:
        """The store reads are answered from: the store itself, or (with trust) the actor's
        view of it, made again after any change."""
        if self.trust is None:
            return self.store
        from memgraph_gui.core.memory import seen_memory

        with self._view_lock:
            stamp = self.store.stamp
            if self._view is None or self._view_stamp != stamp:
                old, self._view = self._view, seen_memory(self.store, self.trust)
                self._view_stamp = stamp
                if old is not None:
                    old.close()
            return self._view

    def resource(self, uri: str) -> Any:
        """The JSON of resource ``uri``; ``MemgraphError`` ``NOT_FOUND`` for an unknown one."""
        reader = self.reader()
        if uri == SCHEMA_URI:
            with reader.reading() as graph:
                counts: dict[str, int] = {}
                for node in graph.nodes.values():
                    if not node.archived:
                        counts[node.type] = counts.get(node.type, 0) + 1
            return {
                "schema": jsonapi.call(reader, "getSchema", []),
                "nodesByType": dict(sorted(counts.items())),
            }
        if uri == INJECTION_URI:
            return jsonapi.call(reader, "getInjectionState", [])
        if uri.startswith(NODE_PREFIX):
            node = jsonapi.call(reader, "getNode", [uri.removeprefix(NODE_PREFIX)])
            if node is not None:
                return node
        raise MemgraphError("NOT_FOUND", f"no resource {jsonapi.shown(uri)}")

    def close(self) -> None:
        """Close the view and the store (idempotent)."""
        if self._view is not None:
            self._view.close()
        self.store.close()


def changed_uris(changes: ChangeSet) -> Iterator[str]:
    """The resources ``changes`` may have changed (node resources: every node it names, the
    ends of its edges too, whose ``childrenIds`` may change)."""
    if changes.reloaded or changes.schema_changed or _nodes_come_or_go(changes):
        yield SCHEMA_URI
    if changes.reloaded or changes.injection_changed:
        yield INJECTION_URI
    ids = set(changes.nodes_added | changes.nodes_updated | changes.nodes_removed)
    ids |= changes.nodes_archived | changes.nodes_restored
    for edge in changes.edges_changed:
        ids.update(edge[:2])
    for node_id in sorted(ids):
        yield NODE_PREFIX + node_id


def _nodes_come_or_go(changes: ChangeSet) -> bool:
    return bool(
        changes.nodes_added
        or changes.nodes_removed
        or changes.nodes_archived
        or changes.nodes_restored
        or "type" in changes.fields
    )


def _strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value (keys too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)


def _listed(injection: Any) -> set[tuple[str, str]]:
    """(key, id) for every id an injection state's image lists under each key."""
    if not isinstance(injection, dict):
        return set()
    return {(key, i) for key, ids in injection.items() if isinstance(ids, list) for i in ids}


def _tier_in(graph: Graph, node_id: str, trust: TrustContext | None) -> str:
    """How ``trust`` sees node ``node_id`` of ``graph``: full, redacted or omitted (an unknown
    node too); full without trust."""
    if trust is None:
        return "full"
    attrs = attributes(graph, node_id)
    return "omitted" if attrs is None else trust.tier(attrs.sensitivity, attrs.scope)


# -- the MCP server -------------------------------------------------------------------------------
class _Listen(ListenHandler):
    """``subscriptions/listen`` that also counts which resource URIs open streams want, so a
    big batch publishes only the node resources somebody listens to."""

    def __init__(self, bus: InMemorySubscriptionBus, wanted: dict[str, int]) -> None:
        super().__init__(bus)
        self._wanted = wanted

    async def __call__(
        self, ctx: Any, params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        uris = list(params.notifications.resource_subscriptions or ())
        for uri in uris:
            self._wanted[uri] = self._wanted.get(uri, 0) + 1
        try:
            return await super().__call__(ctx, params)
        finally:
            for uri in uris:
                self._wanted[uri] -= 1
                if not self._wanted[uri]:
                    del self._wanted[uri]


class Served:
    """The SDK ``Server`` over one ``Memory``, with its subscriptions (event-loop state)."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self.bus = InMemorySubscriptionBus()
        self.subscribed: set[str] = set()  # resources/subscribe (one client per stdio server)
        self.listened: dict[str, int] = {}  # subscriptions/listen streams' resources
        self.session: Any = None
        self.server: Server[Any] = Server(
            "memgraph",
            version=__version__,
            title="memgraph",
            instructions=_instructions(memory),
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_templates,
            on_read_resource=self._read_resource,
            on_subscribe_resource=self._subscribe,
            on_unsubscribe_resource=self._unsubscribe,
            on_subscriptions_listen=_Listen(self.bus, self.listened),
        )
        self._tools = [_tool(t) for t in memory.tools()]

    def _note_client(self, ctx: ServerRequestContext[Any]) -> None:
        self.session = ctx.session
        params = ctx.session.client_params
        name = params.client_info.name if params is not None else ""
        self.memory.sign(name or "MCP client")

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        self._note_client(ctx)
        return types.ListToolsResult(tools=self._tools)

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        self._note_client(ctx)
        try:
            result = await anyio.to_thread.run_sync(self.memory.call, params.name, params.arguments)
        except Exception as exc:  # every refusal is a tool error; the server serves on
            error = as_memgraph_error(exc).to_json()
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=dumps({"error": error}))],
                structured_content={"error": error},
                is_error=True,
            )
        text, answer = _json_text({"result": result})
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], structured_content=answer
        )

    async def _list_resources(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=SCHEMA_URI,
                    name="schema",
                    title="Schema overview",
                    description="The node-type schema (getSchema) and the active nodes by type.",
                    mime_type="application/json",
                ),
                types.Resource(
                    uri=INJECTION_URI,
                    name="injection",
                    title="Injection state",
                    description="What the next prompt injects (getInjectionState).",
                    mime_type="application/json",
                ),
            ]
        )

    async def _list_templates(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=NODE_TEMPLATE,
                    name="node",
                    title="Memory node",
                    description="One node by id, as getNode answers (archived ones too).",
                    mime_type="application/json",
                )
            ]
        )

    async def _read_resource(
        self, ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            data = await anyio.to_thread.run_sync(self.memory.resource, uri)
        except MemgraphError as exc:
            if exc.code == "NOT_FOUND":
                raise MCPError(RESOURCE_NOT_FOUND, exc.message) from None
            raise MCPError(types.INTERNAL_ERROR, f"{exc.code}: {exc.message}") from None
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(uri=uri, mime_type="application/json", text=dumps(data))
            ]
        )

    async def _subscribe(
        self, ctx: ServerRequestContext[Any], params: types.SubscribeRequestParams
    ) -> types.EmptyResult:
        self.session = ctx.session
        self.subscribed.add(str(params.uri))
        return types.EmptyResult()

    async def _unsubscribe(
        self, ctx: ServerRequestContext[Any], params: types.UnsubscribeRequestParams
    ) -> types.EmptyResult:
        self.subscribed.discard(str(params.uri))
        return types.EmptyResult()

    async def notify(self, uris: Iterable[str]) -> None:
        """Tell the subscribed client and the listening streams that ``uris`` changed."""
        for uri in uris:
            if uri in self.listened:
                await self.bus.publish(ResourceUpdated(uri=uri))
            if uri in self.subscribed and self.session is not None:
                try:
                    await self.session.send_resource_updated(uri)
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    return  # the client went away

    async def run(self) -> None:
        """Serve stdin/stdout until the client closes them; the watcher tells of changes."""
        token = anyio.lowlevel.current_token()
        wanted = self.listened

        def changed(changes: ChangeSet) -> None:  # the watcher's (or a writer's) thread
            uris = [
                uri
                for uri in changed_uris(changes)
                if (uri in self.subscribed or uri in wanted) and self.memory.may_tell(uri)
            ]
            if uris:
                try:
                    anyio.from_thread.run(self.notify, uris, token=token)
                except RuntimeError:  # the loop has ended: nobody is left to tell
                    pass

        unsubscribe = self.memory.store.subscribe(changed)
        self.memory.store.start_watcher()
        try:
            async with stdio_server() as (read, write):
                options = self.server.create_initialization_options(NotificationOptions())
                await self.server.run(read, write, options)
        finally:
            unsubscribe()
            self.memory.store.stop_watcher()


def _json_text(answer: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``answer`` as compact JSON text, and ``answer`` as the SDK can send it. The text is made
    by pydantic's serializer (4x ``json.dumps``'s speed on big answers); data it cannot encode
    (a lone surrogate) goes through ``strict_json.dumps`` (U+FFFD), the structured content too,
    or the SDK would fail to send it."""
    try:
        return _ANSWER.dump_json(answer).decode(), answer
    except PydanticSerializationError:
        text = dumps(answer)
        return text, json.loads(text)


def _tool(tool: catalogue.Tool) -> types.Tool:
    return types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.description,
        input_schema=tool.input_schema(),
        output_schema=_OUTPUT_SCHEMA,
        annotations=types.ToolAnnotations(
            title=tool.title,
            read_only_hint=not tool.writes,
            destructive_hint=tool.writes
            and tool.name in ("deleteNode", "deleteLinks", "deleteNote"),
            idempotent_hint=not tool.writes,
            open_world_hint=False,
        ),
    )


def _instructions(memory: Memory) -> str:
    lines = [
        f"A memgraph memory store ({os.path.basename(memory.store.path)}): an AI chat's "
        "long-term memory graph, with Luker's memory-graph API (read, write, session facade), "
        "the Nuggets note layer and Membrane's trust-aware retrieval as tools.",
        "Each tool's result is {result: ...}, the JSON `memgraph call` prints; a refusal is a "
        "tool error {error: {code, message}}. Resources: memgraph://schema, "
        "memgraph://injection, memgraph://node/{id} (subscribe to hear of changes).",
    ]
    if memory.read_only:
        lines.append("This server is read-only.")
    if memory.trust is not None:
        lines.append(
            "Answers are what the actor "
            f"{memory.trust.actor_id or '(unnamed)'} may see (max_sensitivity "
            f"{memory.trust.max_sensitivity})."
        )
    return " ".join(lines)


def serve(memory: Memory) -> None:
    """Serve ``memory`` over stdin/stdout until the client goes away; closes nothing.

    The store's indexes are built (``warm_up``) on a thread meanwhile, so the handshake and the
    tool list answer at once and no later call pays for an index (a call made during the warm-up
    waits for what it needs)."""
    warming = threading.Thread(target=memory.store.warm_up, name="memgraph-mcp-warm-up")
    warming.start()
    try:
        anyio.run(Served(memory).run)
    finally:
        warming.join()

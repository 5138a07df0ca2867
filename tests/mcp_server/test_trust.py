"""``memgraph mcp --trust FILE``: every tool and resource answers as that actor sees the memory.

The memories are ``tests/core/test_seen_store.py``'s: each node's hidden payload is a marker word
found nowhere else, so "no leak" is an exact text check on every answer the server sends."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from mcp import ClientSession, types
from mcp.shared.exceptions import MCPError

from memgraph_gui.core import MemoryStore, catalogue
from memgraph_gui.core.membrane.index import tiers
from memgraph_gui.core.membrane.trust import TrustContext
from tests.core.test_seen_store import (
    GHOST,
    MEDIUM,
    Item,
    build,
    example,
    hidden_texts,
    id_calls,
    mark,
    memories,
    node_id,
    read_calls,
)
from tests.mcp_server.client import cli_call, served, subscribe


def named(method: str, arguments: list[Any]) -> dict[str, Any]:
    """A ``memgraph call`` argument array as the tool's named arguments (``call_args``'s
    inverse)."""
    out: dict[str, Any] = {}
    for argument in catalogue.tools()[method].arguments:
        if argument.slot >= len(arguments) or arguments[argument.slot] is None:
            continue
        value = arguments[argument.slot]
        if argument.option is None:
            out[argument.name] = value
        elif isinstance(value, dict) and argument.option in value:
            out[argument.name] = value[argument.option]
    return out


@contextmanager
def trusted_server(
    tmp: Path, items: list[Item], trust: TrustContext
) -> Iterator[tuple[BlockingPortal, ClientSession, Path]]:
    """A file store of ``items`` and a ``memgraph mcp --trust`` server on it."""
    db, trust_file = tmp / "m.memgraph", tmp / "trust.json"
    for stale in (db, tmp / "m.memgraph-wal", tmp / "m.memgraph-shm"):
        stale.unlink(missing_ok=True)
    with MemoryStore.open(db) as store:
        build(store, items)
    trust_file.write_text(json.dumps(trust.to_json()))
    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(served(db, "--trust", str(trust_file))) as session:
            yield portal, session, db


def text_of(portal: BlockingPortal, session: ClientSession, method: str, args: list[Any]) -> str:
    answer = portal.call(session.call_tool, method, named(method, args))
    return json.dumps(answer.structured_content, ensure_ascii=False)


def check_server(tmp: Path, items: list[Item], trust: TrustContext) -> None:
    ids = [node_id(items, i) for i in range(len(items))]
    with MemoryStore.open(":memory:") as source:
        build(source, items)
        with source.reading() as graph:
            tier = tiers(graph, trust)
    hidden = [i for i, n in enumerate(ids) if tier[n] != "full"]
    secrets = [t for i in hidden for t in hidden_texts(items, i)]
    gone = [n for n in ids if tier[n] == "omitted"]
    queries = [" ".join(hidden_texts(items, i)[:2]) for i in hidden] + ["words"]
    with trusted_server(tmp, items, trust) as (portal, session, db):
        before = cli_call(db, "history", [])["result"]
        for method, arguments in read_calls(items, trust, queries):
            text = text_of(portal, session, method, arguments)
            leaks = [s for s in secrets if s in text] + [g for g in gone if g in text]
            assert not leaks, (method, arguments, leaks, text[:300])
        for n in ids:
            for method, arguments in id_calls(n):
                text = text_of(portal, session, method, arguments)
                assert not [s for s in secrets if s in text], (method, arguments, text[:300])
                if n not in gone:
                    assert not [g for g in gone if g in text], (method, arguments, text[:300])
                    continue
                # about an omitted node: the answer about a node that never was
                ghostly = json.loads(
                    json.dumps(arguments).replace(json.dumps(n), json.dumps(GHOST))
                )
                ghost = text_of(portal, session, method, ghostly)
                assert text == ghost.replace(GHOST, n), (method, arguments)
        check_resources(portal, session, ids, gone, secrets)
        check_writes(portal, session, items, tier)
        assert cli_call(db, "history", [])["result"] == before  # nothing was written


def test_an_example_memory_shows_nothing_hidden(tmp_path: Path) -> None:
    check_server(tmp_path, example(), MEDIUM)


def test_a_full_node_written_under_trust_is_an_ordinary_signed_write(tmp_path: Path) -> None:
    items = example()
    with trusted_server(tmp_path, items, MEDIUM) as (portal, session, db):
        full = node_id(items, 3)  # public
        got = portal.call(session.call_tool, "editNode", {"id": full, "title": "Seen by all"})
        assert got.structured_content["result"]["ok"] is True
        after = portal.call(session.call_tool, "getNode", {"id": full})
        assert after.structured_content["result"]["title"] == "Seen by all"
    assert cli_call(db, "getNode", [full])["result"]["title"] == "Seen by all"
    steps = cli_call(db, "history", [])["result"]
    assert steps[0]["label"].endswith("(via pytest-agent)"), steps  # newest first
    assert mark(3, "T") != "Seen by all"


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(memories())
def test_no_tool_shows_what_the_trust_hides(
    tmp_path: Path, memory: tuple[list[Item], TrustContext]
) -> None:
    items, trust = memory
    check_server(tmp_path, items, trust)


def check_resources(
    portal: BlockingPortal,
    session: ClientSession,
    ids: list[str],
    gone: list[str],
    secrets: list[str],
) -> None:
    """An omitted node is no resource; a redacted one is only redacted; no list names gone ids."""
    for n in ids:  # resources: an omitted node is no resource; a redacted one only redacted
        uri = f"memgraph://node/{n}"
        if n in gone:
            with pytest.raises(MCPError, match="no resource"):
                portal.call(session.read_resource, uri)
            continue
        text = portal.call(session.read_resource, uri).contents[0].text
        assert not [s for s in secrets if s in text], (n, text)
    for uri in ("memgraph://schema", "memgraph://injection"):
        text = portal.call(session.read_resource, uri).contents[0].text
        assert not [g for g in gone if g in text], (uri, text)


def check_writes(
    portal: BlockingPortal, session: ClientSession, items: list[Item], tier: dict[str, str]
) -> None:
    """A write naming a redacted node is refused; one naming an omitted node is answered as
    for a node that never was."""
    ids = [node_id(items, i) for i in range(len(items))]
    for i, n in enumerate(ids):  # a write naming a node the actor cannot read whole
        if items[i].kind != "luker" or tier[n] == "full":
            continue
        edit = {"id": n, "title": "changed"}
        got = portal.call(session.call_tool, "editNode", edit)
        if tier[n] == "redacted":
            assert got.structured_content["error"]["code"] == "ACCESS_DENIED"
        else:  # answered as for a node that never was
            ghost = portal.call(session.call_tool, "editNode", {**edit, "id": GHOST})
            expected = json.dumps(ghost.structured_content).replace(GHOST, n)
            assert json.dumps(got.structured_content) == expected


def test_a_write_that_would_change_a_hidden_node_without_naming_it_is_refused(
    tmp_path: Path,
) -> None:
    # L0z a full character sheet, L1z an omitted event, L2z a redacted sheet, L3z a public event
    items = [Item("luker", "low"), Item("luker", "hyper"), Item("luker", "high")]
    items.append(Item("luker", "public"))
    with trusted_server(tmp_path, items, MEDIUM) as (portal, session, db):
        with MemoryStore.open(db) as person:  # a sheet the actor may not see, named Zed
            made = person.write_api().create_node(type="character_sheet", title="Zed")
            person.membrane().set_attributes(made["id"], {"sensitivity": "hyper"})
        before = cli_call(db, "history", [])["result"]
        state = cli_call(db, "getInjectionState", [])["result"]
        assert "L1z" in state["recallSelectedIds"] and "L2z" in state["alwaysInjectIds"]
        for name, arguments in [
            ("createNode", {"type": "character_sheet", "title": "Zed"}),  # would merge into it
            (
                "applyExtractionBatch",
                {"ops": [{"op": "create", "type": "character_sheet", "fields": {"name": "Zed"}}]},
            ),
        ]:
            got = portal.call(session.call_tool, name, arguments)
            assert got.is_error, (name, got.structured_content)
            assert got.structured_content["error"]["code"] == "ACCESS_DENIED"
            assert made["id"] not in json.dumps(got.structured_content)
        fine = portal.call(
            session.call_tool, "createNode", {"type": "character_sheet", "title": "New"}
        )
        assert not fine.is_error
    after = cli_call(db, "history", [])["result"]
    assert after[1:] == before and after[0]["label"].startswith("Create character_sheet 'New'")
    assert cli_call(db, "getInjectionState", [])["result"] == state


def test_the_injection_state_set_under_trust_answers_as_the_actor_sees_it(
    tmp_path: Path,
) -> None:
    items = [Item("luker", "low"), Item("luker", "hyper"), Item("luker", "high")]
    items.append(Item("luker", "public"))  # L1z omitted, L2z redacted under MEDIUM
    with trusted_server(tmp_path, items, MEDIUM) as (portal, session, db):
        got = portal.call(
            session.call_tool, "setInjectionState", {"state": {"alwaysInjectIds": ["L3z"]}}
        )
        seen = portal.call(session.call_tool, "getInjectionState", {})
    assert not got.is_error
    assert got.structured_content == seen.structured_content
    assert "L1z" not in json.dumps(got.structured_content)
    whole = cli_call(db, "getInjectionState", [])["result"]
    # what the actor sees is set; the redacted L2z it could not see whole stays
    assert whole["alwaysInjectIds"] == ["L2z", "L3z"] and "L1z" in whole["recallSelectedIds"]
    assert got.structured_content["result"]["alwaysInjectIds"] == ["L2z", "L3z"]


def test_a_subscriber_hears_nothing_of_a_node_it_cannot_see(tmp_path: Path) -> None:
    items = [Item("luker", "low"), Item("luker", "hyper")]  # L1z omitted under MEDIUM
    heard: list[str] = []

    def on_message(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            heard.append(str(message.params.uri))

    db, trust_file = tmp_path / "m.memgraph", tmp_path / "trust.json"
    with MemoryStore.open(db) as store:
        build(store, items)
    trust_file.write_text(json.dumps(MEDIUM.to_json()))
    with start_blocking_portal() as portal:
        server = served(db, "--trust", str(trust_file), on_message=on_message)
        with portal.wrap_async_context_manager(server) as session:
            for node in ("L0z", "L1z"):
                portal.call(subscribe, session, f"memgraph://node/{node}")
            cli_call(db, "editNode", [{"id": "L1z", "title": "hidden change"}])
            cli_call(db, "editNode", [{"id": "L0z", "title": "seen change"}])
            deadline = time.monotonic() + 10
            while not heard and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(0.3)
    assert heard == ["memgraph://node/L0z"]

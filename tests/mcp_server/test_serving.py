"""``memgraph mcp`` as an MCP client sees it: tools, resources, subscriptions, refusals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import types
from mcp.shared.exceptions import MCPError

from memgraph_gui.core import MemoryStore, catalogue
from tests.mcp_server.client import ROOT, cli_call, served, server_params, subscribe

pytestmark = pytest.mark.anyio


async def test_the_tool_list_is_the_catalogue_with_its_schemas(demo_copy: Path) -> None:
    async with served(demo_copy) as session:
        listed = {tool.name: tool for tool in (await session.list_tools()).tools}
    expected = catalogue.tools()
    assert list(listed) == list(expected)
    for name, tool in listed.items():
        assert tool.input_schema == expected[name].input_schema(), name
        assert tool.description and tool.title
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is (not expected[name].writes)
        assert tool.output_schema is not None
    schema = listed["getNeighbors"].input_schema
    assert set(schema["properties"]) == {"id", "edgeTypes", "direction", "projectTo"}
    assert schema["properties"]["direction"]["enum"] == ["in", "out", "both"]
    assert schema["additionalProperties"] is False
    assert listed["remember"].input_schema["required"] == ["nugget", "key", "value"]
    assert listed["keywordSearch"].description.startswith("keywordSearch(")


async def test_a_write_is_one_signed_undo_step_seen_by_other_processes(demo_copy: Path) -> None:
    seen: list[Any] = []
    with MemoryStore.open(demo_copy) as watcher:  # stands for the open window
        got = threading.Event()

        def heard(changes: Any) -> None:
            seen.append(changes)
            got.set()

        watcher.subscribe(heard)
        watcher.start_watcher()
        async with served(demo_copy, name="Curator Bot") as session:
            answer = await session.call_tool(
                "createNode", {"type": "character_sheet", "title": "Storm Coast", "fields": {}}
            )
            assert not answer.is_error
            new_id = answer.structured_content["result"]["id"]
            assert await anyio.to_thread.run_sync(got.wait, 10)
            history = (await session.call_tool("history", {})).structured_content[
                "result"
            ]  # newest first
        watcher.stop_watcher()
        assert [c.nodes_added for c in seen] == [frozenset({new_id})]
        assert seen[0].label == "Create character_sheet 'Storm Coast' (via Curator Bot)"
        assert seen[0].origin == "Curator Bot (mcp)"
        assert watcher.read_api().get_node(new_id).title == "Storm Coast"
    assert history[0]["label"] == "Create character_sheet 'Storm Coast' (via Curator Bot)"
    assert cli_call(demo_copy, "getNode", [new_id])["result"]["title"] == "Storm Coast"
    steps = cli_call(demo_copy, "history", [])["result"]
    assert [s["label"] for s in steps].count(
        "Create character_sheet 'Storm Coast' (via Curator Bot)"
    ) == 1


async def test_undo_takes_back_the_clients_steps_not_the_persons(demo_copy: Path) -> None:
    async with served(demo_copy) as session:
        await session.call_tool("editNode", {"id": "n_596", "title": "Tobias the Agent"})
        cli_call(demo_copy, "editNode", [{"id": "n_597", "title": "Mira the Person"}])
        undone = (await session.call_tool("undo", {})).structured_content["result"]
        assert undone == {"done": True, "label": "Undo Edit '托比亚斯' (via pytest-agent)"} or (
            undone["done"] and "(via pytest-agent)" in undone["label"]
        )
        again = (await session.call_tool("undo", {})).structured_content["result"]
    assert again == {"done": False, "label": None}
    assert cli_call(demo_copy, "getNode", ["n_597"])["result"]["title"] == "Mira the Person"
    assert cli_call(demo_copy, "getNode", ["n_596"])["result"]["title"] == "托比亚斯"


async def test_subscribers_hear_of_another_process_commit(demo_copy: Path) -> None:
    heard: list[tuple[str, float]] = []
    arrived = anyio.Event()

    def on_message(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            heard.append((str(message.params.uri), time.monotonic()))
            arrived.set()

    async with served(demo_copy, on_message=on_message) as session:
        for uri in ("memgraph://node/n_596", "memgraph://injection", "memgraph://schema"):
            await subscribe(session, uri)
        await session.call_tool("getSchema", {})  # the subscriptions are in before the write
        cli_call(demo_copy, "editNode", [{"id": "n_596", "setFields": {"goal": "to sail"}}])
        with anyio.fail_after(10):
            await arrived.wait()
        await anyio.sleep(0.3)  # nothing else is said of that commit
        assert [uri for uri, _ in heard] == ["memgraph://node/n_596"]
        node = await session.read_resource("memgraph://node/n_596")
        assert json.loads(node.contents[0].text)["fields"]["goal"] == "to sail"
        arrived = anyio.Event()
        cli_call(demo_copy, "setInjectionState", [{"recallSelectedIds": ["n_597"]}])
        with anyio.fail_after(10):
            await arrived.wait()
        assert heard[-1][0] == "memgraph://injection"
        state = await session.read_resource("memgraph://injection")
        assert json.loads(state.contents[0].text)["recallSelectedIds"] == ["n_597"]


async def test_resources_list_read_and_refuse_unknown(demo_copy: Path) -> None:
    async with served(demo_copy) as session:
        listed = [str(r.uri) for r in (await session.list_resources()).resources]
        templates = (await session.list_resource_templates()).resource_templates
        schema = json.loads((await session.read_resource("memgraph://schema")).contents[0].text)
        with pytest.raises(MCPError, match="no resource"):
            await session.read_resource("memgraph://node/no-such-node")
        assert (await session.call_tool("getSchema", {})).structured_content["result"] == schema[
            "schema"
        ]
    assert listed == ["memgraph://schema", "memgraph://injection"]
    assert [t.uri_template for t in templates] == ["memgraph://node/{id}"]
    sheets = cli_call(demo_copy, "listNodes", [{"types": ["character_sheet"]}])["result"]
    assert schema["nodesByType"]["character_sheet"] == len(sheets) > 0


async def test_bad_arguments_are_tool_errors_and_the_server_serves_on(demo_copy: Path) -> None:
    before = cli_call(demo_copy, "history", [])["result"]
    cases: list[tuple[str, dict[str, Any], str]] = [
        ("noSuchTool", {}, "BAD_ARGS"),
        ("getNode", {"nodeId": "n_1"}, "BAD_ARGS"),
        ("keywordSearch", {"query": "x", "k": "many"}, "BAD_ARGS"),
        ("listNodes", {"types": "event"}, "BAD_ARGS"),
        ("createNode", {"type": "event", "title": "x" * 1_000_001}, "TOO_LARGE"),
        ("editNode", {"id": "no-such-node", "title": "x"}, ""),
        ("remember", {"nugget": "astra", "key": "k"}, "BAD_ARGS"),
        ("retrieveGraph", {"task_descriptor": "x"}, "INVALID_ARGUMENT"),
        ("retrieveByID", {"id": "nope", "trust": {"max_sensitivity": "high"}}, "RECORD_NOT_FOUND"),
        ("setPins", {"pins": {"no-such-node": [0, 0]}}, "NODE_NOT_FOUND"),
    ]
    async with served(demo_copy) as session:
        for name, arguments, code in cases:
            answer = await session.call_tool(name, arguments)
            if not code:  # refused the seed's way: an answer, not an error
                assert answer.structured_content["result"]["ok"] is False
                continue
            assert answer.is_error, name
            assert answer.structured_content["error"]["code"] == code, (name, answer)
            assert json.loads(answer.content[0].text) == answer.structured_content
        still = await session.call_tool("getNode", {"id": "n_596"})
        assert still.structured_content["result"]["title"] == "托比亚斯"
    assert cli_call(demo_copy, "history", [])["result"] == before  # nothing written


async def test_read_only_offers_and_runs_no_writing_tool(demo_copy: Path) -> None:
    before = cli_call(demo_copy, "history", [])["result"]
    async with served(demo_copy, "--read-only") as session:
        names = {tool.name for tool in (await session.list_tools()).tools}
        refused = await session.call_tool("createNode", {"type": "event", "title": "x"})
        undo = await session.call_tool("undo", {})
        read = await session.call_tool("findByName", {"query": "mira"})
    writing = {name for name, tool in catalogue.tools().items() if tool.writes}
    assert names == set(catalogue.tools()) - writing
    assert {"createNode", "remember", "undo", "setPins"} <= writing
    assert refused.is_error and refused.structured_content["error"]["code"] == "STORE_READ_ONLY"
    assert undo.is_error
    assert not read.is_error
    assert cli_call(demo_copy, "history", [])["result"] == before


def _mcp(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memgraph_gui.cli", "mcp", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=60,
    )


def test_a_server_that_cannot_start_says_why_on_stderr_only(
    tmp_path: Path, demo_copy: Path
) -> None:
    missing = _mcp(["--db", str(tmp_path / "none.memgraph")])
    assert (missing.returncode, missing.stdout) == (1, "")
    assert "MEMORY_STORE_MISSING" in missing.stderr
    assert not (tmp_path / "none.memgraph").exists()
    trust = tmp_path / "trust.json"
    trust.write_text('{"max_sensitivity": "secret"}')
    bad = _mcp(["--db", str(demo_copy), "--trust", str(trust)])
    assert (bad.returncode, bad.stdout) == (1, "")
    assert "INVALID_ARGUMENT" in bad.stderr and "max_sensitivity" in bad.stderr
    trust.write_text("{not json")
    broken = _mcp(["--db", str(demo_copy), "--trust", str(trust)])
    assert (broken.returncode, broken.stdout) == (1, "")
    assert "not valid JSON" in broken.stderr


def test_without_the_extra_the_cli_names_it(tmp_path: Path, demo_copy: Path) -> None:
    shim = tmp_path / "shim"
    (shim / "mcp").mkdir(parents=True)
    (shim / "mcp" / "__init__.py").write_text("raise ImportError(\"No module named 'mcp'\")\n")
    done = _mcp(["--db", str(demo_copy)], env={"PYTHONPATH": f"{shim}{os.pathsep}{ROOT}"})
    assert (done.returncode, done.stdout) == (1, "")
    assert "pip install 'memgraph-gui[mcp]'" in done.stderr


def test_a_raw_client_sending_what_no_store_holds_writes_nothing(demo_copy: Path) -> None:
    """A lone surrogate (which the SDK's own client cannot even send) through raw JSON-RPC: the
    SDK drops the message or we refuse it; nothing is written and the server serves on."""
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "createNode", "arguments": {"type": "event", "title": "a\ud800b"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "getNode", "arguments": {"id": "n_596"}},
        },
    ]
    before = cli_call(demo_copy, "history", [])["result"]
    server = subprocess.Popen(
        [sys.executable, "-m", "memgraph_gui.cli", "mcp", "--db", str(demo_copy)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        for message in messages:
            server.stdin.write(json.dumps(message) + "\n")  # the surrogate goes as \ud800
        server.stdin.flush()
        answers: dict[int, Any] = {}
        while 3 not in answers:
            line = server.stdout.readline()
            assert line, "the server stopped"
            answer = json.loads(line)
            answers[answer.get("id", 0)] = answer
    finally:
        server.stdin.close()
        server.wait(30)
    if 2 in answers:
        assert answers[2]["result"]["structuredContent"]["error"]["code"] == "BAD_ARGS"
    assert answers[3]["result"]["structuredContent"]["result"]["id"] == "n_596"
    assert cli_call(demo_copy, "history", [])["result"] == before


async def test_a_listen_stream_hears_of_another_process_commit(demo_copy: Path) -> None:
    """The 2026-07-28 protocol: ``subscriptions/listen`` instead of ``resources/subscribe``."""
    from mcp import Client

    node = "memgraph://node/n_596"
    info = types.Implementation(name="listener", version="1")
    async with Client(server_params(demo_copy), client_info=info) as client:
        async with client.listen(resource_subscriptions=[node]) as stream:
            assert list(stream.honored.resource_subscriptions or []) == [node]
            cli_call(demo_copy, "editNode", [{"id": "n_597", "title": "Not listened to"}])
            cli_call(demo_copy, "editNode", [{"id": "n_596", "setFields": {"goal": "to listen"}}])
            with anyio.fail_after(10):
                event = await stream.__anext__()
        assert str(event.uri) == node  # n_597's commit came first, and was not told
        read = await client.read_resource(node)
    assert json.loads(read.contents[0].text)["fields"]["goal"] == "to listen"


async def test_undo_reaches_an_earlier_session_and_never_overwrites_the_person(
    demo_copy: Path,
) -> None:
    async with served(demo_copy, name="Curator Bot") as session:
        await session.call_tool("editNode", {"id": "n_596", "setFields": {"goal": "agent's"}})
        await session.call_tool("editNode", {"id": "n_597", "setFields": {"goal": "agent's"}})
    cli_call(demo_copy, "editNode", [{"id": "n_597", "setFields": {"goal": "person's"}}])
    async with served(demo_copy, name="Curator Bot") as session:  # a new session, same client
        refused = await session.call_tool("undo", {})  # its newest step: n_597, changed since
        goal = cli_call(demo_copy, "getNode", ["n_597"])["result"]["fields"]["goal"]
        assert refused.is_error and refused.structured_content["error"]["code"] == "UNDO_CONFLICT"
        assert goal == "person's"
    async with served(demo_copy, name="Someone Else") as session:
        nothing = await session.call_tool("undo", {})
    assert nothing.structured_content["result"] == {"done": False, "label": None}


def test_an_answer_the_sdk_could_not_send_is_sent_as_strict_json() -> None:
    from memgraph_gui.mcp_server import _json_text

    text, data = _json_text({"result": {"title": "a\ud800b", "n": [1.5, 2]}})
    assert json.loads(text) == data == {"result": {"title": "a\ufffdb", "n": [1.5, 2]}}
    text, data = _json_text({"result": {"title": "艾琳", "n": None}})
    assert text == '{"result":{"title":"艾琳","n":null}}'

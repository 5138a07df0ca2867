"""Driving ``memgraph mcp`` as a subprocess through the SDK's own stdio client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters, stdio_client, types

ROOT = Path(__file__).resolve().parents[2]


def server_params(db: Path | str, *extra: str) -> StdioServerParameters:
    """``python -m memgraph_gui.cli mcp --db DB EXTRA...`` with this checkout on the path."""
    env = {
        "PYTHONPATH": str(ROOT),
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/tmp"),
        "QT_QPA_PLATFORM": "offscreen",
    }
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "memgraph_gui.cli", "mcp", "--db", str(db), *extra],
        env=env,
    )


@asynccontextmanager
async def served(
    db: Path | str,
    *extra: str,
    name: str = "pytest-agent",
    on_message: Callable[[Any], Any] | None = None,
) -> AsyncIterator[ClientSession]:
    """An initialized client session on a fresh ``memgraph mcp`` server process."""

    async def handler(message: Any) -> None:
        if on_message is not None:
            on_message(message)

    with open(os.devnull, "w") as errlog:
        async with stdio_client(server_params(db, *extra), errlog=errlog) as (read, write):
            async with ClientSession(
                read,
                write,
                message_handler=handler,
                client_info=types.Implementation(name=name, version="1"),
            ) as session:
                await session.initialize()
                yield session


async def subscribe(session: ClientSession, uri: str) -> None:
    """``resources/subscribe`` (deprecated in the newest protocol era, still served)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        await session.subscribe_resource(uri)


def cli_call(db: Path | str, method: str, args: list[Any]) -> dict[str, Any]:
    """``memgraph call`` in another process: its one JSON answer line."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "memgraph_gui.cli",
            "call",
            "--db",
            str(db),
            method,
            json.dumps(args),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    return json.loads(done.stdout)

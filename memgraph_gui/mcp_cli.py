"""``memgraph mcp``: the command that serves a store to an MCP client (``mcp_server``).

The SDK is an optional extra, imported only when the command runs, so the rest of the CLI never
pays for it (~0.5 s) and works without it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from memgraph_gui.core.domain.errors import as_memgraph_error, bad_args


def add_parser(sub: Any, db: argparse.ArgumentParser) -> None:
    """The ``mcp`` subcommand's arguments."""
    mcp = sub.add_parser(
        "mcp",
        parents=[db],
        help="serve the store to an MCP client over stdio: every API method as a tool "
        "(needs the mcp extra: pip install 'memgraph-gui[mcp]')",
    )
    mcp.add_argument("--read-only", action="store_true", help="offer the reading tools only")
    mcp.add_argument(
        "--trust",
        metavar="FILE",
        help="a Membrane TrustContext (JSON): every answer is what that actor may see",
    )
    mcp.add_argument("--create", action="store_true", help="create the store if it is missing")


def run(options: argparse.Namespace, _out: TextIO) -> int:
    """``mcp``: serve until the client goes away (0). stdout carries the protocol, so a failure
    to start (the extra missing, a bad trust file, no store) is one line on stderr (1)."""
    try:
        import mcp  # noqa: F401  (the optional extra)
    except ImportError:
        print(
            "memgraph mcp: the MCP server needs the optional `mcp` extra: "
            "pip install 'memgraph-gui[mcp]' (the official MCP Python SDK 2.x)",
            file=sys.stderr,
        )
        return 1
    from memgraph_gui import mcp_server
    from memgraph_gui.core.memory import MemoryStore

    try:
        trust = _trust_file(options.trust) if options.trust else None
        store = MemoryStore.open(options.db, create=options.create)
    except Exception as exc:
        error = as_memgraph_error(exc)
        print(f"memgraph mcp: {error.code}: {error.message}", file=sys.stderr)
        return 1
    memory = mcp_server.Memory(store, read_only=options.read_only, trust=trust)
    try:
        mcp_server.serve(memory)
    finally:
        memory.close()
    return 0


def _trust_file(path: str) -> Any:
    """The ``TrustContext`` in the JSON file ``path`` (``INVALID_ARGUMENT`` / ``BAD_ARGS``)."""
    from memgraph_gui.core import jsonapi
    from memgraph_gui.core.membrane.trust import parse_trust

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise bad_args(f"--trust {path}: cannot read it ({exc})") from exc
    return parse_trust(jsonapi.loads(text, f"--trust {path}"), f"--trust {path}")

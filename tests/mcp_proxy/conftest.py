"""A real MCP server behind ``amplifier-hooks mcp``, driven by the ``mcp`` SDK's client.

The server is the npm ``@modelcontextprotocol/server-filesystem`` pinned in
tools/mcp-servers (``make mcp-servers`` installs it into .cache/mcp-servers). Without it
these tests skip and say why -- except under ``CI``, where they fail. The proxy runs as
its client runs it: a child process on the client's pipes, here with a HOME and a state
folder of its own under ``tmp_path``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import textwrap
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import mcp_types as types
import pytest
from mcp.client.session import ClientSession, ElicitationFnT
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.unavailable import agent_cli

ROOT = Path(__file__).resolve().parents[2]
MODULES = ROOT / "modules"

HERE = Path(__file__).resolve().parent
SAMPLE_SERVER = HERE / "sample_server.py"
"""A small MCP server of our own (on the SDK): a file resource,
a tool that answers with a large text, one that makes the server exit."""
REWRITE_HOOK = HERE / "rewrite_hook.py"

__all__ = ["MODULES", "SAMPLE_SERVER", "Sandbox", "proxied", "sample_server", "write_bundle"]


def sample_server(sandbox: Sandbox) -> list[str]:
    """The command line of the sample server, writing its pid beside the workspace."""
    return [sys.executable, str(SAMPLE_SERVER), str(sandbox.workspace.parent / "server.pid")]


class Sandbox(NamedTuple):
    """A workspace, a HOME and the proxy's environment."""

    workspace: Path
    home: Path
    env: dict[str, str]
    server: Path


@pytest.fixture(scope="session")
def filesystem_server() -> Path:
    return agent_cli("The MCP filesystem server", "mcp-servers", "mcp-server-filesystem")


@pytest.fixture
def sandbox(tmp_path: Path, filesystem_server: Path) -> Sandbox:
    workspace = tmp_path / "work"
    home = tmp_path / "home"
    workspace.mkdir()
    home.mkdir()
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_RUNTIME_DIR": str(tmp_path / "run"),
        "AMPLIFIER_HOOKS_LOG": str(tmp_path / "events.jsonl"),
    }
    return Sandbox(workspace, home, env, filesystem_server)


def write_bundle(
    path: Path, hooks: str, session: str = "approvals: {provider: auto, store: ':memory:'}"
) -> Path:
    """A bundle at ``path`` with ``session`` settings and the ``hooks`` entries
    (``{modules}`` is the in-repo modules' folder)."""
    text = (
        'bundle: {name: mcp-test, version: "1"}\n'
        "session:\n" + textwrap.indent(textwrap.dedent(session), "  ") + "\n"
        "hooks:\n" + textwrap.indent(textwrap.dedent(hooks).format(modules=MODULES), "  ")
    )
    path.write_text(text)
    return path


def proxy_command(bundle: Path, server: Sequence[str], *extra: str) -> list[str]:
    """``amplifier-hooks mcp`` as a client runs it, with this interpreter's install."""
    return [
        sys.executable, "-m", "amplifier_hooks.cli", "mcp", "--bundle", str(bundle),
        "--name", "fs", *extra, "--", *server,
    ]  # fmt: skip


@contextlib.asynccontextmanager
async def proxied(
    sandbox: Sandbox,
    bundle: Path,
    *extra: str,
    server: Sequence[str] | None = None,
    elicitation: ElicitationFnT | None = None,
    errlog: Any = None,
) -> AsyncIterator[ClientSession]:
    """A client session with the filesystem server (serving the workspace and HOME)
    behind the proxy."""
    served = [str(sandbox.server), str(sandbox.workspace), str(sandbox.home)]
    if server is not None:
        served = list(server)
    command, *args = proxy_command(bundle, served, *extra)
    params = StdioServerParameters(
        command=command, args=args, env=sandbox.env, cwd=str(sandbox.workspace)
    )
    log = errlog if errlog is not None else sys.stderr
    async with (
        stdio_client(params, errlog=log) as (read, write),
        ClientSession(
            read, write, read_timeout_seconds=60, elicitation_callback=elicitation
        ) as session,
    ):
        await session.initialize()
        yield session


def text_of(result: types.CallToolResult) -> str:
    """The text blocks of a tool result, joined."""
    return "\n".join(b.text for b in result.content if isinstance(b, types.TextContent))

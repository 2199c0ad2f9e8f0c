"""Where each MCP client keeps its servers, and how one server entry is wrapped.

Data, not code per client: a `ClientConfig` names a file (in the project or the home
folder), its format and the key its servers live under. An entry is wrapped by making
its command ``amplifier-hooks mcp --bundle B --name KEY -- <its command and args>`` (a URL
server: ``... --url URL``); every other key of the entry (``env``, ``cwd``, timeouts) stays
as it was, so the client still sets them, now on the proxy, which passes them on.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, NamedTuple

__all__ = [
    "CLIENTS",
    "CLIENT_NAMES",
    "ClientConfig",
    "Wrapped",
    "config_paths",
    "is_wrapped",
    "wrap_entry",
]

Format = Literal["json", "toml"]


class ClientConfig(NamedTuple):
    """One config file of one MCP client."""

    client: str
    """The client's name (``--client``)."""
    title: str
    where: Literal["project", "home"]
    path: str
    """Relative to the project directory or the home folder."""
    format: Format
    key: str
    """The top-level key whose table holds the servers."""
    url_keys: tuple[str, ...]
    """Keys that give a Streamable HTTP server's address."""
    unproxied: Mapping[str, frozenset[str]] = {}
    """Key -> values of an entry the proxy cannot reach (an SSE server)."""


_SSE = {"type": frozenset({"sse"})}

CLIENTS: tuple[ClientConfig, ...] = (
    ClientConfig("claude-code", "Claude Code", "project", ".mcp.json", "json", "mcpServers",
                 ("url",), _SSE),
    ClientConfig("claude-code", "Claude Code", "home", ".claude.json", "json", "mcpServers",
                 ("url",), _SSE),
    ClientConfig("claude-desktop", "Claude Desktop", "home",
                 ".config/Claude/claude_desktop_config.json", "json", "mcpServers", ()),
    ClientConfig("claude-desktop", "Claude Desktop", "home",
                 "Library/Application Support/Claude/claude_desktop_config.json", "json",
                 "mcpServers", ()),
    ClientConfig("cursor", "Cursor", "project", ".cursor/mcp.json", "json", "mcpServers",
                 ("url",), _SSE),
    ClientConfig("cursor", "Cursor", "home", ".cursor/mcp.json", "json", "mcpServers",
                 ("url",), _SSE),
    # Gemini CLI: `httpUrl` is Streamable HTTP, `url` is SSE.
    ClientConfig("gemini-cli", "Gemini CLI", "project", ".gemini/settings.json", "json",
                 "mcpServers", ("httpUrl",), {"url": frozenset()}),
    ClientConfig("gemini-cli", "Gemini CLI", "home", ".gemini/settings.json", "json",
                 "mcpServers", ("httpUrl",), {"url": frozenset()}),
    ClientConfig("codex", "Codex", "project", ".codex/config.toml", "toml", "mcp_servers",
                 ("url",)),
    ClientConfig("codex", "Codex", "home", ".codex/config.toml", "toml", "mcp_servers",
                 ("url",)),
)  # fmt: skip
"""Every client config `mcp wrap` knows (Claude Desktop's in its Linux and macOS places)."""

CLIENT_NAMES = tuple(dict.fromkeys(c.client for c in CLIENTS))

_NOT_WRAPPED_KEYS = ("headers", "http_headers", "bearer_token_env_var", "env_http_headers")
"""Keys of a URL server the proxy cannot pass on (its HTTP headers, tokens)."""


def config_paths(
    project: Path, home: Path, clients: tuple[str, ...] = ()
) -> list[tuple[ClientConfig, Path]]:
    """Each known config (of ``clients``, or all) with its path here; the same file
    once (a project in the home folder has its ``.cursor/mcp.json`` there too)."""
    found: list[tuple[ClientConfig, Path]] = []
    seen: set[Path] = set()
    codex_home = os.environ.get("CODEX_HOME")
    for config in CLIENTS:
        if clients and config.client not in clients:
            continue
        base = project if config.where == "project" else home
        path = base / config.path
        if config.client == "codex" and config.where == "home" and codex_home:
            path = Path(codex_home) / "config.toml"
        path = path.absolute()
        if path not in seen:
            seen.add(path)
            found.append((config, path))
    return found


class Wrapped(NamedTuple):
    """An entry's wrapped form, or why it stays as it is."""

    entry: dict[str, Any] | None
    why_not: str = ""


def is_wrapped(entry: Mapping[str, Any]) -> bool:
    """Whether ``entry`` already runs through the proxy."""
    command = entry.get("command")
    args = entry.get("args")
    return (
        isinstance(command, str)
        and os.path.basename(command).startswith("amplifier-hooks")
        and isinstance(args, list)
        and args[:1] == ["mcp"]
    )


def wrap_entry(config: ClientConfig, name: str, entry: object, proxy: str, bundle: str) -> Wrapped:
    """``entry`` (server ``name`` of ``config``) run through ``proxy`` with ``bundle``."""
    if not isinstance(entry, dict):
        return Wrapped(None, "its entry is not a table")
    if is_wrapped(entry):
        return Wrapped(None, "already wrapped")
    head = [proxy, "mcp", "--bundle", bundle, "--name", name]
    command = entry.get("command")
    if isinstance(command, str) and command:
        args = entry.get("args", [])
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            return Wrapped(None, "its args are not a list of strings")
        return Wrapped({**entry, "command": head[0], "args": [*head[1:], "--", command, *args]})
    for key, values in config.unproxied.items():
        if key in entry and (not values or entry[key] in values):
            return Wrapped(
                None, f"an SSE server ({key}: {entry[key]}), which the proxy cannot reach"
            )
    url_key = next((k for k in config.url_keys if isinstance(entry.get(k), str)), None)
    if url_key is None:
        return Wrapped(None, "it has neither a command nor a URL")
    sent = [k for k in _NOT_WRAPPED_KEYS if entry.get(k)]
    if sent:
        return Wrapped(None, f"it sends {', '.join(sent)}, which the proxy cannot pass on")
    rest = {k: v for k, v in entry.items() if k not in config.url_keys and k != "type"}
    return Wrapped({**rest, "command": head[0], "args": [*head[1:], "--url", entry[url_key]]})

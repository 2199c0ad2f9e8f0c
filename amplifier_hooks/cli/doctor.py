"""``amplifier-hooks doctor``: per agent CLI, what is wired, to which bundle, whether the
host will run it, and one harmless probe through the hook (`amplifier_hooks.hosts.doctor`);
per MCP client, the servers ``mcp wrap`` put behind the proxy.

Exit 0 when every wired hook will run and answers its probe; 1 otherwise (also when
nothing is wired: nothing is guarded).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import IO, Any, NamedTuple

from amplifier_hooks.cli.commands import add_command
from amplifier_hooks.hosts.doctor import Wiring, diagnose
from amplifier_hooks.transports.mcp.clients import ClientConfig, config_paths
from amplifier_hooks.transports.mcp.sdk import McpUnavailable, require_sdk
from amplifier_hooks.transports.mcp.wrapping import wrapped_servers
from amplifier_hooks.transports.relay.servers import ServerNote, running_servers

STARTED = "amplifier-hooks: started a background hook server"
"""How the line of a hook that started a background server begins."""

__all__ = ["add_parser", "report_lines", "run", "server_lines"]


def add_parser(commands: Any, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser = add_command(
        commands,
        common,
        "doctor",
        "For Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode, Cline and "
        "OpenClaw, in the user's settings and the project's: which events run which bundle, "
        "what would stop the host from running them (its program not on PATH, hook trust, "
        "folder trust, a missing bundle, a plugin that does not load, a Node too old), the "
        "paths no hook of ours can close (OpenClaw: `openclaw agent exec`, "
        "plugins.enabled/allow/deny, a missing load.paths folder), and the answer of one "
        "harmless probe (the shell running `true`) sent through the installed hook or plugin.",
    )
    parser.add_argument(
        "--project", metavar="DIR", default=".", help="the project to check (default: .)"
    )
    parser.add_argument("--no-probe", action="store_true", help="send no probe")
    parser.add_argument("--json", action="store_true", help="print JSON")
    return parser


def report_lines(found: list[Wiring]) -> list[str]:
    """The human report, one block per wired file."""
    if not found:
        return ["no amplifier-hooks hooks are wired into any agent CLI here: nothing is guarded"]
    lines: list[str] = []
    for wiring in found:
        profile = wiring.profile
        lines.append(f"{profile.title} ({wiring.scope}): {wiring.file}")
        lines.append(f"  events: {', '.join(wiring.events) or '-'}")
        lines.append(f"  bundle: {', '.join(wiring.bundles) or '-'}")
        status = "will run" if wiring.runs else "WILL NOT RUN"
        lines.append(f"  status: {status}")
        lines += [f"  problem: {problem}" for problem in wiring.problems]
        lines += [f"  note: {note}" for note in wiring.notes]
        if wiring.probe is not None:
            lines.append(f"  probe ({wiring.probe.event}, `true`): {wiring.probe.reading}")
            started = [x for x in wiring.probe.stderr.splitlines() if STARTED in x]
            lines += [f"  the probe {x.split(': ', 1)[1].strip()}" for x in started]
    return lines


def _as_json(wiring: Wiring) -> dict[str, Any]:
    probe = wiring.probe
    return {
        "host": wiring.profile.command,
        "scope": wiring.scope,
        "file": str(wiring.file),
        "events": list(wiring.events),
        "bundles": list(wiring.bundles),
        "runs": wiring.runs,
        "problems": list(wiring.problems),
        "notes": list(wiring.notes),
        "probe": None
        if probe is None
        else {
            "event": probe.event,
            "exit_code": probe.exit_code,
            "stdout": probe.stdout,
            "reading": probe.reading,
            "ok": probe.ok,
        },
    }


def server_lines(servers: list[ServerNote]) -> list[str]:
    """The background hook servers that run, and how to stop each."""
    if not servers:
        return ["background hook servers: none running"]
    lines = ["background hook servers (started by our hooks; each exits after an idle hour):"]
    for note in servers:
        lines.append(f"  pid {note.pid}: {note.bundle} in {note.workspace}; stop: kill {note.pid}")
    return lines


class McpWiring(NamedTuple):
    """MCP servers of one client config that run through ``amplifier-hooks mcp``."""

    config: ClientConfig
    file: Path
    servers: list[tuple[str, str]]
    """Each server's name and the bundle it runs with."""
    problems: list[str]


def mcp_wirings(project: Path) -> list[McpWiring]:
    """Every client config here with servers wrapped by ``mcp wrap``, and what would
    stop them: a bundle that is not there, the SDK missing. The SDK is imported only
    when a server is wrapped: importing it takes a second of CPU that a report without
    one need not pay."""
    wrapped = []
    for config, path in config_paths(project, Path.home()):
        servers = wrapped_servers(config, path) if path.is_file() else []
        if servers:
            wrapped.append((config, path, servers))
    missing = _sdk_missing() if wrapped else ""
    found = []
    for config, path, servers in wrapped:
        problems = [missing] if missing else []
        problems += [f"{name}: no bundle at {b}" for name, b in servers if not Path(b).is_file()]
        found.append(McpWiring(config, path, servers, problems))
    return found


def _sdk_missing() -> str:
    """Why ``amplifier-hooks mcp`` cannot run here ("" when the SDK imports)."""
    try:
        require_sdk()
    except McpUnavailable as exc:
        return str(exc)
    return ""


def mcp_lines(found: list[McpWiring]) -> list[str]:
    """The report's block per client config with wrapped MCP servers."""
    lines = []
    for wiring in found:
        lines.append(f"MCP servers of {wiring.config.title} ({wiring.config.where}): {wiring.file}")
        for name, bundle in wiring.servers:
            lines.append(f"  {name}: through amplifier-hooks mcp, bundle {bundle}")
        lines.append(f"  status: {'WILL NOT RUN' if wiring.problems else 'will run'}")
        lines += [f"  problem: {problem}" for problem in wiring.problems]
    return lines


def _mcp_json(wiring: McpWiring) -> dict[str, Any]:
    return {
        "host": f"mcp:{wiring.config.client}",
        "scope": wiring.config.where,
        "file": str(wiring.file),
        "servers": [{"name": n, "bundle": b} for n, b in wiring.servers],
        "runs": not wiring.problems,
        "problems": wiring.problems,
    }


def run(args: argparse.Namespace, out: IO[str]) -> int:
    project = Path(args.project).absolute()
    found = diagnose(project, send_probe=not args.no_probe)
    mcp = mcp_wirings(project)
    servers = running_servers()
    if args.json:
        document = {
            "wired": [_as_json(w) for w in found] + [_mcp_json(w) for w in mcp],
            "servers": [note._asdict() for note in servers],
        }
        out.write(json.dumps(document, indent=2) + "\n")
    else:
        lines = report_lines(found) if found or not mcp else []
        out.write("\n".join(lines + mcp_lines(mcp) + server_lines(servers)) + "\n")
    healthy = all(w.runs and (w.probe is None or w.probe.ok) for w in found)
    healthy = healthy and not any(w.problems for w in mcp)
    return 0 if (found or mcp) and healthy else 1
